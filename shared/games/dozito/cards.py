"""Dozito's data: the deck tables and every value RULES.md 2 marks ASSUMED, in one place.

A deck is a JSON file `deck_<name>.json` next to this module: a list of cards
`{id, colour, number, kind, suns}` (`number` is null for a Joker; `kind` is one of normal,
joker, stop, replay). The table option `deck` names the file; the default is the composition
RULES.md 2.2 assumes (`deck_standard.json`). Drop the real composition in as a new file.
"""

from __future__ import annotations

import json
from importlib import resources
from typing import Literal

import msgspec

Kind = Literal["normal", "joker", "stop", "replay"]


class Card(msgspec.Struct, frozen=True, kw_only=True):
    """One card of the deck table (public: the composition of the deck is no secret)."""

    id: str
    colour: str
    number: int | None  # 1..12; None for a Joker
    kind: Kind
    suns: int


# --- the grid (Dozito 2.1 "Grid"; layout ASSUMED) -------------------------------------------

GRID_COLUMNS = 4  # ASSUMED: 4 columns x 3 rows, slots numbered row-major
GRID_ROWS = 3
SLOTS = tuple(range(1, GRID_COLUMNS * GRID_ROWS + 1))  # 1..12


def neighbours(slot: int) -> tuple[int, ...]:
    """The orthogonally adjacent slots of `slot` in the row-major layout."""
    row, col = divmod(slot - 1, GRID_COLUMNS)
    out = []
    for r, c in ((row - 1, col), (row + 1, col), (row, col - 1), (row, col + 1)):
        if 0 <= r < GRID_ROWS and 0 <= c < GRID_COLUMNS:
            out.append(r * GRID_COLUMNS + c + 1)
    return tuple(out)


NEIGHBOURS: dict[int, tuple[int, ...]] = {s: neighbours(s) for s in SLOTS}

# --- the table (Dozito 2, 11, 12) -----------------------------------------------------------

DISCARD_PILES = 2  # seed 002
CARDS_PER_DISCARD_PILE_AT_SETUP = 1  # ASSUMED (Dozito 2)
# Group size -> points (Dozito 11, seed 002). A group of 12 wins the game instead.
GROUP_POINTS: dict[int, int] = {
    1: 0,
    2: 2,
    3: 5,
    4: 10,
    5: 16,
    6: 25,
    7: 35,
    8: 45,
    9: 55,
    10: 65,
    11: 75,
}
STOP_SUNS = 3  # seed 002: "STOP cards always have three suns" (checked on every deck)
Rounds = Literal[1, 3]  # seed 002: "1 or 3 rounds"
DEFAULT_ROUNDS: Rounds = 3
DEFAULT_DECK = "standard"

# --- the decks ------------------------------------------------------------------------------

_DECK_PREFIX = "deck_"


def check_deck(cards: list[Card]) -> str | None:
    """What is wrong with a deck table, or None when it is playable."""
    ids = [c.id for c in cards]
    if len(set(ids)) != len(ids):
        return "card ids must be unique"
    seen: set[tuple[str, int]] = set()
    for c in cards:
        if c.kind == "joker":
            if c.number is not None:
                return f"{c.id}: a Joker has no number"
        else:
            if c.number not in SLOTS:
                return f"{c.id}: a {c.kind} card needs a number in 1..{len(SLOTS)}"
            if (c.colour, c.number) in seen:
                return f"{c.id}: ({c.colour}, {c.number}) exists twice"
            seen.add((c.colour, c.number))
        if c.suns < 0:
            return f"{c.id}: suns cannot be negative"
        if c.kind == "stop" and c.suns != STOP_SUNS:
            return f"{c.id}: a STOP card has {STOP_SUNS} suns, not {c.suns}"
    return None


def _load_decks() -> dict[str, tuple[Card, ...]]:
    decks: dict[str, tuple[Card, ...]] = {}
    for entry in sorted(resources.files(__package__).iterdir(), key=lambda e: e.name):
        name = entry.name
        if not (name.startswith(_DECK_PREFIX) and name.endswith(".json")):
            continue
        cards = msgspec.convert(json.loads(entry.read_text("utf-8")), list[Card])
        problem = check_deck(cards)
        if problem:  # a broken data file is a programming error, not a player's
            raise ValueError(f"dozito {name}: {problem}")
        decks[name[len(_DECK_PREFIX) : -len(".json")]] = tuple(cards)
    return decks


DECKS: dict[str, tuple[Card, ...]] = _load_decks()


def cards_needed(players: int) -> int:
    """Cards a deal takes: a full grid each plus the discard piles' first cards (Dozito 1-2)."""
    return players * len(SLOTS) + DISCARD_PILES * CARDS_PER_DISCARD_PILE_AT_SETUP
