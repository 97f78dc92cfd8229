"""The services, started in this process on their own NATS connections, for tests: built by
the composition root as `tabletop up` builds them, each signed in as its own role where the
embedded server made the roles' credentials (else as the session's user, with `NATS_URL`)."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator

from services import compose
from shared.bus.connection import Bus
from shared.bus.credentials import Credentials, ServerSecrets
from shared.settings import load_settings


def role_credentials(role: str) -> Credentials | None:
    """The role's own credentials when this machine's credentials folder has them."""
    folder = load_settings().credentials_folder
    return ServerSecrets(folder).credentials(role) if (folder / role).exists() else None


def service_of(name: str) -> compose.Service:
    """`worker:<game>` (`worker:<game>#2` for a second replica; `worker:<game>+<game>` for the
    workers of several games in one service), `table-projector`
    (`table-projector@1/2` for shard 1 of 2), `history-projector`, `results-projector`,
    `chat` or `bots` (`bots#2`)."""
    kind, _, rest = name.partition(":")
    if kind == "worker":
        return compose.worker(*rest.split("#")[0].split("+"))
    kind, _, shard = name.partition("@")
    if kind == "table-projector":
        index, count = map(int, (shard or "0/1").split("/"))
        return compose.table_projector((index, count))
    if name.split("#")[0] == "bots":  # `bots#2`: a second replica
        return compose.bots()
    if name == "results-projector":
        return compose.results_projector()
    if name == "chat":
        return compose.chat()
    assert name == "history-projector", f"no service {name!r}"
    return compose.history_projector()


class Stack:
    def __init__(self, url: str, probe: Bus) -> None:
        self.url = url
        self.probe = probe  # asks which services answer
        # name -> its stop event and its task; name -> its own connection
        self.services: dict[str, tuple[asyncio.Event, asyncio.Task[object]]] = {}
        self.buses: dict[str, Bus] = {}

    async def start(self, *names: str) -> None:
        """Start the services `names` (see `service_of`) side by side and wait until each
        answers requests. Replicas of one service start one after the other: a new replica
        is told from the running ones only by answering besides them."""
        pending = list(names)
        while pending:
            batch: dict[str, str] = {}  # the micro service names each answers as -> service
            for name in list(pending):
                answers_as = service_of(name).answers_as
                assert answers_as
                if not batch.keys() & set(answers_as):
                    batch.update(dict.fromkeys(answers_as, name))
                    pending.remove(name)
            before = set(await self.probe.service_instances())
            tasks = [self._run(name) for name in dict.fromkeys(batch.values())]
            missing = await compose.until_answering(self.probe, list(batch), besides=before, running=tasks)
            assert not missing, f"{sorted(batch[m] for m in missing)} did not answer"

    def _run(self, name: str) -> asyncio.Task[object]:
        service = service_of(name)

        async def serve() -> object:
            bus = await Bus.connect(
                self.url,
                self.probe.settings,
                name=f"test-{name}",
                wait=10,
                credentials=role_credentials(service.role),
            )
            self.buses[name] = bus
            return await service.serve(bus, stop)

        stop = asyncio.Event()
        task = asyncio.create_task(serve())
        self.services[name] = (stop, task)
        return task

    async def stop(self, name: str) -> None:
        stop, task = self.services.pop(name)
        stop.set()
        try:
            await asyncio.wait_for(task, 15)
        finally:
            bus = self.buses.pop(name, None)
            if bus is not None:
                await bus.close()

    async def kill(self, name: str) -> None:
        """End a service as a crash does: its task cancelled, nothing of a clean stop done."""
        _, task = self.services.pop(name)
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task
        bus = self.buses.pop(name, None)
        if bus is not None:
            await bus.close()

    async def stop_all(self) -> None:
        await asyncio.gather(*(self.stop(name) for name in list(self.services)))


@contextlib.asynccontextmanager
async def stack(url: str, *names: str) -> AsyncIterator[Stack]:
    probe = await Bus.connect(url, load_settings(), name="test-stack", wait=10)
    s = Stack(url, probe)
    try:
        await s.start(*names)
        yield s
    finally:
        await s.stop_all()
        await probe.close()
