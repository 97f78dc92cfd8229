"""`tabletop up` keeps its services and its nats-server running: a process killed (SIGKILL) or
frozen (SIGSTOP) is started again, and `tabletop status` counts the restart. Over the real
`tabletop up`, as a person runs it (tests/test_cli.py)."""

import asyncio
import json
import os
import signal
import time
from pathlib import Path
from typing import Any

import pytest

from services.game_worker.app import service_name
from services.supervisor import SERVICE_NAME
from services.table_projector import maintenance
from shared.bus.connection import Bus
from shared.bus.credentials import ServerSecrets
from shared.settings import load_settings
from tests.processes import Up, instances


@pytest.fixture(scope="module")
def up(tmp_path_factory):
    server = Up(tmp_path_factory.mktemp("tabletop-up-supervised")).start()
    yield server
    assert server.stop() == 0


def processes_of(up: Up) -> dict[str, dict[str, Any]]:
    """What `tabletop up` says of the processes it supervises (`tabletop status`)."""

    async def ask() -> dict[str, dict[str, Any]]:
        bus = await admin_bus(up)
        try:
            (replica,) = (await maintenance.service_stats(bus))[SERVICE_NAME]
            return dict(replica["endpoints"][0]["data"]["processes"])
        finally:
            await bus.close()

    return asyncio.run(ask())


async def admin_bus(up: Up) -> Bus:
    admin = ServerSecrets(up.data / "credentials").credentials("admin")
    return await Bus.connect(up.url, load_settings(), name="test-supervision", wait=10, credentials=admin)


async def until_restarted(bus: Bus, name: str, restarts: int, timeout: float = 60.0) -> dict[str, Any]:
    """The supervisor's record of process `name` once it shows `restarts` restarts and runs."""
    deadline = time.monotonic() + timeout
    while True:
        for replica in (await maintenance.service_stats(bus)).get(SERVICE_NAME, []):
            process = replica["endpoints"][0]["data"]["processes"][name]
            if process["restarts"] >= restarts and process["pid"]:
                return dict(process)
        assert time.monotonic() < deadline, f"{name} was not started again"


def gone(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    return False


def test_a_killed_service_answers_again_within_5_s_and_status_shows_the_restart(up):
    before = processes_of(up)["workers"]  # every game's worker, in one process
    answers_as = service_name("highcard")

    async def scenario() -> float:
        bus = await admin_bus(up)
        try:
            assert await instances(bus, answers_as, enough=1) == 1
            os.kill(before["pid"], signal.SIGKILL)
            killed = time.monotonic()
            while await instances(bus, answers_as, enough=1) < 1:  # until a new one answers
                assert time.monotonic() - killed < 30, "the killed worker was not replaced"
            return time.monotonic() - killed
        finally:
            await bus.close()

    back_after = asyncio.run(scenario())
    assert back_after < 5.0, f"the worker answered again after {back_after:.1f} s"
    after = processes_of(up)["workers"]
    assert after["restarts"] == before["restarts"] + 1 and after["pid"] != before["pid"]
    assert after["last_failure"] == "killed by SIGKILL"
    said = up.run("status").stdout  # what an operator reads
    line = next(line for line in said.splitlines() if line.strip().startswith("workers "))
    assert f"pid {after['pid']}" in line and f"restarts {after['restarts']}" in line, said
    assert "killed by SIGKILL" in line
    table = up.run("new", "highcard", "--as", "ann").stdout.strip()  # it plays again
    assert "ok, version 2" in up.run("join", table, "--as", "bob").stdout


def test_a_frozen_service_is_replaced(up):
    before = processes_of(up)["table-projector"]
    os.kill(before["pid"], signal.SIGSTOP)

    async def scenario() -> dict[str, Any]:
        bus = await admin_bus(up)
        try:
            return await until_restarted(bus, "table-projector", before["restarts"] + 1)
        finally:
            await bus.close()

    after = asyncio.run(scenario())
    assert after["pid"] != before["pid"] and "not answering its ping" in after["last_failure"]
    assert gone(before["pid"])  # the frozen one was killed, not left beside its replacement
    table = up.run("new", "highcard", "--as", "cid").stdout.strip()
    view = json.loads(up.run("view", table, "--as", "cid", "--json").stdout)  # views are served
    assert view["view"]["seats"] == ["cid"]


def test_a_killed_nats_server_is_started_again_and_play_goes_on(up):
    table = up.run("new", "highcard", "--as", "dee", "--option", "hand_size=1").stdout.strip()
    up.run("join", table, "--as", "eve")
    before = processes_of(up)["nats-server"]
    os.kill(before["pid"], signal.SIGKILL)

    async def scenario() -> dict[str, Any]:
        bus = await admin_bus(up)  # it reconnects by itself once the server is back
        try:
            return await until_restarted(bus, "nats-server", before["restarts"] + 1)
        finally:
            await bus.close()

    after = asyncio.run(scenario())
    assert after["pid"] != before["pid"] and after["last_failure"] == "killed by SIGKILL"
    assert "ok" in up.run("start", table, "--as", "dee").stdout  # the services reconnected
    view = json.loads(up.run("view", table, "--as", "dee", "--json").stdout)
    assert view["view"]["status"] == "running" and view["view"]["seats"] == ["dee", "eve"]


def test_ctrl_c_at_a_terminal_stops_every_service_without_taking_it_for_a_failure(tmp_path):
    """A terminal sends Ctrl-C to its whole foreground process group: the services ignore it
    and leave the stop to `up`, so none ends before `up` knows it is stopping (which it would
    log as a failure and start again)."""
    up = Up(tmp_path / "up").start(own_group=True)
    try:
        pids = {name: p["pid"] for name, p in processes_of(up).items() if name != "nats-server"}
        for name, pid in pids.items():
            status = Path(f"/proc/{pid}/status").read_text().splitlines()
            ignored = int(next(line for line in status if line.startswith("SigIgn:")).split()[1], 16)
            assert ignored & (1 << (signal.SIGINT - 1)), f"{name} stops on a Ctrl-C meant for up"
    finally:
        code = up.stop(whole_group=True)
    assert code == 0
    said = (up.data / "up.log").read_text()
    assert "service_failed" not in said and "service_restarted" not in said, said[-3000:]
    assert all(gone(pid) for pid in pids.values())
