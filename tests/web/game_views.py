"""Views of whole games played in-process by the bots, for the board tests: every seat's and
the spectator's view after every command of a seeded random game."""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from services.registry import get
from shared.games.simulate import simulate
from tests.games import registered

# Every registered game package (each has a board: services/web/static/games/<game>.js),
# at three seats or the nearest count it takes.
PLAYERS = {game: registered.players(game) for game in registered.PACKAGES}
GAMES = list(PLAYERS)


@dataclass
class Step:
    """The table after one command: each viewer's view (None is the spectator)."""

    index: int
    views: dict[str | None, dict[str, Any]]


def steps(game: str, seed: int) -> Iterator[Step]:
    """The views after every command of one seeded game (the table running or ended)."""
    decider = get(game)
    players = PLAYERS[game]
    sim = simulate(decider, players, random.Random(seed))
    table = decider.initial_state
    for index, (_, events) in enumerate(sim.log):
        for event in events:
            table = decider.evolve(table, event)
        if table.status not in ("running", "ended"):
            continue
        yield Step(index, {v: decider.player_view(table, v) for v in [*players, None]})
