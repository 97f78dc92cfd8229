"""Taking back a move, as Board Game Arena allows: a seat's move made only of the game's
`take_back` events (it revealed nothing, drew nothing) may be undone by that seat until someone
else acts; several in a row, last first. The log stays append-only: the move's batch begins
with `take_back_point` (the table keeps the game's state from before it), `undo` appends
`move_taken_back` (the game returns to that state), and anything else that happens while a
move could be taken back appends `take_backs_closed` first.

The moves that may be taken back are a stack: only its top may be, by its mover. Another
player's move that may be taken back goes on top (so the one below waits); taken back, it
leaves the table exactly as before it, the move below takeable again."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import msgspec

from shared.games.decider import Command, Context, Event, Game, Rejection
from shared.games.moves import seat_refusal
from shared.games.table_clock import charge
from shared.games.table_messages import (
    ClockCharged,
    MoveTakenBack,
    TakeBackPoint,
    TakeBacksClosed,
    Undo,
)
from shared.games.table_state import Table, TakeBack

NOTHING_TO_UNDO = Rejection(
    "nothing_to_undo",
    "There is no move of yours to take back: a move can be taken back only until someone else "
    "acts, and only if it revealed nothing.",
)


def undo(table: Table, command: Undo, ctx: Context) -> list[Event] | Rejection:
    if refused := seat_refusal(table, ctx.actor):
        return refused
    if not can_undo(table, ctx.actor):
        return NOTHING_TO_UNDO
    return [*charge(table, ctx.now), MoveTakenBack(player=ctx.actor)]


def can_undo(table: Table, player: str) -> bool:
    """Whether `player`, a person at this running table, may take back a move now."""
    return (
        table.status == "running"
        and player in table.humans
        and bool(table.take_backs)
        and table.take_backs[-1].player == player
    )


def marked(
    game: Game[Any, Any], table: Table, command: Command, mover: str, events: Sequence[Event]
) -> list[Event]:
    """A decided batch with its take-back bookkeeping: a game move of `mover` that may be
    taken back begins with `take_back_point`; anything else (but an `undo`) closes the moves
    that could be taken back, if there are any."""
    game_events = [e for e in events if not isinstance(e, ClockCharged)]
    if _takes_back(game, game_events) and table.status == "running" and mover in table.humans:
        return [TakeBackPoint(player=mover), *events]
    if table.take_backs and not isinstance(command, Undo):
        return [TakeBacksClosed(), *events]
    return list(events)


def _takes_back(game: Game[Any, Any], events: Sequence[Event]) -> bool:
    return bool(events) and all(type(e) in game.take_back for e in events)


def point(table: Table, event: TakeBackPoint) -> Table:
    return msgspec.structs.replace(
        table, take_backs=(*table.take_backs, TakeBack(player=event.player, game=table.game))
    )


def closed(table: Table, event: TakeBacksClosed) -> Table:
    return msgspec.structs.replace(table, take_backs=())


def taken_back(table: Table, event: MoveTakenBack) -> Table:
    *kept, last = table.take_backs
    return msgspec.structs.replace(table, game=last.game, take_backs=tuple(kept))
