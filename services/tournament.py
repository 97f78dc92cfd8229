"""`tabletop tournament GAME --games N --bots hard,easy`: bot levels against each other
through the real rules modules (no NATS), the games shared among `--jobs` processes; prints
each level's wins with a 95% interval and the time its moves took."""

from __future__ import annotations

import importlib
import json
import sys
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import asdict, dataclass
from typing import Any

from services.registry import get
from shared.games.bot_levels import LEVELS, Level
from shared.games.tournament import GamePlayed, play_game, seats_for, standings, wilson


@dataclass(frozen=True)
class Plan:
    game: str
    levels: tuple[Level, ...]
    players: int
    seed: int
    budget_s: float | None
    iterations: int | None
    options: Mapping[str, Any]


def _play(plan: Plan, index: int) -> GamePlayed:
    levels = seats_for(plan.levels, plan.players, index)
    seed = plan.seed * 1_000_003 + index
    return play_game(
        get(plan.game), levels, seed, budget_s=plan.budget_s, iterations=plan.iterations, options=plan.options
    )


def play_all(plan: Plan, games: int, jobs: int) -> list[GamePlayed]:
    if jobs <= 1:
        return [_play(plan, i) for i in range(games)]
    with ProcessPoolExecutor(jobs) as pool:
        return list(pool.map(_play, [plan] * games, range(games), chunksize=max(1, games // (jobs * 8))))


def parse_levels(text: str) -> tuple[Level, ...]:
    names = [name.strip() for name in text.split(",") if name.strip()]
    unknown = [name for name in names if name not in LEVELS]
    if len(names) < 2 or unknown:
        raise ValueError(f"--bots takes two or more of {', '.join(LEVELS)} (got {text!r})")
    return tuple(level for name in names for level in LEVELS if level == name)


def report(plan: Plan, played: Sequence[GamePlayed]) -> dict[str, Any]:
    """The figures of a tournament, ready for JSON or for printing."""
    rows = []
    for level, standing in standings(played, plan.levels).items():
        win = wilson(standing.wins, standing.games)
        rows.append(
            {
                "level": level,
                "games": standing.games,
                "wins": standing.wins,
                "ties": standing.shared,
                "win_share": win.share,
                "interval_95": [win.low, win.high],
                "moves": len(standing.move_seconds),
                "move_ms": {
                    "p50": 1000 * standing.percentile(0.5),
                    "p99": 1000 * standing.percentile(0.99),
                    "max": 1000 * standing.percentile(1.0),
                },
            }
        )
    return {**asdict(plan), "levels_played": list(plan.levels), "games": len(played), "levels": rows}


def print_report(figures: Mapping[str, Any]) -> None:
    budget = figures["budget_s"]
    limit = "no time limit" if budget is None else f"budget {1000 * budget:.0f} ms a move (hard; normal half)"
    if figures["iterations"] is not None:
        limit += f", at most {figures['iterations']} iterations a move"
    print(
        f"{figures['game']}: {' against '.join(figures['levels_played'])}, {figures['games']} games of "
        f"{figures['players']} players, {limit}, seed {figures['seed']}"
    )
    for row in figures["levels"]:
        low, high = row["interval_95"]
        ms = row["move_ms"]
        print(
            f"  {row['level']:<6} won {row['wins']:>4} of {row['games']:<4} {100 * row['win_share']:5.1f}% "
            f"(95%: {100 * low:.1f}-{100 * high:.1f}%), ties {row['ties']:<3} "
            f"moves {row['moves']:>6}: p50 {ms['p50']:.1f} ms, p99 {ms['p99']:.1f} ms, max {ms['max']:.1f} ms"
        )


def game_figures(game: str) -> Callable[..., dict[str, Any]] | None:
    """The game's own measure of its bots (`shared.games.<game>.bot_figures.measure`: Decrypto's
    decoding and interceptions, Illustori's texts and wins), where it has one."""
    try:
        module = importlib.import_module(f"shared.games.{game}.bot_figures")
    except ModuleNotFoundError:
        return None
    measure: Callable[..., dict[str, Any]] = module.measure
    return measure


def figure_lines(figures: Mapping[str, Any], indent: str = "") -> list[str]:
    """Nested figures as indented lines; a count of successes (`right` of `tries`) with its 95%
    interval."""
    lines = []
    for key, value in figures.items():
        name = str(key).replace("_", " ")
        if isinstance(value, Mapping) and {"right", "tries"} <= value.keys():
            share = wilson(value["right"], value["tries"])
            lines.append(
                f"{indent}{name}: {value['right']} of {value['tries']} = {100 * share.share:.1f}% "
                f"(95%: {100 * share.low:.1f}-{100 * share.high:.1f}%)"
            )
        elif isinstance(value, Mapping):
            lines += [f"{indent}{name}:", *figure_lines(value, indent + "  ")]
        else:
            lines.append(f"{indent}{name}: {round(value, 3) if isinstance(value, float) else value}")
    return lines


def run(
    game: str,
    levels: str,
    games: int,
    players: int | None,
    seed: int,
    budget_ms: float | None,
    jobs: int,
    iterations: int | None,
    options: Mapping[str, Any],
    as_json: bool,
) -> int:
    try:
        chosen = parse_levels(levels)
        rules = get(game).game
    except (ValueError, KeyError) as err:
        print(f"tabletop tournament: {err}", file=sys.stderr)
        return 2
    own = game_figures(game)
    if own is not None:  # a team game, or one of words: the game's own figures say more
        try:
            figures = {"game": game, **own(games, seed, **options)}
        except TypeError:
            print(
                f"tabletop tournament: {game}'s figures take no option {', '.join(options)}", file=sys.stderr
            )
            return 2
        except ValueError as err:
            print(f"tabletop tournament: {err}", file=sys.stderr)
            return 2
        print(json.dumps(figures, indent=2) if as_json else "\n".join(figure_lines(figures)))
        return 0
    seats = players or max(rules.min_players, min(2, rules.max_players))
    if not rules.min_players <= seats <= rules.max_players:
        print(
            f"tabletop tournament: {game} takes {rules.min_players}-{rules.max_players} players",
            file=sys.stderr,
        )
        return 2
    budget_s = None if budget_ms is None else budget_ms / 1000
    plan = Plan(game, chosen, seats, seed, budget_s, iterations, dict(options))
    figures = report(plan, play_all(plan, games, jobs))
    if as_json:
        print(json.dumps(figures, indent=2))
    else:
        print_report(figures)
    return 0
