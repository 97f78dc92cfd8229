"""The guide's example game, built from the guide itself (docs/adding-a-game.md, "The example
game"): every file of it is a fenced block headed by its path. The blocks are written into a
temporary folder on the Python path, the package is registered as an operator adds a game
(`TABLETOP_GAMES=last_stone:GAME`), and the per-game checks run on it: the template, the
conformance suite, the docs test on its doc, the game log and the terminal board. No list of
games in the repository names it."""

from __future__ import annotations

import contextlib
import dataclasses
import json
import random
import re
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, NamedTuple

import pytest

from services.board_text import BOARDS, render
from services.registry import games, get
from shared.games.simulate import simulate
from shared.games.table import TableDecider
from tests.conformance.conformance import conforms, play, same_seed_same_log
from tests.games.registered import PACKAGES
from tests.games.test_cli_text_play import board_renders_every_view
from tests.games.test_describe import check_log, told
from tests.games.test_games_docs import DOC_CHECKS
from tests.games.test_template import TEMPLATE_CHECKS
from tests.golden.golden import GOLDENS, Golden, differences, write

GUIDE = Path(__file__).resolve().parents[2] / "docs" / "adding-a-game.md"
NAME = "last_stone"
FILES = {
    *(f"{NAME}/{module}.py" for module in ("__init__", "messages", "state", "rules", "view", "bot")),
    f"docs/games/{NAME}.md",
}
# A block headed by its path: a line "#### `path`", a blank line, then a fence of three or
# more backticks (four around a block that holds fences of its own).
HEADED_BLOCK = re.compile(r"^#### `([\w./]+)`\n\n(`{3,})\w*\n(.*?)^\2$", re.M | re.S)


def blocks(guide: str) -> dict[str, str]:
    """Every block of the guide headed by a path: path -> its text."""
    return {found.group(1): found.group(3) for found in HEADED_BLOCK.finditer(guide)}


class Example(NamedTuple):
    decider: TableDecider
    doc: str


@contextlib.contextmanager
def written_out(folder: Path) -> Iterator[Path]:
    """The guide's blocks written into `folder`: the package `last_stone` and its doc; the
    package is forgotten by this process afterwards."""
    for path, text in blocks(GUIDE.read_text(encoding="utf-8")).items():
        (folder / path).parent.mkdir(parents=True, exist_ok=True)
        (folder / path).write_text(text, encoding="utf-8")
    try:
        yield folder
    finally:
        for module in [m for m in sys.modules if m == NAME or m.startswith(f"{NAME}.")]:
            del sys.modules[module]


@contextlib.contextmanager
def registered(folder: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[TableDecider]:
    """The example offered by this process's registry, registered as an operator would: the
    folder on the path, the game named in TABLETOP_GAMES."""
    monkeypatch.syspath_prepend(str(folder))
    monkeypatch.setenv("TABLETOP_GAMES", f"{NAME}:GAME")
    games.cache_clear()  # the registry reads TABLETOP_GAMES again
    try:
        yield get(NAME)
    finally:
        games.cache_clear()  # the next test's registry is read without the example


@pytest.fixture(scope="module")
def package(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    with written_out(tmp_path_factory.mktemp("guide")) as folder:
        yield folder


@pytest.fixture
def example(package: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Example]:
    with registered(package, monkeypatch) as decider:
        yield Example(decider, (package / "docs" / "games" / f"{NAME}.md").read_text("utf-8"))


def test_the_guide_holds_every_file_of_the_example():
    assert set(blocks(GUIDE.read_text(encoding="utf-8"))) == FILES


def test_the_example_is_registered_by_the_setting_alone(example):
    """The example is offered by the registry, and named by no list of the repository: not a
    built-in game, no terminal board of its own, no golden playthrough."""
    assert type(example.decider.game).__name__ == "Game" and example.decider.game.name == NAME
    assert NAME not in PACKAGES and NAME not in BOARDS
    assert NAME not in {golden.game for golden in GOLDENS}


@pytest.mark.parametrize("check", TEMPLATE_CHECKS, ids=lambda check: check.__name__)
def test_the_example_follows_the_template(example, check: Callable[[Any], None]):
    check(example.decider.game)


def test_the_example_conforms(example):
    conforms(example.decider)
    same_seed_same_log(example.decider)


def test_the_conformance_suite_can_fail_on_the_example(example):
    """A planted bug in the example is caught: a `legal` list offering more than is left."""
    game = example.decider.game
    rules = sys.modules[f"{NAME}.rules"]

    def greedy(state: Any, player: str) -> list[Any]:
        legal = list(rules.legal_commands(state, player))
        return [*legal, type(legal[0])(count=state.stones + 1)] if legal else legal

    with pytest.raises(AssertionError, match="bad_count"):
        play(TableDecider(dataclasses.replace(game, legal_commands=greedy)), 1, {}, 2)


@pytest.mark.parametrize("check", DOC_CHECKS, ids=lambda check: check.__name__)
def test_the_example_doc_matches_its_code(example, check: Callable[[TableDecider, str], None]):
    check(example.decider, example.doc)


@pytest.mark.parametrize("seats", [2, 4])
@pytest.mark.parametrize("options", [{}, {"max_take": 2, "last_stone": "loses"}])
def test_every_event_of_the_example_is_said_to_every_viewer(example, seats, options):
    for seed in range(3):
        check_log(NAME, seats, options, seed, told)


def test_the_example_has_the_generic_terminal_board(example):
    """No board of its own in BOARDS: `generic_board` draws the view's keys, one a line, and
    the command lines under it give back exactly each view's `legal`."""
    board_renders_every_view(example.decider, {})
    ended = simulate(example.decider, ["ann", "bob"], random.Random(0)).table
    text = "\n".join(render({"version": 1, "view": example.decider.player_view(ended, "ann")}))
    assert f"{'stones':<8}: 0" in text and f"{'max_take':<8}: 3" in text


def test_the_example_records_and_replays_a_golden_playthrough(example, tmp_path, monkeypatch):
    """What one line in GOLDENS gives a game: its playthrough recorded, then replayed to no
    difference; a changed view shows as a difference."""
    monkeypatch.setattr("tests.golden.golden.FOLDER", tmp_path)
    golden = Golden(NAME, "default", {}, 2, 1)
    write(example.decider, golden)
    assert golden.path.exists() and differences(example.decider, golden) == ""
    recorded = json.loads(golden.path.read_text(encoding="utf-8"))
    recorded["steps"][-1]["views"]["p1"]["stones"] = 99
    golden.path.write_text(json.dumps(recorded), encoding="utf-8")
    assert "99" in differences(example.decider, golden)
