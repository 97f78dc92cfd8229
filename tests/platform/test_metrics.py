"""The services' Prometheus metrics, scraped over HTTP from real `tabletop` processes started
with `TABLETOP_METRICS_PORT` (shared/metrics.py): a game worker and a table projector on the
session's NATS, and an auth service on a NATS of its own (it would share the session's
sign-ins with the session's auth service). Each test reads the counters before and after what
it does and checks that they moved by exactly that."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import aiohttp
import pytest
from prometheus_client.parser import text_string_to_metric_families

from services import compose
from services.client import Client
from services.table_projector import maintenance
from shared.bus.connection import Bus
from shared.bus.server import free_port
from shared.messages import subjects
from shared.settings import load_settings
from tests import crowd
from tests.processes import Services, auth_env, instances
from tests.waiting import until

pytestmark = pytest.mark.slow  # `tabletop` processes of their own

GAME = "highcard"
Samples = dict[tuple[str, tuple[tuple[str, str], ...]], float]


async def scrape(port: int) -> Samples:
    """Every sample the process at `port` exposes, by name and labels."""
    async with (
        aiohttp.ClientSession() as session,
        session.get(f"http://127.0.0.1:{port}/metrics", timeout=aiohttp.ClientTimeout(total=10)) as response,
    ):
        assert response.status == 200
        text = await response.text()
    return {
        (sample.name, tuple(sorted(sample.labels.items()))): sample.value
        for family in text_string_to_metric_families(text)
        for sample in family.samples
    }


def value(samples: Samples, name: str, **labels: str) -> float:
    """A sample's value; 0 when the process has not counted it yet (no child yet)."""
    return samples.get((name, tuple(sorted(labels.items()))), 0.0)


def moved(before: Samples, after: Samples, name: str, **labels: str) -> float:
    return value(after, name, **labels) - value(before, name, **labels)


@pytest.fixture
def service_processes(nats_url: str, tmp_path: Path) -> Iterator[Services]:
    services = Services({"NATS_URL": nats_url}, tmp_path / "logs")
    yield services
    services.stop_all()


async def caught_up(bus: Bus) -> bool:
    """Every partition's messages delivered to the table projector and acknowledged."""
    lag = await maintenance.partition_lag(bus)
    return all(v is None or v == (0, 0) for v in lag.values())


async def test_a_worker_and_a_projector_export_their_counts_and_latencies(bus, service_processes):
    worker_port, projector_port = free_port(), free_port()
    service_processes.env["TABLETOP_METRICS_PORT"] = str(worker_port)
    service_processes.start("worker", GAME)
    service_processes.env["TABLETOP_METRICS_PORT"] = str(projector_port)
    service_processes.start("table-projector")
    await service_processes.wait_serving(bus)
    # this worker alone answers the game's commands, and the projector has read what earlier
    # tests left in the log: what moves from here on is this test's
    assert await instances(bus, compose.worker(GAME).answers_as[0]) == 1
    await until(lambda: caught_up(bus), timeout=60, every=0.1)
    worker_before, projector_before = await scrape(worker_port), await scrape(projector_port)

    client = Client(bus, timeout=10)
    table = f"t{uuid.uuid4().hex[:12]}"
    # each command's views stored before the next is sent: one batch each for the projector
    commands: list[tuple[str, dict[str, Any]]] = [
        ("ann", {"type": "create", "seats": 2}),
        ("bob", {"type": "join"}),
        ("ann", {"type": "start"}),
    ]
    for version, (player, command) in enumerate(commands, start=1):
        assert (await client.command(GAME, table, player, command))["ok"]
        await client.wait_view(GAME, table, subjects.SPECTATOR, version)
    refused = await client.command(GAME, f"t{uuid.uuid4().hex[:12]}", "cid", {"type": "join"})
    assert not refused["ok"] and refused["error"]["code"] == "unknown_table"

    worker = await scrape(worker_port)
    assert moved(worker_before, worker, "tabletop_commands_total", game=GAME, outcome="ok") == 3
    assert moved(worker_before, worker, "tabletop_commands_total", game=GAME, outcome="unknown_table") == 1
    assert moved(worker_before, worker, "tabletop_command_seconds_count", game=GAME) == 4
    assert moved(worker_before, worker, "tabletop_command_seconds_bucket", game=GAME, le="+Inf") == 4
    assert 0 < moved(worker_before, worker, "tabletop_command_seconds_sum", game=GAME) < 4 * 10
    # the create and the unknown table's join found no table in the cache; join and start did
    assert moved(worker_before, worker, "tabletop_table_cache_misses_total", game=GAME) == 2
    assert moved(worker_before, worker, "tabletop_table_cache_hits_total", game=GAME) == 2

    async def pushed() -> Samples | None:
        after = await scrape(projector_port)
        done = moved(projector_before, after, "tabletop_append_to_push_seconds_count", game=GAME) >= 3
        return after if done else None

    projector = await until(pushed, timeout=10, every=0.05)
    assert moved(projector_before, projector, "tabletop_append_to_push_seconds_count", game=GAME) == 3
    assert 0 <= moved(projector_before, projector, "tabletop_append_to_push_seconds_sum", game=GAME) < 3 * 10
    # a view per seat and the spectator's: 2 after the create, 3 after the join, 3 after the start
    assert moved(projector_before, projector, "tabletop_views_written_total", game=GAME) == 2 + 3 + 3
    for partition in range(subjects.PARTITIONS):  # caught up again: nothing left to deliver
        assert ("tabletop_partition_lag", (("partition", str(partition)),)) in projector
        assert value(projector, "tabletop_partition_lag", partition=str(partition)) == 0
    # the worker counts no views, the projector no commands
    assert not any(name.startswith("tabletop_views") for name, _ in worker)
    assert not any(name.startswith("tabletop_command") for name, _ in projector)


@pytest.fixture
def own_site(tmp_path: Path) -> Iterator[tuple[str, Services]]:
    """A NATS of its own, as `tabletop up` runs it, and a place for its auth processes."""
    settings = load_settings(data_dir=str(tmp_path / "data"), credentials_dir=str(tmp_path / "credentials"))
    server = compose.embedded_server(settings)
    with server:
        services = Services(auth_env(server.url, server.secrets), tmp_path / "logs")
        try:
            yield server.url, services
        finally:
            services.stop_all()


async def test_the_auth_service_counts_sign_ins_by_outcome(own_site):
    url, services = own_site
    port = free_port()
    services.env["TABLETOP_METRICS_PORT"] = str(port)
    services.start("auth")

    async def guest_signs_in() -> bool:
        return (await crowd.sign_in(url, "guest")).signed_in

    await until(guest_signs_in, timeout=60, every=0.2)  # the callout answers
    before = await scrape(port)
    name = f"m{uuid.uuid4().hex[:10]}"
    assert (await crowd.sign_in(url, name, "a long enough password")).signed_in  # registered
    assert (await crowd.sign_in(url, name, "a long enough password")).signed_in
    assert not (await crowd.sign_in(url, name, "not the password at all")).signed_in
    assert (await crowd.sign_in(url, "guest")).signed_in
    after = await scrape(port)
    assert {
        outcome: moved(before, after, "tabletop_sign_ins_total", outcome=outcome)
        for outcome in ("registered", "signed_in", "wrong_password", "guest", "error")
    } == {"registered": 1, "signed_in": 1, "wrong_password": 1, "guest": 1, "error": 0}
