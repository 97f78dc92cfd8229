"""The worker's answer when an append's outcome is unknown, over a real nats-server frozen
(SIGSTOP) right as the append is sent: the answer is what the log then says, never "not
applied" for a command that is in the log."""

import asyncio
import signal
import time
import uuid
from collections.abc import Awaitable, Callable
from pathlib import Path

import msgspec
import pytest

from services.game_worker.handler import CommandHandler
from services.registry import get
from shared.bus.connection import Bus
from shared.bus.errors import OutcomeUnknown
from shared.bus.event_store import Appended, EventStore
from shared.bus.server import EmbeddedServer
from shared.messages import subjects
from shared.messages.envelopes import encoder
from shared.settings import load_settings

pytestmark = pytest.mark.slow

APPEND_TIMEOUT = 1.0  # seconds an append waits for its acknowledgement here


class SignallingStore(EventStore):
    """The real event store, with a short timeout, that runs `on_doubt` when an append's
    acknowledgement does not come: where a test makes the server come back, or not."""

    def __init__(self, bus: Bus, on_doubt: Callable[[], Awaitable[None]]) -> None:
        super().__init__(bus.nc, bus.js, timeout=APPEND_TIMEOUT)
        self.on_doubt = on_doubt

    async def append(
        self, game: str, table: str, data: bytes, *, command_id: str, expected_seq: int
    ) -> Appended:
        try:
            return await super().append(game, table, data, command_id=command_id, expected_seq=expected_seq)
        except OutcomeUnknown:
            await self.on_doubt()
            raise


class Server:
    """One nats-server of the test's own, to freeze, thaw, kill and start again."""

    def __init__(self, data_dir) -> None:
        self.data_dir = data_dir
        self.server = EmbeddedServer(data_dir).start()

    @property
    def url(self) -> str:
        return self.server.url

    def freeze(self) -> None:
        """SIGSTOP, and wait until the kernel says the process is stopped (the signal is
        delivered asynchronously: on a loaded machine a request sent at once could still be
        answered)."""
        assert self.server.process is not None
        self.server.process.send_signal(signal.SIGSTOP)
        stat = Path(f"/proc/{self.server.process.pid}/stat")
        if stat.exists():  # Linux
            while stat.read_text().rpartition(")")[2].split()[0] not in ("T", "t"):
                time.sleep(0.001)

    def thaw(self) -> None:
        if self.server.process is not None:
            self.server.process.send_signal(signal.SIGCONT)

    def kill_and_restart(self) -> None:
        """SIGKILL (what it had not read of its sockets is lost) and start it again on its
        port and store."""
        self.thaw()
        self.server.kill()
        self.server = EmbeddedServer(self.data_dir, port=self.server.port, exact_port=True).start()

    def stop(self) -> None:
        self.thaw()
        self.server.stop()


@pytest.fixture
async def server(tmp_path, secure_server):
    server = Server(tmp_path / "nats")
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture
async def bus(server):
    bus = await Bus.connect(server.url, load_settings(), name="doubt-test", wait=10)
    await bus.ensure_streams()
    try:
        yield bus
    finally:
        await bus.close()


def command(command_id: str, kind: str) -> bytes:
    return encoder.encode({"id": command_id, "type": kind})


async def answer(handler: CommandHandler, table: str, player: str, body: bytes) -> dict:
    reply = await handler.handle(subjects.cmd("highcard", table, player), body)
    return msgspec.to_builtins(reply)


async def command_ids(bus: Bus, table: str) -> list[str]:
    return [msgspec.json.decode(m.data)["command_id"] for m in await bus.events.read("highcard", table)]


async def test_an_append_stored_but_not_acknowledged_is_answered_as_applied(server, bus):
    async def thaw() -> None:  # the acknowledgement was lost; the message is on its way
        server.thaw()

    handler = CommandHandler(get("highcard"), SignallingStore(bus, thaw))
    table = f"t{uuid.uuid4().hex[:12]}"
    assert await answer(handler, table, "ann", command("c1", "create")) == {"ok": True, "version": 1}
    server.freeze()  # the join's append waits in the server's socket
    reply = await answer(handler, table, "bob", command("j1", "join"))
    assert reply == {"ok": True, "version": 2}  # the log holds it: the real answer
    assert await command_ids(bus, table) == ["c1", "j1"]
    assert handler.counts.get("duplicate") == 1  # found in the log, as a retry would be


async def test_an_append_lost_with_the_server_is_decided_again_and_applied_once(server, bus):
    async def restart() -> None:  # the append dies with the server, unread
        await asyncio.to_thread(server.kill_and_restart)

    handler = CommandHandler(get("highcard"), SignallingStore(bus, restart))
    table = f"t{uuid.uuid4().hex[:12]}"
    assert await answer(handler, table, "ann", command("c1", "create")) == {"ok": True, "version": 1}
    server.freeze()
    reply = await answer(handler, table, "bob", command("j1", "join"))
    # the log does not hold it and nothing can land in its place: appended again, once
    assert reply == {"ok": True, "version": 2}
    assert await command_ids(bus, table) == ["c1", "j1"]


async def test_when_the_log_cannot_say_the_answer_is_unknown_and_a_retry_gets_the_real_one(server, bus):
    async def stay_frozen() -> None:
        pass

    handler = CommandHandler(get("highcard"), SignallingStore(bus, stay_frozen))
    table = f"t{uuid.uuid4().hex[:12]}"
    assert await answer(handler, table, "ann", command("c1", "create")) == {"ok": True, "version": 1}
    server.freeze()
    try:
        reply = await answer(handler, table, "bob", command("j1", "join"))
    finally:
        server.thaw()
    # Whether the append went out and waits in the frozen server, or (on a loaded machine) the
    # worker could not even read the table first, the log cannot say: never "not applied".
    assert reply["ok"] is False and reply["error"]["code"] == "outcome_unknown", reply
    # the frozen server then stores what it held: the same command again is answered as applied
    assert await answer(handler, table, "bob", command("j1", "join")) == {"ok": True, "version": 2}
    assert await command_ids(bus, table) == ["c1", "j1"]
