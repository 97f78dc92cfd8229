"""JetStream key-value buckets: made when missing (`Buckets.bucket`), read whole
(`current_values`), watched (`watch_keys`), and written with the checks sign-in needs
(`Bucket`)."""

from __future__ import annotations

import asyncio
import dataclasses
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

import nats.js.errors
from nats.aio.msg import Msg
from nats.aio.subscription import Subscription
from nats.js import JetStreamContext
from nats.js.api import DeliverPolicy, KeyValueConfig, StorageType
from nats.js.kv import KV_MARKER_REASON, KV_OP

from shared.bus.connecting import Connected
from shared.bus.errors import Unavailable
from shared.bus.event_store import TRANSIENT
from shared.messages import subjects

STREAM_NAME_IN_USE = 10058  # JetStream: a stream of that name exists with another config
STARTING_ATTEMPTS = 60  # of `while_jetstream_starts`, half a second apart
# A snapshot not written again for this long is dropped: a table idle that long is loaded
# from its log (idle running tables end after a day, TABLETOP_IDLE_TABLE_TTL).
SNAPSHOT_TTL = 7 * 86400.0
WATCH_INACTIVE = 300.0  # seconds after which the server drops a watch's consumer nobody reads
T = TypeVar("T")


async def while_jetstream_starts(
    make: Callable[[], Awaitable[T]], *, fatal: tuple[type[Exception], ...] = ()
) -> T:
    """What `make` makes, asked again while JetStream starts (not answering, or answering that
    it is not ready) for up to half a minute; an error of `fatal` is raised at once."""
    for attempt in range(STARTING_ATTEMPTS):
        try:
            return await make()
        except fatal:
            raise
        except (*TRANSIENT, nats.js.errors.APIError) as err:
            if attempt == STARTING_ATTEMPTS - 1:
                raise Unavailable(f"JetStream is not ready: {err!r}") from err
            await asyncio.sleep(0.5)
    raise AssertionError("unreachable")


def key_change(msg: Msg, prefix: str) -> tuple[str, bytes | None]:
    """A bucket's stream message as the key it changes (the subject after `prefix`) and the
    key's value, None when it deletes the key (deleted, purged or expired)."""
    key = msg.subject[len(prefix) :]
    if msg.headers and (KV_OP in msg.headers or KV_MARKER_REASON in msg.headers):
        return key, None
    return key, msg.data


async def watch_keys(
    js: JetStreamContext, bucket: str, pattern: str, on_change: Callable[[str, bytes | None], None]
) -> Subscription:
    """Call `on_change(key, value)` (value None: deleted) for every key of `bucket` matching
    `pattern`, the current ones first, then every change, as the connection reads them, until
    the returned subscription is dropped. An ordered consumer whose callback hands each change
    over as it is read: nats-py's key watcher makes a timestamp, an entry and a queue hop of
    each, and its reader a timer (measured, three quarters of what a watched change cost)."""
    prefix = f"$KV.{bucket}."

    async def arrived(msg: Msg) -> None:
        on_change(*key_change(msg, prefix))

    subscription: Subscription = await js.subscribe(
        prefix + pattern,
        stream=f"KV_{bucket}",
        cb=arrived,
        ordered_consumer=True,
        deliver_policy=DeliverPolicy.LAST_PER_SUBJECT,
        inactive_threshold=WATCH_INACTIVE,
    )
    return subscription


async def current_values(js: JetStreamContext, bucket: str, pattern: str) -> dict[str, bytes]:
    """Every live key of `bucket` matching `pattern`, with its value.

    Read here rather than through nats-py's watcher: that one ends its initial values when
    the consumer has nothing pending and its callback has seen nothing yet, which is also
    the case while the server's first deliveries are still on the wire, so it could answer
    with nothing. The server's own count of what it delivered tells the two apart."""
    prefix = f"$KV.{bucket}."
    found: dict[str, bytes] = {}
    try:
        sub = await js.subscribe(
            prefix + pattern,
            stream=f"KV_{bucket}",
            ordered_consumer=True,
            deliver_policy=DeliverPolicy.LAST_PER_SUBJECT,
        )
        try:
            info = await sub.consumer_info()
            if info.num_pending == 0 and not (info.delivered and info.delivered.consumer_seq):
                return found
            while True:
                msg = await sub.next_msg(timeout=10.0)
                key, value = key_change(msg, prefix)
                if value is None:
                    found.pop(key, None)
                else:
                    found[key] = value
                if msg.metadata.num_pending == 0:
                    return found
        finally:
            await sub.unsubscribe()
    except TRANSIENT as err:
        raise Unavailable(f"{bucket} not read: {type(err).__name__}") from err


class Bucket:
    """A JetStream key-value bucket: current values, and creation that fails when the key is
    already there (two first sign-ins with one name register it once)."""

    def __init__(self, js: JetStreamContext, name: str, kv: Any) -> None:
        self._js = js
        self._name = name
        self._kv = kv

    @classmethod
    async def open(cls, js: JetStreamContext, name: str) -> Bucket:
        """The bucket `name`, which exists."""
        return cls(js, name, await js.key_value(name))

    async def _entry(self, key: str) -> Any:
        """The entry of `key`, None when there is none."""
        try:
            return await self._kv.get(key)
        except nats.js.errors.KeyNotFoundError:
            return None
        except TRANSIENT as err:
            raise Unavailable(str(err) or type(err).__name__) from err

    async def get(self, key: str) -> bytes | None:
        entry = await self._entry(key)
        if entry is None:
            return None
        value: bytes | None = entry.value
        return value

    async def create(self, key: str, value: bytes) -> bool:
        """Store `value` under a new `key`; False when the key exists already."""
        try:
            await self._kv.create(key, value)
        except nats.js.errors.KeyWrongLastSequenceError:
            return False
        except TRANSIENT as err:
            raise Unavailable(str(err) or type(err).__name__) from err
        return True

    async def versioned(self, key: str) -> tuple[bytes, int] | None:
        """The value of `key` and its revision, for `replace`; None when there is none."""
        entry = await self._entry(key)
        return None if entry is None else (entry.value or b"", entry.revision)

    async def replace(self, key: str, value: bytes, revision: int) -> bool:
        """Store `value` under `key` if it is still at `revision`; False when it changed."""
        try:
            await self._kv.update(key, value, last=revision)
        except nats.js.errors.KeyWrongLastSequenceError:
            return False
        except TRANSIENT as err:
            raise Unavailable(str(err) or type(err).__name__) from err
        return True

    async def put(self, key: str, value: bytes) -> None:
        """Store `value` under `key`, whatever was there."""
        try:
            await self._kv.put(key, value)
        except TRANSIENT as err:
            raise Unavailable(str(err) or type(err).__name__) from err

    async def delete(self, key: str) -> None:
        try:
            await self._kv.delete(key)
        except TRANSIENT as err:
            raise Unavailable(str(err) or type(err).__name__) from err

    async def entries(self, pattern: str = ">") -> dict[str, bytes]:
        """Every live key matching `pattern` (a NATS wildcard) with its value."""
        return await current_values(self._js, self._name, pattern)


class Buckets(Connected):
    async def bucket(self, name: str, *, description: str, ttl: float | None = None) -> Bucket:
        """The key-value bucket `name` of this connection's account, created if missing
        (retrying while JetStream starts); with `ttl`, each entry is dropped that many seconds
        after it was written (a bucket made with another ttl takes this one)."""
        config = KeyValueConfig(
            bucket=name,
            history=1,
            storage=StorageType.FILE,
            replicas=self.settings.replicas,
            description=description,
            ttl=ttl,
        )

        async def make() -> Bucket:
            try:
                return Bucket(self.js, name, await self.js.create_key_value(config))
            except nats.js.errors.BadRequestError as err:
                if err.err_code != STREAM_NAME_IN_USE or ttl is None:
                    raise
            made = (await self.js.stream_info(f"KV_{name}")).config
            # the duplicate window as nats-py makes a bucket's: at most the ttl
            await self.js.update_stream(
                dataclasses.replace(made, max_age=ttl, duplicate_window=min(ttl, 120.0))
            )
            return Bucket(self.js, name, await self.js.create_key_value(config))

        return await while_jetstream_starts(make, fatal=(nats.js.errors.BadRequestError,))

    async def snapshots(self) -> Bucket:
        """The workers' snapshots of folded tables (made if missing)."""
        return await self.bucket(
            subjects.SNAPSHOTS_BUCKET,
            description="tabletop: snapshots of folded tables (a cache; the log rebuilds them)",
            ttl=SNAPSHOT_TTL,
        )
