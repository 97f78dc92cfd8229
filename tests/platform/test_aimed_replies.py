"""A client cannot make a service its deputy by naming the reply subject of a request.

Players and guests live in an account of their own (PLAYERS) that reaches the services only
through what the services' account exports: the server gives each imported request a reply
subject of its own, so an answer never lands inside the services' account (the log, the
buckets, the JetStream API), and the players' account moves an answer aimed at an update subject
out of everyone's way. Each attack is sent as a player and as a guest, over the real server
configured as `tabletop up` configures it; afterwards the lobby answers, the log and the views
bucket are unchanged, no push arrives, and the services still run."""

from __future__ import annotations

import asyncio
import uuid
from collections import Counter
from collections.abc import AsyncIterator

import msgspec
import nats
import pytest
from nats.aio.client import Client as NATS

from services.client import Client
from shared.bus.credentials import inbox_prefix
from shared.messages import subjects
from tests.platform import test_security as security
from tests.platform.stack import Stack, stack
from tests.platform.test_security import GAME, Table, follow, unique

# the embedded server only (its roles sign in), and the security tests' running table
pytestmark = pytest.mark.usefixtures("embedded_only")
table = security.table


@pytest.fixture(scope="module")  # the platform's stack and the results projector's requests
async def services(nats_url: str) -> AsyncIterator[Stack]:
    names = ("worker:highcard", "table-projector", "history-projector", "results-projector", "chat")
    async with stack(nats_url, *names) as s:
        yield s


VIEWS_STREAM = f"KV_{subjects.VIEWS_BUCKET}"

# Every reply subject of the attack table, for the victim table `t` where ann plays.
TARGETS = [
    "$KV.TABLETOP_VIEWS.lobby.{game}.{t}",
    "$KV.TABLETOP_VIEWS.view.{game}.{t}.spectator",
    "$KV.TABLETOP_VIEWS.view.{game}.{t}.{ann}",
    "tabletop.evt.{game}.{t}",
    "tabletop.update.{game}.{t}.{ann}",
    "tabletop.update.{game}.{t}.spectator",
    "tabletop.chat.{game}.table.{t}",
    "tabletop.chat.{game}.lobby",
    "tabletop.chatstore.{game}.table.{t}",
    "tabletop.cmd.{game}.{t}.{ann}",
    f"$JS.API.STREAM.PURGE.{VIEWS_STREAM}",
    f"$JS.API.STREAM.DELETE.{VIEWS_STREAM}",
    f"$JS.API.STREAM.PURGE.{subjects.STREAM}",
]


async def connect_as(url: str, role: str) -> NATS:
    """A raw connection of a freshly registered player, or of a guest."""
    if role == "guest":
        name = unique("guest-")
        return await nats.connect(
            url, user=name, password="", inbox_prefix=inbox_prefix(name), allow_reconnect=False
        )
    name = unique("mallory")
    return await nats.connect(
        url, user=name, password="mallory's password", inbox_prefix=inbox_prefix(name), allow_reconnect=False
    )


def watching_requests(t: str, ann: str) -> list[tuple[str, bytes]]:
    """What anyone may ask about the victim table `t` and its player `ann`: the lobby, its
    spectator view and replay, ann's profile and history, the game's rankings, the table's and
    the lobby's chat (a player also sends a command and a chat line, refused: they change
    nothing)."""
    return [
        (subjects.lobby(GAME), b"{}"),
        (subjects.view(GAME, t, subjects.SPECTATOR), b"{}"),
        (subjects.replay(GAME, t, subjects.SPECTATOR), b'{"from": 0, "to": null}'),
        (subjects.profile(ann), b"{}"),
        (subjects.history(ann), b"{}"),
        (subjects.rankings(GAME), b"{}"),
        (subjects.chatlog(GAME, t), b"{}"),
        (subjects.chatlog(GAME), b"{}"),
    ]


async def log_count(bus) -> int:
    return (await bus.js.stream_info(subjects.STREAM)).state.messages


async def listed(client: Client, table: str) -> bool:
    """Whether the lobby lists `table`, on any of its pages: tables of other tests on the same
    server, created later, come first."""
    after = None
    while True:
        page = await client.lobby(GAME, after=after)
        if table in {entry["table"] for entry in page["tables"]}:
            return True
        if page["next"] is None:
            return False
        after = page["next"]


@pytest.mark.parametrize("role", ["player", "guest"])
async def test_an_answer_aimed_at_any_subject_changes_nothing(bus, nats_url, table: Table, role):
    ann_name, _ = table.names
    await table.ann.wait_view(GAME, table.id, subjects.SPECTATOR, 3)  # both waves of views stored
    pushes, _own = await follow(table.ann.bus, subjects.update(GAME, table.id, ann_name))
    spectator = subjects.update(GAME, table.id, subjects.SPECTATOR)
    spectator_pushes, _spectator = await follow(table.ann.bus, spectator)
    chat_lines, _chat = await follow(table.ann.bus, f"{subjects.PREFIX}.chat.>")
    log_before = await log_count(bus)
    views_before = await bus.view_entries(">")
    attacker = await connect_as(nats_url, role)
    if role == "player":  # its own command, refused by the worker: no event either way
        name = attacker.options["user"]
        join = msgspec.json.encode({"id": uuid.uuid4().hex, "type": "join"})
        refused_line = b'{"text": ""}'  # refused by the chat service: nothing said
        asks = [
            *watching_requests(table.id, ann_name),
            (subjects.cmd(GAME, unique("nowhere"), name), join),
            (subjects.say(GAME, name, table.id), refused_line),
        ]
    else:
        asks = watching_requests(table.id, ann_name)
    targets = [t.format(game=GAME, t=table.id, ann=ann_name) for t in TARGETS]
    for subject, body in asks:
        for target in targets:
            await attacker.publish(subject, body, reply=target)
        # The same request with a true inbox: once it is answered, the service has answered
        # the aimed ones it took before it, and the server has routed those answers.
        answer = await attacker.request(subject, body, timeout=10)
        assert answer.data
    await table.ann.bus.nc.flush()  # whatever the server routed to ann has reached her

    assert pushes.empty() and spectator_pushes.empty(), "an answer arrived as a push"
    assert chat_lines.empty(), "an answer arrived as a chat line"
    assert await log_count(bus) == log_before
    assert await bus.view_entries(">") == views_before
    assert await listed(table.ann, table.id)
    await attacker.close()
    # the table plays on, and its pushes arrive
    view = await table.ann.wait_view(GAME, table.id, ann_name, 3)
    card = view["view"]["hand"][0]
    reply = await table.ann.command(GAME, table.id, ann_name, {"type": "play_card", "card": card})
    assert reply["ok"], reply
    push = msgspec.json.decode(await pushes.get())
    assert push["version"] == reply["version"]


async def test_a_request_inside_the_services_account_with_a_reply_that_is_no_inbox_is_dropped(
    bus, nats_url, table: Table
):
    """Defence in depth, for what reaches a service without the players' account: a service
    answers only into a reply inbox; anything else is dropped, counted, never answered, and
    its answers never echo the request's headers."""

    async def misdirected() -> int:
        found = await bus.gather("$SRV.STATS.tabletop-table-projector")
        endpoints = [e for body in found for e in msgspec.json.decode(body)["endpoints"]]
        return sum(int((e.get("data") or {}).get("misdirected", 0)) for e in endpoints)

    views_before = await bus.view_entries(">")
    log_before = await log_count(bus)
    counted = await misdirected()
    key = subjects.lobby_key(GAME, table.id)
    for _ in range(3):
        await bus.nc.publish(subjects.lobby(GAME), b"{}", reply=f"$KV.{subjects.VIEWS_BUCKET}.{key}")
        await bus.nc.publish(subjects.lobby(GAME), b"{}", reply=subjects.evt(GAME, table.id))
    answer = await bus.nc.request(subjects.lobby(GAME), b"{}", headers={"Nats-Msg-Id": "echo?"}, timeout=10)
    assert not answer.headers, "the answer echoed the request's headers"
    assert await misdirected() >= counted + 6
    assert await bus.view_entries(">") == views_before
    assert await log_count(bus) == log_before


# What a client may put in a command for a game nobody serves: the responder of unknown games
# (services/game_worker/unknown_games.py) reads only the subject, whatever the body.
GARBAGE = [
    b"",
    b"not json",
    b"\xff\xfe\x00",
    b"{" * 4096,
    b'{"id": "c1", "id": "c2", "type": "create"}',
    msgspec.json.encode({"id": "c1", "type": "create", "options": {"x": "y" * 60_000}}),
]
FLOOD = 1000


async def test_commands_for_an_unknown_game_aimed_flooded_or_garbage_change_nothing(
    bus, nats_url, table: Table
):
    """The responder that answers `unknown_game` is a service like any other: its answers
    aimed at any subject land nowhere, a thousand commands at once are each answered, garbage
    bodies get the same answer, and the log, the views and the table are untouched."""
    ann_name, _ = table.names
    await table.ann.wait_view(GAME, table.id, subjects.SPECTATOR, 3)
    pushes, _own = await follow(table.ann.bus, subjects.update(GAME, table.id, ann_name))
    attacker = await connect_as(nats_url, "player")
    unknown = subjects.cmd("nosuchgame", unique("t"), attacker.options["user"])
    for _ in range(200):  # the responder takes commands once the workers have heard each other
        try:
            await attacker.request(unknown, b"{}", timeout=2)
            break
        except nats.errors.NoRespondersError:
            await asyncio.sleep(0.05)
    log_before = await log_count(bus)
    views_before = await bus.view_entries(">")
    for target in [t.format(game=GAME, t=table.id, ann=ann_name) for t in TARGETS]:
        for body in GARBAGE:
            await attacker.publish(unknown, body, reply=target)
    answers = await asyncio.gather(
        *(attacker.request(unknown, GARBAGE[i % len(GARBAGE)], timeout=30) for i in range(FLOOD))
    )
    codes = Counter(msgspec.json.decode(a.data)["error"]["code"] for a in answers)
    assert codes == {"unknown_game": FLOOD}, codes
    await table.ann.bus.nc.flush()

    assert pushes.empty(), "an answer arrived as a push"
    assert await log_count(bus) == log_before
    assert await bus.view_entries(">") == views_before
    await attacker.close()
    view = await table.ann.wait_view(GAME, table.id, ann_name, 3)  # the table plays on
    card = view["view"]["hand"][0]
    reply = await table.ann.command(GAME, table.id, ann_name, {"type": "play_card", "card": card})
    assert reply["ok"], reply
