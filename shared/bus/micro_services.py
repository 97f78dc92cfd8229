"""NATS micro services (`$SRV.PING/INFO/STATS`): registering a service's endpoints, and
finding the instances and processes that answer."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
from collections.abc import Callable, Collection
from typing import Any

from nats import micro
from nats.aio.msg import Msg

from shared.bus.event_store import TRANSIENT
from shared.bus.messaging import Messaging
from shared.bus.nats_internals import request_message
from shared.bus.replies import Handler, answering_failures, incoming


class MicroServices(Messaging):
    async def add_service(
        self,
        *,
        name: str,
        version: str,
        description: str,
        endpoints: list[tuple[str, str, str, Handler]],
        stats: Callable[[], dict[str, Any]] | None = None,
    ) -> Any:
        """Register a NATS micro service (`$SRV.PING/INFO/STATS`), with its endpoints given as
        (name, subject, queue group, handler)."""
        service = await micro.add_service(
            self.nc,
            name=name,
            version=version,
            description=description,
            stats_handler=lambda _endpoint: {
                **(stats() if stats else {}),
                "misdirected": self.misdirected.count,
            },
            # which process answers: `tabletop up` tells a frozen one by its silence
            metadata={"pid": str(os.getpid())},
        )
        for endpoint_name, subject, queue, handler in endpoints:

            async def cb(request: Any, handler: Handler = handler) -> None:
                message = incoming(request_message(request), self.nc, self.misdirected)
                if message is not None:
                    await answering_failures(handler, message)

            await service.add_endpoint(
                name=endpoint_name,
                subject=subject,
                queue_group=queue,
                handler=cb,
            )
        return service

    async def service_instances(
        self,
        name: str | None = None,
        *,
        window: float = 0.2,
    ) -> dict[str, dict[str, Any]]:
        """The micro service instances (all, or those of service `name`) that answer
        `$SRV.INFO` within `window` seconds: instance id -> its info (name, endpoints...)."""
        found: dict[str, dict[str, Any]] = {}
        for body in await self.gather("$SRV.INFO" + (f".{name}" if name else ""), wait=window):
            info = json.loads(body)
            found[info["id"]] = info
        return found

    async def answering_pids(self, expected: Collection[int], *, wait: float = 0.5) -> set[int]:
        """The processes (by the pid each service gives in its metadata, `add_service`) whose
        micro services answer `$SRV.PING` within `wait` seconds, or as soon as all of
        `expected` have. Raises when NATS itself does not answer the round trip."""
        pids: set[int] = set()
        everyone = asyncio.Event()

        async def answered(msg: Msg) -> None:
            try:
                pids.add(int(json.loads(msg.data)["metadata"]["pid"]))
            except (ValueError, KeyError, TypeError):
                return
            if set(expected) <= pids:
                everyone.set()

        inbox = self.nc.new_inbox()
        sub = await self.nc.subscribe(inbox, cb=answered)
        try:
            await self.nc.publish("$SRV.PING", b"", reply=inbox)
            await self.nc.flush(timeout=1)
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(everyone.wait(), wait)
        finally:
            with contextlib.suppress(*TRANSIENT):  # the connection is gone: so is the subscription
                await sub.unsubscribe()
        return pids
