"""The table life shared by every game, written once: create, join, leave, start, game ended.

`TableDecider(game)` is the Decider the shell runs: its commands are the table commands plus
the game's, its events the table events plus the game's, and its state a `Table` holding the
game's own state once the game has started.
"""

from __future__ import annotations

import re
import typing
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import Any, Literal

import msgspec

from shared.games.decider import (
    Command,
    Context,
    Event,
    Game,
    PlayerId,
    Rejection,
    Result,
    View,
    fold,
    spoken_list,
    type_tag,
)

Status = Literal["new", "open", "running", "ended"]


# --- table commands -------------------------------------------------------------------------


class Create(Command, frozen=True, kw_only=True):
    options: dict[str, Any] = {}
    seats: int | None = None  # the most players the table takes; the game's maximum if unset


class Join(Command, frozen=True, kw_only=True):
    pass


class Leave(Command, frozen=True, kw_only=True):
    pass


class Start(Command, frozen=True, kw_only=True):
    pass


class Expire(Command, frozen=True, kw_only=True):
    """Sent by the service itself for an open table nobody started in time."""


TABLE_COMMANDS: tuple[type[Command], ...] = (Create, Join, Leave, Start, Expire)
# The service's own name as a player: it alone may expire a table, and no person may take it.
SERVICE_PLAYER: PlayerId = "tabletop"
# Free text in a table's options is bounded, so a table cannot make the lobby or a view huge.
MAX_OPTION_TEXT = 64
MAX_OPTION_ITEMS = 32


# --- table events ---------------------------------------------------------------------------


class TableCreated(Event, frozen=True, kw_only=True):
    creator: PlayerId
    options: dict[str, Any]  # the full options, defaults filled in
    seats: int


class PlayerJoined(Event, frozen=True, kw_only=True):
    player: PlayerId


class PlayerLeft(Event, frozen=True, kw_only=True):
    player: PlayerId


class TableStarted(Event, frozen=True, kw_only=True):
    players: list[PlayerId]  # in seat order


class GameEnded(Event, frozen=True, kw_only=True):
    result: Result


class TableExpired(Event, frozen=True, kw_only=True):
    pass


TABLE_EVENTS: tuple[type[Event], ...] = (
    TableCreated,
    PlayerJoined,
    PlayerLeft,
    TableStarted,
    GameEnded,
    TableExpired,
)
RESERVED_EVENT_TYPES = frozenset(type_tag(e) for e in TABLE_EVENTS)
RESERVED_VIEW_KEYS = frozenset(
    {"game", "status", "seats", "seat_count", "creator", "options", "to_act", "legal", "result"}
)


class Table(msgspec.Struct, frozen=True, kw_only=True):
    """A table's state: the platform's part, and `game` once the game has started."""

    status: Status = "new"
    creator: PlayerId = ""
    seat_count: int = 0
    options: dict[str, Any] = {}
    players: tuple[PlayerId, ...] = ()
    game: Any = None
    result: Result | None = None


def _reject(code: str, message: str) -> Rejection:
    return Rejection(code, message)


@dataclass(frozen=True, eq=False)
class TableDecider:
    """A game wrapped in the table life: the Decider the shell runs."""

    game: Game[Any, Any]

    def __post_init__(self) -> None:
        clash = RESERVED_EVENT_TYPES & {type_tag(e) for e in self.game.events}
        if clash:
            raise ValueError(f"{self.game.name}: event types reserved by the table: {clash}")

    @property
    def name(self) -> str:
        return self.game.name

    @cached_property
    def command_type(self) -> Any:
        return typing.Union[TABLE_COMMANDS + tuple(self.game.commands)]  # noqa: UP007

    @cached_property
    def event_type(self) -> Any:
        return typing.Union[TABLE_EVENTS + tuple(self.game.events)]  # noqa: UP007

    initial_state = Table()

    # --- decide -----------------------------------------------------------------------------

    def decide(self, table: Table, command: Command, ctx: Context) -> Sequence[Event] | Rejection:
        actor = ctx.actor
        if isinstance(command, Create):
            return self._create(table, command, actor)
        if table.status == "new":
            return _reject("unknown_table", "There is no such table; create it first.")
        if table.status == "ended":
            return _reject("game_over", "The game at this table is over.")
        match command:
            case Join():
                if actor in table.players:
                    return _reject("already_seated", "You already have a seat at this table.")
                if table.status != "open":
                    return _reject("already_started", "The game has started; no one can join.")
                if len(table.players) >= table.seat_count:
                    return _reject("table_full", f"All {table.seat_count} seats are taken.")
                return [PlayerJoined(player=actor)]
            case Leave():
                if actor not in table.players:
                    return _reject("not_seated", "You have no seat at this table.")
                if table.status != "open":
                    return _reject("already_started", "You cannot leave once the game started.")
                return [PlayerLeft(player=actor)]
            case Start():
                return self._start(table, actor, ctx)
            case Expire():
                if actor != SERVICE_PLAYER:
                    return _reject("not_allowed", "Only the service itself expires a table.")
                if table.status != "open":
                    return _reject("already_started", "Only an open table expires.")
                return [TableExpired()]
        if actor not in table.players:
            return _reject("not_seated", "You have no seat at this table.")
        if table.status != "running":
            return _reject("not_started", "The game has not started yet.")
        events = self.game.decide(table.game, command, ctx)
        if isinstance(events, Rejection):
            return events
        return self._with_end(table, list(events))

    def _create(self, table: Table, command: Create, actor: PlayerId) -> list[Event] | Rejection:
        game = self.game
        if table.status != "new":
            return _reject("table_exists", "A table with this id already exists.")
        seats = game.max_players if command.seats is None else command.seats
        if not game.min_players <= seats <= game.max_players:
            return _reject(
                "bad_option",
                f"{game.title} takes {game.min_players} to {game.max_players} players, not {seats}.",
            )
        try:
            options = msgspec.convert(command.options, game.options, strict=True)
        except msgspec.ValidationError as err:
            return _reject("bad_option", f"Invalid option: {err}.{_choices(game.options, err)}")
        problem = _unbounded(msgspec.to_builtins(options))
        if problem:
            return _reject("bad_option", problem)
        problem = game.check_options(options, seats)
        if problem:
            return _reject("bad_option", problem)
        return [
            TableCreated(creator=actor, options=msgspec.to_builtins(options), seats=seats),
            PlayerJoined(player=actor),
        ]

    def _start(self, table: Table, actor: PlayerId, ctx: Context) -> list[Event] | Rejection:
        game = self.game
        if actor not in table.players:
            return _reject("not_seated", "You have no seat at this table.")
        if table.status != "open":
            return _reject("already_started", "The game has already started.")
        if actor != table.creator:
            return _reject("not_creator", "Only the table's creator can start the game.")
        if len(table.players) < game.min_players:
            return _reject(
                "not_enough_players",
                f"{game.title} needs at least {game.min_players} players; {len(table.players)} seated.",
            )
        options = msgspec.convert(table.options, game.options)
        # checked at create against the most seats; now against the players actually seated
        problem = game.check_options(options, len(table.players))
        if problem:
            return _reject("bad_option", problem)
        setup = game.setup(options, table.players, ctx.rng)
        if isinstance(setup, Rejection):
            return setup
        return self._with_end(table, [TableStarted(players=list(table.players)), *setup])

    def _with_end(self, table: Table, events: list[Event]) -> list[Event]:
        """Append `game_ended` when these events finish the game."""
        after = fold(self.evolve, events, table)
        if after.status == "running" and self.game.is_terminal(after.game):
            events.append(GameEnded(result=self.game.result(after.game)))
        return events

    # --- evolve -----------------------------------------------------------------------------

    def evolve(self, table: Table, event: Event) -> Table:
        replace = msgspec.structs.replace
        match event:
            case TableCreated():
                return replace(
                    table,
                    status="open",
                    creator=event.creator,
                    seat_count=event.seats,
                    options=event.options,
                )
            case PlayerJoined():
                return replace(table, players=(*table.players, event.player))
            case PlayerLeft():
                players = tuple(p for p in table.players if p != event.player)
                if not players:  # the last player left: nobody can ever start this table
                    return replace(table, players=(), status="ended", result=_abandoned())
                creator = players[0] if event.player == table.creator else table.creator
                return replace(table, players=players, creator=creator)
            case TableStarted():
                return replace(
                    table,
                    status="running",
                    players=tuple(event.players),
                    game=self.game.initial_state,
                )
            case GameEnded():
                return replace(table, status="ended", result=event.result)
            case TableExpired():
                return replace(table, status="ended", result=_abandoned(expired=True))
        return replace(table, game=self.game.evolve(table.game, event))

    # --- queries ----------------------------------------------------------------------------

    def is_terminal(self, table: Table) -> bool:
        return table.status == "ended"

    def players_to_act(self, table: Table) -> list[PlayerId]:
        if table.status != "running":
            return []
        return list(self.game.players_to_act(table.game))

    def legal_commands(self, table: Table, player: PlayerId) -> list[Command]:
        return self._legal(table, player, self.players_to_act(table))

    def _legal(self, table: Table, player: PlayerId, to_act: list[PlayerId]) -> list[Command]:
        if table.status == "open":
            if player == table.creator and len(table.players) >= self.game.min_players:
                return [Start()]
            return []
        if table.status != "running" or player not in to_act:
            return []
        return list(self.game.legal_commands(table.game, player))

    def player_view(self, table: Table, viewer: PlayerId | None) -> View:
        """What `viewer` (a seated player, else a spectator) sees of the table."""
        seat = viewer if viewer in table.players else None
        view: View = {}
        if table.status in ("running", "ended") and table.game is not None:
            view.update(self.game.player_view(table.game, seat))
        to_act = self.players_to_act(table)
        view.update(
            game=self.game.name,
            status="open" if table.status == "new" else table.status,
            seats=list(table.players),
            seat_count=table.seat_count,
            creator=table.creator,
            options=table.options,
            to_act=to_act,
        )
        if seat is not None:
            legal = self._legal(table, seat, to_act)  # the game asked once per seat
            if legal:
                view["legal"] = msgspec.to_builtins(legal)
        if table.result is not None:
            view["result"] = msgspec.to_builtins(table.result)
        return view

    def redact(self, event: Event, viewer: PlayerId | None) -> Event | None:
        if isinstance(event, TABLE_EVENTS):
            return event
        return self.game.redact(event, viewer)

    def describe(self, event: Event, viewer: PlayerId | None) -> str | None:
        """One event in words for the game log: the table's own, the game's by the game."""
        match event:
            case TableCreated(creator=creator, seats=seats):
                return f"{creator} opened a table for up to {seats} players"
            case PlayerJoined(player=player):
                return f"{player} sat down"
            case PlayerLeft(player=player):
                return f"{player} left"
            case TableStarted(players=players):
                return f"The game started: {spoken_list(players)}, in seat order"
            case GameEnded(result=result):
                return _said_result(result)
            case TableExpired():
                return "Nobody started the game in time: the table expired"
        return self.game.describe(event, viewer)

    def lobby_entry(self, table: Table) -> dict[str, Any]:
        """What the lobby shows of a table."""
        return {
            "status": table.status,
            "seats": list(table.players),
            "seat_count": table.seat_count,
            "creator": table.creator,
            "options": table.options,
        }


def _abandoned(*, expired: bool = False) -> Result:
    details: dict[str, Any] = {"abandoned": True}
    if expired:
        details["expired"] = True
    return Result(scores={}, ranking=[], winners=[], details=details)


def _said_result(result: Result) -> str:
    """The end of a game in words: who won, the scores in ranking order, or why nobody did."""
    if result.details.get("expired"):
        return "Nobody started the game in time: the table expired"
    if result.details.get("abandoned"):
        return "Every player left before the start: the table is closed"
    scores = ", ".join(f"{s.player} {_number(s.score)}" for s in result.ranking)
    if not result.winners:
        outcome = "nobody won"
    elif len(result.winners) == 1:
        outcome = f"{result.winners[0]} won"
    else:
        outcome = f"{spoken_list(result.winners)} share the win"
    return f"Game over: {outcome}" + (f" ({scores})" if scores else "")


def _number(value: float | int) -> str:
    return str(value) if isinstance(value, int) or not value.is_integer() else str(int(value))


def _choices(options: type[Any], err: msgspec.ValidationError) -> str:
    """The values a refused option takes, when its type lists them (a `Literal`), in the
    order the game declares them."""
    found = re.search(r"`\$\.(\w+)`", str(err))
    hint = typing.get_type_hints(options).get(found.group(1)) if found else None
    values = _literal_values(hint)
    if found is None or not values:
        return ""
    return f" {found.group(1)} must be one of {', '.join(map(str, values))}."


def _literal_values(hint: Any) -> list[Any]:
    if typing.get_origin(hint) is Literal:
        return list(typing.get_args(hint))
    return [v for arg in typing.get_args(hint) for v in _literal_values(arg)]


def _unbounded(value: Any) -> str | None:
    """Why an option value is too big, or None: texts and lists are bounded."""
    if isinstance(value, str) and len(value) > MAX_OPTION_TEXT:
        return f"An option's text may be at most {MAX_OPTION_TEXT} characters."
    if isinstance(value, (list, dict)):
        if len(value) > MAX_OPTION_ITEMS:
            return f"An option may list at most {MAX_OPTION_ITEMS} items."
        items = value.values() if isinstance(value, dict) else value
        return next((p for p in map(_unbounded, items) if p), None)
    return None
