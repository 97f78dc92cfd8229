"""The table's own wire schema, shared by every game: its commands, its events, and the names
and view keys it reserves. The deciders that act on them are `shared.games.seating`,
`stand_ins`, `table_clock`, `turns` and `results`; `shared.games.table` composes them.
"""

from __future__ import annotations

from typing import Any, Literal

from shared.games.decider import Command, Event, PlayerId, Result, type_tag
from shared.games.draws import Receipt

# --- table commands -------------------------------------------------------------------------


class Create(Command, frozen=True, kw_only=True):
    options: dict[str, Any] = {}
    seats: int | None = None  # the most players the table takes; the game's maximum if unset
    entropy: str = ""  # the creator's own randomness for the table's seed (docs/fairness.md)


class Join(Command, frozen=True, kw_only=True):
    entropy: str = ""  # the player's own randomness for the table's seed


class Leave(Command, frozen=True, kw_only=True):
    pass


class Start(Command, frozen=True, kw_only=True):
    pass


class Expire(Command, frozen=True, kw_only=True):
    """Sent by the service itself for an open table nobody started in time, or a running
    table without clocks where nobody moved for long."""


class Quit(Command, frozen=True, kw_only=True):
    """A seated player leaves a running game: a bot plays the seat from then on."""


class Deadline(Command, frozen=True, kw_only=True):
    """Sent by the service itself when a clock may have run out; its envelope's `expect` is
    the table version the deadline was set for, so a late or repeated one does nothing."""


class PlayFor(Command, frozen=True, kw_only=True):
    """Sent by the bot service: `command` (one of the game's) played for a bot or zombie seat."""

    seat: PlayerId
    command: dict[str, Any]


class Rematch(Command, frozen=True, kw_only=True):
    """A seated player of an ended table offers the next one: `table`, a table of the same
    game they created for it (its players find it in this table's view, under `rematch`)."""

    table: str


class DeclineRematch(Command, frozen=True, kw_only=True):
    """A seated player of an ended table says they will not play the rematch offered."""


class Undo(Command, frozen=True, kw_only=True):
    """A seated player takes back their own last move, offered while that move revealed
    nothing and nobody else has acted since (`take_back`)."""


TABLE_COMMANDS: tuple[type[Command], ...] = (
    Create,
    Join,
    Leave,
    Start,
    Expire,
    Quit,
    Deadline,
    PlayFor,
    Rematch,
    DeclineRematch,
    Undo,
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
    entropy: str = ""  # public: hex, part of the table's seed


class SeedCommitted(Event, frozen=True, kw_only=True):
    """The SHA-256 of the table's secret, before anyone sits: every draw comes from the secret
    and the players' entropy. `secret` is in the log only: every viewer's copy is blanked."""

    commitment: str
    secret: str | None = None


class DrawsMade(Event, frozen=True, kw_only=True):
    """The draws of one command, blocks `first` to `first + blocks - 1` of the table's
    generator; `receipts` (what each was drawn from) is in the log only until `seed_revealed`."""

    first: int
    blocks: int
    receipts: list[Receipt] | None = None


class SeedRevealed(Event, frozen=True, kw_only=True):
    """The table ended: its secret, and every draw's receipt by its first block, for anyone to
    draw them again (docs/fairness.md)."""

    secret: str
    draws: dict[int, list[Receipt]] = {}


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


class RematchOffered(Event, frozen=True, kw_only=True):
    table: str
    by: PlayerId


class RematchDeclined(Event, frozen=True, kw_only=True):
    player: PlayerId


class TakeBackPoint(Event, frozen=True, kw_only=True):
    """The move that follows in this batch may be taken back by `player`: the table keeps the
    game's state from before it."""

    player: PlayerId


class TakeBacksClosed(Event, frozen=True, kw_only=True):
    """Someone else acted, or a move revealed something: no move before can be taken back."""


class MoveTakenBack(Event, frozen=True, kw_only=True):
    """`player` took back their last move: the game is as it was before it."""

    player: PlayerId


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
    RematchOffered,
    RematchDeclined,
    TakeBackPoint,
    TakeBacksClosed,
    MoveTakenBack,
    SeedCommitted,
    DrawsMade,
    SeedRevealed,
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
        "rematch",
    }
)
