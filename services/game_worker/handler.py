"""The imperative shell around one game's rules: decode, load, decide, append, reply.

Reads top to bottom. The state kept between commands is a bounded cache of folded tables and
the appends whose outcome is in doubt. The cache is never trusted: the append carries the
stream sequence of the last batch folded, so a decision taken on a stale table fails and is
taken again on the table as the log has it, and a refusal is only sent after a decision on the
table as the log has it.

An answer never says "not applied" of a command that is, or may yet be, in the log. An append
whose acknowledgement never came (a timeout, a leader change, a lost connection) is in doubt:
its message lands right after the sequence it expected, or nowhere. The worker then asks the
log: the command's own message there is answered as a retry of it is; another message after
that sequence settles the doubt (it can never land) and the command is decided again; nothing
after it yet, and the same command is appended again under its id (applied once whichever
lands). What the log cannot settle in time is answered `outcome_unknown`: send it again with
the same id.
"""

from __future__ import annotations

import asyncio
import random
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

import structlog

from shared.bus.errors import ConcurrencyConflict, OutcomeUnknown, StorageFull, TableBusy, Unavailable
from shared.bus.event_store import Appended, StoredBatch
from shared.games.decider import Context, Rejection, fold
from shared.games.table import SERVICE_PLAYER, TableDecider
from shared.messages import subjects
from shared.messages.envelopes import (
    OUTCOME_UNKNOWN,
    STORAGE_FULL,
    BadCommand,
    CommandEnvelope,
    EventBatch,
    Reply,
    command_digest,
    decode_command,
    encoder,
)
from shared.messages.folding import (
    Applied,
    Bounded,
    Folded,
    TableLog,
    admit,
    empty,
    fold_log,
    weigh_folded,
)
from shared.metrics import WorkerMetrics

if TYPE_CHECKING:
    from shared.bus.snapshots import Snapshots

# Commands one table may hold: a table grown without end (join, leave, join, ...) would make
# every fold of it slower and its replay longer. The longest real games take a few hundred.
MAX_TABLE_VERSIONS = 10_000
# Appends of one command left in doubt before it is answered `outcome_unknown`: each costs the
# store's timeout, and the asker has long given up waiting by then.
MAX_DOUBTS = 2
# Locks of tables not cached a worker keeps (a table's lock is dropped when no command holds it
# and the worker holds more locks than cached tables and these).
SPARE_LOCKS = 1024


_SYSTEM_RANDOM = random.SystemRandom()


class Timers(Protocol):
    """What the handler needs of the deadline timers (shared/bus/timers.py)."""

    async def schedule(self, game: str, table: str, version: int, deadline: str) -> None: ...


class Store(TableLog, Protocol):
    """What the handler needs of the event store (shared/bus/event_store.py): what folding
    reads, and the table's last message and the append."""

    async def last(self, game: str, table: str) -> StoredBatch | None: ...

    async def append(
        self,
        game: str,
        table: str,
        data: bytes,
        *,
        command_id: str,
        expected_seq: int,
    ) -> Appended: ...


Answer = tuple[Reply, str]  # the reply and its outcome, as counted and logged


def _answer_to_reused_id(command_id: str, applied: Applied, player: str, digest: str) -> Answer:
    """The reply (and outcome) to a command whose id the table's log already holds: its first
    answer when it is the same command again, else a refusal; nothing is applied either way."""
    if applied.is_retry_of(player, digest):
        return Reply.accepted(applied.version), "duplicate"
    return Reply.rejected(
        "id_reused",
        f"The id {command_id} was already used for another command at this table (version "
        f"{applied.version}); nothing was done. Send this command with a new id.",
    ), "rejected"


def _unknown(why: str) -> Answer:
    return Reply.rejected(
        OUTCOME_UNKNOWN,
        f"Whether this command was applied is not known yet ({why}); send it again with the same id.",
    ), "unknown"


@dataclass
class _Handling:
    """One command being handled, and what the handling has learned of the log."""

    table: str
    player: str
    envelope: CommandEnvelope
    digest: str
    # neither the log as read nor this worker's cache holds the command, and no append of it
    # is in doubt: a refusal now is true ("not applied")
    known_absent: bool = False
    in_doubt: int = 0  # appends of it whose acknowledgement never came, in this handling

    @property
    def key(self) -> tuple[str, str]:
        return self.table, self.envelope.id


_second: list[Any] = [None, ""]  # the last whole second stamped, and its text


def utc_now() -> str:
    """Now, as `2026-12-03T06:37:00.123Z`: the second's text made once a second (datetime's
    formatting was 2% of a command)."""
    now = time.time()
    second = int(now)
    if second != _second[0]:
        _second[:] = [second, time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(second))]
    return f"{_second[1]}.{int((now - second) * 1000):03d}Z"


class CommandHandler:
    """Handles the commands of one game; one per worker process."""

    def __init__(
        self,
        decider: TableDecider,
        store: Store,
        *,
        cache_size: int = 2048,
        cache_bytes: int | None = None,
        max_retries: int = 8,
        max_versions: int = MAX_TABLE_VERSIONS,
        rng: Callable[[], random.Random] | None = None,
        clock: Callable[[], str] = utc_now,
        timers: Timers | None = None,
        metrics: WorkerMetrics | None = None,
        snapshots: Snapshots | None = None,
    ) -> None:
        self.decider = decider
        self.game = decider.name
        self.store = store
        self.timers = timers
        self.snapshots = snapshots
        self.cache: Bounded[str, Folded] = Bounded(
            cache_size,
            on_evict=None if snapshots is None else snapshots.dropped,
            budget=cache_bytes,
            weigh=None if cache_bytes is None else weigh_folded,
        )
        # (table, command id) -> the sequence an append of it expected, for appends in doubt:
        # that command's message may still land right after it
        self.doubts: Bounded[tuple[str, str], int] = Bounded(cache_size)
        self.max_retries = max_retries
        self.max_versions = max_versions
        # the system's random: it draws tables' secrets (a running game draws from its seed)
        self.rng = rng or (lambda: _SYSTEM_RANDOM)
        self.clock = clock
        self.locks: dict[str, asyncio.Lock] = {}
        self.counts: dict[str, int] = {}
        self.metrics = metrics  # the cache's hits and misses, when the worker exports them
        # bound once, after logging is configured: no proxy to resolve per command, and
        # nothing done for a level that is off
        self.log = structlog.get_logger("tabletop.worker").bind()

    async def handle(self, subject: str, body: bytes) -> Reply:
        """The reply to one command message, after appending its events if it is accepted."""
        started = time.perf_counter()
        tokens = subjects.parse_cmd(subject)
        if tokens is None or tokens[0] != self.game:
            reply = Reply.rejected(
                "bad_command",
                "Commands go to tabletop.cmd.<game>.<table>.<player>, each id made of 1 to 64 "
                "letters, digits, '_' or '-'.",
            )
            return self._done(reply, "malformed", started, command="?", retries=0, table="?", player="?")
        _, table, player = tokens
        try:
            envelope = decode_command(body, self.decider.command_type)
        except BadCommand as err:
            return self._done(
                Reply.rejected("bad_command", str(err)),
                "malformed",
                started,
                command="?",
                retries=0,
                table=table,
                player=player,
            )
        command_type = type(envelope.command).__struct_config__.tag
        handling = _Handling(table, player, envelope, command_digest(envelope))
        lock = self.locks.setdefault(table, asyncio.Lock())
        retries = 0
        try:
            async with lock:
                reply, outcome, retries = await self._decide_and_append(handling)
        except StorageFull as err:  # refused at once: the answer comes now, not at a timeout
            reply, outcome = (
                Reply.rejected(
                    STORAGE_FULL,
                    f"The event log's storage is full ({err}); nothing was done. Send the command "
                    "again in a while, with the same id.",
                ),
                "storage_full",
            )
            if not handling.known_absent:  # an earlier append of it may still land
                reply, outcome = _unknown(f"the event log's storage is full: {err}")
        except Unavailable as err:
            reply, outcome = (
                Reply.rejected(
                    "unavailable", f"The event log is unavailable ({err}); send the command again."
                ),
                "unavailable",
            )
            if not handling.known_absent:  # the log could not say whether it holds the command
                reply, outcome = _unknown(f"the event log is unavailable: {err}")
        except Exception:  # a bug in the rules or the shell: log it, answer, keep serving
            self.log.exception(
                "command_crashed",
                game=self.game,
                table=table,
                player=player,
                command=command_type,
                command_id=envelope.id,
            )
            reply, outcome = (
                Reply.rejected("internal_error", "The server failed on this command; it was not applied."),
                "internal_error",
            )
            if not handling.known_absent:
                reply, outcome = _unknown("the server failed on it")
        finally:
            # keep the locks about as many as the cached tables: ids sent at random (unknown
            # tables) must not grow memory; a lock dropped while wanted only costs a conflict
            if not lock.locked() and len(self.locks) > len(self.cache) + SPARE_LOCKS:
                self.locks.pop(table, None)
        return self._done(
            reply, outcome, started, command=command_type, retries=retries, table=table, player=player
        )

    async def _decide_and_append(self, handling: _Handling) -> tuple[Reply, str, int]:
        """Accept on the cached table if it can (safe: the append fails if the cache was
        stale), else decide again on the table as the log has it, until an append holds.
        Returns the reply, its outcome and the appends that lost a race or were in doubt."""
        table, envelope = handling.table, handling.envelope
        answer, retries = await self._decide_on_cache(handling)
        if answer is not None:
            return (*answer, retries)
        # the log decides: no table cached, a refusal on it, or an append that lost a race
        while retries <= self.max_retries:
            handling.known_absent = False  # what the cache said may be stale: the log says
            folded = await self._load(table)
            applied = folded.command_ids.get(envelope.id)
            if applied is not None:
                return (*self._answer_to_retry(handling, applied), retries)
            doubted = self.doubts.get(handling.key)
            if doubted is not None and folded.last_seq > doubted:
                self.doubts.pop(handling.key)  # another message took its place: it never lands
                doubted = None
            handling.known_absent = doubted is None
            decided = self._decide(folded, handling)
            if not isinstance(decided, EventBatch):
                if doubted is not None:  # the earlier append may still land
                    return (*_unknown("an earlier append of it may still be stored"), retries)
                return (*decided, retries)
            answer = await self._append(handling, folded, decided)
            if answer is not None:
                return (*answer, retries)
            if handling.in_doubt >= MAX_DOUBTS:  # the log is too slow to say: the asker asks again
                return (*_unknown("its append was not acknowledged"), retries)
            retries += 1
        if not handling.known_absent:
            return (*_unknown("its append could not be confirmed"), self.max_retries)
        return (
            Reply.rejected(
                "conflict",
                "The table kept changing while this command was decided; send it again.",
            ),
            "conflict",
            self.max_retries,
        )

    async def _decide_on_cache(self, handling: _Handling) -> tuple[Answer | None, int]:
        """The answer on the cached table, if it gives one (None: the log must decide), and
        the appends that lost a race (0 or 1)."""
        cached = self.cache.get(handling.table)
        if self.metrics is not None:
            (self.metrics.cache_misses if cached is None else self.metrics.cache_hits).inc()
        if cached is None or handling.key in self.doubts:
            return None, 0
        applied = cached.command_ids.get(handling.envelope.id)
        if applied is not None:  # every id of the cache is in the log: this is final
            return self._answer_to_retry(handling, applied), 0
        handling.known_absent = True  # every id this worker appended to it is cached
        decided = self._decide(cached, handling)
        if not isinstance(decided, EventBatch):  # a refusal on the cache: the log says
            return None, 0
        answer = await self._append(handling, cached, decided)
        return answer, int(answer is None)

    def _answer_to_retry(self, handling: _Handling, applied: Applied) -> Answer:
        """The answer to a command whose id the log holds (nothing of it is in doubt now)."""
        self.doubts.pop(handling.key)
        return _answer_to_reused_id(handling.envelope.id, applied, handling.player, handling.digest)

    def _decide(self, folded: Folded, handling: _Handling) -> EventBatch[Any] | Answer:
        """The batch to append, or the refusal, of one command on one version of the table."""
        table, player, envelope = handling.table, handling.player, handling.envelope
        if envelope.expect is not None and envelope.expect != folded.version:
            return Reply.rejected(
                "stale_version",
                f"The table is at version {folded.version}, not {envelope.expect}; look again and decide.",
            ), "rejected"
        if folded.version >= self.max_versions and player != SERVICE_PLAYER:
            return Reply.rejected(
                "history_full",
                f"This table holds {folded.version} commands, the most one table may hold; "
                "nothing was done. Play on at a new table.",
            ), "rejected"
        at = self.clock()
        decision = self.decider.decide(
            folded.state, envelope.command, Context(actor=player, rng=self.rng(), now=at)
        )
        if isinstance(decision, Rejection):
            return Reply.of(decision), "rejected"
        return EventBatch(
            game=self.game,
            table=table,
            version=folded.version + 1,
            command_id=envelope.id,
            player=player,
            digest=handling.digest,
            at=at,
            events=list(decision),
        )

    async def _append(self, handling: _Handling, folded: Folded, batch: EventBatch[Any]) -> Answer | None:
        """Append the batch after `folded`: the answer, or None when the table moved on or the
        append is in doubt (the log then says which)."""
        table = handling.table
        await self._schedule_deadline(table, folded, batch)
        # from here until the log is read again, a failure says nothing of where it stands
        absent, handling.known_absent = handling.known_absent, False
        try:
            appended = await self.store.append(
                self.game,
                table,
                encoder.encode(batch),
                command_id=batch.command_id,
                expected_seq=folded.last_seq,
            )
        except TableBusy:
            # another append to the table is being stored, maybe this command's own (sent by
            # a replica that owned the table a moment ago): in doubt until the log moves on
            self.cache.pop(table)
            self.doubts.put(handling.key, folded.last_seq)
            await asyncio.sleep(random.uniform(0.05, 0.2))
            return None
        except ConcurrencyConflict:
            return None
        except StorageFull:
            handling.known_absent = absent  # refused before it was stored: the log is as it was
            raise
        except OutcomeUnknown as err:
            self.cache.pop(table)
            self.doubts.put(handling.key, folded.last_seq)
            handling.in_doubt += 1
            self.counts["appends_in_doubt"] = self.counts.get("appends_in_doubt", 0) + 1
            self.log.warning(
                "append_in_doubt", game=self.game, table=table, command_id=batch.command_id, error=str(err)
            )
            return None
        self.doubts.pop(handling.key)
        if appended.duplicate:  # the id was appended before: by whom, and for what?
            self.cache.pop(table)
            applied = (await self._load(table)).command_ids.get(batch.command_id)
            if applied is None:  # a replica that has not caught up yet: ask again
                return _unknown(f"the log holds command {batch.command_id} but does not show it yet")
            return self._answer_to_retry(handling, applied)
        try:
            now = self.cache.put(table, folded.then(self.decider, appended.seq, batch))
        except Exception:  # applied all the same: the answer says so
            self.cache.pop(table)
            self.log.exception("cache_update_failed", game=self.game, table=table)
        else:
            if self.snapshots is not None:
                self.snapshots.appended(table, now)
        return Reply.accepted(batch.version), "accepted"

    async def _schedule_deadline(
        self,
        table: str,
        folded: Folded,
        batch: EventBatch[Any],
    ) -> None:
        """At a table with clocks, have the deadline the batch sets delivered, before the batch
        is appended: a worker that dies in between leaves a deadline for a version that never
        came (refused `stale_version` when it comes), never a table without its deadline."""
        if self.timers is None or folded.state.clock is None:
            return
        deadline = self.decider.deadline(fold(self.decider.evolve, batch.events, folded.state))
        if deadline is not None:
            await self.timers.schedule(self.game, table, batch.version, deadline)

    async def _load(self, table: str) -> Folded:
        """The table folded up to its last message: from the cache when it is current, else
        the cache plus what came since, else from its snapshot or whole log (`_load_cold`)."""
        last = await self.store.last(self.game, table)
        if last is None:
            return empty(self.decider)
        cached = self.cache.get(table)
        if cached is not None and cached.last_seq == last.seq:
            return cached
        if cached is not None and cached.last_seq < last.seq:
            newest = admit(self.decider, cached, self.game, table, last.seq, last.data, last.writer)
            if newest.batch is not None:  # one command landed elsewhere: it is `last`
                return self.cache.put(table, newest.folded)
            folded = await fold_log(self.store, self.decider, self.game, table, since=cached, upto=last.seq)
        else:
            folded = await self._load_cold(table, last)
        return self.cache.put(table, folded)

    async def _load_cold(self, table: str, last: StoredBatch) -> Folded:
        """A table this worker does not hold, up to its last message: from its snapshot and
        the log after it when the log follows on from the snapshot, else from its whole log."""
        if self.snapshots is not None:
            folded = await self.snapshots.fold_to(self.store, table, last)
            if folded is not None:
                return folded
        return await fold_log(self.store, self.decider, self.game, table, upto=last.seq)

    def _done(
        self,
        reply: Reply,
        outcome: str,
        started: float,
        *,
        command: str,
        retries: int,
        table: str,
        player: str,
    ) -> Reply:
        """Count the outcome and write the command's one log line."""
        self.counts[outcome] = self.counts.get(outcome, 0) + 1
        if retries:  # appends that lost a race: many mean replicas share tables
            self.counts["retried"] = self.counts.get("retried", 0) + retries
        code = reply.error.code if reply.error is not None else None
        self.log.info(
            "command_handled",
            game=self.game,
            table=table,
            player=player,
            command=command,
            outcome=outcome,
            retries=retries,
            code=code,
            duration_ms=round((time.perf_counter() - started) * 1000, 2),
        )
        return reply
