"""Histories of events for the Naishi rules tests (given/when/then is `shared.games.testing.Given`)."""

from __future__ import annotations

from collections.abc import Sequence

from shared.games.decider import Event
from shared.games.naishi.components import development_deck
from shared.games.naishi.messages import GameSetUp, HandsShuffled

ANN, BOB = "ann", "bob"

# Letters of RULES.md 1.4 -> kinds.
LETTERS = {
    "M": "mountain",
    "N": "naishi",
    "A": "councillor",
    "F": "fort",
    "S": "sentinel",
    "T": "torii",
    "K": "monk",
    "R": "rice",
    "B": "banner",
    "H": "knight",
    "O": "ronin",
    "X": "ninja",
}

ANN_LINE = [f"mountain_{n}" for n in range(1, 6)]
ANN_HAND = ["mountain_6", "naishi_1", "mountain_7", "fort_1", "mountain_8"]
BOB_LINE = [f"mountain_{n}" for n in range(9, 14)]
BOB_HAND = ["councillor_1", "mountain_14", "sentinel_1", "mountain_15", "mountain_16"]
USED = set(ANN_HAND) | set(BOB_HAND)
RIVER_CARDS = [c for c in development_deck() if c not in USED]  # 30 cards
FULL_RIVER = [RIVER_CARDS[i * 6 : (i + 1) * 6] for i in range(5)]


def grid_from(line: str, hand: str) -> dict[tuple[int, int], str]:
    """`"F,S,A,B,R"`, `"F,M,N,R,R"` -> the kinds on a 2x5 grid."""
    grid = {(0, i): LETTERS[c] for i, c in enumerate(line.split(","))}
    grid.update({(1, i): LETTERS[c] for i, c in enumerate(hand.split(","))})
    return grid


def start(
    *,
    first: str = ANN,
    ann_line: Sequence[str] = ANN_LINE,
    ann_hand: Sequence[str] = ANN_HAND,
    bob_line: Sequence[str] = BOB_LINE,
    bob_hand: Sequence[str] = BOB_HAND,
    river: Sequence[Sequence[str]] = FULL_RIVER,
) -> list[Event]:
    """A game after the opening exchange, with these cards: the first player to act."""
    hands: dict[str, list[str | None]] = {ANN: list(ann_hand), BOB: list(bob_hand)}
    return [
        GameSetUp(
            players=[ANN, BOB],
            first_player=first,
            lines={ANN: list(ann_line), BOB: list(bob_line)},
            hands=hands,
            river=[list(p) for p in river],
        ),
        HandsShuffled(hands=hands),
    ]
