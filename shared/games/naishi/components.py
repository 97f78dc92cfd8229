"""Naishi's components and fixed numbers as data (RULES.md 1.2), and the ASSUMED values.

Every card has a stable id `<kind>_<n>` (`rice_3`, `mountain_12`): the 34 Development cards
and the 16 Mountains, 50 cards in all, each exactly once somewhere on the table.
"""

from __future__ import annotations

from typing import Final, Literal

# kind -> (copies, colour, family). Family: "character" (square icon, a Ninja may copy it),
# "province" (hexagon icon), "mountain" (no icon). Source: gamepark CardId.ts (RULES.md 1.2).
CARD_KINDS: Final[dict[str, tuple[int, str, str]]] = {
    "naishi": (2, "pink", "character"),
    "councillor": (4, "purple", "character"),
    "fort": (4, "brown", "province"),
    "sentinel": (4, "green", "character"),
    "torii": (4, "red", "province"),
    "monk": (3, "orange", "character"),
    "rice": (5, "yellow", "province"),
    "banner": (2, "light_blue", "province"),
    "knight": (2, "dark_blue", "character"),
    "ronin": (2, "turquoise", "character"),
    "ninja": (2, "black", "character"),
}
MOUNTAIN: Final = "mountain"
MOUNTAIN_COLOUR: Final = "white"
NINJA: Final = "ninja"

LINE_SIZE: Final = 5  # positions 1..5 of a Line, of a Hand, and River piles
LINE_MOUNTAINS: Final = 5  # Mountains in each Line at setup (Naishi 3)
HAND_MOUNTAINS: Final = 3  # Mountains in each Hand at setup (Naishi 4)
DEALT_PER_PLAYER: Final = 2  # Development cards dealt to each Hand (Naishi 4)
RIVER_PILES: Final = 5
PILE_SIZE: Final = 6
EMISSARIES_PER_PLAYER: Final = 2  # Naishi 2

# The Imperial Court: spot id -> action. Swap x3, Discard-2-River x2, Decree x1 (gamepark
# CourtAction.ts). The lowest-numbered free spot of a kind is the one an Emissary takes.
COURT_SPOTS: Final[dict[str, str]] = {
    "swap_1": "swap",
    "swap_2": "swap",
    "swap_3": "swap",
    "discard_1": "discard",
    "discard_2": "discard",
    "decree": "decree",
}

ROWS: Final = ("line", "hand")
SWAP_KINDS: Final = ("river", "line", "hand", "hand_line")

# --- ASSUMED (RULES.md 1.3 #5 and #6): kept here and in the options, never in the code -------

# Who takes the first turn (table option `first_player`): "random" is BGA's default (ASSUMED).
FirstPlayer = Literal["random", "first_seat", "second_seat"]
DEFAULT_FIRST_PLAYER: Final[FirstPlayer] = "random"
# Tie-breaks after the score, in order (Naishi 15): more distinct colours; players still equal
# share the victory (the second-level tie-break is ASSUMED to be a shared result).
TIE_BREAKS: Final = ("colours",)


def development_deck() -> list[str]:
    """The 34 Development card ids, in a fixed order (shuffled by setup)."""
    return [f"{kind}_{n}" for kind, (copies, _, _) in CARD_KINDS.items() for n in range(1, copies + 1)]


def mountain_ids() -> list[str]:
    """The 16 Mountain ids."""
    count = 2 * (LINE_MOUNTAINS + HAND_MOUNTAINS)
    return [f"{MOUNTAIN}_{n}" for n in range(1, count + 1)]


def all_cards() -> list[str]:
    return development_deck() + mountain_ids()


def kind_of(card: str) -> str:
    """`rice_3` -> `rice`."""
    return card.rsplit("_", 1)[0]


def colour_of(kind: str) -> str:
    return MOUNTAIN_COLOUR if kind == MOUNTAIN else CARD_KINDS[kind][1]


def is_character(kind: str) -> bool:
    return kind in CARD_KINDS and CARD_KINDS[kind][2] == "character"


# The kinds a Ninja may copy (Naishi 16): characters other than the Ninja itself.
COPIABLE: Final = tuple(k for k in CARD_KINDS if is_character(k) and k != NINJA)
# The 10 kinds the Ronin counts (Mountains and Ninjas never count).
RONIN_KINDS: Final = tuple(k for k in CARD_KINDS if k != NINJA)
