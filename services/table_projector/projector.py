"""The table projector: the event log folded into views, one per seat and one for spectators,
kept together under the table's one key of a JetStream KV bucket, plus the lobby; it answers
view and lobby requests and pushes each viewer its new view, with the steps since its
previous push, to `tabletop.update.*`.

Of each fetched batch, a table's views are rendered and stored once, at its newest version,
and the writes of all the batch's tables are in flight together; one push per viewer follows.

The log is cut into partitions by table (`subjects.partition`); a projector owns some of them
(`shard` i of n: the partitions p with p % n == i), each read by its own durable consumer, so
n replicas share the work and a partition's progress survives a change of n.

Exactly once, whatever fails: a message is acknowledged only once its table's views are stored
(a batch by one acknowledgement of its last message whose table's views, and every earlier
one's, are stored); a table whose views could not be stored is forgotten (folded again from the
log next time) and its messages come again, with whatever followed them in the partition. A
table it does not hold is folded from the log up to the message at hand, and its views are
written only if the bucket holds an older version, so a restart, a redelivery or a rebuild
lands on the same views and never writes an older version over a newer one. The table comes
from the subject, never from a message's body: a message that does not fit its table is
skipped (`folding.admit`).

Views converge by themselves: whenever a partition's consumer is (re)opened, the views of its
recent tables are checked against the log and written again where the bucket lost them
(`TableProjector.reconcile`), unless the last owner stopped cleanly right there. A view asked
for a table whose log exists but whose views are not stored yet is waited for a moment, then
answered `not_ready`, never `unknown_table`.
"""

from __future__ import annotations

import asyncio
import functools
import time
import typing
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

import msgspec
import structlog

from services import VERSION
from services.registry import games
from services.table_projector.lobby import GameLobby
from shared.bus.buckets import Bucket
from shared.bus.connection import Bus, Delivered, Incoming
from shared.bus.errors import BusError, Unavailable
from shared.bus.snapshots import Snapshots
from shared.games.table import BOTS_PLAYER, SERVICE_PLAYER, TableDecider
from shared.messages import subjects
from shared.messages.envelopes import (
    Alike,
    BadRequest,
    EventBatch,
    LobbyRequest,
    TableViews,
    ViewReply,
    ViewRequest,
    decode_request,
    encoder,
    error_body,
    push_body,
    step_of,
    table_views_body,
    unknown_game_body,
    version_said,
)
from shared.messages.folding import Admitted, Bounded, Folded, admit, empty, fold_log, weigh_folded
from shared.metrics import ProjectorMetrics

log = structlog.get_logger("tabletop.table_projector")
DURABLE = "tabletop-table-projector"  # before partitions: one consumer for the whole log
# How far back a partition's views are checked against the log whenever its consumer is
# (re)opened: the tables of the log's last RECONCILE_SPAN messages up to the partition's ack
# floor (see `TableProjector.reconcile`).
RECONCILE_SPAN = 10_000
RECONCILE_IN_FLIGHT = 64  # bucket reads at once while reconciling
# A view asked for a table whose log exists but whose views are not stored yet (just created,
# or being repaired) is waited for this long, then answered `not_ready` with this hint.
VIEW_WAIT = 1.0
VIEW_RETRY_AFTER_MS = 250
SNAPSHOT_BUCKET_LOOK_EVERY = 30.0  # seconds between looks for the snapshots bucket while missing


def stopped_key(partition: int) -> str:
    """The views bucket's key where a projector that stopped cleanly leaves the position up to
    which every view of the partition is stored (see `TableProjector.stopped`)."""
    return f"stopped.p{partition}"


class StoppedAt(msgspec.Struct, frozen=True):
    stream: str
    acknowledged: int


def durable(partition: int) -> str:
    """The consumer of one partition, acknowledged a batch at a time (AckPolicy.ALL)."""
    return f"{DURABLE}-p{partition}-all"


def former_durable(partition: int) -> str:
    """The consumer of one partition when each message was acknowledged alone: the one that
    `durable(partition)` takes over from."""
    return f"{DURABLE}-p{partition}"


def owned_partitions(shard: tuple[int, int]) -> list[int]:
    index, count = shard
    if not 0 <= index < count <= subjects.PARTITIONS:
        raise ValueError(f"shard {index}/{count}: want 0 <= index < count <= {subjects.PARTITIONS}")
    return [p for p in range(subjects.PARTITIONS) if p % count == index]


@dataclass(frozen=True, slots=True)
class Rendered:
    """What a batch makes of one table: each viewer's view reply and push, what the bucket
    stores of them (`TableViews`), and the lobby entry (None once ended)."""

    views: dict[str, bytes]
    stored: bytes
    pushes: dict[str, bytes]
    lobby: dict[str, Any] | None


@dataclass(slots=True)
class PartitionProgress:
    applied_seq: int = 0  # the last stream sequence acknowledged
    pending: int = 0  # messages still to deliver after the last batch, as the server said
    caught_up: bool = False  # a fetch found nothing more (or the last batch left nothing)


class TableProjector:
    def __init__(
        self,
        bus: Bus,
        *,
        shard: tuple[int, int] = (0, 1),
        cache_size: int = 4096,
        cache_bytes: int | None = None,
        open_table_ttl: float = 6 * 3600.0,
        idle_table_ttl: float = 24 * 3600.0,
        metrics: ProjectorMetrics | None = None,
    ) -> None:
        self.bus = bus
        self.games: dict[str, TableDecider] = games()
        self.partitions = {p: PartitionProgress() for p in owned_partitions(shard)}
        self.tables: Bounded[tuple[str, str], Folded] = Bounded(
            cache_size, budget=cache_bytes, weigh=None if cache_bytes is None else weigh_folded
        )
        # the workers' snapshots, read to load a table not held (`_snapshots`)
        self._snapshot_bucket: Bucket | None = None
        self._snapshot_bucket_looked = -SNAPSHOT_BUCKET_LOOK_EVERY
        # one look at a time: the tables of a batch, folded side by side, wait for the same look
        self._snapshot_bucket_looking = asyncio.Lock()
        self.snapshots_of: dict[str, Snapshots] = {}
        self.open_table_ttl = open_table_ttl
        self.idle_table_ttl = idle_table_ttl
        # notified whenever this replica has stored views: a view request waiting for a new
        # table's views looks again at once
        self.stored = asyncio.Condition()
        # game -> table -> lobby entry, of every partition (kept from the bucket by a watch)
        self.lobby: dict[str, GameLobby] = {}
        self.counts: dict[str, int] = {}
        # counted only where a port serves them (`serve_table_projector`), as the workers do
        self.metrics = metrics
        # partition -> the connection's disconnect count when its consumer was last opened
        self._opened_on: dict[int, int] = {}

    def _count(self, what: str, n: int = 1) -> None:
        self.counts[what] = self.counts.get(what, 0) + n

    @property
    def applied_seq(self) -> int:
        return max((p.applied_seq for p in self.partitions.values()), default=0)

    def caught_up(self) -> bool:
        return all(p.caught_up for p in self.partitions.values())

    # --- folding the log ------------------------------------------------------------------------

    async def apply(self, partition: int, messages: list[Delivered]) -> set[int]:
        """Fold a batch of one partition's messages, then store each changed table's newest
        views once, and push each viewer one update with the steps of the batch. Tables are
        folded side by side (a table not held reads its log meanwhile), and the views of all
        the batch's tables are written together, many puts in flight (see `_store`). Returns
        the sequences of the messages to deliver again (their table's views could not be
        stored): no message is acknowledged before its table's views are stored."""
        progress = self.partitions[partition]
        by_table = self._by_table(messages)
        keys = list(by_table)
        folded = await asyncio.gather(*(self._fold_table(key, by_table[key]) for key in keys))
        by_key = dict(zip(keys, folded, strict=True))
        failed = {key for key, steps in by_key.items() if steps is None}
        rendered: dict[tuple[str, str], Rendered] = {}
        for key, steps in by_key.items():
            if steps:
                done = self._render(key, steps)
                if done is not None:
                    rendered[key] = done
        not_stored = await self._store(rendered)
        if not_stored:
            log.warning("projection_retrying", tables=len(not_stored), error="views not stored")
        failed |= not_stored
        for key, done in rendered.items():
            if key not in not_stored:
                await self._push(key, done)
                if done.pushes and self.metrics is not None:  # (none: the last good views)
                    self._pushed(self.metrics, key[0], by_key[key])
        if len(rendered) > len(not_stored):
            await self._notify_stored()
        for key in failed:
            self.tables.pop(key)  # never count a version whose views are not stored
        retry = {m.seq for key in failed for m in by_table[key]}
        self._count("retried", len(retry))
        self._count("applied", len(messages) - len(retry))
        done_seqs = [m.seq for m in messages if m.seq not in retry]
        if done_seqs:
            progress.applied_seq = max(progress.applied_seq, *done_seqs)
        progress.pending = messages[-1].pending
        progress.caught_up = not retry and progress.pending == 0
        return retry

    @staticmethod
    def _pushed(
        metrics: ProjectorMetrics, game: str, steps: list[tuple[Folded, EventBatch[Any] | None]] | None
    ) -> None:
        """Each step just pushed, timed from its command's `at` stamp."""
        now = time.time()
        for _, batch in steps or ():
            if batch is not None:
                metrics.pushed(game, batch.at, now)

    def _by_table(self, messages: list[Delivered]) -> dict[tuple[str, str], list[Delivered]]:
        """A batch's messages by (game, table), in order; one whose subject names no table of
        a game of ours is skipped, with a log line."""
        by_table: dict[tuple[str, str], list[Delivered]] = {}
        of_subject: dict[str, tuple[int, str, str] | None] = {}  # a table's subject parsed once
        for message in messages:
            if message.subject in of_subject:
                parsed = of_subject[message.subject]
            else:
                parsed = of_subject[message.subject] = subjects.parse_evt(message.subject)
            if parsed is None or parsed[1] not in self.games:
                log.error(
                    "message_skipped",
                    subject=message.subject,
                    seq=message.seq,
                    reason="unknown_game" if parsed else "bad_subject",
                )
                self._count("skipped")
                continue
            by_table.setdefault((parsed[1], parsed[2]), []).append(message)
        return by_table

    async def _fold_table(
        self,
        key: tuple[str, str],
        messages: list[Delivered],
    ) -> list[tuple[Folded, EventBatch[Any] | None]] | None:
        """One table's messages of a batch folded, in order: the steps whose views need
        writing (the newest last), None when the log could not be read."""
        decider = self.games[key[0]]
        steps = []
        last = messages[-1]
        for message in messages:
            try:
                step = await self._fold(decider, key, message, weighed=message is last)
            except Unavailable as err:
                log.warning("projection_retrying", game=key[0], table=key[1], error=str(err))
                return None
            if step is not None:
                steps.append(step)
        return steps

    def _render(
        self,
        key: tuple[str, str],
        steps: list[tuple[Folded, EventBatch[Any] | None]],
    ) -> Rendered | None:
        """A table's newest views and lobby entry, each viewer's push with the batch's steps.
        When the game's views fail (that table only, logged, not retried): the views of the
        batch's last step that renders, or None."""
        decider = self.games[key[0]]
        newest = steps[-1][0]
        batches = [batch for _, batch in steps if batch is not None]
        alike: Alike = {}  # the events of these batches every viewer sees alike, said once
        try:
            views = view_bodies(decider, newest)
            steps_alike = None  # the steps, encoded once when every viewer sees them alike
            if all(decider.seen_alike(event) for batch in batches for event in batch.events):
                steps_alike = encoder.encode([step_of(decider, batch, None, alike) for batch in batches])
            pushes = {
                viewer: push_body(
                    body,
                    steps_alike
                    or encoder.encode(
                        [
                            step_of(decider, batch, None if viewer == subjects.SPECTATOR else viewer, alike)
                            for batch in batches
                        ]
                    ),
                )
                for viewer, body in views.items()
            }
        except Exception:  # a bug in a game's views
            log.exception("projection_failed", game=key[0], table=key[1], seq=newest.last_seq)
            self._count("failed")
            self.tables.pop(key)
            return _last_good(decider, key[1], [folded for folded, _ in steps[:-1]])
        return Rendered(
            views, table_views_body(newest.version, views), pushes, lobby_entry(decider, key[1], newest)
        )

    async def _store(self, rendered: dict[tuple[str, str], Rendered]) -> set[tuple[str, str]]:
        """These tables' lobby entries and views (one put a table, every viewer's), all in
        flight together (the entry of an ended table deleted first), on one server
        (`Bus.on_one_server`). Returns the tables whose entry or views could not be stored:
        their messages come again, and `_stored_already` looks at both."""
        return await self.bus.on_one_server(functools.partial(self._store_together, rendered))

    async def _store_together(self, rendered: dict[tuple[str, str], Rendered]) -> set[tuple[str, str]]:
        failed = set()
        for key, done in rendered.items():
            if done.lobby is None:  # ended: it has no later message
                try:
                    await self.bus.view_delete(subjects.lobby_key(*key))
                except Unavailable:
                    failed.add(key)
        puts: dict[str, tuple[tuple[str, str], bytes]] = {}
        for key, done in rendered.items():
            if key not in failed:
                if done.lobby is not None:
                    puts[subjects.lobby_key(*key)] = key, encoder.encode(done.lobby)
                puts[subjects.views_key(*key)] = key, done.stored
        failed |= {puts[k][0] for k in await self.bus.put_views((k, body) for k, (_, body) in puts.items())}
        if self.metrics is not None:
            for key, done in rendered.items():
                if key not in failed:
                    self.metrics.views_written[key[0]].inc(len(done.views))
        return failed

    async def _push(self, key: tuple[str, str], done: Rendered) -> None:
        """After the bucket holds the newest: a reader never goes back."""
        game, table = key
        for viewer, body in done.pushes.items():
            await self.bus.publish(subjects.update(game, table, viewer), body)
        if done.lobby is not None:
            self.lobby.setdefault(game, GameLobby()).put(table, done.lobby)
        elif game in self.lobby:
            self.lobby[game].pop(table)

    async def _fold(
        self,
        decider: TableDecider,
        key: tuple[str, str],
        message: Delivered,
        *,
        weighed: bool = True,
    ) -> tuple[Folded, EventBatch[Any] | None] | None:
        """The table after `message` and the message's batch (None: skipped, or not read
        here), or None when its views need no writing: a redelivery, a message skipped, or
        views already stored at this version or later. Held by the cache weighed only when
        `weighed` (the table's last message of the batch: the weighing encodes the state)."""
        folded = self.tables.get(key)
        if folded is not None and message.seq <= folded.last_seq:
            self._count("redelivered")
            return None
        if folded is not None:
            admitted = admit(decider, folded, *key, message.seq, message.data, message.writer)
            if admitted.batch is not None or admitted.skipped != "version_gap":
                self.tables.put(key, admitted.folded, weighed=weighed)
                return None if admitted.batch is None else (admitted.folded, admitted.batch)
        elif version_said(message.data) == 1:
            # A table's first version is its whole log so far: the subject held nothing the
            # worker wrote before it (it appends a table's creation expecting the subject
            # empty), so a table just made costs no read of the log.
            admitted = admit(decider, empty(decider), *key, message.seq, message.data, message.writer)
            if admitted.batch is not None:
                folded = self.tables.put(key, admitted.folded, weighed=weighed)
                if await self._stored_already(key, folded.version):
                    return None
                return folded, admitted.batch
        # not held, or not following on: the log itself decides
        self._count("read_from_log")
        last: list[Admitted] = []

        def note(admitted: Admitted) -> None:
            if admitted.skipped:
                self._count("skipped")
            last[:] = [admitted]

        snapshots = await self._snapshots(decider)
        folded = None
        if snapshots is not None:
            folded = await snapshots.fold_to(
                self.bus.events, key[1], message, on_admitted=note, for_step=True
            )
        if folded is None:
            folded = await fold_log(
                self.bus.events,
                decider,
                *key,
                upto=message.seq,
                version=version_said(message.data),
                on_admitted=note,
            )
        folded = self.tables.put(key, folded)
        if await self._stored_already(key, folded.version):
            return None
        return folded, last[0].batch if last and last[0].folded.last_seq == message.seq else None

    async def _stored_already(self, key: tuple[str, str], version: int) -> bool:
        """Whether the bucket holds this table's views at `version` with their lobby entry, or
        newer views (a predecessor that stopped before acknowledging stored them; the messages
        it did not acknowledge come next). A table's lobby entry and views are put together
        (`_store`), so views stored at a version do not vouch for the entry: a message whose
        writes failed comes again, and is written again unless both were stored."""
        views = await self.bus.view_get(subjects.views_key(*key))
        stored = -1 if views is None else version_said(views)
        if stored is None or stored < version:
            return False
        if stored > version:
            return True
        return not _behind(version, views, await self.bus.view_get(subjects.lobby_key(*key)))

    async def _snapshots(self, decider: TableDecider) -> Snapshots | None:
        """The game's snapshots, read only; None while the workers' bucket is not there (it
        is looked for again a while later)."""
        if self._snapshot_bucket is None:
            async with self._snapshot_bucket_looking:
                if self._snapshot_bucket is None:
                    if time.monotonic() < self._snapshot_bucket_looked + SNAPSHOT_BUCKET_LOOK_EVERY:
                        return None
                    self._snapshot_bucket_looked = time.monotonic()
                    try:
                        self._snapshot_bucket = await Bucket.open(self.bus.js, subjects.SNAPSHOTS_BUCKET)
                    except Exception as err:  # noqa: BLE001 - no snapshots: the whole log, as before
                        log.info("snapshots_not_found", error=f"{type(err).__name__}: {err}")
                        return None
        found = self.snapshots_of.get(decider.name)
        if found is None:
            found = self.snapshots_of[decider.name] = Snapshots(
                self._snapshot_bucket, decider, every=0, cache_size=self.tables.size
            )
        return found

    def forget(self, game: str, table: str) -> None:
        """Fold this table from the log next time (its views were rebuilt by an operator)."""
        self.tables.pop((game, table))

    async def _notify_stored(self) -> None:
        async with self.stored:
            self.stored.notify_all()

    # --- views that converge by themselves ------------------------------------------------------

    async def reconcile(self, partition: int, ack_floor: int) -> int:
        """Whenever a partition's consumer is (re)opened (a start, a reconnect after a server
        restart, an error, the consumer deleted under it by a rebuild): forget what is held of
        the partition's tables, then check the tables of its recent messages (those among the
        log's last `RECONCILE_SPAN` messages up to the ack floor) against the bucket, and
        write again the views of each one behind: its views missing or older than its last
        message, or its lobby entry not the one they imply. Messages after
        the ack floor come next anyway, and are checked as they come (`_fold`). Skipped when
        the partition's last owner stopped cleanly exactly at the ack floor (`stopped`).

        On one node the views bucket acknowledges a put before it reaches the disk, so a
        server killed may lose the last view writes while the log (and the consumer's
        acknowledgements) keep them: this is what writes them again, with no operator.
        Runs in the partition's own loop, before its next batch: nothing else writes the
        partition's views meanwhile. Returns the tables written again; raises Unavailable
        when the log or the bucket did not answer (the consumer retries)."""
        for key in [key for key in self.tables if subjects.partition(*key) == partition]:
            self.tables.pop(key)
        self._opened_on[partition] = self.bus.watch.disconnects
        said: dict[tuple[str, str], int] = {}  # table -> the version its last message says
        start = max(ack_floor - RECONCILE_SPAN, 0)
        try:
            stream = (await self.bus.events.layout()).stream_of_partition(partition)
            if await self._stopped_cleanly(partition, StoppedAt(stream, ack_floor)):
                self._count("reconcile_skipped")
                return 0
            if ack_floor <= 0:
                self._count("checked")
                return 0
            async for run in self.bus.events.replay(
                stream, subjects.evt_partition(partition), after=start, upto=ack_floor
            ):
                for message in run:
                    parsed = subjects.parse_evt(message.subject)
                    version = version_said(message.data)
                    if parsed is not None and parsed[1] in self.games and version is not None:
                        said[(parsed[1], parsed[2])] = version
        except BusError as err:  # a read refused while the server starts: retried
            raise Unavailable(f"partition {partition} not checked: {err}") from err
        limit = asyncio.Semaphore(RECONCILE_IN_FLIGHT)

        async def stored(key: tuple[str, str]) -> tuple[bytes | None, bytes | None]:
            async with limit:
                views = await self.bus.view_get(subjects.views_key(*key))
                return views, await self.bus.view_get(subjects.lobby_key(*key))

        keys = list(said)
        written = 0
        for key, (views, entry) in zip(keys, await asyncio.gather(*map(stored, keys)), strict=True):
            if _behind(said[key], views, entry):
                written += await self._write_again(key, views, entry)
        if written:
            await self._notify_stored()
            log.warning("views_written_again", partition=partition, tables=written, checked=len(keys))
        self._count("reconciled", written)
        self._count("checked")
        return written

    async def _stopped_cleanly(self, partition: int, now: StoppedAt) -> bool:
        """Whether the partition's last owner stopped cleanly exactly where its consumer is
        now: every view up to there was stored before that mark, and a server that lost
        view writes lost the last ones first (see `Views.on_one_server`), the mark among
        them. The mark is taken either way: it vouches for one opening only."""
        mark = await self.bus.view_get(stopped_key(partition))
        if mark is None:
            return False
        await self.bus.view_delete(stopped_key(partition))
        try:
            same = msgspec.json.decode(mark, type=StoppedAt) == now
        except (msgspec.DecodeError, msgspec.ValidationError):
            same = False
        if not same:
            self._count("reconcile_after_stop_mark")
        return same

    async def stopped(self, partition: int, acknowledged: int) -> None:
        """The partition's consumer stopped cleanly, everything up to `acknowledged` stored:
        mark it, so that the next opening need not check the partition's recent views
        (`reconcile`). Not when the connection changed server since the opening (the views
        may be on two servers), nor when the bucket does not answer: the next opening checks."""
        if self._opened_on.get(partition) != self.bus.watch.disconnects:
            return
        try:
            stream = (await self.bus.events.layout()).stream_of_partition(partition)
            mark = msgspec.json.encode(StoppedAt(stream, acknowledged))
            await self.bus.view_put(stopped_key(partition), mark)
        except BusError as err:
            log.info("stop_not_marked", partition=partition, error=str(err))

    async def _write_again(self, key: tuple[str, str], views: bytes | None, entry: bytes | None) -> int:
        """One table's views and lobby entry as its whole log has them, unless the stored
        ones already go with it (its last message was one skipped); pushed with no steps (a
        client sees a gap and asks the replay for what it missed). Returns 1 if written."""
        folded = self.tables.put(key, await self._fold_whole(key))
        if not folded.version or not _behind(folded.version, views, entry):
            return 0
        done = self._render(key, [(folded, None)])
        if done is None:
            return 0
        if await self._store({key: done}):
            self.tables.pop(key)
            raise Unavailable(f"the views of {key[0]}/{key[1]} were not stored")
        await self._push(key, done)
        return 1

    async def _fold_whole(self, key: tuple[str, str]) -> Folded:
        """The table as its whole log has it: from its snapshot and the messages after it when
        it has one the log follows on from."""
        decider = self.games[key[0]]
        snapshots = await self._snapshots(decider)
        last = None if snapshots is None else await self.bus.events.last(*key)
        if snapshots is not None and last is not None:
            folded = await snapshots.fold_to(self.bus.events, key[1], last)
            if folded is not None:
                return folded
        return await fold_log(self.bus.events, decider, *key)

    # --- lobby --------------------------------------------------------------------------------

    def on_lobby_entry(self, key: str, value: bytes | None) -> None:
        """A lobby entry of the bucket changed (this replica's or another's)."""
        _, game, table = key.split(".", 2)
        if value is None:
            if game in self.lobby:
                self.lobby[game].pop(table)
            return
        try:
            self.lobby.setdefault(game, GameLobby()).put(table, msgspec.json.decode(value))
        except msgspec.DecodeError:
            log.error("lobby_entry_unreadable", key=key)

    async def expire_tables(self, now: float | None = None) -> int:
        """Ask the workers to end the tables of this replica's partitions that ran out of
        time: open ones nobody started within `open_table_ttl` seconds of their creation, and
        running ones without clocks nobody moved at for `idle_table_ttl` seconds (0: never).
        Returns how many were asked; the worker decides (the command expects the version seen
        here, so a table that moved meanwhile refuses)."""
        now = time.time() if now is None else now
        asked = 0
        for game, lobby in list(self.lobby.items()):
            for table, entry in list(lobby.entries.items()):
                if subjects.partition(game, table) not in self.partitions or not self._ran_out(entry, now):
                    continue
                version = entry["version"]
                command = {"id": f"expire-{version}", "type": "expire", "expect": version}
                try:
                    await self.bus.request(subjects.cmd(game, table, SERVICE_PLAYER), encoder.encode(command))
                except Unavailable as err:
                    log.warning("expiry_deferred", game=game, table=table, error=str(err))
                    continue
                asked += 1
        return asked

    def _ran_out(self, entry: dict[str, Any], now: float) -> bool:
        if entry.get("status") == "open":
            created = _epoch(entry.get("created_at", ""))
            return created is not None and now - created >= self.open_table_ttl
        if entry.get("status") == "running" and entry.get("clock", "none") == "none" and self.idle_table_ttl:
            moved = _epoch(entry.get("moved_at", ""))
            return moved is not None and now - moved >= self.idle_table_ttl
        return False

    # --- requests -------------------------------------------------------------------------------

    async def on_view(self, message: Incoming) -> None:
        """A viewer's view: `{}` (or an empty body) on `tabletop.view.<game>.<table>.<viewer>`;
        the bot service asks as `bots` for the seat its body names (`on_bot_seat_view`)."""
        tokens = subjects.parse(message.subject, "view")
        if tokens is None or len(tokens) != 3:
            await message.respond(error_body("bad_request", "Ask tabletop.view.<game>.<table>.<viewer>."))
            return
        game, table, viewer = tokens
        if game not in self.games:
            await message.respond(unknown_game_body(message.subject, game))
            return
        if viewer == BOTS_PLAYER:
            await self.on_bot_seat_view(message, game, table)
            return
        try:
            decode_request(message.data, ViewRequest)
        except BadRequest as err:
            await message.respond(error_body("bad_request", str(err)))
            return
        try:
            stored = await self._stored_views(game, table)
        except Unavailable as err:
            await message.respond(error_body("unavailable", f"Views are unavailable: {err}."))
            return
        if stored is None:
            await message.respond(await self._no_view(game, table))
            return
        # a viewer without a seat (never seated, or left) sees what spectators see
        body = stored.of(viewer) or stored.of(subjects.SPECTATOR)
        await message.respond(body if body is not None else _not_ready(game, table))

    async def on_bot_seat_view(self, message: Incoming, game: str, table: str) -> None:
        """The view of the seat `{"seat": ...}` for the bot service (only it may ask as
        `bots`), once the table says a bot plays that seat: it never sees another seat."""
        try:
            seat = decode_request(message.data, BotSeatRequest).seat
        except BadRequest as err:
            await message.respond(error_body("bad_request", str(err)))
            return
        try:
            stored = await self._stored_views(game, table)
        except Unavailable as err:
            await message.respond(error_body("unavailable", f"Views are unavailable: {err}."))
            return
        spectator = None if stored is None else stored.of(subjects.SPECTATOR)
        if stored is None or spectator is None:
            await message.respond(await self._no_view(game, table))
            return
        shown = msgspec.json.decode(spectator, type=_BotsSeats).view
        own = stored.of(seat)
        if seat not in (*shown.bots, *shown.zombies) or own is None:
            await message.respond(error_body("not_allowed", f"No bot plays {seat} at table {table}."))
            return
        await message.respond(own)

    async def _stored_views(self, game: str, table: str) -> TableViews | None:
        """The table's stored views; when there are none yet but the table has a log (a table
        just created, views being written again), waited for up to `VIEW_WAIT`."""
        body = await self.bus.table_views(game, table)
        if body is not None or await self.bus.events.last(game, table) is None:
            return body
        deadline = asyncio.get_running_loop().time() + VIEW_WAIT
        while body is None and (left := deadline - asyncio.get_running_loop().time()) > 0:
            async with self.stored:
                # woken when this replica stores views; another replica's are looked for
                # every tenth of a second
                try:
                    await asyncio.wait_for(self.stored.wait(), min(left, 0.1))
                except TimeoutError:
                    pass
            body = await self.bus.table_views(game, table)
        return body

    async def _no_view(self, game: str, table: str) -> bytes:
        """The answer for a table with no stored view: `not_ready` when its log exists (the
        views are on their way), `unknown_table` when the log has nothing of it."""
        if await self.bus.events.last(game, table) is not None:
            return _not_ready(game, table)
        return error_body("unknown_table", f"There is no {game} table {table}.")

    async def on_lobby(self, message: Incoming) -> None:
        tokens = subjects.parse(message.subject, "lobby")
        if tokens is None or len(tokens) != 1:
            await message.respond(error_body("bad_request", "Ask tabletop.lobby.<game>."))
            return
        game = tokens[0]
        if game not in self.games:
            await message.respond(unknown_game_body(message.subject, game))
            return
        try:
            request = decode_request(message.data, LobbyRequest)
        except BadRequest as err:
            await message.respond(error_body("bad_request", str(err)))
            return
        await message.respond(encoder.encode(self.lobby.get(game, GameLobby()).page(game, request)))


def _epoch(instant: str) -> float | None:
    try:
        return datetime.fromisoformat(instant.replace("Z", "+00:00")).astimezone(UTC).timestamp()
    except ValueError:
        return None


def view_bodies(decider: TableDecider, folded: Folded) -> dict[str, bytes]:
    """The encoded view reply (what the bucket stores) of every seat and of spectators,
    spectator last."""
    players = folded.state.players
    views = decider.player_views(folded.state, [*players, None])
    return {
        viewer: encoder.encode(ViewReply(version=folded.version, view=view))
        for viewer, view in zip((*players, subjects.SPECTATOR), views, strict=True)
    }


async def store_views(bus: Bus, game: str, table: str, folded: Folded, bodies: dict[str, bytes]) -> None:
    """One table's views (`view_bodies` of `folded`), in the one key they are kept under."""
    await bus.view_put(subjects.views_key(game, table), table_views_body(folded.version, bodies))


def _last_good(decider: TableDecider, table: str, earlier: list[Folded]) -> Rendered | None:
    """The newest of a batch's earlier steps whose views render, stored without pushes, so
    that a table whose views fail shows its last good state whether the failing step came in
    a batch of its own or with the steps before it; None when none renders."""
    for folded in reversed(earlier):
        try:
            views = view_bodies(decider, folded)
            stored = table_views_body(folded.version, views)
            return Rendered(views, stored, {}, lobby_entry(decider, table, folded))
        except Exception:  # noqa: BLE001 - the bug logged above, earlier: look further back
            continue
    return None


def lobby_entry(decider: TableDecider, table: str, folded: Folded) -> dict[str, Any] | None:
    """What the lobby shows of a table, None once it has ended."""
    state = folded.state
    if state.status not in ("open", "running"):
        return None
    return {
        "table": table,
        "version": folded.version,
        "created_at": folded.created_at,
        "moved_at": folded.moved_at,
        **decider.lobby_entry(state),
    }


class BotSeatRequest(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """The bot service's request for the view of a seat one of its bots plays."""

    shape: typing.ClassVar[str] = 'Ask with {"seat": "<a seat a bot plays>"}.'

    seat: str

    def __post_init__(self) -> None:
        if not subjects.is_id(self.seat):
            raise ValueError(f'"seat" is {self.seat[:80]!r}, not a player id')


class _BotsAndZombies(msgspec.Struct):
    bots: list[str] = []
    zombies: list[str] = []


class _BotsSeats(msgspec.Struct):
    """The seats bots play, as a spectator view says."""

    view: _BotsAndZombies


def _not_ready(game: str, table: str) -> bytes:
    return error_body(
        "not_ready",
        f"The views of {game} table {table} are not stored yet; ask again.",
        retry_after_ms=VIEW_RETRY_AFTER_MS,
    )


class _StatusView(msgspec.Struct):
    status: str = ""


class _ShownView(msgspec.Struct):
    view: _StatusView


class _ShownViewers(msgspec.Struct):
    spectator: _ShownView


class _Shown(msgspec.Struct):
    """What reconciling reads of a table's stored views: their version, and the status the
    spectator's view shows."""

    version: int
    views: _ShownViewers


_shown = msgspec.json.Decoder(_Shown)


def _behind(said: int, views: bytes | None, entry: bytes | None) -> bool:
    """Whether a table's stored views lag its log, whose last message says version `said`:
    none stored or older ones, or a lobby entry that does not go with them (an open or
    running table is listed at the views' version; an ended one is not)."""
    if views is None:
        return True
    listed = None if entry is None else version_said(entry)
    if entry is not None and listed is None:  # an entry that says no version
        return True
    try:
        shown = _shown.decode(views)
    except (msgspec.DecodeError, msgspec.ValidationError):
        return True
    if shown.version < said:
        return True
    if shown.views.spectator.view.status in ("open", "running"):
        return listed != shown.version
    return listed is not None


async def serve_table_projector(
    bus: Bus,
    stop: asyncio.Event,
    *,
    shard: tuple[int, int] = (0, 1),
    until: Callable[[TableProjector], bool] | None = None,
) -> TableProjector:
    """Project this shard's partitions of the log until `stop` is set (or, for a rebuild,
    until `until(projector)` holds)."""
    await bus.ensure_streams()
    await bus.carry_over_former_views()
    # the consumer of the whole log, before partitions
    await bus.delete_consumer(DURABLE, stream=subjects.STREAM)
    layout = await bus.events.layout()
    settings = bus.settings
    projector = TableProjector(
        bus,
        shard=shard,
        cache_size=settings.projector_cache_size,
        cache_bytes=settings.projector_cache_mb << 20,
        open_table_ttl=settings.open_table_ttl,
        idle_table_ttl=settings.idle_table_ttl,
        # a count takes a lock: 3-6% of the projector's CPU (docs/performance.md)
        metrics=ProjectorMetrics() if settings.metrics_port else None,
    )
    serving = until is None
    # Every loop here ends on `halted`: set with `stop`, and as soon as one partition's loop
    # ends (a failure), so that none runs on even if it missed its cancellation (Python 3.11's
    # asyncio.wait_for may lose one that comes as its wait ends).
    halted = asyncio.Event()
    background: list[asyncio.Task[None]] = [asyncio.create_task(_set_when_set(stop, halted))]
    if serving:
        background.append(
            asyncio.create_task(
                bus.watch_views(
                    # a watch started again delivers every key's last operation, deletes included, so
                    # the lobby is kept, not emptied, meanwhile (a watch may list an empty bucket for a
                    # while when a cluster node is down)
                    "lobby.>",
                    projector.on_lobby_entry,
                    stop=halted,
                )
            )
        )
        background.append(asyncio.create_task(_expire_periodically(projector, halted)))
        await bus.subscribe(subjects.FORGET, lambda m: _on_forget(projector, m))
        await bus.add_service(
            name="tabletop-table-projector",
            version=VERSION,
            description="tabletop table views and lobby",
            endpoints=[
                ("views", f"{subjects.PREFIX}.view.>", "tabletop-views", projector.on_view),
                ("lobby", f"{subjects.PREFIX}.lobby.>", "tabletop-lobby", projector.on_lobby),
            ],
            stats=lambda: {
                "shard": f"{shard[0]}/{shard[1]}",
                "partitions": {
                    str(p): {"applied_seq": g.applied_seq, "pending": g.pending}
                    for p, g in projector.partitions.items()
                },
                "tables": len(projector.tables),
                "snapshots": {game: dict(s.counts) for game, s in projector.snapshots_of.items()},
                "cache_size": projector.tables.size,
                "cached_mb": round(projector.tables.weight / (1 << 20), 1),
                "cache_mb": settings.projector_cache_mb,
                **projector.counts,
            },
        )
        for p, progress in projector.partitions.items():
            ProjectorMetrics.lag_of(p).set_function(functools.partial(getattr, progress, "pending"))
    log.info("table_projector_started", shard=f"{shard[0]}/{shard[1]}", partitions=list(projector.partitions))

    async def partition_loop(partition: int) -> None:
        async def handle(messages: list[Delivered]) -> set[int]:
            retry = await projector.apply(partition, messages)
            if until is not None and until(projector):
                stop.set()
            return retry

        async def idle() -> None:
            projector.partitions[partition].caught_up = True
            if until is not None and until(projector):
                stop.set()

        async def opened(ack_floor: int) -> None:
            await projector.reconcile(partition, ack_floor)

        async def closed(acknowledged: int) -> None:
            await projector.stopped(partition, acknowledged)

        try:
            await bus.consume(
                durable(partition),
                subjects.evt_partition(partition),
                handle,
                stop=halted,
                idle=idle,
                stream=layout.stream_of_partition(partition),
                ack_all=True,  # a partition has one owner
                formerly=former_durable(partition),
                opened=opened,
                closed=closed,
            )
        finally:
            halted.set()

    try:
        async with asyncio.TaskGroup() as group:  # one partition failing stops them all
            for partition in projector.partitions:
                group.create_task(partition_loop(partition))
    finally:
        halted.set()
        for task in background:
            task.cancel()
        await asyncio.gather(*background, return_exceptions=True)
    return projector


async def _on_forget(projector: TableProjector, message: Incoming) -> None:
    try:
        game, table = msgspec.json.decode(message.data, type=tuple[str, str])
    except msgspec.DecodeError:
        return
    projector.forget(game, table)


async def _set_when_set(source: asyncio.Event, target: asyncio.Event) -> None:
    await source.wait()
    target.set()


async def _expire_periodically(projector: TableProjector, stop: asyncio.Event) -> None:
    ttls = [t for t in (projector.open_table_ttl, projector.idle_table_ttl) if t]
    every = min(max(min(ttls) / 10, 0.2), 60.0) if ttls else 60.0
    while not stop.is_set():
        try:
            await asyncio.wait_for(stop.wait(), every)
        except TimeoutError:
            await projector.expire_tables()
