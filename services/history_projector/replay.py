"""The replay service: a table's history for one viewer, step by step.

Every step is one accepted command: its events passed through the game's `redact` for that
viewer, with the words for them, and, where the request asks (`views`), the view that viewer
had after it. Histories are read from the log itself, so they are always exact; the fold of
recently asked tables is kept in memory, so the next page, or the next ask after new
commands, reads and folds only what it has not seen.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from typing import Any

import msgspec
import structlog

from services import VERSION
from services.registry import games
from shared.bus.connection import Bus, Incoming
from shared.bus.errors import Unavailable
from shared.games.table import Table, TableDecider
from shared.messages import subjects
from shared.messages.envelopes import (
    BadRequest,
    EventBatch,
    ReplayRequest,
    ReplayStep,
    decode_request,
    encoder,
    error_body,
    step_of,
    unknown_game_body,
)
from shared.messages.folding import Admitted, Bounded, Folded, empty, fold_messages

log = structlog.get_logger("tabletop.history_projector")
PAGE_BYTES = 256 * 1024  # a replay page at most: a client on a slow link gets it in one go


@dataclass(slots=True)
class History:
    """One table folded so far, with every step's batch and the state after it."""

    folded: Folded
    batches: list[EventBatch[Any]] = field(default_factory=list)
    states: list[Table] = field(default_factory=list)

    def add(self, admitted: Admitted) -> None:
        if admitted.batch is not None:
            self.batches.append(admitted.batch)
            self.states.append(admitted.folded.state)


def page(
    decider: TableDecider,
    history: History,
    viewer: str | None,
    request: ReplayRequest,
    limit: int,
) -> bytes:
    """The steps asked for, as many as fit in `limit` bytes, and `next`: the version to ask
    from when more remain, else null (always present, as in the lobby)."""
    first = max(request.from_, 1)
    last = len(history.batches) if request.to is None else min(request.to, len(history.batches))

    def encoded(version: int, *, with_view: bool) -> bytes:
        step = step_of(decider, history.batches[version - 1], viewer)
        if with_view:
            step = _with_view(decider, step, history.states[version - 1], viewer)
        return encoder.encode(step)

    parts: list[bytes] = []
    size = len(b'{"steps":[],"next":}') + 20
    for version in range(first, last + 1):
        part = encoded(version, with_view=request.views == "every")
        if parts and size + len(part) + 1 > limit:
            break
        parts.append(part)
        size += len(part) + 1
    if request.views == "last":  # the page's last step carries the view; drop steps to fit
        while parts:
            part = encoded(first + len(parts) - 1, with_view=True)
            if size - len(parts[-1]) + len(part) <= limit or len(parts) == 1:
                size += len(part) - len(parts[-1])
                parts[-1] = part
                break
            size -= len(parts.pop()) + 1
    if parts and size > limit:  # one step alone is too large: say so rather than fail to send
        return error_body("internal_error", f"Step {first} is larger than a replay page ({limit} bytes).")
    after = first + len(parts)
    more = str(after).encode() if after <= last else b"null"
    return b'{"steps":[' + b",".join(parts) + b'],"next":' + more + b"}"


def _with_view(
    decider: TableDecider,
    step: ReplayStep,
    state: Table,
    viewer: str | None,
) -> ReplayStep:
    return msgspec.structs.replace(step, view=decider.player_view(state, viewer))


class HistoryProjector:
    def __init__(self, bus: Bus, *, cache_size: int = 64, page_bytes: int = PAGE_BYTES) -> None:
        self.bus = bus
        self.games = games()
        self.cache: Bounded[tuple[str, str], History] = Bounded(cache_size)
        self.page_bytes = page_bytes
        self.folded_messages = 0  # log messages folded since the start

    async def history(self, decider: TableDecider, game: str, table: str) -> History:
        """Every step of the table, reading from the log only what came since the last ask."""
        history = self.cache.get((game, table)) or History(empty(decider))

        def add(admitted: Admitted) -> None:
            self.folded_messages += 1
            history.add(admitted)

        stored = await self.bus.events.read(game, table, after=history.folded.last_seq)
        # folded after the read, in one go: an ask that read meanwhile may have folded some
        unseen = [m for m in stored if m.seq > history.folded.last_seq]
        history.folded = fold_messages(decider, history.folded, game, table, unseen, add)
        return self.cache.put((game, table), history)

    async def on_replay(self, message: Incoming) -> None:
        tokens = subjects.parse(message.subject, "replay")
        if tokens is None or len(tokens) != 3:
            await message.respond(error_body("bad_request", "Ask tabletop.replay.<game>.<table>.<viewer>."))
            return
        game, table, viewer = tokens
        decider = self.games.get(game)
        if decider is None:
            await message.respond(unknown_game_body(message.subject, game))
            return
        try:
            request = decode_request(message.data, ReplayRequest)
        except BadRequest as err:
            await message.respond(error_body("bad_request", str(err)))
            return
        try:
            history = await self.history(decider, game, table)
        except Unavailable as err:
            await message.respond(error_body("unavailable", f"The log is unavailable: {err}."))
            return
        except Exception:
            log.exception("replay_failed", game=game, table=table, viewer=viewer)
            await message.respond(error_body("internal_error", "The replay failed on the server."))
            return
        if not history.batches:
            await message.respond(error_body("unknown_table", f"There is no {game} table {table}."))
            return
        seat = None if viewer == subjects.SPECTATOR else viewer
        limit = min(self.page_bytes, self.bus.nc.max_payload - 1024)
        try:
            body = page(decider, history, seat, request, limit)
        except Exception:  # a bug in a game's views: answer, log, keep serving
            log.exception("replay_failed", game=game, table=table, viewer=viewer)
            await message.respond(error_body("internal_error", "The replay failed on the server."))
            return
        await message.respond(body)


async def serve_history_projector(bus: Bus, stop: asyncio.Event) -> None:
    await bus.ensure_streams()
    projector = HistoryProjector(bus)
    await bus.add_service(
        name="tabletop-history-projector",
        version=VERSION,
        description="tabletop replays, cut per viewer",
        endpoints=[("replay", f"{subjects.PREFIX}.replay.>", "tabletop-replay", projector.on_replay)],
        stats=lambda: {"cached_tables": len(projector.cache), "folded_messages": projector.folded_messages},
    )
    log.info("history_projector_started")
    await stop.wait()
