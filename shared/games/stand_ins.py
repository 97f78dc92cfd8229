"""Bots standing in for players: seats a bot took at creation (`bot_seated`), and seats a
bot plays once their player quit or ran out of time (zombies). The bot service plays both
with `play_for`."""

from __future__ import annotations

from typing import Any

import msgspec

from shared.games.decider import Context, Event, Game, Rejection
from shared.games.moves import play, seat_refusal
from shared.games.table_clock import charge
from shared.games.table_messages import BOTS_PLAYER, BotSeated, PlayFor, Quit, SeatZombied
from shared.games.table_state import Table
from shared.games.turns import NOT_STARTED

replace = msgspec.structs.replace


# --- decide ---------------------------------------------------------------------------------


def quit_game(table: Table, command: Quit, ctx: Context) -> list[Event] | Rejection:
    """A person leaves a running game: a bot plays the seat from now on."""
    if refused := seat_refusal(table, ctx.actor):
        return refused
    return [*charge(table, ctx.now), SeatZombied(player=ctx.actor, reason="quit")]


def play_for(
    game: Game[Any, Any], command_type: Any, table: Table, command: PlayFor, ctx: Context
) -> list[Event] | Rejection:
    """The bot service's move for a bot or zombie seat: one of the game's commands."""
    if ctx.actor != BOTS_PLAYER:
        return Rejection("not_allowed", "Only the bot service plays for another seat.")
    if table.status != "running":
        return NOT_STARTED
    if command.seat not in table.bots and command.seat not in table.zombies:
        return Rejection("not_a_bot_seat", f"No bot plays {command.seat}'s seat.")
    try:
        move = msgspec.convert(command.command, command_type, strict=True)
    except (msgspec.ValidationError, TypeError) as err:
        return Rejection("bad_command", f"Bad command for {command.seat}: {err}.")
    return play(game, table, move, Context(actor=command.seat, rng=ctx.rng, now=ctx.now))


# --- evolve ---------------------------------------------------------------------------------


def bot_seated(table: Table, event: BotSeated) -> Table:
    return replace(table, players=(*table.players, event.player), bots=(*table.bots, event.player))


def seat_zombied(table: Table, event: SeatZombied) -> Table:
    table = replace(table, zombies=(*table.zombies, event.player))
    if event.reason == "quit":
        table = replace(table, quitters=(*table.quitters, event.player))
    return table
