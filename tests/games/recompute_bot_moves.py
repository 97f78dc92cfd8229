"""Run as `python -m tests.games.recompute_bot_moves` with a JSON list on standard input, each
item {game, level, view, seed, iterations}: prints the list of the moves each bot chooses from
that view alone, in a fresh process that never saw the games (and takes them last first, so
that nothing one decision leaves behind can shape the next)."""

from __future__ import annotations

import json
import random
import sys

from services.registry import get
from shared.games.bot_levels import bot_move


def main() -> None:
    asked = json.load(sys.stdin)
    moves: list[dict[str, object] | None] = [None] * len(asked)
    for index in reversed(range(len(asked))):
        item = asked[index]
        rules = get(item["game"]).game
        moves[index] = bot_move(
            rules, item["view"], random.Random(item["seed"]), item["level"], None, item["iterations"]
        )
    json.dump(moves, sys.stdout)


if __name__ == "__main__":
    main()
