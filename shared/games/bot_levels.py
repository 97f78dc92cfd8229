"""The bots' levels: what plays a bot seat at `easy`, `normal` and `hard`.

`easy` is each game's quick heuristic bot (`Game.bot`). `normal` and `hard` search from the
seat's view (`shared.games.search`) in the games that give the search its parts: `normal` with
random playouts and half the time budget, `hard` with the game's own playout policy, more
iterations and the whole budget. A game without a search plays its `strong_bot` at both
(Decrypto's word associations, Illustori's judged texts and votes), else its `bot`. A table
chooses its bots' level (`bot_level`); a seat left by its player (a zombie) plays at `normal`.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import replace
from typing import Any, Final, get_args

from shared.games.clock import BotLevel
from shared.games.decider import Game, View
from shared.games.search import Settings, search_move

Level = BotLevel
LEVELS: Final[tuple[Level, ...]] = get_args(BotLevel)
ZOMBIE_LEVEL: Final[Level] = "normal"
DEFAULT_BUDGET_S: Final = 0.2  # per move, at `hard`; `normal` takes half

SEARCH_SETTINGS: Final[dict[Level, Settings]] = {
    "normal": Settings(iterations=150, budget_s=None, depth=6, guided=False),
    "hard": Settings(iterations=600, budget_s=None, depth=4, guided=True),
}
# A game's own settings where its search gains from them. Dozito: its greedy policy alone wins
# 83% of 1,000 games against `easy`, the search at 600 iterations some 72%: an iteration's
# reward hangs on the cards dealt at random into the hidden places, so the most visited move
# is often only the luckiest. Its `hard` keeps the policy's move unless the search finds
# another clearly better (the other games are unmeasured with it, so they keep the default).
GAME_SEARCH_SETTINGS: Final[dict[tuple[str, Level], Settings]] = {
    ("dozito", "hard"): replace(SEARCH_SETTINGS["hard"], doubt=1.5),
}
_BUDGET_SHARE: Final[dict[Level, float]] = {"normal": 0.5, "hard": 1.0}


def settings_for(
    level: Level,
    budget_s: float | None = DEFAULT_BUDGET_S,
    iterations: int | None = None,
    game: str | None = None,
) -> Settings:
    """The search settings of a level (`game`'s own, where it has some) under a budget per
    move (None: no time limit, so that a seeded bot is repeatable), its iterations capped lower
    if `iterations` says so."""
    settings = GAME_SEARCH_SETTINGS.get((game or "", level)) or SEARCH_SETTINGS[level]
    return replace(
        settings,
        budget_s=None if budget_s is None else budget_s * _BUDGET_SHARE[level],
        iterations=settings.iterations if iterations is None else min(iterations, settings.iterations),
    )


def bot_for(
    game: Game[Any, Any],
    level: Level,
    budget_s: float | None = DEFAULT_BUDGET_S,
    iterations: int | None = None,
) -> Callable[[View, random.Random], dict[str, Any]]:
    """The bot of `game` at `level`: a function of the seat's view and a generator only."""
    if level == "easy":
        return game.bot
    if game.search is not None:
        settings = settings_for(level, budget_s, iterations, game.name)
        return lambda view, rng: search_move(game, view, rng, settings).command
    return game.strong_bot or game.bot


def bot_move(
    game: Game[Any, Any],
    view: View,
    rng: random.Random,
    level: Level = "easy",
    budget_s: float | None = DEFAULT_BUDGET_S,
    iterations: int | None = None,
) -> dict[str, Any]:
    """The bot's move at `level` from a seat's view; never `undo`: a bot does not take back.
    A lone move is played at once by a thinking level (`easy` draws as it always did, so that
    the games recorded with it replay the same)."""
    legal = [c for c in view.get("legal", []) if c.get("type") != "undo"]
    if len(legal) == 1 and level != "easy":
        return dict(legal[0])
    return bot_for(game, level, budget_s, iterations)({**view, "legal": legal}, rng)
