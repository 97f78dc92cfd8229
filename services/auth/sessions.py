"""Session tokens: after a password sign-in a player asks for a signed, expiring, revocable
token, and later connections present it (the CONNECT `auth_token`) instead of the password.
Checking one costs an HMAC and a bucket read, never an argon2 hash.

A token reads `ts1.<player>.<session id>.<expires>.<mac>`: `expires` in unix seconds, `mac` the
HMAC-SHA256 of everything before it under the session key (a secret of the auth service). A
forged or garbled token is refused on its MAC alone, an expired one on its date; a well-signed
one is good while its session is in the sessions bucket (key `<player>.<session id>`, each entry
dropped by the bucket's TTL when it expires), so revoking is deleting that key.

Requests on `tabletop.session.<player>` (the broker lets a player publish only its own):
  `{}`                                      a new token (only from a password sign-in)
  `{"revoke": TOKEN}`                       that token is revoked (logging out)
  `{"password": OLD, "new_password": NEW}`  the password changed, every token of the player
                                            revoked, and a new token for the one who asked
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import secrets
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol

import msgspec
import structlog

from services.auth.accounts import Accounts
from services.auth.admission import Attempt, Refused
from shared.background import Background
from shared.bus.connection import Incoming, answering_failures
from shared.messages import subjects
from shared.messages.envelopes import duplicate_key

log = structlog.get_logger("tabletop.auth.sessions")
SESSIONS_BUCKET = "TABLETOP_SESSIONS"
TOKEN_VERSION = "ts1"
# Sessions one player may hold at once (devices, terminals): asking for another drops the
# oldest, so that nobody can fill the bucket.
MAX_SESSIONS = 50
# A connection signed in with a token is named so on the server (the JWT's name), which is how
# the session service, told who asks by the server (`Nats-Request-Info`), refuses to make new
# tokens from a token: a stolen token can neither outlive its expiry nor survive a password change.
TOKEN_USER_SUFFIX = "#session"
REQUEST_INFO = "Nats-Request-Info"
MAX_BODY = 4096


class Session(msgspec.Struct, frozen=True, kw_only=True):
    player: str
    created: float
    expires: int


@dataclass(frozen=True)
class Token:
    player: str
    session_id: str
    expires: int

    @property
    def key(self) -> str:
        return f"{self.player}.{self.session_id}"


class Store(Protocol):
    async def get(self, key: str) -> bytes | None: ...
    async def create(self, key: str, value: bytes) -> bool: ...
    async def delete(self, key: str) -> None: ...
    async def entries(self, pattern: str = ">") -> dict[str, bytes]: ...


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


class TokenSigner:
    """Makes and reads the text of tokens, with the session key; no I/O."""

    def __init__(self, key: str) -> None:
        if len(key) < 16:
            raise ValueError("the session key is too short (want 32 random bytes, base64)")
        self.key = key.encode()

    def _mac(self, body: str) -> str:
        return _b64(hmac.new(self.key, body.encode(), hashlib.sha256).digest())

    def text(self, token: Token) -> str:
        body = f"{TOKEN_VERSION}.{token.player}.{token.session_id}.{token.expires}"
        return f"{body}.{self._mac(body)}"

    def read(self, text: str) -> Token:
        """The token `text` names if its MAC is ours; `Refused` otherwise."""
        parts = text.split(".")
        if len(parts) != 5 or parts[0] != TOKEN_VERSION:
            raise Refused("garbled session token")
        body, mac = text.rpartition(".")[::2]
        if not hmac.compare_digest(self._mac(body).encode(), mac.encode()):  # any text, in bytes
            raise Refused("session token not signed by us")
        _, player, session_id, expires = parts[:4]
        if not (subjects.is_id(player) and subjects.is_id(session_id) and expires.isdigit()):
            raise Refused("garbled session token")  # signed by us, so never; said all the same
        return Token(player, session_id, int(expires))


class Sessions:
    """The live sessions, in a bucket only the auth service's account reaches."""

    def __init__(
        self, store: Store, key: str, *, lifetime: float, clock: Callable[[], float] = time.time
    ) -> None:
        self.store = store
        self.signer = TokenSigner(key)
        self.lifetime = lifetime
        self.clock = clock
        self.counts: Counter[str] = Counter()

    async def open(self, player: str) -> tuple[str, int]:
        """A new session of `player`: (its token, when it expires)."""
        await self._make_room(player)
        now = self.clock()
        token = Token(player, secrets.token_urlsafe(16), int(now + self.lifetime))
        record = Session(player=player, created=now, expires=token.expires)
        if not await self.store.create(token.key, msgspec.json.encode(record)):
            raise Refused("session id taken")  # 128 random bits: never
        self.counts["sessions_opened"] += 1
        return self.signer.text(token), token.expires

    async def _make_room(self, player: str) -> None:
        live = await self.store.entries(f"{player}.*")
        if len(live) < MAX_SESSIONS:
            return
        oldest = sorted(live, key=lambda k: msgspec.json.decode(live[k], type=Session).created)
        for key in oldest[: len(live) - MAX_SESSIONS + 1]:
            await self.store.delete(key)

    async def check(self, text: str) -> str:
        """The player whose live session `text` is the token of; `Refused` otherwise."""
        try:
            token = self.signer.read(text)
            if token.expires <= self.clock():
                raise Refused(f"session token of {token.player!r} expired")
        except Refused:
            self.counts["tokens_refused_unread"] += 1
            raise
        self.counts["session_reads"] += 1
        if await self.store.get(token.key) is None:
            self.counts["tokens_refused_revoked"] += 1
            raise Refused(f"session of {token.player!r} revoked or expired")
        self.counts["token_sign_ins"] += 1
        return token.player

    async def revoke(self, player: str, text: str) -> None:
        """Revoke `player`'s token `text` (a revoked or expired one: nothing to do)."""
        token = self.signer.read(text)
        if token.player != player:
            raise Refused(f"that session token is not {player!r}'s")
        if token.expires <= self.clock():
            return  # its entry is gone with it
        await self.store.delete(token.key)
        self.counts["sessions_revoked"] += 1

    async def revoke_all(self, player: str) -> int:
        """Revoke every session of `player`; how many there were."""
        live = await self.store.entries(f"{player}.*")
        for key in live:
            await self.store.delete(key)
        self.counts["sessions_revoked"] += len(live)
        return len(live)


def _answer(**fields: Any) -> bytes:
    return json.dumps({"ok": True, **fields}).encode()


def _refusal(code: str, message: str) -> bytes:
    return json.dumps({"ok": False, "error": {"code": code, "message": message}}).encode()


def _said(message: Incoming, field: str) -> str:
    """What the server says of who sent `message` (`user`, `host`; empty when it does not say)."""
    info = (message.headers or {}).get(REQUEST_INFO, "")
    try:
        value = json.loads(info).get(field, "") if info else ""
    except (ValueError, AttributeError):
        return ""
    return value if isinstance(value, str) else ""


class SessionDesk:
    """Answers the requests on `tabletop.session.<player>`."""

    def __init__(self, sessions: Sessions, accounts: Accounts) -> None:
        self.sessions = sessions
        self.accounts = accounts
        self.pending = Background()

    async def handle(self, message: Incoming) -> None:
        # each request in its own task: a password change hashes twice, and must not hold up
        # the requests behind it
        self.pending.start(answering_failures(self._respond, message))

    async def _respond(self, message: Incoming) -> None:
        await message.respond(await self.answer(message))

    async def answer(self, message: Incoming) -> bytes:
        tokens = subjects.parse(message.subject, "session")
        if tokens is None or len(tokens) != 1:
            return _refusal("bad_request", "the subject is tabletop.session.<player>")
        player = tokens[0]
        body = _body(message.data)
        if body is None:
            return _refusal(
                "bad_request",
                'the body is {}, {"revoke": TOKEN} or {"password": OLD, "new_password": NEW}',
            )
        try:
            if not body:
                return await self._open(player, _said(message, "user"))
            if set(body) == {"revoke"}:
                await self.sessions.revoke(player, body["revoke"])
                return _answer()
            attempt = Attempt.arriving(host=_said(message, "host"))
            return await self._change_password(player, body["password"], body["new_password"], attempt)
        except Refused as refusal:
            log.warning("session_request_refused", player=player, reason=str(refusal))
            return _refusal("refused", str(refusal))

    async def _open(self, player: str, asker: str) -> bytes:
        if asker != player:
            # a token sign-in (or no word from the server about who asks)
            log.warning("session_refused_without_password", player=player, asker=asker[:80])
            return _refusal("password_required", "a new session token is given to a password sign-in only")
        token, expires = await self.sessions.open(player)
        log.info("session_opened", player=player)
        return _answer(token=token, expires=expires)

    async def _change_password(self, player: str, old: str, new: str, attempt: Attempt) -> bytes:
        await self.accounts.change_password(player, old, new, attempt)
        revoked = await self.sessions.revoke_all(player)
        token, expires = await self.sessions.open(player)
        log.info("password_changed", player=player, sessions_revoked=revoked)
        return _answer(token=token, expires=expires, revoked=revoked)


_SHAPES: tuple[set[str], ...] = (set(), {"revoke"}, {"password", "new_password"})


def _body(data: bytes) -> dict[str, str] | None:
    """The request's body if it is one of the three shapes with text values, else None."""
    if len(data) > MAX_BODY:
        return None
    try:
        body = json.loads(data or b"{}")
    except (ValueError, UnicodeDecodeError):
        return None
    if duplicate_key(data) is not None:  # which of the two would count is anyone's guess
        return None
    if not isinstance(body, dict) or set(body) not in _SHAPES:
        return None
    if not all(isinstance(v, str) and v for v in body.values()):
        return None
    return body
