"""Faults measured: a bot load on a local 3-node NATS cluster (R3 stream and views bucket),
with each service a separate process, and faults injected one after another mid-load:

    1. the node leading the event stream killed (SIGKILL), then restarted on its store
    2. a game worker killed (SIGKILL), a new one started
    3. the table projector killed (SIGKILL), a new one started
    4. the history projector killed (SIGKILL), a new one started

After each fault the load is let run on, then stopped; once the views have settled (or a
deadline passed) the log and the views are checked and one row is printed: commands
acknowledged, lost, doubled, forked, and view keys different from a fold of the log.

    python bench/chaos.py                      # highcard tables, 2 workers per game
    python bench/chaos.py --games highcard,dozito --lanes 24
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("TABLETOP_GAMES", "tests.highcard:GAME")

from shared.logs import configure_logging
from tests.consistency import LogFigures, ViewFigures, check_log, read_log, settled_views
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
    parser.add_argument("--keep", help="keep the cluster's stores and the service logs here")
    args = parser.parse_args()
    configure_logging(fmt="console", level="error")
    print(
        f"chaos: {' '.join(sys.argv[1:]) or '(defaults)'}; {WORKERS_PER_GAME} workers per game, "
        f"{args.lanes} tables at once",
        flush=True,
    )
    if args.keep:
        rows = asyncio.run(chaos(args, Path(args.keep)))
    else:
        with tempfile.TemporaryDirectory(prefix="tabletop-chaos-") as tmp:
            rows = asyncio.run(chaos(args, Path(tmp)))
    print_summary(rows)


if __name__ == "__main__":
    main()
