"""The whole service on a local 3-node cluster, every service its own process (two workers
per game), a recording client and a bot load: what the cluster test and bench/chaos.py run."""

from __future__ import annotations

import asyncio
import contextlib
import os
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path

from shared.bus.connection import Bus
from shared.settings import load_settings
from tests.botload import BotLoad
from tests.cluster import Cluster
from tests.consistency import Acknowledged, Answers, RecordingClient
from tests.processes import Services

WORKERS_PER_GAME = 2


@dataclass
class Rig:
    cluster: Cluster
    services: Services
    bus: Bus
    acknowledged: Acknowledged
    answers: Answers
    load: BotLoad


@contextlib.asynccontextmanager
async def cluster_rig(
    root: Path, games: list[str], *, lanes: int, seed: int = 1, timeout: float = 5.0
) -> AsyncIterator[Rig]:
    """`timeout`: how long the client waits for each answer before it asks again."""
    cluster = Cluster(root / "cluster")
    await asyncio.to_thread(cluster.start)
    env = {**cluster.env(), "TABLETOP_GAMES": os.environ.get("TABLETOP_GAMES", "")}
    services = Services(env, root / "logs")
    bus = None
    try:
        bus = await Bus.connect(
            cluster.urls, load_settings(replicas=len(cluster.nodes)), name="rig-client", wait=30
        )
        await bus.ensure_streams()
        for game in games:
            for _ in range(WORKERS_PER_GAME):
                services.start("worker", game)
        services.start("table-projector")
        services.start("history-projector")
        await services.wait_serving(bus)
        acknowledged, answers = Acknowledged(), Answers()
        # retried long enough to outlast a leader election (seconds)
        client = RecordingClient(bus, acknowledged, answers, timeout=timeout, attempts=30)
        load = BotLoad(client, games, lanes=lanes, seed=seed)
        yield Rig(cluster, services, bus, acknowledged, answers, load)
    finally:
        if bus is not None:
            await bus.close()
        await asyncio.to_thread(services.stop_all)
        await asyncio.to_thread(cluster.stop)
