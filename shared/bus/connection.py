"""The connection to NATS and everything the services do over it.

Services see `Bus` and `Incoming` only: no other package imports nats. `Bus` is made of one
part per job, each in its module: `messaging` (publish, subscribe, request), `micro_services`
(`$SRV` registration and discovery), `buckets` (key-value buckets), `views` (the views
bucket), `consumers` (durable consumers of the log); `connecting` connects it, and
`nats_internals` holds all it takes from nats-py's private parts.
"""

from __future__ import annotations

import json

import nats.errors

from shared.bus.buckets import Bucket, Buckets, while_jetstream_starts
from shared.bus.chat_store import ChatStore
from shared.bus.connecting import MIN_SERVER_VERSION, Watch, open_connection, settings_credentials
from shared.bus.consumers import Consumers
from shared.bus.credentials import Credentials
from shared.bus.errors import BusError, Unavailable
from shared.bus.event_store import TRANSIENT, EventStore
from shared.bus.micro_services import MicroServices
from shared.bus.nats_internals import FastClient
from shared.bus.puller import Delivered
from shared.bus.replies import Handler, Incoming, answering_failures
from shared.bus.timers import DeadlineTimers
from shared.bus.views import Views
from shared.messages import subjects
from shared.settings import Settings

__all__ = [
    "FAILURES",
    "MIN_SERVER_VERSION",
    "Bucket",
    "Bus",
    "Delivered",
    "Handler",
    "Incoming",
    "answering_failures",
    "settings_credentials",
]

# Whatever talking to NATS may raise: the bus's own errors, and the client's (a refusal by
# JetStream, a timeout, a connection lost): what an operator's command reports, not crashes on.
FAILURES = (BusError, nats.errors.Error, TimeoutError, OSError)


class Bus(MicroServices, Buckets, Views, Consumers):
    """One NATS connection with JetStream, the event store, the deadlines, the views bucket
    and the chat stream."""

    def __init__(self, nc: FastClient, watch: Watch, settings: Settings) -> None:
        super().__init__(nc, watch, settings)
        self.events = EventStore(
            nc,
            self.js,
            replicas=settings.replicas,
            duplicate_window=settings.duplicate_window,
            log_streams=settings.log_streams,
        )
        self.timers = DeadlineTimers(self.js, replicas=settings.replicas)
        self.chat = ChatStore(nc, self.js, replicas=settings.replicas)

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
        nc, watch = await open_connection(
            url,
            name=name,
            credentials=settings_credentials(settings) if credentials is None else credentials,
            wait=wait,
            min_server_version=min_server_version,
        )
        return cls(nc, watch, settings)

    async def close(self) -> None:
        """Drain: finish what was received, flush what was sent, then disconnect."""
        self.watch.closing = True
        if not self.nc.is_closed:
            try:
                await self.nc.drain()
            except Exception:  # noqa: BLE001 - closing anyway
                await self.nc.close()

    async def ensure_streams(self) -> None:
        """The event and deadline streams and the views bucket exist (retrying while
        JetStream starts)."""

        async def ensure() -> None:
            await self.events.ensure_stream()
            await self.timers.ensure_stream()
            await self.ensure_views()

        await while_jetstream_starts(ensure)

    async def ensure_chat(self) -> None:
        """The chat stream exists (retrying while JetStream starts)."""
        await while_jetstream_starts(self.chat.ensure_stream)

    async def table_subjects(self, pattern: str = subjects.EVT_ALL) -> dict[str, int]:
        """Every stored table subject of the log (matching `pattern`) with its message count."""
        found: dict[str, int] = {}
        for stream in (await self.events.layout()).streams:
            found.update(await self._stream_subjects(stream, pattern))
        return found

    async def _stream_subjects(self, stream: str, pattern: str) -> dict[str, int]:
        found: dict[str, int] = {}
        while True:  # the server answers in pages
            request = {"subjects_filter": pattern, "offset": len(found)}
            try:
                msg = await self.nc.request(
                    f"$JS.API.STREAM.INFO.{stream}", json.dumps(request).encode(), timeout=10
                )
            except TRANSIENT as err:
                raise Unavailable(str(err) or type(err).__name__) from err
            state = json.loads(msg.data).get("state", {})
            page = state.get("subjects") or {}
            found.update(page)
            if not page or len(found) >= state.get("num_subjects", 0):
                return found
