"""Illustori's strong bot (the `normal` and `hard` levels): whole games through the real rules
with no refused command and no penalised text of its own, votes that judge (the rules, then the
card), and moves that depend on the view and the rng's seed alone."""

from __future__ import annotations

import copy
import itertools
import json
import random
from typing import Any

import msgspec
import pytest

from shared.games.bot_levels import bot_for
from shared.games.decider import Context, Rejection
from shared.games.illustori import GAME
from shared.games.illustori.bot_figures import BOTS, DECIDER, measure, mixed_kinds, play
from shared.games.illustori.chaining import Rules, chain_problem, penalties, text_problem
from shared.games.illustori.data import ALPHABET, CARDS, HAND_SIZE, MODES, WORDS
from shared.games.illustori.examples import BY_FIRST, BY_LAST, PENALTY_WORD
from shared.games.illustori.strong_bot import ask_of, fits, judge, natural_letters, options, strong_bot
from shared.games.table import Create, Join, Start, Table

LETTER_MODES = [(m, d) for m in MODES for d in (("start",) if m == "english" else ("start", "end"))]
PROHIBITIONS = list(itertools.product((False, True), (False, True)))


def options_of(index: int) -> tuple[dict[str, Any], int]:
    """Every chaining mode with every pair of prohibitions; 3-6 seats, both languages, and the
    smallest deck now and then."""
    (mode, direction), (repeat, used) = LETTER_MODES[index % 5], PROHIBITIONS[index // 5 % 4]
    seats = 3 + index % 4
    options: dict[str, Any] = {
        "mode": mode,
        "reverse_direction": direction,
        "no_repeated_letter": repeat,
        "no_used_letters": used,
        "language": "fr" if index % 3 == 2 else "en",
    }
    if index % 4 == 1:
        options["deck_size"] = seats * HAND_SIZE + 1
    return options, seats


def test_the_game_plays_it_at_normal_and_hard() -> None:
    assert GAME.strong_bot is strong_bot
    assert bot_for(GAME, "normal") is strong_bot and bot_for(GAME, "hard") is strong_bot


@pytest.mark.parametrize("index", range(20))
def test_strong_tables_end_without_refusal_penalty_or_rejection(index: int) -> None:
    options, seats = options_of(index)
    played = play(
        dict.fromkeys([f"p{i + 1}" for i in range(seats)], "strong"), options, index
    )  # refusal: raises
    assert sum(played.penalties.values()) == 0, played
    assert sum(played.rejections.values()) == 0, played  # each judges the others' texts sound
    assert played.winners


@pytest.mark.parametrize("index", range(0, 20, 3))
def test_strong_seats_among_easy_ones_are_never_penalised(index: int) -> None:
    options, seats = options_of(index)
    played = play(mixed_kinds(seats, random.Random(index)), options, 100 + index)
    assert all(played.penalties[s] == 0 for s, kind in played.kinds.items() if kind == "strong"), played


# --- views at a vote ------------------------------------------------------------------------


def views_until(options: dict[str, Any], seats: int, seed: int, stop: Any) -> tuple[dict[str, Any], Table]:
    """Strong bots play until `stop(view)` holds for the view of a seat to act: that view."""
    dice, rng = random.Random(seed), random.Random(seed + 1)
    players = [f"p{i + 1}" for i in range(seats)]
    table: Table = DECIDER.initial_state

    def run(actor: str, command: Any) -> None:
        nonlocal table
        events = DECIDER.decide(table, command, Context(actor=actor, rng=dice))
        assert not isinstance(events, Rejection), events
        for event in events:
            table = DECIDER.evolve(table, event)

    run(players[0], Create(options=options, seats=seats, entropy=dice.randbytes(4).hex()))
    for p in players[1:]:
        run(p, Join(entropy=dice.randbytes(4).hex()))
    run(players[0], Start())
    while table.status == "running":
        actor = DECIDER.players_to_act(table)[0]
        view = DECIDER.player_view(table, actor)
        if stop(view):
            return view, table
        run(actor, msgspec.convert(strong_bot(view, rng), DECIDER.command_type))
    raise AssertionError("the game ended first")


def chain_vote(view: dict[str, Any]) -> bool:
    return view["phase"] == "voting" and bool(view["chain"]) and len(view["chain"]) >= 3


def with_text(view: dict[str, Any], text: str) -> dict[str, Any]:
    out = copy.deepcopy(view)
    out["pending"]["text"] = text
    return out


def texts_about(view: dict[str, Any]) -> tuple[list[str], list[str]]:
    """Texts holding the pending card's picture that chain on the current text: the sound ones
    and the penalised ones (by the engine's rules)."""
    rules = Rules(**view["rules"])
    current, used = view["current_text"], view["used_letters"]
    picture = CARDS[view["pending"]["card"]]
    sound: list[str] = []
    penalised: list[str] = []
    heads = [BY_FIRST["en"][letter][0] for letter in ALPHABET]  # every first letter
    tails = [BY_LAST["en"][letter][0] for letter in ALPHABET]  # every last letter
    for head, tail in itertools.product(heads, [*tails, PENALTY_WORD]):
        text = f"{head} {picture} {tail}".capitalize()
        if text_problem(text, rules.mode) or chain_problem(rules, current, text):
            continue
        (penalised if penalties(rules, text, used) else sound).append(text)
    return sound, penalised


@pytest.mark.parametrize("index", range(20))
def test_votes_judge_the_rules_then_the_card(index: int) -> None:
    options, seats = options_of(index)
    view, _ = views_until(options, seats, index, chain_vote)
    assert strong_bot(view, random.Random(0)) == {"type": "vote", "yes": True}  # a strong text
    sound, penalised = texts_about(view)
    assert sound
    for text in sound[:20]:
        assert judge(with_text(view, text)), text
    if options["mode"] == "english" or options["no_repeated_letter"] or options["no_used_letters"]:
        assert penalised, "every option set but plain reverse has a penalty"
    for text in penalised[:20]:
        assert strong_bot(with_text(view, text), random.Random(0)) == {"type": "vote", "yes": False}, text
    # a text that does not chain (refused by the engine, so never put to the vote) is no either
    rules, picture = Rules(**view["rules"]), CARDS[view["pending"]["card"]]
    refused = [w for w in WORDS if chain_problem(rules, view["current_text"], f"{w} {picture} {w}")]
    assert not judge(with_text(view, f"{refused[0]} {picture} {refused[0]}"))


def test_a_sound_text_of_known_words_none_about_the_picture_does_not_fit() -> None:
    # c02: "a cat asleep on a piano"
    assert fits("Cat", "c02") and fits("Pianos", "c02") and fits("Purring kitten", "c02")
    assert fits("Un chat endormi", "c02")  # either language
    assert fits("Schnurrende Katze", "c02")  # words it does not know: it cannot tell, it trusts
    assert not fits("Zebra", "c02") and not fits("Volcano yacht", "c02")
    assert not fits("The", "c02") and not fits("!!", "c02")
    assert fits("Pour", "c08")  # "pour" is a French word too: still about "a teapot pouring stars"


def test_a_starting_text_named_again_needs_only_be_sound() -> None:
    """A namer who cannot write about the card would hold the game up for ever (5.3-8)."""
    view, _ = views_until({}, 4, 3, lambda v: v["phase"] == "voting")
    assert judge(view)
    unfit = with_text(view, "Zebra")
    assert not judge(unfit)
    unfit["last_outcome"] = {"kind": "start_rejected", "player": "p1", "text": "Zebra"}
    assert judge(unfit)
    assert not judge(with_text(unfit, "Maxx"))  # a penalised text never


# --- its own moves --------------------------------------------------------------------------


def stuck(view: dict[str, Any]) -> bool:
    return view["phase"] == "turn" and len(view["chain"]) >= 2


def test_with_no_sound_text_about_any_card_it_swaps_or_passes() -> None:
    """German reverse, texts ending on the letter: the free first letter may be neither used nor
    q, x or z, so with every other letter used no text escapes a penalty."""
    options = {"mode": "german_reverse", "reverse_direction": "end", "no_used_letters": True}
    view, _ = views_until(options, 3, 5, stuck)
    view["used_letters"] = sorted(set("abcdefghijklmnopqrstuvwxyz") - set("qxz"))
    move = strong_bot(view, random.Random(0))
    assert move["type"] == "swap_cards" and move in view["legal"], move
    view["legal"] = [c for c in view["legal"] if c["type"] == "play_card"] + [{"type": "pass_turn"}]
    assert strong_bot(view, random.Random(0)) == {"type": "pass_turn"}


def test_it_plays_a_sound_text_about_the_card_hardest_to_chain() -> None:
    view, table = views_until({}, 3, 11, stuck)
    move = strong_bot(view, random.Random(0))
    assert move["type"] == "play_card"
    rules = Rules(**view["rules"])
    text, current = move["text"], view["current_text"]
    assert not (text_problem(text, rules.mode) or chain_problem(rules, current, text))
    assert not penalties(rules, text, view["used_letters"])
    assert fits(text, move["card"])
    # of the cards with a text as much about them, the one with the fewest letters to chain on
    hand = [c["card"] for c in view["hand"]]
    ranked = options(hand, ask_of(rules, current, view["used_letters"]), keep=hand)
    best = [o.card for o in ranked if o.key[0] == ranked[0].key[0]]
    assert len(natural_letters(move["card"], rules)) == min(len(natural_letters(c, rules)) for c in best)
    ctx = Context(actor=view["active_player"], rng=random.Random())
    events = DECIDER.decide(table, msgspec.convert(move, DECIDER.command_type), ctx)
    assert not isinstance(events, Rejection) and type(events[0]).__name__ == "CardPlayed", events


@pytest.mark.parametrize("index", range(0, 20, 4))
def test_its_moves_are_the_views_and_the_seeds_alone(index: int) -> None:
    options, seats = options_of(index)
    seen: list[dict[str, Any]] = []

    def collect(view: dict[str, Any]) -> bool:
        seen.append(json.loads(json.dumps(view)))  # as the wire carries it
        return len(seen) > 24

    views_until(options, seats, index, collect)
    assert {v["phase"] for v in seen} >= {"naming", "voting", "turn"}
    for view in seen:
        before = copy.deepcopy(view)
        move = strong_bot(view, random.Random(7))
        assert view == before  # it only reads the view
        assert strong_bot(copy.deepcopy(view), random.Random(7)) == move
        assert BOTS["strong"](view, random.Random(7)) == move


def test_the_figures_are_a_pure_function_of_their_arguments() -> None:
    figures = measure(1, 5)
    assert figures == measure(1, 5)
    assert figures["all_strong"]["penalties_per_game"] == 0 == figures["all_strong"]["rejections_per_game"]
    assert figures["mixed"]["strong"]["penalties_per_seat"] == 0
    assert figures["all_easy"]["games"] == figures["mixed"]["games"] == 1
