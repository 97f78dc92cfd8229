"""The Kubernetes files checked without a cluster: the manifests of deploy/k8s against
Kubernetes' own JSON schemas (strict: an unknown field is an error), as the API server's
schema validation would take them, plus the checks it makes beyond the schemas (a selector
matches its pods' labels, what a pod refers to is defined); the Helm values of deploy/nats
against the documented values of NATS's chart (it publishes no schema: tests/deploy/
nats-chart-values.yaml); KEDA's ScaledObjects of deploy/k8s/keda.yaml against KEDA's CRD
(tests/deploy/keda-scaledobject-crd.yaml) and the workloads, consumers and metrics they
name; the Grafana dashboard of deploy/grafana against the metrics the services export
(shared/metrics.py). Each check is shown failing on a planted mistake."""

from __future__ import annotations

import copy
import functools
import json
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import jsonschema
import kubernetes_validate
import pytest
import yaml

from services.game_worker.app import deadlines_durable
from shared import metrics
from shared.bus.credentials import APP_ACCOUNT, ServerSecrets
from shared.bus.server import helm_route_values
from shared.messages import subjects
from tests.conftest import ROOT

MANIFESTS = ROOT / "deploy" / "k8s" / "tabletop.yaml"
HELM_VALUES = ROOT / "deploy" / "nats" / "values.yaml"
CHART_VALUES = Path(__file__).parent / "deploy" / "nats-chart-values.yaml"
# The oldest Kubernetes the manifests need (the StatefulSet's pods are told their index by the
# `apps.kubernetes.io/pod-index` label from 1.28) and the newest the schemas cover.
VERSIONS = ("1.28.0", kubernetes_validate.latest_version())
# JSON Patch operations (RFC 6902), as the chart's `patch` values take them
PATCH_OPS = {"add", "remove", "replace", "move", "copy", "test"}

Doc = dict[str, Any]


def manifests() -> list[Doc]:
    return [doc for doc in yaml.safe_load_all(MANIFESTS.read_text()) if doc]


@functools.cache  # a resource the same as one validated before (each check changes one)
def schema_problems(resource: str) -> tuple[str, ...]:
    """Where the resource (as JSON) leaves the schemas of `VERSIONS`."""
    found = []
    for version in VERSIONS:
        try:
            kubernetes_validate.validate(json.loads(resource), version, strict=True)
        except kubernetes_validate.ValidationError as err:
            found.append(f"{version}: {'.'.join(map(str, err.path))}: {err.message}")
    return tuple(found)


def problems(docs: list[Doc]) -> list[str]:
    """What Kubernetes would refuse in `docs`, each said with the resource it is in."""
    found = []
    config_maps = {d["metadata"]["name"] for d in docs if d["kind"] == "ConfigMap"}
    for doc in docs:
        name = f"{doc.get('kind')}/{doc.get('metadata', {}).get('name')}"
        found += [
            f"{name} on Kubernetes {problem}" for problem in schema_problems(json.dumps(doc, sort_keys=True))
        ]
        spec = doc.get("spec", {})
        if "template" not in spec:
            continue
        labels = spec["template"].get("metadata", {}).get("labels", {})
        wanted = spec.get("selector", {}).get("matchLabels", {})
        if not wanted or any(labels.get(k) != v for k, v in wanted.items()):
            found.append(f"{name}: the selector {wanted} does not select its pods {labels}")
        for container in spec["template"]["spec"].get("containers", []):
            for source in container.get("envFrom", []):
                ref = source.get("configMapRef", {}).get("name")
                if ref is not None and ref not in config_maps:
                    found.append(f"{name}: no ConfigMap {ref}")
    return found


def test_the_manifests_are_valid_kubernetes_resources():
    docs = manifests()
    assert {d["kind"] for d in docs} == {"ConfigMap", "Deployment", "StatefulSet"}
    assert problems(docs) == []


def _pods(docs: list[Doc]) -> list[Doc]:
    return [d["spec"]["template"] for d in docs if "template" in d.get("spec", {})]


MISTAKES: dict[str, Callable[[list[Doc]], None]] = {
    "replicas as text": lambda docs: docs[1]["spec"].update(replicas="2"),
    "a misspelled field": lambda docs: docs[1]["spec"].update(replica=2),
    "a container without a name": lambda docs: _pods(docs)[0]["spec"]["containers"][0].pop("name"),
    "a volume mount of no path": lambda docs: _pods(docs)[2]["spec"]["containers"][0]["volumeMounts"][0].pop(
        "mountPath"
    ),
    "a selector of other pods": lambda docs: docs[-1]["spec"]["selector"]["matchLabels"].update(
        service="bot"
    ),
    "a ConfigMap not defined": lambda docs: docs.remove(docs[0]),
}


@pytest.mark.parametrize("mistake", MISTAKES)
def test_a_planted_mistake_in_the_manifests_is_found(mistake):
    docs = copy.deepcopy(manifests())
    MISTAKES[mistake](docs)
    assert problems(docs), f"{mistake}: not found"


# --- NATS's Helm values -------------------------------------------------------------------------


def value_problems(values: Any, chart: Any, where: str = "") -> list[str]:
    """Where `values` leaves the chart's documented values: a key the chart does not have, or a
    value of another kind than its default (a default of null takes any). Under `merge` any
    NATS config or Kubernetes field goes (the chart merges it as it is); `patch` is a list of
    JSON Patch operations."""
    if where.endswith(".merge"):
        return [] if isinstance(values, dict) else [f"{where}: a map, not {values!r}"]
    if where.endswith(".patch"):
        return patch_problems(values, where)
    if chart is None:
        return []
    if isinstance(chart, dict):
        if not isinstance(values, dict):
            return [f"{where}: a map, not {values!r}"]
        found = []
        for key, value in values.items():
            if key not in chart:
                found.append(f"{where}.{key}: not a value of the chart")
            else:
                found += value_problems(value, chart[key], f"{where}.{key}")
        return found
    kind = bool if isinstance(chart, bool) else type(chart)  # bool before int: True is an int
    if not isinstance(values, kind) or (kind is not bool and isinstance(values, bool)):
        return [f"{where}: {values!r} is not a {kind.__name__} (the chart's default: {chart!r})"]
    return []


def patch_problems(patch: Any, where: str) -> list[str]:
    if not isinstance(patch, list):
        return [f"{where}: a list of JSON Patch operations, not {patch!r}"]
    found = []
    for i, op in enumerate(patch):
        if not isinstance(op, dict) or op.get("op") not in PATCH_OPS:
            found.append(f"{where}[{i}]: not a JSON Patch operation: {op!r}")
        elif not str(op.get("path", "")).startswith("/"):
            found.append(f"{where}[{i}]: its path is not a JSON Pointer: {op.get('path')!r}")
        elif op["op"] in {"add", "replace", "test"} and "value" not in op:
            found.append(f"{where}[{i}]: {op['op']} without a value")
    return found


def chart_defaults() -> Doc:
    defaults: Doc = yaml.safe_load(CHART_VALUES.read_text())
    return defaults


def test_the_helm_values_are_the_charts_values(tmp_path):
    values = yaml.safe_load(HELM_VALUES.read_text())
    assert value_problems(values, chart_defaults()) == []
    # the routes' values `tabletop credentials` writes beside it
    routes = yaml.safe_load(helm_route_values(ServerSecrets.load_or_create(tmp_path)))
    assert value_problems(routes, chart_defaults()) == []


HELM_MISTAKES: dict[str, Callable[[Doc], None]] = {
    "a misspelled key": lambda v: v["config"]["jetstream"]["fileStore"]["pvc"].update(sise="20Gi"),
    "a key of another chart": lambda v: v.update(replicaCount=3),
    "a number as text": lambda v: v["config"]["cluster"].update(replicas="3"),
    "a switch as text": lambda v: v["config"]["websocket"].update(enabled="true"),
    "a patch without its value": lambda v: v["container"]["patch"][0].pop("value"),
    "a patch of no operation": lambda v: v["podTemplate"]["patch"][0].update(op="append"),
}


@pytest.mark.parametrize("mistake", HELM_MISTAKES)
def test_a_planted_mistake_in_the_helm_values_is_found(mistake):
    values = yaml.safe_load(HELM_VALUES.read_text())
    HELM_MISTAKES[mistake](values)
    assert value_problems(values, chart_defaults()), f"{mistake}: not found"


# --- KEDA's ScaledObjects (deploy/k8s/keda.yaml) ------------------------------------------------

KEDA = ROOT / "deploy" / "k8s" / "keda.yaml"
KEDA_CRD = Path(__file__).parent / "deploy" / "keda-scaledobject-crd.yaml"
# What each scaler's trigger takes in its `metadata` (KEDA's documentation of the scalers):
# required, then optional. The CRD takes any keys there (strings), so a misspelled one passes it
# and the scaler falls back to its default or fails in the cluster.
SCALER_METADATA = {
    "nats-jetstream": (
        {"natsServerMonitoringEndpoint", "stream", "consumer"},
        {"account", "accountID", "lagThreshold", "activationLagThreshold", "useHttps"},
    ),
    "prometheus": (
        {"serverAddress", "query", "threshold"},
        {"activationThreshold", "namespace", "customHeaders", "ignoreNullValues", "unsafeSsl"},
    ),
}
METRIC_NAME = re.compile(r"tabletop_[a-z_]+")
# The series a metric of each type exposes (prometheus_client's text format)
SERIES = {"counter": ("_total",), "histogram": ("_bucket", "_count", "_sum"), "gauge": ("",)}


def scaled_objects() -> list[Doc]:
    return [doc for doc in yaml.safe_load_all(KEDA.read_text()) if doc]


def _strict(schema: Any) -> Any:
    """The CRD's schema refusing unknown fields, as the API server does (kubectl's field
    validation is strict): every object of listed properties takes no others, unless it says
    it keeps unknown fields."""
    if isinstance(schema, list):
        return [_strict(s) for s in schema]
    if not isinstance(schema, dict):
        return schema
    strict = {key: _strict(value) for key, value in schema.items()}
    if (
        "properties" in schema
        and "additionalProperties" not in schema
        and not schema.get("x-kubernetes-preserve-unknown-fields")
    ):
        strict["additionalProperties"] = False
    return strict


@functools.cache
def scaled_object_schema() -> jsonschema.Draft7Validator:
    """KEDA's ScaledObject (keda.sh/v1alpha1) as its CRD's OpenAPI v3 schema says (the
    structural subset of JSON Schema; the CEL rules of `x-kubernetes-validations` are not run)."""
    crd = yaml.safe_load(KEDA_CRD.read_text())
    (version,) = [v for v in crd["spec"]["versions"] if v["name"] == "v1alpha1"]
    return jsonschema.Draft7Validator(_strict(version["schema"]["openAPIV3Schema"]))


def exported_series() -> dict[str, str]:
    """Each series shared/metrics.py exposes -> the name of its metric."""
    return {
        family.name + suffix: family.name
        for metric in metrics.METRICS
        for family in metric.describe()
        for suffix in SERIES[family.type]
    }


def metric_problems(expression: str, where: str) -> list[str]:
    series = exported_series()
    return [
        f"{where}: {name} is not a series of shared/metrics.py"
        for name in METRIC_NAME.findall(expression)
        if name not in series
    ]


def worker_game(workload: Doc) -> str | None:
    """The game a worker's pods run (`tabletop worker <game>`), None for another service."""
    args = workload["spec"]["template"]["spec"]["containers"][0].get("args", [])
    return args[1] if args[:1] == ["worker"] else None


def trigger_problems(trigger: Doc, where: str, game: str | None) -> list[str]:
    """A trigger's metadata against its scaler's keys and against what runs here: the stream,
    account and consumer the target reads, the metrics it exports, of the target's game."""
    kind, meta = trigger.get("type"), trigger.get("metadata") or {}
    if kind not in SCALER_METADATA:
        return [f"{where}: no scaler {kind!r} here"]
    required, optional = SCALER_METADATA[kind]
    found = [f"{where}: no {key}" for key in sorted(required - meta.keys())]
    unknown = sorted(meta.keys() - required - optional)
    found += [f"{where}: {key} is not a key of the {kind} scaler" for key in unknown]
    if kind == "nats-jetstream":
        account, stream, consumer = meta.get("account"), meta.get("stream"), meta.get("consumer")
        if account != APP_ACCOUNT:
            found.append(f"{where}: the streams are in the account {APP_ACCOUNT}, not {account!r}")
        if stream != subjects.TIMERS_STREAM or game is None:
            found.append(f"{where}: {stream}/{consumer} is read by no worker")
        elif consumer != deadlines_durable(game):
            found.append(f"{where}: the {game} workers read {deadlines_durable(game)}, not {consumer}")
    if kind == "prometheus":
        query = meta.get("query", "")
        found += metric_problems(query, where)
        found += [
            f"{where}: the query counts the game {other}, its target runs {game}"
            for other in re.findall(r'game="([^"]*)"', query)
            if other != game
        ]
    return found


def keda_problems(docs: list[Doc], workloads: list[Doc]) -> list[str]:
    """What the API server (the CRD's schema) or KEDA would refuse in `docs`, and what does not
    fit deploy/k8s/tabletop.yaml: a target it does not define, a trigger of another game."""
    found = []
    defined = {(w["kind"], w["metadata"]["name"]): w for w in workloads}
    for doc in docs:
        name = f"ScaledObject/{doc.get('metadata', {}).get('name')}"
        if (doc.get("apiVersion"), doc.get("kind")) != ("keda.sh/v1alpha1", "ScaledObject"):
            found.append(f"{name}: not a keda.sh/v1alpha1 ScaledObject")
        found += [
            f"{name}: {'.'.join(map(str, err.absolute_path))}: {err.message}"
            for err in scaled_object_schema().iter_errors(doc)
        ]
        spec = doc.get("spec", {})
        ref = spec.get("scaleTargetRef", {})
        kind = ref.get("kind", "Deployment")
        target = defined.get((kind, ref.get("name")))
        if target is None or ref.get("apiVersion", "apps/v1") != target["apiVersion"]:
            found.append(f"{name}: deploy/k8s/tabletop.yaml has no {kind} {ref.get('name')}")
            continue
        for i, trigger in enumerate(spec.get("triggers", [])):
            if isinstance(trigger, dict):
                found += trigger_problems(trigger, f"{name}: triggers[{i}]", worker_game(target))
    return found


def test_the_keda_scaled_objects_fit_kedas_schema_and_the_workloads():
    docs = scaled_objects()
    assert [worker_game(w) for w in manifests() if w["kind"] == "Deployment" and worker_game(w)] == [
        d["spec"]["scaleTargetRef"]["name"].removeprefix("tabletop-worker-").replace("-", "_") for d in docs
    ], "one ScaledObject per game's workers"
    assert keda_problems(docs, manifests()) == []


def _meta(docs: list[Doc], doc: int, trigger: int) -> Doc:
    """The metadata of a trigger (0: the prometheus one, 1: the nats-jetstream one)."""
    meta: Doc = docs[doc]["spec"]["triggers"][trigger]["metadata"]
    return meta


def _target(docs: list[Doc]) -> Doc:
    target: Doc = docs[0]["spec"]["scaleTargetRef"]
    return target


KEDA_MISTAKES: dict[str, Callable[[list[Doc]], None]] = {
    "replicas as text": lambda docs: docs[0]["spec"].update(minReplicaCount="2"),
    "a misspelled field": lambda docs: docs[0]["spec"].update(maxReplicas=16),
    "a trigger without its type": lambda docs: docs[0]["spec"]["triggers"][0].pop("type"),
    "a threshold as a number": lambda docs: _meta(docs, 0, 1).update(lagThreshold=50),
    "a target that does not exist": lambda docs: _target(docs).update(name="tabletop-worker-chess"),
    "a target of another kind": lambda docs: _target(docs).update(kind="StatefulSet"),
    "a misspelled scaler key": lambda docs: _meta(docs, 0, 1).update(
        lagTreshold=_meta(docs, 0, 1).pop("lagThreshold")
    ),
    "another game's deadlines": lambda docs: _meta(docs, 1, 1).update(consumer=deadlines_durable("naishi")),
    "the log instead of the deadlines": lambda docs: _meta(docs, 0, 1).update(stream=subjects.STREAM),
    "another account": lambda docs: _meta(docs, 0, 1).update(account="PLAYERS"),
    "a metric that does not exist": lambda docs: _meta(docs, 0, 0).update(
        query='sum(rate(tabletop_commands_answered_total{game="naishi"}[2m]))'
    ),
    "another game's commands": lambda docs: _meta(docs, 1, 0).update(
        query='sum(rate(tabletop_commands_total{game="naishi"}[2m]))'
    ),
}


@pytest.mark.parametrize("mistake", KEDA_MISTAKES)
def test_a_planted_mistake_in_the_scaled_objects_is_found(mistake):
    docs = copy.deepcopy(scaled_objects())
    KEDA_MISTAKES[mistake](docs)
    assert keda_problems(docs, manifests()), f"{mistake}: not found"


# --- the Grafana dashboard (deploy/grafana) -----------------------------------------------------

DASHBOARD = ROOT / "deploy" / "grafana" / "tabletop-dashboard.json"
DATASOURCE = "${DS_PROMETHEUS}"  # the input Grafana asks for on import, as its exports name it


def dashboard() -> Doc:
    loaded: Doc = json.loads(DASHBOARD.read_text())
    return loaded


def dashboard_problems(board: Doc) -> list[str]:
    """What makes the dashboard show nothing: no datasource input to import it with, a panel
    of no datasource or no query, a query of a series no service exports or of a variable the
    dashboard does not define; and a metric of shared/metrics.py that no panel shows."""
    found = []
    inputs = {i.get("name"): i for i in board.get("__inputs", [])}
    if inputs.get("DS_PROMETHEUS", {}).get("pluginId") != "prometheus":
        found.append("no DS_PROMETHEUS input of a Prometheus datasource")
    variables = {v.get("name") for v in board.get("templating", {}).get("list", [])}
    for variable in board.get("templating", {}).get("list", []):
        if variable.get("datasource", {}).get("uid") != DATASOURCE:
            found.append(f"variable {variable.get('name')}: not of the datasource {DATASOURCE}")
    shown = set()
    series = exported_series()
    for panel in board.get("panels", []):
        where = f"panel {panel.get('title')!r}"
        if not isinstance(panel.get("datasource"), dict) or panel["datasource"].get("uid") != DATASOURCE:
            found.append(f"{where}: not of the datasource {DATASOURCE}")
        if not panel.get("targets"):
            found.append(f"{where}: no query")
        for target in panel.get("targets", []):
            expression = target.get("expr", "")
            if not METRIC_NAME.search(expression):
                found.append(f"{where}: {target.get('refId')} queries no tabletop metric: {expression!r}")
            if target.get("datasource", panel.get("datasource")) != panel.get("datasource"):
                found.append(f"{where}: {target.get('refId')} of another datasource than its panel")
            found += metric_problems(expression, where)
            shown |= {series[name] for name in METRIC_NAME.findall(expression) if name in series}
            found += [
                f"{where}: no variable ${name}"
                for name in re.findall(r"\$\{?(\w+)", expression)
                if not name.startswith("__") and name not in variables
            ]
    defined = {family.name for metric in metrics.METRICS for family in metric.describe()}
    found += [f"{name}: on no panel" for name in sorted(defined - shown)]
    return found


def test_the_dashboard_shows_every_metric_and_only_those_the_services_export():
    board = dashboard()
    assert len(board["panels"]) >= 6
    assert dashboard_problems(board) == []


def _first_target(board: Doc) -> Doc:
    target: Doc = board["panels"][0]["targets"][0]
    return target


DASHBOARD_MISTAKES: dict[str, Callable[[Doc], None]] = {
    "a misspelled metric": lambda b: _first_target(b).update(
        expr=_first_target(b)["expr"].replace("tabletop_commands_total", "tabletop_comands_total")
    ),
    "a histogram read as a counter": lambda b: b["panels"][1]["targets"][0].update(
        expr=b["panels"][1]["targets"][0]["expr"].replace("_seconds_bucket", "_seconds_total")
    ),
    "a panel of no datasource": lambda b: b["panels"][2].pop("datasource"),
    "a panel of a datasource not imported": lambda b: b["panels"][2].update(
        datasource={"type": "prometheus", "uid": "prometheus"}
    ),
    "a panel of no query": lambda b: b["panels"][3].update(targets=[]),
    "a metric on no panel": lambda b: b["panels"].pop(5),
    "a variable not defined": lambda b: _first_target(b).update(
        expr=_first_target(b)["expr"].replace("$game", "$games")
    ),
    "no datasource input": lambda b: b.update(__inputs=[]),
}


@pytest.mark.parametrize("mistake", DASHBOARD_MISTAKES)
def test_a_planted_mistake_in_the_dashboard_is_found(mistake):
    board = dashboard()
    DASHBOARD_MISTAKES[mistake](board)
    assert dashboard_problems(board), f"{mistake}: not found"
