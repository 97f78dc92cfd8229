"""Session tokens over the real server, configured as `tabletop up` configures it: a password
sign-in asks for a token, later connections present it and get exactly the player's
permissions at the cost of an HMAC and a bucket read, never an argon2 hash; forged, garbled,
expired and revoked tokens are refused; a password change revokes every token."""

from __future__ import annotations

import json
import time
import uuid
from collections.abc import AsyncIterator

import pytest

from services.auth.admission import Refused
from services.auth.sessions import Token, TokenSigner
from services.client import Client, RequestFailed
from shared.bus.connection import Bus
from shared.bus.credentials import Credentials
from shared.bus.errors import Forbidden, SignInRefused
from shared.messages import subjects
from shared.settings import load_settings

GAME = "highcard"
# the embedded server configured like `tabletop up`: these tests sign in as its roles
pytestmark = pytest.mark.usefixtures("embedded_only")


def unique(prefix: str) -> str:
    return f"{prefix}{uuid.uuid4().hex[:10]}"


async def connect(url: str, credentials: Credentials) -> Client:
    bus = await Bus.connect(url, load_settings(), name="test-session", wait=10, credentials=credentials)
    return Client(bus)


async def player(url: str, name: str, password: str = "a good password") -> Client:
    return await connect(url, Credentials.player(name, password))


async def new_token(url: str, name: str, password: str = "a good password") -> str:
    client = await player(url, name, password)
    try:
        reply = await client.session(name, {})
    finally:
        await client.bus.close()
    assert reply["expires"] > time.time() + 86400
    return str(reply["token"])


async def signs_in(url: str, name: str, token: str) -> bool:
    try:
        client = await connect(url, Credentials.session(name, token))
    except SignInRefused:
        return False
    await client.bus.close()
    return True


class AuthStats:
    """The auth service's counts (`$SRV.STATS.tabletop-auth`, in the AUTH account)."""

    def __init__(self, bus: Bus) -> None:
        self.bus = bus

    async def read(self) -> dict[str, int]:
        totals: dict[str, int] = {}
        for body in await self.bus.gather("$SRV.STATS.tabletop-auth", wait=0.5):
            for endpoint in json.loads(body)["endpoints"]:
                for key, value in (endpoint.get("data") or {}).items():
                    totals[key] = totals.get(key, 0) + value
        return totals


@pytest.fixture
async def auth_stats(nats_url, secure_server) -> AsyncIterator[AuthStats]:
    bus = await Bus.connect(
        nats_url,
        load_settings(),
        name="test-auth-stats",
        wait=10,
        credentials=secure_server.secrets.credentials("auth"),
    )
    yield AuthStats(bus)
    await bus.close()


async def test_a_token_signs_in_with_exactly_the_players_permissions(nats_url, services):
    ann, bob = unique("ann"), unique("bob")
    token = await new_token(nats_url, ann)
    await (await player(nats_url, bob)).bus.close()
    client = await connect(nats_url, Credentials.session(ann, token))
    try:
        table = unique("highcard-")
        reply = await client.command(GAME, table, ann, {"type": "create", "options": {}})
        assert reply["ok"], reply
        view = await client.wait_view(GAME, table, ann, reply["version"])
        assert view["view"]["seats"] == [ann]
        with pytest.raises(Forbidden):  # not bob, nor bob's sessions
            await client.command(GAME, table, bob, {"type": "join"})
        with pytest.raises(Forbidden):
            await client.view(GAME, table, bob)
        with pytest.raises(Forbidden):
            await client.session(bob, {})
    finally:
        await client.bus.close()


async def test_forged_garbled_and_expired_tokens_are_refused_without_a_bucket_read(
    nats_url, secure_server, auth_stats
):
    ann = unique("ann")
    token = await new_token(nats_url, ann)
    prefix, _, mac = token.rpartition(".")
    signer = TokenSigner(secure_server.secrets.session_key)
    session_id = token.split(".")[2]
    refused = [
        f"{prefix}.{mac[::-1]}",  # forged: another MAC
        token.replace(ann, unique("mallory"), 1),  # forged: another player under ann's MAC
        "hello",  # garbled
        token[:-3],
        signer.text(Token(ann, session_id, int(time.time()) - 1)),  # well signed, expired
    ]
    before = await auth_stats.read()
    for text in refused:
        assert not await signs_in(nats_url, ann, text), text
    after = await auth_stats.read()
    assert after.get("session_reads", 0) == before.get("session_reads", 0)
    # (a client may try a refused sign-in more than once)
    assert after["tokens_refused_unread"] - before.get("tokens_refused_unread", 0) >= len(refused)
    assert await signs_in(nats_url, ann, token)  # the real one still works


async def test_a_token_sign_in_runs_no_password_hash(nats_url, auth_stats):
    ann = unique("ann")
    token = await new_token(nats_url, ann)
    before = await auth_stats.read()
    for _ in range(5):
        assert await signs_in(nats_url, ann, token)
    after = await auth_stats.read()
    assert after["password_hashes"] == before["password_hashes"]
    assert after["session_reads"] - before["session_reads"] == 5
    await (await player(nats_url, ann)).bus.close()  # a password sign-in does hash: the count moves
    assert (await auth_stats.read())["password_hashes"] == after["password_hashes"] + 1


async def test_a_revoked_token_is_refused_after_a_bucket_read(nats_url, auth_stats):
    ann = unique("ann")
    kept, revoked = await new_token(nats_url, ann), await new_token(nats_url, ann)
    client = await connect(nats_url, Credentials.session(ann, revoked))
    try:
        assert (await client.session(ann, {"revoke": revoked}))["ok"]
    finally:
        await client.bus.close()
    before = await auth_stats.read()
    assert not await signs_in(nats_url, ann, revoked)
    after = await auth_stats.read()
    assert after["tokens_refused_revoked"] > before.get("tokens_refused_revoked", 0)
    assert after.get("tokens_refused_unread", 0) == before.get("tokens_refused_unread", 0)
    assert await signs_in(nats_url, ann, kept)


async def test_a_token_sign_in_cannot_make_new_tokens_nor_revoke_anothers(nats_url):
    ann, bob = unique("ann"), unique("bob")
    token, bobs = await new_token(nats_url, ann), await new_token(nats_url, bob)
    client = await connect(nats_url, Credentials.session(ann, token))
    try:
        with pytest.raises(RequestFailed) as refused:
            await client.session(ann, {})
        assert refused.value.code == "password_required"
        with pytest.raises(RequestFailed) as refused:
            await client.session(ann, {"revoke": bobs})
        assert refused.value.code == "refused"
        with pytest.raises(RequestFailed) as refused:
            await client.session(ann, {"revoke": "garbled"})
        assert refused.value.code == "refused"
        for body in ({"what": "x"}, {"revoke": 7}, {"password": "only the old one"}):
            with pytest.raises(RequestFailed) as refused:
                await client.session(ann, body)  # type: ignore[arg-type]
            assert refused.value.code == "bad_request"
    finally:
        await client.bus.close()
    assert await signs_in(nats_url, bob, bobs)


async def test_a_password_change_revokes_every_token(nats_url):
    ann, old, new = unique("ann"), "the old password", "the new password"
    tokens = [await new_token(nats_url, ann, old) for _ in range(3)]
    client = await connect(nats_url, Credentials.session(ann, tokens[0]))
    try:
        with pytest.raises(RequestFailed) as refused:  # the old password is checked first
            await client.session(ann, {"password": "a wrong guess", "new_password": new})
        assert refused.value.code == "refused"
        assert all([await signs_in(nats_url, ann, t) for t in tokens])
        reply = await client.session(ann, {"password": old, "new_password": new})
    finally:
        await client.bus.close()
    assert reply["revoked"] == 3
    for token in tokens:
        assert not await signs_in(nats_url, ann, token)
    assert await signs_in(nats_url, ann, reply["token"])
    with pytest.raises(SignInRefused):
        await player(nats_url, ann, old)
    await (await player(nats_url, ann, new)).bus.close()


def test_tokens_are_signed_and_say_who_and_until_when():
    signer = TokenSigner("k" * 43)
    token = Token("ann", "s3ss10n", 2_000_000_000)
    assert signer.read(signer.text(token)) == token
    assert TokenSigner("x" * 43).text(token) != signer.text(token)
    for garbled in ("", "ts1", "ts1.ann.s.1", "ts1.änn.s3ss10n.1.mäc", "ts2.ann.s.1.mac", "ts1.a.b.c.d.e"):
        with pytest.raises(Refused):
            signer.read(garbled)
    assert subjects.session("ann") == "tabletop.session.ann"


async def test_a_bucket_made_with_another_ttl_takes_the_new_one(bus):
    """The sessions bucket follows `TABLETOP_SESSION_LIFETIME` when the auth service starts."""
    name = unique("TEST_TTL_")
    try:
        await bus.bucket(name, description="a test", ttl=60.0)
        await bus.bucket(name, description="a test", ttl=120.0)
        assert (await bus.js.stream_info(f"KV_{name}")).config.max_age == 120.0
    finally:
        await bus.js.delete_key_value(name)
