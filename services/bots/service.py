"""The bot service (`tabletop bots`): plays every seat a bot holds, the ones seated by the
`bots` option and the zombies (players who quit or ran out of time), as a client would.

It follows the spectators' pushes of every table in one queue group (`tabletop-bots`), so any
number of replicas share the tables and each push reaches one of them. When a push shows a bot
seat among those to act, the replica reads that seat's own view (never more than the seat may
see), lets the game's bot choose from its `legal` commands, and sends `play_for` for that seat
as the `bots` player, expecting the version it looked at: if the table moved on meanwhile, the
command is refused `stale_version` and the next push brings the table as it is. Pushes lost
while no replica ran are made up for by a sweep of the lobby's running tables at start and
every `SWEEP` seconds.
"""

from __future__ import annotations

import asyncio
import contextlib
import random
import secrets
from typing import Any

import msgspec
import structlog

from services import VERSION
from services.client import Client, RequestFailed
from services.registry import games
from shared.background import Background
from shared.bus.connection import Bus, Incoming
from shared.bus.errors import Unavailable
from shared.games.bot_levels import ZOMBIE_LEVEL, Level, bot_move
from shared.games.table import BOTS_PLAYER, TableDecider
from shared.games.table_state import table_options_of
from shared.messages import subjects
from shared.settings import load_settings

log = structlog.get_logger("tabletop.bots")
SERVICE_NAME = "tabletop-bots"
QUEUE = "tabletop-bots"
SWEEP = 10.0  # seconds between two sweeps of the running tables


def bot_seats_to_act(view: dict[str, Any]) -> list[str]:
    """The seats a bot plays among those that must act, in a table's spectator view."""
    if view.get("status") != "running":
        return []
    played = set(view.get("bots", ())) | set(view.get("zombies", ()))
    return [seat for seat in view.get("to_act", ()) if seat in played]


def seat_level(view: dict[str, Any], seat: str) -> Level:
    """How well a seat's bot plays: the table's `bot_level` for the seats bots took, `normal`
    for a seat its player left (a zombie)."""
    if seat in view.get("zombies", ()):
        return ZOMBIE_LEVEL
    return table_options_of(view.get("options") or {}).bot_level


class Bots:
    def __init__(
        self, bus: Bus, deciders: dict[str, TableDecider], rng: random.Random, budget_s: float = 0.2
    ) -> None:
        self.client = Client(bus)
        self.deciders = deciders
        self.rng = rng
        self.budget_s = budget_s
        self.moving: set[tuple[str, str]] = set()  # (game, table) where a move is under way
        # the newest push seen there meanwhile: (version, spectator view)
        self.newer: dict[tuple[str, str], tuple[int, dict[str, Any]]] = {}
        self.counts: dict[str, int] = {}

    def _count(self, what: str) -> None:
        self.counts[what] = self.counts.get(what, 0) + 1

    async def on_push(self, message: Incoming) -> None:
        tokens = subjects.parse(message.subject, "update")
        if tokens is None or len(tokens) != 3 or tokens[0] not in self.deciders:
            return
        try:
            push = msgspec.json.decode(message.data)
            version, view = push["version"], push["view"]
        except (msgspec.DecodeError, KeyError, TypeError):
            log.error("push_unreadable", subject=message.subject)
            return
        await self.act(tokens[0], tokens[1], version, view)

    async def act(self, game: str, table: str, version: int, view: dict[str, Any]) -> None:
        """Play one move for a bot seat that must act at `version`, one move at a time per
        table. A push that comes while a move there is under way (often the push of that very
        move, ahead of its reply) is kept, the newest only, and acted on once the move is
        done: dropping it would leave the next bot seat waiting for the sweep."""
        key = (game, table)
        if key in self.moving:
            newest = self.newer.get(key)
            if newest is None or version > newest[0]:
                self.newer[key] = (version, view)
            return
        self.moving.add(key)
        try:
            while True:
                seats = bot_seats_to_act(view)
                if seats:
                    try:
                        await self._move(game, table, version, seats)
                    except (Unavailable, RequestFailed, TimeoutError) as err:
                        self._count("failed")
                        log.warning("bot_move_failed", game=game, table=table, error=str(err))
                newest = self.newer.pop(key, None)
                if newest is None or newest[0] <= version:
                    return
                version, view = newest
        finally:
            self.moving.discard(key)

    async def _move(self, game: str, table: str, version: int, seats: list[str]) -> None:
        for seat in seats:
            own = await self.client.wait_view(game, table, seat, version, bot_seat=True)
            if own["version"] != version or "legal" not in own["view"]:
                return  # the table moved on: its newer push follows
            # a search takes its budget of CPU: off the loop, which must keep answering NATS
            rules, level = self.deciders[game].game, seat_level(own["view"], seat)
            rng = random.Random(self.rng.getrandbits(64))
            command = await asyncio.to_thread(bot_move, rules, own["view"], rng, level, self.budget_s)
            reply = await self.client.command(
                game,
                table,
                BOTS_PLAYER,
                {"type": "play_for", "seat": seat, "command": command, "expect": version},
            )
            if reply.get("ok"):
                self._count("moves")
                self._count(f"moves_{level}")
                return
            code = reply["error"]["code"]
            self._count(code)
            if code == "stale_version":
                return
            log.warning(
                "bot_move_refused",
                game=game,
                table=table,
                seat=seat,
                code=code,
                message=reply["error"]["message"],
            )

    async def sweep(self) -> None:
        """Act at every running table whose bot seats must act (pushes missed while no
        replica ran)."""
        for game in self.deciders:
            after = None
            while True:
                page = await self.client.lobby(game, status="running", after=after)
                for entry in page["tables"]:
                    table = entry["table"]
                    if not (set(entry.get("bots", ())) | set(entry.get("zombies", ()))):
                        continue
                    reply = await self.client.view(game, table)
                    await self.act(game, table, reply["version"], reply["view"])
                after = page.get("next")
                if after is None:
                    break


async def serve_bots(bus: Bus, stop: asyncio.Event) -> None:
    """Play the bot and zombie seats of every game's tables until `stop` is set."""
    bots = Bots(bus, games(), random.Random(secrets.randbits(64)), load_settings().bot_budget_ms / 1000)
    moving = Background()

    async def on_push(message: Incoming) -> None:
        moving.start(bots.on_push(message))

    service = await bus.add_service(
        name=SERVICE_NAME,
        version=VERSION,
        description="tabletop bots: plays the bot and zombie seats",
        endpoints=[("pushes", subjects.update("*", "*", subjects.SPECTATOR), QUEUE, on_push)],
        stats=lambda: {**bots.counts, "moving": len(moving)},
    )
    log.info("bots_started")
    while not stop.is_set():
        try:
            await bots.sweep()
        except (Unavailable, RequestFailed, TimeoutError) as err:
            log.warning("bots_sweep_failed", error=str(err))
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(stop.wait(), SWEEP)
    await service.stop()
    await moving.finish(timeout=10)
    log.info("bots_stopped", **bots.counts)
