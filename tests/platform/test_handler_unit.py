"""The worker's shell against an in-memory log (a fast fake with the event store's contract;
the same behaviour is tested over a real NATS in test_worker.py): the cache, its bound, and how
a table is brought up to date."""

import msgspec

from services.game_worker.handler import SPARE_LOCKS, CommandHandler
from services.registry import get
from shared.bus.errors import ConcurrencyConflict, OutcomeUnknown, StorageFull
from shared.bus.event_store import Appended, StoredBatch
from shared.messages import subjects
from shared.messages.envelopes import OUTCOME_UNKNOWN, STORAGE_FULL, encoder


class MemoryStore:
    def __init__(self) -> None:
        self.messages: list[tuple[str, StoredBatch]] = []  # (table, message)
        self.reads = 0

    def _of(self, table):
        return [m for t, m in self.messages if t == table]

    async def last(self, game: str, table: str) -> StoredBatch | None:
        mine = self._of(table)
        return mine[-1] if mine else None

    async def read(
        self, game: str, table: str, *, after: int = 0, upto: int | None = None, expect: int = 0
    ) -> list[StoredBatch]:
        self.reads += 1
        return [m for m in self._of(table) if m.seq > after and (upto is None or m.seq <= upto)]

    async def append(
        self, game: str, table: str, data: bytes, *, command_id: str, expected_seq: int
    ) -> Appended:
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
    # commands for tables nobody made (ids sent at random) keep the locks bounded too
    for i in range(SPARE_LOCKS + 100):
        assert (await send(handler, f"u{i}", "ann", id="j", type="join"))["error"]["code"] == "unknown_table"
    assert len(handler.locks) <= len(handler.cache) + SPARE_LOCKS + 1


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

    real_last, store.last = store.last, stale_last  # type: ignore[method-assign]
    calls = 0

    async def last_then_real(game, table):
        nonlocal calls
        calls += 1
        return await (stale_last if calls == 1 else real_last)(game, table)

    store.last = last_then_real  # type: ignore[method-assign]
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

    store.last = counting_last  # type: ignore[method-assign]
    mine = CommandHandler(get("highcard"), store)
    await send(mine, "t", "ann", id="a", type="create")
    before = lookups
    for i in range(4):
        assert (await send(mine, "t", f"p{i}", id=f"j{i}", type="join"))["ok"]
    assert lookups == before


class RecordedTimers:
    def __init__(self) -> None:
        self.scheduled: list[tuple[str, int, str]] = []  # (table, version, deadline)

    async def schedule(self, game, table, version, deadline):
        self.scheduled.append((table, version, deadline))


def clocked_handler(store, timers, now):
    return CommandHandler(get("highcard"), store, timers=timers, clock=lambda: now[0])


async def test_a_step_at_a_table_with_clocks_schedules_its_deadline_and_none_without():
    from shared.games.clock import later

    t0 = "2026-01-01T00:00:00.000Z"
    now, timers = [t0], RecordedTimers()
    handler = clocked_handler(MemoryStore(), timers, now)
    await send(handler, "plain", "ann", id="c1", type="create", seats=2)
    await send(handler, "plain", "bob", id="c2", type="join")
    await send(handler, "plain", "ann", id="c3", type="start")
    await send(
        handler, "t", "ann", id="c1", type="create", seats=2, options={"clock": "custom", "clock_bank": 5}
    )
    await send(handler, "t", "bob", id="c2", type="join")
    assert timers.scheduled == []  # no clock runs before the start
    await send(handler, "t", "ann", id="c3", type="start")
    assert timers.scheduled == [("t", 3, later(t0, 5000))]


async def test_due_deadlines_are_decided_once_and_one_that_came_early_comes_again():
    from services.game_worker.app import handle_deadlines
    from shared.bus.connection import Delivered
    from shared.games.clock import later

    t0 = "2026-01-01T00:00:00.000Z"
    now = [t0]
    store = MemoryStore()
    handler = clocked_handler(store, RecordedTimers(), now)
    await send(
        handler, "t", "ann", id="c1", type="create", seats=2, options={"clock": "custom", "clock_bank": 5}
    )
    await send(handler, "t", "bob", id="c2", type="join")
    await send(handler, "t", "ann", id="c3", type="start")

    def due(seq, version, table="t"):
        return Delivered(
            seq, subjects.deadline_due("highcard", table), encoder.encode({"version": version}), "", 0
        )

    now[0] = later(t0, 4999)  # this machine's clock a little behind the server's
    assert await handle_deadlines(handler, [due(100, 3)]) == {100}
    now[0] = later(t0, 5000)
    assert await handle_deadlines(handler, [due(100, 3)]) == set()
    assert len(store.messages) == 4  # the deadline's step
    # delivered again, or another copy, or a forged one: nothing more
    assert (
        await handle_deadlines(
            handler,
            [due(100, 3), due(101, 3), due(102, 9), Delivered(103, "tabletop.timer.due.x", b"{}", "", 0)],
        )
        == set()
    )
    assert len(store.messages) == 4


class FullStore(MemoryStore):
    """A log whose storage limit is reached once `full` is set: appends are refused, nothing
    written; `doubt` first leaves one append unacknowledged (it may still land)."""

    def __init__(self) -> None:
        super().__init__()
        self.full = False
        self.doubt = False

    async def append(
        self, game: str, table: str, data: bytes, *, command_id: str, expected_seq: int
    ) -> Appended:
        if self.doubt:
            self.doubt = False
            raise OutcomeUnknown("no acknowledgement")
        if self.full:
            raise StorageFull("the log's storage is full")
        return await super().append(game, table, data, command_id=command_id, expected_seq=expected_seq)


async def test_a_full_store_is_answered_storage_full_and_an_append_in_doubt_outcome_unknown():
    store = FullStore()
    handler = CommandHandler(get("highcard"), store)
    assert (await send(handler, "t", "ann", id="c1", type="create"))["ok"]
    store.full = True
    refused = await send(handler, "t", "bob", id="j1", type="join")
    assert refused["error"]["code"] == STORAGE_FULL, refused  # not in the log: not applied
    assert (await send(handler, "u", "ann", id="c2", type="create"))["error"]["code"] == STORAGE_FULL
    store.doubt = True  # an earlier append of the command may land: whether it did is unknown
    assert (await send(handler, "t", "cy", id="j2", type="join"))["error"]["code"] == OUTCOME_UNKNOWN
    assert len(store.messages) == 1
    store.full = False  # room again: the same command is applied
    assert await send(handler, "t", "bob", id="j1", type="join") == {"ok": True, "version": 2}
