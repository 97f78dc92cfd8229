"""Requests as services take them (`Incoming`), and the inbox check: a service answers only
to a reply inbox, never to a subject an asker wants written to in its name."""

from __future__ import annotations

import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from functools import partial

import structlog
from nats.aio.client import Client
from nats.aio.msg import Msg

from shared.bus.event_store import TRANSIENT
from shared.messages.envelopes import failure_body

log = structlog.get_logger("tabletop.bus")

# Where a service answers: a reply inbox (a connection's own `_INBOX.`, a player's
# `_INBOX_<name>.`, the `_R_.` subject the server gives a request imported from the players'
# account, or the server's own `$SYS._INBOX.`, where the auth callout answers). Any other reply
# subject names something the asker wants written to in the service's name (the log, a bucket,
# someone's updates): such a request is dropped, counted, never answered.
REPLY_INBOXES = ("_INBOX.", "_INBOX_", "_R_.", "$SYS._INBOX.")
MISDIRECTED_LOG_EVERY = 10.0  # seconds: one log line per interval, with the count


@dataclass(frozen=True, slots=True)
class Incoming:
    """A request or message received by a service."""

    subject: str
    data: bytes
    reply: str
    _respond: Callable[[bytes], Awaitable[None]]
    headers: dict[str, str] | None = None

    async def respond(self, body: bytes) -> None:
        if self.reply:
            try:
                await self._respond(body)
            except TRANSIENT:  # the asker is gone or NATS is restarting: it will retry
                log.warning("reply_lost", subject=self.subject)


Handler = Callable[[Incoming], Awaitable[None]]


async def answering_failures(handler: Handler, message: Incoming) -> None:
    """Run `handler` on `message`; if it raises, log it and answer `internal_error`, so that
    no asker waits for an answer that never comes."""
    try:
        await handler(message)
    except Exception:  # a bug in one handler: answered, logged, service goes on
        log.exception("request_failed", subject=message.subject)
        await message.respond(
            failure_body(message.subject, "internal_error", "The server failed on this request.")
        )


def is_reply_inbox(subject: str) -> bool:
    return subject.startswith(REPLY_INBOXES)


class Misdirected:
    """The requests dropped because their reply subject was not an inbox: counted, and logged
    once per `MISDIRECTED_LOG_EVERY` with the count since."""

    def __init__(self) -> None:
        self.count = 0
        self._logged = 0
        self._log_at = 0.0

    def add(self, subject: str, reply: str) -> None:
        self.count += 1
        now = time.monotonic()
        if now >= self._log_at:
            log.warning(
                "requests_dropped_reply_not_an_inbox",
                count=self.count - self._logged,
                total=self.count,
                subject=subject,
                reply=reply[:120],
            )
            self._logged = self.count
            self._log_at = now + MISDIRECTED_LOG_EVERY


def incoming(msg: Msg, nc: Client, misdirected: Misdirected) -> Incoming | None:
    """The request `msg` as a handler takes it, answered over `nc`; None (and counted) when its
    reply subject is not an inbox. The answer goes out without the request's headers
    (nats-py's `respond` would echo them)."""
    reply = msg.reply
    if reply and not is_reply_inbox(reply):
        misdirected.add(msg.subject, reply)
        return None
    return Incoming(msg.subject, msg.data, reply, partial(nc.publish, reply), msg.headers)
