"""Admission control of sign-ins: which password checks and registrations the auth service
takes on, so that a crowd of sign-ins cannot starve the honest ones or its memory.

An argon2 hash costs 64 MiB and a noticeable fraction of a second of a core (by default), so
hashing runs on a small pool of threads with a short queue: a sign-in beyond them is refused at
once, and one still queued when the server would have given up on it is refused unhashed.
Before that, limits per source address and for the whole site on password checks and on
registrations (new names) refuse a flood from one place before it reaches the pool. An address
that signed in to a name in the last day is let through the address and site limits for that
name (the per-name throttle and the pool still apply), so a flood from behind one address (a
NAT, a campus) does not lock out its honest players. The limits are counted by each replica on
its own; which address signed in to which name is kept in a bucket all replicas share.

Refusals are counted and logged as counts per interval (`RefusalTally`), never a line each."""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import os
import threading
import time
from collections import Counter, OrderedDict, deque
from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol, TypeVar

import msgspec
import structlog

from shared.settings import Settings

log = structlog.get_logger("tabletop.auth")
T = TypeVar("T")

# How long the server waits for the callout when its request does not say (nats-server's
# default auth_timeout without TLS).
SERVER_WAIT = 2.0
# Keys (addresses, or address and name pairs) kept per table of counts; the oldest go first.
MAX_KEYS = 100_000
PERIOD = 60.0  # the limits are per minute


class Refused(Exception):
    """A sign-in that fails; the message is for the log, never holds the password. `reason`
    is its kind, as counted in the log."""

    def __init__(self, message: str, reason: str = "refused") -> None:
        super().__init__(message)
        self.reason = reason


@dataclass(frozen=True)
class Attempt:
    """Where a sign-in comes from, and when the server stops waiting for its answer."""

    host: str
    deadline: float  # time.monotonic()

    @classmethod
    def arriving(
        cls, host: str, issued: int = 0, expires: int = 0, *, arrived: float | None = None
    ) -> Attempt:
        """An attempt received at `arrived` (time.monotonic(), default now), of a request the
        server issued at `issued` to expire at `expires` (its JWT's iat and exp, in whole
        seconds). Their difference is how long the server waits (its auth_timeout: 2 s by
        default, the TLS timeout + 1 s with TLS); it is counted from the arrival here, so the
        clocks of the two machines need not agree."""
        wait = float(expires - issued) if expires > issued else SERVER_WAIT
        return cls(host=host, deadline=(time.monotonic() if arrived is None else arrived) + wait)


class Window:
    """At most `limit` events per `period` seconds for each key (an exact sliding window:
    the times of the last `limit` events of each key). A limit of 0 is no limit."""

    def __init__(self, limit: int, period: float = PERIOD) -> None:
        self.limit = limit
        self.period = period
        self.events: OrderedDict[str, deque[float]] = OrderedDict()

    def has_room(self, key: str, now: float) -> bool:
        times = self.events.get(key)
        return self.limit <= 0 or times is None or len(times) < self.limit or now - times[0] >= self.period

    def count(self, key: str, now: float) -> None:
        """One event of `key` now."""
        if self.limit <= 0:
            return
        times = self.events.get(key)
        if times is None:
            times = self.events[key] = deque(maxlen=self.limit)
            if len(self.events) > MAX_KEYS:
                self.events.popitem(last=False)
        times.append(now)
        self.events.move_to_end(key)


class Expired(Exception):
    """A hash not started: the server would have given up before it ended."""


HASH_NICENESS = 10


class HashPool:
    """`threads` threads run the hashes, at most `queue` more wait; memory stays at `threads`
    hashes' worth however many sign-ins come. An urgent hash (a name's password checked from
    an address that signed in to it before) goes before the others and may wait beyond `queue`
    (up to twice as many); with two threads or more, one of them runs urgent hashes only, so
    that a flood of strangers never has an urgent one wait for a stranger's hash. The threads
    that hash for strangers yield the processor to the event loop and the server beside it,
    so that refusals and finished answers go out while a crowd is hashed."""

    def __init__(self, threads: int, queue: int) -> None:
        threads = max(1, threads)
        self.capacity = threads + max(0, queue)
        self.admitted = 0
        self.urgent: deque[Callable[[], None]] = deque()
        self.strangers: deque[Callable[[], None]] = deque()
        self.ready = threading.Condition()
        self.closing = False
        self.threads = [
            threading.Thread(
                target=self._serve, args=(threads > 1 and i == 0,), name=f"argon2-{i}", daemon=True
            )
            for i in range(threads)
        ]
        for thread in self.threads:
            thread.start()

    def full(self, urgent: bool = False) -> bool:
        return self.admitted >= (2 * self.capacity if urgent else self.capacity)

    async def run(self, deadline: float, work: Callable[..., T], *args: object, urgent: bool = False) -> T:
        """`work(*args)` on the pool; `Expired` if its turn comes too late to be of use.
        The caller checks `full()` first."""
        loop = asyncio.get_running_loop()
        done: asyncio.Future[T] = loop.create_future()

        def job() -> None:
            try:
                if time.monotonic() > deadline:
                    raise Expired
                result = work(*args)
            except BaseException as err:  # noqa: BLE001 - handed to the awaiting coroutine
                loop.call_soon_threadsafe(_settle, done, None, err)
            else:
                loop.call_soon_threadsafe(_settle, done, result, None)

        self.admitted += 1
        try:
            with self.ready:
                (self.urgent if urgent else self.strangers).append(job)
                self.ready.notify_all()
            return await done
        finally:
            self.admitted -= 1

    def _next(self, urgent_only: bool) -> Callable[[], None] | None:
        """The next hash this thread runs, waiting for one; None once closing and none is left."""
        with self.ready:
            while True:
                if self.urgent:
                    return self.urgent.popleft()
                if not urgent_only and self.strangers:
                    return self.strangers.popleft()
                if self.closing:
                    return None
                self.ready.wait()

    def _serve(self, urgent_only: bool) -> None:
        if not urgent_only:
            with contextlib.suppress(AttributeError, OSError):  # not Linux: as it is
                os.setpriority(os.PRIO_PROCESS, threading.get_native_id(), HASH_NICENESS)
        while (job := self._next(urgent_only)) is not None:
            job()

    def close(self) -> None:
        """The threads end once the hashes queued before are done."""
        with self.ready:
            self.closing = True
            self.ready.notify_all()


def _settle(done: asyncio.Future[T], result: T | None, error: BaseException | None) -> None:
    if done.cancelled():
        return
    if error is not None:
        done.set_exception(error)
    else:
        done.set_result(result)  # type: ignore[arg-type]  # a result when no error


@dataclass(frozen=True)
class Limits:
    """Per minute: password checks per source address and for the whole site, registrations
    (new names) per source address and for the whole site; 0 is no limit (the defaults are
    the settings')."""

    checks_per_address: int
    checks: int
    registrations_per_address: int
    registrations: int

    @classmethod
    def of(cls, settings: Settings) -> Limits:
        return cls(
            checks_per_address=settings.password_checks_per_address,
            checks=settings.password_checks_per_minute,
            registrations_per_address=settings.registrations_per_address,
            registrations=settings.registrations_per_minute,
        )


SITE = "*"
# Which addresses signed in to which names lately: a bucket of the auth service's account, so
# that every replica knows them, its values expiring this long after their last put.
TRUSTED_BUCKET = "TABLETOP_SIGNED_IN"
TRUST_FOR = 24 * 3600.0


class Marks(Protocol):
    async def get(self, key: str) -> bytes | None: ...
    async def put(self, key: str, value: bytes) -> None: ...


class Versioned(Protocol):
    async def versioned(self, key: str) -> tuple[bytes, int] | None: ...
    async def create(self, key: str, value: bytes) -> bool: ...
    async def replace(self, key: str, value: bytes, revision: int) -> bool: ...


# The registrations of the last minute, per address and for the site: a bucket of the auth
# service's account, so that replicas count them together (a value expires a minute after its
# last registration).
REGISTRATIONS_BUCKET = "TABLETOP_REGISTRATIONS"
_times = msgspec.json.Decoder(list[float])


class SharedWindow:
    """`Window` kept in a bucket, for limits that hold however many replicas count: each key's
    value is the times of its last `limit` events, changed only if nobody changed it since it
    was read (wall-clock times: replicas on several machines are assumed to agree on the time
    to within a fraction of `period`)."""

    def __init__(self, store: Versioned, limit: int, period: float = PERIOD) -> None:
        self.store = store
        self.limit = limit
        self.period = period
        # what this replica counted itself: when that is full, so is the shared count, and a
        # flood is refused without a round trip; one count at a time per replica, so that a
        # flood's burst does not race itself on one key
        self.local = Window(limit, period)
        self.lock = asyncio.Lock()

    async def take(self, key: str) -> bool:
        """Count one event of `key` now if the window has room; whether it had."""
        if self.limit <= 0:
            return True
        async with self.lock:
            if not self.local.has_room(key, time.monotonic()):
                return False
            for _ in range(20):  # other replicas counting at the same moment: read again
                now = time.time()
                found = await self.store.versioned(key)
                times = [t for t in _times.decode(found[0]) if now - t < self.period] if found else []
                if len(times) >= self.limit:
                    return False
                value = msgspec.json.encode([*times, now][-self.limit :])
                if await (
                    self.store.replace(key, value, found[1]) if found else self.store.create(key, value)
                ):
                    self.local.count(key, time.monotonic())
                    return True
        raise Refused("too many registrations at once to count", "busy")


def _hashed(host: str) -> str:
    # any address (IPv6's colons too) makes a valid bucket key, and none is kept in clear
    return hashlib.sha256(host.encode()).hexdigest()[:24]


def _address_key(host: str) -> str:
    return f"address.{_hashed(host)}"


def _trust_key(host: str, key: str) -> str:
    return f"{key}.{_hashed(host)}"


class Gate:
    """The limits and the hash pool in front of every argon2 hash."""

    def __init__(self, limits: Limits, pool: HashPool, trusted: Marks, registered: Versioned) -> None:
        self.checks_by_address = Window(limits.checks_per_address)
        self.checks = Window(limits.checks)
        self.registrations_by_address = SharedWindow(registered, limits.registrations_per_address)
        self.registrations = SharedWindow(registered, limits.registrations)
        self.pool = pool
        self.trusted = trusted  # `TRUSTED_BUCKET`
        # the marks of `trusted` this replica has seen (address, name key) -> when (monotonic):
        # a returning player is known here without a round trip
        self.known: OrderedDict[tuple[str, str], float] = OrderedDict()

    async def is_trusted(self, host: str, key: str) -> bool:
        """Whether `host` signed in to the name keyed `key` in the last day."""
        seen = self.known.get((host, key))
        if seen is not None and time.monotonic() - seen < TRUST_FOR:
            return True
        if await self.trusted.get(_trust_key(host, key)) is None:
            return False
        self._know(host, key)
        return True

    def _know(self, host: str, key: str) -> None:
        self.known[(host, key)] = time.monotonic()
        self.known.move_to_end((host, key))
        if len(self.known) > MAX_KEYS:
            self.known.popitem(last=False)

    def closed_to(self, host: str) -> bool:
        """Whether `host` has had, here, all its password checks and registrations of the
        minute: only a name it signed in to before may go on (a flood is refused after one
        look at that, not after reading the account too)."""
        now = time.monotonic()
        return not self.checks_by_address.has_room(
            host, now
        ) and not self.registrations_by_address.local.has_room(_address_key(host), now)

    def _admit_check(self, attempt: Attempt) -> None:
        now = time.monotonic()
        if not self.checks_by_address.has_room(attempt.host, now):
            raise Refused(f"too many password checks from {attempt.host}", "address_limit")
        if not self.checks.has_room(SITE, now):
            raise Refused("too many password checks on the site", "site_limit")
        self.checks_by_address.count(attempt.host, now)
        self.checks.count(SITE, now)

    async def _admit_registration(self, attempt: Attempt) -> None:
        # a registration the site refuses has still counted for its address
        if not await self.registrations_by_address.take(_address_key(attempt.host)):
            raise Refused(f"too many new names from {attempt.host}", "address_limit")
        if not await self.registrations.take("site"):
            raise Refused("too many new names on the site", "site_limit")

    async def _hash(self, attempt: Attempt, work: Callable[..., T], *args: object, urgent: bool = False) -> T:
        if self.pool.full(urgent):
            raise Refused("the sign-in service is busy", "busy")
        try:
            return await self.pool.run(attempt.deadline, work, *args, urgent=urgent)
        except Expired:
            raise Refused("the server gave up before the password's turn came", "expired") from None

    async def register(self, attempt: Attempt, work: Callable[..., T], *args: object) -> T:
        """`work(*args)`, the hash of a new name's password, once the registration limits
        and the pool let it through; else `Refused`."""
        await self._admit_registration(attempt)
        return await self._hash(attempt, work, *args)

    async def check(self, attempt: Attempt, key: str, work: Callable[..., T], *args: object) -> T:
        """`work(*args)`, the check of the password of the name keyed `key`, once the check
        limits and the pool let it through; from an address that signed in to that name in the
        last day, past the limits and before the strangers in the pool's queue."""
        trusted = await self.is_trusted(attempt.host, key)
        if not trusted:
            self._admit_check(attempt)
        return await self._hash(attempt, work, *args, urgent=trusted)

    async def signed_in(self, attempt: Attempt, key: str) -> None:
        """The address of `attempt` proved the password of the name keyed `key`: trusted
        for it a day from now, by every replica."""
        await self.trusted.put(_trust_key(attempt.host, key), str(int(time.time())).encode())
        self._know(attempt.host, key)


class RefusalTally:
    """Refused sign-ins, counted by reason and by address, logged as one line per
    interval in which any came (a flood writes a line every `interval` seconds, not one per
    attempt)."""

    def __init__(self, interval: float = 10.0) -> None:
        self.interval = interval
        self.reasons: Counter[str] = Counter()
        self.hosts: Counter[str] = Counter()

    def refused(self, reason: str, host: str) -> None:
        self.reasons[reason] += 1
        self.hosts[host] += 1
        if len(self.hosts) > MAX_KEYS:  # a flood of addresses: keep the worst
            self.hosts = Counter(dict(self.hosts.most_common(MAX_KEYS // 2)))

    def flush(self) -> None:
        if not self.reasons:
            return
        log.warning(
            "sign_ins_refused",
            interval_s=self.interval,
            total=sum(self.reasons.values()),
            reasons=dict(self.reasons),
            top_addresses=dict(self.hosts.most_common(5)),
        )
        self.reasons.clear()
        self.hosts.clear()

    async def run(self, stop: asyncio.Event) -> None:
        """Log the counts every interval until `stop`, and once more then."""
        while not stop.is_set():
            try:
                await asyncio.wait_for(stop.wait(), self.interval)
            except TimeoutError:
                pass
            self.flush()
