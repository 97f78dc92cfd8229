"""Illustori's options, commands and events: the schema is the documentation."""

from __future__ import annotations

from typing import Annotated

from shared.games.decider import LANGUAGE_NAMES, Command, Event, Options, PlayerId, explained
from shared.games.illustori.chaining import Rules
from shared.games.illustori.data import DEFAULT_DECK_SIZE, Language, Mode, ReverseDirection


class IllustoriOptions(Options, frozen=True, kw_only=True):
    # "english" | "english_reverse" | "german_reverse" (Illustori 9-11)
    mode: Annotated[
        Mode,
        explained(
            "How texts chain: by their last letter (English), or reversed (English or German reverse)."
        ),
    ] = "english"
    # reverse modes: the new text "start"s or "end"s (5.3-2)
    reverse_direction: Annotated[
        ReverseDirection, explained("Reverse modes only: whether a new text starts or ends with the letter.")
    ] = "start"
    no_repeated_letter: Annotated[  # Illustori 13
        bool, explained("A text whose first and last letters are the same is penalised.")
    ] = False
    no_used_letters: Annotated[  # Illustori 14-15
        bool, explained("A text's free end may not be a letter that began or ended an earlier text.")
    ] = False
    deck_size: Annotated[  # ASSUMED 60 (5.2)
        int, explained("Cards in the deck: at least 5 per player and one more, at most 60.")
    ] = DEFAULT_DECK_SIZE
    language: Annotated[  # "en" | "fr": the words of the example texts in `legal`
        Language, explained("The language of the example texts offered.", LANGUAGE_NAMES)
    ] = "en"


# --- commands -------------------------------------------------------------------------------


class ProposeStart(Command, frozen=True, kw_only=True):
    """The first player names the starting card (Illustori 2)."""

    text: str


class PlayCard(Command, frozen=True, kw_only=True):
    """Chain: a card from the hand with a text that follows the chaining rule (Illustori 4)."""

    card: str
    text: str


class SwapCards(Command, frozen=True, kw_only=True):
    """Discard one or more hand cards and draw as many (Illustori 5)."""

    cards: list[str]


class PassTurn(Command, frozen=True, kw_only=True):
    """Only when the stack and the discard pile are both empty (Illustori 5, ASSUMED)."""


class Vote(Command, frozen=True, kw_only=True):
    """Every other player votes on the proposed text (Illustori 6)."""

    yes: bool


COMMANDS: tuple[type[Command], ...] = (ProposeStart, PlayCard, SwapCards, PassTurn, Vote)


# --- events ---------------------------------------------------------------------------------


class GameSetUp(Event, frozen=True, kw_only=True):
    """Cards shuffled and dealt, the top card revealed as the starting card (Illustori 1-2)."""

    players: list[PlayerId]  # turn order; the first names the starting card
    rules: Rules
    hands: dict[PlayerId, list[str | None]]  # None: a card this viewer may not see
    stack: list[str | None]  # the draw stack, top first
    start_card: str


class StartProposed(Event, frozen=True, kw_only=True):
    player: PlayerId
    text: str


class StartPenalised(Event, frozen=True, kw_only=True):
    """A starting text failing a penalty rule: rejected without a vote, named again."""

    player: PlayerId
    text: str
    reasons: list[str]


class CardPlayed(Event, frozen=True, kw_only=True):
    """A chain proposed: the card is on the table, waiting for the vote."""

    player: PlayerId
    card: str
    text: str


class CardPenalised(Event, frozen=True, kw_only=True):
    """Automatic failure (Illustori 7): the card goes to the discard pile, no vote."""

    player: PlayerId
    card: str
    text: str
    reasons: list[str]


class VoteCast(Event, frozen=True, kw_only=True):
    player: PlayerId
    yes: bool | None  # None: secret for this viewer (revealed by `vote_closed`)


class VoteClosed(Event, frozen=True, kw_only=True):
    """All votes in: accepted iff yes-votes x 2 >= voters (Illustori 6)."""

    votes: dict[PlayerId, bool]
    accepted: bool


class CardsSwapped(Event, frozen=True, kw_only=True):
    player: PlayerId
    cards: list[str]  # discarded face up


class StackReshuffled(Event, frozen=True, kw_only=True):
    """The discard pile shuffled into a new stack (Illustori 18, ASSUMED)."""

    stack: list[str | None]  # top first; None: the order is secret


class CardsDrawn(Event, frozen=True, kw_only=True):
    player: PlayerId
    cards: list[str | None]  # None for the viewers who may not see them


class TurnPassed(Event, frozen=True, kw_only=True):
    player: PlayerId


class LastRoundStarted(Event, frozen=True, kw_only=True):
    """A hand became empty (Illustori 16): the game ends after the first player's turn."""

    player: PlayerId


class TurnEnded(Event, frozen=True, kw_only=True):
    player: PlayerId
    accepted: bool  # a chain (or the starting text) accepted this turn
    next_player: PlayerId | None  # None: the game is over


class UsedLettersCleared(Event, frozen=True, kw_only=True):
    """U emptied (Illustori 15): "all_failed" (a) or "alphabet_full" (b)."""

    reason: str


EVENTS: tuple[type[Event], ...] = (
    GameSetUp,
    StartProposed,
    StartPenalised,
    CardPlayed,
    CardPenalised,
    VoteCast,
    VoteClosed,
    CardsSwapped,
    StackReshuffled,
    CardsDrawn,
    TurnPassed,
    LastRoundStarted,
    TurnEnded,
    UsedLettersCleared,
)
