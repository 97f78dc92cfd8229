"""Durable consumers of the log: the loop that feeds a handler its batches (`consume`), and
making, moving and deleting a consumer."""

from __future__ import annotations

import asyncio
import dataclasses
from collections.abc import Awaitable, Callable

import msgspec
import nats.js.errors
import structlog
from nats.js import JetStreamContext
from nats.js.api import AckPolicy, ConsumerConfig, ConsumerInfo, DeliverPolicy

from shared.bus.connecting import Connected, server_version
from shared.bus.errors import ConnectionClosed, Unavailable
from shared.bus.event_store import TRANSIENT
from shared.bus.puller import Delivered, Puller

log = structlog.get_logger("tabletop.bus")
RETRY_DELAY = 1.0  # seconds before a message that could not be handled is delivered again
ERROR_DELAY = 0.5  # seconds before a consumer that failed is opened again
# nats-server moves a consumer to another sequence in one request since 2.14
# ($JS.API.CONSUMER.RESET): no moment without the consumer, one state write instead of the files
# of a consumer deleted and made again
RESET_SINCE = (2, 14, 0)
_ACK = b"+ACK"
_NAK_LATER = b'-NAK {"delay":%d}' % int(RETRY_DELAY * 1e9)

Handle = Callable[[list[Delivered]], Awaitable[set[int]]]
Opened = Callable[[int], Awaitable[None]]
Closed = Callable[[int], Awaitable[None]]


class Consumers(Connected):
    async def consume(
        self,
        durable: str,
        subject: str,
        handle: Handle,
        *,
        stop: asyncio.Event,
        batch: int = 256,
        idle: Callable[[], Awaitable[None]] | None = None,
        stream: str,
        ack_all: bool = False,
        formerly: str | None = None,
        opened: Opened | None = None,
        closed: Closed | None = None,
    ) -> None:
        """Feed `handle` the log messages on `subject` in order, in batches, until `stop` is
        set. `handle` returns the stream sequences it could not finish; no message is
        acknowledged before it is handled. `idle` is awaited whenever nothing is left to
        deliver. Survives NATS restarts: the pull is set up again after a reconnect or an
        error (nats.py #504). `opened(ack_floor)` is awaited each time the consumer has been
        (re)opened (at the start, after a reconnect, an error, or the consumer deleted under
        it), before anything more is delivered; what it raises is retried like an error.
        With `ack_all`, `closed(acknowledged)` is awaited when the loop ends on `stop` with the
        stream sequence it last acknowledged (or the ack floor it opened at), unless the loop
        ends after an error, or before an opening whose `opened` went through.

        Acknowledged one by one (the default, for a consumer that several processes read), the
        messages not finished are handed back to the server to be delivered again a little
        later. With `ack_all` (AckPolicy.ALL, for a consumer with one reader), a batch costs one
        acknowledgement, of the last message of its longest prefix that was finished; the
        messages from the first one not finished on are delivered again a little later (the
        consumer is made again to start from there: a later acknowledgement would otherwise
        cover them). An ack policy cannot change: `formerly` names the durable that read these
        messages before under another configuration; `durable`, when made, starts after its
        ack floor, and it is deleted.

        The pull is this connection's own (`puller.Puller`): one pull request stays open for
        up to `batch` messages, and whatever has arrived is handled at once, all of it as one
        batch."""
        if closed is not None and not ack_all:
            raise ValueError("one-by-one acknowledgements have no single position to close at")
        config = _consumer_config(durable, subject, batch, ack_all=ack_all)
        reader = _Reader(self, config, stream, batch, formerly=formerly, opened=opened)
        try:
            while not stop.is_set():
                try:
                    puller = await reader.puller()
                    messages, replies = await puller.take()
                    if not messages:
                        if idle is not None:
                            await idle()
                        continue
                    await reader.acknowledge(messages, replies, await handle(messages))
                except (*TRANSIENT, nats.js.errors.APIError, Unavailable) as err:
                    log.warning("consumer_retrying", durable=durable, error=repr(err))
                    await reader.close()  # a subscription left behind stalls drain
                    await asyncio.sleep(ERROR_DELAY)
            if closed is not None and reader.acknowledged is not None:
                await closed(reader.acknowledged)
        finally:
            await reader.close()  # else draining the connection waits for it

    async def start_consumer_after(
        self,
        durable: str,
        subject: str,
        seq: int,
        *,
        stream: str,
        ack_all: bool = False,
        deleted: bool = False,
    ) -> bool:
        """The durable consumer `durable` of `subject` (see `consume`), made again to deliver
        what comes after stream sequence `seq` (a rebuild read the log up to there itself);
        `deleted`: the caller deleted it already, so it is only made.

        Deleting and making a consumer are two requests: its reader, running meanwhile, may
        make it again between them (`consume` makes a missing consumer, from the first
        message), and JetStream then refuses this one's start position as an update. That
        consumer is left as it is, and False returned: its reader, which forgets what it held
        whenever its consumer is opened again, reads the log from there."""
        try:
            config = _consumer_config(durable, subject, ack_all=ack_all)
            await _start_consumer_at(self.js, config, seq + 1, stream, deleted=deleted)
        except nats.js.errors.APIError:
            if await _consumer_info(self.js, stream, durable) is None:
                raise Unavailable(f"consumer {durable} not made") from None
            log.info("consumer_made_by_its_reader", durable=durable)
            return False
        return True

    async def make_consumer(self, durable: str, subject: str, *, stream: str, ack_all: bool = False) -> None:
        """The durable consumer `durable` of `subject` made as its reader makes a missing one
        (`consume`): from the first message. One already there as its reader made it is
        left as it is."""
        config = _consumer_config(durable, subject, ack_all=ack_all)
        await self.js.add_consumer(stream, config=dataclasses.replace(config, name=durable))

    async def move_unread_consumer_after(
        self, durable: str, subject: str, seq: int, *, stream: str, ack_all: bool = False
    ) -> bool:
        """The durable consumer `durable` of `subject`, made by `make_consumer` and read by
        no one since, moved to deliver what comes after stream sequence `seq`: in one
        request by a server that can (`RESET_SINCE`), else deleted and made again
        (`start_consumer_after`). One that a reader has taken messages from or is waiting on
        (a projector running beside a rebuild) is left as it is, and False returned: that
        reader goes on from where it is."""
        info = await _consumer_info(self.js, stream, durable)
        if info is None:  # deleted meanwhile
            return await self.start_consumer_after(
                durable, subject, seq, stream=stream, ack_all=ack_all, deleted=True
            )
        if info.num_waiting or (info.delivered is not None and info.delivered.consumer_seq):
            log.info("consumer_read_meanwhile", durable=durable)
            return False
        if (server_version(self.nc) or (0, 0, 0)) >= RESET_SINCE:
            try:
                answer = await self.nc.request(
                    f"$JS.API.CONSUMER.RESET.{stream}.{durable}", b'{"seq":%d}' % (seq + 1), timeout=5
                )
            except TRANSIENT as err:
                raise Unavailable(f"consumer {durable} not moved: {err!r}") from err
            error = msgspec.json.decode(answer.data).get("error")
            if error is None:
                return True
            log.info("consumer_reset_refused", durable=durable, error=error)
        return await self.start_consumer_after(durable, subject, seq, stream=stream, ack_all=ack_all)

    async def consumer_pending(self, durable: str, *, stream: str) -> tuple[int, int] | None:
        """(messages not yet delivered, delivered but not acknowledged) of a durable consumer,
        None when it does not exist."""
        try:
            info = await _consumer_info(self.js, stream, durable)
        except TRANSIENT as err:
            raise Unavailable(str(err) or type(err).__name__) from err
        return None if info is None else (info.num_pending or 0, info.num_ack_pending or 0)

    async def delete_consumer(self, durable: str, *, stream: str) -> None:
        await _delete_consumer(self.js, durable, stream)


class _Reader:
    """The state of one `consume` loop: the consumer's pull, opened again after a reconnect
    or an error, and how its batches are acknowledged."""

    def __init__(
        self,
        consumers: Consumers,
        config: ConsumerConfig,
        stream: str,
        batch: int,
        *,
        formerly: str | None,
        opened: Opened | None,
    ) -> None:
        assert config.durable_name is not None
        self.consumers = consumers
        self.config = config
        self.durable = config.durable_name
        self.stream = stream
        self.batch = batch
        self.ack_all = config.ack_policy == AckPolicy.ALL
        self.formerly = formerly
        self.opened = opened
        self._puller: Puller | None = None
        self._opened_at = -1  # the connection's reconnect count when the pull was opened
        # the stream sequence last acknowledged, or the ack floor the consumer opened at
        self.acknowledged: int | None = None

    async def puller(self) -> Puller:
        """The pull, opened (again) unless it is open on this connection."""
        watch, nc = self.consumers.watch, self.consumers.nc
        if nc.is_closed:
            raise ConnectionClosed(f"{self.durable}: the connection is closed")
        if self._puller is None or self._opened_at != watch.reconnects:
            await self.close()
            floor, delivered = await _open_consumer(
                self.consumers.js, self.config, self.stream, self.formerly
            )
            self.formerly = None  # taken over (or never there): once is enough
            self._opened_at = watch.reconnects
            if self.opened is not None:
                await self.opened(floor)
            self.acknowledged = floor  # once `opened` went through: a stop may vouch for it
            self._puller = await Puller.open(
                # acknowledged a batch at a time, its one reader must see every delivery
                nc,
                self.durable,
                self.batch,
                self.stream,
                delivered=delivered if self.ack_all else None,
            )
        return self._puller

    async def acknowledge(self, messages: list[Delivered], replies: list[str], retry: set[int]) -> None:
        """Acknowledge the messages handled; `retry` (stream sequences) are delivered again."""
        nc = self.consumers.nc
        if not self.ack_all:
            for message, reply in zip(messages, replies, strict=True):
                await nc.publish(reply, _NAK_LATER if message.seq in retry else _ACK)
            return
        finished = next((i for i, m in enumerate(messages) if m.seq in retry), len(messages))
        if finished:
            await nc.publish(replies[finished - 1], _ACK)
            self.acknowledged = messages[finished - 1].seq
        if retry:
            await self.close()
            await asyncio.sleep(RETRY_DELAY)
            # from the first message not finished, whenever the server takes the
            # acknowledgement above
            await _start_consumer_at(self.consumers.js, self.config, messages[finished].seq, self.stream)

    async def close(self) -> None:
        """The pull closed (an error, a retry, the end): until it is opened again, nothing to
        close cleanly at."""
        self.acknowledged = None
        if self._puller is not None:
            await self._puller.close()
            self._puller = None


async def _open_consumer(
    js: JetStreamContext, config: ConsumerConfig, stream: str, formerly: str | None
) -> tuple[int, int]:
    """The durable consumer of `config`, ready to read before it is subscribed (one look
    at it); returns its ack floor (the stream sequence it has acknowledged up to) and its
    count of deliveries so far (`puller.consumer_seq`):
    - missing: made, after the ack floor of the durable `formerly` when that exists, which
      is then deleted (see `consume`);
    - holding messages fetched but never acknowledged (by a predecessor that died, or by
      this process when the server went away under it), which would only come again once
      their ack wait runs out: started again just after its ack floor, so they come at
      once. Only the partition's one owner does this."""
    durable = config.durable_name
    assert durable is not None
    info = await _consumer_info(js, stream, durable)
    delivered = 0
    if info is None:
        former = None if formerly is None else await _consumer_info(js, stream, formerly)
        if former is None:
            floor = 0
            await js.add_consumer(stream, config=dataclasses.replace(config, name=durable))
        else:
            floor = former.ack_floor.stream_seq if former.ack_floor else 0
            log.info("consumer_taken_over", durable=durable, formerly=formerly, ack_floor=floor)
            await _start_consumer_at(js, config, floor + 1, stream)
    else:
        floor = info.ack_floor.stream_seq if info.ack_floor else 0
        if info.num_ack_pending:
            log.info(
                "consumer_resumed_at_ack_floor",
                durable=durable,
                ack_floor=floor,
                unacknowledged=info.num_ack_pending,
            )
            await _start_consumer_at(js, config, floor + 1, stream)
        elif info.delivered is not None:
            delivered = info.delivered.consumer_seq
    if formerly is not None:  # also when a process stopped between the two
        await _delete_consumer(js, formerly, stream)
    return floor, delivered


async def _consumer_info(js: JetStreamContext, stream: str, durable: str) -> ConsumerInfo | None:
    try:
        info: ConsumerInfo = await js.consumer_info(stream, durable)
    except nats.js.errors.NotFoundError:
        return None
    return info


async def _start_consumer_at(
    js: JetStreamContext, config: ConsumerConfig, seq: int, stream: str, *, deleted: bool = False
) -> None:
    """The durable consumer of `config` made (again) to deliver from stream sequence `seq`
    (deleted first unless the caller did)."""
    assert config.durable_name is not None
    if not deleted:
        await _delete_consumer(js, config.durable_name, stream)
    await js.add_consumer(
        stream,
        config=dataclasses.replace(
            config,
            name=config.durable_name,
            deliver_policy=DeliverPolicy.BY_START_SEQUENCE,
            opt_start_seq=seq,
        ),
    )


async def _delete_consumer(js: JetStreamContext, durable: str, stream: str) -> None:
    try:
        await js.delete_consumer(stream, durable)
    except nats.js.errors.NotFoundError:
        pass


def _consumer_config(
    durable: str, subject: str, batch: int = 256, *, ack_all: bool = False
) -> ConsumerConfig:
    return ConsumerConfig(
        durable_name=durable,
        ack_policy=AckPolicy.ALL if ack_all else AckPolicy.EXPLICIT,
        deliver_policy=DeliverPolicy.ALL,
        ack_wait=30,
        max_ack_pending=batch * 4,
        filter_subject=subject,
        max_deliver=-1,
    )
