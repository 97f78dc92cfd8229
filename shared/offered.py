"""The games a machine offers: the ones that come with tabletop (`shared/games/`), those that
installed packages declare in the `tabletop.games` entry-point group, and any named in
`TABLETOP_GAMES` (`module:attribute`, comma separated). The services take them wrapped in the
table life (`services/registry.py`); the services' account maps their commands to partitions
(`shared/bus/server.py`)."""

from __future__ import annotations

import importlib
from importlib.metadata import entry_points
from typing import Any

from shared.games import builtin_games
from shared.games.decider import Game
from shared.settings import load_settings

ENTRY_POINT_GROUP = "tabletop.games"


def load_game(spec: str) -> Game[Any, Any]:
    """The game at `module:attribute` (attribute `GAME` when left out)."""
    module, _, attribute = spec.partition(":")
    game = getattr(importlib.import_module(module), attribute or "GAME")
    if not isinstance(game, Game):
        raise TypeError(f"{spec} is not a tabletop Game")
    return game


def offered_games() -> list[Game[Any, Any]]:
    """Every game offered, the built-in ones first (of two games with one name, the first
    counts)."""
    found = builtin_games()
    found += [ep.load() for ep in entry_points(group=ENTRY_POINT_GROUP)]
    found += [load_game(spec.strip()) for spec in load_settings().games.split(",") if spec.strip()]
    return found
