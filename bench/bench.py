"""Figures, not assertions: tabletop beside the raw nats-py primitive it is built on, measured
in the same run on the same embedded nats-server, once with fsync on every write and once
without.

    python bench/bench.py                 # about 2 minutes on 2 cores; a table of ratios
    python bench/bench.py --json out.json # the same, and every figure as JSON
    python bench/bench.py --paced 2000 --every 10   # N tables, a command each every T s

The services run as `tabletop` processes (the five games' workers in one, as `tabletop up` runs
them; the test game's in another; the table projector, the history projector). The raw
baseline is a responder process (bench/raw_responder.py) that does on the wire what a worker
does and nothing of tabletop: each request in a task of its own as the
worker takes them, on uvloop as the services, one append of a body of the size of tabletop's
log message for the same load, with the worker's headers, to a stream configured as the event
log. Two loads are measured against it:

- join/leave: 100 tables of the test game (highcard), a guest joining and leaving each, from
  the bench's own process (the load of the figures before; its log messages are small);
- five games: bot tables of Illustori, Diced Tomatoes, Decrypto, Dozito and Naishi, as many
  of each (bench/load.py: real rules, each seat choosing from its own view's `legal`), from a
  load generator process; its raw counterpart appends bodies of that load's average log
  message size.

For each, every process's CPU per command (/proc/<pid>/stat, user + system, over the phase,
divided by the commands accepted in it): the workers, the projectors, the nats-server, the raw
responders and the load generator, tabletop's beside the raw one's.

`--paced N --every T` measures instead N tables each sent one command every T seconds (spread
evenly), for `--seconds` after `--warmup`: latencies, append-to-push, the commands/s reached,
each process's resident memory and CPU per command, and the same against the raw responder.
Each figure is the median of `--runs` runs.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
import uuid
from collections.abc import AsyncIterator
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))
os.environ.setdefault("TABLETOP_GAMES", "tests.highcard:GAME")

import msgspec
import nats
import raw_responder
from load import GAME_SEATS, CpuMeter, Generator, rss_mib
from nats.js.api import DeliverPolicy, SubjectTransform

from services.client import Client
from services.registry import games
from services.table_projector import maintenance
from services.table_projector.projector import durable
from shared.bus.connection import Bus
from shared.bus.credentials import ServerSecrets
from shared.bus.server import EmbeddedServer, free_port
from shared.logs import configure_logging
from shared.messages import subjects
from shared.settings import load_settings
from tests.processes import Services

TABLES = 100
COMMANDS = 3000  # per throughput run
CATCH_UPS = 3  # catch-ups a run, the median counted
REPLAY_STEPS = 764
SERVICES = [("table-projector",), ("history-projector",)]


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(int(q * len(ordered)), len(ordered) - 1)] if ordered else float("nan")


# --- the raw primitives ------------------------------------------------------------------------


def raw_stream_config(bus: Bus) -> Any:
    """The event log's stream configuration (EventStore.stream_config: file storage, duplicate
    window, subject transform, deny delete and purge, direct gets), under the raw responder's
    name and subjects."""
    return replace(
        bus.events.stream_config(subjects.STREAM, subjects.LogLayout(1)),
        name=raw_responder.STREAM,
        subjects=[raw_responder.APPEND],
        subject_transform=SubjectTransform(src=raw_responder.APPEND, dest=raw_responder.STORED),
        description="bench: the raw baseline's appends",
    )


def start_responder(url: str, flavour: str, password: str) -> subprocess.Popen[bytes]:
    responder = subprocess.Popen(
        [sys.executable, raw_responder.__file__, url, flavour],
        stdout=subprocess.PIPE,
        env={**os.environ, "NATS_USER": "admin", "NATS_PASSWORD": password},
    )
    assert responder.stdout is not None and responder.stdout.readline() == b"ready\n"
    return responder


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


def raw_churn(nc: Any, flavour: str, body_size: int) -> Any:
    """The join/leave load's requests (the same bodies) to a raw responder, which appends
    `body_size` bytes for each."""

    async def ask(table: str, i: int) -> None:
        body = json.dumps({"id": uuid.uuid4().hex, "type": "join" if i % 2 == 0 else "leave"})
        subject = raw_responder.request_subject(flavour, body_size, "highcard", table)
        msg = await nc.request(subject, body.encode(), timeout=60)
        assert b'"ok":true' in msg.data, msg.data

    return ask


async def raw_ordered_replay(nc: Any, count: int) -> float:
    """Messages a second of an ordered consumer reading the first `count` log messages and
    decoding each one's body (msgspec's JSON decoder, the one tabletop uses, to plain
    objects: the raw side knows no event types)."""
    js = nc.jetstream()
    done = asyncio.Event()
    got = 0
    decode = msgspec.json.decode

    async def on_message(msg: Any) -> None:
        nonlocal got
        decode(msg.data)
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
    layout = await bus.events.layout()
    return await asyncio.gather(
        *(
            bus.consumer_pending(durable(p), stream=layout.stream_of_partition(p))
            for p in range(subjects.PARTITIONS)
        )
    )


async def until_caught_up(bus: Bus) -> None:
    while not all(v == (0, 0) for v in await lag(bus)):
        await asyncio.sleep(0.005)


async def undelivered(bus: Bus) -> int:
    return sum(p[0] + p[1] for p in await lag(bus) if p)


async def append_to_push(st: Stage, rate: float) -> list[float]:
    """Milliseconds from a command's reply to the first spectator push of its version or a
    later one, at `rate` join/leave commands a second: COMMANDS / 2 commands on TABLES new
    tables, evenly spread, from the load generator's process (as the five-game and paced
    loads), which takes the pushes as its connection reads them."""
    args = ["--load", "micro", "--tables", str(TABLES), "--every", str(TABLES / rate)]
    args += ["--warmup", "0", "--seconds", str(COMMANDS / 2 / rate)]
    (got,), _, _ = await generated(st, args, settle=lambda: until_caught_up(st.bus))
    delays: list[float] = got["push_ms"]
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


SERVER_MESSAGES = ("server messages in", "server messages out")


class MonitoredServer(EmbeddedServer):
    """The bench's server, with its monitoring endpoint on loopback: the messages it took in
    from its clients and sent out to them (`/varz`), counted around each phase, so that each
    side's figures show what a command costs on the wire."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.monitor_port = free_port()

    def config(self) -> str:
        return super().config() + f"http: 127.0.0.1:{self.monitor_port}\n"

    def messages(self) -> dict[str, float]:
        with urllib.request.urlopen(f"http://127.0.0.1:{self.monitor_port}/varz", timeout=10) as reply:
            varz = json.load(reply)
        return dict(zip(SERVER_MESSAGES, (varz["in_msgs"], varz["out_msgs"]), strict=True))


@dataclass
class Stage:
    """One run's nats-server with the services and the raw responders running."""

    server: MonitoredServer
    secrets: ServerSecrets
    bus: Bus
    client: Client
    services: Services
    responders: dict[str, subprocess.Popen[bytes]]

    @property
    def password(self) -> str:
        return self.secrets.password("admin")

    def processes(self, generators: list[int] | None = None) -> dict[str, list[int]]:
        """The processes measured, by what they are (pids read now: a restarted service is
        measured as it runs now). The load generator is the bench's own process unless
        generator processes are named."""
        assert self.server.process is not None
        groups = {
            "worker highcard": [s.pid for s in self.services.of("worker", "highcard")],
            "workers, five games": [s.pid for s in self.services.of("worker", *GAME_SEATS)],
            "table projector": [s.pid for s in self.services.of("table-projector")],
            "history projector": [s.pid for s in self.services.of("history-projector")],
            "nats-server": [self.server.process.pid],
        }
        groups |= {f"raw responder, {f}": [p.pid] for f, p in self.responders.items()}
        groups["load generator"] = generators or [os.getpid()]
        return groups

    def meter(self, generators: list[int] | None = None) -> CpuMeter:
        """The CPU of `processes`, and the messages through the server."""
        return CpuMeter(self.processes(generators), counters=self.server.messages)

    def generator(self, *args: str) -> Any:
        return Generator.start(self.server.url, "admin", self.password, *args)


@contextlib.asynccontextmanager
async def stage(sync_always: bool, scratch: Path, flavours: tuple[str, ...]) -> AsyncIterator[Stage]:
    """A fresh server with the account config `tabletop up` writes, the five games' workers in
    one process and highcard's in another, the table and history projectors, and a raw
    responder per flavour."""
    data = scratch / f"run-{uuid.uuid4().hex[:6]}"
    secrets = ServerSecrets.load_or_create(data / "credentials")
    with MonitoredServer(data / "nats", sync_always=sync_always, secrets=secrets) as server:
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
        responders: dict[str, subprocess.Popen[bytes]] = {}
        try:
            await bus.ensure_streams()
            await bus.nc.jetstream().add_stream(raw_stream_config(bus))
            for flavour in flavours:
                responders[flavour] = start_responder(server.url, flavour, secrets.password("admin"))
            services.start("worker", "highcard")
            services.start("worker", *GAME_SEATS)  # one process, as `tabletop up` runs them
            for service in SERVICES:
                services.start(*service)
            await services.wait_serving(bus)
            await until_replicas(bus, 1)
            yield Stage(server, secrets, bus, Client(bus, timeout=60), services, responders)
        finally:
            for responder in responders.values():
                responder.terminate()
                responder.wait()
            services.stop_all()
            await bus.close()


async def log_body_bytes(bus: Bus, after: dict[str, int]) -> float:
    """The mean size of the log messages' bodies after `after` (each stream's sequence)."""
    sizes = [
        len(m.data)
        for stream, seq in after.items()
        async for m in bus.events.iterate(stream, subjects.EVT_ALL, after=seq)
    ]
    return statistics.mean(sizes) if sizes else 0.0


def cpu_figures(prefix: str, per_command: dict[str, float]) -> dict[str, float]:
    """Each process's CPU µs a command, and the server's messages a command."""
    return {
        (f"{name} {prefix}" if name in SERVER_MESSAGES else f"cpu_us {prefix} {name}"): value
        for name, value in per_command.items()
    }


async def generated(
    st: Stage, args: list[str], *, generators: int = 1, settle: Any = None
) -> tuple[list[dict[str, Any]], dict[str, float], dict[str, float]]:
    """Run generator processes (bench/load.py, `args` each, `--tables` split between them):
    their figures, every process's CPU µs per accepted command over the counted part (after
    `settle()`, e.g. until the projector has caught up), and every process's resident MiB at
    its end."""
    tables = int(args[args.index("--tables") + 1])
    shares = [tables // generators + (i < tables % generators) for i in range(generators)]
    gens = []
    for share in shares:
        own = list(args)
        own[own.index("--tables") + 1] = str(share)
        gens.append(await st.generator(*own))
    for gen in gens:
        await gen.said("ready")
    meter = st.meter([g.pid for g in gens])
    for gen in gens:
        await gen.go()
    for gen in gens:
        await gen.said("measuring")
    meter.start()
    for gen in gens:
        await gen.said("done")
    if settle is not None:
        await settle()
    after = meter.snapshot()
    rss = {name: sum(rss_mib(p) or 0.0 for p in pids) for name, pids in meter.pids.items()}
    figures = [await gen.figures() for gen in gens]
    accepted = sum(f["accepted"] for f in figures)
    return figures, meter.per_command_us(accepted, after) | meter.per_command(accepted, after), rss


def merged(figures: list[dict[str, Any]]) -> dict[str, Any]:
    """The figures of several generators as one: counts summed, lists joined, the longest
    time counted."""
    sent = sum(f["sent"] for f in figures)
    failures: dict[str, int] = {}
    for f in figures:
        for why, count in f["failures"].items():
            failures[why] = failures.get(why, 0) + count
    return {
        "accepted": sum(f["accepted"] for f in figures),
        "seconds": max(f["seconds"] for f in figures),
        "latencies_ms": [x for f in figures for x in f["latencies_ms"]],
        "push_ms": [x for f in figures for x in f["push_ms"]],
        "command_bytes": sum(f["command_bytes"] * f["sent"] for f in figures) / max(sent, 1),
        "failures": failures,
        "cpu_s": sum(f["cpu_s"] for f in figures),
    }


async def one_run(sync_always: bool, scratch: Path) -> dict[str, float]:
    figures: dict[str, float] = {}
    async with stage(sync_always, scratch, raw_responder.FLAVOURS) as st:
        bus, client, services = st.bus, st.client, st.services
        # the raw requests on a plain nats-py connection, as tabletop's go through the bus's
        raw_nc = await nats.connect(st.server.url, user="admin", password=st.password)
        try:
            # join/leave: tabletop, then the raw responders with bodies of its log's size
            tables = await new_tables(client, TABLES)
            await until_caught_up(bus)
            first = await bus.events.last_seqs()
            meter = st.meter()
            meter.start()
            rate, latencies = await drive(churn(bus), tables, COMMANDS)
            await until_caught_up(bus)  # the projector's work for these commands counted too
            figures |= cpu_figures("join/leave tabletop", meter.per_command_all(COMMANDS))
            figures["commands_per_s"] = rate
            figures["command_p50_ms"] = pct(latencies, 0.5)
            figures["command_p99_ms"] = pct(latencies, 0.99)
            body = await log_body_bytes(bus, first)
            figures["join_leave_log_bytes"] = body
            for flavour in raw_responder.FLAVOURS:
                raw_tables = [f"r{uuid.uuid4().hex[:12]}" for _ in range(TABLES)]
                meter.start()
                rate, latencies = await drive(raw_churn(raw_nc, flavour, round(body)), raw_tables, COMMANDS)
                figures |= cpu_figures(f"join/leave raw-{flavour}", meter.per_command_all(COMMANDS))
                figures[f"raw_{flavour}_per_s"] = rate
                figures[f"raw_{flavour}_p50_ms"] = pct(latencies, 0.5)
                figures[f"raw_{flavour}_p99_ms"] = pct(latencies, 0.99)
            await until_caught_up(bus)
            delays = await append_to_push(st, figures["commands_per_s"] / 2)
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
            figures["two_replicas_ratio"] = two / figures["commands_per_s"]
            figures["two_replicas_conflict_pct"] = 100 * retried / COMMANDS
            # catch-up: the projector away while commands come, CATCH_UPS times (a catch-up
            # takes some 50 ms: one alone says as much of the machine's moment as of the
            # projector), the median counted
            catch_ups = []
            for _ in range(CATCH_UPS):
                await until_caught_up(bus)
                projector = services.of("table-projector")[0]
                services.running.pop(projector.label).process.terminate()
                projector.process.wait()
                tables = await new_tables(client, TABLES)
                await drive(churn(bus), tables, COMMANDS)
                behind = await undelivered(bus)
                services.start("table-projector")
                # timed from its first pull (the first messages the server hands it) until
                # every message is acknowledged, all of them counted: the process start is not
                # catching up. (Not from its first acknowledgement: the tables of a batch are
                # folded and stored together, so that comes when most of the work is done.)
                while sum(p[0] for p in await lag(bus) if p) >= behind:
                    await asyncio.sleep(0.005)
                started = time.perf_counter()
                await until_caught_up(bus)
                catch_ups.append(behind / (time.perf_counter() - started))
            figures["catch_up_per_s"] = statistics.median(catch_ups)
            figures["catch_up_slowest_per_s"] = min(catch_ups)
            figures["catch_up_fastest_per_s"] = max(catch_ups)
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
            last = sum((await bus.events.last_seqs()).values())  # one stream: the bench's layout
            raw_before = await raw_ordered_replay(raw_nc, last)
            games()  # the games' modules loaded before the timing: starting is not rebuilding
            started = time.perf_counter()
            _, read = await maintenance.rebuild_views(bus)
            figures["rebuild_per_s"] = read / (time.perf_counter() - started)
            figures["log_messages"] = read
            figures["raw_ordered_replay_per_s"] = max(raw_before, await raw_ordered_replay(raw_nc, read))
            # the five games, last (their larger messages would change the catch-up and
            # rebuild above), the projector serving again
            services.start("table-projector")
            await services.wait_serving(bus)
            figures |= await five_games(st)
        finally:
            await raw_nc.close()
    figures["rebuild_ratio"] = figures["rebuild_per_s"] / figures["raw_ordered_replay_per_s"]
    figures["catch_up_ratio"] = figures["catch_up_per_s"] / figures["raw_ordered_replay_per_s"]
    figures["commands_ratio"] = figures["commands_per_s"] / figures["raw_lean_per_s"]
    figures["games_ratio"] = figures["games_per_s"] / figures["games_raw_lean_per_s"]
    figures["commands_api_ratio"] = figures["commands_per_s"] / figures["raw_api_per_s"]
    figures["games_api_ratio"] = figures["games_per_s"] / figures["games_raw_api_per_s"]
    return figures


async def five_games(st: Stage) -> dict[str, float]:
    """Bot tables of the five games (as many of each, `TABLES` in all), unpaced, until
    `COMMANDS` are accepted; then the raw responders fed, on as many tables, commands and
    bodies of that load's average sizes."""
    figures: dict[str, float] = {}
    first = await st.bus.events.last_seqs()
    args = ["--load", "games", "--tables", str(TABLES), "--commands", str(COMMANDS)]
    (played,), cpu, _ = await generated(st, args, settle=lambda: until_caught_up(st.bus))
    figures |= cpu_figures("five games tabletop", cpu)
    figures["games_per_s"] = played["accepted"] / played["seconds"]
    figures["games_p50_ms"] = pct(played["latencies_ms"], 0.5)
    figures["games_p99_ms"] = pct(played["latencies_ms"], 0.99)
    figures["games_refused"] = sum(played["failures"].values())
    body = await log_body_bytes(st.bus, first)
    figures["games_log_bytes"] = body
    figures["games_command_bytes"] = played["command_bytes"]
    for flavour in raw_responder.FLAVOURS:
        raw_args = ["--load", "micro", "--target", f"raw-{flavour}", "--tables", str(TABLES)]
        raw_args += ["--commands", str(COMMANDS), "--body-size", str(round(body))]
        raw_args += ["--command-size", str(round(played["command_bytes"]))]
        (raw,), cpu, _ = await generated(st, raw_args)
        figures |= cpu_figures(f"five games raw-{flavour}", cpu)
        figures[f"games_raw_{flavour}_per_s"] = raw["accepted"] / raw["seconds"]
        figures[f"games_raw_{flavour}_p50_ms"] = pct(raw["latencies_ms"], 0.5)
        figures[f"games_raw_{flavour}_p99_ms"] = pct(raw["latencies_ms"], 0.99)
    return figures


async def paced_run(sync_always: bool, scratch: Path, args: argparse.Namespace) -> dict[str, float]:
    """`args.paced` tables each sent a command every `args.every` seconds, evenly spread, by
    `args.generators` processes; the counted `args.seconds` after `args.warmup`. Then the
    same pace of requests to the lean raw responder (bodies of the load's average sizes)."""
    figures: dict[str, float] = {}
    async with stage(sync_always, scratch, ("lean",)) as st:
        first = await st.bus.events.last_seqs()
        pace = ["--tables", str(args.paced), "--every", str(args.every)]
        pace += ["--warmup", str(args.warmup), "--seconds", str(args.seconds)]
        found, cpu, rss = await generated(st, ["--load", args.paced_load, *pace], generators=args.generators)
        ours = merged(found)
        body = await log_body_bytes(st.bus, first)
        raw_args = ["--load", "micro", "--target", "raw-lean", *pace, "--body-size", str(round(body))]
        raw_args += ["--command-size", str(round(ours["command_bytes"]))]
        found, raw_cpu, raw_rss = await generated(st, raw_args, generators=args.generators)
        raw = merged(found)
    figures["target_per_s"] = args.paced / args.every
    for side, got, use, mem in (("tabletop", ours, cpu, rss), ("raw", raw, raw_cpu, raw_rss)):
        figures[f"{side} per_s"] = got["accepted"] / got["seconds"]
        figures[f"{side} p50_ms"] = pct(got["latencies_ms"], 0.5)
        figures[f"{side} p99_ms"] = pct(got["latencies_ms"], 0.99)
        figures[f"{side} refused"] = sum(got["failures"].values())
        figures[f"{side} generator_cpu_us"] = 1e6 * got["cpu_s"] / max(got["accepted"], 1)
        figures |= cpu_figures(f"paced {side}", use)
        figures |= {f"rss_mib paced {side} {name}": mib for name, mib in mem.items()}
    figures["append_to_push_p50_ms"] = pct(ours["push_ms"], 0.5)
    figures["append_to_push_p99_ms"] = pct(ours["push_ms"], 0.99)
    figures["log_bytes"] = body
    return figures


ROWS = [  # (what, tabletop figure, raw figure, ratio, goal)
    ("join/leave commands/s, 100 tables", "commands_per_s", "raw_lean_per_s", "commands_ratio", ">= 75%"),
    ("  command p50 ms", "command_p50_ms", "raw_lean_p50_ms", None, ""),
    ("  command p99 ms", "command_p99_ms", "raw_lean_p99_ms", None, ""),
    ("  against raw via nats-py's API", "commands_per_s", "raw_api_per_s", "commands_api_ratio", ""),
    ("five games commands/s, 100 tables", "games_per_s", "games_raw_lean_per_s", "games_ratio", ">= 75%"),
    ("  command p50 ms", "games_p50_ms", "games_raw_lean_p50_ms", None, ""),
    ("  command p99 ms", "games_p99_ms", "games_raw_lean_p99_ms", None, ""),
    ("  against raw via nats-py's API", "games_per_s", "games_raw_api_per_s", "games_api_ratio", ""),
    ("log message bytes: join/leave, five games", "join_leave_log_bytes", "games_log_bytes", None, ""),
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
    ("rebuild-views msg/s", "rebuild_per_s", "raw_ordered_replay_per_s", "rebuild_ratio", ">= 75%"),
    ("projector catch-up msg/s", "catch_up_per_s", "raw_ordered_replay_per_s", "catch_up_ratio", ">= 75%"),
    (f"{REPLAY_STEPS}-step replay bytes", "replay_bytes", "raw_bytes", "replay_bytes_ratio", "<= 2x"),
    (f"{REPLAY_STEPS}-step replay ms (cold)", "replay_ms", "raw_ms", None, ""),
]


def cpu_table(figures: dict[str, float], title: str, sides: list[tuple[str, str]]) -> None:
    """Each process's CPU µs a command, one column per side (`(heading, key prefix)`); a
    process idle on every side is left out."""
    names: list[str] = []
    for _, prefix in sides:
        names += [k.removeprefix(f"cpu_us {prefix} ") for k in figures if k.startswith(f"cpu_us {prefix} ")]
    names = list(dict.fromkeys(names))
    print(f"  {title:<40}" + "".join(f"{heading:>14}" for heading, _ in sides))
    totals = [0.0] * len(sides)
    for name in names:
        values = [figures.get(f"cpu_us {prefix} {name}", 0.0) for _, prefix in sides]
        if max(values) < 0.5:
            continue
        totals = [t + v for t, v in zip(totals, values)]
        print(f"    {name:<38}" + "".join(f"{v:>14.1f}" for v in values))
    print(f"    {'all of them':<38}" + "".join(f"{t:>14.1f}" for t in totals))
    for name in SERVER_MESSAGES:  # what the server took in and sent out a command
        values = [figures.get(f"{name} {prefix}", 0.0) for _, prefix in sides]
        print(f"  {name + ' a command':<40}" + "".join(f"{v:>14.1f}" for v in values))


def report(results: dict[str, dict[str, float]]) -> None:
    for mode, figures in results.items():
        print(f"\n{mode}  (medians of the runs)")
        print(f"  {'what':<40} {'tabletop':>12} {'raw / other':>12} {'ratio':>8}  goal")
        for what, ours, theirs, ratio, goal in ROWS:
            shown = f"{figures[ratio]:.2f}" if ratio else ""
            print(f"  {what:<40} {figures[ours]:>12.1f} {figures[theirs]:>12.1f} {shown:>8}  {goal}")
        print(
            f"  conflicts with 2 replicas: {figures['two_replicas_conflict_pct']:.2f}% of "
            f"commands; catch-up over {figures['catch_up_messages']:.0f} messages, the median of "
            f"{CATCH_UPS} ({figures['catch_up_slowest_per_s']:.0f} to "
            f"{figures['catch_up_fastest_per_s']:.0f}/s); rebuild "
            f"over {figures['log_messages']:.0f}; replay in {figures['replay_pages']:.0f} "
            f"page(s); five games: {figures['games_refused']:.0f} command(s) refused"
        )
        for load, title in (("join/leave", "join/leave"), ("five games", "five games")):
            sides = [("tabletop", f"{load} tabletop"), ("raw lean", f"{load} raw-lean")]
            sides.append(("raw api", f"{load} raw-api"))
            cpu_table(figures, f"CPU µs a command, {title}", sides)


def report_paced(results: dict[str, dict[str, float]], args: argparse.Namespace) -> None:
    for mode, figures in results.items():
        print(
            f"\n{mode}: {args.paced} {args.paced_load} tables, a command each every {args.every:g} s "
            f"({figures['target_per_s']:.0f}/s asked), {args.seconds:g} s counted after "
            f"{args.warmup:g} s  (medians of the runs)"
        )
        print(f"  {'what':<40} {'tabletop':>12} {'raw lean':>12}")
        for what, key in (
            ("commands/s reached", "per_s"),
            ("command p50 ms", "p50_ms"),
            ("command p99 ms", "p99_ms"),
            ("commands refused", "refused"),
        ):
            print(f"  {what:<40} {figures[f'tabletop {key}']:>12.1f} {figures[f'raw {key}']:>12.1f}")
        print(
            f"  {'append-to-push p50 / p99 ms':<40} {figures['append_to_push_p50_ms']:>12.1f} "
            f"{figures['append_to_push_p99_ms']:>12.1f}"
        )
        sides = [("tabletop", "paced tabletop"), ("raw lean", "paced raw")]
        cpu_table(figures, "CPU µs a command", sides)
        print(f"  {'resident MiB at the end':<40}{'tabletop':>14}{'raw lean':>14}")
        head = "rss_mib paced tabletop "
        for name in [k.removeprefix(head) for k in figures if k.startswith(head)]:
            ours, theirs = figures[f"rss_mib paced tabletop {name}"], figures[f"rss_mib paced raw {name}"]
            if ours or theirs:
                print(f"    {name:<38}{ours:>14.1f}{theirs:>14.1f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", metavar="FILE", help="write every figure as JSON to FILE")
    parser.add_argument("--runs", type=int, default=1, help="runs per fsync setting (median)")
    parser.add_argument("--quick", action="store_true", help="small sizes, to try the bench")
    parser.add_argument("--fsync", choices=("always", "off", "both"), default="both")
    paced = parser.add_argument_group("paced mode")
    paced.add_argument("--paced", type=int, metavar="N", help="hold N tables, each sent a command every T s")
    paced.add_argument("--every", type=float, default=10.0, metavar="T", help="seconds (default 10)")
    paced.add_argument("--seconds", type=float, help="seconds counted (default 60; 5 with --quick)")
    paced.add_argument("--warmup", type=float, help="seconds before them (default 10; 3 with --quick)")
    paced.add_argument(
        "--paced-load",
        choices=("micro", "games"),
        default="micro",
        help="micro: a guest joining and leaving highcard tables; games: bot tables of the five games",
    )
    paced.add_argument("--generators", type=int, default=1, help="load generator processes")
    args = parser.parse_args()
    configure_logging(fmt="console", level="warning")
    if args.quick:
        global TABLES, COMMANDS, REPLAY_STEPS
        TABLES, COMMANDS, REPLAY_STEPS = 10, 200, 60
    args.seconds = args.seconds or (5.0 if args.quick else 60.0)
    args.warmup = args.warmup if args.warmup is not None else (3.0 if args.quick else 10.0)
    settings = [(True, "fsync always"), (False, "fsync off")]
    settings = [s for s in settings if args.fsync == "both" or s[0] == (args.fsync == "always")]
    results: dict[str, dict[str, float]] = {}
    with tempfile.TemporaryDirectory() as scratch:
        for sync_always, mode in settings:
            if args.paced:
                runs = [asyncio.run(paced_run(sync_always, Path(scratch), args)) for _ in range(args.runs)]
            else:
                runs = [asyncio.run(one_run(sync_always, Path(scratch))) for _ in range(args.runs)]
            results[mode] = {k: statistics.median(r[k] for r in runs) for k in runs[0]}
    if args.paced:
        report_paced(results, args)
    else:
        report(results)
    if args.json:
        Path(args.json).write_text(json.dumps(results, indent=2) + "\n")


if __name__ == "__main__":
    main()
