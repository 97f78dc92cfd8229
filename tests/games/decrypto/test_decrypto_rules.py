"""Decrypto rules, given events / when a command / then events or a rejection (RULES.md 4.1)."""

from __future__ import annotations

import random
from collections.abc import Sequence
from random import Random

import msgspec
import pytest

from shared.games.decider import Command, Context, Event, Rejection, fold, type_tag
from shared.games.decrypto import GAME
from shared.games.decrypto.messages import (
    CluesGiven,
    CodeRevealed,
    DecryptoOptions,
    GameDecided,
    GameSetUp,
    GiveClues,
    GuessKeywords,
    GuessSubmitted,
    KeywordGuessingStarted,
    KeywordsGuessed,
    RoundStarted,
    SubmitGuess,
)
from shared.games.decrypto.state import CODES, TEAMS, TOKEN_SUPPLY, State, Tokens, normalize
from shared.games.decrypto.words import WORDS
from shared.games.table import Create, GameEnded, Join, SeedRevealed, Start, TableDecider
from shared.games.testing import Given, accepted, as_type, rejected
from tests.games.decrypto.decrypto_support import (
    KEYWORDS,
    give_both_clues,
    play_round,
    round_started,
    set_up,
    wrong,
)

DECIDER = TableDecider(GAME)


def start_table(players, options=None, seed=0):
    """A table through the platform: create, join, start; returns (table, start events)."""
    table = DECIDER.initial_state
    steps: list[tuple[str, Command]] = [(players[0], Create(options=dict(options or {}), seats=len(players)))]
    steps += [(p, Join()) for p in players[1:]]
    steps += [(players[0], Start())]
    events: Sequence[Event] | Rejection = []
    for actor, command in steps:
        events = DECIDER.decide(table, command, Context(actor=actor, rng=random.Random(seed)))
        if isinstance(events, Rejection):
            return table, events
        table = fold(DECIDER.evolve, events, table)
    return table, events


def round_one(white=(3, 1, 4), black=(2, 4, 1), **options) -> Given[State]:
    setup = set_up(**options)
    return Given(GAME, [setup, round_started(setup, 1, white, black)])


def decoding(white=(3, 1, 4), black=(2, 4, 1), round_=1) -> Given[State]:
    """Both clue sets given, White's code being decoded, in round `round_`."""
    setup = set_up()
    g = Given(GAME, [setup, round_started(setup, 1, (1, 2, 3), (1, 2, 3))])
    for _ in range(1, round_):
        play_round(g, white_ok=True, black_ok=True)
    g.events[-1] = round_started(setup, round_, white, black)
    give_both_clues(g)
    return g


# --- setup: Decrypto 1-4 ------------------------------------------------------------------


@pytest.mark.parametrize("count", [4, 5, 6, 7, 8])
def test_teams_are_dealt_two_to_four_and_unequal_for_odd_counts(count):
    """Decrypto 1: two teams of 2-4; 5 or 7 players -> unequal teams."""
    players = [f"p{i}" for i in range(count)]
    _table, events = start_table(players, seed=count)
    set_up_event = next(e for e in events if isinstance(e, GameSetUp))
    sizes = sorted(len(set_up_event.teams[t]) for t in TEAMS)
    assert sizes == [count // 2, count - count // 2]
    assert sorted(p for t in TEAMS for p in set_up_event.teams[t]) == sorted(players)


def test_creator_sets_teams_and_the_rest_are_dealt():
    """Decrypto 1: the creator may set the teams (in encryptor order); the others are dealt."""
    players = ["a", "b", "c", "d", "e", "f"]
    table, _ = start_table(players, {"white": ["e", "a"], "black": ["b"]})
    teams = table.game.teams
    assert teams["white"][:2] == ("e", "a") and teams["black"][0] == "b"
    assert sorted(len(m) for m in teams.values()) == [3, 3]


def test_start_with_teams_that_cannot_be_completed_is_refused():
    """Decrypto 1: a team of fewer than 2 -> bad_teams at start, nothing appended."""
    players = ["a", "b", "c", "d", "e"]
    table = DECIDER.initial_state
    for actor, command in [("a", Create(options={"white": ["a", "b", "c", "d"]}, seats=6))] + [
        (p, Join()) for p in players[1:]
    ]:
        table = fold(
            DECIDER.evolve,
            accepted(DECIDER.decide(table, command, Context(actor=actor, rng=random.Random(0)))),
            table,
        )
    refused = DECIDER.decide(table, Start(), Context(actor="a", rng=random.Random(0)))
    assert isinstance(refused, Rejection) and refused.code == "bad_teams"
    assert "black would have 1" in refused.message


@pytest.mark.parametrize(
    ("options", "fragment"),
    [
        ({"language": "de"}, "language must be one of en, fr"),
        ({"max_rounds": 0}, "Expected `int` >= 1 - at `$.max_rounds`"),
        ({"clue_uniqueness": "none"}, "clue_uniqueness"),
        ({"code_draw": "deck"}, "code_draw"),
        ({"timer_seconds": -1}, "timer_seconds"),
        ({"white": ["a", "a"]}, "named twice"),
        ({"white": ["a"], "black": ["a", "b"]}, "named twice"),
        ({"white": ["a", "b", "c", "d", "e"]}, "at most 4"),
        ({"last_round_tiebreak": "coin"}, "last_round_tiebreak must be one of score, keywords"),
        ({"max_rounds": "8"}, "Invalid option"),
        ({"rounds": 8}, "Invalid option"),
    ],
)
def test_bad_options_are_refused_at_create(options, fragment):
    """Every option is validated at create with a clear message (bad_option)."""
    refused = DECIDER.decide(
        DECIDER.initial_state,
        Create(options=options, seats=4),
        Context(actor="a", rng=random.Random(0)),
    )
    assert isinstance(refused, Rejection) and refused.code == "bad_option"
    assert fragment in refused.message


def test_options_have_the_documented_defaults():
    options = DecryptoOptions()
    assert (
        options.language,
        options.max_rounds,
        options.clue_uniqueness,
        options.code_draw,
        options.timer_seconds,
        options.white,
        options.black,
        options.last_round_tiebreak,
    ) == ("en", 8, "game", "with_replacement", 30, [], [], "score")
    assert GAME.check_options(DecryptoOptions(max_rounds=None), 4) is None


@pytest.mark.parametrize("language", ["en", "fr"])
def test_keywords_are_eight_distinct_words_of_the_language(language):
    """Decrypto 2: 4 keywords per team, 8 distinct words from the language's word list."""
    table, _events = start_table(["a", "b", "c", "d"], {"language": language}, seed=3)
    keywords = table.game.keywords
    words = [w for t in TEAMS for w in keywords[t]]
    assert all(len(keywords[t]) == 4 for t in TEAMS)
    assert len({normalize(w) for w in words}) == 8
    assert set(words) <= set(WORDS[language])


def test_word_lists_hold_at_least_400_distinct_common_nouns():
    """Decrypto 2: the shipped lists (English, French)."""
    for language in ("en", "fr"):
        words = WORDS[language]
        assert len(words) >= 400
        assert len({normalize(w) for w in words}) == len(words)
    assert "éléphant" in WORDS["fr"]


def test_codes_are_the_24_ordered_triples_and_tokens_start_at_zero():
    """Decrypto 3-4: 24 codes; Interceptions and Miscommunications start at 0."""
    assert len(CODES) == 24 and len(set(CODES)) == 24
    assert all(len(set(c)) == 3 and set(c) <= {1, 2, 3, 4} for c in CODES)
    g = round_one()
    assert g.state.tokens == {"white": Tokens(), "black": Tokens()}
    assert TOKEN_SUPPLY == {"interceptions": 4, "miscommunications": 4}


def test_keywords_are_seen_by_the_own_team_only():
    """Decrypto 2: keywords visible to the own team only (until the end)."""
    g = round_one()
    assert GAME.player_view(g.state, "ann")["keywords"] == {"white": KEYWORDS["white"], "black": None}
    assert GAME.player_view(g.state, "cy")["keywords"] == {"white": None, "black": KEYWORDS["black"]}
    assert GAME.player_view(g.state, None)["keywords"] == {"white": None, "black": None}
    setup = set_up()
    assert as_type(GAME.redact(setup, "dee"), GameSetUp).keywords == {
        "white": None,
        "black": KEYWORDS["black"],
    }
    assert as_type(GAME.redact(setup, None), GameSetUp).keywords == {"white": None, "black": None}


# --- rounds: Decrypto 5-10 -----------------------------------------------------------------


def test_encryptor_rotates_through_a_team_of_three_and_alternates_in_a_team_of_two():
    """Decrypto 5 (4.3-4): each member in turn; a 2-player team alternates."""
    setup = set_up(white=["a", "b", "c"], black=["x", "y"])
    g = Given(GAME, [setup, round_started(setup, 1, (1, 2, 3), (1, 2, 3))])
    seen: dict[str, list[str]] = {"white": [], "black": []}
    for _ in range(5):
        for t in TEAMS:
            seen[t].append(g.state.encryptors[t])
        play_round(g, white_ok=True, black_ok=True)
    assert seen == {"white": ["a", "b", "c", "a", "b"], "black": ["x", "y", "x", "y", "x"]}


def test_each_round_draws_a_code_for_each_encryptor_recorded_in_the_event():
    """Decrypto 6: a code from the 24, drawn by decide and written in round_started; it is
    seen only by its encryptor (view and replay)."""
    g = decoding(round_=1)
    events = g.then("bob", SubmitGuess(team="white", code=[3, 1, 4]), Random(11))
    events = g.then("dee", SubmitGuess(team="black", code=[2, 4, 1]), Random(11))
    started = events[-1]
    assert isinstance(started, RoundStarted) and started.round == 2
    assert all(tuple(started.codes[t] or ()) in CODES for t in TEAMS)
    assert started.encryptors == {"white": "bob", "black": "dee"}
    assert GAME.player_view(g.state, "bob")["my_code"] == started.codes["white"]
    assert GAME.player_view(g.state, "ann")["my_code"] is None
    assert GAME.player_view(g.state, None)["my_code"] is None
    assert as_type(GAME.redact(started, "dee"), RoundStarted).codes == {
        "white": None,
        "black": started.codes["black"],
    }
    assert as_type(GAME.redact(started, "ann"), RoundStarted).codes == {"white": None, "black": None}


def test_codes_without_replacement_do_not_repeat_within_24_rounds():
    """Decrypto 6 (4.3-6): the code_draw option; BGA's default draws with replacement."""
    setup = set_up(code_draw="without_replacement", max_rounds=None)
    g = Given(GAME, [setup, round_started(setup, 1, (1, 2, 3), (1, 2, 3))])
    for round_ in range(12):
        play_round(g, white_ok=True, black_ok=True, seed=round_)
    codes = [r.code for r in g.state.reveals if r.team == "white"]
    assert len(codes) == 12 and len(set(codes)) == 12


def test_both_encryptors_give_three_clues_at_once():
    """Decrypto 7: each encryptor writes 3 clues; both at the same time."""
    g = round_one()
    assert GAME.players_to_act(g.state) == ["ann", "cy"]
    events = g.then("ann", GiveClues(clues=["fin", "tide", "  grand piano "]))
    assert events == [
        CluesGiven(
            team="white", player="ann", clues=["fin", "tide", "grand piano"], visible_to=["ann", "bob"]
        )
    ]
    assert GAME.players_to_act(g.state) == ["cy"]
    g.then("cy", GiveClues(clues=["trees", "crown", "launch"]))
    assert g.state.phase == "decode" and g.state.decoding == "white"


def test_round_one_white_decodes_without_its_encryptor_and_nobody_intercepts():
    """Decrypto 8: White's members but its encryptor answer; no interception in round 1."""
    g = decoding(round_=1)
    assert GAME.players_to_act(g.state) == ["bob"]
    refused = g.when("cy", SubmitGuess(team="white", code=[1, 2, 3]))
    assert refused == Rejection("not_your_turn", "It is not your turn: waiting for bob.")
    refused = g.when("ann", SubmitGuess(team="white", code=[1, 2, 3]))
    assert isinstance(refused, Rejection) and refused.code == "not_your_turn"


def test_from_round_two_the_other_team_intercepts_with_its_encryptor():
    """Decrypto 8-9: from round 2 the other team, encryptor included, intercepts; the code is
    revealed once both answers are in; White's code first, then Black's."""
    g = decoding(white=(2, 4, 1), black=(4, 3, 2), round_=2)
    assert g.state.encryptors == {"white": "bob", "black": "dee"}
    assert GAME.players_to_act(g.state) == ["ann", "cy", "dee"]
    events = g.then("dee", SubmitGuess(team="white", code=[2, 4, 1]))
    assert GAME.players_to_act(g.state) == ["ann"]
    assert isinstance(events[0], GuessSubmitted) and events[0].guessing_team == "black"
    events = g.then("ann", SubmitGuess(team="white", code=[2, 4, 1]))
    assert events[-1] == CodeRevealed(
        team="white",
        code=[2, 4, 1],
        guesses={"black": [2, 4, 1], "white": [2, 4, 1]},
        interception=True,
        miscommunication=False,
    )
    assert g.state.decoding == "black"
    assert GAME.players_to_act(g.state) == ["ann", "bob", "cy"]  # Black's encryptor dee waits
    events = g.then("bob", SubmitGuess(team="black", code=[4, 3, 1]))
    events = g.then("cy", SubmitGuess(team="black", code=[4, 3, 2]))
    assert events[1] == CodeRevealed(
        team="black",
        code=[4, 3, 2],
        guesses={"white": [4, 3, 1], "black": [4, 3, 2]},
        interception=False,
        miscommunication=False,
    )
    assert g.state.tokens == {"white": Tokens(), "black": Tokens(interceptions=1)}
    assert isinstance(events[2], RoundStarted) and events[2].round == 3


def test_an_answer_is_hidden_from_the_other_team_until_the_reveal():
    """Decrypto 8 (hidden answers): a team's answer is seen by its own team only."""
    g = decoding(white=(2, 4, 1), round_=2)
    events = g.then("cy", SubmitGuess(team="white", code=[1, 2, 3]))
    assert GAME.player_view(g.state, "dee")["team_answer"] == [1, 2, 3]
    assert GAME.player_view(g.state, "ann")["team_answer"] is None
    assert GAME.player_view(g.state, "ann")["answered"] == {"white": False, "black": True}
    assert as_type(GAME.redact(events[0], "dee"), GuessSubmitted).code == [1, 2, 3]
    assert as_type(GAME.redact(events[0], "ann"), GuessSubmitted).code is None
    assert as_type(GAME.redact(events[0], None), GuessSubmitted).code is None


def test_clues_and_revealed_codes_stay_public():
    """Decrypto 10: every clue and revealed code stays in every view, spectators included."""
    g = round_one()
    play_round(g, white_ok=True, black_ok=False)
    view = GAME.player_view(g.state, None)
    assert [(r["team"], r["code"]) for r in view["history"]] == [("white", [3, 1, 4]), ("black", [2, 4, 1])]
    assert all(len(r["clues"]) == 3 for r in view["history"])
    assert view["history"][1]["guess"] != [2, 4, 1] and view["history"][1]["interception"] is None


# --- end: Decrypto 11-12 -------------------------------------------------------------------


def test_two_miscommunications_lose_for_the_other_team():
    """Decrypto 11: a team with two Miscommunications loses (only the other flag is raised)."""
    g = round_one()
    play_round(g, white_ok=False, black_ok=True)
    events = play_round(g, white_ok=False, black_ok=True)
    decided = as_type(events[-1], GameDecided)
    assert (decided.winner, decided.reason) == ("black", "two_miscommunications")
    assert GAME.result(g.state).winners == ["cy", "dee"]


def test_the_game_ends_after_the_last_round_only_when_the_cap_is_on():
    """Decrypto 11 (4.3-1): after the round cap the tie-break runs; with no cap play goes on."""
    setup = set_up(max_rounds=2)
    g = Given(GAME, [setup, round_started(setup, 1, (1, 2, 3), (1, 2, 3))])
    play_round(g, white_ok=True, black_ok=True)
    events = play_round(g, white_ok=True, black_ok=True)
    assert events[-1] == KeywordGuessingStarted(cause="last_round", scores={"white": 0, "black": 0})
    setup = set_up(max_rounds=None)
    g = Given(GAME, [setup, round_started(setup, 1, (1, 2, 3), (1, 2, 3))])
    for _ in range(10):
        events = play_round(g, white_ok=True, black_ok=True)
    assert isinstance(events[-1], RoundStarted) and events[-1].round == 11


def tiebreak_state() -> Given[State]:
    setup = set_up(max_rounds=1)
    g = Given(GAME, [setup, round_started(setup, 1, (1, 2, 3), (1, 2, 3))])
    play_round(g, white_ok=True, black_ok=True)
    assert g.state.phase == "keywords"
    return g


def test_keyword_guessing_by_any_member_hidden_until_both_are_in():
    """Decrypto 12: each team, through any one member, names the other's 4 keywords; the
    guesses stay hidden from the other team until the game is decided."""
    g = tiebreak_state()
    assert GAME.players_to_act(g.state) == ["ann", "bob", "cy", "dee"]
    events = g.then("bob", GuessKeywords(words=["Forêt", "king", "", "x"]))
    assert events == [
        KeywordsGuessed(
            team="white", player="bob", words=["Forêt", "king", "", "x"], visible_to=["ann", "bob"]
        )
    ]
    assert GAME.players_to_act(g.state) == ["cy", "dee"]
    assert as_type(GAME.redact(events[0], "cy"), KeywordsGuessed).words is None
    assert GAME.player_view(g.state, "cy")["keyword_guesses"] == {"white": None}
    assert GAME.player_view(g.state, "ann")["keyword_guesses"] == {"white": ["Forêt", "king", "", "x"]}
    events = g.then("cy", GuessKeywords(words=["shark", "", "", ""]))
    decided = events[-1]
    assert isinstance(decided, GameDecided)
    # "Forêt" is not "forest": one keyword found each (king, shark) -> a draw.
    assert (decided.winner, decided.reason, decided.keywords_found) == (
        None,
        "draw",
        {"white": 1, "black": 1},
    )


def test_after_the_end_every_keyword_and_guess_is_public():
    """Decrypto 2/12: the keywords are hidden until the end, then everybody sees them."""
    g = tiebreak_state()
    g.then("ann", GuessKeywords(words=["forest", "", "", ""]))
    events = g.then("dee", GuessKeywords(words=["", "", "", ""]))
    decided = as_type(events[-1], GameDecided)
    assert decided.winner == "white" and decided.reason == "keywords"
    view = GAME.player_view(g.state, None)
    assert view["keywords"] == KEYWORDS
    assert view["keyword_guesses"] == {"white": ["forest", "", "", ""], "black": ["", "", "", ""]}
    assert view["outcome"]["winner"] == "white"
    assert GAME.redact(events[-1], None) == events[-1]
    assert GAME.players_to_act(g.state) == [] and GAME.legal_commands(g.state, "ann") == []


def test_game_ended_comes_from_the_platform_with_the_result():
    """Decrypto 11-12: the table appends game_ended with the result once decided."""
    players = ["a", "b", "c", "d"]
    table, _ = start_table(players, {"max_rounds": 1})
    rng = random.Random(5)
    while table.status == "running":
        actor = DECIDER.players_to_act(table)[0]
        command = msgspec.convert(DECIDER.legal_commands(table, actor)[0], DECIDER.command_type)
        events = accepted(DECIDER.decide(table, command, Context(actor=actor, rng=rng)))
        table = fold(DECIDER.evolve, events, table)
    assert isinstance(events[-2], GameEnded) and isinstance(events[-1], SeedRevealed)
    assert table.result.details["tiebreak"] in ("both_flags", "last_round", None)
    assert DECIDER.player_view(table, "a")["result"]["ranking"]


# --- clues: Decrypto 13-16 -----------------------------------------------------------------


@pytest.mark.parametrize(
    ("clues", "code"),
    [
        (["one", "two"], "wrong_clue_count"),
        (["one", "two", "three", "four"], "wrong_clue_count"),
        (["one", "  ", "three"], "empty_clue"),
        (["one", "x" * 61, "three"], "clue_too_long"),
        (["Tide", "tide", "three"], "duplicate_clue"),
        (["Shark", "tide", "three"], "clue_is_keyword"),
        (["CHÂTEAU", "tide", "three"], "clue_is_keyword"),
    ],
)
def test_bad_clues_are_refused(clues, code):
    """Decrypto 13 and 15: three non-empty clues, none an own keyword (case and accents
    ignored); a refused command appends nothing."""
    g = round_one(keywords={**KEYWORDS, "white": ["shark", "moon", "piano", "chateau"]})
    refused = g.when("ann", GiveClues(clues=clues))
    assert isinstance(refused, Rejection) and refused.code == code, refused


def test_a_phrase_is_a_valid_clue():
    """Decrypto 13: a clue may be a word or a phrase."""
    g = round_one()
    events = g.then("ann", GiveClues(clues=["under the sea", "night light", "keys"]))
    assert as_type(events[0], CluesGiven).clues == ["under the sea", "night light", "keys"]


def test_social_clue_rules_are_not_enforced():
    """Decrypto 14: meaning, spelling, position or translation rules are social, not checked
    by the engine: a clue like "first" or a translation is accepted."""
    g = round_one()
    events = g.then("ann", GiveClues(clues=["first", "requin", "P"]))
    assert isinstance(events[0], CluesGiven)


def next_round(g: Given[State]) -> Given[State]:
    """Both codes of the current round decoded right: the next round's clue step."""
    for target, decoder in (("white", "bob"), ("black", "dee")):
        g.then(decoder, SubmitGuess(team=target, code=list(g.state.codes[target])))
    return g


def test_a_clue_text_is_used_only_once_per_game_by_either_team():
    """Decrypto 15 (4.3-5, ASSUMED scope): compared without case or accents, both teams; the
    other team's clues count once revealed (Decrypto 7, ruling 2026-11-30)."""
    g = round_one()
    g.then("ann", GiveClues(clues=["Café", "tide", "keys"]))
    g.then("cy", GiveClues(clues=["trees", "crown", "launch"]))
    g = next_round(g)
    refused = g.when(g.state.encryptors["black"], GiveClues(clues=["cafe", "moss", "gold"]))
    assert refused == Rejection("clue_already_used", "'cafe' was already given as a clue in this game.")
    g.then(g.state.encryptors["black"], GiveClues(clues=["cafés", "moss", "gold"]))


def test_clue_uniqueness_scope_team_allows_the_other_teams_clues():
    """Decrypto 15: option clue_uniqueness="team" only forbids the team's own past clues."""
    g = round_one(clue_uniqueness="team")
    g.then("ann", GiveClues(clues=["cafe", "tide", "keys"]))
    g.then("cy", GiveClues(clues=["CAFE", "trees", "crown"]))
    g.then("bob", SubmitGuess(team="white", code=[3, 1, 4]))
    g.then("dee", SubmitGuess(team="black", code=[2, 4, 1]))
    refused = g.when("bob", GiveClues(clues=["tide", "a", "b"]))
    assert isinstance(refused, Rejection) and refused.code == "clue_already_used"


def test_clue_spelling_is_kept_as_written():
    """Decrypto 16: spelling matters: the clues are shown exactly as written (trimmed)."""
    g = round_one()
    g.then("ann", GiveClues(clues=["Colour", "théâtre", "O'Neil"]))
    assert GAME.player_view(g.state, "bob")["clues"]["white"] == ["Colour", "théâtre", "O'Neil"]
    g.then("cy", GiveClues(clues=["trees", "crown", "launch"]))
    assert GAME.player_view(g.state, None)["clues"] == {
        "white": ["Colour", "théâtre", "O'Neil"],
        "black": ["trees", "crown", "launch"],
    }


# --- every other rejection ----------------------------------------------------------------


def test_only_the_encryptor_gives_clues_and_only_once():
    """Decrypto 7: not_your_turn for a non-encryptor or a second set of clues."""
    g = round_one()
    refused = g.when("bob", GiveClues(clues=["a", "b", "c"]))
    assert isinstance(refused, Rejection) and refused.code == "not_your_turn" and "ann" in refused.message
    g.then("ann", GiveClues(clues=["a", "b", "c"]))
    refused = g.when("ann", GiveClues(clues=["d", "e", "f"]))
    assert isinstance(refused, Rejection) and refused.code == "not_your_turn" and "ann" not in refused.message


def test_a_second_answer_from_the_same_team_is_refused():
    """Decrypto 8: one answer per team, by any one of its eligible members."""
    g = decoding(round_=2)
    g.then("cy", SubmitGuess(team="white", code=[1, 2, 3]))
    refused = g.when("dee", SubmitGuess(team="white", code=[1, 2, 4]))
    assert isinstance(refused, Rejection) and refused.code == "not_your_turn" and "dee" not in refused.message


def test_commands_of_another_step_are_refused_as_wrong_phase():
    g = round_one()  # ann is to act: white's encryptor
    assert g.refused("ann", SubmitGuess(team="white", code=[1, 2, 3])) == "wrong_phase"
    assert g.refused("ann", GuessKeywords(words=["a", "b", "c", "d"])) == "wrong_phase"
    g = decoding()  # bob is to act: he decodes white's code
    assert g.refused("bob", GiveClues(clues=["a", "b", "c"])) == "wrong_phase"


def test_guess_for_the_code_not_being_decoded_is_refused():
    """Decrypto 8-9: White's code first; an answer for Black's is wrong_team."""
    g = decoding()
    refused = g.when("bob", SubmitGuess(team="black", code=[1, 2, 3]))
    assert isinstance(refused, Rejection) and refused.code == "wrong_team"


@pytest.mark.parametrize("code", [[1, 1, 2], [1, 2], [1, 2, 3, 4], [0, 1, 2], [5, 1, 2]])
def test_a_guess_must_be_one_of_the_24_codes(code):
    """4.3-3: a guess is one of the 24 codes, else invalid_code."""
    refused = decoding().when("bob", SubmitGuess(team="white", code=code))
    assert isinstance(refused, Rejection) and refused.code == "invalid_code"


@pytest.mark.parametrize(
    ("words", "code"),
    [
        (["a", "b", "c"], "wrong_word_count"),
        (["a", "b", "c", "d", "e"], "wrong_word_count"),
        (["a", "b", "c", "x" * 61], "word_too_long"),
    ],
)
def test_bad_keyword_guesses_are_refused(words, code):
    refused = tiebreak_state().when("ann", GuessKeywords(words=words))
    assert isinstance(refused, Rejection) and refused.code == code


def test_second_keyword_guess_of_a_team_is_refused():
    g = tiebreak_state()
    g.then("ann", GuessKeywords(words=["a", "b", "c", "d"]))
    refused = g.when("bob", GuessKeywords(words=["e", "f", "g", "h"]))
    assert isinstance(refused, Rejection) and refused.code == "not_your_turn" and "bob" not in refused.message


def test_commands_after_the_end_are_refused():
    g = tiebreak_state()
    g.then("ann", GuessKeywords(words=["a", "b", "c", "d"]))
    g.then("cy", GuessKeywords(words=["a", "b", "c", "d"]))
    assert g.rejects("bob", GuessKeywords(words=["a", "b", "c", "d"])).code == "game_over"


def test_an_unknown_command_is_refused():
    class Dance(Command, frozen=True, kw_only=True):
        pass

    assert round_one().refused("ann", Dance()) == "bad_command"


def test_refusals_through_the_table_append_nothing():
    """Every rejection through the platform is a value, and the table does not change."""
    table, _ = start_table(["a", "b", "c", "d"], seed=2)
    acting = set(DECIDER.players_to_act(table))
    idle = next(p for p in table.players if p not in acting)
    refused = DECIDER.decide(
        table, GiveClues(clues=["x", "y", "z"]), Context(actor=idle, rng=random.Random(0))
    )
    assert isinstance(refused, Rejection) and refused.code == "not_your_turn"


# --- legal commands, bot, views -----------------------------------------------------------


def test_every_legal_command_is_accepted():
    """legal: complete commands (examples for free text), each accepted by decide."""
    for g in (round_one(), decoding(round_=2), tiebreak_state()):
        state = g.state
        for player in GAME.players_to_act(state):
            legal = GAME.legal_commands(state, player)
            assert legal
            for command in legal:
                assert not isinstance(g.when(player, command), Rejection), command
        idle = [p for p in state.players if p not in GAME.players_to_act(state)]
        assert all(GAME.legal_commands(state, p) == [] for p in idle)


def test_legal_clue_examples_avoid_own_keywords_and_used_clues():
    g = round_one(keywords={"white": list(WORDS["en"][:4]), "black": list(WORDS["en"][4:8])})
    examples = [
        c for command in GAME.legal_commands(g.state, "ann") for c in as_type(command, GiveClues).clues
    ]
    assert not {normalize(w) for w in WORDS["en"][:4]} & {normalize(c) for c in examples}


def test_bot_plays_from_its_view():
    g = decoding(round_=2)
    table = msgspec.structs.replace(
        DECIDER.initial_state, status="running", players=g.state.players, game=g.state
    )
    view = DECIDER.player_view(table, "cy")
    choice = GAME.bot(view, random.Random(1))
    assert choice in view["legal"]


def test_views_have_the_platform_keys():
    table, _ = start_table(["a", "b", "c", "d"])
    for viewer in ("a", "b", "c", "d", None):
        view = DECIDER.player_view(table, viewer)
        assert {"status", "seats", "to_act", "phase", "tokens", "history"} <= set(view)
    acting = DECIDER.players_to_act(table)[0]
    assert DECIDER.player_view(table, acting)["legal"]


def test_events_round_trip_through_json():
    g = tiebreak_state()
    events = g.then("ann", GuessKeywords(words=["a", "b", "c", "d"]))
    events2 = g.then("cy", GuessKeywords(words=["a", "b", "c", "d"]))
    for event in [set_up(), *events, *events2]:
        assert msgspec.json.decode(msgspec.json.encode(event), type=DECIDER.event_type) == event


def test_evolve_does_not_mutate_its_input():
    g = round_one()
    state = g.state
    before = msgspec.json.encode(state)
    play_round(g, white_ok=True, black_ok=False)  # folds onto the same start state
    assert msgspec.json.encode(state) == before
    assert isinstance(state, State)


def test_wrong_helper_gives_another_valid_code():
    assert wrong([1, 2, 3]) != [1, 2, 3] and tuple(wrong([1, 2, 3])) in CODES


def test_bot_skips_revealed_codes_when_codes_are_drawn_without_replacement():
    """Decrypto 6 (4.3-6): without replacement a revealed code cannot come again soon."""
    setup = set_up(code_draw="without_replacement")
    g = Given(GAME, [setup, round_started(setup, 1, (3, 1, 4), (2, 4, 1))])
    play_round(g, white_ok=True, black_ok=True)
    give_both_clues(g)
    table = msgspec.structs.replace(
        DECIDER.initial_state, status="running", players=g.state.players, game=g.state
    )
    view = DECIDER.player_view(table, "cy")
    rng = random.Random(3)
    picks = {tuple(GAME.bot(view, rng)["code"]) for _ in range(300)}
    assert (3, 1, 4) not in picks and len(picks) == 23


# --- found in review ----------------------------------------------------------------------


def seat(players, options, seats):
    """Create with `seats` seats and `options`, seat `players` (the first creates)."""
    table = DECIDER.initial_state
    steps: list[tuple[str, Command]] = [(players[0], Create(options=options, seats=seats))]
    steps += [(p, Join()) for p in players[1:]]
    for actor, command in steps:
        events = DECIDER.decide(table, command, Context(actor=actor, rng=random.Random(0)))
        assert not isinstance(events, Rejection), events
        table = fold(DECIDER.evolve, events, table)
    return table


@pytest.mark.parametrize(
    ("options", "seated", "teams"),
    [
        # x is named but never sits: white a, b, c; d and e are dealt to Black.
        (
            {"white": ["a", "b", "c", "x"]},
            ["a", "b", "c", "d", "e"],
            {"white": ("a", "b", "c"), "black": ("d", "e")},
        ),
        # six named for six seats, one of them absent: the five seated keep their teams.
        (
            {"white": ["a", "b", "c"], "black": ["d", "e", "x"]},
            ["a", "b", "c", "d", "e"],
            {"white": ("a", "b", "c"), "black": ("d", "e")},
        ),
    ],
)
def test_named_players_who_do_not_sit_do_not_block_the_start(options, seated, teams):
    """Decrypto 1: the creator's teams; players named but not seated are ignored. The platform
    re-checks the options at the start against the seated count, and that check must not
    refuse a start that makes two valid teams."""
    table = seat(seated, options, seats=6)
    events = DECIDER.decide(table, Start(), Context(actor=seated[0], rng=random.Random(0)))
    assert not isinstance(events, Rejection), events
    table = fold(DECIDER.evolve, events, table)
    assert table.game.teams == teams


def test_named_teams_that_cannot_be_completed_are_refused_at_the_start_with_the_teams():
    """Decrypto 1: white names 3 of 4 seated players: Black would have 1 -> bad_teams at the
    start, naming the team and its members; nothing appended."""
    table = seat(["a", "b", "c", "d"], {"white": ["a", "b", "c"], "black": ["d"]}, seats=4)
    refused = DECIDER.decide(table, Start(), Context(actor="a", rng=random.Random(0)))
    assert refused == Rejection(
        "bad_teams",
        "Each team needs 2 to 4 players; black would have 1 (d). Seat more players or change the teams.",
    )


@pytest.mark.parametrize(
    ("clues", "code"),
    [
        (["\u0301", "tide", "keys"], "empty_clue"),  # a lone accent: nothing once normalized
        (["\u200b", "tide", "keys"], "empty_clue"),  # a zero-width space
        (["sha\u200brk", "tide", "keys"], "clue_is_keyword"),  # an own keyword, split invisibly
        (["ti\u00addé", "tide", "keys"], "duplicate_clue"),  # a soft hyphen inside
    ],
)
def test_invisible_characters_do_not_get_around_the_clue_checks(clues, code):
    """Decrypto 13 and 15: a clue of invisible characters is empty, and zero-width or soft
    hyphen characters do not make a keyword or a used clue look new."""
    refused = round_one().when("ann", GiveClues(clues=clues))
    assert isinstance(refused, Rejection) and refused.code == code, refused


def test_invisible_characters_do_not_make_a_used_clue_new():
    """Decrypto 15: "ca<zero-width space>fe" is the clue "cafe" already given."""
    g = round_one()
    g.then("ann", GiveClues(clues=["cafe", "tide", "keys"]))
    refused = g.when("ann", GiveClues(clues=["ti​de", "trees", "crown"]))
    g.then("cy", GiveClues(clues=["trees", "crown", "launch"]))
    refused = next_round(g).when("bob", GiveClues(clues=["ca​fe", "moss", "gold"]))
    assert isinstance(refused, Rejection) and refused.code == "clue_already_used"


def test_last_round_tiebreak_option_goes_straight_to_the_keywords():
    """Decrypto 12, 4.3-2 (ASSUMED): after the last round, `last_round_tiebreak="keywords"`
    skips the token score (BGA's description goes straight to keyword guessing); the default
    "score" compares scores first. Both flags always use the score first (Decrypto 11)."""
    for mode, expected in (("score", "decided"), ("keywords", "keywords")):
        setup = set_up(max_rounds=2, last_round_tiebreak=mode)
        g = Given(GAME, [setup, round_started(setup, 1, (1, 2, 3), (1, 2, 3))])
        play_round(g, white_ok=True, black_ok=True)
        events = play_round(g, white_ok=True, black_ok=True, white_intercepts=True)
        assert g.state.tokens["white"] == Tokens(interceptions=1)
        if expected == "decided":
            decided = as_type(events[-1], GameDecided)
            assert (decided.winner, decided.reason, decided.tiebreak) == (
                "white",
                "token_score",
                "last_round",
            )
        else:
            assert events[-1] == KeywordGuessingStarted(cause="last_round", scores={"white": 1, "black": 0})
            g.then("ann", GuessKeywords(words=["", "", "", ""]))
            events = g.then("cy", GuessKeywords(words=["shark", "", "", ""]))
            decided = as_type(events[-1], GameDecided)
            assert (decided.winner, decided.reason, decided.tiebreak) == (
                "black",
                "keywords",
                "last_round",
            )
    # both flags: the score decides even with last_round_tiebreak="keywords" (C-3's chain)
    setup = set_up(last_round_tiebreak="keywords")
    g = Given(GAME, [setup, round_started(setup, 1, (1, 2, 3), (3, 2, 1))])
    play_round(g, white_ok=False, black_ok=True)
    events = play_round(g, white_ok=False, black_ok=True, white_intercepts=True)
    decided = as_type(events[-1], GameDecided)
    assert (decided.winner, decided.reason) == ("black", "two_miscommunications")


def test_last_round_tiebreak_option_is_validated_and_defaults_to_score():
    assert DecryptoOptions().last_round_tiebreak == "score"
    refused = rejected(
        DECIDER.decide(
            DECIDER.initial_state,
            Create(options={"last_round_tiebreak": "coin"}, seats=4),
            Context(actor="a", rng=random.Random(0)),
        )
    )
    assert refused.code == "bad_option"
    assert "last_round_tiebreak must be one of score, keywords." in refused.message


def test_docs_list_every_option_with_its_default_every_rejection_event_and_view_key():
    """docs/games/decrypto.md matches the code: options and defaults, rejection codes, events,
    view keys."""
    import re
    from pathlib import Path

    import shared.games.decrypto.rules as rules_module

    root = Path(__file__).resolve().parents[3]
    docs = (root / "docs/games/decrypto.md").read_text(encoding="utf-8")
    options = msgspec.to_builtins(DecryptoOptions())
    documented = dict(re.findall(r"^\| `(\w+)`(?:, `\w+`)? \| `([^`]*)` \|", docs, re.M))
    documented.update({"black": documented.get("white")})
    assert set(documented) == set(options)
    for name, default in options.items():
        assert msgspec.json.decode(documented[name]) == default, name
    source = Path(rules_module.__file__).read_text(encoding="utf-8")
    platform = {"bad_option", "bad_command", "game_over", "not_your_turn"}  # the table's, the turn guard's
    codes = set(re.findall(r'Rejection\(\s*"(\w+)"', source)) | platform
    table = docs[docs.index("## Rejection codes") : docs.index("## Choices")]
    assert set(re.findall(r"^\| `(\w+)` \|", table, re.M)) == codes
    events = docs[docs.index("## Events") : docs.index("## Views")]
    listed = set(re.findall(r"^\| `(\w+)` \|", events, re.M))
    assert listed == {type_tag(e) for e in GAME.events}
    view = GAME.player_view(round_one().state, "ann")
    keys = docs[docs.index("`player_view` keys:") : docs.index("## Result")]
    assert all(f"`{key}`" in keys for key in view), [k for k in view if f"`{k}`" not in keys]


def test_any_command_from_any_seat_at_any_step_is_accepted_or_refused_never_raises():
    """Rejections (all of Decrypto 7-8, 12-13, 15): at every step of whole bot games, every
    seat sends commands of every kind, well- and ill-formed; each is accepted or refused with
    a documented code, never raises, and a refusal leaves the table as it was. Somebody
    always has a legal command until the end (a turn never gets stuck)."""
    from shared.games.simulate import simulate

    documented = {
        "wrong_phase",
        "not_your_turn",
        "wrong_team",
        "invalid_code",
        "wrong_clue_count",
        "empty_clue",
        "clue_too_long",
        "duplicate_clue",
        "clue_already_used",
        "clue_is_keyword",
        "wrong_word_count",
        "word_too_long",
        "game_over",
    }
    probes = [
        GiveClues(clues=["a", "b", "c"]),
        GiveClues(clues=[]),
        GiveClues(clues=["", "b", "c"]),
        GiveClues(clues=["a", "a", "c"]),
        GiveClues(clues=["x" * 500, "b", "c"]),
        SubmitGuess(team="white", code=[1, 2, 3]),
        SubmitGuess(team="black", code=[4, 3, 2]),
        SubmitGuess(team="white", code=[1, 1, 1]),
        SubmitGuess(team="red", code=[1, 2, 3]),
        SubmitGuess(team="black", code=[]),
        GuessKeywords(words=["a", "b", "c", "d"]),
        GuessKeywords(words=[]),
        GuessKeywords(words=["y" * 500] * 4),
    ]
    seen: set[str] = set()

    def probe(table):
        if table.status != "running":
            return
        acting = DECIDER.players_to_act(table)
        assert acting and all(DECIDER.legal_commands(table, p) for p in acting)  # never stuck
        before = msgspec.json.encode(table)
        for player in table.players:
            for command in probes:
                out = DECIDER.decide(table, command, Context(actor=player, rng=random.Random(0)))
                if isinstance(out, Rejection):
                    assert out.code in documented and out.message, out
                    seen.add(out.code)
                if player not in acting:  # a seat not to act is told so, whatever it sends
                    assert isinstance(out, Rejection), (player, command)
                    assert out.code in ("not_your_turn", "wrong_phase", "wrong_team"), out
        assert msgspec.json.encode(table) == before

    for index in range(12):
        players = [f"p{i}" for i in range(4 + index % 5)]
        sim = simulate(DECIDER, players, random.Random(index), options={"max_rounds": 2 + index % 3})
        table = DECIDER.initial_state
        for _, batch in sim.log:  # the table as it stands between two commands
            table = fold(DECIDER.evolve, batch, table)
            probe(table)
        assert table.status == "ended"
    assert seen >= documented - {"game_over", "clue_already_used", "clue_is_keyword"}
