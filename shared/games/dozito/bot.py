"""Dozito's bot: it plays from its own seat's view (and its `legal` list) only, as a
client would."""

from __future__ import annotations

import random
from typing import Any

import msgspec

from shared.games.decider import View
from shared.games.dozito.cards import NEIGHBOURS

_as_dict = msgspec.structs.asdict


EXPLORE = 0.1  # how often the bot plays a random legal command instead of its best guess


def _matches(grid: list[dict[str, Any] | None], slot: int, colour: str) -> int:
    """Face-up neighbours of `slot` of `colour`."""
    return sum(
        1 for n in NEIGHBOURS[slot] if (other := grid[n - 1]) is not None and other["colour"] == colour
    )


def _place_value(grid: list[dict[str, Any] | None], card: dict[str, Any], slot: int) -> float:
    """A rough worth of putting `card` into `slot`: revealing is progress; colour matches and
    suns are points."""
    here = grid[slot - 1]
    gain: float = 2 * _matches(grid, slot, card["colour"]) + card["suns"]
    if here is None:
        return 3 + gain
    return gain - 2 * _matches(grid, slot, here["colour"]) - float(here["suns"]) - 0.5


def bot(view: View, rng: random.Random) -> dict[str, Any]:
    """Greedy from its own seat's view: the best placement by `_place_value`, else discard."""
    legal = view["legal"]
    if rng.random() < EXPLORE:
        return dict(rng.choice(legal))
    grid = view["grids"][view["you"]]
    hand = view["hand"]

    def value(command: dict[str, Any]) -> float:
        match command["type"]:
            case "take_discard":
                card = view["discards"][command["pile"]]["top"]
                slots = range(1, len(grid) + 1) if card["number"] is None else [card["number"]]
                return max(_place_value(grid, card, s) for s in slots) - 1
            case "draw_card":
                return 1.5
            case "place_card":
                return _place_value(grid, hand, command["slot"])
            case "discard_card":
                return 4.0 if hand["kind"] == "replay" and view["hand_from"] != "discard" else 0.0
        return 0.0

    scored = [(value(c) + rng.random() * 0.01, c) for c in legal]
    return dict(max(scored, key=lambda vc: vc[0])[1])
