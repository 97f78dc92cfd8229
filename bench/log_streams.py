"""The log over several streams on a local 3-node cluster (every stream R3, fsync always), per
configuration of log streams, worker replicas and table projector shards:

- where each log stream's leader is (the leaders are spread over the nodes first, as
  `tabletop log-leaders --spread` does);
- commands a second of the join/leave load (`bench.py`'s, unpaced, `--tables` tables), and the
  same count of raw appends to the same streams (a task per table appending its next message
  with the expected-sequence header, no worker, no projector), side by side;
- the CPU of every process per command (the NATS nodes, the workers, the projector shards) and
  of the whole system, over a run at one pace (`--pace`) for every configuration, less what
  each process spends idle (measured just before);
- catch-up: the projector shards stopped, the load run again, then started: messages a second
  from the first one taken until none is left.

Every machine here has 2 cores: three nodes and the services share them, so more streams,
replicas or shards show as cost (CPU per command), not speed.

    python bench/log_streams.py [--commands 3000] [--tables 100] [--pace 300] [--json]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import sys
import tempfile
import time
import uuid
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from load import CpuMeter

import bench
from services.client import Client
from services.registry import games
from shared.bus.connection import Bus
from shared.bus.errors import Unavailable
from shared.bus.nats_internals import request_with_headers
from shared.logs import configure_logging
from shared.messages import subjects
from shared.settings import load_settings
from tests.cluster import Cluster
from tests.processes import Services

# (log streams, worker replicas, table projector shards)
CONFIGS = [(1, 1, 1), (4, 1, 1), (4, 2, 1), (4, 4, 1), (4, 1, 2), (4, 1, 4)]
BODY = b"x" * 232  # a join/leave batch's size in the log
POLL = 0.02  # seconds between looks at the projectors' backlog (each look: 16 consumer infos)


async def raw_appends(bus: Bus, tables: int, total: int) -> float:
    """Appends a second to the log's own streams: a task per table, each appending its next
    message with the headers a worker sends, `total` in all."""
    layout = await bus.events.layout()
    per_table = total // tables

    async def table_loop(table: str) -> None:
        subject = subjects.evt("bench", table)
        stream = layout.stream_of("bench", table)
        last = 0
        for i in range(per_table):
            headers = (
                f"NATS/1.0\r\nNats-Msg-Id: {table}.{i}\r\nNats-Expected-Last-Subject-Sequence: {last}\r\n"
                f"Nats-Expected-Stream: {stream}\r\n\r\n"
            ).encode()
            msg = await request_with_headers(bus.nc, subject, BODY, headers, 30)
            ack = json.loads(msg.data)
            assert "error" not in ack, ack
            last = ack["seq"]

    started = time.perf_counter()
    await asyncio.gather(*(table_loop(f"r{uuid.uuid4().hex[:12]}") for _ in range(tables)))
    return per_table * tables / (time.perf_counter() - started)


async def catch_up(bus: Bus, services: Services, shards: int, tables: list[str], total: int) -> float:
    """The shards stopped, `total` commands, the shards started: messages a second from the
    first one they take until none is left."""
    for shard in range(shards):
        for process in services.of("table-projector", "--shard", f"{shard}/{shards}"):
            services.running.pop(process.label)
            process.process.terminate()
            process.process.wait()
    await bench.drive(bench.churn(bus), tables, total)
    backlog = await bench.undelivered(bus)
    for shard in range(shards):
        services.start("table-projector", "--shard", f"{shard}/{shards}")
    while (left := await undelivered(bus)) >= backlog:
        await asyncio.sleep(POLL)
    started, taken = time.perf_counter(), backlog - left
    while await undelivered(bus):
        await asyncio.sleep(POLL)
    return (backlog - taken) / (time.perf_counter() - started)


async def undelivered(bus: Bus) -> int:
    """The projectors' backlog; asked again when the cluster is too busy to answer in time."""
    while True:
        try:
            return await bench.undelivered(bus)
        except Unavailable:
            await asyncio.sleep(POLL)


async def idle_cpu(pids: dict[str, list[int]], seconds: float = 3.0) -> dict[str, float]:
    """CPU µs a second of each group with no load: the nodes' heartbeats, the services'
    timers; taken off the figures of a paced run, which last long enough to gather it."""
    meter = CpuMeter(pids)
    meter.start()
    await asyncio.sleep(seconds)
    return {name: us / seconds for name, us in meter.per_command_us(1).items()}


async def one(
    root: Path, streams: int, workers: int, shards: int, args: argparse.Namespace
) -> dict[str, Any]:
    mapping = subjects.cmd_mappings(games())
    cluster = Cluster(root / f"s{streams}-w{workers}-p{shards}", mappings=mapping)
    await asyncio.to_thread(cluster.start)
    env = {**cluster.env(), "TABLETOP_LOG_STREAMS": str(streams)}
    env["TABLETOP_GAMES"] = os.environ.get("TABLETOP_GAMES", "")
    services = Services(env, root / "logs")
    settings = load_settings(replicas=len(cluster.nodes), log_streams=streams)
    bus = await Bus.connect(cluster.urls, settings, name="bench-log-streams", wait=30)
    try:
        await bus.ensure_streams()
        leaders = await bus.events.spread_leaders()
        for _ in range(workers):
            services.start("worker", "highcard")
        for shard in range(shards):
            services.start("table-projector", "--shard", f"{shard}/{shards}")
        await services.wait_serving(bus)
        await bench.until_replicas(bus, workers)
        tables = await bench.new_tables(Client(bus, timeout=60), args.tables)
        await bench.until_caught_up(bus)
        pids = {
            "nats": [n.process.pid for n in cluster.nodes.values() if n.process],
            "workers": [p.process.pid for p in services.running.values() if p.args[0] == "worker"],
            "projectors": [
                p.process.pid for p in services.running.values() if p.args[0] == "table-projector"
            ],
        }
        rate, latencies = await bench.drive(bench.churn(bus), tables, args.commands)
        await bench.until_caught_up(bus)
        # the CPU a command at one pace for every configuration: unpaced, a slower system
        # batches more per message, and the CPU a command would measure the pace as much
        idle = await idle_cpu(pids)
        meter = CpuMeter(pids)
        meter.start()
        began = time.perf_counter()
        await bench.drive(bench.churn(bus), tables, args.commands, rate=args.pace)
        while await undelivered(bus):  # the projectors' work for these commands counted too
            await asyncio.sleep(POLL)
        took = time.perf_counter() - began
        busy = meter.per_command_us(args.commands)
        cpu = {name: us - idle[name] * took / args.commands for name, us in busy.items()}
        raw = await raw_appends(bus, args.tables, args.commands)
        caught = await catch_up(bus, services, shards, tables, args.commands)
        return {
            "streams": streams,
            "workers": workers,
            "shards": shards,
            "leaders": leaders,
            "commands_per_s": rate,
            "command_p50_ms": bench.pct(latencies, 0.5),
            "command_p99_ms": bench.pct(latencies, 0.99),
            "raw_appends_per_s": raw,
            "cpu_us": {**cpu, "whole": sum(cpu.values())},
            "idle_cpu_us_per_s": idle,
            "catch_up_per_s": caught,
        }
    finally:
        await bus.close()
        await asyncio.to_thread(services.stop_all)
        await asyncio.to_thread(cluster.stop)


def line(r: dict[str, Any]) -> str:
    cpu = r["cpu_us"]
    return (
        f"streams {r['streams']} workers {r['workers']} shards {r['shards']}: "
        f"{r['commands_per_s']:.0f} commands/s (p50 {r['command_p50_ms']:.1f} ms, "
        f"p99 {r['command_p99_ms']:.1f} ms) beside {r['raw_appends_per_s']:.0f} raw appends/s "
        f"({100 * r['commands_per_s'] / r['raw_appends_per_s']:.0f}%); CPU per command: whole "
        f"{cpu['whole']:.0f} µs (nats {cpu['nats']:.0f}, workers {cpu['workers']:.0f}, projectors "
        f"{cpu['projectors']:.0f}); catch-up "
        f"{r['catch_up_per_s']:.0f} messages/s; leaders {sorted(set(r['leaders'].values()))} "
        f"{r['leaders']}"
    )


async def main(args: argparse.Namespace) -> None:
    configure_logging(fmt="console", level="warning")
    found = []
    with tempfile.TemporaryDirectory(prefix="tabletop-log-streams-") as scratch:
        for streams, workers, shards in CONFIGS:
            result = await one(Path(scratch), streams, workers, shards, args)
            found.append(result)
            if not args.json:
                print(line(result), flush=True)
    if args.json:
        print(json.dumps(found, indent=2))


if __name__ == "__main__":
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--commands", type=int, default=3000)
    parser.add_argument("--tables", type=int, default=100)
    parser.add_argument("--pace", type=float, default=300.0, help="commands a second of the CPU run")
    parser.add_argument("--json", action="store_true")
    asyncio.run(main(parser.parse_args()))
