"""docs/games/diced_tomatoes.md matches the code: the commands and events with their fields, the
options with their defaults, the view's keys and the rejection codes (Diced Tomatoes 1-18 are
documented there; this keeps the reference honest when the code changes)."""

from __future__ import annotations

import inspect
import json
import re
from pathlib import Path

import msgspec

from shared.games.diced_tomatoes import GAME, rules
from shared.games.diced_tomatoes.messages import DicedTomatoesOptions
from shared.games.table import RESERVED_VIEW_KEYS

from .diced_tomatoes_support import Given, started

DOC = (Path(__file__).resolve().parents[3] / "docs" / "games" / "diced_tomatoes.md").read_text()


def section(title: str) -> str:
    match = re.search(rf"^## {re.escape(title)}\n(.*?)(?=^## |\Z)", DOC, re.M | re.S)
    assert match, f"no section {title!r} in the doc"
    return match.group(1)


def table_rows(text: str) -> dict[str, str]:
    """First-column name (in backticks) -> the rest of the row, for every Markdown table row."""
    rows = {}
    for line in text.splitlines():
        match = re.match(r"^\|\s*`([a-z_]+)`\s*\|(.*)\|\s*$", line)
        if match:
            rows[match.group(1)] = match.group(2)
    return rows


def ticked(text: str) -> set[str]:
    return set(re.findall(r"`([a-z_]+)`", text))


def fields(cls) -> set[str]:
    return set(cls.__struct_fields__)


def tag(cls) -> str:
    return msgspec.inspect.type_info(cls).tag


def test_every_command_and_its_fields_are_documented():
    rows = table_rows(section("Commands"))
    assert set(rows) == {tag(c) for c in GAME.commands}
    for command in GAME.commands:
        assert fields(command) <= ticked(rows[tag(command)]), tag(command)


def test_every_event_and_its_fields_are_documented():
    rows = table_rows(section("Events"))
    assert set(rows) == {tag(e) for e in GAME.events}
    for event in GAME.events:
        assert fields(event) <= ticked(rows[tag(event)]), tag(event)


def test_every_option_is_documented_with_its_default():
    rows = table_rows(section("Options"))
    defaults = msgspec.to_builtins(DicedTomatoesOptions())
    assert set(rows) == set(defaults)
    for name, default in defaults.items():
        documented = rows[name].split("|")[0].strip().strip("`")
        assert json.loads(documented) == default, name


def test_the_view_keys_are_the_documented_ones():
    g = Given(started())
    g.take("ann", [1, 2, 3])
    view = GAME.player_view(g.state, "ann")
    documented = ticked(section("View"))
    assert set(view) <= documented, set(view) - documented
    # Besides the keys, the section names only a plant's `value`, JSON's `null`, the phases
    # and the command that ends a turn.
    phases = {"take", "place", "over", "end_turn"}
    assert documented - set(view) <= {"value", "null"} | phases, documented - set(view)
    assert not RESERVED_VIEW_KEYS & set(view)


def test_every_rejection_code_of_the_rules_is_documented():
    source = inspect.getsource(rules)
    codes = set(re.findall(r'Rejection\(\s*"([a-z_]+)"', source))
    documented = set(table_rows(section("Rejection codes")))
    assert codes <= documented, codes - documented
    platform = {"bad_option", "bad_command", "game_over", "not_started", "not_your_turn"}
    assert documented - codes <= platform, documented - codes  # the table's, the turn guard's
