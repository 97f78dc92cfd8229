"""Who sits at a table before the game: `create` (the creator sits, bots take their seats),
`join`, `leave`, and `start` (the game's setup with the seated players)."""

from __future__ import annotations

from typing import Any

import msgspec

from shared.games.clock import clock_setting
from shared.games.decider import Context, Event, Game, Rejection
from shared.games.option_checks import checked_options
from shared.games.results import abandoned
from shared.games.seeding import commit, committed, drawn, draws_for, entropy_of, seed_of
from shared.games.table_clock import charge
from shared.games.table_messages import (
    BotSeated,
    Create,
    Join,
    Leave,
    PlayerJoined,
    PlayerLeft,
    Start,
    TableCreated,
    TableStarted,
)
from shared.games.table_state import Clock, Table, bot_seat, game_options_of, table_options_of

NOT_SEATED = Rejection("not_seated", "You have no seat at this table.")
replace = msgspec.structs.replace


# --- decide ---------------------------------------------------------------------------------


def create(game: Game[Any, Any], table: Table, command: Create, ctx: Context) -> list[Event] | Rejection:
    if table.status != "new":
        return Rejection("table_exists", "A table with this id already exists.")
    seats = game.max_players if command.seats is None else command.seats
    if not game.min_players <= seats <= game.max_players:
        return Rejection(
            "bad_option",
            f"{game.title} takes {game.min_players} to {game.max_players} players, not {seats}.",
        )
    options = checked_options(game, command.options, seats)
    if isinstance(options, Rejection):
        return options
    entropy = entropy_of(command.entropy)
    if isinstance(entropy, Rejection):
        return entropy
    made = TableCreated(creator=ctx.actor, options=options, seats=seats)
    sealed = commit(ctx)
    sat = PlayerJoined(player=ctx.actor, entropy=entropy)
    bots = tuple(bot_seat(i) for i in range(1, table_options_of(options).bots + 1))
    seated = replace(
        joined(committed(created(table, made), sealed), sat), players=(ctx.actor, *bots), bots=bots
    )
    return [
        made,
        sealed,
        sat,
        *(BotSeated(player=bot) for bot in bots),
        *_started_when_full(game, seated, ctx),  # a creator alone with bots fills it
    ]


def join(game: Game[Any, Any], table: Table, command: Join, ctx: Context) -> list[Event] | Rejection:
    if ctx.actor in table.players:
        return Rejection("already_seated", "You already have a seat at this table.")
    if table.status != "open":
        return Rejection("already_started", "The game has started; no one can join.")
    if len(table.players) >= table.seat_count:
        return Rejection("table_full", f"All {table.seat_count} seats are taken.")
    entropy = entropy_of(command.entropy)
    if isinstance(entropy, Rejection):
        return entropy
    sat = PlayerJoined(player=ctx.actor, entropy=entropy)
    return [sat, *_started_when_full(game, joined(table, sat), ctx)]


def _started_when_full(game: Game[Any, Any], table: Table, ctx: Context) -> list[Event]:
    """The start, when the table was made to start by itself and its last seat was just
    taken (by a player joining, or by the bots at its creation); else nothing."""
    if not (table.table_options.start_when_full and len(table.players) == table.seat_count):
        return []
    started = _set_up(game, table, ctx)
    return [] if isinstance(started, Rejection) else started


def leave(table: Table, command: Leave, ctx: Context) -> list[Event] | Rejection:
    if ctx.actor not in table.players:
        return NOT_SEATED
    if table.status != "open":
        return Rejection("already_started", "You cannot leave once the game started.")
    return [PlayerLeft(player=ctx.actor)]


def start(game: Game[Any, Any], table: Table, command: Start, ctx: Context) -> list[Event] | Rejection:
    if refused := _start_refusal(game, table, ctx):
        return refused
    return _set_up(game, table, ctx)


def _set_up(game: Game[Any, Any], table: Table, ctx: Context) -> list[Event] | Rejection:
    """The game started with the players seated: the table's start, the game's setup, the
    clocks."""
    options = msgspec.convert(game_options_of(table.options), game.options)
    # checked at create against the most seats; now against the players actually seated
    problem = game.check_options(options, len(table.players))
    if problem:
        return Rejection("bad_option", problem)
    draws = draws_for(table)  # from the seed of the players as seated now
    setup = game.setup(options, table.players, draws or ctx.rng)
    if isinstance(setup, Rejection):
        return setup
    return [TableStarted(players=list(table.players)), *setup, *drawn(draws), *charge(table, ctx.now)]


def _start_refusal(game: Game[Any, Any], table: Table, ctx: Context) -> Rejection | None:
    if ctx.actor not in table.players:
        return NOT_SEATED
    if table.status != "open":
        return Rejection("already_started", "The game has already started.")
    if ctx.actor != table.creator:
        return Rejection("not_creator", "Only the table's creator can start the game.")
    if len(table.players) < game.min_players:
        return Rejection(
            "not_enough_players",
            f"{game.title} needs at least {game.min_players} players; {len(table.players)} seated.",
        )
    return None


# --- evolve ---------------------------------------------------------------------------------


def created(table: Table, event: TableCreated) -> Table:
    setting = clock_setting(table_options_of(event.options))
    return replace(
        table,
        status="open",
        creator=event.creator,
        seat_count=event.seats,
        options=event.options,
        clock=None if setting is None else Clock(setting=setting),
    )


def joined(table: Table, event: PlayerJoined) -> Table:
    return replace(
        table, players=(*table.players, event.player), entropy={**table.entropy, event.player: event.entropy}
    )


def left(table: Table, event: PlayerLeft) -> Table:
    players = tuple(p for p in table.players if p != event.player)
    if not players:  # the last player left: nobody can ever start this table
        return replace(table, players=(), status="ended", result=abandoned())
    creator = players[0] if event.player == table.creator else table.creator
    return replace(table, players=players, creator=creator)


def started(game: Game[Any, Any], table: Table, event: TableStarted) -> Table:
    seated = replace(table, status="running", players=tuple(event.players), game=game.initial_state)
    return replace(seated, seed=seed_of(seated).hex()) if seated.secret else seated
