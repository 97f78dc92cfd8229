"""The table life shared by every game, written once, composed of small deciders:

- `seating`: create, join, leave, start;
- `moves`: a seat's game command (the game's `decide` guards the turn: `turns`);
- `stand_ins`: quitting, and the bot service playing for bot and zombie seats;
- `expiry`: an open table nobody started, a clock run out (`table_clock` keeps the clocks);
- `results`: how the game ended, appended to whichever batch ends it;
- `rematch`: after the end, a player offers the next table;
- `take_back`: a move that revealed nothing, taken back by its player until another acts;
- `seeding`: the table's seed, committed at create, revealed at the end; every draw from it;
- `table_views`: views, legal moves, the lobby entry and the table's events in words.

`TableDecider(game)` is the Decider the shell runs: its commands are the table commands plus
the game's, its events the table events plus the game's, and its state a `Table` holding the
game's own state once the game has started.
"""

from __future__ import annotations

import typing
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from functools import cached_property, partial
from typing import Any

import msgspec

from shared.games import (
    expiry,
    moves,
    rematch,
    seating,
    seeding,
    stand_ins,
    table_clock,
    table_views,
    take_back,
)
from shared.games.clock import TABLE_OPTION_NAMES
from shared.games.decider import (
    Command,
    Context,
    Event,
    Game,
    Language,
    PlayerId,
    Rejection,
    View,
    fold,
    type_tag,
)
from shared.games.results import ending, game_ended
from shared.games.table_messages import (
    BOT_SEAT_PREFIX,
    BOTS_PLAYER,
    RESERVED_EVENT_TYPES,
    RESERVED_VIEW_KEYS,
    SERVICE_PLAYER,
    TABLE_COMMANDS,
    TABLE_EVENTS,
    BotSeated,
    ClockCharged,
    ClockExpired,
    Create,
    Deadline,
    DeclineRematch,
    DrawsMade,
    Expire,
    GameEnded,
    Join,
    Leave,
    MoveTakenBack,
    PlayerJoined,
    PlayerLeft,
    PlayFor,
    Quit,
    Rematch,
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
from shared.games.turns import GAME_OVER

__all__ = [
    "BOTS_PLAYER",
    "BOT_SEAT_PREFIX",
    "RESERVED_VIEW_KEYS",
    "SERVICE_PLAYER",
    "TABLE_COMMANDS",
    "TABLE_EVENTS",
    "BotSeated",
    "ClockCharged",
    "ClockExpired",
    "Create",
    "Deadline",
    "DeclineRematch",
    "DrawsMade",
    "Expire",
    "GameEnded",
    "Join",
    "Leave",
    "MoveTakenBack",
    "PlayFor",
    "PlayerJoined",
    "PlayerLeft",
    "Quit",
    "Rematch",
    "RematchDeclined",
    "RematchOffered",
    "SeatZombied",
    "SeedCommitted",
    "SeedRevealed",
    "Start",
    "Table",
    "TableCreated",
    "TableDecider",
    "TableExpired",
    "TableStarted",
    "TakeBackPoint",
    "TakeBacksClosed",
    "Undo",
]

Decision = Sequence[Event] | Rejection


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

    @cached_property
    def _deciders(self) -> dict[type[Command], Callable[[Table, Any, Context], Decision]]:
        """The decider of each table command; any other command is a seat's game move."""
        game = self.game
        return {
            Join: partial(seating.join, game),
            Leave: seating.leave,
            Start: partial(seating.start, game),
            Expire: expiry.expire,
            Deadline: partial(expiry.deadline, game),
            Quit: stand_ins.quit_game,
            PlayFor: partial(stand_ins.play_for, game, self.game_command_type),
            Undo: take_back.undo,
        }

    def decide(self, table: Table, command: Command, ctx: Context) -> Decision:
        if isinstance(command, Create):
            return seating.create(self.game, table, command, ctx)
        if table.status == "new":
            return Rejection("unknown_table", "There is no such table; create it first.")
        if isinstance(command, Rematch):
            return rematch.offer(table, command, ctx)
        if isinstance(command, DeclineRematch):
            return rematch.decline(table, command, ctx)
        if table.status == "ended":
            return GAME_OVER
        decider = self._deciders.get(type(command), partial(moves.move, self.game))
        # a running game draws from its seed; the start draws from the seed it fixes itself
        draws = seeding.draws_for(table) if table.status == "running" else None
        events = decider(table, command, ctx if draws is None else replace(ctx, rng=draws))
        if isinstance(events, Rejection):
            return events
        events = self._with_end(table, [*events, *seeding.drawn(draws)])
        return seeding.revealed_at_end(
            self.evolve, table, take_back.marked(self.game, table, command, ctx.actor, events)
        )

    def _with_end(self, table: Table, events: list[Event]) -> list[Event]:
        """`events`, then `game_ended` when they finish the game or leave no person seated."""
        end = ending(self.game, fold(self.evolve, events, table))
        return events if end is None else [*events, end]

    # --- evolve -----------------------------------------------------------------------------

    @cached_property
    def _evolvers(self) -> dict[type[Event], Callable[[Table, Any], Table]]:
        """How each table event changes the table; any other event is the game's."""
        return {
            TableCreated: seating.created,
            PlayerJoined: seating.joined,
            PlayerLeft: seating.left,
            TableStarted: partial(seating.started, self.game),
            BotSeated: stand_ins.bot_seated,
            SeatZombied: stand_ins.seat_zombied,
            ClockCharged: partial(table_clock.charged, self.game),
            ClockExpired: table_clock.clock_expired,
            TableExpired: expiry.table_expired,
            GameEnded: game_ended,
            RematchOffered: rematch.offered,
            RematchDeclined: rematch.declined,
            TakeBackPoint: take_back.point,
            TakeBacksClosed: take_back.closed,
            MoveTakenBack: take_back.taken_back,
            SeedCommitted: seeding.committed,
            DrawsMade: seeding.draws_made,
            SeedRevealed: seeding.seed_revealed,
        }

    def evolve(self, table: Table, event: Event) -> Table:
        evolver = self._evolvers.get(type(event))
        if evolver is None:
            return msgspec.structs.replace(table, game=self.game.evolve(table.game, event))
        return evolver(table, event)

    # --- clocks -----------------------------------------------------------------------------

    def running(self, table: Table) -> list[PlayerId]:
        return table_clock.running(self.game, table)

    def deadline(self, table: Table) -> str | None:
        return table_clock.deadline(self.game, table)

    def out_of_time(self, table: Table, now: str) -> list[PlayerId]:
        return table_clock.out_of_time(self.game, table, now)

    # --- queries ----------------------------------------------------------------------------

    def is_terminal(self, table: Table) -> bool:
        return table.status == "ended"

    def players_to_act(self, table: Table) -> list[PlayerId]:
        return players_to_act(self.game, table)

    def legal_commands(self, table: Table, player: PlayerId) -> list[Command]:
        return table_views.legal(self.game, table, player, self.players_to_act(table))

    def player_view(self, table: Table, viewer: PlayerId | None) -> View:
        return table_views.player_view(self.game, table, viewer)

    def player_views(self, table: Table, viewers: Sequence[PlayerId | None]) -> list[View]:
        """Each viewer's `player_view`, what they see alike made once."""
        return table_views.player_views(self.game, table, viewers)

    def redact(self, event: Event, viewer: PlayerId | None) -> Event | None:
        if self._kind(event)[0]:
            return seeding.redacted(event)
        return self.game.redact(event, viewer)

    def seen_alike(self, event: Event) -> bool:
        """Whether every viewer sees `event` and says it alike: the table's own events (their
        redaction and words name no viewer), and those the game says so of (`Game.seen_alike`)."""
        return self._kind(event)[1]

    def _kind(self, event: Event) -> tuple[bool, bool]:
        """Whether `event` is the table's own, and whether every viewer sees it alike, known
        by its type: asked per event per viewer, where an isinstance check against a tuple of
        event types costs a microsecond."""
        found = self._kinds.get(type(event))
        if found is None:
            own = isinstance(event, TABLE_EVENTS)
            found = self._kinds[type(event)] = (own, own or isinstance(event, tuple(self.game.seen_alike)))
        return found

    @cached_property
    def _kinds(self) -> dict[type[Event], tuple[bool, bool]]:
        return {}

    def describe(self, event: Event, viewer: PlayerId | None, language: Language = "en") -> str | None:
        """One event in words for the game log: the table's own, the game's by the game."""
        if self._kind(event)[0]:
            return table_views.describe_table_event(event, language)
        if language == "fr" and self.game.describe_fr is not None:
            return self.game.describe_fr(event, viewer)
        return self.game.describe(event, viewer)

    def lobby_entry(self, table: Table) -> dict[str, Any]:
        return table_views.lobby_entry(table)
