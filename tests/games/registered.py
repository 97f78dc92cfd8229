"""The game packages the registry offers, for the per-game tests: each test runs on every one
of them, so a new game is tested by being registered, with no list of games to edit."""

from __future__ import annotations

import importlib
from typing import Any

from services.registry import games
from shared.games.decider import Game

NAMES = ("ann", "bob", "cy", "dee", "eve", "fay", "gus", "hal")


def package_of(game: Game[Any, Any]) -> str:
    """The package around the game's rules module (where its `setup` is defined: `decide` is
    a `DecideByTurns` made in shared/games/turns.py)."""
    return game.setup.__module__.rpartition(".")[0]


def _is_package(game: Game[Any, Any]) -> bool:
    """A game package: its GAME lives in the package around its rules (a one-module game, like
    the platform's test game, has no package, doc or boards to check)."""
    package = package_of(game)
    return bool(package) and getattr(importlib.import_module(package), "GAME", None) is game


PACKAGES: dict[str, Game[Any, Any]] = {
    name: decider.game for name, decider in games().items() if _is_package(decider.game)
}


def seats(game: str, wanted: int = 3) -> int:
    """`wanted` seats, or the nearest count the game takes."""
    g = PACKAGES[game]
    return min(max(wanted, g.min_players), g.max_players)


def players(game: str, wanted: int = 3) -> list[str]:
    return list(NAMES[: seats(game, wanted)])
