"""The bench's load generators and its probes of the processes it measures.

A generator is a process of its own (`python bench/load.py URL ...`, started by
`Generator`): the load is made where its CPU can be counted apart from the bench's, and split
over several processes when one is not enough. Two loads:

- `micro`: on each table a guest joining and leaving in turn (highcard, the test game), or for
  a raw target, requests of the same shape to a raw responder (bench/raw_responder.py).
- `games`: bot tables of the five games (`GAME_SEATS`: as many tables of each game, seated
  with the players the rules play most often). Each seat's client reads its own seat's view
  (the pushes of `tabletop.update.<game>.<table>.<seat>`, as the web client follows them) and,
  when the spectator's view names it among those to act, sends one of its `legal` commands
  as the easy bot chooses it (`Game.bot`), with `expect`. A table that ends is replaced by a
  new one of the same game, so the mix of games stays even.

Unpaced (`--every 0`), every table sends its next command as soon as it can, until
`--commands` are accepted. Paced (`--every T`), table i of N sends at T * i / N + k * T
seconds (spread evenly, never in bursts) for `--warmup` then `--seconds`; only the commands sent
within the measured seconds are counted.

Protocol with the bench: it prints `ready` once its tables are seated (made concurrently,
`SEATING` at a time), starts on a line `go` on its stdin, prints `measuring` when the counted
part begins and `done` when it ends, then one line of JSON: the commands counted, their
latencies, the delays from each reply to the first spectator push of its version or a later
one, and the bytes sent.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import secrets
import sys
import time
import uuid
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

import msgspec
from raw_responder import request_subject

from shared.bus.nats_internals import FastClient, request_with_headers
from shared.messages import subjects

# The five games and the players seated at each: two for Naishi (its only count), four for the
# others (Decrypto's smallest, two teams of two; the count the others are most played at).
GAME_SEATS = {"illustori": 4, "diced_tomatoes": 4, "decrypto": 4, "dozito": 4, "naishi": 2}
SEATING = 128  # tables being seated at once
TIMEOUT = 60.0  # a request's timeout: under load a command may wait behind thousands
VIEW_WAIT = 10.0  # seconds without the push a table waits for before it asks for the views
NO_HEADERS = b"NATS/1.0\r\n\r\n"  # commands carry none; requests go through the lean path
T = TypeVar("T")


# --- probes of processes ---------------------------------------------------------------------


def cpu_seconds(pid: int) -> float | None:
    """User + system CPU seconds a process has used (from /proc), None once it is gone."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return None
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def rss_mib(pid: int) -> float | None:
    """Resident memory of a process in MiB (VmRSS, from /proc), None once it is gone."""
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    except OSError:
        return None
    return None


class CpuMeter:
    """CPU seconds of named groups of processes, between two snapshots; and, where given,
    other running counts read at the same instants (`counters`: the server's messages)."""

    def __init__(
        self, pids: dict[str, list[int]], counters: Callable[[], dict[str, float]] | None = None
    ) -> None:
        self.pids = pids
        self.counters = counters
        self.before: dict[str, float] = {}

    def snapshot(self) -> dict[str, float]:
        taken = {name: sum(cpu_seconds(p) or 0.0 for p in pids) for name, pids in self.pids.items()}
        return taken | (self.counters() if self.counters else {})

    def per_command(self, commands: int, after: dict[str, float]) -> dict[str, float]:
        """Each counter's count a command, from `start` to `after`."""
        return {n: (after[n] - self.before[n]) / max(commands, 1) for n in after if n not in self.pids}

    def per_command_all(self, commands: int) -> dict[str, float]:
        """`per_command_us` and `per_command` from `start` to now."""
        after = self.snapshot()
        return self.per_command_us(commands, after) | self.per_command(commands, after)

    def start(self) -> None:
        self.before = self.snapshot()

    def per_command_us(self, commands: int, after: dict[str, float] | None = None) -> dict[str, float]:
        """Microseconds of CPU a command, per group, from `start` to `after` (a snapshot; now
        if None). 10 ms resolution per process: a few µs over thousands of commands."""
        after = after or self.snapshot()
        return {n: 1e6 * (after[n] - self.before[n]) / max(commands, 1) for n in self.pids}


# --- the generator, seen from the bench ------------------------------------------------------


@dataclass
class Generator:
    """A generator process: started, told to go, its figures read."""

    process: asyncio.subprocess.Process

    @classmethod
    async def start(cls, url: str, user: str, password: str, *args: str) -> Generator:
        process = await asyncio.create_subprocess_exec(
            sys.executable,
            __file__,
            url,
            *args,
            stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE,
            env={**os.environ, "NATS_USER": user, "NATS_PASSWORD": password},
        )
        return cls(process)

    @property
    def pid(self) -> int:
        return self.process.pid

    async def said(self, word: str) -> None:
        assert self.process.stdout is not None
        line = (await self.process.stdout.readline()).decode().strip()
        if line != word:
            raise RuntimeError(f"the load generator said {line!r}, not {word!r}")

    async def go(self) -> None:
        assert self.process.stdin is not None
        self.process.stdin.write(b"go\n")
        await self.process.stdin.drain()

    async def figures(self) -> dict[str, Any]:
        assert self.process.stdout is not None
        rest = await self.process.stdout.read()  # one line, but longer than a readline's limit
        await self.process.wait()
        figures: dict[str, Any] = json.loads(rest)
        return figures


# --- the generator's side ---------------------------------------------------------------------


class _Version(msgspec.Struct):
    version: int


class _Table(msgspec.Struct):
    status: str = ""
    to_act: list[str] = []
    zombies: list[str] = []


class _Spectator(msgspec.Struct):
    version: int
    view: _Table


class _Seat(msgspec.Struct):
    version: int
    view: msgspec.Raw


class _Reply(msgspec.Struct):
    ok: bool = False
    version: int = 0
    error: dict[str, Any] | None = None


_version = msgspec.json.Decoder(_Version)
_spectator = msgspec.json.Decoder(_Spectator)
_seat = msgspec.json.Decoder(_Seat)
_reply = msgspec.json.Decoder(_Reply)
_encode = msgspec.json.Encoder().encode


@dataclass
class Seen:
    """What a table's clients have been pushed: the spectator's view (who is to act) and each
    seat's own view, kept undecoded until that seat acts."""

    spectator: _Spectator | None = None
    seats: dict[str, _Seat] = field(default_factory=dict)
    changed: asyncio.Event = field(default_factory=asyncio.Event)
    pushed: list[tuple[int, float]] = field(default_factory=list)  # spectator pushes: version, when


class Run:
    """One generator's load, its clock and what it counts."""

    def __init__(self, nc: FastClient, args: argparse.Namespace) -> None:
        self.nc = nc
        self.args = args
        self.seen: dict[str, Seen] = {}  # by table
        self.began = float("inf")  # when the counted part begins (perf_counter): after seating
        self.ends = float("inf")
        self.go_at = 0.0
        self.accepted = 0  # commands accepted in the counted part
        self.latencies: list[float] = []
        self.replies: dict[tuple[str, int], float] = {}  # (table, version) -> replied at
        self.sent_bytes = 0
        self.sent = 0
        self.failures: dict[str, int] = {}
        self.finished = asyncio.Event()

    def counting(self, at: float) -> bool:
        return self.began <= at < self.ends

    def over(self) -> bool:
        return self.finished.is_set() or time.perf_counter() >= self.ends

    def count_failure(self, why: str) -> None:
        self.failures[why] = self.failures.get(why, 0) + 1

    async def ask(self, subject: str, body: bytes, table: str) -> _Reply:
        """One request; counted (latency, acceptance, bytes) when sent in the counted part."""
        began = time.perf_counter()
        msg = await request_with_headers(self.nc, subject, body, NO_HEADERS, TIMEOUT)
        replied = time.perf_counter()
        reply = _reply.decode(msg.data)
        if self.counting(began):
            self.latencies.append((replied - began) * 1000)
            self.sent += 1
            self.sent_bytes += len(body)
            if reply.ok:
                self.accepted += 1
                self.replies[(table, reply.version)] = replied
                if self.args.commands and self.accepted >= self.args.commands:
                    self.finished.set()
        return reply

    async def paced(self, due: float) -> float:
        """Wait until `due` (paced runs), and return the next due time."""
        every: float = self.args.every
        if not every:
            return due
        wait = due - time.perf_counter()
        if wait > 0:
            await asyncio.sleep(wait)
        return due + every

    # pushes, taken from the connection's read loop (no message object per push)

    def on_push(self, subject: bytes, reply: bytes, data: bytes, headers: bytes | None) -> None:
        _, _, _, table, viewer = subject.decode().split(".")
        seen = self.seen.get(table)
        if seen is None:
            return
        if viewer == subjects.SPECTATOR:
            spectator = _spectator.decode(data)
            seen.pushed.append((spectator.version, time.perf_counter()))
            if seen.spectator is None or spectator.version >= seen.spectator.version:
                seen.spectator = spectator
        else:
            seat = _seat.decode(data)
            held = seen.seats.get(viewer)
            if held is None or seat.version >= held.version:
                seen.seats[viewer] = seat
        seen.changed.set()

    async def follow(self, subject: str) -> None:
        await self.nc.subscribe_taking(subject, self.on_push)
        await self.nc.flush()

    def push_delays(self) -> list[float]:
        delays = []
        for (table, version), replied in self.replies.items():
            seen = self.seen.get(table)
            pushed = [at for v, at in seen.pushed if v >= version] if seen else []
            if pushed:
                delays.append((min(pushed) - replied) * 1000)
        return delays


# micro: join and leave


async def micro_table(run: Run, index: int, table: str) -> None:
    args = run.args
    due = run.go_at + (args.every * index / args.tables if args.every else 0.0)
    if args.target == "tabletop":
        subject = subjects.cmd("highcard", table, "guest")
    else:
        subject = request_subject(args.target.removeprefix("raw-"), args.body_size, "highcard", table)
    i = 0
    while not run.over():
        due = await run.paced(due)
        if run.over():
            return
        # a command's id and type, as a client sends them (padded to the size asked for raw)
        body = b'{"id":"%s","type":"%s"}' % (uuid.uuid4().hex.encode(), b"join" if i % 2 == 0 else b"leave")
        if args.command_size:
            body = body.ljust(args.command_size)
        reply = await run.ask(subject, body, table)
        if not reply.ok:
            run.count_failure(str((reply.error or {}).get("code")))
        i += 1


async def micro_seat(run: Run, table: str) -> None:
    if run.args.target != "tabletop":
        return
    run.seen[table] = Seen()
    body = _encode({"id": uuid.uuid4().hex, "type": "create", "seats": 3})
    reply = await run.ask(subjects.cmd("highcard", table, "owner"), body, table)
    assert reply.ok, reply


# games: bot tables of the five games


@dataclass
class BotTable:
    game: str
    table: str
    players: list[str]
    version: int = 0


async def seat_game(run: Run, game: str, due: float) -> tuple[BotTable, float]:
    """A new table of `game`, created by its first player, joined by the others and started
    (each adding entropy of its own, as the clients do)."""
    players = [f"p{i}" for i in range(GAME_SEATS[game])]
    bot = BotTable(game, f"g{uuid.uuid4().hex[:12]}", players)
    run.seen[bot.table] = Seen()
    commands: list[tuple[str, dict[str, Any]]] = [
        (
            players[0],
            {"type": "create", "seats": len(players), "options": {}, "entropy": secrets.token_hex(32)},
        )
    ]
    commands += [(p, {"type": "join", "entropy": secrets.token_hex(32)}) for p in players[1:]]
    commands.append((players[0], {"type": "start"}))
    for player, command in commands:
        due = await run.paced(due)
        reply = await run.ask(
            subjects.cmd(game, bot.table, player), _encode({"id": uuid.uuid4().hex, **command}), bot.table
        )
        if not reply.ok:
            raise RuntimeError(f"{game} {command['type']} refused: {reply.error}")
        bot.version = reply.version
    return bot, due


async def refresh(run: Run, bot: BotTable, seen: Seen) -> None:
    """The views asked for, as a client does when no push came (a push may be lost)."""
    for viewer in [subjects.SPECTATOR, *bot.players]:
        msg = await request_with_headers(
            run.nc, subjects.view(bot.game, bot.table, viewer), b"{}", NO_HEADERS, TIMEOUT
        )
        reply = msgspec.json.decode(msg.data)
        if "error" in reply:
            continue
        if viewer == subjects.SPECTATOR:
            spectator = msgspec.convert(reply, _Spectator)
            if seen.spectator is None or spectator.version >= seen.spectator.version:
                seen.spectator = spectator
        else:
            seat = _Seat(reply["version"], msgspec.Raw(_encode(reply["view"])))
            if viewer not in seen.seats or seat.version >= seen.seats[viewer].version:
                seen.seats[viewer] = seat


async def next_move(run: Run, bot: BotTable) -> tuple[str, dict[str, Any], int] | None:
    """The seat to act, its view and the table's version, once the pushes have shown it; None
    when the table ended (or never moved on: counted as stuck)."""
    seen = run.seen[bot.table]
    waits = 0
    while not run.over():
        spectator = seen.spectator
        if spectator is not None and spectator.version >= bot.version:
            if spectator.view.status == "ended":
                return None
            for player in spectator.view.to_act:
                held = seen.seats.get(player)
                if player in spectator.view.zombies or held is None or held.version != spectator.version:
                    continue
                view: dict[str, Any] = msgspec.json.decode(held.view)
                if "legal" in view:
                    return player, view, spectator.version
        seen.changed.clear()
        try:
            await asyncio.wait_for(seen.changed.wait(), VIEW_WAIT)
        except TimeoutError:
            waits += 1
            if waits > 3:
                run.count_failure("stuck")
                return None
            await refresh(run, bot, seen)
    return None


async def game_slot(run: Run, index: int, game: str, bot: BotTable) -> None:
    """Tables of `game` played one after another on this slot until the run is over."""
    from services.registry import get  # the games' modules: only generators of this load need them
    from shared.games.bot_levels import bot_move

    args = run.args
    rules = get(game).game
    rng = random.Random(index)
    due = run.go_at + (args.every * index / args.tables if args.every else 0.0)
    while not run.over():
        moved = await next_move(run, bot)
        if moved is None:
            run.seen.pop(bot.table, None)
            if run.over():
                return
            bot, due = await seat_game(run, game, due)
            continue
        player, view, version = moved
        due = await run.paced(due)
        if run.over():
            return
        command = {"id": uuid.uuid4().hex, **bot_move(rules, view, rng), "expect": version}
        reply = await run.ask(subjects.cmd(game, bot.table, player), _encode(command), bot.table)
        if reply.ok:
            bot.version = reply.version
        else:
            run.count_failure(str((reply.error or {}).get("code")))
            bot.version = version + 1


async def bounded(count: int, make: Callable[[int], Awaitable[T]]) -> list[T]:
    """`make(i)` for i in range(count), `SEATING` at a time."""
    limit = asyncio.Semaphore(SEATING)

    async def one(i: int) -> T:
        async with limit:
            return await make(i)

    return list(await asyncio.gather(*(one(i) for i in range(count))))


async def generate(args: argparse.Namespace) -> dict[str, Any]:
    nc = FastClient()
    await nc.connect(
        args.url, user=os.environ["NATS_USER"], password=os.environ["NATS_PASSWORD"], name="bench-load"
    )
    run = Run(nc, args)
    names = [f"b{uuid.uuid4().hex[:12]}" for _ in range(args.tables)]
    games = [list(GAME_SEATS)[i % len(GAME_SEATS)] for i in range(args.tables)]
    bots: list[BotTable] = []
    if args.load == "micro":
        if args.target == "tabletop":
            await run.follow(subjects.update("highcard", "*", subjects.SPECTATOR))
        await bounded(args.tables, lambda i: micro_seat(run, names[i]))
    else:
        await run.follow(f"{subjects.PREFIX}.update.>")
        seated = await bounded(args.tables, lambda i: seat_game(run, games[i], 0.0))
        bots = [bot for bot, _ in seated]
    print("ready", flush=True)
    await asyncio.get_running_loop().run_in_executor(None, sys.stdin.readline)
    run.go_at = time.perf_counter()
    run.began = run.go_at + (args.warmup if args.every else 0.0)
    if args.every:
        run.ends = run.began + args.seconds
    if args.load == "micro":
        tasks = [asyncio.create_task(micro_table(run, i, t)) for i, t in enumerate(names)]
    else:
        tasks = [asyncio.create_task(game_slot(run, i, g, b)) for i, (g, b) in enumerate(zip(games, bots))]
    await asyncio.sleep(max(run.began - time.perf_counter(), 0))
    print("measuring", flush=True)
    cpu_began = time.process_time()
    if args.every:
        await asyncio.sleep(max(run.ends - time.perf_counter(), 0))
    else:
        await run.finished.wait()
        run.ends = time.perf_counter()
    cpu = time.process_time() - cpu_began
    print("done", flush=True)
    await asyncio.gather(*tasks, return_exceptions=True)
    await nc.close()
    return {
        "accepted": run.accepted,
        "sent": run.sent,
        "seconds": run.ends - run.began,
        "latencies_ms": [round(ms, 3) for ms in run.latencies],
        "push_ms": [round(ms, 3) for ms in run.push_delays()],
        "command_bytes": run.sent_bytes / max(run.sent, 1),
        "failures": run.failures,
        "cpu_s": cpu,
    }


def arguments(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("url")
    parser.add_argument("--load", choices=("micro", "games"), default="micro")
    parser.add_argument("--target", choices=("tabletop", "raw-lean", "raw-api"), default="tabletop")
    parser.add_argument("--tables", type=int, default=100)
    parser.add_argument("--every", type=float, default=0.0, help="seconds between a table's commands")
    parser.add_argument("--warmup", type=float, default=10.0)
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--commands", type=int, default=0, help="unpaced: stop once this many are accepted")
    parser.add_argument("--body-size", type=int, default=0, help="raw: bytes of the body appended")
    parser.add_argument("--command-size", type=int, default=0, help="micro: bytes of each command sent")
    return parser.parse_args(argv)


def main() -> None:
    args = arguments()
    try:
        import uvloop
    except ImportError:
        figures = asyncio.run(generate(args))
    else:
        figures = uvloop.run(generate(args))
    print(json.dumps(figures), flush=True)


if __name__ == "__main__":
    main()
