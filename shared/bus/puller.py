"""A durable pull consumer read through an inbox of the connection's own (`Puller`): what a
`consumers.Consumers.consume` loop reads its batches with."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass

from nats.aio.subscription import Subscription

from shared.bus.errors import Unavailable
from shared.bus.event_store import WRITER, delivery_position
from shared.bus.headers import NO_STATUS, header
from shared.bus.nats_internals import FastClient, read_headers, subscription_id

PULL_EXPIRES = 1.0  # seconds a pull request stays open on the server for messages to come
PULL_IDLE = 0.5  # seconds without a message after which `consume` says it is idle
# Statuses that end a pull request: nothing left, expired, or refused (a leader change...)
PULL_ENDED = ("404", "408", "409")
HEARTBEAT = "100"


@dataclass(frozen=True, slots=True)
class Delivered:
    """One log message as a durable consumer delivers it."""

    seq: int
    subject: str
    data: bytes
    writer: str
    pending: int  # messages of the consumer still to deliver after this one


class Puller:
    """One durable pull consumer, read through an inbox of this connection: a pull request
    for up to `batch` messages stays open (`PULL_EXPIRES`), its messages are taken as the
    connection reads them (`FastClient.takers`), `take` hands over all that has arrived, and a
    new request goes out as soon as the previous one is used up or ends.

    Its own rather than nats-py's `fetch`: that takes a task and a timer per message, and
    waits for its batch or its expiry before handing any over.

    `delivered`, for the consumer's only reader: the consumer's count of its deliveries when
    this pull opens. Every later delivery then comes here, counted on by one: one that skips
    a count went to an inbox no longer read (a consumer leader killed after its peers agreed
    on the delivery but before the message reached us, a pull left over from an earlier
    opening), and `take` raises rather than hand over what follows: with acknowledgements
    that cover everything before them, the next one would cover the message never seen.
    None for a consumer that other readers share (their deliveries are counted too)."""

    def __init__(
        self, nc: FastClient, durable: str, batch: int, stream: str, *, delivered: int | None = None
    ) -> None:
        self.nc = nc
        self.batch = batch
        self.next_subject = f"$JS.API.CONSUMER.MSG.NEXT.{stream}.{durable}"
        self.inbox = nc.new_inbox()
        self.arrived: list[tuple[bytes, bytes, bytes, bytes | None]] = []
        self.more = asyncio.Event()
        self.owed = 0  # messages the open request may still bring
        self.asked_at = 0.0
        self.sub: Subscription | None = None
        self.only_reader = delivered is not None
        self.consumer_seq = delivered or 0  # of the last message delivered (see `consumer_seq`)

    @classmethod
    async def open(
        cls, nc: FastClient, durable: str, batch: int, stream: str, *, delivered: int | None = None
    ) -> Puller:
        puller = cls(nc, durable, batch, stream, delivered=delivered)

        def arrived(subject: bytes, reply: bytes, data: bytes, headers: bytes | None) -> None:
            puller.arrived.append((subject, reply, data, headers))
            puller.more.set()

        puller.sub = await nc.subscribe_taking(puller.inbox, arrived)
        return puller

    async def _ask(self) -> None:
        self.owed = self.batch
        self.asked_at = asyncio.get_running_loop().time()
        request = b'{"batch":%d,"expires":%d}' % (self.batch, int(PULL_EXPIRES * 1e9))
        await self.nc.publish(self.next_subject, request, reply=self.inbox)

    async def take(self) -> tuple[list[Delivered], list[str]]:
        """The messages that have arrived and the reply subjects that acknowledge them,
        waiting up to `PULL_IDLE` seconds for one; none when none came (nothing to
        deliver)."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + PULL_IDLE
        while True:
            if self.owed <= 0 or loop.time() - self.asked_at > PULL_EXPIRES + PULL_IDLE:
                await self._ask()  # used up, ended, or lost (the server ends it by then)
            if not self.arrived:
                self.more.clear()
                try:
                    async with asyncio.timeout_at(deadline):  # no task a wait, as wait_for makes
                        await self.more.wait()
                except TimeoutError:
                    return [], []
            arrived, self.arrived = self.arrived, []
            messages, replies = await self._read(arrived)
            if messages:
                self._check_counted_on(replies)
                return messages, replies

    async def _read(
        self, arrived: list[tuple[bytes, bytes, bytes, bytes | None]]
    ) -> tuple[list[Delivered], list[str]]:
        """The log messages among `arrived`, and their reply subjects; the statuses taken in."""
        messages: list[Delivered] = []
        replies: list[str] = []
        for subject, reply, data, block in arrived:
            if data and block is not None and block.startswith(NO_STATUS):  # a log message
                writer = header(block, WRITER) or ""
            else:  # a status (end of the request, heartbeat...), or an odd message
                headers = await read_headers(self.nc, block)
                status = None if data else headers.get("Status")
                if status is not None:
                    self._status(status, headers.get("Description", ""))
                    continue
                writer = headers.get(WRITER, "")
            replies.append(reply.decode())
            messages.append(delivered(subject.decode(), replies[-1], data, writer))
            self.owed -= 1
        return messages, replies

    def _status(self, status: str, description: str) -> None:
        if status in PULL_ENDED:  # ask again
            self.owed = 0
            if status == "409" and "deleted" in description.lower():
                raise Unavailable("the consumer was deleted")
        elif status != HEARTBEAT:  # JetStream refused the pull
            raise Unavailable(f"pull refused: {status} {description}")

    def _check_counted_on(self, replies: list[str]) -> None:
        """A consumer counts its deliveries from 1, redeliveries included: a count that goes
        back is another consumer of that name, made (by a rebuild) between two pulls without
        this one seeing its predecessor deleted. Its reader must open it as any new consumer
        (`consume`'s `opened`). For the only reader, a count skipped is a delivery lost (see
        the class): opened again, the consumer delivers it again."""
        first, last = consumer_seq(replies[0]), consumer_seq(replies[-1])
        if first <= self.consumer_seq:
            raise Unavailable("the consumer was made again")
        if self.only_reader and (first != self.consumer_seq + 1 or last != self.consumer_seq + len(replies)):
            raise Unavailable(
                f"deliveries went missing: {len(replies)} came counted {first}-{last} "
                f"after {self.consumer_seq}"
            )
        self.consumer_seq = last

    async def close(self) -> None:
        if self.sub is not None:
            self.nc.takers.pop(subscription_id(self.sub), None)
            try:
                await self.sub.unsubscribe()
            except Exception:  # noqa: BLE001 - the connection may be gone already
                pass
        self.sub = None


def consumer_seq(reply: str) -> int:
    """The consumer's own count of its deliveries, from a delivery's reply subject (see
    `delivery_position`: the token after the stream sequence)."""
    tokens = reply.split(".")
    return int(tokens[6 if len(tokens) == 9 else 8])


def delivered(subject: str, reply: str, data: bytes, writer: str) -> Delivered:
    """A log message as a consumer delivers it, its position read from its reply subject."""
    seq, pending = delivery_position(reply)
    return Delivered(seq, subject, data, writer, pending)
