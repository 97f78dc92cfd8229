"""A full store, over a real nats-server whose JetStream storage limit is small: every command
is answered at once `storage_full` and nothing is appended; once the store is under its limit
again, appends resume by themselves, nothing acknowledged is lost and the views equal a fold."""

from __future__ import annotations

import asyncio
import json
import time
import uuid
from collections.abc import AsyncIterator
from pathlib import Path

import nats.js.errors
import pytest

from services.client import new_id
from shared.bus.connection import Bus
from shared.bus.event_store import storage_full
from shared.bus.server import MIB, DiskUsage, EmbeddedServer
from shared.messages.envelopes import OUTCOME_UNKNOWN, STORAGE_FULL
from shared.settings import load_settings
from tests.consistency import Acknowledged, Answers, RecordingClient, check_log, read_log, settled_views
from tests.platform.stack import stack
from tests.test_cli_operate import tabletop

pytestmark = pytest.mark.slow

GAME = "highcard"
LIMIT = 4 * MIB  # the store's limit: the server's and the account's
FILLER = "FILLER"  # a stream of the same account that takes the store to its limit
ANSWERED_WITHIN = 1.0  # seconds
RESUMED_WITHIN = 10.0  # seconds after space returns


@pytest.fixture
async def server(tmp_path, secure_server) -> AsyncIterator[EmbeddedServer]:
    server = EmbeddedServer(tmp_path / "nats", max_store=LIMIT).start()
    try:
        yield server
    finally:
        server.stop()


async def fill(bus: Bus) -> int:
    """Publish to the filler stream until JetStream refuses even a byte (it refuses a message
    that would take the store past its limit): the messages it took."""
    await bus.js.add_stream(name=FILLER, subjects=["filler.>"])
    taken, size = 0, 64 * 1024
    while size:
        try:
            await bus.js.publish("filler.data", b"x" * size, stream=FILLER)
        except nats.js.errors.APIError as err:
            if not storage_full(err):
                raise
            size //= 2  # the room left is smaller than this: try a smaller one
            continue
        taken += 1
        assert taken * 1 < LIMIT, f"the store took {LIMIT} bytes and more"
    return taken


async def timed(client: RecordingClient, table: str, player: str, command: dict) -> tuple[dict, float]:
    started = time.monotonic()
    reply = await client.command(GAME, table, player, command)
    return reply, time.monotonic() - started


async def test_a_full_store_refuses_at_once_and_appends_resume_when_space_returns(server, secure_server):
    acknowledged, answers = Acknowledged(), Answers()
    async with stack(server.url, f"worker:{GAME}", "table-projector"):
        bus = await Bus.connect(server.url, load_settings(), name="disk-full-test", wait=10)
        try:
            client = RecordingClient(bus, acknowledged, answers, timeout=5.0, attempts=1)
            before = f"t{uuid.uuid4().hex[:12]}"
            assert (await client.command(GAME, before, "ann", {"type": "create"}))["ok"]
            await settled_views(bus, await read_log(bus), timeout=10.0, poll=0.1)
            assert await fill(bus) > 0
            length = sum(len(m) for m in (await read_log(bus)).values())

            # the episode: a new table, a join to one that exists; each answered at once
            during = [(f"t{uuid.uuid4().hex[:12]}", "bob", "create"), (before, "bob", "join")] * 3
            for table, player, kind in during:
                reply, took = await timed(client, table, player, {"type": kind})
                assert not reply["ok"] and reply["error"]["code"] == STORAGE_FULL, reply
                assert took < ANSWERED_WITHIN, f"answered after {took:.2f} s"
            assert sum(len(m) for m in (await read_log(bus)).values()) == length  # nothing appended

            # the operator's commands report, without a traceback
            status = await tabletop(server.url, "status", "--json")
            assert status.returncode == 0, status.stderr
            store = json.loads(status.stdout)["store"]
            assert store["limit"] == LIMIT and store["used"] > LIMIT - 64 * 1024, store
            assert "store: " in (await tabletop(server.url, "status")).stdout
            verified = await tabletop(server.url, "verify")
            assert verified.returncode == 0 and "Traceback" not in verified.stderr, verified.stderr

            # space returns (as when files are deleted): the same command resumes by itself
            await bus.js.delete_stream(FILLER)
            assert await resumed(client, before, "bob", "join") == {"ok": True, "version": 2}

            log = await read_log(bus)
            figures = check_log(log, acknowledged)
            assert (figures.lost, figures.misplaced, figures.doubled, figures.forked) == (0, 0, 0, 0)
            assert figures.acknowledged == 2
            views = await settled_views(bus, log, timeout=15.0, poll=0.2)
            assert not views.different, views.different
            assert answers.count(STORAGE_FULL) >= len(during)
        finally:
            await bus.close()


async def resumed(client: RecordingClient, table: str, player: str, kind: str) -> dict:
    """The reply to one command sent again (the same id) until it is applied, once space
    returned: AssertionError when it is still refused after `RESUMED_WITHIN`."""
    returned = time.monotonic()
    command = {"id": new_id(), "type": kind}
    while not (reply := await client.command(GAME, table, player, command))["ok"]:
        # (a reload of the limits may leave an append in doubt: the same id settles it)
        assert reply["error"]["code"] in (STORAGE_FULL, OUTCOME_UNKNOWN), reply
        assert time.monotonic() - returned < RESUMED_WITHIN, "appends did not resume"
    return reply


async def test_a_raised_limit_takes_effect_without_a_restart(server, secure_server):
    async with stack(server.url, f"worker:{GAME}"):
        bus = await Bus.connect(server.url, load_settings(), name="disk-full-test", wait=10)
        try:
            client = RecordingClient(bus, Acknowledged(), timeout=5.0, attempts=1)
            table = f"t{uuid.uuid4().hex[:12]}"
            await fill(bus)
            reply = await client.command(GAME, table, "ann", {"type": "create"})
            assert reply["error"]["code"] == STORAGE_FULL, reply
            server.raise_store_limit(2 * LIMIT)  # what an operator does: a configuration reload
            assert await resumed(client, table, "ann", "create") == {"ok": True, "version": 1}
            info = await bus.js.account_info()
            assert info.limits.max_storage == 2 * LIMIT  # the account's limit was raised too
        finally:
            await bus.close()


class Filesystem:
    """A filesystem of 1 GiB as the embedded server measures it, whose free space the test
    sets: as when something else fills it, or frees it."""

    total = 1024 * MIB

    def __init__(self) -> None:
        self.free = self.total // 2

    def usage(self, _path: Path) -> DiskUsage:
        return DiskUsage(self.total, self.free)


async def test_the_limit_follows_the_free_space_of_the_filesystem(tmp_path, secure_server):
    filesystem = Filesystem()
    server = EmbeddedServer(tmp_path / "nats", max_store=0, usage=filesystem.usage).start()
    try:
        async with stack(server.url, f"worker:{GAME}"):
            bus = await Bus.connect(server.url, load_settings(), name="disk-full-test", wait=10)
            try:
                client = RecordingClient(bus, Acknowledged(), timeout=5.0, attempts=1)
                table = f"t{uuid.uuid4().hex[:12]}"
                assert (await client.command(GAME, table, "ann", {"type": "create"}))["ok"]
                filesystem.free = 0  # something else filled it: the limits come down to the store
                refused = time.monotonic()
                # a join, then a new table (the join stays new), until one of them is refused:
                # the limit comes down whenever the watcher looks, between any two
                # (a reload of the limits may leave an append in doubt: sent again, same id)
                player, kind = "bob", "join"
                command = {"id": new_id(), "type": kind}
                while (reply := await client.command(GAME, table, player, command)).get("ok") or (
                    reply["error"]["code"] == OUTCOME_UNKNOWN
                ):
                    assert time.monotonic() - refused < RESUMED_WITHIN, "the limit did not come down"
                    if not reply.get("ok"):
                        continue
                    if kind == "join":
                        table, player, kind = f"t{uuid.uuid4().hex[:12]}", "ann", "create"
                    else:
                        player, kind = "bob", "join"
                    command = {"id": new_id(), "type": kind}
                assert reply["error"]["code"] == STORAGE_FULL, reply
                filesystem.free = filesystem.total // 2  # freed: appends resume by themselves
                assert (await resumed(client, table, player, kind))["ok"]
            finally:
                await bus.close()
    finally:
        server.stop()


async def overwrite(bus: Bus) -> bool:
    """One more value of the key written again and again: whether the store took it."""
    try:
        await bus.js.publish("overwritten.key", b"v" * (64 * 1024), stream="OVERWRITTEN")
    except nats.js.errors.APIError as err:
        if not storage_full(err):
            raise
        return False
    return True


async def test_overwritten_values_do_not_keep_writes_going_on_a_full_filesystem(tmp_path, secure_server):
    """A key written again and again (as the views are) leaves the store's files holding more
    than JetStream counts against a limit; with the filesystem full, such writes are refused
    all the same, within the watcher's look, instead of going on until the disk is full."""
    filesystem = Filesystem()
    server = EmbeddedServer(tmp_path / "nats", max_store=0, usage=filesystem.usage).start()
    try:
        bus = await Bus.connect(server.url, load_settings(), name="disk-full-test", wait=10)
        try:
            await bus.js.add_stream(name="OVERWRITTEN", subjects=["overwritten.>"], max_msgs_per_subject=1)
            for _ in range(64):  # 4 MiB written, 64 KiB of it counted
                assert await overwrite(bus)
            filesystem.free = 0  # something else filled the filesystem
            full, written = time.monotonic(), 0
            while await overwrite(bus):
                written += 1
                assert time.monotonic() - full < RESUMED_WITHIN, f"{written} writes taken on a full disk"
            filesystem.free = filesystem.total // 2
            freed = time.monotonic()
            while not await overwrite(bus):  # taken again once there is room
                assert time.monotonic() - freed < RESUMED_WITHIN, "writes did not resume"
                await asyncio.sleep(0.1)
        finally:
            await bus.close()
    finally:
        server.stop()
