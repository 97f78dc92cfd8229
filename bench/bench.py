"""Figures, not assertions: tabletop beside the raw nats-py primitive it is built on, measured
in the same run on the same embedded nats-server, once with fsync on every write and once
without.

    python bench/bench.py                 # about 1.5 minutes on 2 cores; a table of ratios
    python bench/bench.py --json out.json # the same, and every figure as JSON

The services run as `tabletop` processes (a worker, the table projector, the history
projector); the raw baselines run a responder process of their own (`--raw-responder`). Each
figure is the median of `--runs` runs.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("TABLETOP_GAMES", "tests.highcard:GAME")

import nats
from nats.js.api import DeliverPolicy, StorageType, StreamConfig

from services.client import Client
from services.registry import games
from services.table_projector import maintenance
from services.table_projector.projector import durable
from shared.bus.connection import Bus
from shared.bus.credentials import ServerSecrets
from shared.bus.server import EmbeddedServer
from shared.logs import configure_logging
from shared.messages import subjects
from shared.settings import load_settings
from tests.processes import Services

TABLES = 100
COMMANDS = 3000  # per throughput run
REPLAY_STEPS = 764
RAW_STREAM = "BENCH_RAW"


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(int(q * len(ordered)), len(ordered) - 1)] if ordered else float("nan")


# --- the raw primitives ------------------------------------------------------------------------


async def raw_responder(url: str, user: str, password: str) -> None:
    """Answer `bench.cmd.<table>` by appending the body to `bench.raw.<table>` with the
    expected-last-sequence check, as a worker appends (the raw request + append)."""
    nc = await nats.connect(url, user=user, password=password)
    js = nc.jetstream()
    last: dict[str, int] = {}

    async def on_request(msg: Any) -> None:
        table = msg.subject.rsplit(".", 1)[1]
        ack = await js.publish(
            f"bench.raw.{table}",
            msg.data,
            headers={"Nats-Expected-Last-Subject-Sequence": str(last.get(table, 0))},
        )
        last[table] = ack.seq
        await msg.respond(b'{"ok":true}')

    await nc.subscribe("bench.cmd.*", cb=on_request)
    await nc.flush()
    print("ready", flush=True)
    await asyncio.Event().wait()


async def drive(
    ask: Any,
    tables: list[str],
    total: int,
    rate: float | None = None,
) -> tuple[float, list[float]]:
    """`total` requests from one loop per table, at most `rate` a second overall: (requests a
    second, latencies in ms)."""
    per_table = total // len(tables)
    latencies: list[float] = []
    gap = len(tables) / rate if rate else 0.0

    async def loop(table: str, offset: float) -> None:
        await asyncio.sleep(offset)
        for i in range(per_table):
            began = time.perf_counter()
            await ask(table, i)
            latencies.append((time.perf_counter() - began) * 1000)
            if gap:
                await asyncio.sleep(max(gap - (time.perf_counter() - began), 0))

    started = time.perf_counter()
    await asyncio.gather(*(loop(t, gap * i / len(tables)) for i, t in enumerate(tables)))
    return per_table * len(tables) / (time.perf_counter() - started), latencies


async def raw_request_append(nc: Any, total: int) -> float:
    tables = [uuid.uuid4().hex[:12] for _ in range(TABLES)]

    async def ask(table: str, i: int) -> None:
        await nc.request(f"bench.cmd.{table}", b'{"id":"x","type":"join"}', timeout=30)

    rate, _ = await drive(ask, tables, total)
    return rate


async def raw_ordered_replay(nc: Any, count: int) -> float:
    """Messages a second of an ordered consumer reading the first `count` log messages."""
    js = nc.jetstream()
    done = asyncio.Event()
    got = 0

    async def on_message(msg: Any) -> None:
        nonlocal got
        got += 1
        if got >= count:
            done.set()

    started = time.perf_counter()
    sub = await js.subscribe(
        subjects.EVT_ALL,
        ordered_consumer=True,
        cb=on_message,
        deliver_policy=DeliverPolicy.ALL,
        stream=subjects.STREAM,
    )
    await asyncio.wait_for(done.wait(), 300)
    elapsed = time.perf_counter() - started
    await sub.unsubscribe()
    return count / elapsed


# --- tabletop ------------------------------------------------------------------------------------


async def new_tables(client: Client, count: int) -> list[str]:
    tables = [f"b{uuid.uuid4().hex[:12]}" for _ in range(count)]
    await asyncio.gather(
        *(client.command("highcard", t, "owner", {"type": "create", "seats": 3}) for t in tables)
    )
    return tables


def churn(bus: Bus, replies: dict[tuple[str, int], float] | None = None) -> Any:
    """A guest joining and leaving a table, by plain requests (as the raw baseline asks)."""

    async def ask(table: str, i: int) -> None:
        body = json.dumps({"id": uuid.uuid4().hex, "type": "join" if i % 2 == 0 else "leave"})
        msg = await bus.nc.request(subjects.cmd("highcard", table, "guest"), body.encode(), timeout=60)
        reply = json.loads(msg.data)
        assert reply["ok"], reply
        if replies is not None:
            replies[(table, reply["version"])] = time.perf_counter()

    return ask


async def worker_counts(bus: Bus) -> list[dict[str, Any]]:
    stats = await maintenance.service_stats(bus)
    return [r["endpoints"][0]["data"] for r in stats.get("tabletop-worker-highcard", [])]


async def until_replicas(bus: Bus, count: int) -> None:
    while True:
        found = await worker_counts(bus)
        if (
            len(found) == count
            and all(r["replicas"] == count for r in found)
            and sum(len(r["partitions"]) for r in found) == subjects.CMD_PARTITIONS
        ):
            return


async def lag(bus: Bus) -> list[tuple[int, int] | None]:
    """Every partition's (undelivered, unacknowledged), asked all at once: a poll that
    takes one round trip, not sixteen, so a catch-up of a fraction of a second is timed
    to within a few milliseconds."""
    return await asyncio.gather(*(bus.consumer_pending(durable(p)) for p in range(subjects.PARTITIONS)))


async def until_caught_up(bus: Bus) -> None:
    while not all(v == (0, 0) for v in await lag(bus)):
        await asyncio.sleep(0.005)


async def undelivered(bus: Bus) -> int:
    return sum(p[0] + p[1] for p in await lag(bus) if p)


async def append_to_push(bus: Bus, client: Client, rate: float) -> list[float]:
    """Milliseconds from a command's reply to the first push of its version or a later one,
    at `rate` commands a second."""
    pushes: dict[str, list[tuple[int, float]]] = {}

    async def on_push(message: Any) -> None:
        table = message.subject.split(".")[3]
        version = json.loads(message.data)["version"]
        pushes.setdefault(table, []).append((version, time.perf_counter()))

    sub = await bus.subscribe(subjects.update("highcard", "*", subjects.SPECTATOR), on_push)
    tables = await new_tables(client, TABLES)
    await until_caught_up(bus)  # the new tables' views are stored: only the commands are timed
    replies: dict[tuple[str, int], float] = {}
    await drive(churn(bus, replies), tables, COMMANDS // 2, rate=rate)
    await until_caught_up(bus)
    await sub.unsubscribe()
    delays = []
    for (table, version), replied in replies.items():
        pushed = [at for v, at in pushes.get(table, []) if v >= version]
        if pushed:
            delays.append((min(pushed) - replied) * 1000)
    return delays


async def replay_figures(bus: Bus, client: Client) -> dict[str, float]:
    table = f"r{uuid.uuid4().hex[:12]}"
    await client.command("highcard", table, "owner", {"type": "create", "seats": 3})
    for i in range(REPLAY_STEPS - 1):
        await client.command("highcard", table, "guest", {"type": "join" if i % 2 == 0 else "leave"})
    started = time.perf_counter()
    raw = await bus.events.read("highcard", table)
    raw_ms = (time.perf_counter() - started) * 1000
    started = time.perf_counter()
    pages, size, first = 0, 0, 0
    while True:
        body = await bus.request(
            subjects.replay("highcard", table, subjects.SPECTATOR),
            json.dumps({"from": first}).encode(),
            timeout=30,
        )
        pages += 1
        size += len(body)
        reply = json.loads(body)
        if "next" not in reply:
            break
        first = reply["next"]
    return {
        "replay_bytes": size,
        "replay_ms": (time.perf_counter() - started) * 1000,
        "replay_pages": pages,
        "raw_bytes": sum(len(m.data) for m in raw),
        "raw_ms": raw_ms,
    }


async def one_run(sync_always: bool, scratch: Path) -> dict[str, float]:
    data = scratch / f"run-{uuid.uuid4().hex[:6]}"
    secrets = ServerSecrets.load_or_create(data / "credentials")
    figures: dict[str, float] = {}
    with EmbeddedServer(data / "nats", sync_always=sync_always, secrets=secrets) as server:
        env = {
            "NATS_URL": server.url,
            "TABLETOP_CREDENTIALS": str(secrets.folder),
            "TABLETOP_GAMES": os.environ["TABLETOP_GAMES"],
            "NATS_USER": "",
            "NATS_PASSWORD": "",
        }
        services = Services(env, data / "logs")
        settings = load_settings(nats_user="admin", nats_password=secrets.password("admin"))
        bus = await Bus.connect(server.url, settings, name="bench-client", wait=10)
        await bus.ensure_streams()
        client = Client(bus, timeout=60)
        # the raw baselines on a plain nats-py connection (the bus's parses headers faster)
        raw_nc = await nats.connect(server.url, user="admin", password=secrets.password("admin"))
        responder = subprocess.Popen(
            [sys.executable, __file__, "--raw-responder", server.url],
            stdout=subprocess.PIPE,
            env={**os.environ, "NATS_USER": "admin", "NATS_PASSWORD": secrets.password("admin")},
        )
        try:
            js = bus.nc.jetstream()
            await js.add_stream(
                StreamConfig(name=RAW_STREAM, subjects=["bench.raw.>"], storage=StorageType.FILE)
            )
            assert responder.stdout is not None and responder.stdout.readline() == b"ready\n"
            services.start("worker", "highcard")
            services.start("table-projector")
            services.start("history-projector")
            await services.wait_serving(bus)
            await until_replicas(bus, 1)
            figures["raw_request_append_per_s"] = await raw_request_append(raw_nc, COMMANDS)
            tables = await new_tables(client, TABLES)
            rate, latencies = await drive(churn(bus), tables, COMMANDS)
            figures["commands_per_s"] = rate
            figures["command_p50_ms"] = pct(latencies, 0.5)
            figures["command_p99_ms"] = pct(latencies, 0.99)
            await until_caught_up(bus)
            delays = await append_to_push(bus, client, rate / 2)
            figures["append_to_push_p50_ms"] = pct(delays, 0.5)
            figures["append_to_push_p99_ms"] = pct(delays, 0.99)
            # two replicas against one, on tables of their own
            services.start("worker", "highcard")
            await services.wait_serving(bus)
            await until_replicas(bus, 2)
            before = sum(c.get("retried", 0) for c in await worker_counts(bus))
            tables = await new_tables(client, TABLES)
            two, _ = await drive(churn(bus), tables, COMMANDS)
            retried = sum(c.get("retried", 0) for c in await worker_counts(bus)) - before
            figures["two_replicas_per_s"] = two
            figures["two_replicas_ratio"] = two / rate
            figures["two_replicas_conflict_pct"] = 100 * retried / COMMANDS
            # catch-up: the projector away while commands come
            await until_caught_up(bus)
            projector = services.of("table-projector")[0]
            services.running.pop(projector.label).process.terminate()
            projector.process.wait()
            tables = await new_tables(client, TABLES)
            await drive(churn(bus), tables, COMMANDS)
            behind = await undelivered(bus)
            services.start("table-projector")
            # timed from its first pull (the first messages the server hands it) until every
            # message is acknowledged, all of them counted: the process start is not catching
            # up. (Not from its first acknowledgement: the tables of a batch are folded and
            # stored together, so that comes when most of the work is done.)
            while sum(p[0] for p in await lag(bus) if p) >= behind:
                await asyncio.sleep(0.005)
            started = time.perf_counter()
            await until_caught_up(bus)
            figures["catch_up_per_s"] = behind / (time.perf_counter() - started)
            figures["catch_up_messages"] = behind
            replay = await replay_figures(bus, client)
            figures.update(replay)
            figures["replay_bytes_ratio"] = replay["replay_bytes"] / replay["raw_bytes"]
            # rebuild, the projector stopped (as an operator does)
            projector = services.of("table-projector")[0]
            services.running.pop(projector.label).process.terminate()
            projector.process.wait()
            # the raw read before and after the rebuild, the faster counted: neither side
            # gains from a cache the other warmed
            last = await bus.events.last_seq()
            raw_before = await raw_ordered_replay(raw_nc, last)
            games()  # the games' modules loaded before the timing: starting is not rebuilding
            started = time.perf_counter()
            _, read = await maintenance.rebuild_views(bus)
            figures["rebuild_per_s"] = read / (time.perf_counter() - started)
            figures["log_messages"] = read
            figures["raw_ordered_replay_per_s"] = max(raw_before, await raw_ordered_replay(raw_nc, read))
        finally:
            responder.terminate()
            responder.wait()
            services.stop_all()
            await raw_nc.close()
            await bus.close()
    figures["rebuild_ratio"] = figures["rebuild_per_s"] / figures["raw_ordered_replay_per_s"]
    figures["catch_up_ratio"] = figures["catch_up_per_s"] / figures["raw_ordered_replay_per_s"]
    figures["commands_ratio"] = figures["commands_per_s"] / figures["raw_request_append_per_s"]
    return figures


ROWS = [  # (what, tabletop figure, raw figure, ratio, goal)
    ("commands/s, 100 tables", "commands_per_s", "raw_request_append_per_s", "commands_ratio", ">= 50%"),
    ("command p50 / p99 ms", "command_p50_ms", "command_p99_ms", None, ""),
    (
        "append-to-push p50 / p99 ms, half load",
        "append_to_push_p50_ms",
        "append_to_push_p99_ms",
        None,
        "p99 <= 25 ms",
    ),
    (
        "2 replicas / 1, commands/s",
        "two_replicas_per_s",
        "commands_per_s",
        "two_replicas_ratio",
        "> 1, conflicts < 1%",
    ),
    ("rebuild-views msg/s", "rebuild_per_s", "raw_ordered_replay_per_s", "rebuild_ratio", ">= 50%"),
    ("projector catch-up msg/s", "catch_up_per_s", "raw_ordered_replay_per_s", "catch_up_ratio", ">= 50%"),
    (f"{REPLAY_STEPS}-step replay bytes", "replay_bytes", "raw_bytes", "replay_bytes_ratio", "<= 2x"),
    (f"{REPLAY_STEPS}-step replay ms (cold)", "replay_ms", "raw_ms", None, ""),
]


def report(results: dict[str, dict[str, float]]) -> None:
    for mode, figures in results.items():
        print(f"\n{mode}  (medians of the runs)")
        print(f"  {'what':<40} {'tabletop':>12} {'raw / other':>12} {'ratio':>8}  goal")
        for what, ours, theirs, ratio, goal in ROWS:
            shown = f"{figures[ratio]:.2f}" if ratio else ""
            print(f"  {what:<40} {figures[ours]:>12.1f} {figures[theirs]:>12.1f} {shown:>8}  {goal}")
        print(
            f"  conflicts with 2 replicas: {figures['two_replicas_conflict_pct']:.2f}% of "
            f"commands; catch-up over {figures['catch_up_messages']:.0f} messages; rebuild "
            f"over {figures['log_messages']:.0f}; replay in {figures['replay_pages']:.0f} "
            "page(s)"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", metavar="FILE", help="write every figure as JSON to FILE")
    parser.add_argument("--runs", type=int, default=1, help="runs per fsync setting (median)")
    parser.add_argument("--quick", action="store_true", help="small sizes, to try the bench")
    parser.add_argument("--raw-responder", metavar="URL", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.raw_responder:
        asyncio.run(raw_responder(args.raw_responder, os.environ["NATS_USER"], os.environ["NATS_PASSWORD"]))
        return
    configure_logging(fmt="console", level="warning")
    if args.quick:
        global TABLES, COMMANDS, REPLAY_STEPS
        TABLES, COMMANDS, REPLAY_STEPS = 10, 200, 60
    results: dict[str, dict[str, float]] = {}
    with tempfile.TemporaryDirectory() as scratch:
        for sync_always, mode in ((True, "fsync always"), (False, "fsync off")):
            runs = [asyncio.run(one_run(sync_always, Path(scratch))) for _ in range(args.runs)]
            results[mode] = {k: statistics.median(r[k] for r in runs) for k in runs[0]}
    report(results)
    if args.json:
        Path(args.json).write_text(json.dumps(results, indent=2) + "\n")


if __name__ == "__main__":
    main()
