"""Chat over the real server, configured as `tabletop up` configures it: a room per lobby and
per table, kept in a stream of its own (never the game log), lines as text, a spectator's
marked, every player held to a rate, and the broker letting each connection speak only as
itself (guests read, never post)."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import msgspec
import pytest

from services.chat.service import (
    AWAY_AFTER,
    HERE_EVERY,
    RATE_BURST,
    RATE_EVERY,
    Chat,
    RateLimit,
    presence_bucket,
)
from services.client import Client
from shared.bus.connection import Bus
from shared.bus.credentials import Credentials
from shared.bus.errors import Forbidden
from shared.messages import subjects
from shared.messages.chat import MAX_TEXT, ROOM_KEEPS, cleaned
from shared.settings import load_settings
from tests.platform import test_security as security
from tests.platform.stack import Stack, stack
from tests.platform.test_security import GAME, Attacker, Table, follow, sign_in, unique, until

pytestmark = pytest.mark.usefixtures("embedded_only")
table = security.table
MARKUP = '<script>alert("x")</script><img src=x onerror=alert(1)> <b>bold</b> &amp;'


@pytest.fixture(scope="module")
async def services(nats_url: str) -> AsyncIterator[Stack]:
    async with stack(nats_url, "worker:highcard", "table-projector", "chat") as s:
        yield s


async def a_player(url: str, prefix: str = "cat") -> Client:
    return Client(await sign_in(url, unique(prefix), "a long enough password"))


async def a_guest(url: str) -> Client:
    return Client(
        await Bus.connect(url, load_settings(), name="test-guest", wait=10, credentials=Credentials.guest())
    )


async def asked_by(client: Client, subject: str, body: bytes) -> dict:
    return dict(msgspec.json.decode(await client.bus.request(subject, body, timeout=10)))


def name_of(client: Client) -> str:
    return str(client.bus.nc.options["user"])


async def log_count(bus) -> int:
    return (await bus.js.stream_info(subjects.STREAM)).state.messages


async def test_a_line_reaches_everyone_in_the_room_as_it_was_said_and_is_kept(nats_url, bus, table: Table):
    ann, _ = table.names
    cat = await a_player(nats_url)  # signed in, not seated: a spectator
    guest = await a_guest(nats_url)
    room = subjects.chat(GAME, table.id)
    heard = [(await follow(client.bus, room))[0] for client in (table.bob, guest)]
    log_before = await log_count(bus)

    said = await table.ann.say(GAME, table.id, ann, MARKUP)
    assert said["ok"], said
    assert (await cat.say(GAME, table.id, name_of(cat), "  well played  "))["ok"]

    for queue in heard:
        first = msgspec.json.decode(await asyncio.wait_for(queue.get(), 10))
        second = msgspec.json.decode(await asyncio.wait_for(queue.get(), 10))
        assert (first["player"], first["text"], first["spectator"]) == (ann, MARKUP, False)
        assert (second["player"], second["text"], second["spectator"]) == (name_of(cat), "well played", True)
        assert first["id"] == said["id"]
    lines = await guest.chatlog(GAME, table.id)
    assert [(line["player"], line["text"]) for line in lines] == [
        (ann, MARKUP),
        (name_of(cat), "well played"),
    ]
    assert lines[0]["at"].endswith("Z")
    assert await log_count(bus) == log_before, "a chat line went into the game log"
    lobby = await guest.chatlog(GAME, None, limit=ROOM_KEEPS)
    assert MARKUP not in [line["text"] for line in lobby], "the table's line is in the lobby's room"
    for client in (cat, guest):
        await client.bus.close()


async def test_the_lobby_is_a_room_of_its_own(nats_url, table: Table):
    ann, _ = table.names
    text = unique("lobby line ")
    assert (await table.ann.say(GAME, None, ann, text))["ok"]
    lobby = await table.bob.chatlog(GAME, None, limit=ROOM_KEEPS)
    assert [line["text"] for line in lobby][-1] == text
    assert not lobby[-1]["spectator"]
    assert text not in [line["text"] for line in await table.bob.chatlog(GAME, table.id)]


async def test_a_line_sent_again_with_its_id_is_said_once(table: Table):
    ann, _ = table.names
    heard, _sub = await follow(table.bob.bus, subjects.chat(GAME, table.id))
    first = await table.ann.say(GAME, table.id, ann, "once only", line_id="retry-me")
    again = await table.ann.say(GAME, table.id, ann, "once only", line_id="retry-me")
    assert first["ok"] and again["ok"] and first["id"] == again["id"]
    assert (await table.ann.say(GAME, table.id, ann, "afterwards"))["ok"]
    texts = [msgspec.json.decode(await asyncio.wait_for(heard.get(), 10))["text"] for _ in range(2)]
    assert texts == ["once only", "afterwards"]  # the line sent again was not published again
    assert [line["text"] for line in await table.bob.chatlog(GAME, table.id)] == texts


BAD_LINES = [
    (b"", "bad_request"),
    (b"not json", "bad_request"),
    (b'{"text": ""}', "bad_request"),
    (b'{"text": "   \\n\\t  "}', "bad_request"),
    (b'{"text": "\\u0000\\u202e"}', "bad_request"),  # nothing left once cleaned
    (msgspec.json.encode({"text": "x" * (MAX_TEXT + 1)}), "bad_request"),
    (msgspec.json.encode({"text": "hi", "colour": "red"}), "bad_request"),
    (msgspec.json.encode({"text": "hi", "id": "not an id!"}), "bad_request"),
    (msgspec.json.encode({"text": "hi", "text2": "y" * 5000}), "bad_request"),  # over 4 KiB
    (b'{"text": "a", "text": "b"}', "bad_request"),
    (b"[1, 2]", "bad_request"),
]


@pytest.mark.parametrize(("body", "code"), BAD_LINES)
async def test_a_bad_line_is_refused_with_a_code_and_says_nothing(bus, table: Table, body: bytes, code: str):
    ann, _ = table.names
    heard, _sub = await follow(table.bob.bus, subjects.chat(GAME, table.id))
    before = await table.bob.chatlog(GAME, table.id, limit=ROOM_KEEPS)
    reply = msgspec.json.decode(
        await table.ann.bus.request(subjects.say(GAME, ann, table.id), body, timeout=10)
    )
    assert reply["error"]["code"] == code, reply
    assert reply["error"]["message"]
    assert await table.bob.chatlog(GAME, table.id, limit=ROOM_KEEPS) == before
    assert heard.empty()


async def test_a_line_to_no_room_is_refused(table: Table):
    ann, _ = table.names
    nowhere = await table.ann.say(GAME, unique("nowhere"), ann, "hello?")
    assert nowhere["error"]["code"] == "unknown_table", nowhere
    no_game = msgspec.json.decode(
        await table.ann.bus.request(f"tabletop.say.nogame.lobby.{ann}", b'{"text": "hi"}', timeout=10)
    )
    assert no_game["error"]["code"] == "unknown_game", no_game
    asked = msgspec.json.decode(
        await table.ann.bus.request("tabletop.chatlog.nogame.lobby", b"{}", timeout=10)
    )
    assert asked["error"]["code"] == "unknown_game", asked
    for body in (b'{"limit": 0}', b'{"limit": 101}', b'{"since": 3}', b"{{"):
        refused = msgspec.json.decode(
            await table.ann.bus.request(subjects.chatlog(GAME, table.id), body, timeout=10)
        )
        assert refused["error"]["code"] == "bad_request", refused


def test_control_and_reordering_characters_are_taken_out():
    assert cleaned("  a\x00b\x1b[31mc\u202ed\u2066e\nf\t ") == "ab[31mcde\nf"
    assert cleaned("🎲 dés\u200d") == "🎲 dés\u200d"  # emoji joiners and accents stay


async def test_a_player_who_says_too_much_is_held_back_alone(nats_url, table: Table):
    ann, bob = table.names
    answers = [await table.ann.say(GAME, table.id, ann, f"line {i}") for i in range(RATE_BURST + 3)]
    held = [a for a in answers if not a.get("ok")]
    assert held, "nobody was held back"
    assert all(a["error"]["code"] == "rate_limited" for a in held), held
    assert all(0 < a["error"]["retry_after_ms"] <= RATE_EVERY * 1000 + 1 for a in held)
    assert "wait" in held[0]["error"]["message"]
    assert sum(1 for a in answers if a.get("ok")) >= RATE_BURST
    assert (await table.bob.say(GAME, table.id, bob, "my turn to speak"))["ok"]  # bob is not held
    said = [line["text"] for line in await table.bob.chatlog(GAME, table.id)]
    assert said.count("my turn to speak") == 1
    assert len([t for t in said if t.startswith("line ")]) == sum(1 for a in answers if a.get("ok"))


def test_the_allowance_comes_back_with_time():
    limit = RateLimit(burst=2, every=1.0)
    assert limit.take("ann", 0.0) == 0 and limit.take("ann", 0.0) == 0
    assert limit.take("ann", 0.0) == pytest.approx(1.0)
    assert limit.take("bob", 0.0) == 0  # one player's count is not another's
    assert limit.take("ann", 0.5) == pytest.approx(0.5)
    assert limit.take("ann", 1.0) == 0
    assert limit.take("ann", 10.0) == 0 and limit.take("ann", 10.0) == 0  # never above the burst
    assert limit.take("ann", 10.0) > 0
    limit.forget_rested(100.0)
    assert limit.allowance == {}


async def test_a_room_keeps_its_last_lines(bus, nats_url, services):
    """The stream keeps a room's last `ROOM_KEEPS` lines (written here by the operator's user:
    the rate holds a player to far fewer)."""
    room_table = unique("busy")
    for i in range(ROOM_KEEPS + 5):
        line = msgspec.json.encode(
            {"id": f"x-{i}", "player": "x", "text": str(i), "at": "2026-01-01T00:00:00Z"}
        )
        await bus.chat.append(GAME, room_table, line, line_id=f"x-{i}")
    reader = await a_player(nats_url)
    lines = await reader.chatlog(GAME, room_table, limit=ROOM_KEEPS)
    assert [line["text"] for line in lines] == [str(i) for i in range(5, ROOM_KEEPS + 5)]
    default_page = await reader.chatlog(GAME, room_table)
    assert [line["text"] for line in default_page] == [str(i) for i in range(55, ROOM_KEEPS + 5)]
    await reader.bus.close()


async def test_nobody_speaks_for_another_and_guests_only_read(nats_url, table: Table, mallory: Attacker):
    ann, _ = table.names
    heard, _sub = await follow(table.bob.bus, subjects.chat(GAME, table.id))
    for subject in (
        subjects.say(GAME, ann, table.id),  # as another player
        subjects.say(GAME, ann),
        subjects.chat_stored(GAME, table.id),  # into the chat stream
    ):
        assert await mallory.publish(subject, b'{"text": "it was ann"}'), subject
    # straight onto the room: the players' account moves it aside before checking it, and
    # refuses it there
    room = subjects.chat(GAME, table.id)
    await mallory.nc.publish(room, b'{"id": "x", "player": "ann", "text": "it was ann", "at": ""}')
    aside = room.replace("tabletop.chat.", "tabletop.misdirected.chat.", 1)
    assert await until(lambda: mallory.refused("Publish", aside))
    refused, _ = await mallory.subscribe(subjects.CHAT_STORED_ALL)
    assert refused
    guest = await a_guest(nats_url)
    with pytest.raises(Forbidden):  # refused by the broker, not by the chat service
        await guest.bus.request(subjects.say(GAME, name_of(guest), table.id), b'{"text": "hi"}')
    await guest.bus.close()
    texts = [line["text"] for line in await table.bob.chatlog(GAME, table.id, limit=ROOM_KEEPS)]
    assert "it was ann" not in texts and "hi" not in texts
    assert (await table.bob.say(GAME, table.id, table.names[1], "after all that"))["ok"]
    assert msgspec.json.decode(await asyncio.wait_for(heard.get(), 10))["text"] == "after all that"


mallory = security.mallory


async def test_a_seated_player_whose_page_is_closed_is_away(nats_url, table: Table):
    ann, bob = table.names
    asked = await asked_by(table.ann, subjects.here(GAME, table.id, ann), b"{}")
    assert asked == {"away": [bob], "every_ms": int(HERE_EVERY * 1000)}  # bob has no page open
    assert (await asked_by(table.bob, subjects.here(GAME, table.id, bob), b"{}"))["away"] == []
    guest = await a_guest(nats_url)  # a guest asks as itself; its word is not kept
    assert (await asked_by(guest, subjects.here(GAME, table.id, name_of(guest)), b""))["away"] == []
    for body, code in ((b'{"x": 1}', "bad_request"), (b"[]", "bad_request")):
        refused = await asked_by(guest, subjects.here(GAME, table.id, name_of(guest)), body)
        assert refused["error"]["code"] == code, refused
    nowhere = await asked_by(guest, subjects.here(GAME, unique("nowhere"), name_of(guest)), b"{}")
    assert nowhere["error"]["code"] == "unknown_table"
    await guest.bus.close()


async def test_away_comes_after_a_silence_and_ends_with_a_word(bus, table: Table):
    """The chat service's presence on the real bucket, with a clock of the test's."""
    ann, bob = table.names
    now = [1_000_000.0]
    chat = Chat(bus, await presence_bucket(bus), wall=lambda: now[0])

    async def away_for(player: str) -> list[str]:
        return list(
            msgspec.json.decode(await chat.here(subjects.here(GAME, table.id, player), b"{}"))["away"]
        )

    assert await away_for(ann) == [bob]
    assert await away_for(bob) == []
    now[0] += AWAY_AFTER - 1
    assert await away_for(ann) == []
    now[0] += 2  # bob said nothing for longer than AWAY_AFTER; ann just spoke
    assert await away_for(ann) == [bob]
    assert await away_for(bob) == []
    assert await away_for(ann) == []


async def test_nobody_says_they_are_here_for_another(table: Table, mallory: Attacker):
    ann, _ = table.names
    assert await mallory.publish(subjects.here(GAME, table.id, ann))
