"""Properties of the wire decoders, over generated input: whatever bytes a client sends, a
command body decodes to a command or is refused with BadCommand, a request body to a request
or BadRequest (never another exception, which would leave a client without its answer); and a
valid command or request, encoded, decodes to itself."""

from __future__ import annotations

import asyncio
import itertools
import typing
from typing import Any

import msgspec
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from services.registry import games
from shared.messages import subjects
from shared.messages.envelopes import (
    BadCommand,
    BadRequest,
    CommandEnvelope,
    LobbyRequest,
    ReplayRequest,
    decode_command,
    decode_request,
    encoder,
    lobby_cursor,
)
from tests.highcard import PlayCard

# Decoding is quick, but a machine running other tests may pause any example.
patient = settings(deadline=None)

GAMES = sorted(games())
IDS = st.from_regex(r"[A-Za-z0-9_-]{1,64}", fullmatch=True)
JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=12,
)


def command_tags(game: str) -> list[str]:
    """The `type` of every command the game's worker takes (table commands included)."""
    return sorted(member.__struct_config__.tag for member in typing.get_args(games()[game].command_type))


def objects_like_commands(game: str) -> st.SearchStrategy[dict[str, Any]]:
    """JSON objects with a fair chance of an id, a known type and an `expect`, and any fields."""
    return st.fixed_dictionaries(
        {},
        optional={
            "id": IDS | JSON,
            "type": st.sampled_from(command_tags(game)) | JSON,
            "expect": st.integers(min_value=-2) | JSON,
        },
    ).flatmap(
        lambda known: (st.just({}) | st.dictionaries(st.text(max_size=8), JSON, max_size=3)).map(
            lambda extra: {**dict(extra), **known}
        )
    )


def decoded_or_refused(body: bytes, game: str) -> CommandEnvelope | None:
    try:
        return decode_command(body, games()[game].command_type)
    except BadCommand:
        return None


def as_body(envelope: CommandEnvelope) -> bytes:
    fields = msgspec.to_builtins(envelope.command)
    expect = {} if envelope.expect is None else {"expect": envelope.expect}
    return encoder.encode({"id": envelope.id, **fields, **expect})


@pytest.mark.parametrize("game", GAMES)
@patient
@given(body=st.binary(max_size=256))
def test_any_bytes_are_a_command_or_refused(game, body):
    decoded_or_refused(body, game)


@pytest.mark.parametrize("game", GAMES)
@patient
@given(data=st.data())
def test_any_json_object_is_a_command_or_refused_and_a_command_decodes_to_itself(game, data):
    raw = data.draw(objects_like_commands(game))
    envelope = decoded_or_refused(encoder.encode(raw), game)
    if envelope is not None:
        assert decoded_or_refused(as_body(envelope), game) == envelope


@patient
@given(
    command_id=IDS,
    card=st.integers(min_value=-(2**63), max_value=2**63 - 1),
    expect=st.none() | st.integers(min_value=0, max_value=2**63 - 1),
)
def test_a_valid_command_decodes_to_itself(command_id, card, expect):
    envelope = CommandEnvelope(id=command_id, command=PlayCard(card=card), expect=expect)
    assert decode_command(as_body(envelope), games()["highcard"].command_type) == envelope


def objects_like_requests(request_type: type) -> st.SearchStrategy[dict[str, Any]]:
    """JSON objects with a fair chance of each field of `request_type` and of a fitting value."""
    value = st.none() | st.integers(-2, 200) | st.sampled_from(["open", "running"]) | JSON
    names = [f.encode_name for f in msgspec.structs.fields(request_type)]
    return st.fixed_dictionaries({}, optional=dict.fromkeys(names, value))


@pytest.mark.parametrize("request_type", [LobbyRequest, ReplayRequest])
@patient
@given(data=st.data())
def test_any_bytes_are_a_request_or_refused_and_a_request_decodes_to_itself(request_type, data):
    body = data.draw(st.binary(max_size=256) | objects_like_requests(request_type).map(encoder.encode))
    try:
        request = decode_request(body, request_type)
    except BadRequest:
        return
    assert decode_request(encoder.encode(request), request_type) == request


LOBBY_CURSORS = st.builds(
    lobby_cursor,
    st.sampled_from(["", "2026-11-30T13:50:27.124Z", "2026-11-30T13:50:27+00:00"]),
    st.from_regex(subjects.ID_PATTERN, fullmatch=True),
)


@patient
@given(
    after=st.none() | LOBBY_CURSORS,
    limit=st.none() | st.integers(1, 100),
    status=st.sampled_from([None, "open", "running"]),
)
def test_a_valid_lobby_request_decodes_to_itself(after, limit, status):
    request = LobbyRequest(after=after, limit=limit, status=status)
    assert decode_request(encoder.encode(request), LobbyRequest) == request


HEADER_LINE = st.lists(
    st.sampled_from(
        [
            b"Nats-Msg-Id",
            b"Tabletop-Writer",
            b" Name ",
            b"Na me",
            b"N\x1cm",
            b"\xff\xfe",
            b"",
            b":",
            b": ",
            b"\r",
            b"\n",
            b"\t",
            b"v\xc3\xa9",
            b"\xe9",
            b"a:b",
            b"x",
        ]
    ),
    max_size=6,
).map(b"".join)


@patient
@given(st.lists(HEADER_LINE, max_size=6).map(b"\r\n".join) | st.binary(max_size=60))
def test_the_bus_reads_message_headers_as_nats_py_does(raw):
    """The bus's cheaper header parser (`FastClient`'s) gives what nats-py's own gives."""
    from nats.aio.client import Client

    from shared.bus.headers import parse_header_lines

    assert parse_header_lines(raw) == Client._parse_header_lines(raw)


@patient
@given(st.lists(HEADER_LINE, max_size=6).map(b"\r\n".join) | st.binary(max_size=60))
@example(b"Nats-Msg-Id: 1\r\nTabletop-Writer: w \t\x0b")  # the spaces nats-py strips
@example(b"Tabletop-Writer:\tw\r\nx: 1")
@example(b"Tabletop-Writer: v\xc3\xa9")  # not ASCII
@example(b"Tabletop-Writer: w\x1c")  # a space to str.strip, not to nats-py
def test_the_bus_reads_one_header_of_a_log_message_as_nats_py_does(lines):
    """The one header the table projector reads of each log message (`header`, the line it
    is on) is what nats-py's parse of the whole header block gives."""
    from nats.aio.client import Client

    from shared.bus.headers import header

    block = b"NATS/1.0\r\n" + lines + b"\r\n\r\n"
    headers = Client._parse_header_lines(lines + b"\r\n\r\n")
    for name in ("Tabletop-Writer", "Nats-Msg-Id", "x", "Name"):
        assert header(block, name) == headers.get(name)


# --- the protocol parser ----------------------------------------------------------------------

TOKEN = st.sampled_from([b"a", b"tabletop.evt.p3.highcard.t1", b"_INBOX.x", b"$JS.ACK.S.c.1.2.3.4.5", b"12"])
SPACE = st.sampled_from([b" ", b"  ", b"\t", b" \t"])
ODD = st.sampled_from([b""] * 30 + [b" ", b"\t", b"\x0b", b"\n", b"\r", b"+", b"x", b"_"])  # mostly nothing


@st.composite
def server_operation(draw: Any) -> bytes:
    """One operation as a server sends it, or nearly (an odd space or character here and there)."""
    kind = draw(st.sampled_from(["MSG", "HMSG", "HMSG", "PING", "PONG", "+OK", "INFO", "-ERR"]))
    if kind in ("PING", "PONG", "+OK"):
        return kind.encode() + draw(ODD) + b"\r\n"
    if kind == "INFO":
        return b'INFO {"server_id":"x","max_payload":1048576}\r\n'
    if kind == "-ERR":
        return b"-ERR 'Permissions Violation'\r\n"
    payload = draw(st.binary(max_size=40))
    headers = b"NATS/1.0\r\n" + draw(st.sampled_from([b"", b"Tabletop-Writer: w\r\n"])) + b"\r\n"
    reply = draw(st.one_of(st.none(), TOKEN))
    sid = str(draw(st.integers(1, 4))).encode() + draw(ODD)
    counts = [str(len(payload)).encode()]
    if kind == "HMSG":
        counts = [str(len(headers)).encode(), str(len(headers) + len(payload)).encode()]
        payload = headers + payload
    tokens = [kind.encode() + draw(ODD), draw(TOKEN), sid, *([reply] if reply else []), *counts]
    line = b"".join(t + draw(SPACE) for t in tokens[:-1]) + tokens[-1] + draw(ODD)
    return line + b"\r\n" + payload + b"\r\n"


class Recorder:
    """What a parser hands the client, in order (a message taken or processed alike)."""

    def __init__(self, taking: bool) -> None:
        self.calls: list[Any] = []
        self.taking = taking
        self.stats = {"in_msgs": 0, "in_bytes": 0}

    def taken(self, sid: int, subject: bytes, reply: bytes, data: bytes, headers: bytes | None) -> bool:
        if self.taking and sid % 2 == 0:  # a taker for even subscriptions
            self.calls.append(("msg", sid, bytes(subject), bytes(reply), data, headers))
            return True
        return False

    async def _process_msg(self, sid: int, subject: bytes, reply: bytes, data: bytes, headers: Any) -> None:
        self.calls.append(("msg", sid, bytes(subject), bytes(reply), data, headers))

    async def _process_ping(self) -> None:
        self.calls.append("ping")

    async def _process_pong(self) -> None:
        self.calls.append("pong")

    async def _process_info(self, info: Any) -> None:
        self.calls.append(("info", info))

    async def _process_err(self, err: str) -> None:
        self.calls.append(("err", err))


async def parsed(parser: Any, recorder: Recorder, reads: list[bytes]) -> list[Any]:
    for data in reads:
        try:
            await parser.parse(data)
        except Exception as err:  # noqa: BLE001 - the error is part of what is compared
            return [*recorder.calls, type(err), bytes(parser.buf)]
    return [*recorder.calls, bytes(parser.buf), parser.state]


@settings(deadline=None, max_examples=400)
@given(st.lists(server_operation(), max_size=8), st.lists(st.integers(0, 400), max_size=8))
@example([b"MSG a 1+ 0\r\n\r\n"], [])  # a sid nats-py reads with int(): its error
@example([b"MSG a 1 3 \r\nabc\r\n"], [])  # a space its expression does not take
@example([b"MSG a 1 b\n3\r\nabc\r\n"], [])
@example([b"MSGS a 1 3\r\nabc\r\n"], [])
@example([b"MSG a 1 3\r\nabc\r\n", b"PING\r\n"], [14])  # the payload read, not its CRLF
@example([b"HMSG a 2 b 12 15\r\nNATS/1.0\r\n\r\nabc\r\n"], [5, 20, 31])
def test_the_bus_parses_what_a_server_sends_as_nats_py_does(operations, cuts):
    """`FastParser` hands the client what nats-py's parser does, in the same order, for a
    stream of operations cut into reads anywhere; an odd line it leaves to nats-py's parser,
    a protocol error included."""
    from nats.protocol.parser import Parser

    from shared.bus.nats_internals import FastParser

    stream = b"".join(operations)
    at = sorted({min(c, len(stream)) for c in cuts} | {0, len(stream)})
    reads = [stream[a:b] for a, b in itertools.pairwise(at)]
    for taking in (False, True):
        ours, theirs = Recorder(taking), Recorder(False)
        assert asyncio.run(parsed(FastParser(ours), ours, reads)) == asyncio.run(
            parsed(Parser(theirs), theirs, reads)
        )
