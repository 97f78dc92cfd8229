"""The games this process offers (`shared.offered.offered_games`), each wrapped in the table
life."""

from __future__ import annotations

from functools import cache

from shared.games.table import TableDecider
from shared.offered import offered_games


@cache
def games() -> dict[str, TableDecider]:
    """Every game offered, by name; the first of two games with one name wins."""
    registry: dict[str, TableDecider] = {}
    for game in offered_games():
        registry.setdefault(game.name, TableDecider(game))
    return dict(sorted(registry.items()))


def get(name: str) -> TableDecider:
    """The game called `name`; KeyError when no such game is offered."""
    return games()[name]
