"""Figures, not assertions: what a worker pays for a table it does not hold (a cold load),
from the whole log and from the table's snapshot plus the log after it, on an embedded
nats-server (fsync on every write, as `tabletop up`).

    python bench/cold_loads.py          # about a minute on 2 cores

Tables: the `highcard` test game grown by joins and leaves to 10, 100, 1,000 and 9,800
versions, and whole games of Naishi, Dozito, Diced Tomatoes, Decrypto and Illustori played by
the easy bots. Each is loaded cold `--loads` times by a worker without snapshots and by one
with them (its snapshot written at the last multiple of 32 versions, as the worker writes
them: the tail is up to 31 messages); printed: wall and CPU time per load, the median.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import statistics
import sys
import tempfile
import time
import uuid
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("TABLETOP_GAMES", "tests.highcard:GAME")

import msgspec

from services.client import new_id
from services.game_worker.handler import CommandHandler
from services.registry import get
from shared.bus.connection import Bus
from shared.bus.credentials import ServerSecrets
from shared.bus.server import EmbeddedServer
from shared.bus.snapshots import Snapshots, rules_fingerprint
from shared.logs import configure_logging
from shared.messages import subjects
from shared.messages.envelopes import encoder
from shared.messages.folding import fold_log
from shared.messages.snapshots import write_snapshot
from shared.settings import load_settings

EVERY = 32  # the worker's default TABLETOP_SNAPSHOT_EVERY
GAMES = ("naishi", "dozito", "diced_tomatoes", "decrypto", "illustori")


async def send(handler: CommandHandler, table: str, player: str, command: dict[str, Any]) -> None:
    subject = subjects.cmd(handler.game, table, player)
    reply = await handler.handle(subject, encoder.encode({"id": new_id(), **command}))
    assert reply.error is None, reply


async def highcard_table(handler: CommandHandler, versions: int) -> str:
    table = f"c{uuid.uuid4().hex[:12]}"
    await send(handler, table, "ann", {"type": "create", "seats": 4})
    for i in range(versions - 1):
        await send(handler, table, "bob", {"type": "join" if i % 2 == 0 else "leave"})
    return table


async def played_table(bus: Bus, handler: CommandHandler, rng: random.Random) -> str:
    """A whole game played by the easy bots, each choosing from its seat's view."""
    decider = handler.decider
    table = f"g{uuid.uuid4().hex[:12]}"
    players = [f"p{i}" for i in range(1, decider.game.min_players + 1)]
    await send(handler, table, players[0], {"type": "create", "seats": len(players)})
    for player in players[1:]:
        await send(handler, table, player, {"type": "join"})
    await send(handler, table, players[0], {"type": "start"})
    folded = await fold_log(bus.events, decider, decider.name, table)
    while folded.state.status == "running":
        actor = rng.choice(list(decider.players_to_act(folded.state)))
        view = decider.player_view(folded.state, actor)
        legal = [c for c in view.get("legal", []) if c.get("type") != "undo"]
        await send(handler, table, actor, decider.game.bot({**view, "legal": legal}, rng))
        folded = await fold_log(bus.events, decider, decider.name, table, since=folded)
    return table


async def time_loads(handler_of: Any, table: str, loads: int) -> tuple[float, float]:
    """Median wall and CPU milliseconds of a cold load (a fresh worker each time)."""
    walls, cpus = [], []
    for _ in range(loads):
        handler = handler_of()
        wall, cpu = time.perf_counter(), time.process_time()
        await handler._load(table)
        walls.append((time.perf_counter() - wall) * 1000)
        cpus.append((time.process_time() - cpu) * 1000)
    return statistics.median(walls), statistics.median(cpus)


async def measure(loads: int) -> list[tuple[str, int, float, float, float, float]]:
    rows = []
    with tempfile.TemporaryDirectory() as scratch:
        secrets = ServerSecrets.load_or_create(Path(scratch) / "credentials")
        with EmbeddedServer(Path(scratch) / "nats", sync_always=True, secrets=secrets) as server:
            settings = load_settings(nats_user="admin", nats_password=secrets.password("admin"))
            bus = await Bus.connect(server.url, settings, name="bench-cold-loads", wait=10)
            await bus.ensure_streams()
            bucket = await bus.snapshots()
            rng = random.Random(1)
            tables: list[tuple[str, str]] = []
            writer = CommandHandler(get("highcard"), bus.events)
            for versions in (10, 100, 1000, 9800):
                tables.append(("highcard", await highcard_table(writer, versions)))
            for game in GAMES:
                tables.append((game, await played_table(bus, CommandHandler(get(game), bus.events), rng)))
            for game, table in tables:
                decider = get(game)
                log = await bus.events.read(game, table)
                covered = len(log) - len(log) % EVERY
                if covered:  # the snapshot the worker would hold: at the last multiple of EVERY
                    folded = await fold_log(bus.events, decider, game, table, upto=log[covered - 1].seq)
                    data = write_snapshot(folded, game=game, table=table, rules=rules_fingerprint(decider))
                    await bucket.put(f"{game}.{table}", data)
                whole = await time_loads(lambda d=decider: CommandHandler(d, bus.events), table, loads)
                snapshots = Snapshots(bucket, decider, every=EVERY, cache_size=16)
                snapped = await time_loads(
                    lambda d=decider, s=snapshots: CommandHandler(d, bus.events, snapshots=s), table, loads
                )
                rows.append((game, len(log), *whole, *snapped))
            await bus.close()
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--loads", type=int, default=21, help="cold loads per table (median)")
    args = parser.parse_args()
    configure_logging(fmt="console", level="warning")
    rows = asyncio.run(measure(args.loads))
    whole, snapped = "whole log: wall / CPU ms", "snapshot + tail: wall / CPU ms"
    print(f"{'game':<16} {'versions':>8}  {whole:>26}  {snapped:>32}")
    for game, versions, wall, cpu, snap_wall, snap_cpu in rows:
        print(f"{game:<16} {versions:>8}  {wall:>14.2f} / {cpu:>8.2f}  {snap_wall:>20.2f} / {snap_cpu:>8.2f}")
    print(msgspec.json.encode({"rows": rows}).decode())


if __name__ == "__main__":
    main()
