"""Players' accounts: a name and an argon2id hash of its password, in a key-value bucket that
only the auth service's account can reach. The first sign-in with a free name registers it."""

from __future__ import annotations

import asyncio
import math
import time
from dataclasses import dataclass, field
from typing import Protocol

import msgspec
from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError

from shared.bus.credentials import name_problem

ACCOUNTS_BUCKET = "TABLETOP_ACCOUNTS"
MIN_PASSWORD = 8
MAX_PASSWORD = 1024


class Account(msgspec.Struct, frozen=True, kw_only=True):
    name: str
    password_hash: str  # argon2id, with its own salt and parameters
    created: float


class Store(Protocol):
    async def get(self, key: str) -> bytes | None: ...
    async def create(self, key: str, value: bytes) -> bool: ...
    async def put(self, key: str, value: bytes) -> None: ...


class Refused(Exception):
    """A sign-in that fails; the message is for the log, never holds the password."""


@dataclass
class Throttle:
    """Failed sign-ins per name: after `free` failures, every attempt for that name waits a
    delay doubling with each failure (up to `longest` seconds) before its password is even
    checked. Kept in memory: a restart forgives, a replica counts on its own."""

    free: int = 3
    first: float = 1.0
    longest: float = 300.0
    forget_after: float = 900.0
    failures: dict[str, tuple[int, float]] = field(default_factory=dict)

    def wait_for(self, name: str, now: float) -> float:
        count, last = self.failures.get(name, (0, 0.0))
        if count < self.free or now - last > self.forget_after:
            return 0.0
        delay = min(self.first * 2.0 ** (count - self.free), self.longest)
        return max(0.0, last + delay - now)

    def failed(self, name: str, now: float) -> None:
        count, last = self.failures.get(name, (0, 0.0))
        if now - last > self.forget_after:
            count = 0
        self.failures[name] = (count + 1, now)
        if len(self.failures) > 100_000:  # a flood of names: drop the oldest
            for old in sorted(self.failures, key=lambda n: self.failures[n][1])[:50_000]:
                del self.failures[old]

    def succeeded(self, name: str) -> None:
        self.failures.pop(name, None)


def _check_length(password: str) -> None:
    if not MIN_PASSWORD <= len(password) <= MAX_PASSWORD:
        raise Refused(f"a password has {MIN_PASSWORD} to {MAX_PASSWORD} characters")


class Accounts:
    def __init__(
        self, store: Store, *, hasher: PasswordHasher | None = None, throttle: Throttle | None = None
    ) -> None:
        self.store = store
        self.hasher = hasher or PasswordHasher()  # argon2id, RFC 9106 low-memory profile
        self.throttle = throttle or Throttle()

    async def sign_in(self, name: str, password: str) -> bool:
        """True when `name` signed in (False: registered just now); `Refused` otherwise."""
        problem = name_problem(name)
        if problem:
            raise Refused(problem)
        if not password:
            raise Refused("a password is required (guests are named guest...)")
        _check_length(password)
        wait = self.throttle.wait_for(name, time.monotonic())
        if wait > 0:
            raise Refused(f"too many failed sign-ins for {name!r}: wait {math.ceil(wait)}s")
        stored = await self.store.get(name)
        if stored is None:
            password_hash = await asyncio.to_thread(self.hasher.hash, password)
            account = Account(name=name, password_hash=password_hash, created=time.time())
            if await self.store.create(name, msgspec.json.encode(account)):
                return False
            stored = await self.store.get(name)  # registered by a concurrent sign-in
            if stored is None:
                raise Refused("account vanished during registration")
        account = msgspec.json.decode(stored, type=Account)
        try:
            await asyncio.to_thread(self.hasher.verify, account.password_hash, password)
        except (VerificationError, InvalidHashError):
            self.throttle.failed(name, time.monotonic())
            raise Refused(f"wrong password for {name!r}") from None
        self.throttle.succeeded(name)
        return True

    async def change_password(self, name: str, old: str, new: str) -> None:
        """Give `name` the password `new` once `old` is checked as a sign-in is (throttled the
        same); `Refused` otherwise, and nothing changes."""
        _check_length(new)
        stored = await self.store.get(name)
        if stored is None:
            raise Refused(f"no player {name!r}")
        await self.sign_in(name, old)
        account = msgspec.json.decode(stored, type=Account)
        password_hash = await asyncio.to_thread(self.hasher.hash, new)
        changed = msgspec.structs.replace(account, password_hash=password_hash)
        await self.store.put(name, msgspec.json.encode(changed))
