"""What the service itself says ran out: an open table nobody started in time, or a running
table without clocks nobody moved at for long (`expire`), or a player's clock (`deadline`)."""

from __future__ import annotations

from typing import Any

import msgspec

from shared.games.decider import Context, Event, Game, Rejection
from shared.games.results import abandoned, lost_on_time
from shared.games.table_clock import charge, out_of_time
from shared.games.table_messages import (
    SERVICE_PLAYER,
    ClockExpired,
    Deadline,
    Expire,
    GameEnded,
    SeatZombied,
    TableExpired,
)
from shared.games.table_state import Table
from shared.games.turns import GAME_OVER, NOT_STARTED


def expire(table: Table, command: Expire, ctx: Context) -> list[Event] | Rejection:
    """An open table nobody started in time expires; a running table without clocks where
    nobody moved for long ends abandoned. The service sends it with `expect` set to the
    version it saw, so a move made meanwhile refuses it."""
    if ctx.actor != SERVICE_PLAYER:
        return Rejection("not_allowed", "Only the service itself expires a table.")
    if table.status == "open":
        return [TableExpired()]
    if table.status != "running":
        return GAME_OVER
    if table.clock is not None:
        return Rejection("has_clocks", "A table with clocks ends by its deadlines, not by expiry.")
    return [GameEnded(result=abandoned(idle=True))]


def deadline(game: Game[Any, Any], table: Table, command: Deadline, ctx: Context) -> list[Event] | Rejection:
    """A clock may have run out: each seat out of time loses on time (two players: the game
    ends) or is played by a bot from now on, as the table's `on_timeout` says."""
    if ctx.actor != SERVICE_PLAYER:
        return Rejection("not_allowed", "Only the service itself says a deadline came.")
    if table.status != "running":
        return NOT_STARTED
    expired = out_of_time(game, table, ctx.now)
    if not expired:
        return Rejection("not_due", "No clock has run out at this table.")
    events: list[Event] = [*charge(table, ctx.now), *(ClockExpired(player=p) for p in expired)]
    if table.table_options.on_timeout == "lose" and len(table.players) == 2:
        return [*events, GameEnded(result=lost_on_time(table, expired))]
    return [*events, *(SeatZombied(player=p, reason="timed_out") for p in expired)]


def table_expired(table: Table, event: TableExpired) -> Table:
    return msgspec.structs.replace(table, status="ended", result=abandoned(expired=True))
