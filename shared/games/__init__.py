"""The registry of games: the built-in ones under `shared/games/`, those that installed
packages declare in the `tabletop.games` entry-point group, and any named in the
`TABLETOP_GAMES` environment variable (`module:attribute`, comma separated)."""

from __future__ import annotations

import importlib
import os
import pkgutil
from functools import cache
from importlib.metadata import entry_points
from typing import Any

from shared.games.decider import Game
from shared.games.table import TableDecider

ENTRY_POINT_GROUP = "tabletop.games"


def _load(spec: str) -> Game[Any, Any]:
    module, _, attribute = spec.partition(":")
    game = getattr(importlib.import_module(module), attribute or "GAME")
    if not isinstance(game, Game):
        raise TypeError(f"{spec} is not a tabletop Game")
    return game


def _builtin() -> list[Game[Any, Any]]:
    return [
        _load(f"{__name__}.{info.name}:GAME")
        for info in pkgutil.iter_modules(__path__)
        if info.ispkg
    ]


@cache
def games() -> dict[str, TableDecider]:
    """Every registered game, by name, wrapped in the table life."""
    found = _builtin()
    found += [ep.load() for ep in entry_points(group=ENTRY_POINT_GROUP)]
    found += [_load(s.strip()) for s in os.environ.get("TABLETOP_GAMES", "").split(",") if s.strip()]
    registry: dict[str, TableDecider] = {}
    for game in found:
        registry.setdefault(game.name, TableDecider(game))
    return dict(sorted(registry.items()))


def get(name: str) -> TableDecider:
    """The game called `name`; KeyError when no such game is registered."""
    return games()[name]
