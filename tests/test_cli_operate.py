"""The operator's commands as subprocesses against a real NATS: `verify` finds a view that
differs from the log, `rebuild-views --table` repairs it while the projector runs, `status`
shows every service and the projector's lag per partition, and a projector shard runs."""

import asyncio
import json
import random
import subprocess
import uuid

import pytest

from services.client import Client, play_with_bots
from services.table_projector import maintenance
from shared.messages import subjects
from shared.messages.envelopes import table_views_body
from tests.platform.stack import stack
from tests.platform.test_views_exact import until_exact
from tests.processes import TABLETOP, cli_env


def run_tabletop(nats_url: str, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [*TABLETOP, *args], env=cli_env(NATS_URL=nats_url), text=True, capture_output=True, timeout=120
    )


async def tabletop(nats_url: str, *args: str) -> subprocess.CompletedProcess:
    """The command run while this test's services (in this process) keep answering."""
    return await asyncio.to_thread(run_tabletop, nats_url, *args)


async def test_verify_finds_a_wrong_view_and_rebuild_of_one_table_repairs_it(bus, nats_url):
    # an id that does not name its game: the commands find the game in the log
    client, table = Client(bus), f"t{uuid.uuid4().hex[:12]}"
    async with stack(nats_url, "worker:highcard", "table-projector"):
        await play_with_bots(client, "highcard", table, ["a", "b"], random.Random(5))
        await until_exact(bus, [table])
        assert (await tabletop(nats_url, "verify", "--table", table)).returncode == 0
        key = subjects.views_key("highcard", table)
        stored = await bus.table_views("highcard", table)
        views = {viewer: stored.of(viewer) for viewer in stored.views}
        views["a"] = b'{"version": 1, "view": {"hand": ["every", "card"]}}'
        await bus.view_put(key, table_views_body(stored.version, views))
        found = await tabletop(nats_url, "verify")
        assert found.returncode == 1
        assert f"highcard {table}: {key}" in found.stdout
        as_json = json.loads((await tabletop(nats_url, "verify", "--json")).stdout)
        assert any(d["table"] == table and d["key"] == key for d in as_json)

        repaired = await tabletop(nats_url, "rebuild-views", "--table", table)
        assert repaired.returncode == 0, repaired.stderr
        assert "rebuilt at version" in repaired.stderr
        assert (await tabletop(nats_url, "verify", "--table", table)).returncode == 0
        nowhere = await tabletop(nats_url, "verify", "--table", f"t{uuid.uuid4().hex[:12]}")
        assert nowhere.returncode == 1 and "has no log" in nowhere.stderr


async def test_a_table_id_in_two_games_logs_needs_its_game(bus, nats_url):
    client, table = Client(bus), f"t{uuid.uuid4().hex[:12]}"
    async with stack(nats_url, "worker:highcard", "worker:crashy", "table-projector"):
        for game in ("highcard", "crashy"):
            assert (await client.command(game, table, "ann", {"type": "create"}))["ok"]
        await until_exact(bus, [table])
        both = await tabletop(nats_url, "verify", "--table", table)
        assert both.returncode == 1 and "crashy, highcard" in both.stderr and "--game" in both.stderr
        assert (await tabletop(nats_url, "verify", "--table", table, "--game", "highcard")).returncode == 0


async def test_verify_reports_a_server_that_refuses_it(nats_url, secure_server):
    """Signed in as a service whose role may not read the views bucket: the server refuses
    the reads (they go unanswered); verify says so and exits 2, no traceback."""
    if secure_server.secrets is None:
        pytest.skip("an outside NATS: its roles' passwords are not known here")
    password = secure_server.secrets.password("history")
    env = cli_env(NATS_URL=nats_url, NATS_USER="history", NATS_PASSWORD=password)
    done = await asyncio.to_thread(
        subprocess.run, [*TABLETOP, "verify"], env=env, text=True, capture_output=True, timeout=120
    )
    assert done.returncode == 2, done.stdout + done.stderr
    assert "refused or did not answer" in done.stderr and "Traceback" not in done.stderr


async def test_status_shows_every_service_and_the_lag_per_partition(bus, nats_url):
    async with stack(nats_url, "worker:highcard", "table-projector", "history-projector"):
        client = Client(bus)
        table = uuid.uuid4().hex
        await client.command("highcard", table, "ann", {"type": "create"})
        await until_exact(bus, [table])
        while any(lag not in (None, (0, 0)) for lag in (await maintenance.partition_lag(bus)).values()):
            await asyncio.sleep(0.1)  # every partition acknowledged
        done = await tabletop(nats_url, "status", "--json")
        assert done.returncode == 0, done.stderr
        status = json.loads(done.stdout)
        assert len(status["services"]["tabletop-table-projector"]) == 1
        assert len(status["services"]["tabletop-worker-highcard"]) == 1
        assert status["partitions"]["0"] == {"pending": 0, "unacknowledged": 0}
        text = (await tabletop(nats_url, "status")).stdout
        assert "tabletop-worker-highcard" in text and "p15: 0/0" in text


def test_a_shard_outside_the_partitions_is_refused(nats_url):
    done = run_tabletop(nats_url, "table-projector", "--shard", "3/2")
    assert done.returncode != 0 and "--shard" in done.stderr


async def test_log_leaders_on_one_server_names_it_and_spreads_nothing(bus, nats_url):
    found = await tabletop(nats_url, "log-leaders", "--json")
    assert found.returncode == 0, found.stderr
    streams = json.loads(found.stdout)
    assert list(streams) == [subjects.STREAM]
    leader = streams[subjects.STREAM]["leader"]
    assert leader and streams[subjects.STREAM]["nodes"] == [leader]
    said = await tabletop(nats_url, "log-leaders", "--spread")
    assert said.returncode == 0 and said.stdout.split() == [
        subjects.STREAM,
        "leader",
        f"{leader},",
        "on",
        leader,
    ]
