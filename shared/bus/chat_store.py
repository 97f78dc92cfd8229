"""The chat stream (`TABLETOP_CHAT`): each room's last lines, apart from the game log.

A room keeps its last `ROOM_KEEPS` lines for at most `CHAT_MAX_AGE`; the stream as a whole at
most `CHAT_MAX_BYTES` (the oldest lines go first). A line sent again with the same id within
the duplicate window is stored once.
"""

from __future__ import annotations

import nats.js.errors
from nats.aio.client import Client
from nats.js import JetStreamContext
from nats.js.api import DiscardPolicy, StorageType, StreamConfig

from shared.bus.errors import OutcomeUnknown, StorageFull, Unavailable
from shared.bus.event_store import TRANSIENT, Appended, direct_reads, storage_full
from shared.messages import subjects
from shared.messages.chat import ROOM_KEEPS

CHAT_MAX_AGE = 30 * 24 * 3600.0  # seconds a line is kept
CHAT_MAX_BYTES = 256 * 1024 * 1024
CHAT_MAX_LINE_BYTES = 8 * 1024  # a line of 500 characters with its fields fits several times
CHAT_DUPLICATE_WINDOW = 120.0  # seconds within which a line sent again is stored once


class ChatStore:
    def __init__(self, nc: Client, js: JetStreamContext, *, replicas: int = 1, timeout: float = 5.0) -> None:
        self.nc = nc
        self.js = js
        self.replicas = replicas
        self.timeout = timeout

    def stream_config(self) -> StreamConfig:
        return StreamConfig(
            name=subjects.CHAT_STREAM,
            subjects=[subjects.CHAT_STORED_ALL],
            storage=StorageType.FILE,
            num_replicas=self.replicas,
            max_msgs_per_subject=ROOM_KEEPS,
            max_age=CHAT_MAX_AGE,
            max_bytes=CHAT_MAX_BYTES,
            max_msg_size=CHAT_MAX_LINE_BYTES,
            discard=DiscardPolicy.OLD,
            duplicate_window=CHAT_DUPLICATE_WINDOW,
            allow_direct=True,
            description="tabletop: the last chat lines of each lobby and table (never the game log)",
        )

    async def ensure_stream(self) -> None:
        config = self.stream_config()
        try:
            await self.js.stream_info(subjects.CHAT_STREAM)
        except nats.js.errors.NotFoundError:
            await self.js.add_stream(config)
        else:
            await self.js.update_stream(config)

    async def append(self, game: str, table: str | None, data: bytes, *, line_id: str) -> Appended:
        """Keep a line of a room (`table` None: the game's lobby). StorageFull or Unavailable
        when the stream refused it (nothing stored), OutcomeUnknown when no answer came."""
        try:
            ack = await self.js.publish(
                subjects.chat_stored(game, table),
                data,
                stream=subjects.CHAT_STREAM,
                headers={"Nats-Msg-Id": f"{subjects.room(game, table)}.{line_id}"},
                timeout=self.timeout,
            )
        except nats.js.errors.APIError as err:
            if storage_full(err):
                raise StorageFull(f"the chat's storage is full: {err}") from err
            raise Unavailable(f"the chat stream refused the line: {err}") from err
        except TRANSIENT as err:
            raise OutcomeUnknown(str(err) or type(err).__name__) from err
        return Appended(ack.seq, bool(ack.duplicate))

    async def lines(self, game: str, table: str | None) -> list[bytes]:
        """Every line the stream keeps of a room, oldest first."""
        subject = subjects.chat_stored(game, table)
        try:
            return [
                m.data
                async for m in direct_reads(
                    self.nc, subjects.CHAT_STREAM, subject, first_page=ROOM_KEEPS, timeout=self.timeout
                )
            ]
        except TRANSIENT as err:
            raise Unavailable(str(err) or type(err).__name__) from err
