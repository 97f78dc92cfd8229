"""Dozito's commands and events: the schema is the documentation (docs/games/dozito.md).

Card identities travel as the deck table's string ids ("red-7", "blue-joker-2"). Only two
events carry hidden cards: `RoundDealt` (every face-down grid card and the draw pile's order)
and `DrawPileRebuilt` (the new draw pile's order); `redact` blanks those to None. Every card
any other event names was turned face up at that moment, in front of everyone.
"""

from __future__ import annotations

from typing import Annotated, Literal

import msgspec

from shared.games.decider import Command, Event, Options, PlayerId, explained
from shared.games.dozito.cards import DEFAULT_DECK, DEFAULT_ROUNDS, Card, Rounds


class DozitoOptions(Options, frozen=True, kw_only=True):
    rounds: Annotated[Rounds, explained("Rounds to play: 1 for a short game, 3 for the full one.")] = (
        DEFAULT_ROUNDS  # Dozito 12: 1 or 3
    )
    # the deck table file deck_<name>.json (composition ASSUMED)
    deck: Annotated[
        str,
        explained("The deck: standard (5 colours, 75 cards) or four_colours (60 cards, up to 4 players)."),
    ] = DEFAULT_DECK


# --- commands -------------------------------------------------------------------------------


class TakeDiscard(Command, frozen=True, kw_only=True):
    """Choice A (Dozito 4): take the top card of discard pile `pile` (0 or 1); you must place it."""

    pile: int


class DrawCard(Command, frozen=True, kw_only=True):
    """Choice B (Dozito 5): reveal the top card of the draw pile."""


class PlaceCard(Command, frozen=True, kw_only=True):
    """Put the card in hand face up into `slot` (1..12): its number's slot; any slot for a Joker."""

    slot: int


class DiscardCard(Command, frozen=True, kw_only=True):
    """Put the card in hand onto discard pile `pile` (0 or 1); the turn ends."""

    pile: int


COMMANDS: tuple[type[Command], ...] = (TakeDiscard, DrawCard, PlaceCard, DiscardCard)

# --- events ---------------------------------------------------------------------------------


class RoundScore(msgspec.Struct, frozen=True, kw_only=True):
    """One player's round score (Dozito 11): face-up cards only."""

    groups: list[int]  # the size of every colour group, largest first
    group_points: int
    suns: int
    total: int


class GameSetUp(Event, frozen=True, kw_only=True):
    """The game's constants: seating, number of rounds and the whole deck table (public)."""

    players: list[PlayerId]
    rounds: int
    deck: list[Card]


class RoundDealt(Event, frozen=True, kw_only=True):
    """Dozito 1-3: a shuffled deal. Hidden cards are None in what viewers see."""

    round: int
    first_player: PlayerId
    grids: dict[PlayerId, list[str | None]]  # slot 1..12 at index 0..11, all face down
    discards: list[list[str]]  # each pile bottom to top (face up, public)
    draw: list[str | None]  # top first


class DiscardTaken(Event, frozen=True, kw_only=True):
    player: PlayerId
    pile: int
    card: str


class DrawPileRebuilt(Event, frozen=True, kw_only=True):
    """Dozito 2.3-4: the discard piles but their top cards, shuffled into a new draw pile."""

    draw: list[str | None]  # top first; None in what viewers see


class CardDrawn(Event, frozen=True, kw_only=True):
    player: PlayerId
    card: str  # revealed to everyone (Dozito 5)


class CardPlaced(Event, frozen=True, kw_only=True):
    """The card in hand went into `slot`; `replaced` (now face up) became the card in hand."""

    player: PlayerId
    slot: int
    card: str
    replaced: str
    replaced_was_face_up: bool


class CardDiscarded(Event, frozen=True, kw_only=True):
    """The card in hand went onto discard pile `pile`; the turn is over."""

    player: PlayerId
    pile: int
    card: str
    extra_turn: bool  # Dozito 8: a Replay card discarded from the grid or the draw


class OneColourGridCompleted(Event, frozen=True, kw_only=True):
    """Dozito 11 and 2.3-9: a whole grid face up in one colour: that player wins at once."""

    player: PlayerId


class RoundEndTriggered(Event, frozen=True, kw_only=True):
    """Dozito 10: `player` ended a turn with 12 face-up cards; `last_turns` still play once."""

    player: PlayerId
    last_turns: list[PlayerId]


class TurnStarted(Event, frozen=True, kw_only=True):
    player: PlayerId
    extra_turn: bool = False  # Dozito 8


class RoundScored(Event, frozen=True, kw_only=True):
    round: int
    scores: dict[PlayerId, RoundScore]


EVENTS: tuple[type[Event], ...] = (
    GameSetUp,
    RoundDealt,
    DiscardTaken,
    DrawPileRebuilt,
    CardDrawn,
    CardPlaced,
    CardDiscarded,
    OneColourGridCompleted,
    RoundEndTriggered,
    TurnStarted,
    RoundScored,
)

HandFrom = Literal["discard", "draw", "grid"]
