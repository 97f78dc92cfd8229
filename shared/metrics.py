"""The services' Prometheus metrics, and their exposition over HTTP when `TABLETOP_METRICS_PORT`
asks for it (`serve`, called where a service's process starts: services/compose.py `run_alone`).

Every metric is defined here, once, in the process's default registry, named `tabletop_...`.
The services count through the small classes below, which look each labelled child up once
and keep it in a dict: a count on a hot path is a dict lookup and an increment. A game worker
counts only when its port is set (a count takes a lock: 5% of a command's time); the other
services count whether or not anything listens; with the port unset (the default) nothing does.
docs/operations.md ("Metrics and scaling") lists them; deploy/grafana and deploy/k8s/keda.yaml
use them."""

from __future__ import annotations

from datetime import datetime
from typing import Generic, TypeVar

from prometheus_client import Counter, Gauge, Histogram, disable_created_metrics, start_http_server
from prometheus_client.metrics import MetricWrapperBase

# No `<name>_created` series beside each counter and histogram: nobody reads them here.
disable_created_metrics()  # type: ignore[no-untyped-call]

# Seconds, from a fraction of a millisecond (a command on a cached table) to the 10 s a client
# gives up after.
LATENCY_BUCKETS = (0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0)

# --- the game worker ----------------------------------------------------------------------------

COMMANDS = Counter(
    "tabletop_commands",
    "Commands a game worker answered (requests; due deadlines are not counted), by game and "
    "outcome: ok, or the error code of the reply.",
    ["game", "outcome"],
)
COMMAND_SECONDS = Histogram(
    "tabletop_command_seconds",
    "Seconds a game worker took on a command, from its receipt to its reply sent.",
    ["game"],
    buckets=LATENCY_BUCKETS,
)
TABLE_CACHE_HITS = Counter(
    "tabletop_table_cache_hits",
    "Commands whose table a game worker had folded in its cache when they came.",
    ["game"],
)
TABLE_CACHE_MISSES = Counter(
    "tabletop_table_cache_misses",
    "Commands whose table a game worker did not have in its cache (read from the log).",
    ["game"],
)

# --- the table projector ------------------------------------------------------------------------

APPEND_TO_PUSH_SECONDS = Histogram(
    "tabletop_append_to_push_seconds",
    "Seconds from a command's `at` stamp (the worker's clock as it decided, just before the "
    "append) to its step pushed to the table's viewers by the table projector (the projector's "
    "clock: skew between machines adds to it).",
    ["game"],
    buckets=LATENCY_BUCKETS,
)
PARTITION_LAG = Gauge(
    "tabletop_partition_lag",
    "Messages of a log partition still to deliver to its table projector, as the server said "
    "with the last batch (the `pending` of `tabletop status`).",
    ["partition"],
)
VIEWS_WRITTEN = Counter(
    "tabletop_views_written",
    "Views (one per seat and one for spectators) the table projector stored, by game.",
    ["game"],
)

# --- the auth service ---------------------------------------------------------------------------

SIGN_INS = Counter(
    "tabletop_sign_ins",
    "Sign-ins the auth callout answered, by outcome: signed_in, registered, session, guest, "
    "or the reason of a refusal (wrong_password, busy, expired, ...), or error.",
    ["outcome"],
)

METRICS = (
    COMMANDS,
    COMMAND_SECONDS,
    TABLE_CACHE_HITS,
    TABLE_CACHE_MISSES,
    APPEND_TO_PUSH_SECONDS,
    PARTITION_LAG,
    VIEWS_WRITTEN,
    SIGN_INS,
)

M = TypeVar("M", bound=MetricWrapperBase)


class ByLabel(Generic[M]):
    """One metric's children by the value of one label, the others fixed: `.labels(...)` is
    called once per value, then the child is taken from a dict."""

    def __init__(self, metric: M, label: str, **fixed: str) -> None:
        self._metric = metric
        self._label = label
        self._fixed = fixed
        self._children: dict[str, M] = {}

    def __getitem__(self, value: str) -> M:
        child = self._children.get(value)
        if child is None:
            child = self._children[value] = self._metric.labels(**self._fixed, **{self._label: value})
        return child


class WorkerMetrics:
    """A game worker's metrics, for its one game."""

    def __init__(self, game: str) -> None:
        self.outcomes = ByLabel(COMMANDS, "outcome", game=game)
        self.seconds = COMMAND_SECONDS.labels(game=game)
        self.cache_hits = TABLE_CACHE_HITS.labels(game=game)
        self.cache_misses = TABLE_CACHE_MISSES.labels(game=game)

    def answered(self, code: str | None, seconds: float) -> None:
        """A command answered `seconds` after its receipt: ok (`code` None) or refused."""
        self.outcomes["ok" if code is None else code].inc()
        self.seconds.observe(seconds)


class ProjectorMetrics:
    """The table projector's metrics."""

    def __init__(self) -> None:
        self.append_to_push = ByLabel(APPEND_TO_PUSH_SECONDS, "game")
        self.views_written = ByLabel(VIEWS_WRITTEN, "game")

    def pushed(self, game: str, at: str, now: float) -> None:
        """A step stamped `at` (ISO 8601, UTC) pushed at `now` (epoch seconds)."""
        try:
            stamped = datetime.fromisoformat(at).timestamp()
        except ValueError:  # no stamp (a batch written without one): nothing to measure
            return
        self.append_to_push[game].observe(max(now - stamped, 0.0))

    @staticmethod
    def lag_of(partition: int) -> Gauge:
        return PARTITION_LAG.labels(partition=str(partition))


class SignInMetrics:
    """The auth callout's metrics."""

    def __init__(self) -> None:
        self.outcomes = ByLabel(SIGN_INS, "outcome")

    def answered(self, outcome: str) -> None:
        self.outcomes[outcome].inc()


def serve(port: int) -> None:
    """Expose this process's metrics at http://<any address>:`port`/metrics (a thread of its
    own, so a scrape is answered while the event loop is busy); 0: nothing listens."""
    if not port:
        return
    try:
        start_http_server(port)
    except OSError as err:
        raise SystemExit(f"TABLETOP_METRICS_PORT={port}: cannot listen there ({err})") from err
