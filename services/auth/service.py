"""The auth callout: NATS sends every sign-in that is not a service's here; we answer with a
user JWT for the PLAYERS account carrying that player's exact permissions, or with a refusal.
The same service answers the players' session requests (services/auth/sessions.py)."""

from __future__ import annotations

import asyncio
import secrets
import time
from typing import Literal

import nkeys
import structlog
from argon2 import PasswordHasher

from services import VERSION
from services.auth.accounts import ACCOUNTS_BUCKET, Accounts
from services.auth.admission import (
    PERIOD,
    REGISTRATIONS_BUCKET,
    TRUST_FOR,
    TRUSTED_BUCKET,
    Attempt,
    Gate,
    HashPool,
    Limits,
    RefusalTally,
    Refused,
)
from services.auth.claims import AuthorizationRequest, BadToken, read_request, response_jwt, user_jwt
from services.auth.permissions import guest_permissions, player_permissions
from services.auth.sessions import SESSIONS_BUCKET, TOKEN_USER_SUFFIX, SessionDesk, Sessions
from shared.background import Background
from shared.bus.connection import Bus, Incoming
from shared.bus.credentials import GUEST, PLAYERS_ACCOUNT
from shared.bus.errors import Unavailable
from shared.messages import subjects
from shared.metrics import SignInMetrics

log = structlog.get_logger("tabletop.auth")
CALLOUT_SUBJECT = "$SYS.REQ.USER.AUTH"
# Replicas share the requests: each sign-in is decided by one, and any one left decides them all.
CALLOUT_QUEUE = "tabletop-auth"
SERVICE_NAME = "tabletop-auth"
# Subscriptions one player's connection may hold: a few per table it follows.
MAX_PLAYER_SUBSCRIPTIONS = 1000


def _guest_name(user: str, password: str) -> str | None:
    """The guest name of a sign-in without a password, else None: the one it gave
    (`guest-4f2a...`), or a fresh `guest-<random>` of its own when it gave none (or just
    `guest`), so that no two guests share a reply inbox."""
    if password:
        return None
    if not user or user.lower() == GUEST:
        return f"{GUEST}-{secrets.token_hex(8)}"
    return user if user.lower().startswith(GUEST) and subjects.is_id(user) else None


class CountingHasher(PasswordHasher):
    """argon2id, counting the hashes it computes (`nats micro stats tabletop-auth`)."""

    hashes = 0

    def hash(self, password: str | bytes, *, salt: bytes | None = None) -> str:
        self.hashes += 1
        return super().hash(password, salt=salt)

    def verify(self, hash: str | bytes, password: str | bytes) -> Literal[True]:
        self.hashes += 1
        return super().verify(hash, password)


class Callout:
    def __init__(
        self, accounts: Accounts, issuer_seed: str, sessions: Sessions, tally: RefusalTally | None = None
    ) -> None:
        self.accounts = accounts
        self.sessions = sessions
        self.signer = nkeys.from_seed(issuer_seed.encode())
        self.pending = Background()
        self.tally = tally or RefusalTally()
        self.metrics = SignInMetrics()

    async def decide(self, request: AuthorizationRequest, attempt: Attempt) -> str:
        """The signed response to one request."""
        user = request.connect_opts.user
        password = request.connect_opts.password
        guest = _guest_name(user, password)
        if request.connect_opts.auth_token:  # a session token: no password hash to compute
            try:
                player = await self.sessions.check(request.connect_opts.auth_token)
            except (Refused, Unavailable) as refusal:  # Unavailable: JetStream (re)starting
                reason = getattr(refusal, "reason", "unavailable")
                self.tally.refused(reason, attempt.host)
                self.metrics.answered(reason)
                return response_jwt(request, self.signer, error=str(refusal))
            publish, subscribe = player_permissions(player)
            name = player + TOKEN_USER_SUFFIX
            log.info("signed_in_with_session", name=player, host=request.client_info.host)
            self.metrics.answered("session")
        elif guest is not None:
            publish, subscribe = guest_permissions(guest)
            name = guest
            log.info("guest_signed_in", name=guest, host=request.client_info.host)
            self.metrics.answered("guest")
        else:
            try:
                known = await self.accounts.sign_in(user, password, attempt)
            except Refused as refusal:  # counted, not logged one by one: a flood is many
                self.tally.refused(refusal.reason, attempt.host)
                self.metrics.answered(refusal.reason)
                return response_jwt(request, self.signer, error=str(refusal))
            publish, subscribe = player_permissions(user)
            name = user
            outcome = "signed_in" if known else "registered"
            log.info(outcome, name=user, host=request.client_info.host)
            self.metrics.answered(outcome)
        token = user_jwt(
            name=name,
            user_nkey=request.user_nkey,
            account=PLAYERS_ACCOUNT,
            pub=publish,
            sub=subscribe,
            signer=self.signer,
            max_subscriptions=MAX_PLAYER_SUBSCRIPTIONS,
        )
        return response_jwt(request, self.signer, user=token)

    async def answer(self, message: Incoming, arrived: float) -> None:
        try:
            claims = read_request(message.data)
        except BadToken as err:  # not from our server: nobody to answer
            log.warning("bad_auth_request", error=str(err))
            return
        request = claims.nats
        attempt = Attempt.arriving(request.client_info.host, claims.iat, claims.exp, arrived=arrived)
        try:
            response = await self.decide(request, attempt)
        except Exception as err:  # refuse, say why in the log, keep serving
            log.exception("auth_failed")
            self.metrics.answered("error")
            response = response_jwt(request, self.signer, error=f"auth service error: {type(err).__name__}")
        await message.respond(response.encode())

    async def on_request(self, message: Incoming) -> None:
        # Each request in its own task: hashing takes a while, and a throttled name must not
        # hold up anyone else's sign-in.
        self.pending.start(self.answer(message, time.monotonic()))


async def serve_auth(bus: Bus, stop: asyncio.Event, *, issuer_seed: str, session_key: str) -> Callout:
    """Answer the server's authorization requests and the players' session requests until
    `stop` is set. `bus` is connected as the `auth` user of the AUTH account, where the
    accounts and sessions buckets live."""
    settings = bus.settings
    store = await bus.bucket(ACCOUNTS_BUCKET, description="tabletop: players' accounts")
    lifetime = settings.session_lifetime
    session_store = await bus.bucket(SESSIONS_BUCKET, description="tabletop: players' sessions", ttl=lifetime)
    hasher = CountingHasher(
        memory_cost=settings.password_hash_memory_kib, time_cost=settings.password_hash_passes
    )
    pool = HashPool(threads=settings.auth_hash_threads, queue=settings.auth_hash_queue)
    trusted = await bus.bucket(
        TRUSTED_BUCKET, description="tabletop: which addresses signed in to which names", ttl=TRUST_FOR
    )
    registered = await bus.bucket(
        REGISTRATIONS_BUCKET, description="tabletop: registrations of the last minute", ttl=PERIOD
    )
    gate = Gate(Limits.of(settings), pool, trusted, registered)
    accounts = Accounts(store, hasher=hasher, gate=gate)
    upgraded = await accounts.upgrade_keys(await store.entries())
    if upgraded:
        log.info("account_keys_upgraded", accounts=upgraded)
    sessions = Sessions(session_store, session_key, lifetime=lifetime)
    tally = RefusalTally(settings.auth_log_interval)
    callout = Callout(accounts, issuer_seed, sessions, tally)
    sub = await bus.subscribe(CALLOUT_SUBJECT, callout.on_request, queue=CALLOUT_QUEUE)
    tallying = asyncio.create_task(tally.run(stop))
    service = await bus.add_service(
        name=SERVICE_NAME,
        version=VERSION,
        description="tabletop: players' session tokens",
        endpoints=[("session", subjects.SESSION_ALL, SERVICE_NAME, SessionDesk(sessions, accounts).handle)],
        stats=lambda: {"password_hashes": hasher.hashes, **sessions.counts},
    )
    log.info("auth_ready")
    try:
        await stop.wait()
    finally:
        await service.stop()
        await sub.unsubscribe()
        await callout.pending.finish(timeout=5)
        tallying.cancel()
        tally.flush()
        pool.close()
    return callout
