"""Who a connection is: the credentials a client presents to NATS, and the secrets of the
services' static users and of the auth callout's signing key, kept in files only their owner
may read."""

from __future__ import annotations

import os
import secrets
from pathlib import Path

import msgspec

from shared.games.table import BOT_SEAT_PREFIX, BOTS_PLAYER, SERVICE_PLAYER
from shared.messages import subjects

# The services' own users, one per role, plus the operators' admin: static users of the server
# that the auth callout never sees.
SERVICE_ROLES = ("worker", "projector", "history", "auth", "bots", "chat", "admin")
# The user the nodes of a cluster sign their routes to each other in with (a cluster only).
ROUTE_USER = "route"
# The services' account (the log, the buckets, the services), the account players and guests
# sign in to (it reaches the services only through what APP exports), and the callout's account.
APP_ACCOUNT = "APP"
PLAYERS_ACCOUNT = "PLAYERS"
AUTH_ACCOUNT = "AUTH"
GUEST = "guest"
# Names nobody may register: the spectator viewer, guests, the services' users, the service's
# own player (it alone expires tables and says deadlines came), the bot service's player
# (`bots`, a service role) and the names of bot seats.
RESERVED_NAMES = frozenset({subjects.SPECTATOR, SERVICE_PLAYER, BOTS_PLAYER, *SERVICE_ROLES, "system", "sys"})
ISSUER_FILE = "issuer.nk"
# The key the auth service signs session tokens with (services/auth/sessions.py).
SESSION_KEY_FILE = "session.key"


def is_reserved(name: str) -> bool:
    lowered = name.lower()
    return lowered in RESERVED_NAMES or lowered.startswith((GUEST, BOT_SEAT_PREFIX))


def name_problem(name: str) -> str | None:
    """Why `name` may not be a player's name, or None when it may."""
    if not subjects.is_id(name):
        return "a name is 1 to 64 letters, digits, '_' or '-'"
    if is_reserved(name):
        return f"{name!r} is reserved"
    return None


def inbox_prefix(name: str) -> str:
    """The reply inbox prefix a signed-in client must use: only it may subscribe there."""
    return f"_INBOX_{name}"


class Credentials(msgspec.Struct, frozen=True, kw_only=True):
    """What a connection presents: a user and password, or a player's session token (sent
    alone, as the CONNECT `auth_token`), or nothing; and its reply inbox prefix."""

    user: str = ""
    password: str = ""
    token: str = ""
    inbox_prefix: str = "_INBOX"

    @classmethod
    def player(cls, name: str, password: str) -> Credentials:
        return cls(user=name, password=password, inbox_prefix=inbox_prefix(name))

    @classmethod
    def session(cls, name: str, token: str) -> Credentials:
        """Player `name` signing in with its session token instead of its password."""
        return cls(user=name, token=token, inbox_prefix=inbox_prefix(name))

    @classmethod
    def guest(cls, name: str = "") -> Credentials:
        """A guest named `name` (`guest...`), else a fresh `guest-<random>`: a name of its own,
        so that its reply inbox is its own and it knows which."""
        if not name or name.lower() == GUEST:  # `guest` alone is no name of its own
            name = f"{GUEST}-{secrets.token_hex(8)}"
        return cls(user=name, password="", inbox_prefix=inbox_prefix(name))

    def __repr__(self) -> str:  # never print a password or a token
        return f"Credentials(user={self.user!r})"


def write_secret(path: Path, text: str) -> None:
    """Write `text` to `path`, readable by its owner only, never briefly by others."""
    path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w") as f:
        f.write(text)
    os.chmod(path, 0o600)  # an existing file keeps its old mode through O_CREAT


def read_secret(path: Path) -> str:
    return path.read_text().strip()


def new_issuer_seed() -> str:
    """A fresh account nkey seed: the callout signs its users' JWTs with it."""
    import nkeys

    seed: bytes = nkeys.encode_seed(secrets.token_bytes(32), nkeys.PREFIX_BYTE_ACCOUNT)
    return seed.decode()


def public_key(seed: str) -> str:
    import nkeys

    key: bytes = nkeys.from_seed(seed.encode()).public_key
    return key.decode()


class ServerSecrets:
    """The passwords of the service users and of the route user, the callout's issuer seed and
    the session tokens' signing key, one file each in `folder` (mode 0600): generated on first
    use, kept across restarts, or given by the operator (same file names)."""

    def __init__(self, folder: str | Path) -> None:
        self.folder = Path(folder)

    @classmethod
    def load_or_create(cls, folder: str | Path) -> ServerSecrets:
        store = cls(folder)
        store.folder.mkdir(parents=True, exist_ok=True, mode=0o700)
        for role in (*SERVICE_ROLES, ROUTE_USER):
            path = store.folder / role
            if not path.exists():
                write_secret(path, secrets.token_urlsafe(32) + "\n")
        issuer = store.folder / ISSUER_FILE
        if not issuer.exists():
            write_secret(issuer, new_issuer_seed() + "\n")
        session_key = store.folder / SESSION_KEY_FILE
        if not session_key.exists():
            write_secret(session_key, secrets.token_urlsafe(32) + "\n")
        return store

    def password(self, role: str) -> str:
        return read_secret(self.folder / role)

    def credentials(self, role: str) -> Credentials:
        return Credentials(user=role, password=self.password(role))

    @property
    def issuer_seed(self) -> str:
        return read_secret(self.folder / ISSUER_FILE)

    @property
    def session_key(self) -> str:
        return read_secret(self.folder / SESSION_KEY_FILE)

    @property
    def issuer_public_key(self) -> str:
        return public_key(self.issuer_seed)
