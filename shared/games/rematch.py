"""After the end: a seated player offers the next table (`rematch`), once, and every viewer of
the ended table sees where it is; the others accept by joining it (it starts when its last
seat is taken: `start_when_full`) or decline here."""

from __future__ import annotations

import msgspec

from shared.games.decider import Context, Event, Rejection, is_id
from shared.games.table_messages import (
    BOT_SEAT_PREFIX,
    DeclineRematch,
    Rematch,
    RematchDeclined,
    RematchOffered,
)
from shared.games.table_state import Table


def _refusal(table: Table, ctx: Context) -> Rejection | None:
    if table.status != "ended":
        return Rejection("game_not_over", "A rematch is offered once the game is over.")
    if ctx.actor not in table.players or ctx.actor.startswith(BOT_SEAT_PREFIX):
        return Rejection("not_seated", "Only a player of this table may offer or decline a rematch.")
    return None


def offer(table: Table, command: Rematch, ctx: Context) -> list[Event] | Rejection:
    if refused := _refusal(table, ctx):
        return refused
    if table.rematch:
        return Rejection(
            "rematch_offered", f"{table.rematch_by} already offered a rematch: table {table.rematch}."
        )
    if not is_id(command.table):
        return Rejection("bad_command", "A rematch names its table by id: letters, digits, _ and -.")
    return [RematchOffered(table=command.table, by=ctx.actor)]


def offered(table: Table, event: RematchOffered) -> Table:
    return msgspec.structs.replace(table, rematch=event.table, rematch_by=event.by)


def decline(table: Table, command: DeclineRematch, ctx: Context) -> list[Event] | Rejection:
    if refused := _refusal(table, ctx):
        return refused
    if not table.rematch:
        return Rejection("no_rematch", "Nobody has offered a rematch.")
    if ctx.actor == table.rematch_by or ctx.actor in table.rematch_declined:
        return Rejection("already_answered", "You have answered this rematch already.")
    return [RematchDeclined(player=ctx.actor)]


def declined(table: Table, event: RematchDeclined) -> Table:
    return msgspec.structs.replace(table, rematch_declined=(*table.rematch_declined, event.player))
