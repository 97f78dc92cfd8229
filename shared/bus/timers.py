"""Deadlines of tables with clocks, kept by JetStream itself: no scheduler process of ours.

A worker schedules a deadline as a JetStream scheduled message (`Nats-Schedule: @at <instant>`,
nats-server 2.12+, ADR-51) on a subject of its own per table version; when the instant comes
the server publishes the message's body on the table's `deadline_due` subject, in the same
work-queue stream, and a durable consumer of the game's workers receives it even if every
worker was down at that instant. The body carries the table version the deadline was set for:
the worker decides it as a `deadline` command expecting that version, so a deadline the table
has moved past, or one delivered twice, changes nothing.
"""

from __future__ import annotations

import msgspec
import nats.js.errors
from nats.js import JetStreamContext
from nats.js.api import RetentionPolicy, StorageType, StreamConfig

from shared.bus.errors import BusError, StorageFull, Unavailable
from shared.bus.event_store import TRANSIENT, storage_full
from shared.messages import subjects


class DueDeadline(msgspec.Struct, frozen=True):
    version: int  # the table version the deadline was set for


class DeadlineTimers:
    def __init__(self, js: JetStreamContext, *, replicas: int = 1, timeout: float = 5.0) -> None:
        self.js = js
        self.replicas = replicas
        self.timeout = timeout

    def stream_config(self) -> StreamConfig:
        return StreamConfig(
            name=subjects.TIMERS_STREAM,
            subjects=[subjects.TIMERS_ALL],
            retention=RetentionPolicy.WORK_QUEUE,  # a deadline handled is gone
            storage=StorageType.FILE,
            num_replicas=self.replicas,
            allow_msg_schedules=True,
            description="tabletop: the deadlines of tables with clocks, due and to come",
        )

    async def ensure_stream(self) -> None:
        config = self.stream_config()
        try:
            await self.js.stream_info(subjects.TIMERS_STREAM)
        except nats.js.errors.NotFoundError:
            await self.js.add_stream(config)
        else:
            await self.js.update_stream(config)

    async def schedule(self, game: str, table: str, version: int, deadline: str) -> None:
        """Have the server deliver the deadline of `table` at `version` at `deadline` (UTC,
        ISO 8601; one already past is delivered at once)."""
        headers = {
            "Nats-Schedule": f"@at {deadline}",
            "Nats-Schedule-Target": subjects.deadline_due(game, table),
        }
        try:
            await self.js.publish(
                subjects.deadline_set(game, table, version),
                msgspec.json.encode(DueDeadline(version)),
                stream=subjects.TIMERS_STREAM,
                headers=headers,
                timeout=self.timeout,
            )
        except nats.js.errors.APIError as err:
            if storage_full(err):
                raise StorageFull(f"the deadlines' storage is full: {err}") from err
            raise BusError(str(err)) from err
        except TRANSIENT as err:
            raise Unavailable(str(err) or type(err).__name__) from err


def due_version(body: bytes) -> int | None:
    """The version a delivered deadline was set for, None if the body is not one."""
    try:
        return msgspec.json.decode(body, type=DueDeadline).version
    except (msgspec.DecodeError, msgspec.ValidationError):
        return None
