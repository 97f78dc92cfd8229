"""The bots' levels: each move chosen from the seat's view alone (made again in a fresh process
from that view and must come out the same), the search's limits, and the tournament's
arithmetic. Strength itself is measured by `tabletop tournament` (docs/bots.md), not here."""

from __future__ import annotations

import json
import random
import re
import subprocess
import sys
from collections.abc import Callable
from typing import Any

import pytest

from services import cli
from services import tournament as tournament_cli
from services.bots.service import seat_level
from services.registry import get
from services.tournament import parse_levels
from shared.games.bot_levels import LEVELS, Level, bot_for, bot_move, settings_for
from shared.games.search import Settings, search_move
from shared.games.tournament import GamePlayed, play_game, seats_for, standings, wilson

FIVE = ["decrypto", "diced_tomatoes", "dozito", "illustori", "naishi"]
PLAYERS = {"naishi": 2, "dozito": 2, "diced_tomatoes": 2, "decrypto": 4, "illustori": 3}
SHORT = {"dozito": {"rounds": 1}, "illustori": {"deck_size": 16}}
ITERATIONS = 12  # enough for every part of the search to run; the games stay quick


@pytest.mark.parametrize("game", FIVE)
def test_every_bot_move_of_whole_games_comes_from_the_seat_view_alone(game):
    """Whole games with every level seated; each bot move is asked again in a fresh process
    given only the JSON of the view it was chosen from (and its generator's seed), last move
    first: the same move must come out, so nothing but the view can have shaped it."""
    asked: list[dict[str, Any]] = []
    chosen: list[dict[str, Any]] = []

    def record(level, view, seed, command):
        asked.append({"game": game, "level": level, "view": view, "seed": seed, "iterations": ITERATIONS})
        chosen.append(command)

    lineups: list[tuple[Level, Level]] = [("hard", "normal"), ("normal", "easy"), ("easy", "hard")]
    for index, levels in enumerate(lineups):
        seats = seats_for(levels, PLAYERS[game], index)
        played = play_game(
            get(game), seats, 100 + index, budget_s=None, iterations=ITERATIONS,
            options=SHORT.get(game), on_move=record,
        )  # fmt: skip
        assert played.moves > 0  # played to its end (play_game checks there is a result)
    assert {a["level"] for a in asked} == set(LEVELS)
    again = subprocess.run(
        [sys.executable, "-m", "tests.games.recompute_bot_moves"],
        input=json.dumps(asked),
        capture_output=True,
        text=True,
        check=True,
        timeout=600,
    )
    remade = json.loads(again.stdout)
    differ = [i for i, (a, b) in enumerate(zip(chosen, remade, strict=True)) if a != b]
    assert not differ, (
        f"{len(differ)} of {len(chosen)} moves differ, first: {chosen[differ[0]]} vs {remade[differ[0]]}"
    )


def ticking() -> Callable[[], float]:
    """A clock that moves on 10 ms at each reading."""
    ticks = iter(range(1_000_000))
    return lambda: next(ticks) / 100


@pytest.mark.parametrize("game", ["naishi", "dozito", "diced_tomatoes"])
def test_the_search_plays_one_of_the_offered_moves_within_its_limits(game):
    decider = get(game)
    views: list[dict[str, Any]] = []

    def record(level, view, seed, command):
        if len(view["legal"]) > 1:
            views.append(view)

    play_game(decider, seats_for(("easy",), 2, 0), 7, budget_s=None, options=SHORT.get(game), on_move=record)
    for view in views[:: max(1, len(views) // 6)]:
        fixed = Settings(iterations=9, budget_s=None, depth=4, guided=True)
        outcome = search_move(decider.game, view, random.Random(1), fixed)
        assert outcome.command in view["legal"] and outcome.iterations == 9
        # the same seed, the same move
        assert search_move(decider.game, view, random.Random(1), fixed).command == outcome.command
        # a clock that moves 10 ms a reading: stops where one more iteration would pass 50 ms
        timed = Settings(iterations=1000, budget_s=0.05, depth=4, guided=False)
        outcome = search_move(decider.game, view, random.Random(1), timed, clock=ticking())
        assert outcome.command in view["legal"]
        assert 1 <= outcome.iterations <= 4 and outcome.seconds <= 0.05


def test_a_lone_move_is_played_at_once_and_undo_never():
    view = {"you": "ann", "legal": [{"type": "undo"}, {"type": "end_turn"}]}
    for level in ("normal", "hard"):
        assert bot_move(get("naishi").game, view, random.Random(1), level) == {"type": "end_turn"}


def test_the_levels_settings_and_names():
    assert seat_level({"options": {"bot_level": "hard"}, "zombies": ["bob"]}, "robot-1") == "hard"
    assert seat_level({"options": {"bot_level": "hard"}, "zombies": ["bob"]}, "bob") == "normal"  # a zombie
    assert seat_level({"options": {"bots": 1}}, "robot-1") == "normal"  # the default
    normal, hard = settings_for("normal"), settings_for("hard")
    assert normal.budget_s == pytest.approx(0.1) and hard.budget_s == pytest.approx(0.2)
    assert hard.iterations > normal.iterations and hard.guided and not normal.guided
    assert settings_for("hard", None, 5).iterations == 5 and settings_for("hard", None).budget_s is None
    # games without a search: Decrypto and Illustori think with their strong bots, easy is the old bot
    for name in ("decrypto", "illustori"):
        rules = get(name).game
        assert rules.search is None and rules.strong_bot is not None
        assert bot_for(rules, "hard") is rules.strong_bot and bot_for(rules, "easy") is rules.bot
    assert parse_levels("hard, easy") == ("hard", "easy")
    for bad in ("hard", "hard,expert", ""):
        with pytest.raises(ValueError, match="two or more"):
            parse_levels(bad)


def test_the_95_percent_interval_is_wilsons():
    interval = wilson(8, 10)
    assert interval.share == 0.8
    assert (interval.low, interval.high) == pytest.approx((0.4902, 0.9433), abs=1e-4)
    assert wilson(0, 20).low == 0.0 and wilson(20, 20).high == 1.0
    assert wilson(320, 400).low > 0.75  # 80% of 400 games is clear of 75%


def test_seats_rotate_and_standings_count_wins_ties_and_times():
    assert seats_for(("hard", "easy"), 2, 0) == {"p1": "hard", "p2": "easy"}
    assert seats_for(("hard", "easy"), 2, 1) == {"p1": "easy", "p2": "hard"}
    assert seats_for(("hard", "easy"), 3, 1) == {"p1": "easy", "p2": "hard", "p3": "easy"}
    games = [
        GamePlayed({"p1": "hard", "p2": "easy"}, ["p1"], 10, {"hard": [0.1, 0.3], "easy": [0.0]}),
        GamePlayed({"p1": "easy", "p2": "hard"}, ["p2"], 10, {"hard": [0.2]}),
        GamePlayed({"p1": "hard", "p2": "easy"}, ["p1", "p2"], 10, {}),
        GamePlayed({"p1": "easy", "p2": "hard"}, ["p1"], 10, {}),
    ]
    table = standings(games, ("hard", "easy"))
    assert (table["hard"].games, table["hard"].wins, table["hard"].shared) == (4, 2, 1)
    assert (table["easy"].wins, table["easy"].shared) == (1, 1)
    assert table["hard"].percentile(0.5) == 0.2 and table["hard"].percentile(1.0) == 0.3


def test_tabletop_tournament_prints_each_level_s_wins_and_move_times(capsys):
    args = ["--games", "4", "--bots", "hard,easy", "--budget-ms", "0", "--iterations", "4", "--json"]
    assert cli.main(["tournament", "naishi", *args]) == 0
    figures = json.loads(capsys.readouterr().out)
    assert (
        figures["games"] == 4 and figures["levels_played"] == ["hard", "easy"] and figures["iterations"] == 4
    )
    rows = {row["level"]: row for row in figures["levels"]}
    assert rows["hard"]["games"] == rows["easy"]["games"] == 4
    assert rows["hard"]["wins"] + rows["easy"]["wins"] + rows["hard"]["ties"] == 4
    assert rows["hard"]["moves"] > 0 and 0 <= rows["hard"]["move_ms"]["p50"] <= rows["hard"]["move_ms"]["max"]
    low, high = rows["hard"]["interval_95"]
    assert low <= rows["hard"]["win_share"] <= high
    # and in words, two games side by side in two processes
    assert (
        cli.main(
            ["tournament", "dozito", "--games", "2", "--budget-ms", "0", "--iterations", "2", "--jobs", "2"]
        )
        == 0
    )
    text = capsys.readouterr().out
    assert "dozito: hard against easy, 2 games of 2 players" in text and "p99" in text
    # Decrypto's own figures: how often teams decode their codes, strong against random
    assert cli.main(["tournament", "decrypto", "--games", "4", "--option", "language=fr"]) == 0
    text = capsys.readouterr().out
    assert "language: fr" in text and re.search(r"decode:\n  strong: \d+ of \d+ = [\d.]+% \(95%: ", text), (
        text
    )
    assert re.search(r"\n  strong vs drawn clues: \d+ of \d+ = ", text), text  # the clues weighed against
    # a level that does not exist, a game that does not exist, a seat count the game does not take
    assert cli.main(["tournament", "naishi", "--bots", "hard,expert"]) == 2
    assert "two or more of easy, normal, hard" in capsys.readouterr().err
    assert cli.main(["tournament", "chess"]) == 2
    assert cli.main(["tournament", "naishi", "--players", "3"]) == 2
    assert "naishi takes 2-2 players" in capsys.readouterr().err
    assert cli.main(["tournament", "illustori", "--option", "language=fr"]) == 2
    assert "illustori's figures take no option language" in capsys.readouterr().err


def test_a_tournament_hands_its_limits_to_every_game(monkeypatch):
    asked = []
    monkeypatch.setattr(tournament_cli, "play_game", lambda *args, **kwargs: asked.append((args, kwargs)))
    plan = tournament_cli.Plan("naishi", ("hard", "easy"), 2, 3, None, 7, {"first_player": "first"})
    tournament_cli._play(plan, 1)
    (decider, levels, seed), limits = asked[0]
    assert decider.game.name == "naishi"
    assert levels == {"p1": "easy", "p2": "hard"} and seed == 3 * 1_000_003 + 1
    assert limits == {"budget_s": None, "iterations": 7, "options": {"first_player": "first"}}
