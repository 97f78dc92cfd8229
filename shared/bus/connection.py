"""The connection to NATS and everything the services do over it.

Services see `Bus` and `Incoming` only: no other package imports nats.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import json
import os
import re
import time
from collections.abc import Awaitable, Callable, Collection, Iterable
from dataclasses import dataclass
from functools import partial
from typing import Any

import nats
import nats.errors
import nats.js.errors
import structlog
from nats.aio.client import Client
from nats.aio.msg import Msg
from nats.aio.subscription import Subscription
from nats.js.api import (
    AckPolicy,
    ConsumerConfig,
    DeliverPolicy,
    DiscardPolicy,
    KeyValueConfig,
    PersistMode,
    StorageType,
    StreamConfig,
)
from nats.js.kv import KV_MARKER_REASON, KV_OP

from shared.bus.credentials import Credentials
from shared.bus.errors import BusError, ConnectionClosed, Forbidden, ServerTooOld, SignInRefused, Unavailable
from shared.bus.event_store import TRANSIENT, WRITER, EventStore, delivery_position
from shared.bus.timers import DeadlineTimers
from shared.messages import subjects
from shared.messages.envelopes import failure_body
from shared.settings import Settings

log = structlog.get_logger("tabletop.bus")
# Whatever talking to NATS may raise: the bus's own errors, and the client's (a refusal by
# JetStream, a timeout, a connection lost): what an operator's command reports, not crashes on.
FAILURES = (BusError, nats.errors.Error, TimeoutError, OSError)
STREAM_NAME_IN_USE = 10058  # JetStream: a stream of that name exists with another config
# The oldest nats-server tabletop runs on: clocks' deadlines are JetStream scheduled messages
# (2.12), and an older server would take the streams and never deliver a deadline.
MIN_SERVER_VERSION = (2, 12, 0)


@dataclass(frozen=True, slots=True)
class Incoming:
    """A request or message received by a service."""

    subject: str
    data: bytes
    reply: str
    _respond: Callable[[bytes], Awaitable[None]]
    headers: dict[str, str] | None = None

    async def respond(self, body: bytes) -> None:
        if self.reply:
            try:
                await self._respond(body)
            except TRANSIENT:  # the asker is gone or NATS is restarting: it will retry
                log.warning("reply_lost", subject=self.subject)


Handler = Callable[[Incoming], Awaitable[None]]


async def answering_failures(handler: Handler, message: Incoming) -> None:
    """Run `handler` on `message`; if it raises, log it and answer `internal_error`, so that
    no asker waits for an answer that never comes."""
    try:
        await handler(message)
    except Exception:  # a bug in one handler: answered, logged, service goes on
        log.exception("request_failed", subject=message.subject)
        await message.respond(
            failure_body(message.subject, "internal_error", "The server failed on this request.")
        )


async def _quietly_unsubscribe(sub: Any) -> None:
    if sub is not None:
        try:
            await sub.unsubscribe()
        except Exception:  # noqa: BLE001 - the connection may be gone already
            pass


async def _quietly_stop(watcher: Any) -> None:
    try:
        await watcher.stop()
    except Exception:  # noqa: BLE001 - the connection may be gone already
        pass


_SPACE = re.compile(r"\s")


# What takes the messages of one subscription as they are read: (subject, reply, data, the
# header block as received or None), called from the connection's read loop.
Taker = Callable[[bytes, bytes, bytes, "bytes | None"], None]


class _Client(Client):
    """nats-py's client, with its header parser made cheap: every log message carries three
    headers (the message id, the expected sequence, the writer), and nats-py tests each
    character of each header name in a Python generator, a quarter of the table projector's
    CPU when it catches up. Same result for every input (tests/platform/test_wire_decoders.py).

    A subscription may also have its messages taken as they are read (`takers`), without the
    message object, queue and task hop nats-py spends on each (`_Puller`)."""

    def __init__(self) -> None:
        super().__init__()
        self.takers: dict[int, Taker] = {}

    async def _process_msg(self, sid: int, subject: bytes, reply: bytes, data: bytes, headers: bytes) -> None:
        take = self.takers.get(sid)
        if take is None:
            await super()._process_msg(sid, subject, reply, data, headers)
            return
        self.stats["in_msgs"] += 1
        self.stats["in_bytes"] += len(data)
        take(subject, reply, data, headers)

    @staticmethod
    def _parse_header_lines(raw: bytes) -> dict[str, str]:
        try:
            text = raw.decode("ascii")  # what every header of the log is
        except UnicodeDecodeError:
            return _parse_header_bytes(raw)
        out: dict[str, str] = {}
        for line in text.split("\r\n"):
            name, sep, value = line.partition(":")
            if sep:
                key = name.strip(_ASCII_SPACE)
                if _SPACE.search(key) is None:
                    out[key] = value.strip(_ASCII_SPACE)
        return out


_ASCII_SPACE = " \t\n\r\x0b\x0c"  # what `bytes.strip()` strips
_NO_STATUS = b"NATS/1.0\r\n"  # a header block without a status: header lines follow


def _header(block: bytes, name: str) -> str | None:
    """What nats-py makes of header `name` in a message's header block without a status,
    parsing only the line the name is on when it occurs once (the projector reads one header
    of each log message, its writer). Same result for every input
    (tests/platform/test_wire_decoders.py)."""
    lines = block[len(_NO_STATUS) :]
    wanted = name.encode()
    at = lines.find(wanted)
    if at < 0:
        return None
    if lines.find(wanted, at + 1) >= 0:  # several lines may name it: the last one counts
        return _Client._parse_header_lines(lines).get(name)
    start = lines.rfind(b"\r\n", 0, at)
    end = lines.find(b"\r\n", at)
    line = lines[start + 2 if start >= 0 else 0 : end if end >= 0 else len(lines)]
    return _Client._parse_header_lines(line).get(name)


def _parse_header_bytes(raw: bytes) -> dict[str, str]:
    out: dict[str, str] = {}
    for line in raw.split(b"\r\n"):
        name, sep, value = line.partition(b":")
        if not sep:
            continue
        try:
            key = name.strip().decode("ascii")
        except UnicodeDecodeError:
            continue
        if _SPACE.search(key) is None:
            out[key] = value.strip().decode("utf-8", "replace")
    return out


_VERSION = re.compile(r"(\d+)\.(\d+)\.(\d+)")


def _too_old(nc: Client, minimum: tuple[int, int, int]) -> str | None:
    """Why the server `nc` is connected to is too old (its version, from the INFO it sent on
    connecting), or None when it is recent enough."""
    version = str(nc._server_info.get("version", ""))
    match = _VERSION.match(version)
    if match and tuple(map(int, match.groups())) >= minimum:
        return None
    wanted = ".".join(map(str, minimum))
    return (
        f"is nats-server {version or '(no version)'}; tabletop needs {wanted} or newer (clocks' "
        "deadlines are JetStream scheduled messages): upgrade the server"
    )


# Where a service answers: a reply inbox (a connection's own `_INBOX.`, a player's
# `_INBOX_<name>.`, the `_R_.` subject the server gives a request imported from the players'
# account, or the server's own `$SYS._INBOX.`, where the auth callout answers). Any other reply
# subject names something the asker wants written to in the service's name (the log, a bucket,
# someone's updates): such a request is dropped, counted, never answered.
REPLY_INBOXES = ("_INBOX.", "_INBOX_", "_R_.", "$SYS._INBOX.")
MISDIRECTED_LOG_EVERY = 10.0  # seconds: one log line per interval, with the count


def is_reply_inbox(subject: str) -> bool:
    return subject.startswith(REPLY_INBOXES)


def _incoming(msg: Msg, bus: Bus) -> Incoming | None:
    """The request `msg` as a handler takes it, None when its reply subject is not an inbox.
    The answer goes out without the request's headers (nats-py's `respond` would echo them)."""
    reply = msg.reply
    if reply and not is_reply_inbox(reply):
        bus.count_misdirected(msg.subject, reply)
        return None
    return Incoming(msg.subject, msg.data, reply, partial(bus.nc.publish, reply), msg.headers)


def settings_credentials(settings: Settings) -> Credentials:
    """The credentials the settings name: `NATS_USER` with `NATS_PASSWORD` or the file
    `NATS_PASSWORD_FILE`; none when no user is set."""
    password = settings.nats_password
    if not password and settings.nats_password_file:
        with open(settings.nats_password_file) as f:
            password = f.read().strip()
    return Credentials(user=settings.nats_user, password=password)


async def current_values(kv: Any, pattern: str) -> dict[str, bytes]:
    """Every live key of the bucket `kv` matching `pattern`, with its value.

    Read here rather than through nats-py's watcher: that one ends its initial values when
    the consumer has nothing pending and its callback has seen nothing yet, which is also
    the case while the server's first deliveries are still on the wire, so it could answer
    with nothing. The server's own count of what it delivered tells the two apart."""
    prefix = f"$KV.{kv._name}."
    found: dict[str, bytes] = {}
    try:
        sub = await kv._js.subscribe(
            prefix + pattern,
            stream=kv._stream,
            ordered_consumer=True,
            deliver_policy=DeliverPolicy.LAST_PER_SUBJECT,
        )
        try:
            info = await sub.consumer_info()
            if info.num_pending == 0 and not info.delivered.consumer_seq:
                return found
            while True:
                msg = await sub.next_msg(timeout=10.0)
                key = msg.subject[len(prefix) :]
                if msg.headers and (KV_OP in msg.headers or KV_MARKER_REASON in msg.headers):
                    found.pop(key, None)  # deleted, purged or expired
                else:
                    found[key] = msg.data
                if msg.metadata.num_pending == 0:
                    return found
        finally:
            await sub.unsubscribe()
    except TRANSIENT as err:
        raise Unavailable(f"{kv._name} not read: {type(err).__name__}") from err


class Bucket:
    """A JetStream key-value bucket: current values, and creation that fails when the key is
    already there (two first sign-ins with one name register it once)."""

    def __init__(self, kv: Any) -> None:
        self._kv = kv

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
        return await current_values(self._kv, pattern)


class Bus:
    """One NATS connection with JetStream, the event store and the views bucket."""

    def __init__(self, nc: _Client, settings: Settings) -> None:
        self.nc = nc
        self.js = nc.jetstream(timeout=5.0)
        self.settings = settings
        self.events = EventStore(
            nc,
            self.js,
            replicas=settings.replicas,
            duplicate_window=settings.duplicate_window,
        )
        self.timers = DeadlineTimers(self.js, replicas=settings.replicas)
        self._kv: Any = None
        # The reply subjects of views put and not yet acknowledged (`put_views`).
        self._acks: dict[str, _PutWindow] | None = None
        self._acks_prefix = ""
        self._puts = 0
        # Bumped on every reconnect: each consumer and watcher then subscribes again.
        self.reconnects = 0
        self.closing = False
        # The broker's "Permissions Violation" notices for this connection, oldest first.
        self.denials: list[str] = []
        # Requests dropped because their reply subject was not an inbox (`_incoming`).
        self.misdirected = 0
        self._misdirected_logged = 0
        self._misdirected_log_at = 0.0

    @classmethod
    async def connect(
        cls,
        url: str,
        settings: Settings,
        *,
        name: str,
        wait: float | None = None,
        credentials: Credentials | None = None,
        min_server_version: tuple[int, int, int] | None = None,
    ) -> Bus:
        """Connect to `url` as `credentials` (default: the settings' user), waiting for NATS to
        come up (forever unless `wait` is set). Refused credentials raise `SignInRefused`; a
        server older than `min_server_version` (default `MIN_SERVER_VERSION`) raises
        `ServerTooOld`."""
        if credentials is None:
            credentials = settings_credentials(settings)
        bus_ref: list[Bus] = []

        async def reconnected() -> None:
            log.info("nats_reconnected", url=url)
            if bus_ref:
                bus_ref[0].reconnects += 1

        async def disconnected() -> None:
            if bus_ref and not bus_ref[0].closing:
                log.warning("nats_disconnected", url=url)

        refused: list[Exception] = []

        async def error(err: Exception) -> None:
            text = str(err)
            if "authorization violation" in text.lower():
                refused.append(err)
            elif "permissions violation" in text.lower():
                if bus_ref:
                    denials = bus_ref[0].denials
                    denials.append(text)
                    del denials[:-100]  # the latest are enough to tell what was refused
                log.warning("nats_denied", error=text)
                return
            log.debug("nats_error", error=repr(err))

        servers = [u.strip() for u in url.split(",") if u.strip()]  # a cluster: several urls
        loop = asyncio.get_running_loop()
        deadline = None if wait is None else loop.time() + wait
        delay = 0.1
        while True:
            try:
                # With unlimited attempts nats-py retries a first connect forever and this
                # loop's deadline would never apply: unlimited only once connected.
                nc = _Client()
                await nc.connect(
                    servers,
                    name=name,
                    max_reconnect_attempts=1,
                    reconnect_time_wait=0.5,  # type: ignore[arg-type]  # seconds, typed as int
                    connect_timeout=2,
                    allow_reconnect=True,
                    reconnected_cb=reconnected,
                    drain_timeout=DRAIN_TIMEOUT,
                    disconnected_cb=disconnected,
                    error_cb=error,
                    inbox_prefix=credentials.inbox_prefix,
                    # a session token goes alone: nats-py would send a user's password instead
                    user=None if credentials.token else credentials.user or None,
                    password=credentials.password if credentials.user and not credentials.token else None,
                    token=credentials.token or None,
                )
                nc.options["max_reconnect_attempts"] = -1
                break
            except nats.errors.AuthorizationError as err:
                raise SignInRefused(f"NATS at {url} refused {credentials.user or 'anonymous'!r}") from err
            except (OSError, nats.errors.NoServersError, nats.errors.TimeoutError) as err:
                if refused:  # the server is there and said no: asking again will not help
                    raise SignInRefused(f"NATS at {url} refused {credentials.user or 'anonymous'!r}") from err
                if deadline is not None and loop.time() > deadline:
                    raise Unavailable(f"no NATS at {url}: {err}") from err
                log.info("waiting_for_nats", url=url)
                await asyncio.sleep(delay)
                delay = min(delay * 2, 2.0)
        too_old = _too_old(nc, min_server_version or MIN_SERVER_VERSION)
        if too_old:
            await nc.close()
            raise ServerTooOld(f"NATS at {url} {too_old}")
        bus = cls(nc, settings)
        bus_ref.append(bus)
        return bus

    async def close(self) -> None:
        """Drain: finish what was received, flush what was sent, then disconnect."""
        self.closing = True
        if not self.nc.is_closed:
            try:
                await self.nc.drain()
            except Exception:  # noqa: BLE001 - closing anyway
                await self.nc.close()

    # --- set-up -----------------------------------------------------------------------------

    async def ensure_streams(self) -> None:
        """The event and deadline streams and the views bucket exist (retrying while
        JetStream starts)."""
        for attempt in range(60):
            try:
                await self.events.ensure_stream()
                await self.timers.ensure_stream()
                await self._ensure_views()
                return
            except (*TRANSIENT, nats.js.errors.APIError) as err:
                if attempt == 59:
                    raise Unavailable(f"JetStream is not ready: {err!r}") from err
                await asyncio.sleep(0.5)

    async def _ensure_views(self) -> None:
        config = KeyValueConfig(
            bucket=subjects.VIEWS_BUCKET,
            history=1,
            storage=StorageType.FILE,
            replicas=self.settings.replicas,
            description="tabletop: table views per viewer, and the lobby",
        )
        if config.replicas != 1:  # replicated: a put is acknowledged once on a quorum
            self._kv = await self.js.create_key_value(config)
            return
        # One node: views can be rebuilt from the log, so a put is acknowledged before it
        # reaches the disk (persist mode async) whatever the server's sync setting. A bucket
        # made before keeps its mode until a rebuild makes it again (the mode is fixed).
        try:
            await self.js.add_stream(
                StreamConfig(
                    name=f"KV_{config.bucket}",
                    description=config.description,
                    subjects=[f"$KV.{config.bucket}.>"],
                    allow_direct=True,
                    allow_rollup_hdrs=True,
                    deny_delete=True,
                    discard=DiscardPolicy.NEW,
                    duplicate_window=120,
                    max_consumers=-1,
                    max_msgs=-1,
                    max_msgs_per_subject=config.history,
                    num_replicas=1,
                    storage=config.storage,
                    persist_mode=PersistMode.ASYNC,
                )
            )
        except nats.js.errors.BadRequestError as err:
            if err.err_code != STREAM_NAME_IN_USE:
                raise
        self._kv = await self.js.key_value(config.bucket)

    async def views(self) -> Any:
        if self._kv is None:
            self._kv = await self.js.key_value(subjects.VIEWS_BUCKET)
        return self._kv

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
        for attempt in range(60):
            try:
                return Bucket(await self.js.create_key_value(config))
            except nats.js.errors.BadRequestError as err:
                if err.err_code != STREAM_NAME_IN_USE or ttl is None:
                    raise
                made = (await self.js.stream_info(f"KV_{name}")).config
                # the duplicate window as nats-py makes a bucket's: at most the ttl
                await self.js.update_stream(
                    dataclasses.replace(made, max_age=ttl, duplicate_window=min(ttl, 120.0))
                )
            except (*TRANSIENT, nats.js.errors.APIError) as err:
                if attempt == 59:
                    raise Unavailable(f"JetStream is not ready: {err!r}") from err
                await asyncio.sleep(0.5)
        raise AssertionError("unreachable")

    # --- views bucket -----------------------------------------------------------------------

    async def view_get(self, key: str) -> bytes | None:
        return await Bucket(await self.views()).get(key)

    async def view_put(self, key: str, value: bytes) -> None:
        kv = await self.views()
        try:
            await kv.put(key, value)
        except (*TRANSIENT, nats.js.errors.APIError) as err:  # the caller retries
            raise Unavailable(f"view {key} not stored: {err!r}") from err

    async def view_put_many(
        self, items: Iterable[tuple[str, bytes]], *, in_flight: int = 1024, timeout: float = 5.0
    ) -> None:
        """Store many views (see `put_views`); raises Unavailable unless every one is stored
        (some may be: the caller puts them again)."""
        failed = await self.put_views(items, in_flight=in_flight, timeout=timeout)
        if failed:
            raise Unavailable(f"{len(failed)} views not stored ({min(failed)} among them)")

    async def put_views(
        self, items: Iterable[tuple[str, bytes]], *, in_flight: int = 1024, timeout: float = 5.0
    ) -> set[str]:
        """Store many views, up to `in_flight` puts awaiting their acknowledgement at once:
        each put is one publish to the bucket's subject with a reply subject of this
        connection's own, and a window of puts is awaited as one (a `kv.put` costs a request
        of its own: a future, a timer and a decoded reply). Returns the keys not stored:
        refused, or not acknowledged within `timeout` seconds."""
        await self.views()
        waiting = await self._ack_inbox()
        failed: set[str] = set()
        window = _PutWindow(asyncio.get_running_loop().create_future())
        for key, value in items:
            self._puts += 1
            reply = f"{self._acks_prefix}.{self._puts}"
            try:
                await self.nc.publish(f"$KV.{subjects.VIEWS_BUCKET}.{key}", value, reply=reply)
            except TRANSIENT:
                failed.add(key)
                continue
            waiting[reply] = window
            window.keys[reply] = key
            if len(window.keys) >= in_flight:
                failed |= await self._acknowledged(window, timeout)
                window = _PutWindow(asyncio.get_running_loop().create_future())
        if window.keys:
            failed |= await self._acknowledged(window, timeout)
        return failed

    async def _ack_inbox(self) -> dict[str, _PutWindow]:
        """The reply subjects of the puts not yet acknowledged, each with its window; the
        subscription that takes their acknowledgements made on first use."""
        if self._acks is None:
            prefix = self.nc.new_inbox()
            waiting: dict[str, _PutWindow] = {}

            async def on_ack(msg: Msg) -> None:
                window = waiting.pop(msg.subject, None)
                if window is not None:
                    window.acknowledged(msg.subject, msg.data)

            await self.nc.subscribe(f"{prefix}.*", cb=on_ack)
            self._acks, self._acks_prefix = waiting, prefix
        return self._acks

    async def _acknowledged(self, window: _PutWindow, timeout: float) -> set[str]:
        """The keys of `window` not acknowledged as stored."""
        window.close()
        try:
            await asyncio.wait_for(window.done, timeout)
        except TimeoutError:
            if self._acks is not None:  # forget the puts that will not be answered
                for reply in window.keys:
                    self._acks.pop(reply, None)
        return {window.keys[reply] for reply in window.refused} | {
            key for reply, key in window.keys.items() if reply not in window.acks
        }

    async def view_delete(self, key: str) -> None:
        kv = await self.views()
        try:
            await kv.delete(key)
        except (*TRANSIENT, nats.js.errors.APIError) as err:
            raise Unavailable(f"view {key} not deleted: {err!r}") from err

    async def watch_views(
        self,
        pattern: str,
        on_entry: Callable[[str, bytes | None], None],
        *,
        stop: asyncio.Event,
    ) -> None:
        """Call `on_entry(key, value)` (value None: deleted) for every key matching `pattern`,
        the current ones first, then every change, until `stop` is set. The watch is started
        again from the current values after a reconnect or an error (nats.py #510)."""
        watcher = None
        watching_since = -1
        try:
            while not stop.is_set():
                try:
                    if watcher is None or watching_since != self.reconnects:
                        watching_since = self.reconnects
                        if watcher is not None:
                            await _quietly_stop(watcher)
                        kv = await self.views()
                        watcher = await kv.watch(pattern)
                    try:
                        entry = await watcher.updates(timeout=1.0)
                    except nats.errors.TimeoutError:
                        continue
                    if entry is None:  # the end of the current values
                        continue
                    deleted = entry.operation in ("DEL", "PURGE")
                    on_entry(entry.key, None if deleted else entry.value)
                except (*TRANSIENT, nats.js.errors.APIError, Unavailable) as err:
                    log.warning("watch_retrying", pattern=pattern, error=repr(err))
                    if watcher is not None:
                        await _quietly_stop(watcher)
                    watcher = None
                    await asyncio.sleep(0.5)
        finally:
            if watcher is not None:
                await _quietly_stop(watcher)

    async def view_entries(self, pattern: str) -> dict[str, bytes]:
        """Every live view key matching `pattern` (a NATS wildcard) with its value."""
        return await current_values(await self.views(), pattern)

    async def reset_views(self) -> None:
        """Drop every view (a rebuild starts from nothing)."""
        try:
            await self.js.delete_key_value(subjects.VIEWS_BUCKET)
        except nats.js.errors.NotFoundError:
            pass
        self._kv = None
        await self._ensure_views()

    # --- core messaging ---------------------------------------------------------------------

    def count_misdirected(self, subject: str, reply: str) -> None:
        self.misdirected += 1
        now = time.monotonic()
        if now >= self._misdirected_log_at:
            log.warning(
                "requests_dropped_reply_not_an_inbox",
                count=self.misdirected - self._misdirected_logged,
                total=self.misdirected,
                subject=subject,
                reply=reply[:120],
            )
            self._misdirected_logged = self.misdirected
            self._misdirected_log_at = now + MISDIRECTED_LOG_EVERY

    async def subscribe(self, subject: str, handler: Handler, *, queue: str = "") -> Subscription:
        async def cb(msg: Msg) -> None:
            incoming = _incoming(msg, self)
            if incoming is not None:
                await handler(incoming)

        sub = await self.nc.subscribe(subject, queue=queue, cb=cb)
        await self.nc.flush()  # the server knows of it on return: nothing published after is missed
        return sub

    async def publish(self, subject: str, body: bytes) -> None:
        try:
            await self.nc.publish(subject, body)
        except TRANSIENT:
            log.warning("publish_lost", subject=subject)

    async def request(self, subject: str, body: bytes, *, timeout: float = 5.0) -> bytes:
        asking = asyncio.ensure_future(self.nc.request(subject, body, timeout=timeout))
        try:
            # A refused request is never answered: say so when the broker's refusal arrives
            # rather than after the whole timeout.
            while not (await asyncio.wait({asking}, timeout=0.05))[0]:
                if self.denied(subject):
                    raise Forbidden(f"not allowed to publish to {subject}")
            msg = asking.result()
        except TRANSIENT as err:
            if self.denied(subject):  # not lost: refused, and asking again changes nothing
                raise Forbidden(f"not allowed to publish to {subject}") from err
            raise Unavailable(f"{subject}: {type(err).__name__}") from err
        finally:
            asking.cancel()
        return msg.data

    def denied(self, subject: str, kind: str = "Publish") -> bool:
        """Whether the broker refused this connection `kind` (Publish, Subscription) on
        `subject`."""
        # nats-py lowercases the server's whole notice, the subject included; a command is
        # refused under the subject the account maps it to
        wanted = {f'{kind} to "{s}"'.lower() for s in (subject, subjects.as_mapped(subject))}
        return any(w in d.lower() for d in self.denials for w in wanted)

    async def add_service(
        self,
        *,
        name: str,
        version: str,
        description: str,
        endpoints: list[tuple[str, str, str, Handler]],
        stats: Callable[[], dict[str, Any]] | None = None,
    ) -> Any:
        """Register a NATS micro service (`$SRV.PING/INFO/STATS`), with its endpoints given as
        (name, subject, queue group, handler)."""
        from nats import micro

        service = await micro.add_service(
            self.nc,
            name=name,
            version=version,
            description=description,
            stats_handler=lambda _endpoint: {**(stats() if stats else {}), "misdirected": self.misdirected},
            # which process answers: `tabletop up` tells a frozen one by its silence
            metadata={"pid": str(os.getpid())},
        )
        for endpoint_name, subject, queue, handler in endpoints:

            async def cb(request: Any, handler: Handler = handler) -> None:
                incoming = _incoming(request._msg, self)
                if incoming is not None:
                    await answering_failures(handler, incoming)

            await service.add_endpoint(
                name=endpoint_name,
                subject=subject,
                queue_group=queue,
                handler=cb,
            )
        return service

    async def service_instances(
        self,
        name: str | None = None,
        *,
        window: float = 0.2,
    ) -> dict[str, dict[str, Any]]:
        """The micro service instances (all, or those of service `name`) that answer
        `$SRV.INFO` within `window` seconds: instance id -> its info (name, endpoints...)."""
        found: dict[str, dict[str, Any]] = {}
        for body in await self.gather("$SRV.INFO" + (f".{name}" if name else ""), wait=window):
            info = json.loads(body)
            found[info["id"]] = info
        return found

    async def answering_pids(self, expected: Collection[int], *, wait: float = 0.5) -> set[int]:
        """The processes (by the pid each service gives in its metadata, `add_service`) whose
        micro services answer `$SRV.PING` within `wait` seconds, or as soon as all of
        `expected` have. Raises when NATS itself does not answer the round trip."""
        pids: set[int] = set()
        everyone = asyncio.Event()

        async def answered(msg: Msg) -> None:
            try:
                pids.add(int(json.loads(msg.data)["metadata"]["pid"]))
            except (ValueError, KeyError, TypeError):
                return
            if set(expected) <= pids:
                everyone.set()

        inbox = self.nc.new_inbox()
        sub = await self.nc.subscribe(inbox, cb=answered)
        try:
            await self.nc.publish("$SRV.PING", b"", reply=inbox)
            await self.nc.flush(timeout=1)
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(everyone.wait(), wait)
        finally:
            with contextlib.suppress(*TRANSIENT):  # the connection is gone: so is the subscription
                await sub.unsubscribe()
        return pids

    # --- durable consumers -----------------------------------------------------------------

    async def consume(
        self,
        durable: str,
        subject: str,
        handle: Callable[[list[Delivered]], Awaitable[set[int]]],
        *,
        stop: asyncio.Event,
        batch: int = 256,
        idle: Callable[[], Awaitable[None]] | None = None,
        stream: str = subjects.STREAM,
        ack_all: bool = False,
        formerly: str | None = None,
        opened: Callable[[int], Awaitable[None]] | None = None,
    ) -> None:
        """Feed `handle` the log messages on `subject` in order, in batches, until `stop` is
        set. `handle` returns the stream sequences it could not finish; no message is
        acknowledged before it is handled. `idle` is awaited whenever nothing is left to
        deliver. Survives NATS restarts: the pull is set up again after a reconnect or an
        error (nats.py #504). `opened(ack_floor)` is awaited each time the consumer has been
        (re)opened (at the start, after a reconnect, an error, or the consumer deleted under
        it), before anything more is delivered; what it raises is retried like an error.

        Acknowledged one by one (the default, for a consumer that several processes read), the
        messages not finished are handed back to the server to be delivered again a little
        later. With `ack_all` (AckPolicy.ALL, for a consumer with one reader), a batch costs one
        acknowledgement, of the last message of its longest prefix that was finished; the
        messages from the first one not finished on are delivered again a little later (the
        consumer is made again to start from there: a later acknowledgement would otherwise
        cover them). An ack policy cannot change: `formerly` names the durable that read these
        messages before under another configuration; `durable`, when made, starts after its
        ack floor, and it is deleted.

        The pull is this connection's own rather than nats-py's `fetch`: one pull request
        stays open for up to `batch` messages, and whatever has arrived is handled at once,
        all of it as one batch (nats-py's fetch takes a task and a timer per message, and
        waits for its batch or its expiry before handing any over)."""
        config = _consumer_config(durable, subject, batch, ack_all=ack_all)
        puller: _Puller | None = None
        subscribed_at = -1
        try:
            while not stop.is_set():
                try:
                    if self.nc.is_closed:
                        raise ConnectionClosed(f"{durable}: the connection is closed")
                    if puller is None or subscribed_at != self.reconnects:
                        if puller is not None:
                            await puller.close()
                            puller = None
                        floor = await self._open_consumer(config, stream, formerly)
                        formerly = None  # taken over (or never there): once is enough
                        subscribed_at = self.reconnects
                        if opened is not None:
                            await opened(floor)
                        puller = await _Puller.open(self, durable, batch, stream)
                    messages, replies = await puller.take()
                    if not messages:
                        if idle is not None:
                            await idle()
                        continue
                    retry = await handle(messages)
                    if not ack_all:
                        for message, reply in zip(messages, replies, strict=True):
                            await self.nc.publish(reply, _NAK_LATER if message.seq in retry else _ACK)
                        continue
                    finished = next((i for i, m in enumerate(messages) if m.seq in retry), len(messages))
                    if finished:
                        await self.nc.publish(replies[finished - 1], _ACK)
                    if retry:
                        await puller.close()
                        puller = None
                        await asyncio.sleep(RETRY_DELAY)
                        # from the first message not finished, whenever the server takes the
                        # acknowledgement above
                        await self._start_consumer_at(config, messages[finished].seq, stream)
                except (*TRANSIENT, nats.js.errors.APIError, Unavailable) as err:
                    log.warning("consumer_retrying", durable=durable, error=repr(err))
                    if puller is not None:  # a subscription left behind stalls drain
                        await puller.close()
                    puller = None
                    await asyncio.sleep(0.5)
        finally:
            if puller is not None:  # else draining the connection waits for it
                await puller.close()

    async def _open_consumer(self, config: ConsumerConfig, stream: str, formerly: str | None) -> int:
        """The durable consumer of `config`, ready to read before it is subscribed (one look
        at it); returns its ack floor (the stream sequence it has acknowledged up to):
        - missing: made, after the ack floor of the durable `formerly` when that exists, which
          is then deleted (see `consume`);
        - holding messages fetched but never acknowledged (by a predecessor that died, or by
          this process when the server went away under it), which would only come again once
          their ack wait runs out: started again just after its ack floor, so they come at
          once. Only the partition's one owner does this."""
        durable = config.durable_name
        assert durable is not None
        try:
            info = await self.js.consumer_info(stream, durable)
        except nats.js.errors.NotFoundError:
            former = None
            if formerly is not None:
                try:
                    former = await self.js.consumer_info(stream, formerly)
                except nats.js.errors.NotFoundError:
                    pass
            if former is None:
                floor = 0
                await self.js.add_consumer(stream, config=dataclasses.replace(config, name=durable))
            else:
                floor = former.ack_floor.stream_seq if former.ack_floor else 0
                log.info("consumer_taken_over", durable=durable, formerly=formerly, ack_floor=floor)
                await self._start_consumer_at(config, floor + 1, stream)
        else:
            floor = info.ack_floor.stream_seq if info.ack_floor else 0
            if info.num_ack_pending:
                log.info(
                    "consumer_resumed_at_ack_floor",
                    durable=durable,
                    ack_floor=floor,
                    unacknowledged=info.num_ack_pending,
                )
                await self._start_consumer_at(config, floor + 1, stream)
        if formerly is not None:  # also when a process stopped between the two
            await self.delete_consumer(formerly, stream=stream)
        return floor

    async def _start_consumer_at(self, config: ConsumerConfig, seq: int, stream: str) -> None:
        """The durable consumer of `config` made (again) to deliver from stream sequence `seq`."""
        assert config.durable_name is not None
        await self.delete_consumer(config.durable_name, stream=stream)
        await self.js.add_consumer(
            stream,
            config=dataclasses.replace(
                config,
                name=config.durable_name,
                deliver_policy=DeliverPolicy.BY_START_SEQUENCE,
                opt_start_seq=seq,
            ),
        )

    async def start_consumer_after(
        self, durable: str, subject: str, seq: int, *, ack_all: bool = False
    ) -> bool:
        """The durable consumer `durable` of `subject` (see `consume`), made again to deliver
        what comes after stream sequence `seq` (a rebuild read the log up to there itself).

        Deleting and making a consumer are two requests: its reader, running meanwhile, may
        make it again between them (`consume` makes a missing consumer, from the first
        message), and JetStream then refuses this one's start position as an update. That
        consumer is left as it is, and False returned: its reader, which forgets what it held
        whenever its consumer is opened again, reads the log from there."""
        try:
            await self._start_consumer_at(
                _consumer_config(durable, subject, ack_all=ack_all), seq + 1, subjects.STREAM
            )
        except nats.js.errors.APIError:
            try:
                await self.js.consumer_info(subjects.STREAM, durable)
            except nats.js.errors.NotFoundError:
                raise Unavailable(f"consumer {durable} not made") from None
            log.info("consumer_made_by_its_reader", durable=durable)
            return False
        return True

    async def consumer_pending(self, durable: str) -> tuple[int, int] | None:
        """(messages not yet delivered, delivered but not acknowledged) of a durable consumer,
        None when it does not exist."""
        try:
            info = await self.js.consumer_info(subjects.STREAM, durable)
        except nats.js.errors.NotFoundError:
            return None
        except TRANSIENT as err:
            raise Unavailable(str(err) or type(err).__name__) from err
        return info.num_pending or 0, info.num_ack_pending or 0

    async def delete_consumer(self, durable: str, *, stream: str = subjects.STREAM) -> None:
        try:
            await self.js.delete_consumer(stream, durable)
        except nats.js.errors.NotFoundError:
            pass

    async def table_subjects(self, pattern: str = subjects.EVT_ALL) -> dict[str, int]:
        """Every stored table subject of the log (matching `pattern`) with its message count."""
        found: dict[str, int] = {}
        while True:  # the server answers in pages
            request = {"subjects_filter": pattern, "offset": len(found)}
            try:
                msg = await self.nc.request(
                    f"$JS.API.STREAM.INFO.{subjects.STREAM}", json.dumps(request).encode(), timeout=10
                )
            except TRANSIENT as err:
                raise Unavailable(str(err) or type(err).__name__) from err
            state = json.loads(msg.data).get("state", {})
            page = state.get("subjects") or {}
            found.update(page)
            if not page or len(found) >= state.get("num_subjects", 0):
                return found

    async def gather(self, subject: str, body: bytes = b"", *, wait: float = 1.0) -> list[bytes]:
        """Every answer to a request that several services answer (`$SRV.STATS.<name>`),
        collected for `wait` seconds."""
        inbox = self.nc.new_inbox()
        answers: list[bytes] = []

        async def collect(msg: Msg) -> None:
            if msg.data and not (msg.headers or {}).get("Status"):  # not "no responders"
                answers.append(msg.data)

        sub = await self.nc.subscribe(inbox, cb=collect)
        try:
            await self.nc.publish(subject, body, reply=inbox)
            await asyncio.sleep(wait)  # nobody says how many will answer: collect for a while
        finally:
            await sub.unsubscribe()
        return answers


def _consumer_config(
    durable: str, subject: str, batch: int = 256, *, ack_all: bool = False
) -> ConsumerConfig:
    return ConsumerConfig(
        durable_name=durable,
        ack_policy=AckPolicy.ALL if ack_all else AckPolicy.EXPLICIT,
        deliver_policy=DeliverPolicy.ALL,
        ack_wait=30,
        max_ack_pending=batch * 4,
        filter_subject=subject,
        max_deliver=-1,
    )


class _PutWindow:
    """Puts in flight together (`Bus.put_views`): done once each is acknowledged."""

    def __init__(self, done: asyncio.Future[None]) -> None:
        self.done = done
        self.keys: dict[str, str] = {}  # reply subject -> key
        self.acks: set[str] = set()  # reply subjects answered
        self.refused: set[str] = set()  # of those, the ones not stored
        self.closed = False

    def acknowledged(self, reply: str, ack: bytes) -> None:
        # `{"stream":..,"seq":..}`; else an error, or no responders (empty)
        self.acks.add(reply)
        if not ack or b'"error"' in ack:
            self.refused.add(reply)
        self._check()

    def close(self) -> None:
        """No more puts join this window."""
        self.closed = True
        self._check()

    def _check(self) -> None:
        if self.closed and len(self.acks) == len(self.keys) and not self.done.done():
            self.done.set_result(None)


PULL_EXPIRES = 1.0  # seconds a pull request stays open on the server for messages to come
PULL_IDLE = 0.5  # seconds without a message after which `consume` says it is idle


class _Puller:
    """One durable pull consumer, read through an inbox of this connection: a pull request
    for up to `batch` messages stays open (`PULL_EXPIRES`), its messages are taken as the
    connection reads them (`_Client.takers`), `take` hands over all that has arrived, and a
    new request goes out as soon as the previous one is used up or ends."""

    def __init__(self, bus: Bus, durable: str, batch: int, stream: str) -> None:
        self.bus = bus
        self.batch = batch
        self.next_subject = f"$JS.API.CONSUMER.MSG.NEXT.{stream}.{durable}"
        self.inbox = bus.nc.new_inbox()
        self.arrived: list[tuple[bytes, bytes, bytes, bytes | None]] = []
        self.more = asyncio.Event()
        self.owed = 0  # messages the open request may still bring
        self.asked_at = 0.0
        self.sub: Subscription | None = None
        self.consumer_seq = 0  # of the last message delivered (see `_consumer_seq`)

    @classmethod
    async def open(cls, bus: Bus, durable: str, batch: int, stream: str = subjects.STREAM) -> _Puller:
        puller = cls(bus, durable, batch, stream)

        def arrived(subject: bytes, reply: bytes, data: bytes, headers: bytes | None) -> None:
            puller.arrived.append((subject, reply, data, headers))
            puller.more.set()

        puller.sub = await bus.nc.subscribe(puller.inbox)
        bus.nc.takers[puller.sub._id] = arrived
        return puller

    async def _ask(self) -> None:
        self.owed = self.batch
        self.asked_at = asyncio.get_running_loop().time()
        request = b'{"batch":%d,"expires":%d}' % (self.batch, int(PULL_EXPIRES * 1e9))
        await self.bus.nc.publish(self.next_subject, request, reply=self.inbox)

    async def take(self) -> tuple[list[Delivered], list[str]]:
        """The messages that have arrived and the reply subjects that acknowledge them,
        waiting up to `PULL_IDLE` seconds for one; none when none came (nothing to
        deliver)."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + PULL_IDLE
        while True:
            if self.owed <= 0 or loop.time() - self.asked_at > PULL_EXPIRES + PULL_IDLE:
                await self._ask()  # used up, ended, or lost (the server ends it by then)
            if not self.arrived:
                self.more.clear()
                try:
                    await asyncio.wait_for(self.more.wait(), max(deadline - loop.time(), 0))
                except TimeoutError:
                    return [], []
            arrived, self.arrived = self.arrived, []
            messages: list[Delivered] = []
            replies: list[str] = []
            for subject, reply, data, block in arrived:
                if data and block is not None and block.startswith(_NO_STATUS):  # a log message
                    status, headers, writer = None, {}, _header(block, WRITER) or ""
                else:  # a status (end of the request, heartbeat...), or an odd message
                    headers = await self.bus.nc._process_headers(block) or {}
                    status = None if data else headers.get("Status")
                    writer = headers.get(WRITER, "")
                if status is None:
                    replies.append(reply.decode())
                    messages.append(_delivered(subject.decode(), replies[-1], data, writer))
                    self.owed -= 1
                elif status in ("404", "408", "409"):  # the request ended: nothing left,
                    self.owed = 0  # expired, or refused (a leader change...): ask again
                    if status == "409" and "deleted" in headers.get("Description", "").lower():
                        raise Unavailable("the consumer was deleted")
                elif status != "100":  # 100: a heartbeat; else JetStream refused the pull
                    raise Unavailable(f"pull refused: {status} {headers.get('Description', '')}")
            if messages:
                # A consumer counts its deliveries from 1, redeliveries included: a count that
                # goes back is another consumer of that name, made (by a rebuild) between two
                # pulls without this one seeing its predecessor deleted. Its reader must open
                # it as any new consumer (`consume`'s `opened`).
                if _consumer_seq(replies[0]) <= self.consumer_seq:
                    raise Unavailable("the consumer was made again")
                self.consumer_seq = _consumer_seq(replies[-1])
                return messages, replies

    async def close(self) -> None:
        if self.sub is not None:
            self.bus.nc.takers.pop(self.sub._id, None)
        await _quietly_unsubscribe(self.sub)
        self.sub = None


# Seconds a closing service waits for what it received to be handled before it disconnects
# anyway: a stop must not hang on a subscription that never drains.
DRAIN_TIMEOUT = 5
RETRY_DELAY = 1.0  # seconds before a message that could not be handled is delivered again
_ACK = b"+ACK"
_NAK_LATER = b'-NAK {"delay":%d}' % int(RETRY_DELAY * 1e9)


@dataclass(frozen=True, slots=True)
class Delivered:
    """One log message as a durable consumer delivers it."""

    seq: int
    subject: str
    data: bytes
    writer: str
    pending: int  # messages of the consumer still to deliver after this one


def _consumer_seq(reply: str) -> int:
    """The consumer's own count of its deliveries, from a delivery's reply subject (see
    `delivery_position`: the token after the stream sequence)."""
    tokens = reply.split(".")
    return int(tokens[6 if len(tokens) == 9 else 8])


def _delivered(subject: str, reply: str, data: bytes, writer: str) -> Delivered:
    """A log message as a consumer delivers it, its position read from its reply subject."""
    seq, pending = delivery_position(reply)
    return Delivered(seq, subject, data, writer, pending)
