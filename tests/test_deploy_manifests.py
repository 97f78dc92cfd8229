"""The Kubernetes files checked without a cluster: the manifests of deploy/k8s against
Kubernetes' own JSON schemas (strict: an unknown field is an error), as the API server's
schema validation would take them, plus the checks it makes beyond the schemas (a selector
matches its pods' labels, what a pod refers to is defined); the Helm values of deploy/nats
against the documented values of NATS's chart (it publishes no schema: tests/deploy/
nats-chart-values.yaml). Each check is shown failing on a planted mistake."""

from __future__ import annotations

import copy
import functools
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import kubernetes_validate
import pytest
import yaml

from shared.bus.credentials import ServerSecrets
from shared.bus.server import helm_route_values
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
