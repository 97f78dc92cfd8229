"""The imperative shell around one game's rules: decode, load, decide, append, reply.

Reads top to bottom. The only state kept between commands is a bounded cache of
folded tables, and the cache is never trusted: the append carries the stream sequence of the
last batch folded, so a decision taken on a stale table fails and is taken again, and a
refusal is only sent after a decision on the table as the log has it.
"""

from __future__ import annotations

import asyncio
import random
import secrets
import time
from collections import OrderedDict
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any, Protocol

import structlog

from shared.bus.errors import ConcurrencyConflict, Unavailable
from shared.bus.event_store import Appended, StoredBatch
from shared.games.decider import Context, Rejection, type_tag
from shared.games.table import TableDecider
from shared.messages import subjects
from shared.messages.envelopes import (
    BadCommand,
    EventBatch,
    Reply,
    command_digest,
    decode_command,
    encoder,
)
from shared.messages.folding import Applied, Folded, admit, empty

log = structlog.get_logger("tabletop.worker")


class Store(Protocol):
    """What the handler needs of the event store (shared/bus/event_store.py)."""

    async def last(self, game: str, table: str) -> StoredBatch | None: ...

    async def read(
        self, game: str, table: str, *, after: int = 0, upto: int | None = None,
    ) -> list[StoredBatch]: ...

    async def append(
        self, game: str, table: str, data: bytes, *, command_id: str, expected_seq: int,
    ) -> Appended: ...


def _answer_to_reused_id(
    command_id: str, applied: Applied, player: str, digest: str,
) -> tuple[Reply, str]:
    """The reply (and outcome) to a command whose id the table's log already holds: its first
    answer when it is the same command again, else a refusal; nothing is applied either way."""
    if applied.is_retry_of(player, digest):
        return Reply.accepted(applied.version), "duplicate"
    return Reply.rejected(
        "id_reused",
        f"The id {command_id} was already used for another command at this table (version "
        f"{applied.version}); nothing was done. Send this command with a new id.",
    ), "rejected"


def utc_now() -> str:
    return datetime.now(UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")


class CommandHandler:
    """Handles the commands of one game; one per worker process."""

    def __init__(
        self, decider: TableDecider, store: Store, *, cache_size: int = 2048,
        max_retries: int = 8, rng: Callable[[], random.Random] | None = None,
        clock: Callable[[], str] = utc_now,
    ) -> None:
        self.decider = decider
        self.game = decider.name
        self.store = store
        self.cache: OrderedDict[str, Folded] = OrderedDict()
        self.cache_size = cache_size
        self.max_retries = max_retries
        self.rng = rng or (lambda: random.Random(secrets.randbits(128)))
        self.clock = clock
        self.locks: dict[str, asyncio.Lock] = {}
        self.counts: dict[str, int] = {}

    async def handle(self, subject: str, body: bytes) -> Reply:
        """The reply to one command message, after appending its events if it is accepted."""
        started = time.perf_counter()
        structlog.contextvars.clear_contextvars()
        tokens = subjects.parse(subject, "cmd")
        if tokens is None or len(tokens) != 3 or tokens[0] != self.game:
            reply = Reply.rejected(
                "bad_command",
                "Commands go to tabletop.cmd.<game>.<table>.<player>, each id made of 1 to 64 "
                "letters, digits, '_' or '-'.",
            )
            return self._done(reply, "malformed", started, command="?", retries=0,
                              table="?", player="?")
        _, table, player = tokens
        where = dict(table=table, player=player)
        structlog.contextvars.bind_contextvars(game=self.game, **where)
        try:
            envelope = decode_command(body, self.decider.command_type)
        except BadCommand as err:
            return self._done(Reply.rejected("bad_command", str(err)), "malformed", started,
                              command="?", retries=0, **where)
        command_type = type_tag(type(envelope.command))
        structlog.contextvars.bind_contextvars(command_id=envelope.id)
        lock = self.locks.setdefault(table, asyncio.Lock())
        retries = 0
        try:
            async with lock:
                reply, outcome, retries = await self._decide_and_append(
                    table, player, envelope, command_digest(envelope))
        except Unavailable as err:
            reply = Reply.rejected(
                "unavailable", f"The event log is unavailable ({err}); send the command again.")
            outcome = "unavailable"
        except Exception:  # a bug in the rules or the shell: log it, answer, keep serving
            log.exception("command_crashed", command=command_type)
            reply = Reply.rejected(
                "internal_error", "The server failed on this command; it was not applied.")
            outcome = "internal_error"
        finally:
            # keep the locks about as many as the cached tables: ids sent at random (unknown
            # tables) must not grow memory; a lock dropped while wanted only costs a conflict
            if not lock.locked() and len(self.locks) > self.cache_size:
                self.locks.pop(table, None)
        return self._done(reply, outcome, started, command=command_type, retries=retries, **where)

    async def _decide_and_append(
        self, table: str, player: str, envelope: Any, digest: str,
    ) -> tuple[Reply, str, int]:
        """Decide on the cached table when there is one (an acceptance is safe: the append's
        expectation fails if the cache was stale); anything else is only answered after a
        decision on the table as the log has it."""
        retries = 0
        fresh = table not in self.cache
        while retries <= self.max_retries:
            folded = await self._load(table) if fresh else self.cache[table]
            applied = folded.command_ids.get(envelope.id)
            if applied is not None:  # the id was used: a retry, or another command under it
                return (*_answer_to_reused_id(envelope.id, applied, player, digest), retries)
            stale = envelope.expect is not None and envelope.expect != folded.version
            decision = None if stale else self.decider.decide(
                folded.state, envelope.command, Context(actor=player, rng=self.rng()))
            if decision is None or isinstance(decision, Rejection):
                if not fresh:  # the cache may be behind: look at the log before refusing
                    fresh = True
                    continue
                if decision is None:
                    return Reply.rejected(
                        "stale_version",
                        f"The table is at version {folded.version}, not {envelope.expect}; "
                        "look again and decide.",
                    ), "rejected", retries
                return Reply.of(decision), "rejected", retries
            batch = EventBatch(
                game=self.game, table=table, version=folded.version + 1,
                command_id=envelope.id, player=player, digest=digest, at=self.clock(),
                events=list(decision),
            )
            try:
                appended = await self.store.append(
                    self.game, table, encoder.encode(batch), command_id=envelope.id,
                    expected_seq=folded.last_seq,
                )
            except ConcurrencyConflict:
                log.debug("append_conflicted", retries=retries)
                retries += 1
                fresh = True
                continue
            if appended.duplicate:  # the id was appended before: by whom, and for what?
                self.cache.pop(table, None)
                folded = await self._load(table)
                applied = folded.command_ids.get(envelope.id)
                if applied is None:  # a replica that has not caught up yet: ask again
                    raise Unavailable(f"the log does not show command {envelope.id} yet")
                return (*_answer_to_reused_id(envelope.id, applied, player, digest), retries)
            self._remember(table, folded.then(self.decider, appended.seq, batch))
            return Reply.accepted(batch.version), "accepted", retries
        return Reply.rejected(
            "conflict", "The table kept changing while this command was decided; send it again.",
        ), "conflict", self.max_retries

    async def _load(self, table: str) -> Folded:
        """The table folded up to its last message: from the cache when it is current, else
        the cache plus what came since, else the whole log."""
        last = await self.store.last(self.game, table)
        if last is None:
            return empty(self.decider)
        cached = self.cache.get(table)
        if cached is not None and cached.last_seq == last.seq:
            self.cache.move_to_end(table)
            return cached
        if cached is not None and cached.last_seq < last.seq:
            newest = admit(self.decider, cached, self.game, table, last.seq, last.data, last.writer)
            if newest.batch is not None:  # one command landed elsewhere: it is `last`
                return self._remember(table, newest.folded)
            stored = await self.store.read(self.game, table, after=cached.last_seq, upto=last.seq)
            folded = cached
        else:
            stored = await self.store.read(self.game, table, upto=last.seq)
            folded = empty(self.decider)
        for message in stored:
            folded = admit(self.decider, folded, self.game, table, message.seq, message.data,
                           message.writer).folded
        return self._remember(table, folded)

    def _remember(self, table: str, folded: Folded) -> Folded:
        self.cache[table] = folded
        self.cache.move_to_end(table)
        while len(self.cache) > self.cache_size:
            self.cache.popitem(last=False)
        return folded

    def _done(
        self, reply: Reply, outcome: str, started: float, *, command: str, retries: int,
        table: str, player: str,
    ) -> Reply:
        """Count the outcome and write the command's one log line."""
        self.counts[outcome] = self.counts.get(outcome, 0) + 1
        fields: dict[str, Any] = dict(
            game=self.game, table=table, player=player, command=command, outcome=outcome,
            retries=retries,
            duration_ms=round((time.perf_counter() - started) * 1000, 2),
        )
        if reply.error is not None:
            fields["code"] = reply.error.code
        log.info("command_handled", **fields)
        return reply
