"""Figures, not assertions: how fast the rules and the bus go on this machine.

    python bench/bench.py            # rules of every game, then commands through a real NATS
    python bench/bench.py --quick    # fewer games and commands
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import sys
import tempfile
import time
import uuid
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("TABLETOP_GAMES", "tests.highcard:GAME")  # the bus figures use it

from services.client import Client
from services.game_worker.app import serve_worker
from services.registry import games
from shared.bus.connection import Bus
from shared.bus.credentials import ServerSecrets
from shared.bus.server import EmbeddedServer
from shared.games.simulate import simulate
from shared.logs import configure_logging
from shared.settings import load_settings


def bench_rules(count: int) -> None:
    print(f"rules: {count} whole bot games per game (decide + evolve + the bot's view)")
    for name, decider in games().items():
        if name in ("crashy",):
            continue
        g = decider.game
        players = [f"p{i}" for i in range(min(max(g.min_players, 3), g.max_players))]
        rng = random.Random(1)
        started = time.perf_counter()
        commands = 0
        for _ in range(count):
            commands += simulate(decider, players, rng).steps
        elapsed = time.perf_counter() - started
        print(f"  {name:<16} {count / elapsed:8.1f} games/s  {commands / elapsed:9.0f} commands/s"
              f"  ({commands / count:.0f} commands a game, {len(players)} players)")


async def bench_bus(commands: int, tables: int, sync_always: bool) -> None:
    with tempfile.TemporaryDirectory() as data:
        secrets = ServerSecrets.load_or_create(os.path.join(data, "credentials"))
        with EmbeddedServer(data, sync_always=sync_always, secrets=secrets) as server:
            settings = load_settings()
            worker_bus = await Bus.connect(server.url, settings, name="bench-worker",
                                           credentials=secrets.credentials("worker"))
            stop = asyncio.Event()
            worker = asyncio.create_task(serve_worker(worker_bus, "highcard", stop))
            # one client acting for many players: the operators' credential
            bus = await Bus.connect(server.url, settings, name="bench-client",
                                    credentials=secrets.credentials("admin"))
            await asyncio.sleep(0.3)
            client = Client(bus, timeout=30)
            ids = [uuid.uuid4().hex for _ in range(tables)]
            for t in ids:
                await client.command("highcard", t, "owner", {"type": "create"})
            per_table = commands // tables

            async def churn(table: str) -> None:
                for i in range(per_table):
                    kind = "join" if i % 2 == 0 else "leave"
                    reply = await client.command("highcard", table, "guest", {"type": kind})
                    assert reply["ok"], reply

            started = time.perf_counter()
            await asyncio.gather(*(churn(t) for t in ids))
            elapsed = time.perf_counter() - started
            total = per_table * tables
            mode = "fsync always" if sync_always else "fsync by the server's interval"
            print(f"  {mode:<31} {total / elapsed:8.0f} accepted commands/s "
                  f"({total} over {tables} tables, {elapsed * 1000 / total * tables:.1f} ms each "
                  f"per table)")
            stop.set()
            await worker
            await bus.close()
            await worker_bus.close()


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--quick", action="store_true")
    args = parser.parse_args()
    configure_logging(fmt="console", level="warning")
    bench_rules(20 if args.quick else 100)
    n = 400 if args.quick else 2000
    print(f"bus: one worker, commands from {20} concurrent clients, embedded nats-server")
    asyncio.run(bench_bus(n, 20, sync_always=True))
    asyncio.run(bench_bus(n, 20, sync_always=False))


if __name__ == "__main__":
    main()
