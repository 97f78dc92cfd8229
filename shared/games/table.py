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

from shared.games.clock import (
    TABLE_OPTION_NAMES,
    ClockSetting,
    TableOptions,
    clock_problem,
    clock_setting,
    later,
    ms_between,
)
from shared.games.decider import (
    Command,
    Context,
    Event,
    Game,
    PlayerId,
    Rejection,
    Result,
    Standing,
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


class Quit(Command, frozen=True, kw_only=True):
    """A seated player leaves a running game: a bot plays the seat from then on."""


class Deadline(Command, frozen=True, kw_only=True):
    """Sent by the service itself when a clock may have run out; its envelope's `expect` is
    the table version the deadline was set for, so a late or repeated one does nothing."""


class PlayFor(Command, frozen=True, kw_only=True):
    """Sent by the bot service: `command` (one of the game's) played for a bot or zombie seat."""

    seat: PlayerId
    command: dict[str, Any]


TABLE_COMMANDS: tuple[type[Command], ...] = (
    Create,
    Join,
    Leave,
    Start,
    Expire,
    Quit,
    Deadline,
    PlayFor,
)
# The service's own name as a player: it alone may expire a table or say a deadline came, and
# no person may take it.
SERVICE_PLAYER: PlayerId = "tabletop"
# The bot service's name as a player: it alone plays for bot and zombie seats.
BOTS_PLAYER: PlayerId = "bots"
# Bot seats seated by the `bots` option are named `robot-1`, `robot-2`, ...; no person may
# take such a name.
BOT_SEAT_PREFIX = "robot-"
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


class BotSeated(Event, frozen=True, kw_only=True):
    player: PlayerId


class ClockCharged(Event, frozen=True, kw_only=True):
    """The clocks that ran until `at` are charged the time since the previous charge, and
    `player`, who just moved, gets the increment (`at` is the log message's own stamp). The
    first one, in the start's batch, starts the clocks."""

    at: str
    player: PlayerId = ""


class ClockExpired(Event, frozen=True, kw_only=True):
    player: PlayerId


class SeatZombied(Event, frozen=True, kw_only=True):
    """A bot plays `player`'s seat from now on: it quit, or its clock ran out."""

    player: PlayerId
    reason: Literal["quit", "timed_out"]


TABLE_EVENTS: tuple[type[Event], ...] = (
    TableCreated,
    PlayerJoined,
    PlayerLeft,
    TableStarted,
    GameEnded,
    TableExpired,
    BotSeated,
    ClockCharged,
    ClockExpired,
    SeatZombied,
)
RESERVED_EVENT_TYPES = frozenset(type_tag(e) for e in TABLE_EVENTS)
RESERVED_VIEW_KEYS = frozenset(
    {
        "game",
        "status",
        "seats",
        "seat_count",
        "creator",
        "options",
        "to_act",
        "legal",
        "result",
        "clock",
        "bots",
        "zombies",
    }
)


class Clock(msgspec.Struct, frozen=True, kw_only=True):
    """The players' clocks: each one's remaining time as of `since` (the stamp of the last
    charge); they run for the human seats that must act (`TableDecider.running`)."""

    setting: ClockSetting
    remaining_ms: dict[PlayerId, int] = {}
    since: str = ""  # "" until the game starts


class Table(msgspec.Struct, frozen=True, kw_only=True):
    """A table's state: the platform's part, and `game` once the game has started."""

    status: Status = "new"
    creator: PlayerId = ""
    seat_count: int = 0
    options: dict[str, Any] = {}
    players: tuple[PlayerId, ...] = ()
    game: Any = None
    result: Result | None = None
    clock: Clock | None = None
    bots: tuple[PlayerId, ...] = ()  # seats a bot took at creation
    zombies: tuple[PlayerId, ...] = ()  # seats a bot plays since their player quit or timed out
    quitters: tuple[PlayerId, ...] = ()
    timed_out: tuple[PlayerId, ...] = ()

    @property
    def humans(self) -> tuple[PlayerId, ...]:
        """The seats still played by their person."""
        return tuple(p for p in self.players if p not in self.bots and p not in self.zombies)

    @property
    def table_options(self) -> TableOptions:
        return table_options_of(self.options)


def _reject(code: str, message: str) -> Rejection:
    return Rejection(code, message)


def table_options_of(options: dict[str, Any], *, strict: bool = False) -> TableOptions:
    """The table's own options out of a table's options (`strict` for those a client gives;
    ValidationError when they are wrong)."""
    return msgspec.convert(
        {k: v for k, v in options.items() if k in TABLE_OPTION_NAMES}, TableOptions, strict=strict
    )


def game_options_of(options: dict[str, Any]) -> dict[str, Any]:
    """The game's options out of a table's options."""
    return {k: v for k, v in options.items() if k not in TABLE_OPTION_NAMES}


def bot_seat(index: int) -> PlayerId:
    return f"{BOT_SEAT_PREFIX}{index}"


@dataclass(frozen=True, eq=False)
class TableDecider:
    """A game wrapped in the table life: the Decider the shell runs."""

    game: Game[Any, Any]

    def __post_init__(self) -> None:
        clash = RESERVED_EVENT_TYPES & {type_tag(e) for e in self.game.events}
        if clash:
            raise ValueError(f"{self.game.name}: event types reserved by the table: {clash}")
        clash = TABLE_OPTION_NAMES & set(getattr(self.game.options, "__struct_fields__", ()))
        if clash:
            raise ValueError(f"{self.game.name}: option names reserved by the table: {clash}")

    @property
    def name(self) -> str:
        return self.game.name

    @cached_property
    def command_type(self) -> Any:
        return typing.Union[TABLE_COMMANDS + tuple(self.game.commands)]  # noqa: UP007

    @cached_property
    def game_command_type(self) -> Any:
        return typing.Union[tuple(self.game.commands)]  # noqa: UP007

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
            case Deadline():
                return self._deadline(table, ctx)
            case PlayFor():
                return self._play_for(table, command, ctx)
        if actor not in table.players:
            return _reject("not_seated", "You have no seat at this table.")
        if table.status != "running":
            return _reject("not_started", "The game has not started yet.")
        if actor not in table.humans:
            return _reject("seat_played_by_bot", "A bot plays this seat; its player can no longer act here.")
        if isinstance(command, Quit):
            return self._quit(table, ctx)
        return self._move(table, command, ctx)

    def _move(self, table: Table, command: Command, ctx: Context) -> list[Event] | Rejection:
        """A game command of a seat, its clock charged."""
        if ctx.actor in self.out_of_time(table, ctx.now):
            return _reject("out_of_time", "Your clock has run out; the move came too late.")
        events = self.game.decide(table.game, command, ctx)
        if isinstance(events, Rejection):
            return events
        return self._with_end(table, [*self._charge(table, ctx.now, ctx.actor), *events])

    def _play_for(self, table: Table, command: PlayFor, ctx: Context) -> list[Event] | Rejection:
        if ctx.actor != BOTS_PLAYER:
            return _reject("not_allowed", "Only the bot service plays for another seat.")
        if table.status != "running":
            return _reject("not_started", "The game has not started yet.")
        if command.seat not in table.bots and command.seat not in table.zombies:
            return _reject("not_a_bot_seat", f"No bot plays {command.seat}'s seat.")
        try:
            move = msgspec.convert(command.command, self.game_command_type, strict=True)
        except (msgspec.ValidationError, TypeError) as err:
            return _reject("bad_command", f"Bad command for {command.seat}: {err}.")
        return self._move(table, move, Context(actor=command.seat, rng=ctx.rng, now=ctx.now))

    def _quit(self, table: Table, ctx: Context) -> list[Event]:
        events: list[Event] = [*self._charge(table, ctx.now), SeatZombied(player=ctx.actor, reason="quit")]
        return self._with_end(table, events)

    def _deadline(self, table: Table, ctx: Context) -> list[Event] | Rejection:
        """A clock may have run out: each seat out of time loses on time (two players: the
        game ends) or is played by a bot from now on, as the table's `on_timeout` says."""
        if ctx.actor != SERVICE_PLAYER:
            return _reject("not_allowed", "Only the service itself says a deadline came.")
        if table.status != "running":
            return _reject("not_started", "The game has not started yet.")
        expired = self.out_of_time(table, ctx.now)
        if not expired:
            return _reject("not_due", "No clock has run out at this table.")
        events: list[Event] = [*self._charge(table, ctx.now), *(ClockExpired(player=p) for p in expired)]
        if table.table_options.on_timeout == "lose" and len(table.players) == 2:
            after = fold(self.evolve, events, table)
            return [*events, GameEnded(result=_lost_on_time(after))]
        events += [SeatZombied(player=p, reason="timed_out") for p in expired]
        return self._with_end(table, events)

    def _charge(self, table: Table, now: str, mover: PlayerId = "") -> list[Event]:
        """The `clock_charged` event a batch starts with, at a table with clocks."""
        if table.clock is None:
            return []
        return [ClockCharged(at=now or table.clock.since, player=mover)]

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
        given = command.options
        try:
            table_options = table_options_of(given, strict=True)
            options = msgspec.convert(game_options_of(given), game.options, strict=True)
        except msgspec.ValidationError as err:
            choices = _choices(TableOptions, err) or _choices(game.options, err)
            return _reject("bad_option", f"Invalid option: {err}.{choices}")
        problem = (
            _unbounded(msgspec.to_builtins(options))
            or clock_problem(table_options)
            or game.check_options(options, seats)
        )
        if problem:
            return _reject("bad_option", problem)
        if not 0 <= table_options.bots < seats:
            return _reject("bad_option", f"bots must be 0 to {seats - 1}: the creator sits too.")
        # the game's options in full; the table's only where they differ from the defaults
        stored = msgspec.to_builtins(options)
        stored.update(
            (k, v) for k, v in msgspec.to_builtins(table_options).items() if v != getattr(TableOptions(), k)
        )
        return [
            TableCreated(creator=actor, options=stored, seats=seats),
            PlayerJoined(player=actor),
            *(BotSeated(player=bot_seat(i)) for i in range(1, table_options.bots + 1)),
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
        options = msgspec.convert(game_options_of(table.options), game.options)
        # checked at create against the most seats; now against the players actually seated
        problem = game.check_options(options, len(table.players))
        if problem:
            return _reject("bad_option", problem)
        setup = game.setup(options, table.players, ctx.rng)
        if isinstance(setup, Rejection):
            return setup
        events = [TableStarted(players=list(table.players)), *setup]
        started = fold(self.evolve, events, table)
        return self._with_end(table, [*events, *self._charge(started, ctx.now)])

    def _with_end(self, table: Table, events: list[Event]) -> list[Event]:
        """Append `game_ended` when these events finish the game, or leave no person seated."""
        after = fold(self.evolve, events, table)
        if after.status != "running":
            return events
        if self.game.is_terminal(after.game):
            events.append(GameEnded(result=_with_departures(after, self.game.result(after.game))))
        elif not after.humans:
            events.append(GameEnded(result=_with_departures(after, _abandoned())))
        return events

    # --- evolve -----------------------------------------------------------------------------

    def evolve(self, table: Table, event: Event) -> Table:
        replace = msgspec.structs.replace
        match event:
            case TableCreated():
                setting = clock_setting(table_options_of(event.options))
                return replace(
                    table,
                    status="open",
                    creator=event.creator,
                    seat_count=event.seats,
                    options=event.options,
                    clock=None if setting is None else Clock(setting=setting),
                )
            case PlayerJoined():
                return replace(table, players=(*table.players, event.player))
            case BotSeated():
                return replace(
                    table, players=(*table.players, event.player), bots=(*table.bots, event.player)
                )
            case ClockCharged():
                return self._charged(table, event)
            case ClockExpired():
                return replace(table, timed_out=(*table.timed_out, event.player))
            case SeatZombied():
                table = replace(table, zombies=(*table.zombies, event.player))
                if event.reason == "quit":
                    table = replace(table, quitters=(*table.quitters, event.player))
                return table
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

    def _charged(self, table: Table, event: ClockCharged) -> Table:
        clock = table.clock
        if clock is None:
            return table
        if not clock.since:  # the start: every clock gets its bank
            remaining = {p: clock.setting.bank_ms for p in table.players}
        else:
            elapsed = ms_between(clock.since, event.at)
            running = self.running(table)
            remaining = {
                p: max(0, ms - elapsed) if p in running else ms for p, ms in clock.remaining_ms.items()
            }
            if event.player in running:
                remaining[event.player] += clock.setting.increment_ms
        return msgspec.structs.replace(
            table, clock=msgspec.structs.replace(clock, remaining_ms=remaining, since=event.at)
        )

    # --- clocks -----------------------------------------------------------------------------

    def running(self, table: Table) -> list[PlayerId]:
        """The seats whose clocks run: the humans who must act, at a table with clocks."""
        if table.clock is None or not table.clock.since or table.status != "running":
            return []
        humans = table.humans
        return [p for p in self.players_to_act(table) if p in humans]

    def deadline(self, table: Table) -> str | None:
        """When the first running clock runs out (UTC), None when no clock runs."""
        running = self.running(table)
        if table.clock is None or not running:
            return None
        return later(table.clock.since, min(table.clock.remaining_ms[p] for p in running))

    def out_of_time(self, table: Table, now: str) -> list[PlayerId]:
        """The running seats whose clocks have run out at `now`."""
        clock = table.clock
        if clock is None or not now:
            return []
        elapsed = ms_between(clock.since, now)
        return [p for p in self.running(table) if clock.remaining_ms[p] <= elapsed]

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
        if table.clock is not None:
            view["clock"] = {
                "remaining_ms": dict(table.clock.remaining_ms),
                "running": self.running(table),
                "since": table.clock.since or None,
                "deadline": self.deadline(table),
                "increment_ms": table.clock.setting.increment_ms,
            }
        if table.bots:
            view["bots"] = list(table.bots)
        if table.zombies:
            view["zombies"] = list(table.zombies)
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
            case BotSeated(player=player):
                return f"{player}, a bot, sat down"
            case ClockCharged():
                return None
            case ClockExpired(player=player):
                return f"{player} ran out of time"
            case SeatZombied(player=player, reason="quit"):
                return f"{player} left the game; a bot plays that seat from now on"
            case SeatZombied(player=player):
                return f"A bot plays {player}'s seat from now on"
        return self.game.describe(event, viewer)

    def lobby_entry(self, table: Table) -> dict[str, Any]:
        """What the lobby shows of a table (with its bot and zombie seats, if any)."""
        entry: dict[str, Any] = {
            "status": table.status,
            "seats": list(table.players),
            "seat_count": table.seat_count,
            "creator": table.creator,
            "options": table.options,
        }
        if table.bots:
            entry["bots"] = list(table.bots)
        if table.zombies:
            entry["zombies"] = list(table.zombies)
        return entry


def _abandoned(*, expired: bool = False) -> Result:
    details: dict[str, Any] = {"abandoned": True}
    if expired:
        details["expired"] = True
    return Result(scores={}, ranking=[], winners=[], details=details)


def _with_departures(table: Table, result: Result) -> Result:
    """`result` naming the seats whose players quit (`abandoned_seats`) or ran out of time
    (`timed_out`); with `on_timeout: lose`, those who ran out of time rank last."""
    details = dict(result.details)
    if table.quitters:
        details["abandoned_seats"] = list(table.quitters)
    if table.timed_out:
        details["timed_out"] = list(table.timed_out)
    result = msgspec.structs.replace(result, details=details)
    if table.table_options.on_timeout == "lose" and table.timed_out and result.ranking:
        return _ranked_last(result, table.timed_out)
    return result


def _ranked_last(result: Result, losers: Sequence[PlayerId]) -> Result:
    """`result` with `losers` moved after everyone else (sharing the last rank), and out of the
    winners."""
    kept = [s for s in result.ranking if s.player not in losers]
    last = len(kept) + 1
    moved = [
        Standing(player=s.player, rank=last, score=s.score) for s in result.ranking if s.player in losers
    ]
    first = kept[0].rank if kept else None
    return msgspec.structs.replace(
        result, ranking=kept + moved, winners=[s.player for s in kept if s.rank == first]
    )


def _lost_on_time(table: Table) -> Result:
    """A two-player game ended by a clock: who did not run out of time wins."""
    standing = [p for p in table.players if p not in table.timed_out]
    scores: dict[PlayerId, float | int] = {p: int(p in standing) for p in table.players}
    ranking = [
        Standing(player=p, rank=1 if p in standing else len(standing) + 1, score=scores[p])
        for p in (*standing, *table.timed_out)
    ]
    return Result(
        scores=scores,
        ranking=ranking,
        winners=standing,
        details={"timed_out": list(table.timed_out), "lost_on_time": True},
    )


def _said_result(result: Result) -> str:
    """The end of a game in words: who won, the scores in ranking order, or why nobody did."""
    if result.details.get("expired"):
        return "Nobody started the game in time: the table expired"
    if result.details.get("abandoned") and (
        result.details.get("abandoned_seats") or result.details.get("timed_out")
    ):
        return "No player is left at the table: it is closed"
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
