"""The capacity model (docs/capacity.md) against a simulation at reduced scale: bot tables of the
five games at an accelerated pace on a local 3-node cluster (every stream and bucket R3, fsync
always, the log over 4 streams with their leaders spread, as the cluster deployments run it).

Runs at rising table counts, each on a fresh cluster with fresh services (a worker per game, the
table projector, the history projector) and one load generator (bench/load.py, `games` load:
each seat reads its own view and plays from its `legal`), a command every `--every` seconds a
table. For each run: the CPU every group of processes spends a second (/proc, user + system,
over the counted seconds), their resident memory at its end, and the log's bytes a command.

The model is a straight line: CPU a second = idle + commands a second x CPU a command, memory =
a base + tables x memory a table. Its constants are fitted on the first runs (two points make
the line; more are fitted by least squares) and it predicts the last run, the largest: each
prediction is printed beside the measurement with its error. Every machine here has 2 cores:
the three nodes, the services and the generator share them, so the pace is kept where the
services keep up (the command p99 is printed to show they did).

    python bench/capacity_check.py [--tables 150,300,450] [--every 5] [--seconds 30] [--json]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from load import GAME_SEATS, CpuMeter, Generator, rss_mib

import bench
from shared.bus.connection import Bus
from shared.games import builtin_games
from shared.logs import configure_logging
from shared.messages import subjects
from shared.settings import load_settings
from tests.cluster import Cluster
from tests.processes import Services

LOG_STREAMS = 4  # as docker-compose and the Kubernetes ConfigMap run the log on a cluster
GROUPS = ("nats", "workers", "projectors")  # the site's processes; the generator is the players


@dataclass
class Run:
    tables: int
    commands_per_s: float
    p99_ms: float
    cpu_per_s: dict[str, float]  # CPU seconds a second, by group (and "site": the groups summed)
    rss_mib: dict[str, float]  # by group (and "site")
    log_bytes_per_command: float


async def log_bytes(bus: Bus) -> int:
    """Bytes in the log's streams, one copy."""
    layout = await bus.events.layout()
    infos = [await bus.js.stream_info(stream) for stream in layout.streams]
    return sum(info.state.bytes for info in infos)


async def one(root: Path, tables: int, args: argparse.Namespace) -> Run:
    cluster = Cluster(root / f"t{tables}", mappings=subjects.cmd_mappings(g.name for g in builtin_games()))
    await asyncio.to_thread(cluster.start)
    env = {**cluster.env(), "TABLETOP_LOG_STREAMS": str(LOG_STREAMS), "TABLETOP_GAMES": ""}
    services = Services(env, root / f"t{tables}-logs")
    settings = load_settings(replicas=len(cluster.nodes), log_streams=LOG_STREAMS)
    bus = await Bus.connect(cluster.urls, settings, name="bench-capacity", wait=30)
    try:
        await bus.ensure_streams()
        await bus.events.spread_leaders()
        for game in GAME_SEATS:
            services.start("worker", game)
        services.start("table-projector")
        services.start("history-projector")
        await services.wait_serving(bus)
        pids = {
            "nats": [n.process.pid for n in cluster.nodes.values() if n.process],
            "workers": [s.process.pid for g in GAME_SEATS for s in services.of("worker", g)],
            "projectors": [
                s.process.pid for s in services.running.values() if s.args[0].endswith("-projector")
            ],
        }
        first = next(iter(cluster.nodes.values())).url
        pace = ["--tables", str(tables), "--every", str(args.every)]
        pace += ["--warmup", str(args.warmup), "--seconds", str(args.seconds)]
        generator = await Generator.start(first, "tabletop", "not-checked", "--load", "games", *pace)
        await generator.said("ready")
        meter = CpuMeter({**pids, "generator": [generator.pid]})
        await generator.go()
        await generator.said("measuring")
        bytes_before = await log_bytes(bus)
        meter.start()
        await generator.said("done")
        after = meter.snapshot()
        bytes_after = await log_bytes(bus)
        rss = {name: sum(rss_mib(p) or 0.0 for p in group) for name, group in pids.items()}
        found = await generator.figures()
    finally:
        await bus.close()
        await asyncio.to_thread(services.stop_all)
        await asyncio.to_thread(cluster.stop)
    seconds = found["seconds"]
    cpu = {name: (after[name] - meter.before[name]) / seconds for name in meter.pids}
    cpu["site"] = sum(cpu[g] for g in GROUPS)
    rss["site"] = sum(rss[g] for g in GROUPS)
    commands = found["accepted"]
    return Run(
        tables=tables,
        commands_per_s=commands / seconds,
        p99_ms=bench.pct(found["latencies_ms"], 0.99),
        cpu_per_s=cpu,
        rss_mib=rss,
        log_bytes_per_command=(bytes_after - bytes_before) / max(commands, 1),
    )


def fit(xs: list[float], ys: list[float]) -> tuple[float, float]:
    """Least squares line through the points: (intercept, slope)."""
    mx, my = statistics.fmean(xs), statistics.fmean(ys)
    slope = sum((x - mx) * (y - my) for x, y in zip(xs, ys)) / sum((x - mx) ** 2 for x in xs)
    return my - slope * mx, slope


def check(runs: list[Run]) -> list[dict[str, Any]]:
    """The model fitted on every run but the last, its predictions for the last beside what was
    measured: CPU a second by group (a line in commands a second) and memory (a line in
    tables)."""
    fitted, last = runs[:-1], runs[-1]
    rows: list[dict[str, Any]] = []
    for name in (*GROUPS, "site"):
        idle, per_command = fit([r.commands_per_s for r in fitted], [r.cpu_per_s[name] for r in fitted])
        predicted = idle + per_command * last.commands_per_s
        rows.append(
            {
                "what": f"CPU s/s, {name}",
                "per_unit": f"{1000 * per_command:.2f} ms a command, idle {idle:.3f}",
                "predicted": predicted,
                "measured": last.cpu_per_s[name],
            }
        )
    for name in (*GROUPS, "site"):
        base, per_table = fit([float(r.tables) for r in fitted], [r.rss_mib[name] for r in fitted])
        rows.append(
            {
                "what": f"memory MiB, {name}",
                "per_unit": f"{1024 * per_table:.1f} KiB a table, base {base:.0f} MiB",
                "predicted": base + per_table * last.tables,
                "measured": last.rss_mib[name],
            }
        )
    for row in rows:
        row["error"] = row["predicted"] / row["measured"] - 1 if row["measured"] else 0.0
    return rows


def report(runs: list[Run], rows: list[dict[str, Any]], args: argparse.Namespace) -> None:
    print(f"3-node cluster, log over {LOG_STREAMS} streams, a command every {args.every:g} s a table")
    print(
        f"  {'tables':>7} {'cmd/s':>7} {'p99 ms':>7} {'log B/cmd':>9}  CPU s/s: "
        + " ".join(f"{g:>10}" for g in (*GROUPS, "site", "generator"))
        + "  MiB: "
        + " ".join(f"{g:>10}" for g in (*GROUPS, "site"))
    )
    for r in runs:
        print(
            f"  {r.tables:>7} {r.commands_per_s:>7.1f} {r.p99_ms:>7.1f} {r.log_bytes_per_command:>9.0f}"
            + " " * 11
            + " ".join(f"{r.cpu_per_s[g]:>10.3f}" for g in (*GROUPS, "site", "generator"))
            + "       "
            + " ".join(f"{r.rss_mib[g]:>10.1f}" for g in (*GROUPS, "site"))
        )
    fitted = ", ".join(str(r.tables) for r in runs[:-1])
    print(f"\nthe model fitted on {fitted} tables, predicting {runs[-1].tables}:")
    for row in rows:
        print(
            f"  {row['what']:<26} predicted {row['predicted']:>8.3f}  measured {row['measured']:>8.3f}  "
            f"error {100 * row['error']:+6.1f}%   ({row['per_unit']})"
        )


async def main(args: argparse.Namespace) -> None:
    configure_logging(fmt="console", level="warning")
    counts = [int(t) for t in args.tables.split(",")]
    if len(counts) < 3 or counts != sorted(counts):
        raise SystemExit("--tables: at least three counts, rising (the last is predicted)")
    runs = []
    with tempfile.TemporaryDirectory(prefix="tabletop-capacity-") as scratch:
        for tables in counts:
            runs.append(await one(Path(scratch), tables, args))
            if not args.json:
                r = runs[-1]
                print(f"  ran {tables} tables: {r.commands_per_s:.1f} commands/s", file=sys.stderr)
    rows = check(runs)
    if args.json:
        print(json.dumps({"runs": [r.__dict__ for r in runs], "check": rows}, indent=2))
    else:
        report(runs, rows, args)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--tables", default="150,300,450", help="table counts, rising; the last is predicted")
    parser.add_argument("--every", type=float, default=5.0, help="seconds between a table's commands")
    parser.add_argument("--warmup", type=float, default=10.0)
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument("--json", action="store_true")
    asyncio.run(main(parser.parse_args()))
