"""Issue 12, points 1-3: Decrypto rulings of 2026-11-30 from the French original (RULES.md
4.1-7, 4.1-12, and the word lists)."""

from __future__ import annotations

import pytest

from shared.games.decrypto import GAME
from shared.games.decrypto.messages import (
    CluesGiven,
    CluesRevealed,
    GameDecided,
    GiveClues,
    GuessKeywords,
    SubmitGuess,
)
from shared.games.decrypto.state import State
from shared.games.decrypto.words import WORDS, contained_pairs
from shared.games.testing import Given, as_type
from tests.games.decrypto.decrypto_support import play_round, round_started, set_up

COMPOUNDS = {
    "white": ["chat", "lune", "piano", "château"],
    "black": ["chauve-souris", "pomme de terre", "arc-en-ciel", "sous-marin"],
}


def tiebreak(keywords=COMPOUNDS) -> Given[State]:
    setup = set_up(max_rounds=1, keywords=keywords, language="fr")
    g = Given(GAME, [setup, round_started(setup, 1, (1, 2, 3), (1, 2, 3))])
    play_round(g, white_ok=True, black_ok=True)
    assert g.state.phase == "keywords"
    return g


# --- point 1: keyword guesses (RULES 4.1-12) ------------------------------------------------


def test_issue12_point1_keyword_guess_ignores_spaces_hyphens_apostrophes_decrypto_12():
    """RULES 4.1-12 (ruling 2026-11-30): same letters in the same order is a find."""
    g = tiebreak()
    g.then("ann", GuessKeywords(words=["chauve souris", "Pomme de  terre", "arc en ciel", "sous marin"]))
    events = g.then("cy", GuessKeywords(words=["chien", "", "", ""]))
    decided = events[-1]
    assert isinstance(decided, GameDecided)
    assert decided.keywords_found == {"white": 4, "black": 0}
    assert (decided.winner, decided.reason) == ("white", "keywords")


@pytest.mark.parametrize(
    ("guess", "found"),
    [
        ("aujourdhui", 1),
        ("Aujourd’hui", 1),
        ("AUJOURD'HUI", 1),
        ("aujour d hui", 1),
        ("aujourd'hui!", 0),
        ("aujourdhuis", 0),
        ("hui aujourd", 0),
    ],
)
def test_issue12_point1_letters_must_be_the_same_and_in_order_decrypto_12(guess, found):
    """RULES 4.1-12: only case, accents, spaces, hyphens and apostrophes are ignored."""
    keywords = {
        "white": ["chat", "lune", "piano", "château"],
        "black": ["aujourd'hui", "pomme", "vélo", "sous-marin"],
    }
    g = tiebreak(keywords)
    g.then("ann", GuessKeywords(words=[guess, "", "", ""]))
    events = g.then("cy", GuessKeywords(words=["", "", "", ""]))
    assert as_type(events[-1], GameDecided).keywords_found["white"] == found


def test_issue12_point1_a_clue_spelling_a_keyword_with_spaces_is_the_keyword_decrypto_15():
    """RULES 4.1-15 with the 4.1-12 comparison: "sous marin" is the keyword "sous-marin"."""
    setup = set_up(keywords=COMPOUNDS, language="fr")
    g = Given(GAME, [setup, round_started(setup, 1, (1, 2, 3), (1, 2, 3))])
    refused = g.when("cy", GiveClues(clues=["sous marin", "mer", "bulle"]))
    assert getattr(refused, "code", None) == "clue_is_keyword"


# --- point 2: simultaneous clues (RULES 4.1-7) ----------------------------------------------


def round_one():
    setup = set_up()
    return Given(GAME, [setup, round_started(setup, 1, (3, 1, 4), (2, 4, 1))])


def test_issue12_point2_clues_hidden_from_the_other_team_until_both_are_in_decrypto_7():
    """RULES 4.1-7: in views (hence pushed updates) and in redacted events (replays)."""
    g = round_one()
    events = g.then("ann", GiveClues(clues=["fin", "tide", "reef"]))
    given_event = events[0]
    assert isinstance(given_event, CluesGiven)
    for outsider in ("cy", "dee", None):
        assert GAME.player_view(g.state, outsider)["clues"]["white"] is None
        assert as_type(GAME.redact(given_event, outsider), CluesGiven).clues is None
    assert GAME.player_view(g.state, "bob")["clues"]["white"] == ["fin", "tide", "reef"]
    assert as_type(GAME.redact(given_event, "bob"), CluesGiven).clues == ["fin", "tide", "reef"]
    assert GAME.player_view(g.state, "cy")["clues_written"] == {"white": True, "black": False}
    events = g.then("cy", GiveClues(clues=["trees", "crown", "launch"]))
    assert events[-1] == CluesRevealed(
        round=1, clues={"white": ["fin", "tide", "reef"], "black": ["trees", "crown", "launch"]}
    )
    assert (
        as_type(GAME.redact(events[0], "ann"), CluesGiven).clues is None
    )  # the reveal says it, for everyone
    assert GAME.redact(events[-1], None) == events[-1]
    for viewer in ("ann", "cy", None):
        assert GAME.player_view(g.state, viewer)["clues"] == {
            "white": ["fin", "tide", "reef"],
            "black": ["trees", "crown", "launch"],
        }


def test_issue12_point2_both_teams_may_write_the_same_clue_in_one_round_decrypto_7_15():
    """RULES 4.1-7/15: the slower encryptor is not refused a clue it could not have seen."""
    g = round_one()
    g.then("ann", GiveClues(clues=["Café", "tide", "reef"]))
    events = g.then("cy", GiveClues(clues=["cafe", "crown", "launch"]))
    assert isinstance(events[-1], CluesRevealed)
    assert g.state.phase == "decode"


def test_issue12_point2_revealed_clues_and_own_clues_count_as_used_decrypto_15():
    """RULES 4.1-15 after the ruling: clues revealed in earlier rounds, either team."""
    g = round_one()
    g.then("ann", GiveClues(clues=["fin", "tide", "reef"]))
    g.then("cy", GiveClues(clues=["trees", "crown", "launch"]))
    for target, decoder in (("white", "bob"), ("black", "dee")):
        g.then(decoder, SubmitGuess(team=target, code=list(g.state.codes[target])))
    assert g.state.round == 2
    for clues, encryptor in (
        (["Trees", "a", "b"], "bob"),
        (["FIN", "a", "b"], "bob"),
        (["tide", "a", "b"], "dee"),
        (["crown", "a", "b"], "dee"),
    ):
        refused = g.when(encryptor, GiveClues(clues=clues))
        assert getattr(refused, "code", None) == "clue_already_used", clues


# --- point 3: word lists --------------------------------------------------------------------


@pytest.mark.parametrize("language", ["en", "fr"])
def test_issue12_point3_no_keyword_of_the_list_contains_another(language):
    """Issue 12 point 3: no two keywords of one game where one contains the other, checked
    over the whole list (hence over any 8 drawn from it)."""
    assert contained_pairs(WORDS[language]) == []


def test_issue12_point3_the_containment_check_finds_the_known_pairs():
    """The check above can fail: it finds the pairs the French list used to hold."""
    words = [
        "pomme",
        "pomme de terre",
        "feu",
        "feu de camp",
        "arc",
        "arc-en-ciel",
        "ciel",
        "dé",
        "parc",
        "pirate",
        "rat",
    ]
    assert sorted(contained_pairs(words)) == [
        ("arc-en-ciel", "arc"),
        ("arc-en-ciel", "ciel"),
        ("feu de camp", "feu"),
        ("pomme de terre", "pomme"),
    ]
