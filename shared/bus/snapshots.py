"""Snapshots of folded tables, in the snapshots bucket: a table a worker or a table projector
does not hold is loaded from its snapshot and the log's messages after it, not from its whole
log (a Dozito table of 200 versions: one read and one decode instead of 200 folds). Workers
write them; table projectors only read them (they read the whole log, which holds as much).

A table's snapshot is written every `every` versions, and when the cache drops the table
having moved `EVICTED_TAIL` versions or more since its last snapshot. A table of fewer than
`WORTH_IT` versions is neither written nor looked for: its log is read as fast as a snapshot. Writes go in the
background, at most `MAX_WRITING` at once (beyond, skipped: the next version or eviction writes
it). A snapshot that cannot be read, or that the log does not follow on from, is counted,
logged and left for the whole log (`fold_to`); any failure of the bucket only costs the
whole log's read.
"""

from __future__ import annotations

import hashlib
import sys
from collections.abc import Callable, Iterator
from functools import cache
from pathlib import Path
from typing import Protocol

import structlog

import shared.games
import shared.messages
from shared.background import Background
from shared.games.table import TableDecider
from shared.messages.folding import (
    Admitted,
    Bounded,
    Folded,
    LogMessage,
    TableLog,
    fold_messages,
    follows_on,
    message_version,
)
from shared.messages.snapshots import read_snapshot, write_snapshot

log = structlog.get_logger("tabletop.snapshots")
EVICTED_TAIL = 8  # versions since its last snapshot for a dropped table to be written
# Versions below which a table is folded from its log, without looking for a snapshot: the
# look costs a round trip (bench/cold_loads.py: a cold load of 15 versions, 2.2 ms from the
# log, 2.7 with a look; of 47, 5.0 from the log, 2.5 from a snapshot).
WORTH_IT = 16
MAX_WRITING = 64  # snapshot writes in flight


def _said(err: Exception) -> str:
    return f"{type(err).__name__}: {err}"


class SnapshotBucket(Protocol):
    """What the snapshots need of a key-value bucket (shared/bus/buckets.py)."""

    async def get(self, key: str) -> bytes | None: ...

    async def put(self, key: str, value: bytes) -> None: ...


def _sources(decider: TableDecider) -> Iterator[Path]:
    """The source files whose code folds the game's tables: the game's package, the table's
    rules (shared/games) and the messages (envelopes, folding, snapshots)."""
    module = sys.modules[type(decider.game.initial_state).__module__]
    game_package = Path(module.__file__ or "").parent
    folders = {game_package, *map(Path, shared.games.__path__), *map(Path, shared.messages.__path__)}
    for folder in sorted(folders):
        yield from sorted(folder.glob("*.py"))


@cache
def rules_fingerprint(decider: TableDecider) -> str:
    """A digest of the code that folds the game's tables: a snapshot folded by other code (a
    new release) is not used, its table is folded again from the log."""
    digest = hashlib.blake2b(digest_size=12)
    for path in _sources(decider):
        digest.update(path.name.encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()


class Snapshots:
    """One game's snapshots, as one worker reads and writes them."""

    def __init__(self, bucket: SnapshotBucket, decider: TableDecider, *, every: int, cache_size: int) -> None:
        self.bucket = bucket
        self.decider = decider
        self.game = decider.name
        self.every = every
        self.rules = rules_fingerprint(decider)
        # the version of each table's newest snapshot this worker wrote or read
        self.covered: Bounded[str, int] = Bounded(2 * cache_size)
        self.writing = Background()
        self.counts: dict[str, int] = {}

    def _count(self, what: str) -> None:
        self.counts[what] = self.counts.get(what, 0) + 1

    def key(self, table: str) -> str:
        return f"{self.game}.{table}"

    async def fold_to(
        self,
        store: TableLog,
        table: str,
        last: LogMessage,
        *,
        on_admitted: Callable[[Admitted], None] | None = None,
        for_step: bool = False,
    ) -> Folded | None:
        """The table up to its log message `last`, from its snapshot and the messages after it
        (`on_admitted` sees each of those), when it has a snapshot the log follows on from;
        None otherwise: the caller folds the whole log. `for_step`: the caller folds `last`
        itself to show its step (a projector), so the snapshot must end before it, and one
        past it is no fault (the caller is behind the log, not the snapshot ahead of it)."""
        snapshot = await self.load(table, last, for_step=for_step)
        if snapshot is None:
            return None
        tail = []
        if snapshot.last_seq < last.seq:
            tail = await store.read(self.game, table, after=snapshot.last_seq, upto=last.seq)
        if not follows_on(self.decider, snapshot, self.game, tail[0] if tail else last):
            self.rejected(table, "the log does not follow on from it")
            return None
        return fold_messages(self.decider, snapshot, self.game, table, tail, on_admitted)

    async def load(self, table: str, last: LogMessage, *, for_step: bool = False) -> Folded | None:
        """The table as its snapshot has it, if it has a usable one up to the log's message
        `last` (before it, `for_step`); None otherwise (none, unreadable, past `last`, the
        bucket unavailable, or a table too short to look)."""
        if (message_version(self.decider, self.game, last) or WORTH_IT) < WORTH_IT:
            return None
        try:
            data = await self.bucket.get(self.key(table))
        except Exception as err:  # noqa: BLE001 - a cache: the log has the table all the same
            self._count("snapshots_unavailable")
            log.warning("snapshot_unavailable", game=self.game, table=table, error=_said(err))
            return None
        if data is None:
            return None
        folded = read_snapshot(self.decider, data, game=self.game, table=table, rules=self.rules)
        if folded is None:
            self.rejected(table, "unreadable, or of another layout, rules or table")
            return None
        if folded.last_seq >= last.seq + (not for_step):
            if for_step:  # written after the message the caller is at
                self._count("snapshots_ahead")
            else:
                self.rejected(table, "past the table's last message")
            return None
        self.covered.put(table, folded.version)
        self._count("snapshots_loaded")
        return folded

    def rejected(self, table: str, why: str) -> None:
        """A snapshot not used: its table is folded from the whole log (and snapshotted anew)."""
        self.covered.pop(table)
        self._count("snapshots_rejected")
        log.warning("snapshot_rejected", game=self.game, table=table, why=why)

    def appended(self, table: str, folded: Folded) -> None:
        """The worker's table moved to `folded`: written at every `every`th version."""
        if folded.version % self.every == 0:
            self._write(table, folded)

    def dropped(self, table: str, folded: Folded) -> None:
        """The cache dropped the table: written if it moved enough since its last snapshot."""
        if folded.version >= WORTH_IT and folded.version - (self.covered.get(table) or 0) >= EVICTED_TAIL:
            self._write(table, folded)

    def _write(self, table: str, folded: Folded) -> None:
        if len(self.writing) >= MAX_WRITING:
            self._count("snapshots_skipped")
            return
        # encoded now: the fold's ids dict is shared with the table's next version
        data = write_snapshot(folded, game=self.game, table=table, rules=self.rules)
        self.covered.put(table, folded.version)
        self.writing.start(self._put(table, data))

    async def _put(self, table: str, data: bytes) -> None:
        try:
            await self.bucket.put(self.key(table), data)
        except Exception as err:  # noqa: BLE001 - a cache: the next version or drop writes it
            self.covered.pop(table)
            self._count("snapshots_failed")
            log.warning("snapshot_not_written", game=self.game, table=table, error=_said(err))
        else:
            self._count("snapshots_written")

    async def drain(self, timeout: float = 5.0) -> None:
        """Wait for the writes in flight (a worker stopping)."""
        await self.writing.finish(timeout)
