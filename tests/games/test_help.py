"""Each of the five games' help for people, in English and in French, as /config.json carries
it: the rules in short, a sentence for every move; in French also the game's description, a
sentence for every option, and the words of every option value the create form offers."""

from __future__ import annotations

import typing

import msgspec
import pytest

from services.registry import get
from services.web.server import client_config
from shared.games.decider import type_tag

FIVE = ["naishi", "dozito", "decrypto", "diced_tomatoes", "illustori"]
CONFIG = {g["game"]: g for g in client_config("ws://localhost:1")["games"]}


def option_values(options: type) -> set[str]:
    """The named values (Literal choices) of a game's options."""
    values: set[str] = set()
    for field in msgspec.structs.fields(options):
        for arg in typing.get_args(field.type) or (field.type,):
            if typing.get_origin(arg) is typing.Literal:
                values |= {v for v in typing.get_args(arg) if isinstance(v, str)}
    return values


@pytest.mark.parametrize("game", FIVE)
def test_the_help_says_the_rules_and_every_move_in_both_languages(game):
    tags = {type_tag(command) for command in get(game).game.commands}
    english, french = CONFIG[game]["help"], CONFIG[game]["help_fr"]
    for help_ in (english, french):
        assert help_["rules"] and all(p.strip() for p in help_["rules"]), game
        assert set(help_["moves"]) == tags and all(help_["moves"].values()), game
    assert french["rules"] != english["rules"] and french["moves"] != english["moves"]


@pytest.mark.parametrize("game", FIVE)
def test_the_french_help_names_the_game_its_options_and_their_values(game):
    french = CONFIG[game]["help_fr"]
    options = get(game).game.options
    assert french["description"] and french["description"] != CONFIG[game]["description"]
    assert set(french["options"]) == set(CONFIG[game]["options"]["properties"]), game
    missing = option_values(options) - set(french["labels"])
    assert not missing, f"{game}: no French words for {sorted(missing)}"
