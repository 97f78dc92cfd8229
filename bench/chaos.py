"""Faults measured: a bot load on a local 3-node NATS cluster (R3 stream and views bucket),
with each service a separate process, and faults injected one after another mid-load:

    1. the node leading the event stream killed (SIGKILL), then restarted on its store
    2. a game worker killed (SIGKILL), a new one started
    3. the table projector killed (SIGKILL), a new one started
    4. the history projector killed (SIGKILL), a new one started

After each fault the load is let run on, then stopped; once the views have settled (or a
deadline passed) the log and the views are checked and one row is printed: commands
acknowledged, lost, doubled, forked, and view keys different from a fold of the log.

With `--up`, the same load runs against one node as `tabletop up` runs it (the embedded
nats-server and every service a supervised process), and the faults are the nats-server
killed (SIGKILL) and each service frozen (SIGSTOP), `--repeat` times; `tabletop up` itself
brings each back. A row adds the longest time without an acknowledged command and every
answer to a command attempt from the fault until the process is back, by code.

    python bench/chaos.py                      # highcard tables, 2 workers per game
    python bench/chaos.py --games highcard,dozito --lanes 24
    python bench/chaos.py --up --repeat 10
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import itertools
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("TABLETOP_GAMES", "tests.highcard:GAME")

from services.supervisor import SERVICE_NAME as SUPERVISOR
from services.table_projector.maintenance import service_stats
from shared.bus.connection import Bus
from shared.bus.credentials import ServerSecrets
from shared.logs import configure_logging
from shared.messages import subjects
from shared.messages.envelopes import STORAGE_FULL
from shared.settings import load_settings
from tests.botload import BotLoad
from tests.consistency import (
    Acknowledged,
    Answers,
    LogFigures,
    RecordingClient,
    ViewFigures,
    check_log,
    read_log,
    settled_views,
)
from tests.processes import Up
from tests.rig import WORKERS_PER_GAME, Rig, cluster_rig


@dataclass
class Row:
    fault: str
    what_happened: str
    log: LogFigures
    views: ViewFigures
    settle_s: float
    tables_ended: int
    failures: dict[str, int]


class Faults:
    def __init__(self, rig: Rig, games: list[str]) -> None:
        self.rig = rig
        self.games = games

    async def kill_stream_leader(self) -> str:
        return str(await asyncio.to_thread(self.rig.cluster.fail_over))

    async def replace(self, *args: str) -> str:
        """SIGKILL the oldest process of `tabletop <args>` and start a new one."""
        services = self.rig.services
        victim = services.of(*args)[0]
        killed_at = time.monotonic()
        services.kill(victim.label)
        services.start(*args)
        await services.wait_serving(self.rig.bus)
        return (
            f"{victim.label} (pid {victim.pid}) SIGKILL; a new one serves after "
            f"{time.monotonic() - killed_at:.1f} s"
        )

    def all(self) -> list[tuple[str, Callable[[], Awaitable[str]]]]:
        return [
            ("none (baseline)", lambda: asyncio.sleep(0, "no fault")),
            ("stream leader node killed, restarted", self.kill_stream_leader),
            ("worker killed, new one started", lambda: self.replace("worker", self.games[0])),
            ("table projector killed, new one started", lambda: self.replace("table-projector")),
            ("history projector killed, new one started", lambda: self.replace("history-projector")),
        ]


def print_row(row: Row) -> None:
    log, views = row.log, row.views
    print(f"\n== {row.fault}\n   {row.what_happened}")
    print(
        f"   acknowledged {log.acknowledged}  lost {log.lost}  misplaced {log.misplaced}  "
        f"doubled {log.doubled}  forked {log.forked}  (log: {log.messages} messages)"
    )
    print(
        f"   views different from a fold: {len(views.different)} of {views.keys} keys, on "
        f"{len(views.tables)} tables (after {row.settle_s:.1f} s of settling)"
    )
    for difference in views.different[:8]:
        print(f"     {difference.key}: {difference.why}")
    if len(views.different) > 8:
        print(f"     ... and {len(views.different) - 8} more")
    failures = ", ".join(f"{why}: {n}" for why, n in sorted(row.failures.items())) or "none"
    print(f"   tables played to the end {row.tables_ended}; given up: {failures}", flush=True)


def print_summary(rows: list[Row]) -> None:
    print(
        "\nfault                                      acked   lost  misplaced  doubled  forked"
        "  views≠fold keys/tables  settled in  tables given up"
    )
    for row in rows:
        log = row.log
        views = f"{len(row.views.different)}/{len(row.views.tables)}"
        print(
            f"{row.fault:<42} {log.acknowledged:>6} {log.lost:>6} {log.misplaced:>10} "
            f"{log.doubled:>8} {log.forked:>7}  {views:>22}  {row.settle_s:>8.1f} s"
            f"  {sum(row.failures.values()):>15}"
        )


async def chaos(args: argparse.Namespace, root: Path) -> list[Row]:
    games = args.games.split(",")
    async with cluster_rig(root, games, lanes=args.lanes, seed=args.seed) as rig:
        print(f"cluster {rig.cluster.urls}; services: {', '.join(rig.services.running)}", flush=True)
        acknowledged, load = rig.acknowledged, rig.load
        rows: list[Row] = []
        failures_before: dict[str, int] = {}
        for fault, inject in Faults(rig, games).all():
            load.start()
            await acknowledged.wait_for(acknowledged.count + args.before, timeout=120)
            what = await inject()
            await acknowledged.wait_for(acknowledged.count + args.after, timeout=180)
            await load.stop()
            log = await read_log(rig.bus)
            settling = time.monotonic()
            views = await settled_views(rig.bus, log, timeout=args.settle)
            failures = {
                why: n - failures_before.get(why, 0)
                for why, n in load.failures.items()
                if n > failures_before.get(why, 0)
            }
            failures_before = dict(load.failures)
            rows.append(
                Row(
                    fault,
                    what,
                    check_log(log, acknowledged),
                    views,
                    time.monotonic() - settling,
                    load.tables_ended,
                    failures,
                )
            )
            print_row(rows[-1])
        return rows


# --- one node under `tabletop up` ------------------------------------------------------------------


class TimedAnswers(Answers):
    """Every answer to every command attempt, with when it came and how long it took: `ok`, a
    code, or `timeout`."""

    def __init__(self) -> None:
        super().__init__()
        self.timeline: list[tuple[float, str, float]] = []  # (when, code, seconds it took)
        self._new = asyncio.Event()

    def record(self, subject: str, body: bytes, reply: dict[str, Any] | None, started: float) -> None:
        super().record(subject, body, reply, started)
        if subjects.parse_cmd(subject) is None:  # a view or a replay
            return
        code = "timeout" if reply is None else "ok" if reply.get("ok") else reply["error"]["code"]
        now = time.monotonic()
        self.timeline.append((now, code, now - started))
        self._new.set()

    def between(self, start: float, end: float) -> Counter[str]:
        return Counter(code for at, code, _ in self.timeline if start <= at <= end)

    def slowest(self, start: float, end: float) -> float:
        """The longest an answer given in [start, end] took (a timeout counts its wait)."""
        return max((took for at, _, took in self.timeline if start <= at <= end), default=0.0)

    def longest_gap(self, start: float, end: float) -> float:
        """The longest time in [start, end] without an `ok`."""
        oks = [start] + [at for at, code, _ in self.timeline if code == "ok" and start <= at <= end] + [end]
        return max(b - a for a, b in itertools.pairwise(oks))

    async def first(self, code: str, sent_after: float, timeout: float) -> float:
        """When the first answer `code` to an attempt sent after `sent_after` came."""
        deadline = time.monotonic() + timeout
        while True:
            for at, seen, took in self.timeline:
                if seen == code and at - took >= sent_after:
                    return at
            self._new.clear()
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise TimeoutError(f"no `{code}` answer in {timeout:.0f} s")
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._new.wait(), remaining)


@dataclass
class UpRow:
    fault: str
    back_after_s: float
    log: LogFigures
    views: ViewFigures
    settle_s: float
    longest_gap_s: float
    during: Counter[str]
    slowest_during_s: float
    verify_exit: int  # `tabletop verify` once the views settled


async def supervised(bus: Bus) -> dict[str, dict[str, Any]]:
    """The processes `tabletop up` supervises, as it reports them."""
    for replica in (await service_stats(bus)).get(SUPERVISOR, []):
        return dict(replica["endpoints"][0]["data"]["processes"])
    return {}


async def fault_and_back(bus: Bus, name: str, sig: signal.Signals) -> float:
    """Send `sig` to process `name` of `tabletop up`; seconds until `up` runs it again."""
    before = (await supervised(bus))[name]
    os.kill(before["pid"], sig)
    hit = time.monotonic()
    while True:
        now = (await supervised(bus)).get(name, {})
        if now.get("restarts", 0) > before["restarts"] and now.get("pid"):
            return time.monotonic() - hit
        if time.monotonic() - hit > 120:
            raise TimeoutError(f"{name} was not started again")
        await asyncio.sleep(0.1)


@dataclass
class UpLoad:
    """A bot load through the protocol against a running `tabletop up`, every answer timed."""

    up: Up
    bus: Bus
    acknowledged: Acknowledged
    answers: TimedAnswers
    load: BotLoad

    async def round(
        self, args: argparse.Namespace, name: str, fault: Callable[[], Awaitable[tuple[float, float]]]
    ) -> UpRow:
        """Load, `fault` in its middle (it returns when it struck and how long until the
        service was whole again), more load, then the log and the views judged."""
        self.load.start()
        started = time.monotonic()
        await self.acknowledged.wait_for(self.acknowledged.count + args.before, timeout=180)
        hit, back_after = await fault()
        during = self.answers.between(hit, hit + back_after)
        slowest = self.answers.slowest(hit, hit + back_after)
        await self.acknowledged.wait_for(self.acknowledged.count + args.after, timeout=180)
        await self.load.stop()
        ended = time.monotonic()
        log = await read_log(self.bus)
        settling = time.monotonic()
        views = await settled_views(self.bus, log, timeout=args.settle)
        verified = await asyncio.to_thread(self.up.run, "verify", check=False)
        row = UpRow(
            name,
            back_after,
            check_log(log, self.acknowledged),
            views,
            time.monotonic() - settling,
            self.answers.longest_gap(started, ended),
            during,
            slowest,
            verified.returncode,
        )
        print_up_row(row)
        return row


@contextlib.asynccontextmanager
async def up_load(args: argparse.Namespace, data: Path) -> AsyncIterator[tuple[Bus, UpLoad]]:
    up = await asyncio.to_thread(Up(data).start)
    admin = ServerSecrets(up.data / "credentials").credentials("admin")
    bus = await Bus.connect(up.url, load_settings(), name="chaos-client", wait=30, credentials=admin)
    try:
        acknowledged, answers = Acknowledged(), TimedAnswers()
        client = RecordingClient(bus, acknowledged, answers, timeout=args.timeout, attempts=30)
        load = BotLoad(client, args.games.split(","), lanes=args.lanes, seed=args.seed)
        yield bus, UpLoad(up, bus, acknowledged, answers, load)
    finally:
        await bus.close()
        await asyncio.to_thread(up.stop)


async def chaos_up(args: argparse.Namespace, root: Path) -> list[UpRow]:
    games = args.games.split(",")
    async with up_load(args, root / "up") as (bus, rig):
        names = await supervised(bus)
        faults: list[tuple[str, str, signal.Signals]] = [
            ("nats-server SIGKILL", "nats-server", signal.SIGKILL)
        ]
        for name in names:
            playing = not name.startswith("worker-") or name.removeprefix("worker-") in games
            if name != "nats-server" and playing:
                faults.append((f"{name} SIGSTOP", name, signal.SIGSTOP))
        print(f"tabletop up; processes: {', '.join(names)}", flush=True)
        rows: list[UpRow] = []
        for repetition in range(1, args.repeat + 1):
            for fault, name, sig in faults:

                async def strike(name: str = name, sig: signal.Signals = sig) -> tuple[float, float]:
                    hit = time.monotonic()
                    return hit, await fault_and_back(bus, name, sig)

                rows.append(await rig.round(args, f"{fault} #{repetition}", strike))
        print_refused(rig.answers)
        return rows


# Room left on the filesystem when it is filled: under `tabletop up`'s reserve (64 MiB on a
# small one), so the store's limits fall to what it holds and every write is refused.
LEFT_FREE = 16 * 1024 * 1024


def fill(path: Path, leave: int) -> None:
    """Write `path` until `leave` bytes are free on its filesystem."""
    chunk = b"\0" * (4 * 1024 * 1024)
    with open(path, "wb") as filler:
        while (free := shutil.disk_usage(path.parent).free) > leave:
            filler.write(chunk[: min(len(chunk), free - leave)])
            filler.flush()


async def chaos_disk(args: argparse.Namespace, root: Path) -> list[UpRow]:
    """`--disk` episodes on a `tabletop up` whose data folder is a filesystem of its own (a
    tmpfs of `--disk-mib`): filled from outside until commands are refused, held full for
    `--full-for` seconds, emptied. `back after` and `during` run from the moment the disk is
    full until the first command applied after it was emptied."""
    data = root / "disk"
    data.mkdir(parents=True, exist_ok=True)
    subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={args.disk_mib}m", "tmpfs", str(data)], check=True)
    try:
        async with up_load(args, data / "up") as (_bus, rig):
            rows: list[UpRow] = []
            filler = data / "filler"
            for repetition in range(1, args.disk + 1):

                async def full_then_freed() -> tuple[float, float]:
                    filling = time.monotonic()
                    await asyncio.to_thread(fill, filler, LEFT_FREE)
                    hit = time.monotonic()
                    refused = await rig.answers.first(STORAGE_FULL, sent_after=hit, timeout=60)
                    print(
                        f"  filled in {hit - filling:.1f} s; the first command refused {refused - hit:.1f} s "
                        "after",
                        flush=True,
                    )
                    await asyncio.sleep(args.full_for)  # the fault itself: a full disk this long
                    filler.unlink()
                    freed = time.monotonic()
                    applied = await rig.answers.first("ok", sent_after=freed, timeout=120)
                    print(f"  emptied: the first command applied {applied - freed:.1f} s after", flush=True)
                    return hit, applied - hit

                rows.append(await rig.round(args, f"disk filled #{repetition}", full_then_freed))
            print_refused(rig.answers)
            return rows
    finally:
        subprocess.run(["umount", "--lazy", str(data)], check=False)


def print_refused(answers: Answers) -> None:
    refused = ", ".join(f"{what} {n}" for what, n in answers.requests_refused.most_common()) or "none"
    print(f"views and replays not answered with what was asked, over the run: {refused}", flush=True)


def print_up_row(row: UpRow) -> None:
    log = row.log
    codes = ", ".join(f"{code} {n}" for code, n in row.during.most_common()) or "none"
    print(
        f"{row.fault:<32} back {row.back_after_s:5.1f} s  acked {log.acknowledged:>6}  lost {log.lost}  "
        f"doubled {log.doubled}  forked {log.forked}  views≠fold {len(row.views.different)} "
        f"(settled {row.settle_s:.1f} s)  longest gap {row.longest_gap_s:.1f} s  during: {codes} "
        f"(slowest answer {row.slowest_during_s:.2f} s)  verify exit {row.verify_exit}",
        flush=True,
    )


def print_up_summary(rows: list[UpRow]) -> None:
    """One line per kind of fault over its repetitions."""
    kinds: dict[str, list[UpRow]] = {}
    for row in rows:
        kinds.setdefault(row.fault.rsplit(" #", 1)[0], []).append(row)
    print(
        "\nfault | runs | back after (max) | lost | doubled | forked | views≠fold (max) | settled in (max) | "
        "longest gap (max) | answers during the fault | slowest answer during it (max) | verify exit"
    )
    for kind, runs in kinds.items():
        during: Counter[str] = Counter()
        for run in runs:
            during.update(run.during)
        codes = ", ".join(f"`{code}` {n}" for code, n in during.most_common()) or "none"
        print(
            f"{kind} | {len(runs)} | {max(r.back_after_s for r in runs):.1f} s | "
            f"{max(r.log.lost for r in runs)} | {max(r.log.doubled for r in runs)} | "
            f"{max(r.log.forked for r in runs)} | {max(len(r.views.different) for r in runs)} | "
            f"{max(r.settle_s for r in runs):.1f} s | "
            f"{max(r.longest_gap_s for r in runs):.1f} s | {codes} | "
            f"{max(r.slowest_during_s for r in runs):.2f} s | "
            f"{', '.join(sorted({str(r.verify_exit) for r in runs}))}"
        )
    if rows:
        last = rows[-1].log
        print(f"acknowledged in all: {last.acknowledged} commands; log: {last.messages} messages")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", default="highcard", help="comma separated (default highcard)")
    parser.add_argument("--lanes", type=int, default=16, help="tables played at once")
    parser.add_argument(
        "--before", type=int, default=300, help="commands acknowledged in each round before its fault"
    )
    parser.add_argument(
        "--after", type=int, default=300, help="commands acknowledged after the fault before the load stops"
    )
    parser.add_argument(
        "--settle", type=float, default=60.0, help="seconds the views get to equal a fold of the log"
    )
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--up", action="store_true", help="one node under `tabletop up` (see above)")
    parser.add_argument("--repeat", type=int, default=1, help="with --up: rounds of every fault")
    parser.add_argument(
        "--disk", type=int, default=0, help="disk-full episodes under `tabletop up` (needs root: a tmpfs)"
    )
    parser.add_argument("--disk-mib", type=int, default=512, help="size of the episodes' filesystem")
    parser.add_argument("--full-for", type=float, default=10.0, help="seconds the disk stays full")
    parser.add_argument(
        "--timeout",
        type=float,
        default=5.0,
        help="seconds the client waits for an answer before it asks again",
    )
    parser.add_argument("--keep", help="keep the cluster's stores and the service logs here")
    args = parser.parse_args()
    configure_logging(fmt="console", level="error")
    print(
        f"chaos: {' '.join(sys.argv[1:]) or '(defaults)'}; {WORKERS_PER_GAME} workers per game, "
        f"{args.lanes} tables at once",
        flush=True,
    )
    with contextlib.ExitStack() as stack:
        root = Path(args.keep) if args.keep else Path(stack.enter_context(tempfile.TemporaryDirectory()))
        if args.up or args.disk:
            rows = asyncio.run(chaos_up(args, root)) if args.up else []
            if args.disk:
                print_up_summary(rows)
                rows += asyncio.run(chaos_disk(args, root))
            print_up_summary(rows)
        else:
            print_summary(asyncio.run(chaos(args, root)))


if __name__ == "__main__":
    main()
