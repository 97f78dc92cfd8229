"""The worker's shell against an in-memory log (a fast fake with the event store's contract;
the same behaviour is tested over a real NATS in test_worker.py): the cache, its bound, and how
a table is brought up to date."""

import msgspec

from services.game_worker.handler import CommandHandler
from services.registry import get
from shared.bus.errors import ConcurrencyConflict
from shared.bus.event_store import Appended, StoredBatch
from shared.messages import subjects
from shared.messages.envelopes import encoder


class MemoryStore:
    def __init__(self) -> None:
        self.messages: list[tuple[str, StoredBatch]] = []  # (table, message)
        self.reads = 0

    def _of(self, table):
        return [m for t, m in self.messages if t == table]

    async def last(self, game, table):
        mine = self._of(table)
        return mine[-1] if mine else None

    async def read(self, game, table, *, after=0, upto=None):
        self.reads += 1
        return [m for m in self._of(table) if m.seq > after and (upto is None or m.seq <= upto)]

    async def append(self, game, table, data, *, command_id, expected_seq):
        mine = self._of(table)
        if (mine[-1].seq if mine else 0) != expected_seq:
            raise ConcurrencyConflict(table)
        seq = len(self.messages) + 1
        self.messages.append((table, StoredBatch(seq, data, subjects.writer(game))))
        return Appended(seq, False)


def command(**body):
    return encoder.encode(body)


async def send(handler, table, player, **body):
    reply = await handler.handle(f"tabletop.cmd.highcard.{table}.{player}", command(**body))
    return msgspec.to_builtins(reply)


async def test_the_cache_keeps_at_most_its_size():
    handler = CommandHandler(get("highcard"), MemoryStore(), cache_size=3)
    for i in range(10):
        assert (await send(handler, f"t{i}", "ann", id="c", type="create"))["ok"]
    assert list(handler.cache) == ["t7", "t8", "t9"]
    assert len(handler.locks) <= 4


async def test_a_current_cache_reads_nothing_and_one_foreign_message_is_applied_as_fetched():
    store = MemoryStore()
    mine = CommandHandler(get("highcard"), store)
    other = CommandHandler(get("highcard"), store)
    await send(mine, "t", "ann", id="a", type="create")
    reads = store.reads
    await send(mine, "t", "bob", id="b", type="join")
    assert store.reads == reads  # the cache was current
    await send(other, "t", "cy", id="c", type="join")  # lands elsewhere
    reads = store.reads
    reply = await send(mine, "t", "dan", id="d", type="join")
    assert reply == {"ok": True, "version": 4}
    assert store.reads == reads  # the newest message was the one missing
    await send(other, "t", "eve", id="e", type="join")
    await send(other, "t", "eve", id="f", type="leave")
    reads = store.reads
    assert (await send(mine, "t", "eve", id="g", type="join"))["ok"]
    assert store.reads == reads + 1  # two behind: read what came since
    assert mine.cache["t"].state.players == ("ann", "bob", "cy", "dan", "eve")


async def test_a_stale_decision_is_taken_again_on_the_fresh_table():
    store = MemoryStore()
    mine = CommandHandler(get("highcard"), store)
    await send(mine, "t", "ann", id="a", type="create", seats=2)
    stale = mine.cache["t"]
    other = CommandHandler(get("highcard"), store)
    await send(other, "t", "bob", id="b", type="join")

    async def stale_last(game, table):  # a log that answers late: the cache looks current
        return StoredBatch(stale.last_seq, b"")

    real_last, store.last = store.last, stale_last
    calls = 0

    async def last_then_real(game, table):
        nonlocal calls
        calls += 1
        return await (stale_last if calls == 1 else real_last)(game, table)

    store.last = last_then_real
    reply = await send(mine, "t", "cy", id="c", type="join")
    assert reply["error"]["code"] == "table_full"  # decided again, on the table with bob
    assert len(store.messages) == 2


async def test_a_refusal_is_never_decided_on_a_stale_cache():
    store = MemoryStore()
    mine, other = CommandHandler(get("highcard"), store), CommandHandler(get("highcard"), store)
    await send(mine, "t", "ann", id="a", type="create", seats=2)
    await send(mine, "t", "bob", id="b", type="join")  # mine caches a full table
    await send(other, "t", "bob", id="c", type="leave")  # ... which another worker frees
    assert (await send(mine, "t", "cy", id="d", type="join")) == {"ok": True, "version": 4}
    await send(other, "t", "cy", id="e", type="leave")  # version 5, elsewhere
    # `expect` is checked against the log, not against the cache (still at version 4)
    assert (await send(mine, "t", "dan", id="f", type="join", expect=5))["ok"]
    stale = await send(mine, "t", "eve", id="g", type="join", expect=5)
    assert stale["error"]["code"] == "stale_version"


async def test_an_accepted_command_on_a_current_cache_costs_one_append_and_no_lookup():
    store = MemoryStore()
    lookups = 0
    real_last = store.last

    async def counting_last(game, table):
        nonlocal lookups
        lookups += 1
        return await real_last(game, table)

    store.last = counting_last
    mine = CommandHandler(get("highcard"), store)
    await send(mine, "t", "ann", id="a", type="create")
    before = lookups
    for i in range(4):
        assert (await send(mine, "t", f"p{i}", id=f"j{i}", type="join"))["ok"]
    assert lookups == before
