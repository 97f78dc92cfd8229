"""Naishi's options, commands and events: the wire schema (docs/games/naishi.md).

Positions are 1..5 on the wire (Line, Hand and River piles alike); rows are "line" or "hand".
Cards are ids `<kind>_<n>` (components.py). A `None` card in an event is a card the viewer of a
replay may not see (redact).
"""

from __future__ import annotations

from typing import Annotated

from shared.games.decider import Command, Event, Options, PlayerId, explained
from shared.games.naishi.components import DEFAULT_FIRST_PLAYER, FirstPlayer


class NaishiOptions(Options, frozen=True, kw_only=True):
    # "random" (BGA's default, ASSUMED), "first_seat" or "second_seat" (Naishi 1).
    first_player: Annotated[
        FirstPlayer, explained("Who plays first: drawn at random, or the first or second seat.")
    ] = DEFAULT_FIRST_PLAYER


# --- commands -------------------------------------------------------------------------------


class GiveCard(Command, frozen=True, kw_only=True):
    """Opening exchange (Naishi 5): the Development card given to the opponent."""

    card: str


class Develop(Command, frozen=True, kw_only=True):
    """Main action (Naishi 7): replace your card at (row, position) by River pile `position`."""

    row: str
    position: int


class SwapCards(Command, frozen=True, kw_only=True):
    """Bonus action (Naishi 8): an Emissary on a Swap spot. `kind` is "river" (the revealed
    cards of piles first and second), "line", "hand" (two positions of that row) or
    "hand_line" (Hand and Line at position `first`; `second` omitted or equal)."""

    kind: str
    first: int
    second: int | None = None


class DiscardRiverCards(Command, frozen=True, kw_only=True):
    """Bonus action (Naishi 8): an Emissary on a Discard spot; discard the revealed cards of
    piles `first` and `second`."""

    first: int
    second: int


class ImposeDecree(Command, frozen=True, kw_only=True):
    """Main action (Naishi 9): exchange your card at (row, position) with the opponent's."""

    row: str
    position: int


class RecallEmissaries(Command, frozen=True, kw_only=True):
    """Main action (Naishi 10)."""


class DeclareEnd(Command, frozen=True, kw_only=True):
    """Main action (Naishi 11)."""


class EndTurn(Command, frozen=True, kw_only=True):
    """After a Develop, give up the bonus action still open to you."""


class ChooseNinjaCopy(Command, frozen=True, kw_only=True):
    """End of game (Naishi 16): what your Ninja at (row, position) copies."""

    row: str
    position: int
    copies: str


COMMANDS = (
    GiveCard,
    Develop,
    SwapCards,
    DiscardRiverCards,
    ImposeDecree,
    RecallEmissaries,
    DeclareEnd,
    EndTurn,
    ChooseNinjaCopy,
)


# --- events ---------------------------------------------------------------------------------


class GameSetUp(Event, frozen=True, kw_only=True):
    """Setup (Naishi 1-4). `hands`: each player's 5 Hand cards before the exchange (3 Mountains
    and 2 Development cards, unordered); `river`: 5 piles, top card first."""

    players: list[PlayerId]  # in seat order
    first_player: PlayerId
    lines: dict[PlayerId, list[str]]
    hands: dict[PlayerId, list[str | None]]
    river: list[list[str | None]]


class CardsDealtLogged(GameSetUp, frozen=True, kw_only=True, tag="cards_dealt"):
    """`game_set_up` as logs written before the setup events had one name call it: still
    decoded, and folded like `game_set_up`."""


class CardGiven(Event, frozen=True, kw_only=True):
    player: PlayerId
    card: str | None  # None for the other viewers


class HandsShuffled(Event, frozen=True, kw_only=True):
    """The exchange is done (Naishi 5): each Hand, in positions 1..5."""

    hands: dict[PlayerId, list[str | None]]  # None for the cards the viewer may not see


class Developed(Event, frozen=True, kw_only=True):
    player: PlayerId
    row: str
    position: int
    discarded: str  # the card that left the territory (public: the Discard is face up)
    taken: str  # the River card that replaced it
    revealed: str | None  # the next card of the pile, or None when the pile is now empty


class CardsSwapped(Event, frozen=True, kw_only=True):
    player: PlayerId
    spot: str  # the Court spot the Emissary took
    kind: str
    first: int
    second: int


class RiverCardsDiscarded(Event, frozen=True, kw_only=True):
    player: PlayerId
    spot: str
    piles: list[int]
    discarded: list[str]
    revealed: list[str | None]


class DecreeImposed(Event, frozen=True, kw_only=True):
    player: PlayerId
    row: str
    position: int


class EmissariesRecalled(Event, frozen=True, kw_only=True):
    player: PlayerId
    spots: list[str]


class EndTriggered(Event, frozen=True, kw_only=True):
    """Naishi 11-12. `final_player` plays one last turn; None: the game ends with this turn."""

    player: PlayerId
    reason: str  # "declared" or "two_piles_empty"
    final_player: PlayerId | None


class TurnPassed(Event, frozen=True, kw_only=True):
    """Naishi 13: the player had no main action."""

    player: PlayerId


class TurnEnded(Event, frozen=True, kw_only=True):
    player: PlayerId
    next_player: PlayerId | None  # None: the turns are over


class HandsRevealed(Event, frozen=True, kw_only=True):
    """Naishi 14: both Hands laid under the Lines, positions unchanged."""

    hands: dict[PlayerId, list[str]]


class NinjaCopied(Event, frozen=True, kw_only=True):
    player: PlayerId
    row: str
    position: int
    copies: str | None  # None: no character to copy
    automatic: bool


EVENTS: tuple[type[Event], ...] = (
    GameSetUp,
    CardsDealtLogged,
    CardGiven,
    HandsShuffled,
    Developed,
    CardsSwapped,
    RiverCardsDiscarded,
    DecreeImposed,
    EmissariesRecalled,
    EndTriggered,
    TurnPassed,
    TurnEnded,
    HandsRevealed,
    NinjaCopied,
)
