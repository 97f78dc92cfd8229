"""Many views put at once: each put is one publish to the bucket's subject with a reply subject
of this connection's own, and a window of puts is awaited as one (a `kv.put` costs a request
of its own: a future, a timer and a decoded reply); the acknowledgements are taken as the
connection reads them (`FastClient.takers`), without nats-py's message object and queue."""

from __future__ import annotations

import asyncio
from collections.abc import Iterable

from shared.bus.event_store import TRANSIENT
from shared.bus.nats_internals import FastClient
from shared.messages import subjects


class PipelinedPuts:
    """The puts of one connection to the views bucket; the subscription that takes their
    acknowledgements is made on first use."""

    def __init__(self, nc: FastClient) -> None:
        self.nc = nc
        self._waiting: dict[str, _PutWindow] | None = None  # reply subject -> its window
        self._prefix = ""
        self._puts = 0

    async def put(self, items: Iterable[tuple[str, bytes]], *, in_flight: int, timeout: float) -> set[str]:
        """Store `items`, up to `in_flight` puts awaiting their acknowledgement at once; the
        keys not stored: refused, or not acknowledged within `timeout` seconds."""
        waiting = await self._inbox()
        failed: set[str] = set()
        window = _PutWindow(asyncio.get_running_loop().create_future())
        for key, value in items:
            self._puts += 1
            reply = f"{self._prefix}.{self._puts}"
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

    async def _inbox(self) -> dict[str, _PutWindow]:
        if self._waiting is None:
            prefix = self.nc.new_inbox()
            waiting: dict[str, _PutWindow] = {}

            def arrived(subject: bytes, reply: bytes, data: bytes, headers: bytes | None) -> None:
                # as the connection reads it: an acknowledgement (or a status: empty data)
                to = subject.decode()
                window = waiting.pop(to, None)
                if window is not None:
                    window.acknowledged(to, data)

            await self.nc.subscribe_taking(f"{prefix}.*", arrived)
            self._waiting, self._prefix = waiting, prefix
        return self._waiting

    async def _acknowledged(self, window: _PutWindow, timeout: float) -> set[str]:
        """The keys of `window` not acknowledged as stored."""
        window.close()
        try:
            async with asyncio.timeout(timeout):
                await window.done
        except TimeoutError:
            if self._waiting is not None:  # forget the puts that will not be answered
                for reply in window.keys:
                    self._waiting.pop(reply, None)
        return {window.keys[reply] for reply in window.refused} | {
            key for reply, key in window.keys.items() if reply not in window.acks
        }


class _PutWindow:
    """Puts in flight together: done once each is acknowledged."""

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
