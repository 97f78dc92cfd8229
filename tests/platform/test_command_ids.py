"""Command ids over a real NATS: an id sent again is the same command only when the same player
sends the same body; anything else under a used id is refused `id_reused` and changes nothing."""

import uuid

import msgspec
import pytest
from structlog.testing import capture_logs

from services.game_worker.handler import CommandHandler
from services.registry import get
from shared.messages import subjects
from shared.messages.envelopes import EventBatch, encoder
from shared.messages.folding import decode_batch, empty
from tests.platform.stack import stack

HIGHCARD = get("highcard")


def table_id() -> str:
    return f"t{uuid.uuid4().hex[:12]}"


@pytest.fixture(scope="module")  # no test here starts or stops a service of its own
async def worker(nats_url):
    async with stack(nats_url, "worker:highcard") as s:
        yield s


async def send(bus, table, player, **body):
    subject = subjects.cmd("highcard", table, player)
    return msgspec.json.decode(await bus.request(subject, encoder.encode(body), timeout=10))


async def log_of(bus, table):
    return [m.data for m in await bus.events.read("highcard", table)]


async def seats(bus, table):
    folded = empty(HIGHCARD)
    for m in await bus.events.read("highcard", table):
        folded = folded.then(HIGHCARD, m.seq, decode_batch(HIGHCARD, m.data))
    return folded.state.players


async def test_an_id_used_by_another_player_is_refused_and_nothing_is_applied(bus, worker):
    table = table_id()
    assert await send(bus, table, "ann", id="c1", type="create") == {"ok": True, "version": 1}
    before = await log_of(bus, table)
    reply = await send(bus, table, "bob", id="c1", type="join")
    assert reply["ok"] is False and reply["error"]["code"] == "id_reused"
    assert "new id" in reply["error"]["message"]
    assert await log_of(bus, table) == before
    assert await seats(bus, table) == ("ann",)
    # bob with a fresh id is seated: the worker goes on
    assert await send(bus, table, "bob", id="j1", type="join") == {"ok": True, "version": 2}


async def test_the_same_player_with_another_body_under_a_used_id_is_refused(bus, worker):
    table = table_id()
    assert (await send(bus, table, "ann", id="c1", type="create", seats=3))["ok"]
    before = await log_of(bus, table)
    for other in (
        {"type": "create", "seats": 2},
        {"type": "leave"},
        {"type": "create", "seats": 3, "expect": 0},
    ):
        reply = await send(bus, table, "ann", id="c1", **other)
        assert reply["error"]["code"] == "id_reused", other
    assert await log_of(bus, table) == before


async def test_the_same_command_again_gets_its_first_answer_and_appends_nothing(bus, worker):
    table = table_id()
    create = {"id": "c1", "type": "create", "options": {"hand_size": 2, "deck_size": 20}}
    assert await send(bus, table, "ann", **create) == {"ok": True, "version": 1}
    assert await send(bus, table, "bob", id="j1", type="join") == {"ok": True, "version": 2}
    # the same body, even with its options written in another order
    again = {"id": "c1", "type": "create", "options": {"deck_size": 20, "hand_size": 2}}
    assert await send(bus, table, "ann", **again) == {"ok": True, "version": 1}
    assert len(await log_of(bus, table)) == 2


async def test_an_id_reused_on_a_stale_cache_is_refused_after_the_log_is_read(bus):
    """Two workers: the second decides on a cached table that misses the command the first
    appended under the same id; the log's answer (dedupe or moved table) decides."""
    first = CommandHandler(HIGHCARD, bus.events)
    second = CommandHandler(HIGHCARD, bus.events)
    table = table_id()

    async def handle(handler, player, **body):
        subject = subjects.cmd("highcard", table, player)
        return msgspec.to_builtins(await handler.handle(subject, encoder.encode(body)))

    assert (await handle(first, "ann", id="c0", type="create"))["ok"]
    assert (await handle(second, "ann", id="c0", type="create"))["version"] == 1  # caches v1
    assert (await handle(first, "bob", id="c1", type="join")) == {"ok": True, "version": 2}
    with capture_logs() as logs:
        reply = await handle(second, "cy", id="c1", type="join")
    assert reply["error"]["code"] == "id_reused"
    assert [e["outcome"] for e in logs if e["event"] == "command_handled"] == ["rejected"]
    assert await seats(bus, table) == ("ann", "bob")
    assert (await handle(second, "bob", id="c1", type="join")) == {"ok": True, "version": 2}
    assert len(await log_of(bus, table)) == 2


async def test_log_messages_written_before_digests_still_fold_and_compare_by_player(bus, worker):
    table = table_id()
    old = {
        "game": "highcard",
        "table": table,
        "version": 1,
        "command_id": "old1",
        "player": "ann",
        "at": "2026-01-01T00:00:00Z",
        "events": [{"type": "table_created", "creator": "ann", "options": {"hand_size": 3}, "seats": 4}],
    }
    await bus.events.append("highcard", table, encoder.encode(old), command_id="old1", expected_seq=0)
    batch = decode_batch(HIGHCARD, (await log_of(bus, table))[0])
    assert isinstance(batch, EventBatch) and batch.digest == ""
    # the same player: taken for a retry whatever the body, as before digests
    assert await send(bus, table, "ann", id="old1", type="create") == {"ok": True, "version": 1}
    assert (await send(bus, table, "bob", id="old1", type="join"))["error"]["code"] == "id_reused"
    assert len(await log_of(bus, table)) == 1


async def test_a_table_at_its_bound_refuses_players_with_history_full_and_changes_nothing(bus):
    handler = CommandHandler(HIGHCARD, bus.events, max_versions=3)
    table = table_id()

    async def handle(player, **body):
        subject = subjects.cmd("highcard", table, player)
        return msgspec.to_builtins(await handler.handle(subject, encoder.encode(body)))

    assert (await handle("ann", id="c0", type="create", seats=4))["ok"]
    assert (await handle("bob", id="j1", type="join"))["ok"]
    assert (await handle("bob", id="l1", type="leave"))["version"] == 3
    before = await log_of(bus, table)
    reply = await handle("bob", id="j2", type="join")
    assert reply["error"]["code"] == "history_full"
    assert await log_of(bus, table) == before
    # a fresh worker, folding the table from the log, refuses it too
    handler = CommandHandler(HIGHCARD, bus.events, max_versions=3)
    assert (await handle("cy", id="j3", type="join"))["error"]["code"] == "history_full"
    # the service may still end it (an open table that nobody starts expires)
    assert (await handle("tabletop", id="x", type="expire", expect=3))["ok"]


async def test_folding_adds_to_one_id_index_instead_of_copying_it(bus, worker):
    table = table_id()
    assert (await send(bus, table, "ann", id="c0", type="create", seats=4))["ok"]
    for i in range(20):
        assert (await send(bus, table, "bob", id=f"j{i}", type="join"))["ok"]
        assert (await send(bus, table, "bob", id=f"l{i}", type="leave"))["ok"]
    versions = []
    folded = empty(HIGHCARD)
    for m in await bus.events.read("highcard", table):
        folded = folded.then(HIGHCARD, m.seq, decode_batch(HIGHCARD, m.data))
        versions.append(folded)
    assert {id(v.command_ids) for v in versions} == {id(versions[0].command_ids)}
    assert len(folded.command_ids) == 41 and folded.command_ids["l19"].version == 41
