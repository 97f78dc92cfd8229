"""Each service role may use only the subjects it needs (shared/bus/roles.py): over the real
server configured as `tabletop up` configures it, a subject outside a role's grant is refused
by the broker. The services themselves run signed in as their roles throughout the suite
(tests/platform/stack.py), so every grant is also shown to be enough."""

from __future__ import annotations

import uuid

import msgspec
import nats
import pytest
from nats.aio.client import Client as NATS

from services.client import Client, RequestFailed
from shared.bus.connection import Bus
from shared.bus.credentials import Credentials
from shared.messages import subjects
from shared.settings import load_settings
from tests.platform import test_security as security
from tests.platform.test_security import GAME, until

# the embedded server only (its roles sign in), and the security tests' running table
pytestmark = pytest.mark.usefixtures("embedded_only")
table = security.table

# (role, kind, subject): something each role never needs, with {t} a running table and {ann}
# one of its players.
OUTSIDE = [
    ("worker", "Publish", "$KV.TABLETOP_VIEWS.view.{game}.{t}.spectator"),
    ("worker", "Publish", "tabletop.update.{game}.{t}.{ann}"),
    ("worker", "Publish", f"$JS.API.STREAM.PURGE.{subjects.STREAM}"),
    ("worker", "Publish", f"$JS.API.STREAM.DELETE.{subjects.STREAM}"),
    ("worker", "Subscription", "tabletop.update.>"),
    ("projector", "Publish", "tabletop.evt.{game}.{t}"),
    ("projector", "Publish", "tabletop.cmd.{game}.{t}.{ann}"),
    ("projector", "Publish", "tabletop.timer.set.{game}.{t}.9"),
    ("projector", "Publish", f"$JS.API.STREAM.DELETE.{subjects.STREAM}"),
    ("projector", "Subscription", "tabletop.cmd.>"),
    ("history", "Publish", "tabletop.evt.{game}.{t}"),
    ("history", "Publish", "$KV.TABLETOP_VIEWS.view.{game}.{t}.spectator"),
    ("history", "Publish", "tabletop.update.{game}.{t}.{ann}"),
    ("history", "Subscription", "tabletop.view.>"),
    ("bots", "Publish", "tabletop.view.{game}.{t}.{ann}"),
    ("bots", "Publish", "tabletop.replay.{game}.{t}.{ann}"),
    ("bots", "Publish", "tabletop.cmd.{game}.{t}.{ann}"),
    ("bots", "Publish", "tabletop.evt.{game}.{t}"),
    ("bots", "Publish", "$KV.TABLETOP_VIEWS.view.{game}.{t}.{ann}"),
    ("bots", "Publish", f"$JS.API.DIRECT.GET.KV_{subjects.VIEWS_BUCKET}"),
    ("bots", "Subscription", "tabletop.update.*.*.{ann}"),
    ("bots", "Subscription", "tabletop.update.>"),
    # the workers' snapshots hold every hand of a table: only the workers write them, and only
    # they and the table projector (which reads the log) read them
    ("projector", "Publish", "$KV.TABLETOP_SNAPSHOTS.{game}.{t}"),
    ("projector", "Publish", "$JS.API.STREAM.PURGE.KV_TABLETOP_SNAPSHOTS"),
    ("history", "Publish", "$JS.API.DIRECT.GET.KV_TABLETOP_SNAPSHOTS"),
    ("bots", "Publish", "$KV.TABLETOP_SNAPSHOTS.{game}.{t}"),
    ("bots", "Publish", "$JS.API.DIRECT.GET.KV_TABLETOP_SNAPSHOTS"),
    ("worker", "Publish", "$JS.API.STREAM.PURGE.KV_TABLETOP_SNAPSHOTS"),
    ("auth", "Publish", "$JS.API.STREAM.DELETE.KV_TABLETOP_ACCOUNTS"),
    ("auth", "Publish", "$JS.API.STREAM.PURGE.KV_TABLETOP_ACCOUNTS"),
    ("auth", "Subscription", ">"),
]


async def connect_role(url: str, password: str, role: str) -> tuple[NATS, list[str]]:
    refusals: list[str] = []

    async def on_error(err: Exception) -> None:
        refusals.append(str(err).lower())

    nc = await nats.connect(url, user=role, password=password, error_cb=on_error, allow_reconnect=False)
    return nc, refusals


@pytest.mark.parametrize(("role", "kind", "pattern"), OUTSIDE)
async def test_a_subject_outside_a_roles_grant_is_refused(secure_server, table, role, kind, pattern):
    ann_name, _ = table.names
    subject = pattern.format(game=GAME, t=table.id, ann=ann_name)
    nc, refusals = await connect_role(secure_server.url, secure_server.secrets.password(role), role)
    wanted = {f'{kind} to "{s}"'.lower() for s in (subject, subjects.as_mapped(subject))}
    if kind == "Publish":
        await nc.publish(subject, b"{}", reply=nc.new_inbox())
    else:
        await nc.subscribe(subject)
    assert await until(lambda: any(w in r for r in refusals for w in wanted)), refusals
    await nc.close()


async def test_the_bot_service_sees_a_seat_only_while_a_bot_plays_it(secure_server, nats_url, table):
    ann_name, bob_name = table.names
    password = secure_server.secrets.password("bots")
    bots = Client(
        await Bus.connect(
            nats_url,
            load_settings(),
            name="test-bots",
            wait=10,
            credentials=Credentials(user="bots", password=password),
        )
    )
    try:
        with pytest.raises(RequestFailed) as refused:
            await bots.view(GAME, table.id, bob_name, bot_seat=True)
        assert refused.value.code == "not_allowed"
        with pytest.raises(RequestFailed) as malformed:
            await bots.view(GAME, table.id, "x.>", bot_seat=True)
        assert malformed.value.code == "bad_request"
        # bob quits: a bot plays his seat from then on, and the bot service sees it
        assert (await table.bob.command(GAME, table.id, bob_name, {"type": "quit"}))["ok"]
        await table.ann.wait_view(GAME, table.id, subjects.SPECTATOR, 4)  # the views' second wave
        own = await bots.wait_view(GAME, table.id, bob_name, 4, bot_seat=True)
        assert own["view"]["hand"] == (await table.bob.view(GAME, table.id, bob_name))["view"]["hand"]
        with pytest.raises(RequestFailed) as still_refused:
            await bots.view(GAME, table.id, ann_name, bot_seat=True)
        assert still_refused.value.code == "not_allowed"
        # and it acts for that seat alone
        play_for = {"type": "play_for", "seat": ann_name, "command": {"type": "play_card", "card": 1}}
        reply = await bots.command(GAME, table.id, "bots", {"id": uuid.uuid4().hex, **play_for})
        assert reply["error"]["code"] == "not_a_bot_seat", msgspec.json.encode(reply)
    finally:
        await bots.bus.close()
