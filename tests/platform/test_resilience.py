"""Nothing lost, nothing doubled: a worker killed in the middle of a load, and the nats-server
itself killed and restarted in the middle of a load; views that converge by themselves after
the server is killed under load."""

import asyncio
import json
import signal
import subprocess
import time
import uuid
from datetime import UTC, datetime
from pathlib import Path

import msgspec
import pytest

from services.client import Client
from services.table_projector import maintenance
from shared.bus.connection import Bus
from shared.bus.errors import Unavailable
from shared.bus.server import EmbeddedServer
from shared.settings import load_settings
from tests import consistency
from tests.botload import BotLoad
from tests.platform.stack import stack
from tests.processes import TABLETOP, Services, cli_env


def table_id() -> str:
    return f"t{uuid.uuid4().hex[:12]}"


async def load(
    client: Client,
    tables: list[str],
    players: int,
    rounds=("join", "leave", "join"),
    answered: list[int] | None = None,
) -> dict[str, dict[str, int]]:
    """Every player of every table joins and leaves; each command keeps its id through retries.
    Returns table -> {command id: version} for the accepted ones."""
    accepted: dict[str, dict[str, int]] = {t: {} for t in tables}

    async def player(table: str, name: str) -> None:
        for kind in rounds:
            command = {"id": uuid.uuid4().hex, "type": kind}
            while True:
                try:
                    reply = await client.command("highcard", table, name, command)
                except Unavailable:
                    continue  # the same id again, until someone answers
                if reply["ok"] or reply["error"]["code"] not in ("unavailable", "conflict"):
                    break
                await asyncio.sleep(0.05)
            if reply["ok"]:
                accepted[table][command["id"]] = reply["version"]
            if answered is not None:
                answered[0] += 1

    await asyncio.gather(*(player(t, f"p{i}") for t in tables for i in range(players)))
    return accepted


async def until(condition, timeout: float = 120.0) -> None:
    """Until `condition()` holds; a failure after `timeout` seconds, never a hang."""
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, "the condition did not come true in time"
        await asyncio.sleep(0.002)


async def check_log(bus: Bus, tables: list[str], accepted: dict[str, dict[str, int]]) -> int:
    total = 0
    for table in tables:
        log = [msgspec.json.decode(m.data) for m in await bus.events.read("highcard", table)]
        assert [b["version"] for b in log] == list(range(1, len(log) + 1)), table
        ids = [b["command_id"] for b in log]
        assert len(ids) == len(set(ids)), "a command applied twice"
        in_log = {b["command_id"]: b["version"] for b in log}
        for command_id, version in accepted[table].items():
            assert in_log.get(command_id) == version, "an accepted command is missing"
        total += len(log)
    return total


async def test_a_worker_killed_mid_load_loses_and_doubles_nothing(bus, nats_url):
    env = cli_env(NATS_URL=nats_url, TABLETOP_LOG_LEVEL="warning")
    workers = [
        subprocess.Popen(
            [*TABLETOP, "worker", "highcard"], env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
        )
        for _ in range(2)
    ]
    try:
        client = Client(bus, timeout=2, attempts=20)
        tables = [table_id() for _ in range(10)]
        while True:  # a worker answers
            try:
                if (await client.command("highcard", tables[0], "ann", {"type": "create"}))["ok"]:
                    break
            except Unavailable:
                await asyncio.sleep(0.2)
        for table in tables[1:]:
            assert (await client.command("highcard", table, "ann", {"type": "create"}))["ok"]
        deadline = asyncio.get_running_loop().time() + 60
        while len(await bus.service_instances("tabletop-worker-highcard")) < 2:
            assert asyncio.get_running_loop().time() < deadline, "the second worker is not up"

        answered = [0]
        loading = asyncio.create_task(load(client, tables, players=10, answered=answered))
        await until(lambda: answered[0] >= 40)
        assert not loading.done()  # the kill lands in the middle of the load
        workers[0].send_signal(signal.SIGKILL)
        accepted = await loading
        assert workers[0].wait(5) == -signal.SIGKILL
        total = await check_log(bus, tables, accepted)
        assert total >= len(tables) * 5
    finally:
        for w in workers:
            if w.poll() is None:
                w.send_signal(signal.SIGTERM)
                w.wait(15)


async def test_a_nats_restart_mid_load_keeps_every_acknowledged_command(
    tmp_path,
    secure_server,
):
    server = EmbeddedServer(tmp_path / "nats").start()
    port = server.port
    bus = await Bus.connect(server.url, load_settings(), name="test-client", wait=10)
    await bus.ensure_streams()
    try:
        async with stack(server.url, "worker:highcard", "table-projector", "history-projector"):
            client = Client(bus, timeout=2, attempts=60)
            tables = [table_id() for _ in range(6)]
            for table in tables:
                assert (await client.command("highcard", table, "ann", {"type": "create"}))["ok"]

            answered = [0]
            loading = asyncio.create_task(
                load(client, tables, players=6, rounds=("join", "leave") * 4, answered=answered)
            )
            await until(lambda: answered[0] >= 40)
            assert not loading.done()  # the restart lands in the middle of the load
            server.kill()  # abrupt: acknowledged writes must be on disk already
            await asyncio.sleep(1.0)
            server = EmbeddedServer(tmp_path / "nats", port=port, exact_port=True).start()
            accepted = await loading
            await check_log(bus, tables, accepted)
            # the services serve again on their own: commands, views and replays
            fresh = table_id()
            reply = await client.command("highcard", fresh, "ann", {"type": "create"})
            assert reply == {"ok": True, "version": 1}
            view = await client.wait_view("highcard", fresh, "ann", 1, timeout=30)
            assert view["view"]["seats"] == ["ann"]
            last = max(max(a.values(), default=1) for a in accepted.values())
            busiest = max(tables, key=lambda t: max(accepted[t].values(), default=1))
            view = await client.wait_view("highcard", busiest, "spectator", last, timeout=30)
            assert view["version"] >= last
            steps = await client.replay("highcard", busiest)
            assert steps[-1]["version"] == view["version"]
    finally:
        await bus.close()
        server.stop()


async def test_a_worker_started_before_nats_waits_for_it_then_serves(
    tmp_path,
    secure_server,
):
    from shared.bus.server import free_port

    port = free_port()
    url = f"nats://127.0.0.1:{port}"
    env = cli_env(NATS_URL=url, TABLETOP_LOG_LEVEL="info")
    log = tmp_path / "worker.log"
    with open(log, "ab") as out:
        worker = subprocess.Popen([*TABLETOP, "worker", "highcard"], env=env, stdout=out, stderr=out)
    server = None
    try:
        deadline = asyncio.get_running_loop().time() + 60
        while log.read_text().count("waiting_for_nats") < 3:  # it has tried, and tries again
            assert worker.poll() is None, log.read_text()  # waiting, not crashed
            assert asyncio.get_running_loop().time() < deadline, log.read_text()
            await asyncio.sleep(0.05)
        server = EmbeddedServer(tmp_path / "nats", port=port, exact_port=True).start()
        bus = await Bus.connect(url, load_settings(), name="test-client", wait=10)
        try:
            client = Client(bus, timeout=2, attempts=30)
            reply = await client.command("highcard", table_id(), "ann", {"type": "create"})
            assert reply == {"ok": True, "version": 1}
        finally:
            await bus.close()
    finally:
        worker.send_signal(signal.SIGTERM)
        assert worker.wait(20) == 0  # drained and stopped cleanly
        if server is not None:
            server.stop()


def test_the_embedded_server_fsyncs_before_acknowledging_unless_relaxed(tmp_path):
    assert "sync_interval: always" in EmbeddedServer(tmp_path).config()
    assert "sync_interval" not in EmbeddedServer(tmp_path, sync_always=False).config()


KILLS = 3
CONVERGE_WITHIN = 30.0  # seconds after the load stops for every view to equal a fold


@pytest.mark.slow
async def test_views_converge_by_themselves_after_server_kills_under_load(tmp_path, secure_server):
    """One node, as `tabletop up` runs it: the views bucket acknowledges a put before it
    reaches the disk, so a server killed (SIGKILL) may lose the last view writes while the
    log keeps their messages. The server is killed under a bot load and restarted, several
    times; with no operator command, every view ends equal to a fold of the log within
    `CONVERGE_WITHIN` seconds, and nothing acknowledged is lost."""
    server = EmbeddedServer(tmp_path / "nats").start()
    port = server.port
    services = Services({"NATS_URL": server.url}, tmp_path / "logs")
    bus = await Bus.connect(server.url, load_settings(), name="test-client", wait=10)
    await bus.ensure_streams()
    try:
        for args in (("worker", "highcard"), ("table-projector",), ("history-projector",)):
            services.start(*args)
        await services.wait_serving(bus)
        acknowledged = consistency.Acknowledged()
        client = consistency.RecordingClient(bus, acknowledged, timeout=2, attempts=60)
        load = BotLoad(client, ["highcard"], lanes=8)
        load.start()
        restarts = []
        # the load moving on is the precondition, not what is measured: waited for long enough
        # for a machine whose cores are busy with other whole stacks (60 s was missed once)
        for _ in range(KILLS):
            await acknowledged.wait_for(acknowledged.count + 150, timeout=180)  # mid-load
            server.kill()
            server = EmbeddedServer(tmp_path / "nats", port=port, exact_port=True).start()
            restarts.append(datetime.now(UTC))
        await acknowledged.wait_for(acknowledged.count + 150, timeout=180)  # serving again
        await load.stop()
        stopped = time.monotonic()

        log = await consistency.read_log(bus)
        figures = consistency.check_log(log, acknowledged)
        assert (figures.lost, figures.misplaced, figures.doubled, figures.forked) == (0, 0, 0, 0), figures
        views = await consistency.settled_views(bus, log, timeout=CONVERGE_WITHIN, poll=0.2)
        converged = time.monotonic() - stopped
        written_again = sum(
            (replica["endpoints"][0].get("data") or {}).get("reconciled", 0)
            for replica in (await maintenance.service_stats(bus)).get("tabletop-table-projector", [])
        )
        print(
            f"\n{KILLS} kills, {figures.acknowledged} acknowledged, {load.tables_ended} tables ended; "
            f"tables whose views the projector wrote again: {written_again} "
            f"({repairs_after(restarts, tmp_path / 'logs')}); "
            f"views equal to a fold {converged:.1f} s after the load stopped; given up: {dict(load.failures)}"
        )
        assert views.different == [], (
            f"{len(views.different)} keys on {len(views.tables)} tables differ from the log "
            f"{CONVERGE_WITHIN:.0f} s after the load stopped, e.g. "
            + "; ".join(f"{d.key}: {d.why}" for d in views.different[:3])
        )
    finally:
        await bus.close()
        await asyncio.to_thread(services.stop_all)
        server.stop()


def repairs_after(restarts: list[datetime], logs: Path) -> str:
    """When the projector wrote views again, as seconds after the server restart before."""
    said = []
    for path in logs.glob("table-projector*.log"):
        for line in path.read_text().splitlines():
            if '"views_written_again"' not in line:
                continue
            entry = json.loads(line)
            at = datetime.fromisoformat(entry["timestamp"].replace("Z", "+00:00"))
            restart = max((r for r in restarts if r <= at), default=None)
            after = f"{(at - restart).total_seconds():.1f} s after restart" if restart else "at start"
            said.append(f"{entry['tables']} {after}")
    return ", ".join(said) or "none"
