"""The nats-py private parts the bus relies on (`shared/bus/nats_internals.py`), checked on the
installed nats-py over a real nats-server: their signatures, that they are there, and that they
still do what the bus takes them for. A nats-py upgrade that changes one fails here (pyproject
pins nats-py to the minor version these pass on)."""

from __future__ import annotations

import asyncio
import inspect
import json
import uuid
from collections.abc import AsyncIterator
from typing import Any

import nats.errors
import pytest
from nats import micro
from nats.aio.client import Client
from nats.js.api import ConsumerConfig, StorageType, StreamConfig
from nats.micro.request import Request as MicroRequest

from shared.bus.connecting import settings_credentials
from shared.bus.headers import NO_STATUS, parse_header_lines
from shared.bus.nats_internals import (
    FastClient,
    drop_socket,
    forget_subscription,
    read_headers,
    reconnect_forever,
    request_message,
    request_with_headers,
    subscription_id,
)
from shared.bus.server import EmbeddedServer
from shared.settings import load_settings

SIGNAL_WITHIN = 20.0  # seconds any awaited signal of these tests may take on a busy machine


def parameters(function: Any) -> list[str]:
    return list(inspect.signature(function).parameters)


async def connected(url: str, client: type[Client] = FastClient, **options: Any) -> Any:
    credentials = settings_credentials(load_settings())
    nc = client()
    await nc.connect(url, user=credentials.user or None, password=credentials.password or None, **options)
    return nc


@pytest.fixture
async def nc(nats_url: str) -> AsyncIterator[Any]:
    nc = await connected(nats_url)
    yield nc
    await nc.close()


# --- signatures and attributes ---------------------------------------------------------------


def test_the_private_methods_the_bus_overrides_or_calls_keep_their_signatures():
    assert inspect.iscoroutinefunction(Client._process_msg)
    assert parameters(Client._process_msg) == ["self", "sid", "subject", "reply", "data", "headers"]
    assert isinstance(inspect.getattr_static(Client, "_parse_header_lines"), staticmethod)
    assert parameters(Client._parse_header_lines) == ["raw"]
    assert inspect.iscoroutinefunction(Client._process_headers)
    assert parameters(Client._process_headers) == ["self", "headers"]
    # the override matches what it overrides
    assert parameters(FastClient._process_msg) == parameters(Client._process_msg)
    assert inspect.getattr_static(FastClient, "_parse_header_lines").__func__ is parse_header_lines


def test_the_private_attributes_the_bus_reads_are_there():
    assert hasattr(Client(), "_transport")  # `options` is filled on connecting: see below
    # request_with_headers: nats-py's reply subscription, its table of waiting requests, and
    # how it queues and flushes what it sends
    client = Client()
    for name in ("_resp_sub_prefix", "_resp_map", "_flush_queue", "stats"):
        assert hasattr(client, name), name
    assert inspect.iscoroutinefunction(Client._init_request_sub)
    assert parameters(Client._send_command) == ["self", "cmd", "priority"]
    assert parameters(Client._flush_pending) == ["self", "force_flush"]
    assert "_msg" in MicroRequest.__annotations__


# --- behaviour, over a real nats-server -------------------------------------------------------


async def test_a_taker_gets_its_subscriptions_messages_raw_and_the_others_go_on_as_before(nc):
    """`FastClient._process_msg`: the messages of a subscription with a taker (by its
    `subscription_id`) reach the taker as read, header block untouched; every other
    subscription still gets nats-py's messages, counted in the stats as before."""
    subject = f"internals.{uuid.uuid4().hex}"
    taken: list[tuple[bytes, bytes, bytes, bytes | None]] = []
    arrived = asyncio.Event()

    def take(subject: bytes, reply: bytes, data: bytes, headers: bytes | None) -> None:
        taken.append((subject, reply, data, headers))
        arrived.set()

    raw = await nc.subscribe(subject)
    nc.takers[subscription_id(raw)] = take
    plain = await nc.subscribe(subject)
    before = nc.stats["in_msgs"]
    await nc.publish(subject, b"body", reply="_INBOX.x", headers={"Tabletop-Writer": "w-1"})
    await asyncio.wait_for(arrived.wait(), SIGNAL_WITHIN)
    msg = await plain.next_msg(timeout=SIGNAL_WITHIN)
    assert taken == [(subject.encode(), b"_INBOX.x", b"body", NO_STATUS + b"Tabletop-Writer: w-1\r\n\r\n")]
    assert (msg.data, msg.reply, msg.headers) == (b"body", "_INBOX.x", {"Tabletop-Writer": "w-1"})
    assert raw.pending_msgs == 0  # taken, not queued as well
    assert nc.stats["in_msgs"] == before + 2


async def test_nats_py_parses_headers_with_the_bus_parser(nats_url):
    """nats-py reads every message's header lines through `_parse_header_lines`, which
    `FastClient` replaces: were it read another way, the bus's parser would be skipped and the
    table projector slower."""
    lines: list[bytes] = []

    class Counting(FastClient):
        @staticmethod
        def _parse_header_lines(raw: bytes) -> dict[str, str]:
            lines.append(raw)
            return parse_header_lines(raw)

    nc = await connected(nats_url, Counting)
    try:
        subject = f"internals.{uuid.uuid4().hex}"
        sub = await nc.subscribe(subject)
        await nc.publish(subject, b"x", headers={"Nats-Msg-Id": "m-1", "Tabletop-Writer": "w-1"})
        msg = await sub.next_msg(timeout=SIGNAL_WITHIN)
        assert msg.headers == {"Nats-Msg-Id": "m-1", "Tabletop-Writer": "w-1"}
        assert lines and b"Tabletop-Writer: w-1" in lines[-1]
    finally:
        await nc.close()


async def test_read_headers_gives_a_status_line_as_status_and_description(nc):
    """A pull request on a consumer with nothing to deliver is answered by a status message
    (`NATS/1.0 404 No Messages`): `read_headers` gives its status and description, and the
    header lines of a message with no status as they are."""
    js = nc.jetstream()
    stream = f"INTERNALS_{uuid.uuid4().hex[:8]}"
    await js.add_stream(StreamConfig(name=stream, subjects=[f"{stream}.>"], storage=StorageType.MEMORY))
    try:
        await js.add_consumer(stream, ConsumerConfig(durable_name="reader"))
        blocks: list[bytes | None] = []
        arrived = asyncio.Event()

        def take(subject: bytes, reply: bytes, data: bytes, headers: bytes | None) -> None:
            blocks.append(headers)
            arrived.set()

        inbox = nc.new_inbox()
        sub = await nc.subscribe(inbox)
        nc.takers[subscription_id(sub)] = take
        request = json.dumps({"batch": 1, "no_wait": True}).encode()
        await nc.publish(f"$JS.API.CONSUMER.MSG.NEXT.{stream}.reader", request, reply=inbox)
        await asyncio.wait_for(arrived.wait(), SIGNAL_WITHIN)
        assert await read_headers(nc, blocks[0]) == {"Status": "404", "Description": "No Messages"}
        block = NO_STATUS + b"Nats-Msg-Id: m-1\r\nTabletop-Writer: w-1\r\n\r\n"
        assert await read_headers(nc, block) == {"Nats-Msg-Id": "m-1", "Tabletop-Writer": "w-1"}
        assert await read_headers(nc, None) == {}
    finally:
        await js.delete_stream(stream)


async def test_request_message_is_the_micro_requests_message_with_its_reply_subject(nc):
    """A micro service endpoint's request carries the message it came in, whose reply subject
    (the asker's inbox) nats-py gives nowhere else."""
    name = f"internals-{uuid.uuid4().hex[:8]}"
    seen: list[Any] = []

    async def handler(request: Any) -> None:
        msg = request_message(request)
        seen.append((msg.subject, msg.reply, msg.data))
        await nc.publish(msg.reply, b"answered")

    service = await micro.add_service(nc, name=name, version="1.0.0")
    await service.add_endpoint(name="ask", subject=f"{name}.ask", handler=handler)
    try:
        answer = await nc.request(f"{name}.ask", b"question", timeout=SIGNAL_WITHIN)
        assert answer.data == b"answered"
        ((subject, reply, data),) = seen
        assert (subject, data) == (f"{name}.ask", b"question") and reply.startswith("_INBOX.")
    finally:
        await service.stop()


async def test_a_dropped_socket_is_a_lost_connection_nats_py_reconnects(nc, nats_url):
    """`drop_socket` cuts the connection under nats-py, as a network fault does: it sees the
    connection lost and reconnects."""
    back = asyncio.Event()
    other = await connected(nats_url, reconnected_cb=_setting(back), reconnect_time_wait=0.1)
    try:
        drop_socket(other)
        await asyncio.wait_for(back.wait(), SIGNAL_WITHIN)
        assert other.is_connected and other.stats["reconnects"] == 1
    finally:
        await other.close()


async def test_a_forgotten_subscription_whose_drain_failed_is_not_renewed_on_reconnecting(nats_url):
    """`forget_subscription`: a drain that fails half-way (the server away) leaves nats-py
    holding the subscription, renewed on reconnecting; forgotten, it gets nothing more."""
    back = asyncio.Event()
    other = await connected(nats_url, reconnected_cb=_setting(back), reconnect_time_wait=0.1)
    subject = f"test.forget.{uuid.uuid4().hex}"
    got: list[bytes] = []

    async def take(msg: Any) -> None:
        got.append(msg.data)

    try:
        sub = await other.subscribe(subject, cb=take)
        await other.flush()
        drop_socket(other)
        with pytest.raises(Exception):  # noqa: B017, PT011 - whichever nats-py gives mid-reconnect
            await sub.drain()
        assert subscription_id(sub) in other._subs  # the half-drained one is still held
        forget_subscription(sub)
        assert subscription_id(sub) not in other._subs
        await asyncio.wait_for(back.wait(), SIGNAL_WITHIN)
        await other.publish(subject, b"after")
        await other.flush()
        marker = f"{subject}.marker"  # a later message on a live subscription: the first is past
        seen = asyncio.Event()

        async def mark(msg: Any) -> None:
            seen.set()

        await other.subscribe(marker, cb=mark)
        await other.publish(subject, b"after, again")
        await other.publish(marker, b"")
        await asyncio.wait_for(seen.wait(), SIGNAL_WITHIN)
        assert got == []
    finally:
        await other.close()


async def test_reconnect_forever_keeps_a_connection_made_with_one_attempt_reconnecting(
    tmp_path, secure_server
):
    """Connected with a single reconnect attempt (the first connect gives up), then
    `reconnect_forever`: the server gone, nats-py keeps trying past that one attempt, and is
    back once the server is. Were the option read only at connect, the client would close
    after its first failed attempt. (`secure_server`: the session's credentials, which this
    server of its own takes too.)"""
    server = EmbeddedServer(tmp_path / "nats").start()
    failures = 0
    failed_thrice, back = asyncio.Event(), asyncio.Event()

    async def error(_: Exception) -> None:
        nonlocal failures
        failures += 1
        if failures >= 3:
            failed_thrice.set()

    nc = await connected(
        server.url,
        Client,
        max_reconnect_attempts=1,
        reconnect_time_wait=0.1,
        error_cb=error,
        reconnected_cb=_setting(back),
    )
    try:
        reconnect_forever(nc)
        server.stop()
        await asyncio.wait_for(failed_thrice.wait(), SIGNAL_WITHIN)  # past the one attempt
        assert not nc.is_closed
        server = EmbeddedServer(tmp_path / "nats", port=server.port, exact_port=True).start()
        await asyncio.wait_for(back.wait(), SIGNAL_WITHIN)
        assert nc.is_connected
    finally:
        await nc.close()
        server.stop()


def _setting(event: asyncio.Event) -> Any:
    async def callback() -> None:
        event.set()

    return callback


async def test_request_with_headers_answers_each_request_its_own_and_cleans_up(nc):
    """Many requests at once, each answered with its own header and body; a request nobody
    answers times out and one to a subject without responders says so; nats-py's table of
    waiting requests is left empty, and its own requests work beside."""
    subject = f"test.echo.{uuid.uuid4().hex}"

    async def echo(msg: Any) -> None:
        await msg.respond(msg.headers["Which"].encode() + b":" + msg.data)

    await nc.subscribe(subject, cb=echo)
    block = b"NATS/1.0\r\nWhich: %d\r\n\r\n"
    answers = await asyncio.gather(
        *(request_with_headers(nc, subject, str(i).encode(), block % i, SIGNAL_WITHIN) for i in range(300))
    )
    assert [a.data for a in answers] == [f"{i}:{i}".encode() for i in range(300)]
    assert nc._resp_map == {}
    silent = f"test.silent.{uuid.uuid4().hex}"

    async def never_answer(msg: Any) -> None:
        pass

    await nc.subscribe(silent, cb=never_answer)
    with pytest.raises(nats.errors.TimeoutError):
        await request_with_headers(nc, silent, b"", block % 0, 0.2)
    with pytest.raises(nats.errors.NoRespondersError):
        await request_with_headers(nc, f"test.nobody.{uuid.uuid4().hex}", b"", block % 0, SIGNAL_WITHIN)
    assert nc._resp_map == {}
    assert (await nc.request(subject, b"x", headers={"Which": "n"}, timeout=SIGNAL_WITHIN)).data == b"n:x"
