"""Identity and access over the real server, configured as `tabletop up` configures it.

The attacker, mallory, is a signed-in player with nothing but a NATS client (nats-py straight,
not our Bus). Every attempt is refused by the broker itself; afterwards the log is unchanged,
the stream and buckets are there, and the honest players go on being served."""

from __future__ import annotations

import asyncio
import stat
import time
import uuid
from collections.abc import AsyncIterator

import msgspec
import nats
import nats.errors
import pytest
from nats.aio.client import Client as NATS
from nats.aio.subscription import Subscription

from services.auth.accounts import ACCOUNTS_BUCKET
from services.auth.names import name_key
from services.client import Client
from shared.bus.connection import Bucket, Bus
from shared.bus.credentials import SERVICE_ROLES, Credentials, inbox_prefix
from shared.bus.errors import Forbidden, SignInRefused
from shared.messages import subjects
from shared.settings import load_settings
from tests.waiting import within

GAME = "highcard"
# the embedded server configured like `tabletop up`: these tests sign in as its roles
pytestmark = pytest.mark.usefixtures("embedded_only")


def unique(prefix: str) -> str:
    return f"{prefix}{uuid.uuid4().hex[:10]}"


async def sign_in(url: str, name: str, password: str) -> Bus:
    return await Bus.connect(
        url, load_settings(), name=f"test-{name}", wait=10, credentials=Credentials.player(name, password)
    )


async def until(condition) -> bool:
    """Whether `condition()` holds within 5 s (the broker's refusals come asynchronously,
    sometimes after later traffic)."""
    return bool(await within(condition, 5.0))


class Attacker:
    """A raw NATS connection of a signed-in player, recording what the broker refuses."""

    def __init__(self, nc: NATS, refusals: list[str]) -> None:
        self.nc = nc
        self.refusals = refusals

    @classmethod
    async def connect(cls, url: str, name: str, password: str) -> Attacker:
        refusals: list[str] = []

        async def on_error(err: Exception) -> None:
            refusals.append(str(err))

        nc = await nats.connect(
            url,
            user=name,
            password=password,
            inbox_prefix=inbox_prefix(name),
            error_cb=on_error,
            allow_reconnect=False,
            name="mallory",
        )
        return cls(nc, refusals)

    def refused(self, kind: str, subject: str) -> bool:
        # nats-py lowercases the server's whole notice, the subject included; a command is
        # refused under the subject the account maps it to
        wanted = {
            f'permissions violation for {kind} to "{s}"'.lower()
            for s in (subject, subjects.as_mapped(subject))
        }
        return any(w in r.lower() for r in self.refusals for w in wanted)

    async def publish(self, subject: str, body: bytes = b"{}") -> bool:
        """Publish with a reply inbox; True once the broker refused it (never answered)."""
        inbox = self.nc.new_inbox()
        answers = await self.nc.subscribe(inbox)
        await self.nc.publish(subject, body, reply=inbox)
        refused = await until(lambda: self.refused("Publish", subject))
        await self.nc.flush()
        assert not answers.pending_msgs, f"{subject} was answered"
        await answers.unsubscribe()
        return refused

    async def subscribe(self, subject: str, queue: str = "") -> tuple[bool, list[bytes]]:
        """Subscribe; (refused by the broker, the messages it got meanwhile)."""
        got: list[bytes] = []

        async def keep(msg) -> None:
            got.append(msg.data)

        await self.nc.subscribe(subject, queue=queue, cb=keep)
        return await until(lambda: self.refused("Subscription", subject)), got

    async def close(self) -> None:
        await self.nc.close()


class Table:
    """A running High Card table of two honest players, ann and bob, each signed in."""

    def __init__(self, table: str, ann: Client, bob: Client) -> None:
        self.id, self.ann, self.bob = table, ann, bob
        self.names = (ann.bus.nc.options["user"], bob.bus.nc.options["user"])


@pytest.fixture
async def table(nats_url, services) -> AsyncIterator[Table]:
    ann_name, bob_name = unique("ann"), unique("bob")
    ann = Client(await sign_in(nats_url, ann_name, "ann's long password"))
    bob = Client(await sign_in(nats_url, bob_name, "bob's long password"))
    table = unique("t")
    assert (
        await ann.command(GAME, table, ann_name, {"type": "create", "options": {"hand_size": 2}, "seats": 2})
    )["ok"]
    assert (await bob.command(GAME, table, bob_name, {"type": "join"}))["ok"]
    assert (await ann.command(GAME, table, ann_name, {"type": "start"}))["ok"]
    await ann.wait_view(GAME, table, ann_name, 3)
    yield Table(table, ann, bob)
    await ann.bus.close()
    await bob.bus.close()


@pytest.fixture
async def mallory(nats_url) -> AsyncIterator[Attacker]:
    name = unique("mallory")
    await (await sign_in(nats_url, name, "mallory's password")).close()  # registered
    attacker = await Attacker.connect(nats_url, name, "mallory's password")
    yield attacker
    await attacker.close()


async def follow(bus: Bus, subject: str) -> tuple[asyncio.Queue[bytes], Subscription]:
    """Subscribe (confirmed by the server on return) and queue what arrives."""
    queue: asyncio.Queue[bytes] = asyncio.Queue()

    async def keep(message) -> None:
        await queue.put(message.data)

    return queue, await bus.subscribe(subject, keep)


async def log_of(bus: Bus, table: str) -> list[tuple[int, bytes]]:
    return [(m.seq, m.data) for m in await bus.events.read(GAME, table)]


async def honest_players_are_served(t: Table) -> None:
    """Both seats can still play a card, and their views follow."""
    ann_name, bob_name = t.names
    version = 0
    for client, name in ((t.ann, ann_name), (t.bob, bob_name)):
        view = await client.wait_view(GAME, t.id, name, 3)
        reply = await client.command(GAME, t.id, name, {"type": "play_card", "card": view["view"]["hand"][0]})
        assert reply["ok"], reply
        version = reply["version"]
    assert (await t.ann.wait_view(GAME, t.id, ann_name, version))["version"] >= version


# --- every row of the attack table ------------------------------------------------------------


async def test_acting_for_another_seat_is_refused_and_the_log_is_unchanged(bus, table, mallory):
    ann_name, _ = table.names
    before = await log_of(bus, table.id)
    body = msgspec.json.encode({"id": uuid.uuid4().hex, "type": "play_card", "card": 1})
    assert await mallory.publish(subjects.cmd(GAME, table.id, ann_name), body)
    # nor under the subject commands are mapped to, whatever partition is named
    for partition in ("0", subjects.as_mapped(subjects.cmd(GAME, table.id, "x")).split(".")[3]):
        assert await mallory.publish(subjects.cmd_mapped(GAME, partition, table.id, ann_name), body)
    assert await log_of(bus, table.id) == before
    await honest_players_are_served(table)


async def test_a_player_never_sends_a_deadline_nor_acts_for_a_bot_or_zombie_seat(
    bus,
    table,
    mallory,
):
    ann_name, bob_name = table.names
    before = await log_of(bus, table.id)
    deadline = msgspec.json.encode({"id": uuid.uuid4().hex, "type": "deadline", "expect": 3})
    play_for = msgspec.json.encode(
        {
            "id": uuid.uuid4().hex,
            "type": "play_for",
            "seat": bob_name,
            "command": {"type": "play_card", "card": 1},
        }
    )
    # the broker refuses acting as the service or the bot service, and the deadlines' subjects
    assert await mallory.publish(subjects.cmd(GAME, table.id, "tabletop"), deadline)
    assert await mallory.publish(subjects.cmd(GAME, table.id, "bots"), play_for)
    assert await mallory.publish(subjects.deadline_due(GAME, table.id), b'{"version": 3}')
    assert await mallory.publish(subjects.deadline_set(GAME, table.id, 3), b'{"version": 3}')
    # the worker refuses them sent under a player's own name
    reply = await table.ann.command(GAME, table.id, ann_name, {"type": "deadline"})
    assert reply["error"]["code"] == "not_allowed"
    reply = await table.ann.command(
        GAME,
        table.id,
        ann_name,
        {"type": "play_for", "seat": bob_name, "command": {"type": "play_card", "card": 1}},
    )
    assert reply["error"]["code"] == "not_allowed"
    assert await log_of(bus, table.id) == before
    # a player who quit cannot act for the seat the bots now play
    assert (await table.bob.command(GAME, table.id, bob_name, {"type": "quit"}))["ok"]
    view = await table.bob.wait_view(GAME, table.id, bob_name, 4)
    reply = await table.bob.command(
        GAME, table.id, bob_name, {"type": "play_card", "card": view["view"]["hand"][0]}
    )
    assert reply["error"]["code"] == "seat_played_by_bot"
    assert len(await log_of(bus, table.id)) == len(before) + 1  # the quit alone


async def test_another_seats_view_and_replay_are_refused(table, mallory):
    ann_name, _ = table.names
    assert await mallory.publish(subjects.view(GAME, table.id, ann_name))
    assert await mallory.publish(subjects.replay(GAME, table.id, ann_name), b'{"from": 0, "to": null}')
    await honest_players_are_served(table)


@pytest.mark.parametrize(
    "pattern",
    [
        "tabletop.update.>",
        "tabletop.update.*.*.{ann}",
        "tabletop.cmd.>",
        "tabletop.view.>",
        "_INBOX.>",
        "_INBOX_{ann}.>",
        ">",
    ],
)
async def test_following_others_updates_commands_or_replies_is_refused(table, mallory, pattern):
    ann_name, _ = table.names
    refused, got = await mallory.subscribe(pattern.format(ann=ann_name))
    assert refused
    await honest_players_are_served(table)
    await mallory.nc.flush()
    assert got == []


@pytest.mark.parametrize(
    "subject",
    [
        f"$JS.API.DIRECT.GET.{subjects.STREAM}",
        f"$JS.API.STREAM.MSG.GET.{subjects.STREAM}",
        f"$JS.API.STREAM.INFO.{subjects.STREAM}",
        "$JS.API.INFO",
        "$JS.API.STREAM.LIST",
        f"$JS.API.CONSUMER.CREATE.{subjects.STREAM}",
        f"$JS.API.DIRECT.GET.KV_{subjects.VIEWS_BUCKET}",
        f"$KV.{subjects.VIEWS_BUCKET}.view.x.y.z",
        # the workers' snapshots hold every hand of a table: players neither read nor write them
        f"$JS.API.DIRECT.GET.KV_{subjects.SNAPSHOTS_BUCKET}",
        f"$KV.{subjects.SNAPSHOTS_BUCKET}.highcard.x",
        "$SRV.PING",
        "$SYS.REQ.USER.AUTH",
    ],
)
async def test_reading_the_log_or_the_jetstream_api_is_refused(table, mallory, subject):
    assert await mallory.publish(subject, b'{"last_by_subj": "tabletop.evt.highcard.x"}')


async def test_subscribing_to_the_log_is_refused(table, mallory):
    refused, got = await mallory.subscribe(subjects.EVT_ALL)
    assert refused
    await honest_players_are_served(table)
    assert got == []


async def test_a_forged_event_cannot_be_appended(bus, table, mallory):
    ann_name, _ = table.names
    before = await log_of(bus, table.id)
    forged = msgspec.json.encode(
        {
            "game": GAME,
            "table": table.id,
            "version": len(before) + 1,
            "command_id": "x",
            "player": "mallory",
            "at": "2026-01-01T00:00:00Z",
            "events": [{"type": "player_joined", "player": "mallory"}],
        }
    )
    assert await mallory.publish(subjects.evt(GAME, table.id), forged)
    gap = msgspec.json.encode({**msgspec.json.decode(forged), "version": len(before) + 50})
    assert await mallory.publish(subjects.evt(GAME, table.id), gap)
    assert await log_of(bus, table.id) == before
    view = await table.ann.view(GAME, table.id, ann_name)
    assert "mallory" not in view["view"]["seats"]
    await honest_players_are_served(table)


async def test_a_forged_event_naming_another_table_cannot_be_appended(bus, table, mallory):
    other = unique("t")
    before = await log_of(bus, table.id)
    forged = msgspec.json.encode(
        {
            "game": GAME,
            "table": other,
            "version": 1,
            "command_id": "x",
            "player": "mallory",
            "at": "2026-01-01T00:00:00Z",
            "events": [{"type": "table_created", "creator": "mallory"}],
        }
    )
    assert await mallory.publish(subjects.evt(GAME, table.id), forged)
    assert await log_of(bus, table.id) == before
    assert await log_of(bus, other) == []
    await honest_players_are_served(table)


async def test_joining_the_workers_queue_group_is_refused(bus, table, mallory):
    refused, got = await mallory.subscribe(subjects.cmd_all(GAME), queue=f"tabletop-worker-{GAME}")
    assert refused
    before = await log_of(bus, table.id)
    await honest_players_are_served(table)  # every command answered by the worker
    after = await log_of(bus, table.id)
    assert len(after) == len(before) + 2
    assert got == []


async def test_forging_a_reply_into_anothers_inbox_is_refused(table, mallory):
    ann_name, _ = table.names
    assert await mallory.publish(f"{inbox_prefix(ann_name)}.forged", b'{"ok": true, "version": 99}')


async def test_deleting_the_bucket_or_the_stream_is_refused_and_both_survive(bus, table, mallory):
    for subject in (
        f"$JS.API.STREAM.DELETE.KV_{subjects.VIEWS_BUCKET}",
        f"$JS.API.STREAM.DELETE.{subjects.STREAM}",
        f"$JS.API.STREAM.PURGE.{subjects.STREAM}",
    ):
        assert await mallory.publish(subject)
    assert (await bus.js.stream_info(subjects.STREAM)).config.name == subjects.STREAM
    assert (await bus.js.stream_info(f"KV_{subjects.VIEWS_BUCKET}")) is not None
    await honest_players_are_served(table)


async def test_browsers_sign_in_over_websocket_bound_by_the_same_permissions(secure_server, table):
    ann_name, bob_name = table.names
    url = secure_server.websocket_url
    assert url.startswith("ws://127.0.0.1:")  # plain only on loopback
    browser = Client(
        await Bus.connect(
            url,
            load_settings(),
            name="test-browser",
            wait=10,
            credentials=Credentials.player(ann_name, "ann's long password"),
        )
    )
    try:
        assert (await browser.view(GAME, table.id, ann_name))["view"]["hand"]
        with pytest.raises(Forbidden):
            await browser.view(GAME, table.id, bob_name)
    finally:
        await browser.bus.close()
    with pytest.raises(SignInRefused):
        await Bus.connect(
            url,
            load_settings(),
            name="test-browser",
            wait=10,
            credentials=Credentials.player(bob_name, "not bob's password"),
        )


# --- what players and guests may do -----------------------------------------------------------


async def test_a_player_sees_its_own_and_the_spectator_view_acts_and_follows_itself(table):
    ann_name, bob_name = table.names
    ann = table.ann
    own = await ann.view(GAME, table.id, ann_name)
    assert len(own["view"]["hand"]) == 2
    spectator = await ann.view(GAME, table.id)
    assert not spectator["view"].get("hand")
    assert await ann.replay(GAME, table.id, ann_name)
    assert await ann.replay(GAME, table.id)
    own_updates, own_sub = await follow(ann.bus, subjects.update(GAME, table.id, ann_name))
    spectator_updates, spectator_sub = await follow(
        ann.bus, subjects.update(GAME, table.id, subjects.SPECTATOR)
    )
    reply = await ann.command(GAME, table.id, ann_name, {"type": "play_card", "card": own["view"]["hand"][0]})
    assert reply["ok"]
    for updates in (own_updates, spectator_updates):
        pushed = msgspec.json.decode(await asyncio.wait_for(updates.get(), 10))
        assert pushed["version"] == reply["version"]
    await own_sub.unsubscribe()
    await spectator_sub.unsubscribe()
    with pytest.raises(Forbidden):
        await ann.view(GAME, table.id, bob_name)
    bobs = subjects.update(GAME, table.id, bob_name)
    await follow(ann.bus, bobs)
    assert await until(lambda: ann.bus.denied(bobs, "Subscription"))


async def test_a_guest_watches_but_cannot_act(nats_url, table):
    ann_name, _ = table.names
    guest = Client(
        await Bus.connect(
            nats_url,
            load_settings(),
            name="test-guest",
            wait=10,
            credentials=Credentials.guest(unique("guest")),
        )
    )
    try:
        assert table.id in [t["table"] for t in (await guest.lobby(GAME))["tables"]]
        assert (await guest.view(GAME, table.id))["version"] >= 3
        assert await guest.replay(GAME, table.id)
        updates, sub = await follow(guest.bus, subjects.update(GAME, table.id, subjects.SPECTATOR))
        await honest_players_are_served(table)
        assert msgspec.json.decode(await asyncio.wait_for(updates.get(), 10))["version"] > 3
        await sub.unsubscribe()
        with pytest.raises(Forbidden):
            await guest.command(GAME, table.id, "guest", {"type": "join"})
        with pytest.raises(Forbidden):
            await guest.view(GAME, table.id, ann_name)
    finally:
        await guest.bus.close()


async def test_a_wrong_password_is_refused(nats_url):
    name = unique("carol")
    await (await sign_in(nats_url, name, "carol's password")).close()
    with pytest.raises(SignInRefused):
        await sign_in(nats_url, name, "not carol's password")
    await (await sign_in(nats_url, name, "carol's password")).close()


async def test_repeated_failures_for_one_name_are_slowed_down(nats_url):
    name = unique("dave")
    await (await sign_in(nats_url, name, "dave's password")).close()
    for _ in range(3):
        with pytest.raises(SignInRefused):
            await sign_in(nats_url, name, "a wrong guess")
    # now even the right password waits its turn...
    with pytest.raises(SignInRefused):
        await sign_in(nats_url, name, "dave's password")
    # ...while another name signs in at once
    await (await sign_in(nats_url, unique("erin"), "erin's password")).close()
    deadline = time.monotonic() + 30
    while True:
        try:
            await (await sign_in(nats_url, name, "dave's password")).close()
            break
        except SignInRefused:
            assert time.monotonic() < deadline, "the right password stayed refused"
            await asyncio.sleep(0.25)


@pytest.mark.parametrize(
    "name",
    [
        "spectator",
        "Spectator",
        "guest",
        "guest-7",
        "Guest_x",
        *SERVICE_ROLES,
        "no.dots",
        "a" * 65,
        "tabletop",
        "robot-1",
        "Robot-7",
    ],
)
async def test_reserved_or_malformed_names_are_refused(nats_url, name):
    with pytest.raises(SignInRefused):
        await sign_in(nats_url, name, "a perfectly fine password")


async def test_a_short_password_is_refused(nats_url):
    with pytest.raises(SignInRefused):
        await sign_in(nats_url, unique("frank"), "short")


async def test_passwords_are_never_stored_or_logged_in_clear(nats_url, secure_server):
    name, password = unique("grace"), f"clear-text-{uuid.uuid4().hex}"
    await (await sign_in(nats_url, name, password)).close()
    with pytest.raises(SignInRefused):
        await sign_in(nats_url, name, f"{password}-wrong")
    auth = await Bus.connect(
        nats_url,
        load_settings(),
        name="test-auth-scan",
        wait=10,
        credentials=secure_server.secrets.credentials("auth"),
    )
    try:
        entries = await (await Bucket.open(auth.js, ACCOUNTS_BUCKET)).entries()
    finally:
        await auth.close()
    account = msgspec.json.decode(entries[name_key(name)])
    assert account["name"] == name
    assert account["password_hash"].startswith("$argon2id$")
    secret = password.encode()
    for key, value in entries.items():
        assert secret not in value, key
    logs = [secure_server.auth_log, secure_server.server_log]
    deadline = time.monotonic() + 10
    while name.encode() not in secure_server.auth_log.read_bytes():  # the sign-in is logged
        assert time.monotonic() < deadline, "the auth service did not log the sign-in"
        await asyncio.sleep(0.05)
    for path in logs:
        assert secret not in path.read_bytes(), path


async def test_the_accounts_bucket_is_out_of_reach_of_the_app_account(bus):
    """Even the services' admin, in the APP account, does not see the players' accounts."""
    names = [info.config.name for info in await bus.js.streams_info()]
    assert subjects.STREAM in names
    assert f"KV_{ACCOUNTS_BUCKET}" not in names


def test_secrets_are_readable_by_their_owner_only(secure_server):
    folder = secure_server.secrets.folder
    assert stat.S_IMODE(folder.stat().st_mode) == 0o700
    for path in [*folder.iterdir(), secure_server.server_log.parent / "nats-server.conf"]:
        assert stat.S_IMODE(path.stat().st_mode) == 0o600, path


# --- names and guests --------------------------------------------------------------------------


async def test_a_name_is_one_name_whatever_its_case_or_look_alike_letters(nats_url):
    # letters only in the unique part: the look-alikes are added on purpose below
    alice = "alice" + "".join(chr(ord("a") + int(c, 16) % 8 + 10) for c in uuid.uuid4().hex[:8])
    await (await sign_in(nats_url, alice, "alice's password")).close()
    for other in (alice.capitalize(), alice.upper(), alice.replace("l", "I", 1), alice.replace("i", "1", 1)):
        # not registered, and signed in to nothing, even with alice's own password
        for password in (f"{other}'s password", "alice's password"):
            with pytest.raises(SignInRefused):
                await sign_in(nats_url, other, password)
    await (await sign_in(nats_url, alice, "alice's password")).close()


async def test_nameless_guests_each_get_a_name_and_an_inbox_of_their_own(nats_url, table):
    async def nameless(inbox: str) -> Attacker:
        refusals: list[str] = []

        async def on_error(err: Exception) -> None:
            refusals.append(str(err))

        nc = await nats.connect(nats_url, inbox_prefix=inbox, error_cb=on_error, allow_reconnect=False)
        return Attacker(nc, refusals)

    # two connections without a name, both using the inbox every nameless guest once shared
    shared = "_INBOX_guest"
    listener, asker = await nameless(shared), await nameless(shared)
    try:
        refused, overheard = await listener.subscribe(f"{shared}.>")
        assert refused  # its inbox is its own guest-<random> one, which it was not told
        await asker.nc.publish(subjects.lobby(GAME), b"{}", reply=f"{shared}.answer")
        await asker.nc.flush()
        await listener.nc.flush()
        assert overheard == []
    finally:
        await listener.close()
        await asker.close()
    # the project's guests name themselves afresh, so they know their inbox: each gets its own
    # answers, and no other's
    first, second = Credentials.guest(), Credentials.guest()
    assert first.user != second.user and first.inbox_prefix != second.inbox_prefix
    guests = [
        Client(await Bus.connect(nats_url, load_settings(), name="test-guest", wait=10, credentials=c))
        for c in (first, second)
    ]
    try:
        assert table.id in [t["table"] for t in (await guests[0].lobby(GAME))["tables"]]
        refused, overheard = await Attacker(guests[1].bus.nc, guests[1].bus.watch.denials).subscribe(
            f"{first.inbox_prefix}.>"
        )
        assert refused
        assert (await guests[0].view(GAME, table.id))["version"] >= 3
        assert overheard == []
    finally:
        for guest in guests:
            await guest.bus.close()
