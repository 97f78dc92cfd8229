"""What a viewer sees of a table: its view (the game's, with the platform's keys), the moves
its seat may make, its lobby entry, and the table's own events in words for the game log."""

from __future__ import annotations

from typing import Any

import msgspec

from shared.games.decider import Command, Event, Game, Language, PlayerId, View, spoken_list
from shared.games.results import said_result
from shared.games.table_clock import deadline, running
from shared.games.table_messages import (
    BotSeated,
    ClockCharged,
    ClockExpired,
    GameEnded,
    MoveTakenBack,
    PlayerJoined,
    PlayerLeft,
    RematchDeclined,
    RematchOffered,
    SeatZombied,
    Start,
    TableCreated,
    TableExpired,
    TableStarted,
    TakeBackPoint,
    TakeBacksClosed,
    Undo,
)
from shared.games.table_state import Table, players_to_act
from shared.games.take_back import can_undo


def legal(game: Game[Any, Any], table: Table, player: PlayerId, to_act: list[PlayerId]) -> list[Command]:
    """The commands `player` may send now: `start` for the creator of a table ready to start,
    the game's own for a seat to act, and `undo` while its last move may be taken back."""
    if table.status == "open":
        if player == table.creator and len(table.players) >= game.min_players:
            return [Start()]
        return []
    undo: list[Command] = [Undo()] if can_undo(table, player) else []
    if table.status != "running" or player not in to_act:
        return undo
    return [*game.legal_commands(table.game, player), *undo]


def player_view(game: Game[Any, Any], table: Table, viewer: PlayerId | None) -> View:
    """What `viewer` (a seated player, else a spectator) sees of the table."""
    seat = viewer if viewer in table.players else None
    view: View = {}
    if table.status in ("running", "ended") and table.game is not None:
        view.update(game.player_view(table.game, seat))
    to_act = players_to_act(game, table)
    view.update(
        game=game.name,
        status="open" if table.status == "new" else table.status,
        seats=list(table.players),
        seat_count=table.seat_count,
        creator=table.creator,
        options=table.options,
        to_act=to_act,
    )
    if table.clock is not None:
        view["clock"] = _clock_view(game, table)
    view.update(_stand_ins(table))
    if seat is not None:
        moves = legal(game, table, seat, to_act)  # the game asked once per seat
        if moves:
            view["legal"] = msgspec.to_builtins(moves)
    if table.result is not None:
        view["result"] = msgspec.to_builtins(table.result)
    if table.rematch:
        view["rematch"] = {
            "table": table.rematch,
            "by": table.rematch_by,
            "declined": list(table.rematch_declined),
        }
    return view


def _clock_view(game: Game[Any, Any], table: Table) -> dict[str, Any]:
    assert table.clock is not None
    return {
        "remaining_ms": dict(table.clock.remaining_ms),
        "running": running(game, table),
        "since": table.clock.since or None,
        "deadline": deadline(game, table),
        "increment_ms": table.clock.setting.increment_ms,
    }


def _stand_ins(table: Table) -> dict[str, Any]:
    """The bot and zombie seats, where there are any."""
    shown: dict[str, Any] = {}
    if table.bots:
        shown["bots"] = list(table.bots)
    if table.zombies:
        shown["zombies"] = list(table.zombies)
    return shown


def lobby_entry(table: Table) -> dict[str, Any]:
    """What the lobby shows of a table (with its bot and zombie seats, if any)."""
    return {
        "status": table.status,
        "seats": list(table.players),
        "seat_count": table.seat_count,
        "creator": table.creator,
        "options": table.options,
        "clock": table.table_options.clock,
        **_stand_ins(table),
    }


def describe_table_event(event: Event, language: Language = "en") -> str | None:
    """One of the table's own events in words (None: nothing to say)."""
    if language == "fr":
        return _table_event_fr(event)
    match event:
        case TableCreated(creator=creator, seats=seats):
            return f"{creator} opened a table for up to {seats} players"
        case TableStarted(players=players):
            return f"The game started: {spoken_list(players)}, in seat order"
        case GameEnded(result=result):
            return said_result(result)
        case TableExpired():
            return "Nobody started the game in time: the table expired"
        case RematchOffered(table=next_table, by=by):
            return f"{by} offers a rematch: table {next_table}"
        case RematchDeclined(player=player):
            return f"{player} declines the rematch"
        case ClockCharged() | TakeBackPoint() | TakeBacksClosed():
            return None  # bookkeeping: nothing to tell
        case MoveTakenBack(player=player):
            return f"{player} took back their last move"
    return _seat_event(event)


def _table_event_fr(event: Event) -> str | None:
    match event:
        case TableCreated(creator=creator, seats=seats):
            return f"{creator} a ouvert une table pour {seats} joueurs au plus"
        case TableStarted(players=players):
            return f"La partie commence : {spoken_list(players, 'et')}, dans l'ordre des places"
        case GameEnded(result=result):
            return said_result(result, "fr")
        case TableExpired():
            return "Personne n'a lancé la partie à temps : la table a expiré"
        case RematchOffered(table=next_table, by=by):
            return f"{by} propose une revanche : table {next_table}"
        case RematchDeclined(player=player):
            return f"{player} décline la revanche"
        case ClockCharged() | TakeBackPoint() | TakeBacksClosed():
            return None
        case MoveTakenBack(player=player):
            return f"{player} a annulé son dernier coup"
    return _seat_event_fr(event)


def _seat_event_fr(event: Event) -> str:
    match event:
        case PlayerJoined(player=player):
            return f"{player} a pris place"
        case PlayerLeft(player=player):
            return f"{player} a quitté la table"
        case BotSeated(player=player):
            return f"{player}, un robot, a pris place"
        case ClockExpired(player=player):
            return f"{player} n'a plus de temps"
        case SeatZombied(player=player, reason="quit"):
            return f"{player} a quitté la partie ; un robot joue sa place désormais"
        case SeatZombied(player=player):
            return f"Un robot joue la place de {player} désormais"
    raise AssertionError(f"not a table event: {event!r}")


def _seat_event(event: Event) -> str:
    """A seat taken, left, or played by a bot from now on, in words."""
    match event:
        case PlayerJoined(player=player):
            return f"{player} sat down"
        case PlayerLeft(player=player):
            return f"{player} left"
        case BotSeated(player=player):
            return f"{player}, a bot, sat down"
        case ClockExpired(player=player):
            return f"{player} ran out of time"
        case SeatZombied(player=player, reason="quit"):
            return f"{player} left the game; a bot plays that seat from now on"
        case SeatZombied(player=player):
            return f"A bot plays {player}'s seat from now on"
    raise AssertionError(f"not a table event: {event!r}")
