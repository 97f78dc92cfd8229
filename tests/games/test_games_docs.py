"""docs/games/<game>.md against the code, for all five games (issue 12): every command, event,
option (with its default), rejection code and view key the code has is in the doc, the shared
view words are listed, and the rulings of 2026-11-30 are cited where a game has one. The
doc's tables are checked both ways: each command and event row names the type's fields, each
option row its default, and no row names a command, event, option or code the code lacks."""

from __future__ import annotations

import json
import random
import re
from pathlib import Path

import msgspec
import pytest

from services.registry import get
from shared.games.decider import fold, type_tag
from shared.games.simulate import simulate
from shared.games.table import RESERVED_VIEW_KEYS
from shared.games.view_terms import COMMON_VIEW_KEYS
from tests.games import registered

ROOT = Path(__file__).resolve().parents[2]
RULINGS = {"decrypto": 3, "diced_tomatoes": 2, "dozito": 1, "illustori": 1}  # cited at least


def doc(game: str) -> str:
    return (ROOT / "docs" / "games" / f"{game}.md").read_text(encoding="utf-8")


def ticked(text: str) -> set[str]:
    """Every `word` between backticks (a whole backticked value, or the words inside one)."""
    found: set[str] = set()
    text = re.sub(r"```.*?```", "", text, flags=re.S)  # code blocks: examples, not names
    for chunk in re.findall(r"`([^`\n]+)`", text):
        found.add(chunk)
        found.update(re.findall(r"[A-Za-z_][\w]*", chunk))
    return found


def rejection_codes(game: str) -> set[str]:
    """The codes the game's package refuses with: `Rejection("code", ...)`, and the
    `(code, message)` pairs some helpers return for the rules to wrap."""
    codes: set[str] = set()
    for path in (ROOT / "shared" / "games" / game).glob("*.py"):
        source = path.read_text(encoding="utf-8")
        codes |= set(re.findall(r'Rejection\(\s*"(\w+)"', source))
        codes |= set(re.findall(r'return \(?\s*"([a-z_]+)",\s*f?"', source))
    return codes


def view_keys(game: str) -> set[str]:
    """Every key of every view of a whole bot game, for every seat and spectators, as served
    after each command."""
    decider = get(game)
    players = registered.players(game)
    keys: set[str] = set()
    table = decider.initial_state
    for _, batch in simulate(decider, players, random.Random(1)).log:
        table = fold(decider.evolve, batch, table)
        for viewer in (*players, None):
            keys.update(decider.player_view(table, viewer))
    return keys


@pytest.mark.parametrize("game", sorted(registered.PACKAGES))
def test_issue12_point4_every_command_event_and_option_is_documented(game):
    text = doc(game)
    words = ticked(text)
    g = get(game).game
    assert {type_tag(c) for c in g.commands} <= words
    assert {type_tag(e) for e in g.events} <= words, {type_tag(e) for e in g.events} - words
    for name, default in msgspec.to_builtins(g.options()).items():
        assert name in words, name
        assert json.dumps(default) in text or f"`{default}`" in text, (name, default)


@pytest.mark.parametrize("game", sorted(registered.PACKAGES))
def test_issue12_point4_every_rejection_code_is_documented(game):
    codes = rejection_codes(game)
    assert codes, "the code search is never vacuous"
    missing = codes - ticked(doc(game))
    assert not missing, missing


@pytest.mark.parametrize("game", sorted(registered.PACKAGES))
def test_issue12_point4_every_view_key_is_documented_with_the_shared_words(game):
    keys = view_keys(game) - RESERVED_VIEW_KEYS
    assert set(COMMON_VIEW_KEYS) <= keys  # one vocabulary across the games
    text = doc(game)
    missing = keys - ticked(text)
    assert not missing, missing
    assert "view_terms" in text
    assert all(f"`{word}`" in text for word in COMMON_VIEW_KEYS)


@pytest.mark.parametrize("game", sorted(registered.PACKAGES))
def test_issue12_point4_each_ruling_is_cited(game):
    assert doc(game).count("ruling 2026-11-30") >= RULINGS.get(game, 0)
    if game == "naishi":
        assert "issue 12" in doc(game)  # the known cards of the opponent's Hand


def section(text: str, title: str) -> str:
    found = re.search(rf"^## {re.escape(title)}[^\n]*\n(.*?)(?=^## |\Z)", text, re.M | re.S)
    assert found, f"no section {title!r}"
    return found.group(1)


def table_rows(text: str) -> dict[str, str]:
    """First-column names (in backticks, one or several: "`white`, `black`") -> the rest of
    the row, for every Markdown table row."""
    rows = {}
    for line in text.splitlines():
        found = re.match(r"^\|\s*((?:`[a-z_]+`,?\s*)+)\|(.*)\|\s*$", line)
        if found:
            for name in re.findall(r"`([a-z_]+)`", found.group(1)):
                rows[name] = found.group(2)
    return rows


def platform_codes() -> set[str]:
    """The codes of the platform, for every game: the table's deciders and the turn guard
    (the modules of shared/games/ outside the games' packages)."""
    codes = {"bad_command"}
    for path in (ROOT / "shared" / "games").glob("*.py"):
        codes |= set(re.findall(r'Rejection\(\s*"(\w+)"', path.read_text(encoding="utf-8")))
    return codes


@pytest.mark.parametrize("game", sorted(registered.PACKAGES))
@pytest.mark.parametrize("kind", ["Commands", "Events"])
def test_the_command_and_event_tables_match_the_types_and_their_fields(game, kind):
    g = get(game).game
    types = {type_tag(t): t for t in (g.commands if kind == "Commands" else g.events)}
    rows = table_rows(section(doc(game), kind))
    assert set(rows) == set(types), (set(types) - set(rows), set(rows) - set(types))
    for tag, cls in types.items():
        missing = set(cls.__struct_fields__) - ticked(rows[tag])
        assert not missing, (tag, missing)


@pytest.mark.parametrize("game", sorted(registered.PACKAGES))
def test_the_options_table_matches_the_options_and_their_defaults(game):
    rows = table_rows(section(doc(game), "Options"))
    defaults = msgspec.to_builtins(get(game).game.options())
    assert set(rows) == set(defaults), (set(defaults) - set(rows), set(rows) - set(defaults))
    for name, default in defaults.items():
        assert json.dumps(default) in rows[name] or f"`{default}`" in rows[name], (name, default)


@pytest.mark.parametrize("game", sorted(registered.PACKAGES))
def test_the_rejection_code_table_matches_the_codes(game):
    rows = set(table_rows(section(doc(game), "Rejection codes")))
    codes = rejection_codes(game)
    assert codes <= rows, codes - rows
    assert rows <= codes | platform_codes(), rows - codes - platform_codes()


def test_the_docs_check_can_fail():
    """An undocumented key, code or event is caught: the helpers see only backticked words."""
    assert "active_player" not in ticked("active_player, phase")
    assert {"bad_text"} <= rejection_codes("illustori")
    rows = table_rows("| `give_card` | `card` | x |\n| not a row |")
    assert rows == {"give_card": " `card` | x "}
    assert {"bad_command", "table_full", "not_your_turn", "game_over"} <= platform_codes()
