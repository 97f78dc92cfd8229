"""What a viewer sees of a table: its view (the game's, with the platform's keys), the moves
its seat may make, its lobby entry, and the table's own events in words for the game log."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import msgspec

from shared.games.decider import Command, Event, Game, Language, PlayerId, View, spoken_list
from shared.games.results import RESULT_WORDS, said_result
from shared.games.table_clock import deadline, running
from shared.games.table_messages import (
    BotSeated,
    ClockCharged,
    ClockExpired,
    DrawsMade,
    GameEnded,
    MoveTakenBack,
    PlayerJoined,
    PlayerLeft,
    RematchDeclined,
    RematchOffered,
    SeatZombied,
    SeedCommitted,
    SeedRevealed,
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
    (view,) = player_views(game, table, [viewer])
    return view


def player_views(game: Game[Any, Any], table: Table, viewers: Sequence[PlayerId | None]) -> list[View]:
    """What each of `viewers` sees of the table (`player_view` of each), what they all see
    alike made once: the table's part, and the game's where it gives `player_views`. The
    views may share the values under their keys: they are read, encoded, never changed."""
    seats = [viewer if viewer in table.players else None for viewer in viewers]
    own: Sequence[View]
    if table.status not in ("running", "ended") or table.game is None:
        own = [{} for _ in seats]
    elif game.player_views is not None and len(seats) > 1:
        own = game.player_views(table.game, seats)
    else:
        own = [game.player_view(table.game, seat) for seat in seats]
    to_act = players_to_act(game, table)
    alike: View = {
        "game": game.name,
        "status": "open" if table.status == "new" else table.status,
        "seats": list(table.players),
        "seat_count": table.seat_count,
        "creator": table.creator,
        "options": table.options,
        "to_act": to_act,
    }
    if table.clock is not None:
        alike["clock"] = _clock_view(game, table)
    alike.update(_stand_ins(table))
    after: View = {}
    if table.result is not None:
        after["result"] = msgspec.to_builtins(table.result)
    if table.rematch:
        after["rematch"] = {
            "table": table.rematch,
            "by": table.rematch_by,
            "declined": list(table.rematch_declined),
        }
    views = []
    for seat, game_view in zip(seats, own, strict=True):
        view: View = dict(game_view)
        view.update(alike)
        if seat is not None:
            moves = legal(game, table, seat, to_act)  # the game asked once per seat
            if moves:
                view["legal"] = msgspec.to_builtins(moves)
        view.update(after)
        views.append(view)
    return views


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


# The table's own events in words, by language ("{name}": the event's fields).
TABLE_WORDS: dict[Language, dict[str, str]] = {
    "en": {
        "created": "{creator} opened a table for up to {seats} players",
        "started": "The game started: {players}, in seat order",
        "and": "and",
        "rematch_offered": "{by} offers a rematch: table {table}",
        "rematch_declined": "{player} declines the rematch",
        "taken_back": "{player} took back their last move",
        "joined": "{player} sat down",
        "left": "{player} left",
        "bot_seated": "{player}, a bot, sat down",
        "out_of_time": "{player} ran out of time",
        "quit": "{player} left the game; a bot plays that seat from now on",
        "zombied": "A bot plays {player}'s seat from now on",
        "sealed": "The table's draws are sealed: its secret's SHA-256 begins {commitment}",
        "revealed": "The table's secret is revealed: anyone can now check every draw",
    },
    "fr": {
        "created": "{creator} a ouvert une table pour {seats} joueurs au plus",
        "started": "La partie commence : {players}, dans l'ordre des places",
        "and": "et",
        "rematch_offered": "{by} propose une revanche : table {table}",
        "rematch_declined": "{player} décline la revanche",
        "taken_back": "{player} a annulé son dernier coup",
        "joined": "{player} a pris place",
        "left": "{player} a quitté la table",
        "bot_seated": "{player}, un robot, a pris place",
        "out_of_time": "{player} n'a plus de temps",
        "quit": "{player} a quitté la partie ; un robot joue sa place désormais",
        "zombied": "Un robot joue la place de {player} désormais",
        "sealed": "Les tirages de la table sont scellés : le SHA-256 de son secret commence par {commitment}",
        "revealed": "Le secret de la table est révélé : chacun peut maintenant vérifier chaque tirage",
    },
}


def describe_table_event(event: Event, language: Language = "en") -> str | None:
    """One of the table's own events in words (None: nothing to say). Looked up by the event's
    type: a `match` tried each case's class in turn, twice a message and viewer language."""
    say = _SAYINGS.get(type(event))
    if say is None:
        raise AssertionError(f"not a table event: {event!r}")
    return say(event, TABLE_WORDS[language], language)


def _seated(said: str) -> Callable[[Any, dict[str, str], Language], str]:
    """What says a seat taken, left, or played by a bot from now on."""
    return lambda event, words, _: words[said].format(player=event.player)


def _zombied(event: SeatZombied, words: dict[str, str], _: Language) -> str:
    """A seat a bot plays from now on: its player quit, or was away too long."""
    return words["quit" if event.reason == "quit" else "zombied"].format(player=event.player)


def _nothing(*_: Any) -> None:
    return None  # bookkeeping: nothing to tell


_SAYINGS: dict[type, Callable[[Any, dict[str, str], Language], str | None]] = {
    TableCreated: lambda e, words, _: words["created"].format(creator=e.creator, seats=e.seats),
    TableStarted: lambda e, words, _: words["started"].format(players=spoken_list(e.players, words["and"])),
    GameEnded: lambda e, _, language: said_result(e.result, language),
    TableExpired: lambda e, _, language: RESULT_WORDS[language]["expired"],
    RematchOffered: lambda e, words, _: words["rematch_offered"].format(by=e.by, table=e.table),
    RematchDeclined: lambda e, words, _: words["rematch_declined"].format(player=e.player),
    ClockCharged: _nothing,
    TakeBackPoint: _nothing,
    TakeBacksClosed: _nothing,
    DrawsMade: _nothing,
    SeedCommitted: lambda e, words, _: words["sealed"].format(commitment=e.commitment[:12]),
    SeedRevealed: lambda e, words, _: words["revealed"],
    MoveTakenBack: lambda e, words, _: words["taken_back"].format(player=e.player),
    PlayerJoined: _seated("joined"),
    PlayerLeft: _seated("left"),
    BotSeated: _seated("bot_seated"),
    ClockExpired: _seated("out_of_time"),
    SeatZombied: _zombied,
}
