"""Every registered game, and the platform's test game, against the conformance check
(tests/conformance/conformance.py). The quick run plays each option set and each player count
once; the `slow` run plays `TABLETOP_TEST_GAMES` games per game (default 60) over their product.
"""

from __future__ import annotations

import dataclasses

import pytest

from shared.games.table import TableDecider
from tests.conformance.conformance import (
    GAMES,
    Leak,
    Tally,
    cases,
    conforms,
    deciders,
    option_sets,
    play,
    same_seed_same_log,
)
from tests.highcard import GAME as HIGHCARD

DECIDERS = deciders()


@pytest.mark.parametrize("name", sorted(DECIDERS))
def test_every_option_set_and_player_count_conforms(name):
    conforms(DECIDERS[name])


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(DECIDERS))
def test_many_seeded_games_conform(name):
    decider = DECIDERS[name]
    tally = Tally()
    for seed, options, seats in cases(decider, GAMES):
        play(decider, 1000 + seed, options, seats, tally)
    assert tally.steps


@pytest.mark.parametrize("name", sorted(DECIDERS))
def test_the_same_seed_gives_the_same_log_whatever_global_random_does(name):
    same_seed_same_log(DECIDERS[name])


def test_option_sets_cover_every_literal_and_bool_option():
    """The run is as wide as the options' types say (a game types its choices with Literal)."""
    assert len(option_sets(DECIDERS["illustori"])) > 1
    assert len(option_sets(DECIDERS["decrypto"])) > 1


def test_a_planted_leak_is_caught():
    """The secrets check can fail: an unredacted deal, and a view that shows the deck."""
    unredacted = TableDecider(dataclasses.replace(HIGHCARD, redact=lambda event, viewer: event))
    with pytest.raises(Leak):
        play(unredacted, 3, {}, 3)

    def peeking(state, viewer):
        return {**HIGHCARD.player_view(state, viewer), "peek": sorted(state.deck)}

    with pytest.raises(Leak):
        play(TableDecider(dataclasses.replace(HIGHCARD, player_view=peeking)), 3, {}, 3)
    assert play(TableDecider(HIGHCARD), 3, {}, 3) is not None  # the real game: none


def test_views_made_together_that_differ_from_each_viewers_own_are_caught():
    """A game's `player_views` must give each viewer exactly its `player_view`: one that
    shows every seat the spectator's view (a seat's own cards are missing) is caught."""

    def all_alike(state, viewers):
        return [HIGHCARD.player_view(state, None) for _ in viewers]

    with pytest.raises(AssertionError, match="views made together"):
        play(TableDecider(dataclasses.replace(HIGHCARD, player_views=all_alike)), 3, {}, 3)

    def each_own(state, viewers):
        return [HIGHCARD.player_view(state, viewer) for viewer in viewers]

    assert play(TableDecider(dataclasses.replace(HIGHCARD, player_views=each_own)), 3, {}, 3) is not None


def test_events_said_to_be_seen_alike_that_are_not_are_caught():
    """`Game.seen_alike` lets the projector redact and say an event once for every viewer:
    claimed of the deal (each seat sees its own hand), it is caught; of the trick taken (face
    up, for everyone), it holds."""
    from tests.highcard import HandsDealt, TrickTaken

    with pytest.raises(AssertionError, match="seen alike"):
        play(TableDecider(dataclasses.replace(HIGHCARD, seen_alike=frozenset({HandsDealt}))), 3, {}, 3)
    kept = play(TableDecider(dataclasses.replace(HIGHCARD, seen_alike=frozenset({TrickTaken}))), 3, {}, 3)
    assert kept is not None


def test_a_legal_command_refused_or_an_illegal_one_accepted_is_caught():
    """legal <=> accepted can fail both ways: a `legal` list offering a card not in hand, and
    rules that accept any card."""
    from tests.highcard import PlayCard, legal_commands

    def offering_more(state, player):
        return [*legal_commands(state, player), PlayCard(card=999)] if legal_commands(state, player) else []

    with pytest.raises(AssertionError, match=r"card_not_in_hand|999"):
        play(TableDecider(dataclasses.replace(HIGHCARD, legal_commands=offering_more)), 3, {}, 2)

    def lax(state, command, ctx):
        outcome = HIGHCARD.decide(state, command, ctx)
        return [] if getattr(outcome, "code", "") == "card_not_in_hand" else outcome

    with pytest.raises(AssertionError, match="accepted"):
        play(TableDecider(dataclasses.replace(HIGHCARD, decide=lax)), 3, {}, 2)
