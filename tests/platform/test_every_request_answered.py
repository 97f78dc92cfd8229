"""Whatever a client sends, it gets an answer over a real NATS: deeply nested JSON, bad
encodings and oversized bodies are refused with a code, a body over the server's limit is
refused at publish, a handler that fails answers `internal_error`, and the services go on."""

import asyncio
import random
import socket
import uuid
from urllib.parse import urlsplit

import msgspec
import nats.errors
import pytest
from structlog.testing import capture_logs

from services.client import Client, play_with_bots
from services.history_projector.replay import HistoryProjector, page
from services.registry import get
from shared.bus.server import MAX_PAYLOAD
from shared.messages import subjects
from shared.messages.envelopes import (
    BadCommand,
    BadRequest,
    ReplayRequest,
    decode_command,
    decode_request,
)
from tests.platform.stack import stack


def nested(levels: int) -> bytes:
    return b"[" * levels + b"]" * levels


# msgspec's recursion limit is about 1,000 levels; 30,000 levels still fit in a command
DEEP = nested(30_000)
NESTED_COMMANDS = [
    nested(100_000),
    DEEP,
    b'{"id": "n1", "type": "join", "extra": ' + DEEP + b"}",
    b'{"id": "n2", "type": "create", "options": {"hand_size": ' + DEEP + b"}}",
    b'{"id": "u1", "type": "join", "extra": "\xff\xfe"}',  # not UTF-8
    b"\xef\xbb\xbf\x00\x00",
]


def table_id() -> str:
    return f"t{uuid.uuid4().hex[:12]}"


async def ask(bus, subject: str, body: bytes, timeout: float = 10.0):
    return msgspec.json.decode(await bus.request(subject, body, timeout=timeout))


@pytest.mark.parametrize("body", NESTED_COMMANDS)
def test_any_undecodable_command_is_a_bad_command(body):
    with pytest.raises(BadCommand) as caught:
        decode_command(body, get("highcard").command_type)
    assert str(caught.value)


@pytest.mark.parametrize(
    ("body", "says"),
    [
        (nested(100_000), "at most"),
        (nested(1_500), "Expected `object`"),
        (b'{"from": 1, "x": ' + nested(1_500) + b"}", "unknown field `x`"),  # never read further
        (b"\xff\xfe{}", "not valid JSON"),
        (b'{"from": "one"}', "Expected `int`"),
        (b'{"from": 1, "pad": "' + b"x" * 5000 + b'"}', "at most"),
    ],
)
def test_any_undecodable_request_is_a_bad_request(body, says):
    with pytest.raises(BadRequest) as caught:
        decode_request(body, ReplayRequest)
    assert says in str(caught.value)


@pytest.fixture
async def worker(nats_url):
    async with stack(nats_url, "worker:highcard") as s:
        yield s


async def assert_still_serves(bus):
    reply = await Client(bus).command("highcard", table_id(), "ann", {"type": "create"})
    assert reply == {"ok": True, "version": 1}


@pytest.mark.parametrize("body", NESTED_COMMANDS)
async def test_a_deeply_nested_or_badly_encoded_command_is_refused_and_the_worker_serves_on(
    bus,
    worker,
    body,
):
    table = table_id()
    reply = await ask(bus, subjects.cmd("highcard", table, "ann"), body)
    assert reply["ok"] is False and reply["error"]["code"] == "bad_command"
    assert reply["error"]["message"]
    assert await bus.events.read("highcard", table) == []
    await assert_still_serves(bus)


async def test_a_deeply_nested_replay_request_is_a_bad_request_and_the_service_serves_on(
    bus,
    nats_url,
):
    async with stack(nats_url, "worker:highcard", "history-projector"):
        client, table = Client(bus), table_id()
        await client.command("highcard", table, "ann", {"type": "create"})
        subject = subjects.replay("highcard", table, "ann")
        deep = b'{"from": 1, "x": ' + nested(1_500) + b"}"
        for body in (nested(100_000), deep, b'{"from": "\xff"}'):
            reply = await ask(bus, subject, body)
            assert reply["error"]["code"] == "bad_request" and reply["error"]["message"]
        assert [s["version"] for s in await client.replay("highcard", table, "ann")] == [1]


async def test_a_body_over_one_mebibyte_is_refused_at_publish(bus, worker):
    assert bus.nc.max_payload == MAX_PAYLOAD
    subject = subjects.cmd("highcard", table_id(), "ann")
    with pytest.raises(nats.errors.MaxPayloadError):  # the client knows the server's limit
        await bus.request(subject, b"x" * (MAX_PAYLOAD + 1))
    # and the server itself refuses it, whatever the client
    url = urlsplit(bus.nc.connected_url.geturl())
    with socket.create_connection((url.hostname, url.port), timeout=10) as raw:
        raw.recv(4096)  # INFO
        raw.sendall(
            b'CONNECT {"verbose": false}\r\n'
            + f"PUB {subject} {MAX_PAYLOAD + 1}\r\n".encode()
            + b"x" * (MAX_PAYLOAD + 1)
            + b"\r\n"
        )
        answer = b""
        while b"\r\n" not in answer:
            chunk = raw.recv(4096)
            if not chunk:
                break
            answer += chunk
    assert b"Maximum Payload Violation" in answer
    await assert_still_serves(bus)


async def test_a_command_just_under_the_limit_is_refused_before_it_is_read(bus, worker):
    body = b'{"id": "big", "type": "join", "pad": "' + b"x" * (MAX_PAYLOAD - 2048) + b'"}'
    reply = await ask(bus, subjects.cmd("highcard", table_id(), "ann"), body)
    # refused by its length, which is looked at before anything is decoded
    assert reply["error"]["code"] == "bad_command" and "at most" in reply["error"]["message"]


async def test_concurrent_large_bodies_do_not_knock_the_worker_off(bus, worker):
    worker_bus = worker.buses["worker:highcard"]
    reconnects = worker_bus.nc.stats["reconnects"]
    body = b'{"id": "big", "type": "join", "pad": "' + b"x" * (MAX_PAYLOAD - 2048) + b'"}'
    for _ in range(8):
        replies = await asyncio.gather(
            *(ask(bus, subjects.cmd("highcard", table_id(), "ann"), body, timeout=30) for _ in range(12))
        )
        assert {r["error"]["code"] for r in replies} == {"bad_command"}
    assert worker_bus.nc.is_connected and worker_bus.nc.stats["reconnects"] == reconnects
    await assert_still_serves(bus)


async def test_a_handler_that_raises_answers_internal_error_in_the_askers_shape(bus):
    calls = []

    async def broken(message):
        calls.append(message.subject)
        raise RuntimeError("a bug")

    service = await bus.add_service(
        name="tabletop-test-broken",
        version="0.0.1",
        description="fails on purpose",
        endpoints=[
            # a game the server's config does not map: its commands arrive as sent
            ("commands", subjects.cmd_all("brokengame"), "broken-commands", broken),
            ("views", "tabletop.view.brokengame.>", "broken-views", broken),
        ],
    )
    try:
        with capture_logs() as logs:
            command = await ask(bus, subjects.cmd("brokengame", "t1", "ann"), b"{}")
            view = await ask(bus, subjects.view("brokengame", "t1", "ann"), b"{}")
        assert command["ok"] is False and command["error"]["code"] == "internal_error"
        assert "ok" not in view and view["error"]["code"] == "internal_error"
        assert len(calls) == 2
        assert [e["event"] for e in logs].count("request_failed") == 2
    finally:
        await service.stop()


PAGE = 2400  # bytes: a few steps of highcard, each with its view and its log in two languages


async def test_a_replay_larger_than_a_page_is_cut_and_says_where_to_go_on(bus, nats_url):
    client, table = Client(bus), table_id()
    async with stack(nats_url, "worker:highcard", "table-projector"):
        await play_with_bots(client, "highcard", table, ["b1", "b2", "b3"], random.Random(4))
    projector = HistoryProjector(bus, page_bytes=3000)
    decider = get("highcard")
    history = await projector.history(decider, "highcard", table)
    whole = msgspec.json.decode(page(decider, history, "b1", ReplayRequest(), 10**7))
    assert whole["next"] is None and len(whole["steps"]) == len(history.batches) > 10
    for views in ("every", "last", "none"):
        steps, first, pages = [], 0, 0
        while True:
            body = page(decider, history, "b1", ReplayRequest(from_=first, views=views), PAGE)
            assert len(body) <= PAGE
            cut = msgspec.json.decode(body)
            steps += cut["steps"]
            pages += 1
            assert ("view" in cut["steps"][-1]) == (views != "none")
            assert all(("view" in s) == (views == "every") for s in cut["steps"][:-1])
            if cut["next"] is None:
                break
            assert cut["next"] == cut["steps"][-1]["version"] + 1
            first = cut["next"]
        assert pages > 1
        plain = [{k: v for k, v in s.items() if k != "view"} for s in steps]
        assert plain == [{k: v for k, v in s.items() if k != "view"} for s in whole["steps"]]
    folded = projector.folded_messages
    await projector.history(decider, "highcard", table)  # a next page folds nothing again
    assert projector.folded_messages == folded == len(history.batches)
    tiny = page(decider, history, "b1", ReplayRequest(views="every"), 100)
    assert msgspec.json.decode(tiny)["error"]["code"] == "internal_error"
