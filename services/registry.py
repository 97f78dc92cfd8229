"""The games this process offers: the built-in ones, those that installed packages declare in
the `tabletop.games` entry-point group, and any named in `TABLETOP_GAMES`
(`module:attribute`, comma separated), each wrapped in the table life."""

from __future__ import annotations

import importlib
from functools import cache
from importlib.metadata import entry_points
from typing import Any

from shared.games import builtin_games
from shared.games.decider import Game
from shared.games.table import TableDecider
from shared.settings import load_settings

ENTRY_POINT_GROUP = "tabletop.games"


def load_game(spec: str) -> Game[Any, Any]:
    """The game at `module:attribute` (attribute `GAME` when left out)."""
    module, _, attribute = spec.partition(":")
    game = getattr(importlib.import_module(module), attribute or "GAME")
    if not isinstance(game, Game):
        raise TypeError(f"{spec} is not a tabletop Game")
    return game


@cache
def games() -> dict[str, TableDecider]:
    """Every game offered, by name; the first of two games with one name wins."""
    found = builtin_games()
    found += [ep.load() for ep in entry_points(group=ENTRY_POINT_GROUP)]
    found += [load_game(spec.strip()) for spec in load_settings().games.split(",") if spec.strip()]
    registry: dict[str, TableDecider] = {}
    for game in found:
        registry.setdefault(game.name, TableDecider(game))
    return dict(sorted(registry.items()))


def get(name: str) -> TableDecider:
    """The game called `name`; KeyError when no such game is offered."""
    return games()[name]
