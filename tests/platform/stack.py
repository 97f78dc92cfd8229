"""The services, started in this process on their own NATS connections, for tests."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator

from services.game_worker.app import serve_worker, service_name
from services.history_projector.replay import serve_history_projector
from services.table_projector.projector import serve_table_projector
from shared.bus.connection import Bus
from shared.settings import load_settings


SERVICE_NAMES = {
    "table-projector": "tabletop-table-projector",
    "history-projector": "tabletop-history-projector",
}


async def until_answering(bus: Bus, service: str, before: set[str], task: asyncio.Task[object],
                          timeout: float = 60.0) -> None:
    """Until an instance of `service` that was not in `before` answers with its endpoints: it
    answers requests from then on."""
    deadline = asyncio.get_running_loop().time() + timeout
    while True:
        if task.done():
            task.result()  # a service that failed to start says why
            raise AssertionError(f"{service} stopped before it answered")
        instances = await bus.service_instances(service)
        if any(info["endpoints"] for i, info in instances.items() if i not in before):
            return
        assert asyncio.get_running_loop().time() < deadline, f"{service} did not answer"


class Stack:
    def __init__(self, url: str) -> None:
        self.url = url
        self.services: dict[str, tuple[asyncio.Event, asyncio.Task[object], Bus]] = {}

    async def start(self, name: str) -> None:
        """`worker:<game>` (`worker:<game>#2` for a second replica), `table-projector`
        (`table-projector@1/2` for shard 1 of 2) or `history-projector`."""
        bus = await Bus.connect(self.url, load_settings(), name=f"test-{name}", wait=10)
        stop = asyncio.Event()
        if name.startswith("worker:"):
            coro = serve_worker(bus, name.split(":", 1)[1].split("#")[0], stop)
        elif name.startswith("table-projector"):  # `table-projector@1/2`: shard 1 of 2
            shard = name.partition("@")[2] or "0/1"
            index, count = map(int, shard.split("/"))
            coro = serve_table_projector(bus, stop, shard=(index, count))
        else:
            coro = serve_history_projector(bus, stop)
        service = SERVICE_NAMES.get(name.split("@")[0]) or service_name(
            name.split(":", 1)[1].split("#")[0])
        before = set(await bus.service_instances(service))
        task = asyncio.create_task(coro)
        self.services[name] = (stop, task, bus)
        await until_answering(bus, service, before, task)

    async def stop(self, name: str) -> None:
        stop, task, bus = self.services.pop(name)
        stop.set()
        await asyncio.wait_for(task, 15)
        await bus.close()

    async def stop_all(self) -> None:
        for name in list(self.services):
            await self.stop(name)


@contextlib.asynccontextmanager
async def stack(url: str, *names: str) -> AsyncIterator[Stack]:
    s = Stack(url)
    try:
        for name in names:
            await s.start(name)
        yield s
    finally:
        await s.stop_all()
