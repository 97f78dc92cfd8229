"""The services, started in this process on their own NATS connections, for tests: built by
the composition root as `tabletop up` builds them, signed in as the session's admin."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator

from services import compose
from shared.bus.connection import Bus
from shared.settings import load_settings


def service_of(name: str) -> compose.Service:
    """`worker:<game>` (`worker:<game>#2` for a second replica), `table-projector`
    (`table-projector@1/2` for shard 1 of 2) or `history-projector`."""
    kind, _, rest = name.partition(":")
    if kind == "worker":
        return compose.worker(rest.split("#")[0])
    kind, _, shard = name.partition("@")
    if kind == "table-projector":
        index, count = map(int, (shard or "0/1").split("/"))
        return compose.table_projector((index, count))
    assert name == "history-projector", f"no service {name!r}"
    return compose.history_projector()


class Stack:
    def __init__(self, url: str, probe: Bus) -> None:
        self.url = url
        self.probe = probe  # asks which services answer
        # name -> (its stop event, its task, its own connection)
        self.services: dict[str, tuple[asyncio.Event, asyncio.Task[object], Bus]] = {}

    async def start(self, name: str) -> None:
        """Start service `name` (see `service_of`) and wait until it answers requests."""
        service = service_of(name)
        assert service.answers_as is not None
        before = set(await self.probe.service_instances(service.answers_as))
        bus = await Bus.connect(self.url, self.probe.settings, name=f"test-{name}", wait=10)
        stop = asyncio.Event()
        task = asyncio.create_task(service.serve(bus, stop))
        self.services[name] = (stop, task, bus)
        missing = await compose.until_answering(
            self.probe, [service.answers_as], besides=before, running=[task]
        )
        assert not missing, f"{name} did not answer"

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
    probe = await Bus.connect(url, load_settings(), name="test-stack", wait=10)
    s = Stack(url, probe)
    try:
        for name in names:
            await s.start(name)
        yield s
    finally:
        await s.stop_all()
        await probe.close()
