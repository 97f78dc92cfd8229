"""A seat's game command at a running table: from a person still playing that seat, in time
on its clock, then decided by the game's rules (whose `decide` guards the turn itself:
`shared.games.turns`), its clock charged."""

from __future__ import annotations

from typing import Any

from shared.games.decider import Command, Context, Event, Game, PlayerId, Rejection
from shared.games.seating import NOT_SEATED
from shared.games.table_clock import charge, out_of_time
from shared.games.table_state import Table
from shared.games.turns import NOT_STARTED


def seat_refusal(table: Table, actor: PlayerId) -> Rejection | None:
    """Why `actor` may not act at this table now (no seat, no game running, a bot plays the
    seat), or None."""
    if actor not in table.players:
        return NOT_SEATED
    if table.status != "running":
        return NOT_STARTED
    if actor not in table.humans:
        return Rejection("seat_played_by_bot", "A bot plays this seat; its player can no longer act here.")
    return None


def move(game: Game[Any, Any], table: Table, command: Command, ctx: Context) -> list[Event] | Rejection:
    """A game command from the person at a seat."""
    if refused := seat_refusal(table, ctx.actor):
        return refused
    return play(game, table, command, ctx)


def play(game: Game[Any, Any], table: Table, command: Command, ctx: Context) -> list[Event] | Rejection:
    """A game command for the seat `ctx.actor`, whoever plays it, its clock charged."""
    if ctx.actor in out_of_time(game, table, ctx.now):
        return Rejection("out_of_time", "Your clock has run out; the move came too late.")
    events = game.decide(table.game, command, ctx)
    if isinstance(events, Rejection):
        return events
    return [*charge(table, ctx.now, ctx.actor), *events]
