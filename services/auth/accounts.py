"""Players' accounts: a name and an argon2id hash of its password, in a key-value bucket that
only the auth service's account can reach, keyed by the name's folded form (services/auth/
names.py), so that one name has one spelling. The first sign-in with a free name registers it."""

from __future__ import annotations

import math
import time
from dataclasses import dataclass, field
from typing import Protocol

import msgspec
from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError

from services.auth.admission import Attempt, Gate, Refused
from services.auth.names import name_key
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


def _check_length(password: str) -> None:
    if not MIN_PASSWORD <= len(password) <= MAX_PASSWORD:
        raise Refused(f"a password has {MIN_PASSWORD} to {MAX_PASSWORD} characters", "bad_password")


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


class Accounts:
    def __init__(
        self,
        store: Store,
        *,
        hasher: PasswordHasher | None = None,
        gate: Gate,
        throttle: Throttle | None = None,
    ) -> None:
        self.store = store
        self.hasher = hasher or PasswordHasher()  # argon2id, RFC 9106 low-memory profile
        self.throttle = throttle or Throttle()
        self.gate = gate

    async def sign_in(self, name: str, password: str, attempt: Attempt | None = None) -> bool:
        """True when `name` signed in (False: registered just now); `Refused` otherwise."""
        attempt = attempt or Attempt.arriving(host="")
        problem = name_problem(name)
        if problem:
            raise Refused(problem, "bad_name")
        if not password:
            raise Refused("a password is required (guests are named guest...)", "bad_password")
        _check_length(password)
        key = name_key(name)
        wait = self.throttle.wait_for(key, time.monotonic())
        if wait > 0:
            raise Refused(f"too many failed sign-ins for {name!r}: wait {math.ceil(wait)}s", "throttled")
        if self.gate.closed_to(attempt.host) and not await self.gate.is_trusted(attempt.host, key):
            raise Refused(f"too many sign-ins from {attempt.host}", "address_limit")
        account = await self._account(name, key)
        if account is None:
            password_hash = await self.gate.register(attempt, self.hasher.hash, password)
            account = Account(name=name, password_hash=password_hash, created=time.time())
            if await self.store.create(key, msgspec.json.encode(account)):
                return False
            account = await self._account(name, key)  # registered by a concurrent sign-in
            if account is None:
                raise Refused("account vanished during registration", "error")
        try:
            await self.gate.check(attempt, key, self.hasher.verify, account.password_hash, password)
        except (VerificationError, InvalidHashError):
            self.throttle.failed(key, time.monotonic())
            raise Refused(f"wrong password for {name!r}", "wrong_password") from None
        self.throttle.succeeded(key)
        await self.gate.signed_in(attempt, key)
        return True

    async def change_password(self, name: str, old: str, new: str, attempt: Attempt | None = None) -> None:
        """Give `name` the password `new` once `old` is checked as a sign-in is (throttled and
        admitted the same); `Refused` otherwise, and nothing changes."""
        _check_length(new)
        key = name_key(name)
        if await self._account(name, key) is None:
            raise Refused(f"no player {name!r}", "unknown_name")
        attempt = attempt or Attempt.arriving(host="")
        await self.sign_in(name, old, attempt)
        account = await self._account(name, key)
        assert account is not None  # it signed in just now
        # the new hash on the pool too (the address signed in just now: it goes first)
        password_hash = await self.gate.check(attempt, key, self.hasher.hash, new)
        stored = await self.store.get(key)
        under_key = stored is not None and msgspec.json.decode(stored, type=Account).name == name
        changed = msgspec.structs.replace(account, password_hash=password_hash)
        await self.store.put(key if under_key else name, msgspec.json.encode(changed))

    async def _account(self, name: str, key: str) -> Account | None:
        """The account of exactly `name`, or None when its key is free; `Refused` when the
        key holds another spelling (`Alice` when `alice` is registered)."""
        stored = await self.store.get(key)
        account = None if stored is None else msgspec.json.decode(stored, type=Account)
        if account is not None and account.name == name:
            return account
        # registered before names were keyed (see `upgrade_keys`): under the exact name
        legacy = await self.store.get(name) if key != name else None
        if legacy is not None:
            return msgspec.json.decode(legacy, type=Account)
        if account is not None:
            raise Refused(f"{name!r} is taken: too like the registered {account.name!r}", "name_taken")
        return None

    async def upgrade_keys(self, entries: dict[str, bytes]) -> int:
        """Accounts registered before names were keyed by `name_key` (each under its exact
        name, `entries` being the bucket's) also get their folded key, the oldest first, so
        that a new spelling of their name finds them. Two old names of one key (`Ann` and
        `ann`) both keep signing in; the younger keeps its exact key alone. The number of
        keys added."""
        added = 0
        accounts = []
        for value in entries.values():
            try:
                accounts.append(msgspec.json.decode(value, type=Account))
            except msgspec.DecodeError:  # not an account: not ours to move
                continue
        for account in sorted(accounts, key=lambda a: a.created):
            key = name_key(account.name)
            if key not in entries and await self.store.create(key, msgspec.json.encode(account)):
                entries[key] = b""
                added += 1
        return added
