"""Fuzzing over the wire: commands of every kind sent to the services as `tabletop up` runs
them (one nats-server from the wheel, with JetStream syncing every write and the default 1 MB
message limit, without authentication so that any subject can be tried; here every service
its own process, to see each one's memory),
across every game: valid moves, refused ones (out of turn, stale, reused ids, unknown tables)
and malformed ones (not JSON, deep nesting, huge strings, wrong types, unknown types, bad ids
in the subject or the body).

Prints the histogram of answers (reply codes, and requests nobody answered) per kind of
command, whether the log holds exactly one message per distinct accepted command, and the
resident memory of every process before and after.

    python bench/fuzz.py                      # 100,000 commands
    python bench/fuzz.py --commands 5000      # a short run
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import sys
import tempfile
import time
import uuid
from collections import Counter
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("TABLETOP_GAMES", "tests.highcard:GAME")

import nats.errors

from services.registry import games
from shared.bus.connection import Bus
from shared.logs import configure_logging
from shared.messages import subjects
from shared.settings import load_settings
from tests.cluster import Cluster
from tests.consistency import Acknowledged, check_log, read_log, settled_views
from tests.processes import Services, rss_kib

NO_ANSWER = "(no answer)"
NO_RESPONDERS = "(no responders)"


@dataclass
class FuzzTable:
    game: str
    table: str
    creator: str
    seats: int
    players: list[str] = field(default_factory=list)
    status: str = "open"
    version: int = 0
    in_flight: int = 0  # valid commands sent and not answered yet
    sent: list[tuple[str, bytes]] = field(default_factory=list)  # (player, body) accepted


@dataclass(frozen=True)
class Shot:
    kind: str
    subject: str
    body: bytes
    table: FuzzTable | None = None
    command_id: str | None = None
    player: str = ""
    command: dict[str, Any] | None = None


def body_of(command: dict[str, Any]) -> bytes:
    return json.dumps(command).encode()


def new_id() -> str:
    return uuid.uuid4().hex


class Fuzzer:
    """Chooses the next command; keeps what it believes of each table from the answers."""

    def __init__(self, bus: Bus, rng: random.Random, *, tables_per_game: int = 30) -> None:
        self.bus = bus
        self.rng = rng
        self.games = list(games())
        self.open: dict[str, list[FuzzTable]] = {g: [] for g in self.games}
        self.tables_per_game = tables_per_game
        self.players = 0
        self.kinds: list[tuple[str, float, Callable[[], Awaitable[Shot | None]]]] = [
            ("valid: create", 3, self.create),
            ("valid: join", 6, self.join),
            ("valid: start", 3, self.start),
            ("valid: move", 18, self.move),
            ("refused: out of turn", 6, self.out_of_turn),
            ("refused: stale expect", 3, self.stale_expect),
            ("refused: join twice", 2, self.join_twice),
            ("refused: start by a guest", 2, self.start_by_guest),
            ("refused: leave unseated", 2, self.leave_unseated),
            ("refused: unknown table", 3, self.unknown_table),
            ("refused: create again", 2, self.create_again),
            ("reused id: same player, same body", 2, self.reuse_same),
            ("reused id: other player, other body", 2, self.reuse_other),
            ("malformed: not JSON", 4, self.not_json),
            ("malformed: not UTF-8", 2, self.not_utf8),
            ("malformed: not an object", 2, self.not_object),
            ("malformed: deep nesting", 0.3, self.deep_nesting),
            ("malformed: huge string (100 KB)", 0.5, lambda: self.huge_string(100_000)),
            ("malformed: huge string (2 MB)", 0.05, lambda: self.huge_string(2_000_000)),
            ("malformed: wrong types", 6, self.wrong_types),
            ("malformed: unknown type", 3, self.unknown_type),
            ("malformed: unknown field", 2, self.unknown_field),
            ("malformed: bad id in body", 3, self.bad_body_id),
            ("malformed: bad id in subject", 4, self.bad_subject),
            ("malformed: unknown game", 1, self.unknown_game),
        ]

    def player(self) -> str:
        self.players += 1
        return f"p{self.players}"

    async def next(self) -> Shot:
        _, weights, makers = zip(*self.kinds)
        while True:
            make = self.rng.choices(makers, weights)[0]
            shot: Shot | None = await make()
            if shot is not None:
                return shot

    def some_table(self, status: str | None = None, *, idle: bool = False) -> FuzzTable | None:
        """An open or running table (of `status`); `idle`: none of its valid commands unanswered,
        so that a valid command is decided on the table as the fuzzer last saw it."""
        candidates = [
            t
            for g in self.games
            for t in self.open[g]
            if (status is None or t.status == status) and not (idle and t.in_flight)
        ]
        return self.rng.choice(candidates) if candidates else None

    def command_shot(
        self, kind: str, table: FuzzTable, player: str, command: dict[str, Any], command_id: str | None = None
    ) -> Shot:
        command_id = command_id or new_id()
        full = {"id": command_id, **command}
        if kind.startswith("valid"):
            table.in_flight += 1
        return Shot(
            kind,
            subjects.cmd(table.game, table.table, player),
            body_of(full),
            table,
            command_id,
            player,
            full,
        )

    def answered(self, shot: Shot, reply: Any, acknowledged: Acknowledged) -> None:
        """Learn from an accepted command."""
        if shot.kind.startswith("valid") and shot.table is not None:
            shot.table.in_flight -= 1
        if not (isinstance(reply, dict) and reply.get("ok")) or shot.table is None:
            return
        table = shot.table
        acknowledged.record(table.game, table.table, shot.command_id or "", reply["version"])
        table.version = max(table.version, reply["version"])
        if not shot.kind.startswith("valid"):
            return
        table.sent.append((shot.player, shot.body))
        kind = (shot.command or {}).get("type")
        if kind == "create":
            table.players = [shot.player]
            self.open[table.game].append(table)
        elif kind == "join":
            table.players.append(shot.player)
        elif kind == "start":
            table.status = "running"

    # --- valid ----------------------------------------------------------------------------

    async def create(self) -> Shot | None:
        game = self.rng.choice(self.games)
        if len(self.open[game]) >= self.tables_per_game:
            return None
        g = games()[game].game
        seats = self.rng.randint(g.min_players, min(g.max_players, 5))
        creator = self.player()
        table = FuzzTable(game, f"{game}-{uuid.uuid4().hex[:12]}", creator, seats)
        return self.command_shot(
            "valid: create", table, creator, {"type": "create", "options": {}, "seats": seats}
        )

    async def join(self) -> Shot | None:
        table = self.some_table("open", idle=True)
        if table is None or len(table.players) >= table.seats:
            return None
        return self.command_shot("valid: join", table, self.player(), {"type": "join"})

    async def start(self) -> Shot | None:
        table = self.some_table("open", idle=True)
        min_players = games()[table.game].game.min_players if table else 0
        if table is None or len(table.players) < max(min_players, table.seats):
            return None
        return self.command_shot("valid: start", table, table.creator, {"type": "start"})

    async def seat_to_act(
        self,
        table: FuzzTable,
    ) -> tuple[str, dict[str, Any], int, list[str]] | None:
        """A player to act, the move its game's bot picks from its view, the version, and every
        player to act."""
        spectator = await self.view(table, subjects.SPECTATOR)
        if spectator is None:
            return None
        if spectator["view"]["status"] == "ended":
            table.status = "ended"
            if table in self.open[table.game]:
                self.open[table.game].remove(table)
            return None
        to_act = spectator["view"].get("to_act") or []
        if not to_act or spectator["version"] < table.version:  # the views are behind
            return None
        player = self.rng.choice(to_act)
        seat = await self.view(table, player)
        if (
            seat is None
            or seat["version"] < spectator["version"]
            or "legal" not in seat["view"]
            or not seat["view"]["legal"]
        ):
            return None
        command = games()[table.game].game.bot(seat["view"], self.rng)
        return player, command, seat["version"], to_act

    async def view(self, table: FuzzTable, viewer: str) -> dict[str, Any] | None:
        try:
            reply = json.loads(
                await self.bus.request(subjects.view(table.game, table.table, viewer), b"{}", timeout=5)
            )
        except Exception:  # noqa: BLE001 - no view to move from: another command instead
            return None
        return reply if "view" in reply else None

    async def move(self) -> Shot | None:
        table = self.some_table("running", idle=True)
        if table is None:
            return None
        table.in_flight += 1  # while its views are read: no other valid move on it
        try:
            found = await self.seat_to_act(table)
        finally:
            table.in_flight -= 1
        if not found:
            return None
        player, command, version, _ = found
        return self.command_shot("valid: move", table, player, {**command, "expect": version})

    # --- refused --------------------------------------------------------------------------

    async def out_of_turn(self) -> Shot | None:
        table = self.some_table("running")
        found = table and await self.seat_to_act(table)
        if table is None or not found:
            return None
        _, command, _, to_act = found
        waiting = [p for p in table.players if p not in to_act]
        if not waiting:
            return None
        # a move legal for a player to act, sent by a seated player who is not to act
        return self.command_shot("refused: out of turn", table, self.rng.choice(waiting), command)

    async def stale_expect(self) -> Shot | None:
        table = self.some_table()
        if table is None or table.version < 2:
            return None
        return self.command_shot(
            "refused: stale expect",
            table,
            table.creator,
            {"type": "join", "expect": self.rng.randrange(table.version - 1)},
        )

    async def join_twice(self) -> Shot | None:
        table = self.some_table()
        if table is None:
            return None
        return self.command_shot(
            "refused: join twice", table, self.rng.choice(table.players), {"type": "join"}
        )

    async def start_by_guest(self) -> Shot | None:
        table = self.some_table("open")
        guests = [p for p in table.players if p != table.creator] if table else []
        if table is None or not guests:
            return None
        return self.command_shot(
            "refused: start by a guest", table, self.rng.choice(guests), {"type": "start"}
        )

    async def leave_unseated(self) -> Shot | None:
        table = self.some_table()
        if table is None:
            return None
        return self.command_shot("refused: leave unseated", table, self.player(), {"type": "leave"})

    async def unknown_table(self) -> Shot | None:
        game = self.rng.choice(self.games)
        table = FuzzTable(game, f"nowhere-{uuid.uuid4().hex[:12]}", "nobody", 2)
        command = self.rng.choice([{"type": "join"}, {"type": "start"}, {"type": "leave"}])
        return self.command_shot("refused: unknown table", table, self.player(), command)

    async def create_again(self) -> Shot | None:
        table = self.some_table()
        if table is None:
            return None
        return self.command_shot(
            "refused: create again", table, self.player(), {"type": "create", "options": {}}
        )

    async def reuse_same(self) -> Shot | None:
        table = self.some_table()
        if table is None or not table.sent:
            return None
        player, body = self.rng.choice(table.sent)
        command = json.loads(body)
        return Shot(
            "reused id: same player, same body",
            subjects.cmd(table.game, table.table, player),
            body,
            table,
            command["id"],
            player,
            command,
        )

    async def reuse_other(self) -> Shot | None:
        table = self.some_table()
        if table is None or not table.sent:
            return None
        _, body = self.rng.choice(table.sent)
        command_id = json.loads(body)["id"]
        return self.command_shot(
            "reused id: other player, other body",
            table,
            self.player(),
            {"type": "join"},
            command_id=command_id,
        )

    # --- malformed ------------------------------------------------------------------------

    def raw(self, kind: str, body: bytes, table: FuzzTable | None = None) -> Shot:
        table = table or self.some_table() or FuzzTable("highcard", "t-nothing", "nobody", 2)
        return Shot(kind, subjects.cmd(table.game, table.table, self.player()), body)

    async def not_json(self) -> Shot:
        body = self.rng.choice(
            [
                b"",
                b"{",
                b'{"id": "a", "type": "join"',
                b"join",
                b"null,",
                b'{"id": a}',
                bytes(self.rng.randrange(256) for _ in range(self.rng.randint(1, 200))),
            ]
        )
        return self.raw("malformed: not JSON", body)

    async def not_utf8(self) -> Shot:
        body = b'{"id": "' + new_id().encode() + b'", "type": "jo\xff\xfein"}'
        return self.raw("malformed: not UTF-8", body)

    async def not_object(self) -> Shot:
        body = self.rng.choice([b"[]", b'["join"]', b"42", b'"join"', b"null", b"true", b"1e999"])
        return self.raw("malformed: not an object", body)

    async def deep_nesting(self) -> Shot:
        depth = self.rng.choice([1_000, 5_000, 20_000])
        opener, closer = self.rng.choice([("[", "]"), ('{"a":', "}")])
        nested = opener * depth + "1" + closer * depth
        return self.raw(
            "malformed: deep nesting", f'{{"id": "{new_id()}", "type": "join", "x": {nested}}}'.encode()
        )

    async def huge_string(self, size: int) -> Shot:
        table = self.some_table() or FuzzTable("highcard", "t-nothing", "nobody", 2)
        command = {"id": new_id(), "type": "create", "options": {"name": "x" * size}}
        return self.raw(
            f"malformed: huge string ({size // 1000} KB)"
            if size < 1_000_000
            else f"malformed: huge string ({size // 1_000_000} MB)",
            body_of(command),
            table,
        )

    async def wrong_types(self) -> Shot:
        command_id = new_id()
        body: dict[str, Any] = self.rng.choice(
            [
                {"id": 42, "type": "join"},
                {"id": command_id, "type": 7},
                {"id": command_id, "type": ["join"]},
                {"id": command_id, "type": "join", "expect": "3"},
                {"id": command_id, "type": "join", "expect": -1},
                {"id": command_id, "type": "join", "expect": 1.5},
                {"id": command_id, "type": "create", "seats": "three"},
                {"id": command_id, "type": "create", "options": [1, 2]},
                {"id": command_id, "type": "create", "options": {"hand_size": "many"}},
                {"id": command_id, "type": "play_card", "card": "ace"},
                {"id": command_id, "type": None},
                {"id": [command_id], "type": "join"},
            ]
        )
        return self.raw("malformed: wrong types", body_of(body))

    async def unknown_type(self) -> Shot:
        kind = self.rng.choice(["fly", "", "JOIN", "join ", "delete_table", "x" * 300])
        return self.raw("malformed: unknown type", body_of({"id": new_id(), "type": kind}))

    async def unknown_field(self) -> Shot:
        return self.raw("malformed: unknown field", body_of({"id": new_id(), "type": "join", "admin": True}))

    async def bad_body_id(self) -> Shot:
        bad: object = self.rng.choice(["", "has space", "x" * 65, "é", "a.b", "a*b", 0, None, {}])
        return self.raw("malformed: bad id in body", body_of({"id": bad, "type": "join"}))

    async def bad_subject(self) -> Shot:
        table = self.some_table() or FuzzTable("highcard", "t-nothing", "nobody", 2)
        bad = self.rng.choice(["t!x", "x" * 65, "été", "a:b", "a@b", "%41", "a/b"])
        game, name = table.game, table.table
        subject = self.rng.choice(
            [
                f"{subjects.PREFIX}.cmd.{game}.{bad}.p1",
                f"{subjects.PREFIX}.cmd.{game}.{name}.{bad}",
                f"{subjects.PREFIX}.cmd.{game}.{name}",
                f"{subjects.PREFIX}.cmd.{game}.{name}.p1.extra",
            ]
        )
        return Shot("malformed: bad id in subject", subject, body_of({"id": new_id(), "type": "join"}))

    async def unknown_game(self) -> Shot:
        return Shot(
            "malformed: unknown game",
            subjects.cmd("chess", "t1", "p1"),
            body_of({"id": new_id(), "type": "join"}),
        )


async def send(bus: Bus, shot: Shot, timeout: float) -> tuple[str, Any]:
    """The reply's code (`ok` or the error code) and the decoded reply, or why none came."""
    try:
        msg = await bus.nc.request(shot.subject, shot.body, timeout=timeout)
    except nats.errors.NoRespondersError:
        return NO_RESPONDERS, None
    except nats.errors.TimeoutError:
        return NO_ANSWER, None
    except nats.errors.MaxPayloadError:
        return "(refused by the client: over max_payload)", None
    try:
        reply = json.loads(msg.data)
    except ValueError:
        return f"(undecodable reply, headers {dict(msg.headers or {})})", None
    if isinstance(reply, dict) and reply.get("ok"):
        return "ok", reply
    if isinstance(reply, dict) and isinstance(reply.get("error"), dict):
        return str(reply["error"].get("code")), reply
    return "(reply of no known shape)", reply


def memory(processes: dict[str, int]) -> dict[str, int | None]:
    return {name: rss_kib(pid) for name, pid in processes.items()}


async def fuzz(args: argparse.Namespace, root: Path) -> None:
    server = Cluster(root / "nats", size=1)
    await asyncio.to_thread(server.start)
    services = Services({**server.env(), "TABLETOP_GAMES": os.environ["TABLETOP_GAMES"]}, root / "logs")
    bus = None
    try:
        bus = await Bus.connect(server.urls, load_settings(replicas=1), name="fuzz-client", wait=10)
        await bus.ensure_streams()
        for game in games():
            services.start("worker", game)
        services.start("table-projector")
        services.start("history-projector")
        await services.wait_serving(bus)
        processes = {
            "nats-server": server.nodes["n1"].process.pid,  # type: ignore[union-attr]
            **{s.label: s.pid for s in services.running.values()},
            "fuzz (this client)": os.getpid(),
        }
        before = memory(processes)

        fuzzer = Fuzzer(bus, random.Random(args.seed))
        acknowledged = Acknowledged()
        histogram: Counter[tuple[str, str]] = Counter()
        remaining = [args.commands]
        started = time.monotonic()

        async def sender() -> None:
            while remaining[0] > 0:
                remaining[0] -= 1
                shot = await fuzzer.next()
                code, reply = await send(bus, shot, args.timeout)
                histogram[(shot.kind, code)] += 1
                fuzzer.answered(shot, reply, acknowledged)
                done = histogram.total()
                if done % 10_000 == 0:
                    print(f"  {done} answered or given up, {time.monotonic() - started:.0f} s", flush=True)

        await asyncio.gather(*(sender() for _ in range(args.concurrency)))
        elapsed = time.monotonic() - started
        after_load = memory(processes)

        log = await read_log(bus)
        figures = check_log(log, acknowledged)
        views = await settled_views(bus, log, timeout=args.settle)
        after_settle = memory(processes)
        dead = [s.label for s in services.running.values() if s.process.poll() is not None]
        print_report(
            args, elapsed, histogram, figures, views, processes, before, after_load, after_settle, dead
        )
    finally:
        if bus is not None:
            await bus.close()
        await asyncio.to_thread(services.stop_all)
        await asyncio.to_thread(server.stop)


def print_report(
    args, elapsed, histogram, figures, views, processes, before, after_load, after_settle, dead
) -> None:
    total = sum(histogram.values())
    print(
        f"\n{total} commands in {elapsed:.0f} s ({total / elapsed:.0f}/s), "
        f"{args.concurrency} at a time, {args.timeout:g} s to answer"
    )
    codes: Counter[str] = Counter()
    for (_, code), n in histogram.items():
        codes[code] += n
    print("\nanswers, all kinds:")
    for code, n in codes.most_common():
        print(f"  {n:>7}  {code}")
    print("\nanswers by kind of command:")
    kinds = sorted({kind for kind, _ in histogram})
    for kind in kinds:
        row = sorted(((n, code) for (k, code), n in histogram.items() if k == kind), reverse=True)
        print(f"  {kind:<38} " + ", ".join(f"{code} {n}" for n, code in row))
    print(
        f"\nlog: {figures.messages} messages for {figures.acknowledged} distinct accepted "
        f"commands ({'equal' if figures.messages == figures.acknowledged else 'NOT equal'}); "
        f"lost {figures.lost}, misplaced {figures.misplaced}, doubled {figures.doubled}, "
        f"forked {figures.forked}"
    )
    print(
        f"views: {len(views.different)} of {views.keys} keys different from a fold of the log, "
        f"on {len(views.tables)} tables"
    )
    for difference in views.different[:5]:
        print(f"  {difference.key}: {difference.why}")
    print("\nresident memory (MiB): before / after the load / after the views settled")
    for name in processes:
        cells = [before[name], after_load[name], after_settle[name]]
        shown = " / ".join("gone" if c is None else f"{c / 1024:.1f}" for c in cells)
        print(f"  {name:<28} {shown}")
    if dead:
        print(f"\nprocesses that died: {', '.join(dead)}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--commands", type=int, default=100_000)
    parser.add_argument("--concurrency", type=int, default=32, help="requests in flight")
    parser.add_argument("--timeout", type=float, default=5.0, help="seconds to wait for an answer")
    parser.add_argument(
        "--settle", type=float, default=60.0, help="seconds the views get to equal a fold of the log"
    )
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--keep", help="keep the server's store and the service logs here")
    args = parser.parse_args()
    configure_logging(fmt="console", level="error")
    print(f"fuzz: {' '.join(sys.argv[1:]) or '(defaults)'}; games: {', '.join(games())}", flush=True)
    if args.keep:
        asyncio.run(fuzz(args, Path(args.keep)))
    else:
        with tempfile.TemporaryDirectory(prefix="tabletop-fuzz-") as tmp:
            asyncio.run(fuzz(args, Path(tmp)))


if __name__ == "__main__":
    main()
