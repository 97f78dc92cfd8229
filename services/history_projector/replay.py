"""The replay service: a table's history for one viewer, step by step.

Every step is one accepted command: its events passed through the game's `redact` for that
viewer, what they say in words (the game's `describe`), and the view that viewer had after it.
Histories are read from the log itself, so they are always exact; the folded steps of recently
asked tables are kept in memory.
"""

from __future__ import annotations

import asyncio
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any

import structlog

from services.registry import games
from shared.bus.connection import Bus, Incoming
from shared.bus.errors import Unavailable
from shared.games.table import Table, TableDecider
from shared.messages import subjects
from shared.messages.envelopes import (
    BadRequest,
    ReplayRequest,
    ReplayStep,
    decode_request,
    encoder,
    error_body,
    seen_events,
)
from shared.messages.folding import Folded, admit, empty

log = structlog.get_logger("tabletop.history_projector")


@dataclass(frozen=True, slots=True)
class Step:
    version: int
    player: str
    at: str
    events: list[Any]
    state: Table  # after the step


def replay_steps(decider: TableDecider, steps: list[Step], viewer: str | None,
                 first: int = 1, last: int | None = None) -> list[ReplayStep]:
    """The steps `first`..`last` as `viewer` (a player, or None for a spectator) may see them."""
    shown = []
    for step in steps:
        if step.version < first or (last is not None and step.version > last):
            continue
        events, said = seen_events(decider, step.events, viewer)
        shown.append(ReplayStep(
            version=step.version, player=step.player, at=step.at, events=events, log=said,
            view=decider.player_view(step.state, viewer),
        ))
    return shown


class HistoryProjector:
    def __init__(self, bus: Bus, *, cache_size: int = 64) -> None:
        self.bus = bus
        self.games = games()
        self.cache: OrderedDict[tuple[str, str], tuple[Folded, list[Step]]] = OrderedDict()
        self.cache_size = cache_size

    async def history(self, decider: TableDecider, game: str, table: str) -> list[Step]:
        """Every step of the table, reading from the log only what came since the last ask."""
        cached = self.cache.get((game, table))
        folded, steps = cached if cached else (empty(decider), [])
        steps = list(steps)
        for message in await self.bus.events.read(game, table, after=folded.last_seq):
            admitted = admit(decider, folded, game, table, message.seq, message.data,
                             message.writer)
            folded, batch = admitted.folded, admitted.batch
            if batch is not None:
                steps.append(Step(batch.version, batch.player, batch.at, batch.events, folded.state))
        self.cache[(game, table)] = (folded, steps)
        self.cache.move_to_end((game, table))
        while len(self.cache) > self.cache_size:
            self.cache.popitem(last=False)
        return steps

    async def on_replay(self, message: Incoming) -> None:
        tokens = subjects.parse(message.subject, "replay")
        if tokens is None or len(tokens) != 3:
            await message.respond(error_body(
                "bad_request", "Ask tabletop.replay.<game>.<table>.<viewer>."))
            return
        game, table, viewer = tokens
        decider = self.games.get(game)
        if decider is None:
            await message.respond(error_body("unknown_game", f"No game is called {game}."))
            return
        try:
            request = decode_request(message.data, ReplayRequest)
        except BadRequest as err:
            await message.respond(error_body("bad_request", str(err)))
            return
        try:
            steps = await self.history(decider, game, table)
        except Unavailable as err:
            await message.respond(error_body("unavailable", f"The log is unavailable: {err}."))
            return
        except Exception:
            log.exception("replay_failed", game=game, table=table, viewer=viewer)
            await message.respond(error_body("internal_error", "The replay failed on the server."))
            return
        if not steps:
            await message.respond(error_body("unknown_table", f"There is no {game} table {table}."))
            return
        seat = None if viewer == subjects.SPECTATOR else viewer
        try:
            shown = replay_steps(decider, steps, seat, max(request.from_, 1), request.to)
        except Exception:  # a bug in a game's views: answer, log, keep serving
            log.exception("replay_failed", game=game, table=table, viewer=viewer)
            await message.respond(error_body("internal_error", "The replay failed on the server."))
            return
        await message.respond(self._fit(shown))

    def _fit(self, shown: list[ReplayStep]) -> bytes:
        """The reply, cut to the server's payload limit; `next` says where to ask again."""
        limit = self.bus.nc.max_payload - 1024
        body = encoder.encode({"steps": shown})
        while len(body) > limit and len(shown) > 1:
            shown = shown[: len(shown) // 2]
            body = encoder.encode({"steps": shown, "next": shown[-1].version + 1})
        if len(body) > limit:  # one step alone is too large: say so rather than fail to send
            return error_body("internal_error", f"Step {shown[0].version} is larger than the "
                              f"server's message limit ({limit} bytes).")
        return body


async def serve_history_projector(bus: Bus, stop: asyncio.Event) -> None:
    await bus.ensure_streams()
    projector = HistoryProjector(bus)
    await bus.add_service(
        name="tabletop-history-projector", version="0.1.0",
        description="tabletop replays, cut per viewer",
        endpoints=[("replay", f"{subjects.PREFIX}.replay.>", "tabletop-replay", projector.on_replay)],
        stats=lambda: {"cached_tables": len(projector.cache)},
    )
    log.info("history_projector_started")
    await stop.wait()
