"""The connection to NATS and everything the services do over it.

Services see `Bus` and `Incoming` only: no other package imports nats.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

import nats
import nats.errors
import nats.js.errors
import structlog
from nats.aio.client import Client
from nats.aio.msg import Msg
from nats.aio.subscription import Subscription
from nats.js.api import ConsumerConfig, AckPolicy, DeliverPolicy, KeyValueConfig, StorageType

from shared.bus.credentials import Credentials
from shared.bus.errors import Forbidden, SignInRefused, Unavailable
from shared.bus.event_store import TRANSIENT, EventStore
from shared.messages import subjects
from shared.settings import Settings

log = structlog.get_logger("tabletop.bus")


@dataclass(frozen=True, slots=True)
class Incoming:
    """A request or message received by a service."""

    subject: str
    data: bytes
    reply: str
    _respond: Callable[[bytes], Awaitable[None]]

    async def respond(self, body: bytes) -> None:
        if self.reply:
            try:
                await self._respond(body)
            except TRANSIENT:  # the asker is gone or NATS is restarting: it will retry
                log.warning("reply_lost", subject=self.subject)


Handler = Callable[[Incoming], Awaitable[None]]


async def _quietly_unsubscribe(sub: Any) -> None:
    if sub is not None:
        try:
            await sub.unsubscribe()
        except Exception:  # noqa: BLE001 - the connection may be gone already
            pass


def _incoming(msg: Msg) -> Incoming:
    return Incoming(msg.subject, msg.data, msg.reply, msg.respond)


def settings_credentials(settings: Settings) -> Credentials:
    """The credentials the settings name: `NATS_USER` with `NATS_PASSWORD` or the file
    `NATS_PASSWORD_FILE`; none when no user is set."""
    password = settings.nats_password
    if not password and settings.nats_password_file:
        with open(settings.nats_password_file) as f:
            password = f.read().strip()
    return Credentials(user=settings.nats_user, password=password)


class Bucket:
    """A JetStream key-value bucket: current values, and creation that fails when the key is
    already there (two first sign-ins with one name register it once)."""

    def __init__(self, kv: Any) -> None:
        self._kv = kv

    async def get(self, key: str) -> bytes | None:
        try:
            entry = await self._kv.get(key)
        except nats.js.errors.KeyNotFoundError:
            return None
        except TRANSIENT as err:
            raise Unavailable(str(err) or type(err).__name__) from err
        return entry.value

    async def create(self, key: str, value: bytes) -> bool:
        """Store `value` under a new `key`; False when the key exists already."""
        try:
            await self._kv.create(key, value)
        except nats.js.errors.KeyWrongLastSequenceError:
            return False
        except TRANSIENT as err:
            raise Unavailable(str(err) or type(err).__name__) from err
        return True

    async def entries(self) -> dict[str, bytes]:
        found: dict[str, bytes] = {}
        watcher = await self._kv.watchall(ignore_deletes=True)
        try:
            async for entry in watcher:
                if entry is None:
                    break
                found[entry.key] = entry.value
        finally:
            await watcher.stop()
        return found


class Bus:
    """One NATS connection with JetStream, the event store and the views bucket."""

    def __init__(self, nc: Client, settings: Settings) -> None:
        self.nc = nc
        self.js = nc.jetstream(timeout=5.0)
        self.settings = settings
        self.events = EventStore(
            nc, self.js, replicas=settings.replicas, duplicate_window=settings.duplicate_window,
        )
        self._kv: Any = None
        self._reconnected = asyncio.Event()
        self.closing = False
        # The broker's "Permissions Violation" notices for this connection, oldest first.
        self.denials: list[str] = []

    @classmethod
    async def connect(
        cls, url: str, settings: Settings, *, name: str, wait: float | None = None,
        credentials: Credentials | None = None,
    ) -> Bus:
        """Connect to `url` as `credentials` (default: the settings' user), waiting for NATS to
        come up (forever unless `wait` is set). Refused credentials raise `SignInRefused`."""
        if credentials is None:
            credentials = settings_credentials(settings)
        bus_ref: list[Bus] = []

        async def reconnected() -> None:
            log.info("nats_reconnected", url=url)
            if bus_ref:
                bus_ref[0]._reconnected.set()

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
                nc = await nats.connect(
                    servers, name=name, max_reconnect_attempts=1, reconnect_time_wait=0.5,
                    connect_timeout=2, allow_reconnect=True, reconnected_cb=reconnected,
                    disconnected_cb=disconnected, error_cb=error,
                    inbox_prefix=credentials.inbox_prefix,
                    **({"user": credentials.user, "password": credentials.password}
                       if credentials.user else {}),
                )
                nc.options["max_reconnect_attempts"] = -1
                break
            except nats.errors.AuthorizationError as err:
                raise SignInRefused(f"NATS at {url} refused {credentials.user or 'anonymous'!r}") from err
            except (OSError, nats.errors.NoServersError, nats.errors.TimeoutError) as err:
                if refused:  # the server is there and said no: asking again will not help
                    raise SignInRefused(
                        f"NATS at {url} refused {credentials.user or 'anonymous'!r}") from err
                if deadline is not None and loop.time() > deadline:
                    raise Unavailable(f"no NATS at {url}: {err}") from err
                log.info("waiting_for_nats", url=url)
                await asyncio.sleep(delay)
                delay = min(delay * 2, 2.0)
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
        """The event stream and the views bucket exist (retrying while JetStream starts)."""
        for attempt in range(60):
            try:
                await self.events.ensure_stream()
                await self._ensure_views()
                return
            except (*TRANSIENT, nats.js.errors.APIError) as err:
                if attempt == 59:
                    raise Unavailable(f"JetStream is not ready: {err!r}") from err
                await asyncio.sleep(0.5)

    async def _ensure_views(self) -> None:
        self._kv = await self.js.create_key_value(
            KeyValueConfig(
                bucket=subjects.VIEWS_BUCKET, history=1, storage=StorageType.FILE,
                replicas=self.settings.replicas,
                description="tabletop: table views per viewer, and the lobby",
            )
        )

    async def views(self) -> Any:
        if self._kv is None:
            self._kv = await self.js.key_value(subjects.VIEWS_BUCKET)
        return self._kv

    async def bucket(self, name: str, *, description: str) -> Bucket:
        """The key-value bucket `name` of this connection's account, created if missing
        (retrying while JetStream starts)."""
        config = KeyValueConfig(bucket=name, history=1, storage=StorageType.FILE,
                                replicas=self.settings.replicas, description=description)
        for attempt in range(60):
            try:
                return Bucket(await self.js.create_key_value(config))
            except (*TRANSIENT, nats.js.errors.APIError) as err:
                if attempt == 59:
                    raise Unavailable(f"JetStream is not ready: {err!r}") from err
                await asyncio.sleep(0.5)
        raise AssertionError("unreachable")

    # --- views bucket -----------------------------------------------------------------------

    async def view_get(self, key: str) -> bytes | None:
        kv = await self.views()
        try:
            entry = await kv.get(key)
        except nats.js.errors.KeyNotFoundError:
            return None
        except TRANSIENT as err:
            raise Unavailable(str(err) or type(err).__name__) from err
        return entry.value

    async def view_put(self, key: str, value: bytes) -> None:
        kv = await self.views()
        await kv.put(key, value)

    async def view_delete(self, key: str) -> None:
        kv = await self.views()
        await kv.delete(key)

    async def view_entries(self, pattern: str) -> dict[str, bytes]:
        """Every live key matching `pattern` (a NATS wildcard) with its value."""
        kv = await self.views()
        found: dict[str, bytes] = {}
        watcher = await kv.watch(pattern, ignore_deletes=True)
        try:
            async for entry in watcher:
                if entry is None:  # end of the initial values
                    break
                found[entry.key] = entry.value
        finally:
            await watcher.stop()
        return found

    async def reset_views(self) -> None:
        """Drop every view (a rebuild starts from nothing)."""
        try:
            await self.js.delete_key_value(subjects.VIEWS_BUCKET)
        except nats.js.errors.NotFoundError:
            pass
        self._kv = None
        await self._ensure_views()

    # --- core messaging ---------------------------------------------------------------------

    async def subscribe(self, subject: str, handler: Handler, *, queue: str = "") -> Subscription:
        async def cb(msg: Msg) -> None:
            await handler(_incoming(msg))

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
        # nats-py lowercases the server's whole notice, the subject included
        wanted = f'{kind} to "{subject}"'.lower()
        return any(wanted in d.lower() for d in self.denials)

    async def add_service(
        self, *, name: str, version: str, description: str, endpoints: list[tuple[str, str, str, Handler]],
        stats: Callable[[], dict[str, Any]] | None = None,
    ) -> Any:
        """Register a NATS micro service (`$SRV.PING/INFO/STATS`), with its endpoints given as
        (name, subject, queue group, handler)."""
        from nats import micro

        service = await micro.add_service(
            self.nc, name=name, version=version, description=description,
            stats_handler=(lambda _endpoint: stats()) if stats else None,
        )
        for endpoint_name, subject, queue, handler in endpoints:
            async def cb(request: Any, handler: Handler = handler) -> None:
                msg = request._msg
                await handler(_incoming(msg))

            await service.add_endpoint(
                name=endpoint_name, subject=subject, queue_group=queue, handler=cb,
            )
        return service

    # --- durable consumer -------------------------------------------------------------------

    async def consume(
        self, durable: str, handle: Callable[[list[tuple[int, bytes]]], Awaitable[None]],
        *, stop: asyncio.Event, batch: int = 256, idle: Callable[[], Awaitable[None]] | None = None,
    ) -> None:
        """Feed `handle` the event log in order, in batches of (stream sequence, body), acking
        each batch only once handled, until `stop` is set. Survives NATS restarts: the pull
        subscription is created again after a reconnect or an error (nats.py #504)."""
        config = ConsumerConfig(
            durable_name=durable, ack_policy=AckPolicy.ALL, deliver_policy=DeliverPolicy.ALL,
            ack_wait=60, max_ack_pending=batch * 4, filter_subject=subjects.EVT_ALL,
            max_deliver=-1,
        )
        sub = None
        try:
            while not stop.is_set():
                try:
                    if sub is None or self._reconnected.is_set():
                        self._reconnected.clear()
                        await _quietly_unsubscribe(sub)
                        sub = await self.js.pull_subscribe(
                            subjects.EVT_ALL, durable=durable, stream=subjects.STREAM,
                            config=config,
                        )
                    try:
                        msgs = await sub.fetch(batch, timeout=0.5)
                    except (nats.errors.TimeoutError, TimeoutError):
                        msgs = []
                    if not msgs:
                        if idle is not None:
                            await idle()
                        continue
                    await handle([(m.metadata.sequence.stream, m.data) for m in msgs])
                    await msgs[-1].ack()  # AckPolicy.ALL: acknowledges the whole batch
                except (*TRANSIENT, nats.js.errors.APIError, Unavailable) as err:
                    log.warning("consumer_retrying", durable=durable, error=repr(err))
                    await _quietly_unsubscribe(sub)  # a subscription left behind stalls drain
                    sub = None
                    await asyncio.sleep(0.5)
        finally:
            await _quietly_unsubscribe(sub)  # else draining the connection waits for it

    async def delete_consumer(self, durable: str) -> None:
        try:
            await self.js.delete_consumer(subjects.STREAM, durable)
        except nats.js.errors.NotFoundError:
            pass
