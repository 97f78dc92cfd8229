"""docs/games/<game>.md against the code, for all five games (issue 12): every command, event,
option (with its default), rejection code and view key the code has is in the doc, the shared
view words are listed, and the rulings of 2026-11-30 are cited where a game has one. The
doc's tables are checked both ways: each command and event row names the type's fields, each
option row its default, and no row names a command, event, option or code the code lacks. The
View section's table of what depends on the viewer is checked against the views of random
games, at every step, for every seat and spectators (issue 24)."""

from __future__ import annotations

import functools
import importlib
import inspect
import json
import random
import re
from pathlib import Path
from typing import Any

import msgspec
import pytest

from services.registry import get
from shared.games.decider import Game, fold, type_tag
from shared.games.simulate import simulate
from shared.games.table import RESERVED_VIEW_KEYS, TableDecider
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


def rejection_codes(game: Game[Any, Any]) -> set[str]:
    """The codes the game's package refuses with: `Rejection("code", ...)`, and the
    `(code, message)` pairs some helpers return for the rules to wrap."""
    folder = Path(inspect.getfile(importlib.import_module(registered.package_of(game)))).parent
    codes: set[str] = set()
    for path in folder.glob("*.py"):
        source = path.read_text(encoding="utf-8")
        codes |= set(re.findall(r'Rejection\(\s*"(\w+)"', source))
        codes |= set(re.findall(r'return \(?\s*"([a-z_]+)",\s*f?"', source))
    return codes


Views = dict[str | None, dict[str, Any]]  # viewer (None: spectators) -> view


@functools.cache
def played_views(game: str, seeds: int = 3) -> tuple[tuple[tuple[str, ...], Views], ...]:
    """(players, every viewer's view) after each command of `seeds` whole bot games."""
    decider = get(game)
    players = tuple(registered.players(game))
    steps = []
    for seed in range(1, seeds + 1):
        table = decider.initial_state
        for _, batch in simulate(decider, players, random.Random(seed)).log:
            table = fold(decider.evolve, batch, table)
            steps.append((players, {v: decider.player_view(table, v) for v in (*players, None)}))
    return tuple(steps)


def view_keys(decider: TableDecider) -> set[str]:
    """Every key of every view of a whole bot game, for every seat and spectators, as served
    after each command."""
    game = decider.game
    players = list(registered.NAMES[: min(max(3, game.min_players), game.max_players)])
    keys: set[str] = set()
    table = decider.initial_state
    for _, batch in simulate(decider, players, random.Random(1)).log:
        table = fold(decider.evolve, batch, table)
        for viewer in (*players, None):
            keys.update(decider.player_view(table, viewer))
    return keys


# The checks of one game's doc (`text`) against its code, each callable on any game (the
# guide's example game runs them too).


def documents_every_command_event_and_option(decider: TableDecider, text: str) -> None:
    words = ticked(text)
    g = decider.game
    assert {type_tag(c) for c in g.commands} <= words
    assert {type_tag(e) for e in g.events} <= words, {type_tag(e) for e in g.events} - words
    for name, default in msgspec.to_builtins(g.options()).items():
        assert name in words, name
        assert json.dumps(default) in text or f"`{default}`" in text, (name, default)


def documents_every_rejection_code(decider: TableDecider, text: str) -> None:
    codes = rejection_codes(decider.game)
    assert codes, "the code search is never vacuous"
    missing = codes - ticked(text)
    assert not missing, missing


def documents_every_view_key_with_the_shared_words(decider: TableDecider, text: str) -> None:
    keys = view_keys(decider) - RESERVED_VIEW_KEYS
    assert set(COMMON_VIEW_KEYS) <= keys  # one vocabulary across the games
    missing = keys - ticked(text)
    assert not missing, missing
    assert "view_terms" in text
    assert all(f"`{word}`" in text for word in COMMON_VIEW_KEYS)


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


def tables_match_the_commands_events_and_their_fields(decider: TableDecider, text: str) -> None:
    g = decider.game
    for kind, listed in (("Commands", g.commands), ("Events", g.events)):
        types = {type_tag(t): t for t in listed}
        rows = table_rows(section(text, kind))
        assert set(rows) == set(types), (kind, set(types) - set(rows), set(rows) - set(types))
        for tag, cls in types.items():
            missing = set(cls.__struct_fields__) - ticked(rows[tag])
            assert not missing, (tag, missing)


def options_table_matches_the_options_and_their_defaults(decider: TableDecider, text: str) -> None:
    rows = table_rows(section(text, "Options"))
    defaults = msgspec.to_builtins(decider.game.options())
    assert set(rows) == set(defaults), (set(defaults) - set(rows), set(rows) - set(defaults))
    for name, default in defaults.items():
        assert json.dumps(default) in rows[name] or f"`{default}`" in rows[name], (name, default)


def rejection_code_table_matches_the_codes(decider: TableDecider, text: str) -> None:
    rows = set(table_rows(section(text, "Rejection codes")))
    codes = rejection_codes(decider.game)
    assert codes <= rows, codes - rows
    assert rows <= codes | platform_codes(), rows - codes - platform_codes()


DOC_CHECKS = (
    documents_every_command_event_and_option,
    documents_every_rejection_code,
    documents_every_view_key_with_the_shared_words,
    tables_match_the_commands_events_and_their_fields,
    options_table_matches_the_options_and_their_defaults,
    rejection_code_table_matches_the_codes,
)


@pytest.mark.parametrize("check", DOC_CHECKS, ids=lambda check: check.__name__)
@pytest.mark.parametrize("game", sorted(registered.PACKAGES))
def test_the_doc_matches_the_code(game, check):
    check(get(game), doc(game))


@pytest.mark.parametrize("game", sorted(registered.PACKAGES))
def test_issue12_point4_each_ruling_is_cited(game):
    assert doc(game).count("ruling 2026-11-30") >= RULINGS.get(game, 0)
    if game == "naishi":
        assert "issue 12" in doc(game)  # the known cards of the opponent's Hand


# What a seat sees of a key that depends on the viewer: True when it may see more of another
# player's (or team's) part than spectators do. What spectators see of such a key.
SEAT_SEES = {"its own": False, "its own and what it saw": True}
SPECTATORS_SEE = ("nothing", "`null`", "the public part")
ABSENT = object()


def viewer_rows(game: str) -> dict[str, tuple[str, str]]:
    """The View section's table: key -> (what a seat sees, what spectators see)."""
    rows = table_rows(section(doc(game), "View"))
    return {key: (rest.split("|")[0].strip(), rest.split("|")[1].strip()) for key, rest in rows.items()}


def sees_more(view: dict[str, Any], spectator: dict[str, Any], key: str, players: tuple[str, ...]) -> bool:
    """Whether a seat's `view` shows more of another player's or team's entry of `key` than
    spectators see: entries named after a player or a team (`teams`) other than the seat
    (`you`) and its team (`my_team`)."""
    value, public = view.get(key), spectator.get(key)
    if not isinstance(value, dict):
        return False
    others = (set(players) | set(view.get("teams") or ())) - {view.get("you"), view.get("my_team")}
    public = public if isinstance(public, dict) else {}
    return any(value[k] != public.get(k) for k in value if k in others)


@pytest.mark.parametrize("game", sorted(registered.PACKAGES))
def test_the_views_section_says_what_each_viewer_sees(game: str) -> None:
    """Both ways: the table lists exactly the keys whose value depends on the viewer; what it
    says spectators see, they see at every step; a seat sees more of another player's part than
    spectators exactly for the keys where the table says so (the drift of issue 24: a doc saying
    a seat never sees the opponent's Hand while the view shows the cards it saw go in)."""
    rows = viewer_rows(game)
    assert all(seat in SEAT_SEES and spectators in SPECTATORS_SEE for seat, spectators in rows.values()), rows
    differing: set[str] = set()
    seen_more: set[str] = set()
    for players, views in played_views(game):
        spectator = views[None]
        for key in set().union(*views.values()) - RESERVED_VIEW_KEYS:
            values = [view.get(key, ABSENT) for view in views.values()]
            if any(v != values[0] for v in values):
                differing.add(key)
            if key not in rows:
                continue
            said = rows[key][1]
            if said == "nothing":
                assert key not in spectator, (key, spectator.get(key))
            elif said == "`null`":
                assert key in spectator and spectator[key] is None, (key, spectator.get(key, ABSENT))
            else:
                assert spectator.get(key) is not None, key
            if any(sees_more(views[p], spectator, key, players) for p in players):
                seen_more.add(key)
    assert differing == set(rows), (differing - set(rows), set(rows) - differing)
    assert seen_more == {key for key, (seat, _) in rows.items() if SEAT_SEES[seat]}


def test_the_docs_check_can_fail():
    """An undocumented key, code or event is caught: the helpers see only backticked words."""
    assert "active_player" not in ticked("active_player, phase")
    assert {"bad_text"} <= rejection_codes(get("illustori").game)
    rows = table_rows("| `give_card` | `card` | x |\n| not a row |")
    assert rows == {"give_card": " `card` | x "}
    assert {"bad_command", "table_full", "not_your_turn", "game_over"} <= platform_codes()
    seat = {"you": "a", "hands": {"a": [1], "b": [2]}}
    assert sees_more(seat, {"hands": {"a": None, "b": None}}, "hands", ("a", "b"))
    assert not sees_more(seat, {"hands": {"a": None, "b": [2]}}, "hands", ("a", "b"))
