"""Tasks a service starts and does not await where it starts them (one per request, per push,
per write): held here until they end, since the event loop keeps only a weak reference to a
running task, counted for the service's stats, and waited for when the service stops."""

from __future__ import annotations

import asyncio
from collections.abc import Coroutine
from typing import Any


class Background:
    def __init__(self) -> None:
        self._tasks: set[asyncio.Task[Any]] = set()

    def start(self, work: Coroutine[Any, Any, Any]) -> asyncio.Task[Any]:
        task = asyncio.create_task(work)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        return task

    def __len__(self) -> int:
        return len(self._tasks)

    async def finish(self, timeout: float) -> None:
        """Wait up to `timeout` seconds for the tasks running now (a service stopping)."""
        if self._tasks:
            await asyncio.wait(set(self._tasks), timeout=timeout)
