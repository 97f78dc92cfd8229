"""Every use of nats-py's private parts, and nowhere else: an upgrade that changes one of them
fails tests/platform/test_nats_internals.py (pyproject.toml pins nats-py to the minor
version those tests pass on).

Each is here for speed (the table projector's catch-up) or because nats-py offers no public
way to what it does."""

from __future__ import annotations

import asyncio
import itertools
import re
from collections.abc import Callable
from typing import Any

import nats.errors
from nats.aio.client import Client
from nats.aio.msg import Msg
from nats.aio.subscription import Subscription
from nats.protocol.command import hpub_cmd
from nats.protocol.parser import AWAITING_CONTROL_LINE, AWAITING_MSG_PAYLOAD, Parser

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
        self._ps = FastParser(self)

    async def subscribe_taking(self, subject: str, take: Taker, *, queue: str = "") -> Subscription:
        """A subscription whose messages go to `take` as the connection reads them."""
        sub = await self.subscribe(subject, queue=queue)
        self.takers[subscription_id(sub)] = take
        return sub

    async def _process_msg(self, sid: int, subject: bytes, reply: bytes, data: bytes, headers: bytes) -> None:
        if not self.taken(sid, subject, reply, data, headers):
            await super()._process_msg(sid, subject, reply, data, headers)

    def taken(self, sid: int, subject: bytes, reply: bytes, data: bytes, headers: bytes | None) -> bool:
        """Whether a taker took the message (counted in the stats as nats-py counts)."""
        take = self.takers.get(sid)
        if take is None:
            return False
        self.stats["in_msgs"] += 1
        self.stats["in_bytes"] += len(data)
        take(subject, reply, data, headers)
        return True

    _parse_header_lines = staticmethod(parse_header_lines)


# A message line as a server writes it: nats-py's expressions (nats.protocol.parser) with only
# spaces and tabs between the tokens and a sid of digits; a line they take and these do not
# goes to nats-py's parser.
_HMSG = re.compile(rb"HMSG[ \t]+([^\s]+)[ \t]+(\d+)[ \t]+(?:([^\s]+)[ \t]+)?(\d+)[ \t]+(\d+)\r\n")
_MSG = re.compile(rb"MSG[ \t]+([^\s]+)[ \t]+(\d+)[ \t]+(?:([^\s]+)[ \t]+)?(\d+)\r\n")


class FastParser(Parser):
    """nats-py's protocol parser, with the server's messages (`MSG`, `HMSG`) read by one
    expression each, the read buffer cut once a read rather than twice a message, and a
    taker's message handed over without a coroutine (`FastClient.taken`): nats-py's `parse`
    was the largest part of the table projector's catch-up after its own work.

    The same calls for every input (tests/platform/test_wire_decoders.py, over generated
    streams cut anywhere): a message line of any other shape, any other operation (`PING`,
    `INFO`, `+OK`, `-ERR`) and a line not all read yet go to nats-py's parser."""

    async def parse(self, data: bytes = b"") -> None:
        buf = self.buf
        buf.extend(data)
        if self.state == AWAITING_MSG_PAYLOAD and len(buf) < self.needed + 2:
            return  # a large payload comes in many reads: not copied again at each
        nc = self.nc
        chunk = bytes(buf)  # one copy a read: bytes slice to bytes where a bytearray copies twice
        size = len(chunk)
        at = 0
        try:
            while at < size:
                if self.state == AWAITING_MSG_PAYLOAD:  # a line read earlier, its payload now
                    needed, header_needed = self.needed, self.header_needed
                    if size - at < needed + 2:
                        return
                    args = self.msg_arg
                    subject, sid, reply = args["subject"], args["sid"], args["reply"]
                    self.header_needed = 0
                    self.state = AWAITING_CONTROL_LINE
                else:
                    line = (_HMSG if chunk[at] == 72 else _MSG).match(chunk, at)  # 72: "H"
                    if line is None:
                        break  # for nats-py's parser
                    if line.re is _HMSG:
                        subject, sid_said, reply, header_said, needed_said = line.groups()
                        header_needed = int(header_said)
                    else:
                        subject, sid_said, reply, needed_said = line.groups()
                        header_needed = 0
                    sid, needed, reply = int(sid_said), int(needed_said), reply or b""
                    at = line.end()
                    if size - at < needed + 2:  # the payload is not all here: wait for it
                        self.msg_arg = {"subject": subject, "sid": sid, "reply": reply}
                        self.needed, self.header_needed = needed, header_needed
                        self.state = AWAITING_MSG_PAYLOAD
                        return
                payload_at = at + header_needed
                headers = chunk[at:payload_at] if header_needed > 0 else None
                payload = chunk[payload_at : at + needed]
                at += needed + 2
                if not nc.taken(sid, subject, reply, payload, headers):
                    await nc._process_msg(sid, subject, reply, payload, headers)
                    if self.buf is not buf:  # reset meanwhile (a reconnect): what is left is gone
                        return
        finally:
            del buf[:at]
        if self.buf:
            await super().parse()


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
