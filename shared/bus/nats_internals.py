"""Every use of nats-py's private parts, and nowhere else: an upgrade that changes one of them
fails tests/platform/test_nats_internals.py (pyproject.toml pins nats-py to the minor
version those tests pass on).

Each is here for speed (the table projector's catch-up) or because nats-py offers no public
way to what it does."""

from __future__ import annotations

import asyncio
import itertools
from collections.abc import Callable
from typing import Any

import nats.errors
from nats.aio.client import Client
from nats.aio.msg import Msg
from nats.aio.subscription import Subscription
from nats.protocol.command import hpub_cmd

from shared.bus.headers import parse_header_lines

# What takes the messages of one subscription as they are read: (subject, reply, data, the
# header block as received or None), called from the connection's read loop.
Taker = Callable[[bytes, bytes, bytes, "bytes | None"], None]


class FastClient(Client):
    """nats-py's client, with its header parser made cheap: every log message carries three
    headers (the message id, the expected sequence, the writer), and nats-py tests each
    character of each header name in a Python generator, a quarter of the table projector's
    CPU when it catches up (`headers.parse_header_lines`: the same result for every input).

    A subscription may also have its messages taken as they are read (`takers`, by
    `subscription_id`), without the message object, queue and task hop nats-py spends on each
    (`puller.Puller`)."""

    def __init__(self) -> None:
        super().__init__()
        self.takers: dict[int, Taker] = {}

    async def subscribe_taking(self, subject: str, take: Taker, *, queue: str = "") -> Subscription:
        """A subscription whose messages go to `take` as the connection reads them."""
        sub = await self.subscribe(subject, queue=queue)
        self.takers[subscription_id(sub)] = take
        return sub

    async def _process_msg(self, sid: int, subject: bytes, reply: bytes, data: bytes, headers: bytes) -> None:
        take = self.takers.get(sid)
        if take is None:
            await super()._process_msg(sid, subject, reply, data, headers)
            return
        self.stats["in_msgs"] += 1
        self.stats["in_bytes"] += len(data)
        take(subject, reply, data, headers)

    _parse_header_lines = staticmethod(parse_header_lines)


def subscription_id(sub: Subscription) -> int:
    """The id the server's messages for `sub` carry (the key of `FastClient.takers`)."""
    sid: int = sub._id
    return sid


def drop_taker(sub: Subscription) -> None:
    """Stop taking `sub`'s messages as they are read (after its drain: a message read before
    the server dropped the subscription still goes to its taker)."""
    conn = sub._conn
    if isinstance(conn, FastClient):
        conn.takers.pop(subscription_id(sub), None)


def forget_subscription(sub: Subscription) -> None:
    """Make the client forget `sub` at once, whatever state it is in: no more messages reach
    its callback and a reconnect does not renew it. nats-py keeps a subscription whose drain
    or unsubscribe failed half-way (the server away) and renews it on reconnecting."""
    sub._stop_processing()
    sub._conn._remove_sub(sub._id)
    sub._closed = True


async def read_headers(nc: Client, block: bytes | None) -> dict[str, str]:
    """The headers of a message's raw header block as nats-py reads them, a status line
    (`NATS/1.0 404 No Messages`) as the headers `Status` and `Description`."""
    return await nc._process_headers(block) or {}


def request_message(request: Any) -> Msg:
    """The message a micro service endpoint's request came in (its reply subject is nowhere
    else)."""
    msg: Msg = request._msg
    return msg


def reconnect_forever(nc: Client) -> None:
    """From now on `nc` reconnects without a limit on attempts. nats-py reads the option at
    each attempt; given at connect it would also retry the first connect forever, and a
    caller's deadline for that could never apply."""
    nc.options["max_reconnect_attempts"] = -1


def drop_socket(nc: Client) -> None:
    """Close `nc`'s socket under it, as a network fault or a server restart does: nats-py
    sees the connection lost and reconnects (a test's fault)."""
    transport: Any = nc._transport  # its close() is untyped
    if transport is not None:
        transport.close()


_request_tokens = itertools.count()  # reply tokens of `request_with_headers`, unique per process


def _expire(future: asyncio.Future[Msg]) -> None:
    if not future.done():
        future.set_exception(nats.errors.TimeoutError())


async def request_with_headers(
    nc: Client, subject: str, payload: bytes, header_block: bytes, timeout: float
) -> Msg:
    """nats-py's `request`, for the worker's appends (a third of its time was there): the header
    block comes built by the caller (whose values it knows to be clean) where nats-py checks each
    name with a regex; the reply token is a counter where nats-py draws a NUID and two bytes of
    the OS's randomness; a timer handle bounds the wait where nats-py wraps it in
    `asyncio.wait_for`. The answer comes through nats-py's own reply subscription and table of
    waiting requests, as its requests' do; a no-responders status raises as in nats-py."""
    if nc.is_draining_pubs:
        raise nats.errors.ConnectionDrainingError
    if not nc._resp_sub_prefix:
        await nc._init_request_sub()
    prefix = nc._resp_sub_prefix
    assert prefix is not None
    # nats-py's reply subscription reads the token after its prefix (an inbox, a NUID, dots)
    token = format(next(_request_tokens), "x")
    inbox = prefix.decode() + token
    loop = asyncio.get_running_loop()
    future: asyncio.Future[Msg] = loop.create_future()
    nc._resp_map[token] = future
    timer = loop.call_later(timeout, _expire, future)
    try:
        nc.stats["out_msgs"] += 1
        nc.stats["out_bytes"] += len(payload)
        await nc._send_command(hpub_cmd(subject, inbox, header_block, payload))
        if nc._flush_queue is not None and nc._flush_queue.empty():
            await nc._flush_pending()
        msg = await future
    finally:
        timer.cancel()
        nc._resp_map.pop(token, None)
    if msg.headers and msg.headers.get("Status") == "503":
        raise nats.errors.NoRespondersError
    return msg
