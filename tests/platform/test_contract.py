"""The wire contract of docs/protocol.md, exactly, as a client written from the docs meets it:
signed in as players and guests through the players' account of the server `tabletop up`
configures, with nothing but a NATS client.

Every request is answered (an unknown game `unknown_game` for commands, views, lobby and
replays alike), every body and parameter is checked (`bad_request` or `bad_command` saying
what is wrong, and nothing changes), `next` is always in a lobby page and a replay page, and
what the docs say of guests' inboxes, spent command ids and refused subjects holds."""

from __future__ import annotations

import asyncio
import contextlib
import time
import uuid
from collections.abc import AsyncIterator
from typing import Any

import msgspec
import nats
import nats.errors
import pytest
from nats.aio.client import Client as NATS

from services.game_worker.app import HEARTBEAT, SILENCE
from services.game_worker.unknown_games import UnknownGames
from shared.bus.connection import Incoming
from shared.bus.credentials import inbox_prefix
from shared.messages import subjects
from tests.waiting import until

GAME = "highcard"
# the embedded server configured like `tabletop up`: these tests sign in as its roles
pytestmark = pytest.mark.usefixtures("embedded_only")
PASSWORD = "a long enough password"


def unique(prefix: str) -> str:
    return f"{prefix}{uuid.uuid4().hex[:10]}"


class Player:
    """A raw NATS connection signed in as a player (or a guest), as the docs tell a client to
    connect, recording what the broker refuses."""

    def __init__(self, nc: NATS, name: str, refusals: list[str]) -> None:
        self.nc, self.name, self.refusals = nc, name, refusals

    @classmethod
    async def connect(cls, url: str, name: str | None, password: str = PASSWORD) -> Player:
        """`name` None: a nameless connection, with the client library's own inbox."""
        refusals: list[str] = []

        async def on_error(err: Exception) -> None:
            refusals.append(str(err))

        options: dict[str, Any] = {}
        if name is not None:  # a guest gives its name with an empty password
            options = {"user": name, "password": password, "inbox_prefix": inbox_prefix(name)}
        nc = await nats.connect(url, error_cb=on_error, allow_reconnect=False, name="contract", **options)
        return cls(nc, name or "", refusals)

    async def ask(self, subject: str, body: bytes, timeout: float = 10.0) -> dict[str, Any]:
        reply = await self.nc.request(subject, body, timeout=timeout)
        decoded: dict[str, Any] = msgspec.json.decode(reply.data)
        return decoded

    async def command(self, table: str, command: dict[str, Any]) -> dict[str, Any]:
        body = msgspec.json.encode({"id": uuid.uuid4().hex, **command})
        return await self.ask(subjects.cmd(GAME, table, self.name), body)

    async def close(self) -> None:
        await self.nc.close()


@pytest.fixture
async def ann(nats_url, services) -> AsyncIterator[Player]:
    player = await Player.connect(nats_url, unique("ann"))
    yield player
    await player.close()


@pytest.fixture
async def bob(nats_url, services) -> AsyncIterator[Player]:
    player = await Player.connect(nats_url, unique("bob"))
    yield player
    await player.close()


async def new_table(ann: Player, bob: Player, *, start: bool = True) -> str:
    table = unique("t")
    created = await ann.command(table, {"type": "create", "options": {"hand_size": 2}, "seats": 2})
    assert created == {"ok": True, "version": 1}, created
    assert (await bob.command(table, {"type": "join"}))["ok"]
    if start:
        assert (await ann.command(table, {"type": "start"}))["ok"]
    version = 3 if start else 2

    async def viewed() -> bool:
        reply = await ann.ask(subjects.view(GAME, table, subjects.SPECTATOR), b"{}")
        return reply.get("version", 0) >= version

    await until(viewed)
    return table


def refused(reply: dict[str, Any], code: str, *words: str) -> bool:
    """Whether `reply` is the error `code`, its message saying each of `words`."""
    error = reply.get("error") or {}
    return error.get("code") == code and all(w in error.get("message", "") for w in words)


# --- unknown games ---------------------------------------------------------------------------


async def test_a_command_for_an_unknown_game_is_answered_unknown_game(ann, services):
    body = msgspec.json.encode({"id": "c1", "type": "create", "options": {}})

    async def answered() -> dict[str, Any] | None:
        try:
            return await ann.ask(subjects.cmd("nosuchgame", "t1", ann.name), body, timeout=2)
        except nats.errors.NoRespondersError:  # the workers listen to each other first
            return None

    reply = await until(answered)
    assert reply == {
        "ok": False,
        "error": {"code": "unknown_game", "message": "No game is called nosuchgame."},
    }
    # a known game's commands are still answered by its worker, and only by it
    assert (await ann.command(unique("t"), {"type": "create", "options": {}}))["ok"]


async def test_the_account_maps_each_offered_games_commands_to_their_partition_and_only_those(bus):
    """A command of an offered game reaches the partition `subjects.cmd_partition_of` names,
    and never the subject it was sent on, where the unknown-games group listens: that group
    sees the commands of unknown games only."""
    mapped: list[str] = []
    unmapped: list[str] = []

    async def into(found: list[str], message: Incoming) -> None:
        found.append(message.subject)

    subscriptions = [
        await bus.subscribe(subjects.cmd_mapped(GAME, "*", "*", "*"), lambda m: into(mapped, m)),
        await bus.subscribe(subjects.CMD_UNMAPPED, lambda m: into(unmapped, m)),
    ]
    try:
        tables = [unique("t") for _ in range(48)]
        for table in tables:  # not a command (no JSON): its worker answers `bad_command`
            await bus.publish(subjects.cmd(GAME, table, "ann"), b"not json")
        await bus.publish(subjects.cmd("nosuchgame", "t1", "ann"), b"not json")
        await until(lambda: len(mapped) == len(tables) and unmapped)
        assert unmapped == [subjects.cmd("nosuchgame", "t1", "ann")]  # the last one sent
        assert mapped == [
            subjects.cmd_mapped(GAME, str(subjects.cmd_partition_of(t)), t, "ann") for t in tables
        ]
        assert len({subjects.cmd_partition_of(t) for t in tables}) > 8  # tables spread
    finally:
        for subscription in subscriptions:
            await subscription.unsubscribe()


@pytest.mark.parametrize(
    "subject",
    [
        subjects.view("nosuchgame", "t1", subjects.SPECTATOR),
        subjects.lobby("nosuchgame"),
        subjects.replay("nosuchgame", "t1", subjects.SPECTATOR),
    ],
)
async def test_views_lobby_and_replays_of_an_unknown_game_answer_unknown_game(ann, subject):
    reply = await ann.ask(subject, b"{}")
    assert reply == {"error": {"code": "unknown_game", "message": "No game is called nosuchgame."}}


# --- every request body checked --------------------------------------------------------------

OVER_4_KIB = b'{"pad": "' + b"x" * 5000 + b'"}'


@pytest.mark.parametrize(
    ("body", "says"),
    [
        (b"not json", "not valid JSON"),
        (OVER_4_KIB, "at most 4096"),
        (b'{"seat": "ann"}', "unknown field `seat`"),
        (b"[]", "Expected `object`"),
    ],
)
async def test_a_view_request_that_is_not_an_empty_object_is_a_bad_request(ann, bob, body, says):
    table = await new_table(ann, bob, start=False)
    for viewer in (ann.name, subjects.SPECTATOR):
        reply = await ann.ask(subjects.view(GAME, table, viewer), body)
        assert refused(reply, "bad_request", says, "A view request is {}"), reply
    assert (await ann.ask(subjects.view(GAME, table, ann.name), b""))["version"] == 2


@pytest.mark.parametrize(
    ("body", "says"),
    [
        (b'{"limit": 101}', '"limit" is 101: a page holds 1 to 100 tables'),
        (b'{"limit": 1000}', '"limit" is 1000'),
        (b'{"limit": 0}', '"limit" is 0'),
        (b'{"limit": -5}', '"limit" is -5'),
        (b'{"limit": "ten"}', "Expected `int | null`, got `str`"),
        (b'{"limit": 2.0}', "got `float`"),
        (b'{"after": "garbage"}', '"after" is \'garbage\': give the "next" of the page before'),
        (b'{"after": "yesterday|t1"}', '"after" is'),
        (b'{"status": "ended"}', "Invalid enum value 'ended' - at `$.status`"),
        (b'{"limit": 5, "limit": 6}', 'gives the key "limit" twice'),
        (b'{"page": 2}', "unknown field `page`"),
        (OVER_4_KIB, "at most 4096"),
    ],
)
async def test_a_bad_lobby_request_is_a_bad_request_saying_what_is_wrong(ann, body, says):
    reply = await ann.ask(subjects.lobby(GAME), body)
    assert refused(reply, "bad_request", says), reply
    if "twice" not in says:
        assert "A lobby request is" in reply["error"]["message"]


@pytest.mark.parametrize(
    ("body", "says"),
    [
        (b'{"from": -1}', '"from" is -1'),
        (b'{"from": 5, "to": 3}', '"to" is 3, before "from" (5)'),
        (b'{"from": "1"}', "Expected `int`, got `str`"),
        (b'{"views": "all"}', "Invalid enum value 'all'"),
        (b'{"from": 1, "from": 2}', 'gives the key "from" twice'),
        (b'{"frm": 1}', "unknown field `frm`"),
        (b"\xff", "not valid JSON"),
    ],
)
async def test_a_bad_replay_request_is_a_bad_request_saying_what_is_wrong(ann, bob, body, says):
    table = await new_table(ann, bob)
    reply = await ann.ask(subjects.replay(GAME, table, ann.name), body)
    assert refused(reply, "bad_request", says), reply


async def test_a_command_giving_a_key_twice_is_a_bad_command_and_changes_nothing(ann, bob):
    table = await new_table(ann, bob, start=False)
    body = b'{"id": "twice", "type": "start", "type": "join"}'
    reply = await ann.ask(subjects.cmd(GAME, table, ann.name), body)
    assert reply == {
        "ok": False,
        "error": {
            "code": "bad_command",
            "message": 'The command gives the key "type" twice; give each key once.',
        },
    }
    assert (await ann.ask(subjects.view(GAME, table, ann.name), b"{}"))["version"] == 2
    assert (await ann.command(table, {"type": "start"}))["version"] == 3  # ann may still start


async def test_a_session_request_giving_a_key_twice_is_a_bad_request(ann):
    reply = await ann.ask(subjects.session(ann.name), b'{"revoke": "ts1.a", "revoke": "ts1.b"}')
    assert reply["ok"] is False and reply["error"]["code"] == "bad_request", reply


# --- next, always -----------------------------------------------------------------------------


async def test_lobby_pages_always_carry_next_a_cursor_then_null(ann, bob):
    tables = {await new_table(ann, bob, start=False) for _ in range(3)}
    seen: list[str] = []
    after = None
    for _ in range(1000):  # one table a page, down to the oldest open table
        request = {"limit": 1, "status": "open"} | ({"after": after} if after else {})
        page = await ann.ask(subjects.lobby(GAME), msgspec.json.encode(request))
        assert set(page) == {"game", "tables", "next"}, page
        seen += [t["table"] for t in page["tables"]]
        after = page["next"]
        if after is None:
            break
        assert isinstance(after, str) and after.endswith(f"|{seen[-1]}")
    assert after is None and tables <= set(seen) and len(seen) == len(set(seen))
    whole = await ann.ask(subjects.lobby(GAME), b'{"status": "open", "limit": 100}')
    assert whole["next"] is None or len(whole["tables"]) == 100


async def test_a_replays_last_page_says_next_null(ann, bob):
    table = await new_table(ann, bob)
    page = await ann.ask(subjects.replay(GAME, table, ann.name), b'{"views": "none"}')
    assert page["next"] is None and [s["version"] for s in page["steps"]] == [1, 2, 3]
    assert (await ann.ask(subjects.replay(GAME, table, ann.name), b'{"from": 9}')) == {
        "steps": [],
        "next": None,
    }
    first = await ann.ask(subjects.replay(GAME, table, ann.name), b'{"to": 1}')
    assert first["next"] is None and [s["version"] for s in first["steps"]] == [1]


# --- what the docs say of guests, ids and refusals ---------------------------------------------


async def test_a_guest_named_by_itself_gets_answers_a_nameless_one_only_updates(nats_url, services):
    named = await Player.connect(nats_url, unique("guest-"), password="")
    try:
        assert "tables" in await named.ask(subjects.lobby(GAME), b"{}")
    finally:
        await named.close()
    nameless = await Player.connect(nats_url, None)
    try:
        # its name, and so its inbox `_INBOX_guest-<random>`, is the server's secret: the
        # default inbox is refused, and no request of it is answered
        with pytest.raises(nats.errors.TimeoutError):
            await nameless.ask(subjects.lobby(GAME), b"{}", timeout=1)
        await until(lambda: any('subscription to "_inbox.' in r.lower() for r in nameless.refusals))
        updates = await nameless.nc.subscribe(subjects.update(GAME, "t1", subjects.SPECTATOR))
        await nameless.nc.flush()
        assert not any("update" in r for r in nameless.refusals)
        await updates.unsubscribe()
    finally:
        await nameless.close()


async def test_a_refused_commands_id_is_not_spent(ann, bob):
    table = await new_table(ann, bob, start=False)
    refused_start = {"id": "first-try", "type": "start"}
    body = msgspec.json.encode(refused_start)
    reply = await bob.ask(subjects.cmd(GAME, table, bob.name), body)
    assert reply["error"]["code"] == "not_creator"
    # the same id serves again, for the same command by its creator or for another command
    assert await ann.ask(subjects.cmd(GAME, table, ann.name), body) == {"ok": True, "version": 3}
    again = await bob.ask(subjects.cmd(GAME, table, bob.name), body)
    assert again["error"]["code"] == "id_reused"  # now it is spent: ann's start holds it


async def test_a_refused_publish_names_the_subject_the_player_used(ann, bob):
    """A player's refused command names what it published, never the partition subject the
    services' account maps commands to (docs/protocol.md, "Connecting and signing in")."""
    table = await new_table(ann, bob, start=False)
    inbox = ann.nc.new_inbox()
    answers = await ann.nc.subscribe(inbox)
    sent = subjects.cmd(GAME, table, bob.name)
    await ann.nc.publish(sent, b'{"id": "x", "type": "leave"}', reply=inbox)
    notice = f'permissions violation for publish to "{sent}"'.lower()
    await until(lambda: any(notice in r.lower() for r in ann.refusals))
    assert not any("cmdp" in r for r in ann.refusals)
    await ann.nc.flush()
    assert not answers.pending_msgs
    view = await bob.ask(subjects.view(GAME, table, bob.name), b"{}")
    assert view["version"] == 2 and bob.name in view["view"]["seats"]


async def test_a_game_served_elsewhere_is_left_to_its_workers(bus, ann, services):
    """A worker of a game that the answering process does not know (another deployment's
    extra game) speaks on `tabletop.workers.<game>`: its commands are left to it, never
    answered `unknown_game` beside its own answer; once it is silent, they are."""
    game = unique("extra")
    taken: list[bytes] = []
    heard = asyncio.Event()

    async def worker_of_that_game(message: Incoming) -> None:
        taken.append(message.data)  # takes the command, and answers nothing

    async def own_word(message: Incoming) -> None:
        heard.set()

    # a game the server's config does not map: its workers take its commands as sent
    await bus.subscribe(subjects.cmd_all(game), worker_of_that_game)
    await bus.subscribe(subjects.workers(game), own_word)
    speaking = asyncio.Event()

    async def speak() -> None:  # as a worker replica does, every HEARTBEAT
        while not speaking.is_set():
            await bus.publish(subjects.workers(game), b"elsewhere alive")
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(speaking.wait(), HEARTBEAT)

    speaker = asyncio.create_task(speak())
    body = msgspec.json.encode({"id": "c1", "type": "join"})
    try:
        await heard.wait()
        with pytest.raises(nats.errors.TimeoutError):
            await ann.ask(subjects.cmd(game, "t1", ann.name), body, timeout=1.5)
        assert taken == [body]
    finally:
        speaking.set()
        await speaker

    async def answered() -> dict[str, Any] | None:
        with contextlib.suppress(nats.errors.TimeoutError):
            return await ann.ask(subjects.cmd(game, "t1", ann.name), body, timeout=1)
        return None

    assert refused(await until(answered, timeout=SILENCE + 10), "unknown_game")


def test_which_games_are_served():
    games = UnknownGames({"naishi"}, silence=3.0)
    assert games.served("naishi") and not games.served("chess")
    games.heard["chess"] = time.monotonic()
    assert games.served("chess")
    games.heard["chess"] = time.monotonic() - 3.0
    assert not games.served("chess")
