"""Core NATS messaging of the bus: subscribe, publish, request, gather the answers of many, and
whether the broker refused this connection a subject."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from functools import partial

import structlog
from nats.aio.msg import Msg
from nats.aio.subscription import Subscription

from shared.bus.connecting import Connected, Watch
from shared.bus.errors import Forbidden, Unavailable
from shared.bus.event_store import TRANSIENT
from shared.bus.nats_internals import FastClient, drop_taker, forget_subscription
from shared.bus.replies import Handler, Incoming, Misdirected, incoming, is_reply_inbox
from shared.messages import subjects
from shared.settings import Settings

log = structlog.get_logger("tabletop.bus")
DENIAL_CHECK_EVERY = 0.05  # seconds between looks for the broker's refusal of a request


async def release(sub: Subscription, *, drain: bool = True) -> None:
    """Drop a subscription (its messages already taken handled first when `drain`); if the
    server is away it is forgotten all the same, never renewed on reconnecting."""
    try:
        if drain:
            await sub.drain()  # type: ignore[no-untyped-call]
        else:
            await sub.unsubscribe()
    except Exception as err:  # noqa: BLE001 - whichever nats-py raises with the server away
        log.warning("subscription_forgotten", subject=sub.subject, error=type(err).__name__)
        forget_subscription(sub)
    drop_taker(sub)


class Messaging(Connected):
    def __init__(self, nc: FastClient, watch: Watch, settings: Settings) -> None:
        super().__init__(nc, watch, settings)
        self.misdirected = Misdirected()

    async def subscribe(self, subject: str, handler: Handler, *, queue: str = "") -> Subscription:
        async def cb(msg: Msg) -> None:
            request = incoming(msg, self.nc, self.misdirected)
            if request is not None:
                await handler(request)

        sub = await self.nc.subscribe(subject, queue=queue, cb=cb)
        try:
            await self.nc.flush()  # the server knows of it on return: nothing published after is missed
        except BaseException:
            await release(sub, drain=False)  # not left behind, unknown to the caller
            raise
        return sub

    async def take(self, subject: str, start: Callable[[Incoming], None], *, queue: str = "") -> Subscription:
        """As `subscribe`, for requests by the thousand (the workers' commands): each is handed
        to `start` as the connection reads it (it starts the work and returns), without the
        message object, queue and task hop nats-py spends on each (`FastClient.takers`). The
        request's headers are not read (`Incoming.headers` None); the reply inbox is checked as
        `subscribe` checks it."""
        publish = self.nc.publish

        def arrived(subject: bytes, reply: bytes, data: bytes, headers: bytes | None) -> None:
            to = reply.decode()
            if to and not is_reply_inbox(to):
                self.misdirected.add(subject.decode(), to)
                return
            start(Incoming(subject.decode(), data, to, partial(publish, to)))

        sub = await self.nc.subscribe_taking(subject, arrived, queue=queue)
        try:
            await self.nc.flush()  # the server knows of it on return: nothing published after is missed
        except BaseException:
            await release(sub, drain=False)
            raise
        return sub

    async def publish(self, subject: str, body: bytes) -> None:
        try:
            await self.nc.publish(subject, body)
        except TRANSIENT:
            log.warning("publish_lost", subject=subject)

    async def request(self, subject: str, body: bytes, *, timeout: float = 5.0) -> bytes:
        asking = asyncio.ensure_future(self.nc.request(subject, body, timeout=timeout))
        try:
            # A refused request is never answered: say so when the broker's refusal arrives
            # rather than after the whole timeout.
            while not (await asyncio.wait({asking}, timeout=DENIAL_CHECK_EVERY))[0]:
                if self.denied(subject):
                    raise Forbidden(f"not allowed to publish to {subject}")
            msg = asking.result()
        except TRANSIENT as err:
            if self.denied(subject):  # not lost: refused, and asking again changes nothing
                raise Forbidden(f"not allowed to publish to {subject}") from err
            raise Unavailable(f"{subject}: {type(err).__name__}") from err
        finally:
            asking.cancel()
        data: bytes = msg.data
        return data

    def denied(self, subject: str, kind: str = "Publish") -> bool:
        """Whether the broker refused this connection `kind` (Publish, Subscription) on
        `subject`."""
        # nats-py lowercases the server's whole notice, the subject included; a command is
        # refused under the subject the account maps it to
        wanted = {f'{kind} to "{s}"'.lower() for s in (subject, subjects.as_mapped(subject))}
        return any(w in d.lower() for d in self.watch.denials for w in wanted)

    async def gather(self, subject: str, body: bytes = b"", *, wait: float = 1.0) -> list[bytes]:
        """Every answer to a request that several services answer (`$SRV.STATS.<name>`),
        collected for `wait` seconds."""
        inbox = self.nc.new_inbox()
        answers: list[bytes] = []

        async def collect(msg: Msg) -> None:
            if msg.data and not (msg.headers or {}).get("Status"):  # not "no responders"
                answers.append(msg.data)

        sub = await self.nc.subscribe(inbox, cb=collect)
        try:
            await self.nc.publish(subject, body, reply=inbox)
            await asyncio.sleep(wait)  # nobody says how many will answer: collect for a while
        finally:
            await sub.unsubscribe()
        return answers
