"""RULES.md 4.4, worked examples C-1 to C-6, each with its exact outcome."""

from __future__ import annotations

from shared.games.decider import Event
from shared.games.decrypto import GAME
from shared.games.decrypto.messages import (
    CodeRevealed,
    GameDecided,
    GuessKeywords,
    KeywordGuessingStarted,
    SubmitGuess,
)
from shared.games.decrypto.state import State, Tokens
from shared.games.testing import Given, as_type
from tests.games.decrypto.decrypto_support import (
    KEYWORDS,
    give_both_clues,
    play_round,
    round_started,
    set_up,
)


def tokens(state):
    return {t: (k.interceptions, k.miscommunications) for t, k in state.tokens.items()}


def test_c1_round_one_no_interception_black_miscommunicates():
    """C-1 (Decrypto 8-9): round 1, White 3-1-4 guessed right, no interception -> no token;
    Black code 2-4-1 guessed 2-1-4 -> Black M = 1."""
    setup = set_up()
    g = Given(GAME, [setup, round_started(setup, 1, [3, 1, 4], [2, 4, 1])])
    give_both_clues(g)
    events = g.then("bob", SubmitGuess(team="white", code=[3, 1, 4]))
    assert events[-1] == CodeRevealed(
        team="white",
        code=[3, 1, 4],
        guesses={"white": [3, 1, 4]},
        interception=False,
        miscommunication=False,
    )
    assert tokens(g.state) == {"white": (0, 0), "black": (0, 0)}
    events = g.then("dee", SubmitGuess(team="black", code=[2, 1, 4]))
    assert events[1] == CodeRevealed(
        team="black",
        code=[2, 4, 1],
        guesses={"black": [2, 1, 4]},
        interception=False,
        miscommunication=True,
    )
    assert g.state.tokens["black"] == Tokens(interceptions=0, miscommunications=1)
    assert g.state.tokens["white"] == Tokens()
    assert g.state.round == 2 and g.state.phase == "clues"


def test_c2_round_three_white_miscommunicates_black_intercepts():
    """C-2 (Decrypto 8): round 3, White code 2-4-1; White guesses 2-1-4 -> White M + 1;
    Black guesses 2-4-1 -> Black I + 1."""
    setup = set_up()
    g = Given(GAME, [setup, round_started(setup, 1, [1, 2, 3], [1, 2, 3])])
    events1 = play_round(g, white_ok=True, black_ok=True)
    events2 = play_round(g, white_ok=True, black_ok=True)
    log = [
        setup,
        round_started(setup, 1, [1, 2, 3], [1, 2, 3]),
        *events1,
        *events2[:-1],
        round_started(setup, 3, [2, 4, 1], [4, 3, 2]),
    ]
    g = Given(GAME, log)
    assert g.state.round == 3 and tokens(g.state) == {"white": (0, 0), "black": (0, 0)}
    give_both_clues(g)
    g.then("bob", SubmitGuess(team="white", code=[2, 1, 4]))
    events = g.then("cy", SubmitGuess(team="white", code=[2, 4, 1]))
    assert events[-1] == CodeRevealed(
        team="white",
        code=[2, 4, 1],
        guesses={"white": [2, 1, 4], "black": [2, 4, 1]},
        interception=True,
        miscommunication=True,
    )
    assert tokens(g.state) == {"white": (0, 1), "black": (1, 0)}


def test_c3_conflict_goes_to_token_score_black_wins():
    """C-3 (Decrypto 11-12): end of round 4, White I=2 M=2, Black I=1 M=0: both flags ->
    tie-break on score, White 0, Black +1 -> Black wins."""
    setup = set_up()
    g = Given(GAME, [setup, round_started(setup, 1, [1, 2, 3], [3, 2, 1])])
    play_round(g, white_ok=True, black_ok=True)
    play_round(g, white_ok=False, black_intercepts=True, black_ok=True, white_intercepts=True)
    play_round(g, white_ok=True, black_ok=True)
    events = play_round(g, white_ok=False, black_ok=True, white_intercepts=True)
    assert g.state.round == 4
    assert tokens(g.state) == {"white": (2, 2), "black": (1, 0)}
    assert events[-1] == GameDecided(
        winner="black",
        reason="token_score",
        tiebreak="both_flags",
        scores={"white": 0, "black": 1},
        keywords=KEYWORDS,
        keyword_guesses={},
        keywords_found={},
    )
    assert GAME.is_terminal(g.state)
    assert GAME.result(g.state).winners == ["cy", "dee"]


def _both_intercept_twice(white_misses_once: bool) -> tuple[Given[State], list[Event]]:
    setup = set_up()
    g = Given(GAME, [setup, round_started(setup, 1, [1, 2, 3], [3, 2, 1])])
    play_round(g, white_ok=True, black_ok=True)
    play_round(g, white_ok=not white_misses_once, black_intercepts=True, black_ok=True, white_intercepts=True)
    return g, play_round(g, white_ok=True, black_intercepts=True, black_ok=True, white_intercepts=True)


def test_c4_both_intercept_twice_score_decides_black_wins():
    """C-4 (Decrypto 12): White I=2 M=1 (score 1), Black I=2 M=0 (score 2) -> Black wins."""
    g, events = _both_intercept_twice(white_misses_once=True)
    assert tokens(g.state) == {"white": (2, 1), "black": (2, 0)}
    assert isinstance(events[-1], GameDecided)
    assert (events[-1].winner, events[-1].reason, events[-1].tiebreak, events[-1].scores) == (
        "black",
        "token_score",
        "both_flags",
        {"white": 1, "black": 2},
    )
    assert GAME.result(g.state).winners == ["cy", "dee"]


def test_c4_equal_scores_keywords_three_against_two_white_wins():
    """C-4 (Decrypto 12): White I=2 M=0, Black I=2 M=0 -> keyword guessing; White finds 3 of
    Black's words, Black finds 2 -> White wins (compared without case or accents)."""
    g, events = _both_intercept_twice(white_misses_once=False)
    assert tokens(g.state) == {"white": (2, 0), "black": (2, 0)}
    assert events[-1] == KeywordGuessingStarted(cause="both_flags", scores={"white": 2, "black": 2})
    assert g.state.phase == "keywords"
    # Black's keywords: forest, king, rocket, cheese; White's: shark, moon, piano, castle.
    g.then("ann", GuessKeywords(words=["FOREST", " King ", "rocket", "bread"]))
    events = g.then("dee", GuessKeywords(words=["shark", "móon", "violin", "tower"]))
    decided = events[-1]
    assert isinstance(decided, GameDecided)
    assert (decided.winner, decided.reason, decided.keywords_found) == (
        "white",
        "keywords",
        {"white": 3, "black": 2},
    )
    assert GAME.result(g.state).winners == ["ann", "bob"]


def test_c4_equal_scores_keywords_two_against_two_is_a_draw():
    """C-4 (Decrypto 12): 2 keywords found each -> draw."""
    g, _ = _both_intercept_twice(white_misses_once=False)
    g.then("bob", GuessKeywords(words=["forest", "king", "", ""]))
    events = g.then("cy", GuessKeywords(words=["", "", "piano", "castle"]))
    decided = as_type(events[-1], GameDecided)
    assert (decided.winner, decided.reason, decided.keywords_found) == (
        None,
        "draw",
        {"white": 2, "black": 2},
    )
    result = GAME.result(g.state)
    assert result.winners == [] and {s.rank for s in result.ranking} == {1}
    assert result.details["outcome"] == "draw"


def test_c5_white_two_interceptions_and_black_two_miscommunications_white_wins():
    """C-5 (Decrypto 11): White I=2 and Black M=2 in the same round -> only White's flag
    -> White wins."""
    setup = set_up()
    g = Given(GAME, [setup, round_started(setup, 1, [1, 2, 3], [3, 2, 1])])
    play_round(g, white_ok=True, black_ok=False)
    play_round(g, white_ok=True, black_ok=True, white_intercepts=True)
    events = play_round(g, white_ok=True, black_ok=False, white_intercepts=True)
    assert tokens(g.state) == {"white": (2, 0), "black": (0, 2)}
    assert events[-1] == GameDecided(
        winner="white",
        reason="two_interceptions",
        tiebreak=None,
        scores={"white": 2, "black": -2},
        keywords=KEYWORDS,
        keyword_guesses={},
        keywords_found={},
    )
    assert GAME.result(g.state).winners == ["ann", "bob"]


def test_c6_after_round_eight_token_score_white_wins():
    """C-6 (Decrypto 11-12, 4.3-1/2): after round 8, White I=1 M=1, Black I=0 M=1 -> scores
    0 vs -1 -> White wins."""
    setup = set_up()
    g = Given(GAME, [setup, round_started(setup, 1, [1, 2, 3], [3, 2, 1])])
    play_round(g, white_ok=True, black_ok=True)
    play_round(g, white_ok=False, black_ok=True, white_intercepts=True)
    play_round(g, white_ok=True, black_ok=False)
    for _ in range(4, 9):
        events = play_round(g, white_ok=True, black_ok=True)
    assert g.state.round == 8
    assert tokens(g.state) == {"white": (1, 1), "black": (0, 1)}
    decided = as_type(events[-1], GameDecided)
    assert (decided.winner, decided.reason, decided.tiebreak, decided.scores) == (
        "white",
        "token_score",
        "last_round",
        {"white": 0, "black": -1},
    )
