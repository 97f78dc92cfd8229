"""Diced Tomatoes's bot: it plays from its own seat's view (and its `legal` list) only, as a
client would."""

from __future__ import annotations

import random
from typing import Any

from shared.games.decider import PlayerId, View
from shared.games.diced_tomatoes import data


def _placement_score(view: View, me: PlayerId, cmd: dict[str, Any]) -> float:
    """How much a greedy gardener likes placing this die there."""
    die = next(d for d in view["hand"] if d["die"] == cmd["die"])
    owner, colour, face = cmd["owner"], die["colour"], float(die["face"])
    plant = view["plants"][owner][cmd["token"]]["dice"]
    mine = owner == me
    if not plant:  # a seed
        if view["solo"]:
            slot = len(view["tracks"][me]) + 1
            return 3.0 - abs(face - slot)
        return 1.0 + face / 2 if mine else -1.0 - face / 3
    seed: int = plant[0]["face"]
    value = seed + sum(data.VALUE_MODIFIER[d["colour"]] for d in [*plant[1:], die])
    if len(plant) + 1 == data.DICE_PER_PLANT:  # harvest
        if not data.PLANT_VALUE_MIN <= value <= data.PLANT_VALUE_MAX:
            return -4.0 if mine else 4.0
        if view["solo"]:
            slot = len(view["tracks"][me]) + 1
            return 10.0 if value == slot else 2.0
        if mine:
            slot = len(view["tracks"][me]) + 1
            stars = (view.get("options") or {}).get("tomato_dice") and value == slot
            return 6.0 + value + (data.STAR_SLOT_TOTAL - slot if stars else 0)
        return 1.0 + data.HARVEST_KARMA[value] - value / 2
    delta = data.VALUE_MODIFIER[colour]
    return (1.5 + 2 * delta) if mine else (0.5 - 2 * delta)


def bot(view: View, rng: random.Random) -> dict[str, Any]:
    """Mostly greedy: good own harvests, black dice to opponents; sometimes any legal move."""
    legal = view["legal"]
    if rng.random() < 0.1:
        return dict(rng.choice(legal))
    me = view["you"]

    def score(cmd: dict[str, Any]) -> float:
        kind = cmd["type"]
        if kind == "take_dice":
            black_worth = -1.0 if view["solo"] else 0.5
            return float(cmd["red"] + cmd["black"] * black_worth + cmd["golden"] * 1.2)
        if kind == "place_die":
            return _placement_score(view, me, cmd)
        if kind == "end_turn":
            return 0.0
        return -1.0  # karma: only on a random whim

    scores = [score(c) for c in legal]
    best = max(scores)
    return dict(rng.choice([c for c, s in zip(legal, scores) if s >= best - 0.25]))
