"""Bots against bots through the real rules, no bus: `tabletop tournament`.

Each game seats the levels in turn order rotated by one from game to game (so no level keeps
the first seat), plays the table's own commands (create, join, start) and then each seat's
moves chosen by its level's bot from that seat's view alone, as the bot service would see it
(the view after a trip through JSON). It counts who won and how long every move took.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import msgspec

from shared.games.bot_levels import Level, bot_move
from shared.games.decider import PlayerId, View
from shared.games.simulate import LocalTable
from shared.games.table import TableDecider

_json = msgspec.json.Encoder()


@dataclass
class GamePlayed:
    levels: dict[PlayerId, Level]  # each seat's level
    winners: list[PlayerId]
    moves: int
    move_seconds: dict[Level, list[float]] = field(default_factory=dict)  # every bot move's time


def seats_for(levels: Sequence[Level], players: int, game_index: int) -> dict[PlayerId, Level]:
    """Seat i plays `levels[(i + game_index) % len(levels)]`: the levels take turns in every
    seat, the first one included."""
    return {f"p{i + 1}": levels[(i + game_index) % len(levels)] for i in range(players)}


def play_game(
    decider: TableDecider,
    levels: Mapping[PlayerId, Level],
    seed: int,
    *,
    budget_s: float | None,
    iterations: int | None = None,
    options: Mapping[str, Any] | None = None,
    on_move: Callable[[Level, View, str, dict[str, Any]], None] | None = None,
    max_commands: int = 20_000,
) -> GamePlayed:
    """One whole game; the table's draws and each bot move's generator seeded from `seed`.
    `on_move(level, view, seed, command)` hears of every bot move: the level, the view it was
    chosen from, its generator's seed and the command chosen."""
    local = LocalTable(decider, random.Random(seed))  # the table's own draws
    seats = list(levels)
    local.seat(seats, options)
    played = GamePlayed(levels=dict(levels), winners=[], moves=0)

    def choose(actor: PlayerId) -> dict[str, Any]:
        view = msgspec.json.decode(_json.encode(decider.player_view(local.table, actor)))  # as on the wire
        move_seed = f"{seed}/{played.moves}"
        started = time.perf_counter()
        choice = bot_move(decider.game, view, random.Random(move_seed), levels[actor], budget_s, iterations)
        played.move_seconds.setdefault(levels[actor], []).append(time.perf_counter() - started)
        if on_move is not None:
            on_move(levels[actor], view, move_seed, choice)
        played.moves += 1
        return choice

    local.play(choose, max_commands=max_commands)
    assert local.table.result is not None
    played.winners = list(local.table.result.winners)
    return played


@dataclass(frozen=True)
class Interval:
    share: float
    low: float
    high: float


def wilson(successes: int, trials: int, z: float = 1.96) -> Interval:
    """The share of successes with its 95% Wilson score interval (sound near 0 and 1)."""
    if trials == 0:
        return Interval(0.0, 0.0, 1.0)
    p = successes / trials
    centre = (p + z * z / (2 * trials)) / (1 + z * z / trials)
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / (1 + z * z / trials)
    return Interval(p, max(0.0, centre - half), min(1.0, centre + half))


@dataclass
class Standing:
    """How one level did over a tournament's games."""

    level: Level
    games: int = 0  # games it played in
    wins: int = 0  # games it won alone (no other level among the winners)
    shared: int = 0  # games it won with another level (a tie)
    move_seconds: list[float] = field(default_factory=list)

    def percentile(self, q: float) -> float:
        ordered = sorted(self.move_seconds)
        if not ordered:
            return 0.0
        return ordered[min(len(ordered) - 1, math.ceil(q * len(ordered)) - 1)]


def standings(games: Sequence[GamePlayed], levels: Sequence[Level]) -> dict[Level, Standing]:
    """Per level: games won outright (no other level won too), games tied, moves' times."""
    table = {level: Standing(level) for level in dict.fromkeys(levels)}
    for played in games:
        winning = {played.levels[w] for w in played.winners}
        for level, standing in table.items():
            if level not in played.levels.values():
                continue
            standing.games += 1
            if winning == {level}:
                standing.wins += 1
            elif level in winning:
                standing.shared += 1
            standing.move_seconds.extend(played.move_seconds.get(level, []))
    return table
