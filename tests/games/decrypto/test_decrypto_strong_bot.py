"""Decrypto's strong bot and the association tables it plays by.

The tables: every keyword of both languages has at least 5 associations, each a clue the game's
own check accepts for its keyword and naming, containing or being no keyword of its language (nor
its plural). The bot: whole games of strong bots end without a refused command (both languages,
4-8 players, the options that change what it reads); it reads its own code by its keywords, the
other team's by the clue history, and never guesses a code already revealed when codes are drawn
without replacement; from a seat's view and a seed it makes the same move, whatever the process's
hash seed; and its teams decode their own codes far more often than random guessing does.
"""

from __future__ import annotations

import copy
import dataclasses
import json
import os
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import msgspec
import pytest

from shared.games.bot_levels import bot_for
from shared.games.decider import Context, Rejection
from shared.games.decrypto import GAME, bot_figures
from shared.games.decrypto.associations import (
    ASSOCIATIONS,
    MIN_ASSOCIATIONS,
    plural_of,
    problems,
    quick_problems,
)
from shared.games.decrypto.bot_figures import measure
from shared.games.decrypto.messages import LANGUAGES, CluesGiven, CodeRevealed, GameDecided, GameSetUp
from shared.games.decrypto.rules import clue_problem
from shared.games.decrypto.state import (
    CODES,
    TEAMS,
    State,
    contains_word,
    keyword_key,
    normalize,
)
from shared.games.decrypto.strong_bot import LINK_HOLDERS, strong_bot
from shared.games.decrypto.words import WORDS, keyword_clashes
from shared.games.simulate import simulate
from shared.games.table import Create, Join, Start, TableDecider

STRONG = TableDecider(dataclasses.replace(GAME, bot=strong_bot))  # every seat strong


# --- the tables -------------------------------------------------------------------------------


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_keyword_has_enough_associations(language):
    table = {normalize(k): clues for k, clues in ASSOCIATIONS[language].items()}
    for keyword in WORDS[language]:
        assert len(table.get(normalize(keyword), ())) >= MIN_ASSOCIATIONS, keyword
    assert len(table) == len(WORDS[language])


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_association_is_a_clue_the_game_accepts_and_names_no_keyword(language):
    keywords = WORDS[language]
    table = ASSOCIATIONS[language]
    every = tuple(c for clues in table.values() for c in clues)
    assert keyword_clashes(every, keywords) == []  # names, contains or is inside no keyword
    for keyword, clues in table.items():
        assert [c for c in clues if plural_of(c, keywords)] == [], keyword
        for clue in clues:
            assert keyword_key(clue) != keyword_key(keyword), (keyword, clue)
            assert not contains_word(clue, keyword) and not contains_word(keyword, clue), (keyword, clue)
        # the rules' own check, with the keyword among the clue giver's keywords: three by three
        state = State(keywords={"white": (keyword,), "black": ()}, used_clues={"white": (), "black": ()})
        padded = [*clues, *clues[:2]]
        for i in range(0, len(clues), 3):
            assert clue_problem(state, "white", padded[i : i + 3]) is None, (keyword, padded[i : i + 3])
    assert quick_problems(language, table) == []  # what the import checks: nothing left out


def test_the_table_check_finds_a_bad_line():
    bad: dict[str, tuple[str, ...]] = {"cat": ("meow", "dogs", "hot dog", "dog", "x" * 61, "meow")}
    found = problems("en", bad)
    assert "'cat': 'dogs' is the plural of the keyword 'dog'" in found
    assert "'hot dog' names the keyword 'dog'" in found and "'dog' names the keyword 'dog'" in found
    assert any("longer than" in p for p in found) and "'cat': a clue is repeated" in found
    everything_but_cat = {k: v for k, v in ASSOCIATIONS["en"].items() if k != "cat"}
    assert quick_problems("en", everything_but_cat) == ["no associations for 'cat'"]


# --- whole games ------------------------------------------------------------------------------


VARIANTS: list[tuple[int, dict[str, Any]]] = [
    (4, {}),
    (5, {"code_draw": "without_replacement"}),
    (6, {"clue_uniqueness": "team"}),
    (7, {"max_rounds": 3, "last_round_tiebreak": "keywords"}),
    (8, {"max_rounds": None, "code_draw": "without_replacement"}),
]
GAMES = [(players, {"language": language, **extra}) for language in LANGUAGES for players, extra in VARIANTS]


@pytest.mark.parametrize(("players", "options"), GAMES)
def test_strong_bots_play_whole_games_without_a_refused_command(players, options):
    seats = [f"p{i}" for i in range(1, players + 1)]
    sim = simulate(STRONG, seats, random.Random(f"{players}{options}"), options=options)
    assert sim.table.status == "ended"  # simulate raises BotRefused on any refusal
    assert any(isinstance(e, GameDecided) for e in sim.events)


def test_the_normal_and_hard_levels_play_the_strong_bot():
    assert bot_for(GAME, "normal") is strong_bot and bot_for(GAME, "hard") is strong_bot


def test_keyword_guesses_name_the_keyword_whose_list_holds_the_clues_seen():
    """The tie-break: at each of the other team's positions, the keyword whose list holds most
    of its clues there (not one of the own); an example where no clue was seen."""
    history = [
        _reveal("black", ["oink", "hoot", "quack"], [1, 2, 3]),
        _reveal("black", ["wise", "piglet", "x"], [2, 1, 3]),
    ]
    view = {
        "language": "en",
        "my_team": "white",
        "keywords": {"white": ["dog", "cat", "horse", "cow"], "black": None},
        "history": history,
        "legal": [{"type": "guess_keywords", "words": ["plain", "tall", "wide", "quick"]}],
    }
    for seed in range(5):
        assert strong_bot(view, random.Random(seed)) == {
            "type": "guess_keywords",
            "words": ["pig", "owl", "duck", "quick"],
        }


# --- reading clues ----------------------------------------------------------------------------


def _guess_view(
    target: str, clues: list[str], history: list[dict[str, Any]], **fields: Any
) -> dict[str, Any]:
    """A seat of White asked to answer `target`'s code (only the fields the bot reads)."""
    return {
        "language": "en",
        "my_team": "white",
        "keywords": {"white": ["dog", "cat", "horse", "cow"], "black": None},
        "clues": {target: clues},
        "history": history,
        "legal": [{"type": "submit_guess", "team": target, "code": list(c)} for c in CODES],
        **fields,
    }


def _reveal(team: str, clues: list[str], code: list[int]) -> dict[str, Any]:
    return {"round": 1, "team": team, "clues": clues, "code": code, "guess": code, "interception": None}


def test_the_own_code_is_read_by_the_keywords():
    for seed in range(5):
        move = strong_bot(_guess_view("white", ["meow", "moo", "bark"], []), random.Random(seed))
        assert move == {"type": "submit_guess", "team": "white", "code": [2, 4, 1]}


def test_the_other_code_is_read_by_its_past_clues():
    history = [_reveal("black", ["oink", "hoot", "quack"], [1, 2, 3])]
    view = _guess_view("black", ["wise", "piglet", "waddle"], history)
    for seed in range(5):
        assert strong_bot(view, random.Random(seed))["code"] == [2, 1, 3]


def test_no_revealed_code_is_guessed_again_when_codes_are_drawn_without_replacement():
    revealed = [list(c) for c in CODES[:20]]
    history = [_reveal("black", ["quick", "quiet", "rapid"], code) for code in revealed]
    view = _guess_view("black", ["plain", "tall", "wide"], history, code_draw="without_replacement")
    guesses = {tuple(strong_bot(view, random.Random(seed))["code"]) for seed in range(40)}
    assert guesses <= set(CODES[20:]) and len(guesses) > 1  # the 4 left, at random


# --- giving clues -----------------------------------------------------------------------------


def _first_clue_view(options: dict[str, Any], seed: int = 3) -> tuple[Any, str, dict[str, Any]]:
    """A started 4-player table, its White encryptor and that seat's view."""
    rng = random.Random(seed)
    table = STRONG.initial_state
    seats = ["p1", "p2", "p3", "p4"]
    commands: list[Any] = [Create(options=options, seats=4, entropy="00" * 16)]
    commands += [Join(entropy="00" * 16) for _ in seats[1:]]
    for actor, command in zip([seats[0], *seats[1:], seats[0]], [*commands, Start()]):
        events = STRONG.decide(table, command, Context(actor=actor, rng=rng))
        assert not isinstance(events, Rejection)
        for event in events:
            table = STRONG.evolve(table, event)
    encryptor = table.game.encryptors["white"]
    return table, encryptor, STRONG.player_view(table, encryptor)


def test_clues_come_from_the_keyword_lists_and_are_accepted():
    table, encryptor, view = _first_clue_view({"language": "fr"})
    move = strong_bot(view, random.Random(0))
    keywords = table.game.keywords["white"]
    for digit, clue in zip(table.game.codes["white"], move["clues"]):
        assert clue in ASSOCIATIONS["fr"][keywords[digit - 1]]
    command = msgspec.convert(move, STRONG.command_type)
    assert not isinstance(
        STRONG.decide(table, command, Context(actor=encryptor, rng=random.Random(0))), Rejection
    )


def test_a_used_up_list_gives_way_to_an_example():
    table, _, view = _first_clue_view({})
    keywords = table.game.keywords["white"]
    first = table.game.codes["white"][0]
    spent = list(ASSOCIATIONS["en"][keywords[first - 1]])
    view = {
        **view,
        "history": [_reveal("white", spent[i : i + 3], [first] * 3) for i in range(0, len(spent), 3)],
    }
    move = strong_bot(view, random.Random(0))
    examples = [w for command in view["legal"] for w in command["clues"]]
    assert move["clues"][0] in examples and len({normalize(c) for c in move["clues"]}) == 3
    assert not {normalize(c) for c in move["clues"]} & {normalize(c) for c in spent}


# --- the same move from the same view ---------------------------------------------------------


def _moves() -> list[Any]:
    """Every move of two whole strong-bot games (one each language), each made again from a copy
    of its seat's view with a generator seeded by the move's index: what the seat would play."""
    moves: list[Any] = []
    for language in LANGUAGES:
        rng = random.Random(language)
        table = STRONG.initial_state
        # the French game's seats are bots' (lateral clues too), the English one's people's
        seats = [f"robot-{n}" for n in range(1, 6)] if language == "fr" else ["p1", "p2", "p3", "p4", "p5"]
        commands: list[tuple[str, Any]] = [
            (seats[0], Create(options={"language": language}, seats=5, entropy="00" * 16))
        ]
        commands += [(p, Join(entropy="00" * 16)) for p in seats[1:]] + [(seats[0], Start())]
        views: list[dict[str, Any]] = []
        while table.status != "ended":
            if not commands:
                actor = rng.choice(STRONG.players_to_act(table))
                view = STRONG.player_view(table, actor)
                views.append(copy.deepcopy(view))
                commands.append((actor, msgspec.convert(strong_bot(view, rng), STRONG.command_type)))
            actor, command = commands.pop(0)
            events = STRONG.decide(table, command, Context(actor=actor, rng=rng))
            assert not isinstance(events, Rejection), events
            for event in events:
                table = STRONG.evolve(table, event)
        moves += [strong_bot(copy.deepcopy(v), random.Random(i)) for i, v in enumerate(views)]
    return moves


def test_a_seat_view_and_a_seed_give_the_same_move_whatever_the_hash_seed():
    here = _moves()
    module = "tests.games.decrypto.test_decrypto_strong_bot"
    script = f"import json; from {module} import _moves; print(json.dumps(_moves()))"
    env = {**os.environ, "PYTHONHASHSEED": "12345"}  # another order of every set of words
    root = Path(__file__).resolve().parents[3]
    run = [sys.executable, "-c", script]
    out = subprocess.run(run, env=env, cwd=root, capture_output=True, text=True, check=True)
    assert json.loads(out.stdout) == json.loads(json.dumps(here))


# --- in figures -------------------------------------------------------------------------------


@pytest.mark.parametrize("seats", ["bots", "people"])
def test_strong_teams_decode_far_more_often_than_random_guessing(seats):
    figures = measure(24, seed=7, seats=seats)
    strong, random_ = figures["decode"]["strong"], figures["decode"]["random"]
    assert strong["tries"] > 30 and random_["tries"] > 10
    assert strong["rate"] >= 2 * max(random_["rate"], 1 / len(CODES))
    assert strong["rate"] > 0.9


def test_lateral_clues_keep_a_strong_interceptor_from_most_codes():
    """Bot teammates decode lateral clues as surely as the lists' own, and a strong team,
    reading the same table, intercepts far fewer of them (0.38 of 58 against 0.76 of 38 when
    the encryptors keep to the lists: seats named as people's)."""
    lateral = measure(24, seed=7, seats="bots")["intercept"]["strong_vs_strong_clues"]
    listed = measure(24, seed=7, seats="people")["intercept"]["strong_vs_strong_clues"]
    assert lateral["tries"] > 30 and listed["tries"] > 30
    assert lateral["rate"] <= 0.5 < listed["rate"]


def test_a_strong_interceptor_reads_the_strong_encryptors_clues_less_than_drawn_ones():
    """Random clues a team could give, drawn from the keywords' own lists, are what the strong
    encryptor is weighed against: the same interceptor reads them far more often."""
    intercept = measure(24, seed=7, seats="bots")["intercept"]
    strong, drawn = intercept["strong_vs_strong_clues"], intercept["strong_vs_drawn_clues"]
    assert strong["tries"] > 30 and drawn["tries"] > 20
    assert strong["rate"] < drawn["rate"]


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_drawn_encryptor_gives_unused_clues_of_each_keyword_own_list(language):
    given = 0
    for game in range(3):
        rng = random.Random(game)
        kinds: dict[str, bot_figures.Kind] = {t: "drawn" for t in TEAMS}
        events = bot_figures.play(kinds, language, rng)
        used: set[str] = set()
        keywords: dict[str, list[str]] = {}
        clues: dict[str, list[str]] = {}
        for event in events:
            if isinstance(event, GameSetUp):
                keywords = {team: list(words or ()) for team, words in event.keywords.items()}
            elif isinstance(event, CluesGiven):
                clues[event.team] = list(event.clues or ())
            elif isinstance(event, CodeRevealed):
                for digit, clue in zip(event.code, clues.pop(event.team), strict=True):
                    assert clue in ASSOCIATIONS[language][keywords[event.team][digit - 1]]
                    assert normalize(clue) not in used
                    used.add(normalize(clue))
                    given += 1
    assert given > 30


def _clues_given(monkeypatch: pytest.MonkeyPatch, seats: str, games: int = 4) -> list[tuple[str, str, str]]:
    """(language, keyword, clue) of every clue strong encryptors gave in whole games seated so."""
    given: list[tuple[str, str, str]] = []

    def recording(view: dict[str, Any], rng: random.Random) -> dict[str, Any]:
        move = strong_bot(view, rng)
        if move["type"] == "give_clues":
            keywords = view["keywords"][view["my_team"]]
            given.extend(
                (view["language"], keywords[d - 1], c) for d, c in zip(view["my_code"], move["clues"])
            )
        return move

    monkeypatch.setitem(bot_figures.BOTS, "strong", recording)
    for index in range(games):
        language = LANGUAGES[index % len(LANGUAGES)]
        bot_figures.play(
            {t: "strong" for t in TEAMS}, language, random.Random(index), bot_figures.SEATS[seats]
        )
    return given


def test_an_encryptor_with_a_person_to_decode_for_keeps_to_the_keyword_list(monkeypatch):
    given = _clues_given(monkeypatch, "people")
    assert len(given) > 30
    assert all(clue in ASSOCIATIONS[language][keyword] for language, keyword, clue in given)


def test_an_encryptor_with_bots_to_decode_for_links_its_lateral_clues_to_the_keyword(monkeypatch):
    given = _clues_given(monkeypatch, "bots")
    lateral = [(lang, k, c) for lang, k, c in given if c not in ASSOCIATIONS[lang][k]]
    assert len(given) > 30 and len(lateral) > len(given) / 4
    for language, keyword, clue in lateral:
        table = {normalize(k): {normalize(c) for c in cs} for k, cs in ASSOCIATIONS[language].items()}
        own = table[normalize(keyword)]
        # a keyword whose list holds the clue shares with this one's a word no third list holds
        assert any(
            normalize(clue) in clues
            and any(sum(link in other for other in table.values()) <= LINK_HOLDERS for link in own & clues)
            for clues in table.values()
        ), (keyword, clue)
