"""The append-only log of every table, one JetStream message per accepted command.

Only this module knows the header names: the expected-sequence check that stops two workers
from forking a table's history, and the message id that drops a retried append.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from dataclasses import dataclass
from typing import Any

import msgspec
import nats.errors
import nats.js.errors
import structlog
from nats.aio.client import Client
from nats.aio.msg import Msg
from nats.js import JetStreamContext
from nats.js.api import AckPolicy, ConsumerConfig, DeliverPolicy, StorageType, StreamConfig

from shared.bus.errors import ConcurrencyConflict, OutcomeUnknown, StorageFull, TableBusy, Unavailable
from shared.bus.nats_internals import FastClient, request_with_headers
from shared.messages import subjects
from shared.messages.subjects import LogLayout

log = structlog.get_logger("tabletop.bus")
WRONG_LAST_SEQUENCE = 10071  # JetStream: Nats-Expected-Last-Subject-Sequence did not match
# JetStream (clustered): another append with an expected sequence on the subject is still
# being stored, so this one was refused unchecked
SUBJECT_IN_FLIGHT = 10164
# JetStream: a message with this id is being stored (it may land)
MSG_ID_IN_FLIGHT = 10158
# JetStream refusing a write because a storage limit is reached; it wrote nothing. The server's
# `max_file_store` (10023, "insufficient resources"), the account's `max_file` (10002, "resource
# limits exceeded for account"), a stream's `max_bytes` with discard new (10077, "maximum bytes
# exceeded"), and the reservation of a stream or bucket being created (10047).
SERVER_STORE_FULL = 10023
ACCOUNT_STORE_FULL = 10002
STORE_FAILED = 10077
STORAGE_RESERVATION_REFUSED = 10047
PAGE = 512  # messages per batched direct get
REPLAY_PULL = 4096  # messages a replay asks the server for at once
REPLAY_FORGOTTEN = 60.0  # seconds after which the server drops a replay's consumer left behind
READ_ATTEMPTS = 5  # reads of a table before a replica that is behind makes it `Unavailable`
# Who appended a message (`subjects.writer`): readers skip any message on a table's subject
# that its game's worker did not write.
WRITER = "Tabletop-Writer"


@dataclass(frozen=True, slots=True)
class StoredBatch:
    """One log message: its stream sequence, its body (an encoded EventBatch) and who wrote it."""

    seq: int
    data: bytes
    writer: str = ""
    subject: str = ""  # the stored subject (read by `iterate`, which may span tables)


class _PubAck(msgspec.Struct):
    """JetStream's answer to an append: where it stored it, or why not."""

    seq: int = 0
    duplicate: bool = False
    error: dict[str, Any] | None = None


_ack_decoder = msgspec.json.Decoder(_PubAck)


@dataclass(frozen=True, slots=True)
class Appended:
    seq: int
    duplicate: bool  # the command id was appended before: nothing new was written


# What a NATS restart or partition raises: the operation may be tried again.
TRANSIENT = (
    nats.errors.TimeoutError,
    TimeoutError,
    nats.errors.NoRespondersError,
    nats.errors.ConnectionClosedError,
    nats.errors.ConnectionReconnectingError,
    nats.js.errors.ServiceUnavailableError,
    nats.js.errors.NoStreamResponseError,
)


def storage_full(err: nats.js.errors.APIError) -> bool:
    """Whether JetStream refused a write because a storage limit is reached."""
    if err.err_code in (SERVER_STORE_FULL, ACCOUNT_STORE_FULL, STORAGE_RESERVATION_REFUSED):
        return True
    return err.err_code == STORE_FAILED and "maximum bytes" in (err.description or "")


def delivery_position(reply: str) -> tuple[int, int]:
    """The stream sequence of a message a consumer delivered and the messages still to deliver
    after it, from its reply subject (`$JS.ACK.<stream>.<consumer>.<delivered>.<stream
    seq>.<consumer seq>.<time>.<pending>`, two more tokens after `ACK` where the server names a
    domain and an account, and maybe a last one): nats-py's `metadata` also makes a datetime
    and a dataclass, a tenth of the time of a replay. ValueError for any other subject."""
    tokens = reply.split(".")
    if tokens[:2] != ["$JS", "ACK"] or not (len(tokens) == 9 or len(tokens) >= 11):
        raise ValueError(f"not a JetStream delivery: {reply!r}")
    at = 5 if len(tokens) == 9 else 7
    return int(tokens[at]), int(tokens[at + 3])


class Arrivals:
    """Messages a subscription's callback gathers for a reader that takes them a run at a time (a
    `next_msg` per message costs a future and a timer each: most of the time of a read)."""

    def __init__(self) -> None:
        self.arrived: list[Msg] = []
        self.more = asyncio.Event()  # something arrived

    async def on_message(self, msg: Msg) -> None:
        self.arrived.append(msg)
        self.more.set()

    async def take(self, timeout: float) -> list[Msg]:
        """What arrived since the last take, waiting up to `timeout` seconds for something
        (TimeoutError)."""
        if not self.arrived:
            self.more.clear()
            async with asyncio.timeout(timeout):  # no task a wait, as wait_for makes
                await self.more.wait()
        taken, self.arrived = self.arrived, []
        return taken


async def direct_reads(
    nc: Client,
    stream: str,
    subject: str,
    *,
    after: int = 0,
    upto: int | None = None,
    first_page: int = PAGE,
    timeout: float = 5.0,
) -> AsyncIterator[StoredBatch]:
    """Messages of `stream` on `subject` (wildcards allowed) after sequence `after`, up to
    `upto`, by batched direct gets (`first_page` messages at most in the first, `PAGE` in the
    others), their answers taken a run at a time (`Arrivals`)."""
    page = max(1, min(first_page, PAGE))
    arrivals = Arrivals()
    sub = await nc.subscribe(nc.new_inbox(), cb=arrivals.on_message)
    try:
        start = after + 1
        while True:
            request = {"seq": start, "next_by_subj": subject, "batch": page}
            page = PAGE
            await nc.publish(f"$JS.API.DIRECT.GET.{stream}", json.dumps(request).encode(), reply=sub.subject)
            pending = 0
            got = 0
            ended = False  # the batch's end (204) is in
            while not ended:
                try:
                    taken = await arrivals.take(timeout)
                except TimeoutError as err:
                    raise Unavailable(f"{stream} did not answer a read") from err
                for msg in taken:
                    headers = msg.headers or {}
                    status = headers.get("Status")
                    if status == "404":
                        return
                    if status:  # 204 end of batch
                        if status != "204":  # 408, 503: no replica could answer now
                            raise Unavailable(f"direct get failed: {status} {headers}")
                        pending = int(headers.get("Nats-Num-Pending", "0"))
                        ended = True
                        break
                    seq = int(headers["Nats-Sequence"])
                    if upto is not None and seq > upto:
                        return
                    got += 1
                    start = seq + 1
                    yield StoredBatch(seq, msg.data, headers.get(WRITER, ""), headers.get("Nats-Subject", ""))
            if not pending or not got or (upto is not None and start > upto):
                return
    finally:
        await sub.unsubscribe()


class EventStore:
    """The log: its streams (`LogLayout`: one, or the partitions spread over several), appends
    and reads."""

    def __init__(
        self,
        nc: FastClient,
        js: JetStreamContext,
        *,
        replicas: int = 1,
        duplicate_window: float = 3600.0,
        timeout: float = 5.0,
        log_streams: int = 1,
    ) -> None:
        self.nc = nc
        self.js = js
        self.replicas = replicas
        self.duplicate_window = duplicate_window
        self.timeout = timeout
        self.wanted = LogLayout(log_streams)  # for a log not made yet
        self._layout: LogLayout | None = None  # the log's own, once read

    def stream_config(self, stream: str, layout: LogLayout) -> StreamConfig:
        return StreamConfig(
            name=stream,
            subjects=layout.stored_subjects(stream),
            storage=StorageType.FILE,
            num_replicas=self.replicas,
            duplicate_window=self.duplicate_window,
            deny_delete=True,
            deny_purge=True,
            allow_direct=True,
            description="tabletop: every accepted command of every table (append-only)"
            if layout.count == 1
            else f"tabletop: every accepted command of the tables of partitions "
            f"{', '.join(map(str, layout.partitions(stream)))} (append-only)",
        )

    async def _read_layout(self) -> LogLayout | None:
        """The layout the log was made with (its first stream says), None before it is made."""
        try:
            info = await self.js.stream_info(subjects.STREAM)
        except nats.js.errors.NotFoundError:
            return None
        except TRANSIENT as err:
            raise Unavailable(str(err) or type(err).__name__) from err
        return LogLayout.of_first_stream(list(info.config.subjects or []))

    async def layout(self) -> LogLayout:
        """The log's layout (read once); the wanted one while the log is not made."""
        if self._layout is None:
            self._layout = await self._read_layout()
            if self._layout is None:
                return self.wanted
        return self._layout

    async def ensure_stream(self) -> None:
        """Make the log's streams, or bring existing ones to this configuration. A log already
        made keeps its layout (partitions cannot move between streams: the log is append-only),
        whatever `log_streams` says; a stream of the former configuration (one append subject,
        placed into partitions by a subject transform) is brought to capture its partitions."""
        layout = await self._read_layout() or self.wanted
        if layout != self.wanted:
            # a warning when a count was asked for (a setting ignored), else news
            say = log.warning if self.wanted.count != 1 else log.info
            say(
                "log_layout_kept",
                streams=layout.count,
                wanted=self.wanted.count,
                why="the log was made with this many streams",
            )
        for stream in layout.streams:
            config = self.stream_config(stream, layout)
            try:
                await self.js.stream_info(stream)
            except nats.js.errors.NotFoundError:
                await self.js.add_stream(config)
            else:
                await self.js.update_stream(config)
        self._layout = layout

    async def last_seqs(self) -> dict[str, int]:
        """Each log stream's last sequence (0 when empty)."""
        found = {}
        for stream in (await self.layout()).streams:
            info = await self.js.stream_info(stream)
            found[stream] = info.state.last_seq
        return found

    async def leaders(self) -> dict[str, tuple[str | None, list[str]]]:
        """Each log stream's leader and the nodes of its other replicas (one server: itself,
        none)."""
        found: dict[str, tuple[str | None, list[str]]] = {}
        for stream in (await self.layout()).streams:
            cluster = (await self.js.stream_info(stream)).cluster
            if cluster is None:
                found[stream] = (None, [])
            else:
                found[stream] = (cluster.leader, sorted(p.name for p in cluster.replicas or [] if p.name))
        return found

    async def spread_leaders(self, *, attempts: int = 20, wait: float = 0.5) -> dict[str, str | None]:
        """Move the log streams' leaders round the nodes that hold them (the i-th stream's to
        the i-th node, in name order), so that the appends of different partitions go to
        different nodes: JetStream elects each stream's leader by itself and may put several
        on one node. A leader moves by stepping down with the node wanted preferred (a moment
        without a leader: appends meanwhile are answered `unavailable` and retried). Returns
        where the leaders are after."""
        placed = await self.leaders()
        nodes = sorted({n for leader, others in placed.values() for n in [leader, *others] if n})
        for index, (stream, (leader, others)) in enumerate(placed.items()):
            wanted = nodes[index % len(nodes)] if nodes else None
            if wanted is None or wanted not in [leader, *others]:
                continue
            for _ in range(attempts):
                if leader == wanted:
                    break
                request = json.dumps({"placement": {"preferred": wanted}}).encode()
                try:
                    await self.nc.request(f"$JS.API.STREAM.LEADER.STEPDOWN.{stream}", request, timeout=10)
                except TRANSIENT as err:
                    raise Unavailable(str(err) or type(err).__name__) from err
                await asyncio.sleep(wait)
                cluster = (await self.js.stream_info(stream)).cluster
                leader = cluster.leader if cluster else None
        return {stream: leader for stream, (leader, _) in (await self.leaders()).items()}

    async def last(self, game: str, table: str) -> StoredBatch | None:
        """The table's last message, or None when the table has none."""
        try:
            stream = (await self.layout()).stream_of(game, table)
            # from the stream's leader: a replica's direct get may not hold the newest yet,
            # and a worker must not refuse a command on a table as it was a moment ago
            msg = await self.js.get_last_msg(stream, subjects.evt(game, table))
        except nats.js.errors.NotFoundError:
            return None
        except (*TRANSIENT, nats.js.errors.APIError) as err:  # 503 while a leader is elected
            raise Unavailable(str(err) or type(err).__name__) from err
        assert msg.seq is not None
        return StoredBatch(msg.seq, msg.data or b"", (msg.headers or {}).get(WRITER, ""))

    async def read(
        self,
        game: str,
        table: str,
        *,
        after: int = 0,
        upto: int | None = None,
        expect: int = PAGE,
    ) -> list[StoredBatch]:
        """The table's messages with `after` < sequence <= `upto`, in order. `upto` is a
        message of the table known to be stored: direct gets may be answered by a replica
        that has not stored it yet, so the read is made again until it is there. `expect`:
        how many messages the caller expects up to `upto` (the first page asks for no more,
        as the server sends a whole page even past `upto`)."""
        subject = subjects.evt(game, table)
        stream = (await self.layout()).stream_of(game, table)
        for _ in range(READ_ATTEMPTS):
            found = [
                m async for m in self.iterate(stream, subject, after=after, upto=upto, first_page=expect)
            ]
            if upto is None or upto <= after or (found and found[-1].seq == upto):
                return found
        raise Unavailable(f"{game}/{table}: no replica answered with message {upto} yet")

    def iterate(
        self,
        stream: str,
        subject: str,
        *,
        after: int = 0,
        upto: int | None = None,
        first_page: int = PAGE,
    ) -> AsyncIterator[StoredBatch]:
        """A log stream's messages on `subject` (wildcards allowed) after `after`
        (`direct_reads`)."""
        return direct_reads(
            self.nc,
            stream,
            subject,
            after=after,
            upto=upto,
            first_page=first_page,
            timeout=self.timeout,
        )

    async def replay(
        self, stream: str, subject: str, *, upto: int, after: int = 0
    ) -> AsyncIterator[list[StoredBatch]]:
        """Every message of a log stream on `subject` (wildcards allowed) after its sequence
        `after` up to `upto`, in order, in runs: what arrived meanwhile. Read through a
        consumer of its own that acknowledges nothing, pulled `REPLAY_PULL` messages at a time
        and taken as the connection reads them (`puller.Puller`: no message object, queue or
        task hop a message, and of the headers only the writer's line read), which is what
        reading the whole log wants. Unavailable when the log stops sending, or a message goes
        missing (the puller counts the consumer's deliveries)."""
        from shared.bus.puller import Puller  # it reads this module's headers

        if upto <= after:
            return
        config = ConsumerConfig(
            ack_policy=AckPolicy.NONE,
            deliver_policy=DeliverPolicy.BY_START_SEQUENCE if after else DeliverPolicy.ALL,
            opt_start_seq=after + 1 if after else None,
            filter_subject=subject,
            inactive_threshold=REPLAY_FORGOTTEN,
            mem_storage=True,  # a reader's position, no one else's: in memory, on one node
            num_replicas=1,
        )
        try:
            made = await self.js.add_consumer(stream, config)
            name = made.name
            assert name is not None
            if not made.num_pending:  # nothing there: a pull would wait for its expiry
                await self._drop_consumer(stream, name)
                return
            puller = await Puller.open(self.nc, name, REPLAY_PULL, stream, delivered=0)
        except (*TRANSIENT, nats.js.errors.APIError) as err:  # a server starting, a stream not there
            raise Unavailable(f"the log did not open a replay: {err}") from err
        loop = asyncio.get_running_loop()
        try:
            quiet_since = loop.time()
            while True:
                messages, _ = await puller.take()
                if not messages:
                    if loop.time() - quiet_since > self.timeout:
                        raise Unavailable("the log stopped sending during a replay")
                    continue
                quiet_since = loop.time()
                run = [StoredBatch(m.seq, m.data, m.writer, m.subject) for m in messages if m.seq <= upto]
                if run:
                    yield run
                if len(run) < len(messages) or run[-1].seq >= upto or messages[-1].pending == 0:
                    return
        finally:
            await puller.close()
            await self._drop_consumer(stream, name)

    async def _drop_consumer(self, stream: str, name: str) -> None:
        """A replay's consumer deleted, or left to the server when it does not answer (it goes
        by itself once idle: `REPLAY_FORGOTTEN`)."""
        try:
            await self.js.delete_consumer(stream, name)
        except (*TRANSIENT, nats.js.errors.NotFoundError):
            pass

    async def replay_log(self, upto: dict[str, int]) -> AsyncIterator[tuple[str, list[StoredBatch]]]:
        """Every message of the log up to `upto` (a stream's last sequence to read, as
        `last_seqs` gives), stream after stream, each in order, in runs (`replay`) with the
        stream they come from. A table's messages are all in one stream: each table's come in
        its order."""
        for stream, last in upto.items():
            async for run in self.replay(stream, subjects.EVT_ALL, upto=last):
                yield stream, run

    async def append(
        self,
        game: str,
        table: str,
        data: bytes,
        *,
        command_id: str,
        expected_seq: int,
    ) -> Appended:
        """Append one message if the table's last message is still at `expected_seq`.
        ConcurrencyConflict when it is not (nothing written; TableBusy while another append
        to the table is being stored), StorageFull when a storage limit is reached and
        Unavailable when the stream refused it otherwise (nothing written either way),
        OutcomeUnknown when no answer came: the message may be in the log, or land there
        later, at the sequence right after `expected_seq` or nowhere."""
        layout = self._layout or await self.layout()
        # the values are ids the subjects allow (letters, digits, '_', '-') and a number
        header_block = (
            f"NATS/1.0\r\nNats-Msg-Id: {game}.{table}.{command_id}\r\n"
            f"Nats-Expected-Last-Subject-Sequence: {expected_seq}\r\n"
            f"{WRITER}: {subjects.writer(game)}\r\n"
            f"Nats-Expected-Stream: {layout.stream_of(game, table)}\r\n\r\n"
        ).encode()
        try:
            try:
                msg = await request_with_headers(
                    self.nc, subjects.evt(game, table), data, header_block, self.timeout
                )
            except nats.errors.NoRespondersError as err:  # as nats-py's JetStream publish says it
                raise nats.js.errors.NoStreamResponseError from err
            ack = _ack_decoder.decode(msg.data)
            if ack.error is not None:
                raise nats.js.errors.APIError.from_error(ack.error)
        except nats.js.errors.APIError as err:  # the stream answered: it wrote nothing
            if err.err_code == WRONG_LAST_SEQUENCE:
                raise ConcurrencyConflict(f"{game}/{table} moved past {expected_seq}") from err
            if err.err_code == SUBJECT_IN_FLIGHT:
                raise TableBusy(f"{game}/{table}: another append is being stored") from err
            if err.err_code == MSG_ID_IN_FLIGHT:
                raise OutcomeUnknown(f"{game}/{table}: command {command_id} is being stored") from err
            if storage_full(err):
                raise StorageFull(f"the log's storage is full: {err}") from err
            raise Unavailable(f"the log refused the append: {err}") from err
        except TRANSIENT as err:
            raise OutcomeUnknown(str(err) or type(err).__name__) from err
        except msgspec.DecodeError as err:  # not the stream's answer: where the append is, unknown
            raise OutcomeUnknown(f"{game}/{table}: the log's answer was not understood") from err
        return Appended(ack.seq, ack.duplicate)
