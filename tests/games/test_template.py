"""Every registered game package follows the one template (docs/adding-a-game.md): the same
files with the same roles, so that a reader finds each part of any game in the same place."""

from __future__ import annotations

import importlib
import inspect
import random
from typing import Any

import msgspec
import pytest

from services.registry import games
from shared.games.clock import TableOptions
from shared.games.decider import Game
from shared.games.testing import accepted
from shared.games.turns import DecideByTurns
from tests.games.registered import PACKAGES, package_of

# file -> the names it must define, and the Game fields that must come from it
TEMPLATE = {
    "messages": (("COMMANDS", "EVENTS"), ("options",)),
    "state": (("State", "evolve"), ("evolve",)),
    "rules": (("decide", "legal_commands", "setup", "result"), ("legal_commands", "setup")),
    "view": (("player_view", "redact", "secrets"), ("player_view", "redact", "secrets")),
    "bot": (("bot",), ("bot",)),
}


def test_every_built_in_game_is_checked():
    assert {"decrypto", "diced_tomatoes", "dozito", "illustori", "naishi"} <= set(PACKAGES)


def has_the_template_files_and_names(game: Game[Any, Any]) -> None:
    package = package_of(game)
    for file, (names, fields) in TEMPLATE.items():
        module = importlib.import_module(f"{package}.{file}")
        missing = [n for n in names if not hasattr(module, n)]
        assert not missing, f"{package}.{file} lacks {missing}"
        for f in fields:
            value = getattr(game, f)
            assert value.__module__ == module.__name__, f"Game.{f} comes from {value.__module__}"
    assert importlib.import_module(package).GAME is game


def decides_by_turns(game: Game[Any, Any]) -> None:
    """The rules' `decide` is a `DecideByTurns`: the platform guards the turn, and every
    command of the game has its move."""
    rules = importlib.import_module(f"{package_of(game)}.rules")
    assert game.decide is rules.decide and isinstance(game.decide, DecideByTurns)
    assert set(game.decide.moves) == set(game.commands)


def types_its_options_and_phase(game: Game[Any, Any]) -> None:
    """Every option has a default and is `explained` (the create form shows the sentence);
    the state's `phase` is a Literal, so its words are listed."""
    game.options()  # every field has a default
    unexplained = [
        name for name, schema in option_schemas(game.options).items() if not schema.get("description")
    ]
    assert not unexplained, f"{game.name}: options without a sentence: {unexplained}"
    for name, schema in option_schemas(game.options).items():
        if "x-choice-names" in schema:  # names for a person, one for each value and no other
            assert set(schema["x-choice-names"]) == set(schema["enum"]), f"{game.name}.{name}"
    info = msgspec.inspect.type_info(type(game.initial_state))
    assert isinstance(info, msgspec.inspect.StructType)
    phase = next((f for f in info.fields if f.name == "phase"), None)
    assert phase is not None and isinstance(phase.type, msgspec.inspect.LiteralType), game.name


def option_schemas(options: type) -> dict[str, dict[str, Any]]:
    schema = msgspec.json.schema(options)
    properties: dict[str, dict[str, Any]] = schema["$defs"][options.__name__]["properties"]
    return properties


def test_every_table_option_is_explained():
    assert all(schema.get("description") for schema in option_schemas(TableOptions).values())


def ranks_by_rank_players(game: Game[Any, Any]) -> None:
    rules = importlib.import_module(f"{package_of(game)}.rules")
    assert "rank_players(" in inspect.getsource(rules.result), game.name


# Every check of the template, each on one game (the guide's example game runs them too).
TEMPLATE_CHECKS = (
    has_the_template_files_and_names,
    decides_by_turns,
    types_its_options_and_phase,
    ranks_by_rank_players,
)


@pytest.mark.parametrize("check", TEMPLATE_CHECKS, ids=lambda check: check.__name__)
@pytest.mark.parametrize("name", sorted(PACKAGES))
def test_the_game_package_follows_the_template(name, check):
    check(PACKAGES[name])


@pytest.mark.parametrize(("name", "old"), [("naishi", "cards_dealt"), ("diced_tomatoes", "game_started")])
def test_a_setup_event_logged_under_its_former_name_still_decodes_and_folds(name, old):
    """The setup events were renamed game_set_up; logs written before keep their old tag."""
    decider = games()[name]
    game = decider.game
    options = game.options()
    players = ("ann", "bob")
    (setup, *_rest) = accepted(game.setup(options, players, random.Random(1)))
    body = msgspec.to_builtins(setup)
    assert body["type"] == "game_set_up"
    logged = msgspec.convert({**body, "type": old}, decider.event_type)
    assert type(logged).__name__ != type(setup).__name__
    fold = game.evolve
    assert fold(game.initial_state, logged) == fold(game.initial_state, setup)
