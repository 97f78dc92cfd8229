"""The views bucket (`TABLETOP_VIEWS`): each table's views (every viewer's, one key), and the
lobby."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Awaitable, Callable, Iterable
from typing import Any, TypeVar

import nats.js.errors
import structlog
from nats.aio.subscription import Subscription
from nats.js.api import DiscardPolicy, KeyValueConfig, PersistMode, StorageType, StreamConfig

from shared.bus.buckets import STREAM_NAME_IN_USE, Bucket, current_values, watch_keys
from shared.bus.connecting import Connected, Watch
from shared.bus.errors import Unavailable
from shared.bus.event_store import TRANSIENT
from shared.bus.messaging import release
from shared.bus.nats_internals import FastClient
from shared.bus.view_puts import PipelinedPuts
from shared.messages import subjects
from shared.messages.envelopes import TableViews, read_table_views, table_views_body, version_said
from shared.settings import Settings

log = structlog.get_logger("tabletop.bus")
WATCH_RETRY_DELAY = 0.5  # seconds before a watch that failed starts again
WATCH_LOOK_EVERY = 1.0  # seconds between looks at whether the connection came back
T = TypeVar("T")
# The key that says which layout the views bucket has: one key a table's views
LAYOUT_KEY = "layout"
LAYOUT = b"views by table"


class Views(Connected):
    def __init__(self, nc: FastClient, watch: Watch, settings: Settings) -> None:
        super().__init__(nc, watch, settings)
        self._kv: Any = None
        self._puts = PipelinedPuts(nc)

    async def ensure_views(self) -> None:
        """The views bucket exists."""
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
        """nats-py's handle on the views bucket."""
        if self._kv is None:
            self._kv = await self.js.key_value(subjects.VIEWS_BUCKET)
        return self._kv

    async def on_one_server(self, write: Callable[[], Awaitable[T]]) -> T:
        """`write()`, done again whole until the connection stays on one server from its start
        to its end. On one node the bucket acknowledges a put before it reaches the disk, so a
        server killed loses a suffix of what it acknowledged: of puts made in order (a table's
        lobby entry, then its views), a later one kept means every earlier one kept, which is
        what the projector trusts. That holds only if the server did not change between the
        acknowledgements: the old one may have lost the lobby entry while the new one keeps
        the views."""
        while True:
            since = self.watch.disconnects
            done = await write()
            if self.watch.disconnects == since:
                return done
            log.warning("views_written_again_whole", reason="the connection changed server meanwhile")

    async def view_get(self, key: str) -> bytes | None:
        return await Bucket(self.js, subjects.VIEWS_BUCKET, await self.views()).get(key)

    async def table_views(self, game: str, table: str) -> TableViews | None:
        """A table's stored views; None when there are none (or the value is not such a
        record: written again by the projector's checks)."""
        stored = await self.view_get(subjects.views_key(game, table))
        return None if stored is None else read_table_views(stored)

    async def carry_over_former_views(self) -> int:
        """Views stored one key a viewer (`subjects.former_view_key`, before a table's views
        were one key) made into the table's one key, then dropped; returns the tables carried
        over. Each is the spectator's view's version with the seat views of that version (a
        player who left kept an older one, and sees the spectator's now). Written only where
        the table has no views of the new kind, so a projector that wrote newer ones meanwhile
        keeps them; several replicas doing it at once write each table once. Done once a
        bucket: it is marked (`LAYOUT_KEY`) when done."""
        if await self.view_get(LAYOUT_KEY) == LAYOUT:
            return 0
        former = await self.view_entries("view.>")
        by_table: dict[tuple[str, str], dict[str, bytes]] = {}
        for key, body in former.items():
            parts = key.split(".")
            if len(parts) == 4:
                by_table.setdefault((parts[1], parts[2]), {})[parts[3]] = body
        bucket = Bucket(self.js, subjects.VIEWS_BUCKET, await self.views())
        carried = 0
        for (game, table), bodies in by_table.items():
            spectator = bodies.get(subjects.SPECTATOR)
            version = None if spectator is None else version_said(spectator)
            if version is not None:
                current = {viewer: body for viewer, body in bodies.items() if version_said(body) == version}
                carried += await bucket.create(
                    subjects.views_key(game, table), table_views_body(version, current)
                )
            for viewer in bodies:
                await self.view_delete(subjects.former_view_key(game, table, viewer))
        if former:
            log.info("views_carried_over", tables=carried, keys=len(former))
        await self.view_put(LAYOUT_KEY, LAYOUT)
        return carried

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
        """Store many views, up to `in_flight` puts awaiting their acknowledgement at once
        (`view_puts`). Returns the keys not stored: refused, or not acknowledged within
        `timeout` seconds."""
        await self.views()
        return await self._puts.put(items, in_flight=in_flight, timeout=timeout)

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
        the current ones first, then every change, as they are read (`watch_keys`), until
        `stop` is set. The watch is started again from the current values after a reconnect
        or an error (nats.py #510)."""
        watching: Subscription | None = None
        watching_since = -1
        try:
            while not stop.is_set():
                try:
                    if watching is None or watching_since != self.watch.reconnects:
                        watching_since = self.watch.reconnects
                        if watching is not None:
                            await release(watching, drain=False)
                        watching = None
                        await self.views()  # the bucket is there
                        watching = await watch_keys(self.js, subjects.VIEWS_BUCKET, pattern, on_entry)
                    with contextlib.suppress(TimeoutError):
                        await asyncio.wait_for(stop.wait(), WATCH_LOOK_EVERY)
                except (*TRANSIENT, nats.js.errors.APIError, Unavailable) as err:
                    log.warning("watch_retrying", pattern=pattern, error=repr(err))
                    if watching is not None:
                        await release(watching, drain=False)
                    watching = None
                    await asyncio.sleep(WATCH_RETRY_DELAY)
        finally:
            if watching is not None:
                await release(watching, drain=False)

    async def view_entries(self, pattern: str) -> dict[str, bytes]:
        """Every live view key matching `pattern` (a NATS wildcard) with its value."""
        await self.views()
        return await current_values(self.js, subjects.VIEWS_BUCKET, pattern)

    async def reset_views(self) -> None:
        """Drop every view (a rebuild starts from nothing)."""
        try:
            await self.js.delete_key_value(subjects.VIEWS_BUCKET)
        except nats.js.errors.NotFoundError:
            pass
        self._kv = None
        await self.ensure_views()
