"""Dozito rules, given/when/then (RULES.md section 2; the standard deck of cards.py:
red STOP is red-3, red Replay red-10, blue Replay blue-1, green STOP green-9)."""

from __future__ import annotations

from random import Random

import msgspec
import pytest

from shared.games.decider import Command, Context, Rejection
from shared.games.dozito import GAME
from shared.games.dozito.cards import DECKS, GROUP_POINTS, SLOTS
from shared.games.dozito.messages import (
    CardDiscarded,
    CardDrawn,
    CardPlaced,
    DiscardCard,
    DiscardTaken,
    DozitoOptions,
    DrawCard,
    DrawPileRebuilt,
    GameSetUp,
    OneColourGridCompleted,
    PlaceCard,
    RoundDealt,
    RoundEndTriggered,
    RoundScore,
    RoundScored,
    TakeDiscard,
    TurnStarted,
)
from shared.games.dozito.rules import (
    check_options,
    is_terminal,
    legal_commands,
    players_to_act,
    result,
    setup,
)
from shared.games.dozito.state import State, evolve, score_grid
from shared.games.table import Create, Join, Start, TableDecider
from shared.games.testing import Given, accepted, as_type, unredacted

from .dozito_support import ann_face_up, card, dealt, face_up

DECIDER = TableDecider(GAME)


def rejected(out, code: str) -> Rejection:
    assert isinstance(out, Rejection), out
    assert out.code == code, out
    assert out.message
    return out


# --- setup: Dozito 1-3 ----------------------------------------------------------------------


def test_setup_deals_twelve_face_down_cards_each_dozito_1():
    events = accepted(setup(DozitoOptions(), ("ann", "bob", "cat"), Random(1)))
    g = Given(GAME, events)
    assert [type(e) for e in events] == [GameSetUp, RoundDealt]
    for p in ("ann", "bob", "cat"):
        assert len(g.state.grids[p]) == 12
        assert g.state.face_up[p] == (False,) * 12
    every = [c for g in g.state.grids.values() for c in g] + list(g.state.draw)
    every += [c for pile in g.state.discards for c in pile]
    assert sorted(every) == sorted(c.id for c in DECKS["standard"])


def test_setup_turns_one_card_onto_each_of_two_discard_piles_dozito_2():
    g = Given(GAME, accepted(setup(DozitoOptions(), ("ann", "bob"), Random(2))))
    assert [len(p) for p in g.state.discards] == [1, 1]
    assert len(g.state.draw) == 75 - 24 - 2
    assert g.state.phase == "turn_start" and g.state.hand is None


def test_first_player_of_round_one_is_random_dozito_3():
    firsts = {
        Given(GAME, accepted(setup(DozitoOptions(), ("a", "b", "c"), Random(s)))).state.current
        for s in range(30)
    }
    assert firsts == {"a", "b", "c"}


def test_first_player_of_later_rounds_is_lowest_total_dozito_3():
    # ann ends round 1 with a full grid; bob has no face-up card: bob scores 0 and starts round 2.
    g = ann_face_up({12: "blue-9"}, range(1, 12), draw_top=["red-12"])
    g.then("ann", DrawCard())
    g.then("ann", PlaceCard(slot=12))
    events = g.then("ann", DiscardCard(pile=0))
    assert any(isinstance(e, RoundEndTriggered) for e in events)
    g.then("bob", DrawCard())
    events = g.then("bob", DiscardCard(pile=1))
    scored = next(e for e in events if isinstance(e, RoundScored))
    assert scored.scores["bob"].total == 0 < scored.scores["ann"].total
    deal = events[-1]
    assert isinstance(deal, RoundDealt) and deal.round == 2 and deal.first_player == "bob"


def test_first_player_tie_goes_to_seating_order_from_previous_first_dozito_3():
    g = Given(GAME, dealt(players=("ann", "bob", "cat"), first="bob"))
    zero = RoundScore(groups=[], group_points=0, suns=0, total=0)
    g = Given(
        GAME,
        start=msgspec.structs.replace(
            g.state,
            round_scores=({"ann": zero, "bob": msgspec.structs.replace(zero, total=5), "cat": zero},),
        ),
    )
    from shared.games.dozito.rules import _next_first_player

    assert _next_first_player(g.state) == "cat"  # ann and cat tied: cat comes first after bob
    g = Given(GAME, start=msgspec.structs.replace(g.state, first_player="ann"))
    assert _next_first_player(g.state) == "ann"


# --- Choice A: Dozito 4 ---------------------------------------------------------------------


def test_take_discard_card_must_be_placed_in_its_slot_dozito_4():
    g = Given(GAME, dealt(discards=[["red-7"], ["blue-2"]]))
    out = g.when("ann", TakeDiscard(pile=0))
    assert out == [DiscardTaken(player="ann", pile=0, card="red-7")]
    g = Given(GAME, out, start=g.state)
    assert legal_commands(g.state, "ann") == [PlaceCard(slot=7)]
    assert g.refused("ann", DiscardCard(pile=1)) == "must_place"
    assert g.refused("ann", PlaceCard(slot=6)) == "wrong_slot"
    assert g.refused("ann", PlaceCard(slot=13)) == "bad_slot"
    assert g.refused("ann", TakeDiscard(pile=1)) == "card_in_hand"
    assert g.refused("ann", DrawCard()) == "card_in_hand"


def test_joker_taken_from_a_discard_goes_to_any_slot_dozito_4():
    g = Given(GAME, dealt(discards=[["red-joker-1"], ["blue-2"]]))
    g.then("ann", TakeDiscard(pile=0))
    assert legal_commands(g.state, "ann") == [PlaceCard(slot=s) for s in SLOTS]
    events = g.then("ann", PlaceCard(slot=11))
    assert as_type(events[0], CardPlaced).slot == 11 and g.state.grids["ann"][10] == "red-joker-1"


def test_empty_discard_pile_cannot_be_taken_dozito_4():
    g = Given(GAME, dealt(discards=[[], ["blue-2"]]))
    assert g.refused("ann", TakeDiscard(pile=0)) == "empty_pile"
    assert g.refused("ann", TakeDiscard(pile=2)) == "bad_pile"
    assert TakeDiscard(pile=0) not in legal_commands(g.state, "ann")


# --- Choice B: Dozito 5, example D-3 --------------------------------------------------------


def test_d3_drawn_card_discarded_ends_the_turn_grid_unchanged_dozito_5():
    """D-3: Choice B draws green 5; the player discards it: turn ends, grid unchanged."""
    g = Given(GAME, dealt(draw_top=["green-5"]))
    before = g.state.grids["ann"], g.state.face_up["ann"]
    events = g.then("ann", DrawCard())
    assert events == [CardDrawn(player="ann", card="green-5")]
    assert {DiscardCard(pile=0), DiscardCard(pile=1), PlaceCard(slot=5)} == set(
        legal_commands(g.state, "ann")
    )
    events = g.then("ann", DiscardCard(pile=1))
    assert events == [
        CardDiscarded(player="ann", pile=1, card="green-5", extra_turn=False),
        TurnStarted(player="bob"),
    ]
    assert (g.state.grids["ann"], g.state.face_up["ann"]) == before
    assert g.state.discards[1][-1] == "green-5" and players_to_act(g.state) == ["bob"]


def test_d3_variant_replay_drawn_and_discarded_gives_another_turn_dozito_8():
    """D-3: if green 5 were a Replay card, the player immediately plays another turn."""
    g = Given(GAME, dealt(draw_top=["green-4"]))  # green-4 is green's Replay card
    assert g.state.card("green-4").kind == "replay"
    g.then("ann", DrawCard())
    events = g.then("ann", DiscardCard(pile=0))
    assert events == [
        CardDiscarded(player="ann", pile=0, card="green-4", extra_turn=True),
        TurnStarted(player="ann", extra_turn=True),
    ]
    assert players_to_act(g.state) == ["ann"] and g.state.phase == "turn_start"


def test_drawn_card_placed_flips_the_face_down_card_dozito_5_dozito_6():
    g = Given(GAME, dealt({"ann": {5: "blue-8"}}, draw_top=["green-5"]))
    g.then("ann", DrawCard())
    events = g.then("ann", PlaceCard(slot=5))
    assert events == [
        CardPlaced(player="ann", slot=5, card="green-5", replaced="blue-8", replaced_was_face_up=False)
    ]
    assert g.state.hand == "blue-8" and g.state.phase == "place_or_discard"
    assert g.state.face_up["ann"][4] and g.state.grids["ann"][4] == "green-5"


def test_nothing_to_place_or_discard_at_turn_start():
    g = Given(GAME, dealt())
    assert g.refused("ann", PlaceCard(slot=1)) == "no_card_in_hand"
    assert g.refused("ann", DiscardCard(pile=0)) == "no_card_in_hand"


# --- Placement chain: Dozito 6, example D-2 -------------------------------------------------


def test_d2_flipped_card_whose_slot_is_face_up_discard_one_of_the_two_dozito_6():
    """D-2: red 7 from a discard onto face-down blue 2; slot 2 face up: discard blue 2 or
    the slot-2 card after putting blue 2 there; the turn ends."""
    g = Given(GAME, dealt({"ann": {7: "blue-2", 2: "yellow-2"}}, discards=[["red-7"], ["green-1"]]))
    g = Given(GAME, start=face_up(g.state, "ann", [2]))
    g.then("ann", TakeDiscard(pile=0))
    events = g.then("ann", PlaceCard(slot=7))
    assert as_type(events[0], CardPlaced).replaced == "blue-2" and g.state.hand == "blue-2"
    assert set(legal_commands(g.state, "ann")) == {
        PlaceCard(slot=2),
        DiscardCard(pile=0),
        DiscardCard(pile=1),
    }
    # Either discard blue 2 ...
    events = Given(GAME, start=g.state).then("ann", DiscardCard(pile=1))
    assert events[0] == CardDiscarded(player="ann", pile=1, card="blue-2", extra_turn=False)
    assert events[-1] == TurnStarted(player="bob")
    # ... or put it into slot 2 and discard yellow 2.
    events = g.then("ann", PlaceCard(slot=2))
    placed = as_type(events[0], CardPlaced)
    assert placed.replaced == "yellow-2" and placed.replaced_was_face_up
    assert g.state.phase == "must_discard" and g.state.hand == "yellow-2"
    assert set(legal_commands(g.state, "ann")) == {DiscardCard(pile=0), DiscardCard(pile=1)}
    assert g.refused("ann", PlaceCard(slot=2)) == "must_discard"
    events = g.then("ann", DiscardCard(pile=0))
    assert events[-1] == TurnStarted(player="bob")
    assert g.state.grids["ann"][1] == "blue-2" and g.state.grids["ann"][6] == "red-7"


def test_d2_variant_face_down_target_lets_the_chain_continue_dozito_6():
    """D-2: if slot 2 had been face down, place blue 2 (flip the old slot-2 card, ...) or
    discard blue 2 and stop."""
    g = Given(GAME, dealt({"ann": {7: "blue-2", 2: "yellow-9"}}, discards=[["red-7"], ["green-1"]]))
    g.then("ann", TakeDiscard(pile=0))
    g.then("ann", PlaceCard(slot=7))
    events = Given(GAME, start=g.state).then("ann", DiscardCard(pile=0))
    assert events[-1] == TurnStarted(player="bob")
    events = g.then("ann", PlaceCard(slot=2))
    placed = as_type(events[0], CardPlaced)
    assert placed.replaced == "yellow-9" and not placed.replaced_was_face_up
    assert g.state.hand == "yellow-9" and g.state.phase == "place_or_discard"
    assert set(legal_commands(g.state, "ann")) == {
        PlaceCard(slot=9),
        DiscardCard(pile=0),
        DiscardCard(pile=1),
    }


def test_placing_onto_a_face_up_card_discards_it_and_ends_the_turn_dozito_6():
    g = ann_face_up({4: "blue-4"}, [4], discards=[["red-4"], ["green-1"]])
    g.then("ann", TakeDiscard(pile=0))
    g.then("ann", PlaceCard(slot=4))
    assert g.state.phase == "must_discard" and g.state.hand == "blue-4"
    g.then("ann", DiscardCard(pile=1))
    assert g.state.discards[1][-1] == "blue-4" and players_to_act(g.state) == ["bob"]


def test_discard_pile_is_the_players_choice_ambiguity_2_3_5():
    g = Given(GAME, dealt(draw_top=["green-5"]))
    g.then("ann", DrawCard())
    assert DiscardCard(pile=0) in legal_commands(g.state, "ann")
    assert DiscardCard(pile=1) in legal_commands(g.state, "ann")
    assert g.refused("ann", DiscardCard(pile=-1)) == "bad_pile"


# --- STOP: Dozito 7, 2.3-2 ------------------------------------------------------------------


def test_drawn_stop_placed_discards_the_face_down_card_and_ends_the_turn_dozito_7():
    g = Given(GAME, dealt({"ann": {3: "blue-8"}}, draw_top=["red-3"]))  # red-3 is red's STOP
    assert g.state.card("red-3").kind == "stop" and g.state.card("red-3").suns == 3
    g.then("ann", DrawCard())
    events = g.then("ann", PlaceCard(slot=3))
    placed = as_type(events[0], CardPlaced)
    assert placed.replaced == "blue-8" and not placed.replaced_was_face_up
    assert g.state.phase == "must_discard"
    events = g.then("ann", DiscardCard(pile=0))
    assert g.state.discards[0][-1] == "blue-8" and players_to_act(g.state) == ["bob"]


def test_drawn_stop_may_be_discarded_instead_dozito_7():
    g = Given(GAME, dealt(draw_top=["red-3"]))
    g.then("ann", DrawCard())
    events = g.then("ann", DiscardCard(pile=1))
    assert events[-1] == TurnStarted(player="bob")


def test_issue12_point6_stop_flipped_from_the_grid_is_an_ordinary_card_dozito_7_2_3_2():
    """RULES 2.1-7 and 2.3-2 (ruling 2026-11-30): only a STOP drawn from the draw pile stops
    the turn; one turned up from the grid goes on with the chain like any card."""
    g = Given(GAME, dealt({"ann": {5: "red-3", 3: "blue-8"}}, draw_top=["green-5"]))
    g.then("ann", DrawCard())
    g.then("ann", PlaceCard(slot=5))
    assert g.state.hand == "red-3" and g.state.hand_from == "grid"
    events = g.then("ann", PlaceCard(slot=3))
    assert not as_type(events[0], CardPlaced).replaced_was_face_up
    assert g.state.phase == "place_or_discard" and g.state.hand == "blue-8"
    assert players_to_act(g.state) == ["ann"]


def test_stop_taken_from_a_discard_has_no_effect_ambiguity_2_3_2():
    g = Given(GAME, dealt({"ann": {3: "blue-8"}}, discards=[["red-3"], ["green-1"]]))
    g.then("ann", TakeDiscard(pile=0))
    g.then("ann", PlaceCard(slot=3))
    assert g.state.phase == "place_or_discard" and g.state.hand == "blue-8"


def test_stop_and_replay_are_numbered_cards_ambiguity_2_3_1():
    for deck in DECKS.values():
        for c in deck:
            if c.kind in ("stop", "replay"):
                assert c.number in SLOTS and c.colour
            if c.kind == "stop":
                assert c.suns == 3  # seed 002: STOP cards always have three suns
    g = Given(GAME, dealt(draw_top=["red-3"]))
    g.then("ann", DrawCard())
    assert g.refused("ann", PlaceCard(slot=4)) == "wrong_slot"


# --- Replay: Dozito 8, 2.3-3, 2.3-7 ---------------------------------------------------------


def test_replay_flipped_and_discarded_gives_another_turn_dozito_8():
    g = Given(GAME, dealt({"ann": {5: "green-4"}}, draw_top=["blue-5"]))
    g.then("ann", DrawCard())
    g.then("ann", PlaceCard(slot=5))
    events = g.then("ann", DiscardCard(pile=0))
    assert events[-1] == TurnStarted(player="ann", extra_turn=True)


def test_replay_replaced_face_up_and_discarded_gives_another_turn_dozito_8():
    g = ann_face_up({4: "green-4"}, [4], discards=[["red-4"], ["blue-2"]])
    g.then("ann", TakeDiscard(pile=0))
    g.then("ann", PlaceCard(slot=4))
    events = g.then("ann", DiscardCard(pile=0))
    assert as_type(events[0], CardDiscarded).extra_turn
    assert events[-1] == TurnStarted(player="ann", extra_turn=True)


def test_replay_taken_from_a_discard_and_placed_has_no_effect_ambiguity_2_3_3():
    g = Given(GAME, dealt({"ann": {4: "blue-9"}}, discards=[["green-4"], ["red-2"]]))
    g.then("ann", TakeDiscard(pile=0))
    g.then("ann", PlaceCard(slot=4))
    events = g.then("ann", DiscardCard(pile=1))
    assert events[-1] == TurnStarted(player="bob")


def test_replay_during_the_last_turns_is_still_taken_ambiguity_2_3_7():
    # bob triggered the end; ann's last turn discards a drawn Replay: she plays again first.
    g = Given(GAME, dealt(draw_top=["green-4", "blue-5"]))
    g = Given(GAME, start=msgspec.structs.replace(g.state, ending_by="bob", last_turns=()))
    g.then("ann", DrawCard())
    events = g.then("ann", DiscardCard(pile=0))
    assert events[-1] == TurnStarted(player="ann", extra_turn=True)
    g.then("ann", DrawCard())
    events = g.then("ann", DiscardCard(pile=0))
    assert isinstance(events[-2], RoundScored) and isinstance(events[-1], RoundDealt)


# --- Jokers: Dozito 9, 2.3-6 ----------------------------------------------------------------


def test_face_up_joker_replaced_by_a_numbered_card_is_discarded_dozito_9():
    g = ann_face_up({6: "red-joker-2"}, [6], discards=[["blue-6"], ["red-1"]])
    g.then("ann", TakeDiscard(pile=0))
    events = g.then("ann", PlaceCard(slot=6))
    placed = as_type(events[0], CardPlaced)
    assert placed.replaced == "red-joker-2" and placed.replaced_was_face_up
    assert legal_commands(g.state, "ann") == [DiscardCard(pile=0), DiscardCard(pile=1)]
    events = g.then("ann", DiscardCard(pile=0))
    assert g.state.discards[0][-1] == "red-joker-2" and events[-1] == TurnStarted(player="bob")


def test_joker_in_hand_with_every_slot_face_up_ambiguity_2_3_6():
    g = ann_face_up({1: "red-1"}, SLOTS, draw_top=["blue-joker-1"])
    g.then("ann", DrawCard())
    assert set(legal_commands(g.state, "ann")) == {PlaceCard(slot=s) for s in SLOTS} | {
        DiscardCard(pile=0),
        DiscardCard(pile=1),
    }
    _events = g.then("ann", PlaceCard(slot=1))
    assert g.state.phase == "must_discard" and g.state.hand == "red-1"


def test_flipped_joker_may_go_to_any_slot_dozito_6():
    g = Given(GAME, dealt({"ann": {5: "red-joker-3"}}, draw_top=["blue-5"]))
    g.then("ann", DrawCard())
    g.then("ann", PlaceCard(slot=5))
    assert g.state.hand == "red-joker-3"
    assert {PlaceCard(slot=s) for s in SLOTS} <= set(legal_commands(g.state, "ann"))


# --- Round end: Dozito 10 -------------------------------------------------------------------


def _full_but_slot_12(players=("ann", "bob", "cat"), **kw):
    state = Given(GAME, dealt({"ann": {12: "blue-9"}}, players=players, draw_top=["red-12"], **kw)).state
    return face_up(state, "ann", range(1, 12))


def test_full_grid_at_turn_end_gives_every_other_player_one_last_turn_dozito_10():
    g = Given(GAME, start=_full_but_slot_12())
    g.then("ann", DrawCard())
    events = g.then("ann", PlaceCard(slot=12))
    assert g.state.hand == "blue-9"
    events = g.then("ann", DiscardCard(pile=0))
    assert events[1:] == [
        RoundEndTriggered(player="ann", last_turns=["bob", "cat"]),
        TurnStarted(player="bob"),
    ]
    g.then("bob", DrawCard())
    events = g.then("bob", DiscardCard(pile=0))
    assert events[-1] == TurnStarted(player="cat")
    g.then("cat", DrawCard())
    events = g.then("cat", DiscardCard(pile=0))
    assert [type(e) for e in events] == [CardDiscarded, RoundScored, RoundDealt]
    assert as_type(events[1], RoundScored).round == 1 and as_type(events[2], RoundDealt).round == 2


def test_round_end_trigger_with_a_replay_plays_the_extra_turn_first_dozito_10():
    g = Given(GAME, dealt({"ann": {12: "green-4"}}, players=("ann", "bob"), draw_top=["red-12"]))
    g = Given(GAME, start=face_up(g.state, "ann", range(1, 12)))
    g.then("ann", DrawCard())
    g.then("ann", PlaceCard(slot=12))
    events = g.then("ann", DiscardCard(pile=1))
    assert events[1:] == [
        RoundEndTriggered(player="ann", last_turns=["bob"]),
        TurnStarted(player="ann", extra_turn=True),
    ]
    g.then("ann", DrawCard())
    events = g.then("ann", DiscardCard(pile=1))
    assert events[-1] == TurnStarted(player="bob")


def test_last_round_ends_the_game_dozito_10_dozito_12():
    g = Given(GAME, start=_full_but_slot_12(players=("ann", "bob"), rounds=1))
    g.then("ann", DrawCard())
    g.then("ann", PlaceCard(slot=12))
    events = g.then("ann", DiscardCard(pile=0))
    g.then("bob", DrawCard())
    events = g.then("bob", DiscardCard(pile=0))
    assert isinstance(events[-1], RoundScored) and is_terminal(g.state)
    assert players_to_act(g.state) == [] and legal_commands(g.state, "ann") == []
    assert g.refused("ann", DrawCard()) == "game_over"


# --- Scoring: Dozito 11, example D-1, 2.3-8, 2.3-9 ------------------------------------------


def test_d1_group_scoring_round_score_24_dozito_11():
    """D-1: R{1,2,5}=5, B{3,4,7}=5, G{6,9,10,11}=10, Y{8}=0, suns 1+3: 24."""
    grid = (
        card("R", 1),
        card("R", 2, suns=1),
        card("B", 3),
        card("B", 4),
        card("R", 5),
        card("G", 6),
        card("B", 7),
        card("Y", 8, "stop", 3),
        card("G", 9),
        card("G", 10),
        card("G", 11),
        None,  # 12: face-down STOP, not counted
    )
    score = score_grid(grid)
    assert score == RoundScore(groups=[4, 3, 3, 1], group_points=20, suns=4, total=24)


def test_d1_through_the_state_face_down_cards_score_nothing_dozito_11():
    deck = [
        card("R", 1),
        card("R", 2, suns=1),
        card("B", 3),
        card("B", 4),
        card("R", 5),
        card("G", 6),
        card("B", 7),
        card("Y", 8, "stop", 3),
        card("G", 9),
        card("G", 10),
        card("G", 11),
        card("Y", 12, "stop", 3),
        *[card("Y", n) for n in range(1, 8)],
        *[card("B", n) for n in (1, 2, 5, 6, 8, 9, 10, 11, 12)],
        card("R", 3),
        card("R", 4),
    ]
    ann = {s: c.id for s, c in enumerate(deck[:12], start=1)}
    g = ann_face_up(ann, range(1, 12), deck=deck)
    from shared.games.dozito.rules import _scored

    assert _scored(g.state).scores["ann"].total == 24


def test_group_points_table_dozito_11():
    assert GROUP_POINTS == {1: 0, 2: 2, 3: 5, 4: 10, 5: 16, 6: 25, 7: 35, 8: 45, 9: 55, 10: 65, 11: 75}
    row = tuple(card("R", n) for n in range(1, 7)) + (None,) * 6  # slots 1-4 and 5-6: one group
    assert score_grid(row).groups == [6] and score_grid(row).total == 25


def test_one_colour_grid_with_jokers_wins_at_once_ambiguity_2_3_8_2_3_9():
    reds = {s: f"red-{s}" for s in range(1, 12)}
    reds[5] = "red-joker-1"  # a Joker counts with its colour
    g = Given(
        GAME, dealt({"ann": {**reds, 12: "blue-9"}}, players=("ann", "bob", "cat"), draw_top=["red-12"])
    )
    g = Given(GAME, start=face_up(g.state, "ann", range(1, 12)))
    g.then("ann", DrawCard())
    g.then("ann", PlaceCard(slot=12))
    events = g.then("ann", DiscardCard(pile=0))
    assert [type(e) for e in events] == [CardDiscarded, OneColourGridCompleted, RoundScored]
    assert is_terminal(g.state) and g.state.round == 1  # no last turns, no further round
    res = result(g.state)
    assert res.winners == ["ann"] and res.details["one_colour_grid"] == "ann"
    assert res.ranking[0].player == "ann"


# --- Game end: Dozito 12, example D-4 -------------------------------------------------------


def _after_rounds(rows: dict[str, list[int]]) -> State:
    players = tuple(rows)
    state = Given(GAME, dealt(players=players)).state

    def s(t):
        return RoundScore(groups=[], group_points=t, suns=0, total=t)

    rounds = tuple({p: s(rows[p][i]) for p in players} for i in range(len(rows[players[0]])))
    return msgspec.structs.replace(state, round_scores=rounds, phase="game_over")


def test_d4_tied_totals_best_single_round_wins_dozito_12():
    """D-4: A 20/30/25 = 75, B 28/27/20 = 75: best round A 30 > B 28: A wins."""
    res = result(_after_rounds({"A": [20, 30, 25], "B": [28, 27, 20]}))
    assert res.scores == {"A": 75, "B": 75}
    assert res.winners == ["A"] and [s.rank for s in res.ranking] == [1, 2]


def test_d4_still_tied_is_a_shared_victory_dozito_12():
    """D-4: A 25/25/25 and B 25/25/25: shared victory."""
    res = result(_after_rounds({"A": [25, 25, 25], "B": [25, 25, 25]}))
    assert sorted(res.winners) == ["A", "B"] and [s.rank for s in res.ranking] == [1, 1]


def test_highest_total_wins_dozito_12():
    res = result(_after_rounds({"A": [10, 10, 10], "B": [5, 40, 0], "C": [1, 1, 1]}))
    assert res.winners == ["B"] and [s.player for s in res.ranking] == ["B", "A", "C"]
    assert res.details["round_scores"]["B"] == [5, 40, 0] and res.details["best_round"]["B"] == 40


# --- Draw pile exhausted: 2.3-4 -------------------------------------------------------------


def test_empty_draw_pile_is_rebuilt_from_the_discards_but_their_tops_ambiguity_2_3_4():
    g = Given(GAME, dealt(discards=[["red-1", "red-2", "red-4"], ["blue-2", "blue-3"]], draw=[]))
    assert DrawCard() in legal_commands(g.state, "ann")
    out = g.accepts("ann", DrawCard(), Random(3))
    assert isinstance(out[0], DrawPileRebuilt) and isinstance(out[1], CardDrawn)
    assert sorted(unredacted(out[0].draw)) == ["blue-2", "red-1", "red-2"]
    g = Given(GAME, out, start=g.state)
    assert g.state.discards == (("red-4",), ("blue-3",)) and len(g.state.draw) == 2
    assert g.state.hand == out[0].draw[0]


def test_empty_draw_pile_with_nothing_to_rebuild_ambiguity_2_3_4():
    g = Given(GAME, dealt(discards=[["red-1"], ["blue-2"]], draw=[]))
    assert DrawCard() not in legal_commands(g.state, "ann")
    assert g.refused("ann", DrawCard()) == "draw_pile_empty"


# --- Seats, commands and options ------------------------------------------------------------


def test_not_your_turn():
    g = Given(GAME, dealt())
    assert g.refused("bob", DrawCard()) == "not_your_turn"
    assert legal_commands(g.state, "bob") == []


def test_unknown_command_is_refused():
    class Dance(Command, frozen=True, kw_only=True):
        pass

    assert Given(GAME, dealt()).refused("ann", Dance()) == "bad_command"


def _create(options, seats=2):
    return DECIDER.decide(
        DECIDER.initial_state, Create(options=options, seats=seats), Context(actor="ann", rng=Random(0))
    )


@pytest.mark.parametrize(
    ("options", "seats", "needle"),
    [
        ({"rounds": 2}, 2, "rounds must be one of 1, 3"),
        ({"rounds": "3"}, 2, "Invalid option"),
        ({"deck": "tarot"}, 2, "Unknown deck"),
        ({"deck": "four_colours"}, 5, "need at least 62"),
        ({"colours": 5}, 2, "Invalid option"),
    ],
)
def test_bad_options_are_refused_at_create_dozito_12(options, seats, needle):
    out = _create(options, seats)
    rejected(out, "bad_option")
    assert needle in out.message


def test_options_defaults_and_choices_dozito_12():
    out = _create({})
    assert out[0].options == {"rounds": 3, "deck": "standard"}
    assert not isinstance(_create({"rounds": 1, "deck": "four_colours"}, 4), Rejection)
    assert check_options(DozitoOptions(rounds=1), 5) is None


def test_one_round_table_through_the_platform_dozito_12():
    table = DECIDER.initial_state
    for actor, command in [
        ("ann", Create(options={"rounds": 1}, seats=2)),
        ("bob", Join()),
        ("ann", Start()),
    ]:
        out = DECIDER.decide(table, command, Context(actor=actor, rng=Random(5)))
        assert not isinstance(out, Rejection), out
        for e in out:
            table = DECIDER.evolve(table, e)
    assert table.status == "running" and table.game.rounds == 1


def test_evolve_does_not_mutate_its_input():
    g = Given(GAME, dealt(draw_top=["green-5"]))
    snapshot = msgspec.json.encode(g.state)
    for e in g.accepts("ann", DrawCard()):
        evolve(g.state, e)
    assert msgspec.json.encode(g.state) == snapshot


# --- Audit additions ------------------------------------------------------------------------


def test_a_deck_whose_stop_has_not_three_suns_is_refused_dozito_7():
    """Seed 002: "Les cartes STOP possèdent toujours trois soleils": a deck file breaking
    it is a broken deck, as one with a numbered card twice is."""
    from shared.games.dozito.cards import STOP_SUNS, check_deck

    assert STOP_SUNS == 3
    good = [card("red", 3, "stop", suns=3), card("red", 4), card("red", None, "joker")]
    assert check_deck(good) is None
    bad = [card("red", 3, "stop", suns=2), card("red", 4)]
    assert "3 suns" in (check_deck(bad) or "")
    assert check_deck([card("red", 4), card("red", 4, id="red-4b")]) is not None


def test_card_in_hand_message_says_what_the_player_can_do_dozito_4_dozito_6():
    """A card taken from a discard must be placed; a replaced card must be discarded: the
    message of `card_in_hand` does not offer the move that is not allowed."""
    g = Given(GAME, dealt(discards=[["red-7"], ["blue-2"]]))
    g.then("ann", TakeDiscard(pile=0))
    out = rejected(g.when("ann", DrawCard()), "card_in_hand")
    assert "place it" in out.message and "discard it" not in out.message
    g = ann_face_up({4: "blue-4"}, [4], discards=[["red-4"], ["green-1"]])
    g.then("ann", TakeDiscard(pile=0))
    g.then("ann", PlaceCard(slot=4))
    out = rejected(g.when("ann", TakeDiscard(pile=1)), "card_in_hand")
    assert "discard pile" in out.message and "place it" not in out.message
    g = Given(GAME, dealt(draw_top=["green-5"]))
    g.then("ann", DrawCard())
    out = rejected(g.when("ann", DrawCard()), "card_in_hand")
    assert "place it or discard it" in out.message
