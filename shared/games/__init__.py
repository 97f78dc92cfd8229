"""The games that come with tabletop, one package each under `shared/games/`. Which games a
running service offers (these, plus installed or configured ones) is the shell's choice:
`shared/offered.py`."""

from __future__ import annotations

import importlib
import pkgutil
from typing import Any

from shared.games.decider import Game


def builtin_games() -> list[Game[Any, Any]]:
    """The game of every package under `shared/games/`, by package name."""
    return [
        importlib.import_module(f"{__name__}.{info.name}").GAME
        for info in sorted(pkgutil.iter_modules(__path__), key=lambda info: info.name)
        if info.ispkg
    ]
