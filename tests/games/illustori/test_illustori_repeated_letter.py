"""Illustori 13 (`no_repeated_letter`) as docs/games/illustori.md explains it: a text whose first
and last letters are the same is penalised, not refused, whatever stands around those letters."""

from __future__ import annotations

import pytest

from shared.games.illustori.chaining import REPEATED_LETTER, Rules, chain_problem, penalties

NO_REPEAT = Rules(mode="english", no_repeated_letter=True)


@pytest.mark.parametrize("text", ["Annapurna", "Nation", "Ww", "Eve !", "A", "Été", "« Oso »"])
def test_a_text_whose_first_and_last_letters_are_equal_is_penalised(text: str) -> None:
    assert penalties(NO_REPEAT, text, ()) == [REPEATED_LETTER]
    assert penalties(Rules(mode="english"), text, ()) == []  # only with the option on


def test_such_a_text_chains_so_it_is_taken_then_penalised_not_refused() -> None:
    assert chain_problem(NO_REPEAT, "Show", "Ww") is None
    assert chain_problem(NO_REPEAT, "Moon", "Nation") is None
    assert penalties(NO_REPEAT, "Night", ()) == []


def test_with_the_option_english_chains_on_the_last_letter_only() -> None:
    assert chain_problem(NO_REPEAT, "Moon", "Oasis") is not None
    assert chain_problem(Rules(mode="english"), "Moon", "Oasis") is None
