"""What answering commands for unknown games costs a command: every command is delivered once
more, to the queue group `tabletop-unknown-games` (services/game_worker/unknown_games.py),
whose replica reads its subject and leaves it. Measured as CPU time, which a loaded machine
disturbs far less than a rate: the same commands published with and without that group, the
difference in the receiving process's CPU and in the nats-server's, per command.

    python bench/unknown_games.py            # about half a minute; --commands, --runs
"""

from __future__ import annotations

import argparse
import asyncio
import os
import resource
import statistics
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import nats
from nats.aio.client import Client as NATS

from services.game_worker.unknown_games import QUEUE, UnknownGames
from shared.bus.connection import Bus, Incoming
from shared.bus.credentials import ServerSecrets
from shared.bus.server import EmbeddedServer
from shared.messages import subjects
from shared.settings import load_settings

BODY = b'{"id": "9b1f0c6e2d", "type": "play_card", "card": 7, "expect": 12}'


def own_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def server_cpu(pid: int) -> float:
    """User and system CPU seconds of a process (Linux)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


class Counter:
    def __init__(self) -> None:
        self.seen = 0
        self.done = asyncio.Event()
        self.wanted = 0

    def count(self) -> None:
        self.seen += 1
        if self.seen >= self.wanted:
            self.done.set()

    def expect(self, more: int) -> None:
        self.wanted = self.seen + more
        self.done.clear()


async def publish_all(nc: NATS, count: int, received: Counter) -> None:
    """`count` commands of a known game on its partition subjects, as requests (a reply
    subject nobody answers on), until the stand-in worker has them all."""
    received.expect(count)
    for i in range(count):
        subject = subjects.cmd_mapped("highcard", str(i % subjects.CMD_PARTITIONS), f"t{i % 100}", "ann")
        await nc.publish(subject, BODY, reply=f"_INBOX.bench.{i}")
        if i % 500 == 499:
            await nc.flush()
    await nc.flush()
    await asyncio.wait_for(received.done.wait(), 60)


async def measure(count: int, runs: int) -> dict[str, float]:
    with tempfile.TemporaryDirectory() as scratch:
        secrets = ServerSecrets.load_or_create(Path(scratch) / "credentials")
        with EmbeddedServer(Path(scratch) / "nats", secrets=secrets) as server:
            assert server.process is not None
            settings = load_settings(nats_user="admin", nats_password=secrets.password("admin"))
            publisher = await nats.connect(server.url, user="admin", password=secrets.password("admin"))
            worker = await Bus.connect(server.url, settings, name="bench-worker", wait=10)
            other = await Bus.connect(server.url, settings, name="bench-unknown-games", wait=10)
            worked, looked = Counter(), Counter()

            async def stand_in(message: Incoming) -> None:
                worked.count()

            games = UnknownGames({"highcard"}, silence=3.0)

            def unknown(message: Incoming) -> None:
                games.on_command(message)
                looked.count()

            await worker.subscribe(f"{subjects.PREFIX}.cmdp.highcard.*.*.*", stand_in)
            extra: dict[str, list[float]] = {"process_us": [], "server_us": []}
            for _ in range(runs):
                before = own_cpu(), server_cpu(server.process.pid)
                await publish_all(publisher, count, worked)
                without = own_cpu() - before[0], server_cpu(server.process.pid) - before[1]
                subscriptions = [await other.take(s, unknown, queue=QUEUE) for s in subjects.CMD_ANY]
                looked.expect(count)
                before = own_cpu(), server_cpu(server.process.pid)
                await publish_all(publisher, count, worked)
                await asyncio.wait_for(looked.done.wait(), 60)
                with_group = own_cpu() - before[0], server_cpu(server.process.pid) - before[1]
                for subscription in subscriptions:
                    await subscription.unsubscribe()
                extra["process_us"].append((with_group[0] - without[0]) / count * 1e6)
                extra["server_us"].append((with_group[1] - without[1]) / count * 1e6)
            await publisher.close()
            await worker.close()
            await other.close()
    return {name: statistics.median(values) for name, values in extra.items()}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--commands", type=int, default=20_000, help="commands per run")
    parser.add_argument("--runs", type=int, default=5, help="runs (the median is shown)")
    args = parser.parse_args()
    figures = asyncio.run(measure(args.commands, args.runs))
    print(f"one more delivery per command, median of {args.runs} runs of {args.commands} commands:")
    print(f"  receiving process: {figures['process_us']:.1f} us of CPU per command")
    print(f"  nats-server:       {figures['server_us']:.1f} us of CPU per command")


if __name__ == "__main__":
    main()
