"""Naishi's bot: it plays from its own seat's view (and its `legal` list) only, as a
client would."""

from __future__ import annotations

import random
from typing import Any

from shared.games.decider import PlayerId, View
from shared.games.naishi.components import MOUNTAIN, kind_of
from shared.games.naishi.scoring import best_copies, grid_of, score_grid


def _own_score(line: list[str], hand: list[str]) -> int:
    """The territory's score with its Ninjas copying nothing (cheap, and good enough to
    compare two Develops)."""
    return score_grid(grid_of(line, hand))["total"]


def bot(view: View, rng: random.Random) -> dict[str, Any]:
    """Plays from its own seat's view only: the best copy for its Ninjas; otherwise the Develop
    that most improves its own territory (as far as it knows it), ending the turn after it,
    with a random legal command now and then so that every action gets played."""
    legal: list[dict[str, Any]] = view["legal"]
    me = view["you"]
    if legal[0]["type"] == "choose_ninja_copy":
        return _best_ninja(view, me, legal)
    if view["phase"] != "turns" or rng.random() < 0.3:
        return dict(rng.choice(legal))
    line = list(view["territories"][me]["line"])
    hand = list(view["territories"][me]["hand"])
    base = _own_score(line, hand)
    best: tuple[int, dict[str, Any]] | None = None
    for command in legal:
        if command["type"] != "develop":
            continue
        position = command["position"] - 1
        row = line if command["row"] == "line" else hand
        old = row[position]
        row[position] = view["river"][position]["top"]
        gain = _own_score(line, hand) - base
        row[position] = old
        if kind_of(old) == MOUNTAIN:
            gain += 1  # Mountains mostly cost points: trade them away first
        if best is None or gain > best[0]:
            best = (gain, command)
    if best is not None:
        return dict(best[1])
    for command in legal:
        if command["type"] == "end_turn":
            return dict(command)
    return dict(rng.choice(legal))


def _best_ninja(view: View, me: PlayerId, legal: list[dict[str, Any]]) -> dict[str, Any]:
    territory = view["territories"][me]
    best = best_copies(grid_of(territory["line"], territory["hand"]))
    for command in legal:
        row = 0 if command["row"] == "line" else 1
        if best.get((row, command["position"] - 1)) == command["copies"]:
            return dict(command)
    return dict(legal[0])
