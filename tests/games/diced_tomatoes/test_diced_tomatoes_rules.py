"""Diced Tomatoes rules (RULES.md section 3), given events / when a command / then events.

Dice ids for two players without golden dice: red 0..21, black 22..25 (taken lowest id first).
"""

from __future__ import annotations

import msgspec
import pytest

from shared.games.decider import Command, Context, Rejection, fold
from shared.games.diced_tomatoes import GAME, data
from shared.games.diced_tomatoes.messages import (
    AdjustDie,
    DicedTomatoesOptions,
    DiceRolled,
    DieChanged,
    DiePlaced,
    EndTurn,
    FinalRoundTriggered,
    FlipSeed,
    GameSetUp,
    InvertDie,
    KarmaGained,
    PlaceDie,
    PlantHarvested,
    PlantUprooted,
    PlayEnded,
    RerollDie,
    SeedFlipped,
    SetDie,
    TakeDice,
    TurnEnded,
    UprootPlant,
)
from shared.games.diced_tomatoes.rules import (
    decide,
    is_terminal,
    legal_commands,
    result,
    setup,
)
from shared.games.diced_tomatoes.state import Die, State, evolve, score_breakdown
from shared.games.table import Create, TableCreated, TableDecider
from shared.games.testing import Given, accepted, as_type, rejected

from .diced_tomatoes_support import (
    ANN,
    BOB,
    CY,
    Rigged,
    history_harvest,
    history_karma,
    history_plant,
    ids_of,
    place,
    started,
    take,
)

RED0, RED1, RED2, RED3, RED4 = 0, 1, 2, 3, 4
BLACK0, BLACK1, BLACK2, BLACK3 = 22, 23, 24, 25


def code(outcome) -> str:
    assert isinstance(outcome, Rejection), outcome
    return outcome.code


def finish_turn(g: Given[State], actor: str) -> list:
    """Place dice anywhere legal (first legal placement each time), then end the turn."""
    while True:
        places = [c for c in legal_commands(g.state, actor) if isinstance(c, PlaceDie)]
        if not places:
            return g.then(actor, EndTurn())
        g.then(actor, places[0])


# --- setup (Diced Tomatoes 1-2) --------------------------------------------------------------


def test_setup_puts_11_red_and_2_black_dice_per_player_in_the_bushel_diced_tomatoes_1():
    state = Given(GAME, started()).state
    assert state.bushel_counts() == {"red": 22, "black": 4, "golden": 0}
    assert state.bushel == tuple(range(26))
    assert state.plants == {ANN: ((), (), ()), BOB: ((), (), ())}
    assert state.tracks == {ANN: (), BOB: ()}
    assert state.karma == {ANN: 3, BOB: 3}
    assert state.phase == "take" and state.active == ANN


def test_golden_sun_adds_one_golden_die_per_player_diced_tomatoes_1_and_17():
    state = Given(GAME, started((ANN, BOB, CY), golden_sun=True)).state
    assert state.bushel_counts() == {"red": 33, "black": 6, "golden": 3}
    assert len(state.colours) == 14 * 3


def test_lowest_starting_roll_takes_the_last_player_marker_diced_tomatoes_2():
    (only,) = accepted(setup(DicedTomatoesOptions(), (ANN, BOB, CY), Rigged([4, 2, 5])))
    event = as_type(only, GameSetUp)
    assert event.start_rolls == [{ANN: 4, BOB: 2, CY: 5}]
    assert (event.last_player, event.first_player) == (BOB, CY)


def test_tied_lowest_starting_rolls_roll_again_diced_tomatoes_2_and_3_3_8():
    (only,) = accepted(setup(DicedTomatoesOptions(), (ANN, BOB, CY), Rigged([2, 2, 5, 3, 1])))
    event = as_type(only, GameSetUp)
    assert event.start_rolls == [{ANN: 2, BOB: 2, CY: 5}, {ANN: 3, BOB: 1}]
    assert (event.last_player, event.first_player) == (BOB, CY)
    state = fold(evolve, [event], State())
    assert state.active == CY and state.last_player == BOB


# --- taking and rolling (Diced Tomatoes 3, 3.3-6) --------------------------------------------


def test_take_three_dice_of_chosen_colours_and_roll_them_diced_tomatoes_3_and_3_3_6():
    g = Given(GAME, started())
    assert g.when(ANN, TakeDice(red=2, black=1), Rigged([4, 5, 6])) == [
        DiceRolled(player=ANN, taken=[RED0, RED1, BLACK0], dice=[RED0, RED1, BLACK0], faces=[4, 5, 6]),
    ]
    take(g, ANN, [4, 5, 6], red=2, black=1)
    state = g.state
    assert state.hand == (Die(RED0, 4), Die(RED1, 5), Die(BLACK0, 6))
    assert len(state.bushel) == 23 and state.phase == "place"


def test_unplaceable_dice_pass_to_the_next_player_who_rolls_them_again_diced_tomatoes_3_8_10():
    g = Given(GAME, started())
    take(g, ANN, [3, 6, 6], red=1, black=2)
    place(g, ANN, RED0, ANN, 0)  # the two black 6s fit neither {3} nor an empty token
    assert g.then(ANN, EndTurn()) == [
        TurnEnded(player=ANN, passed=[BLACK0, BLACK1], karma=3, next_player=BOB)
    ]
    assert g.state.passed == (Die(BLACK0, 6), Die(BLACK1, 6)) and g.state.active == BOB
    assert g.when(BOB, TakeDice(red=3), Rigged([1, 2, 3, 4, 5])) == [
        DiceRolled(
            player=BOB,
            taken=[RED1, RED2, RED3],
            dice=[RED1, RED2, RED3, BLACK0, BLACK1],
            faces=[1, 2, 3, 4, 5],
        )
    ]


def test_passed_dice_keep_their_faces_when_not_rerolled_diced_tomatoes_3():
    g = Given(GAME, started(reroll_passed_dice=False))
    take(g, ANN, [3, 6, 6], red=1, black=2)
    place(g, ANN, RED0, ANN, 0)
    g.then(ANN, EndTurn())
    assert take(g, BOB, [1, 2, 3]) == [RED1, RED2, RED3]
    assert g.state.hand == (
        Die(BLACK0, 6),
        Die(BLACK1, 6),
        Die(RED1, 1),
        Die(RED2, 2),
        Die(RED3, 3),
    )


def test_fewer_than_three_dice_left_are_all_taken_diced_tomatoes_3():
    g = Given(GAME, started())
    rest = list(range(24))  # all but two black dice
    g.add(
        DiceRolled(player=ANN, taken=rest, dice=rest, faces=[5] * 24),
        TurnEnded(player=ANN, passed=rest, karma=3, next_player=BOB),
    )
    assert g.refused(BOB, TakeDice(red=3)) == "bad_dice_choice"
    assert g.refused(BOB, TakeDice(black=1)) == "bad_dice_choice"
    (only,) = g.accepts(BOB, TakeDice(black=2))
    rolled = as_type(only, DiceRolled)
    assert rolled.taken == [BLACK2, BLACK3] and len(rolled.dice) == 26


def test_bad_dice_choices_are_refused_diced_tomatoes_3():
    g = Given(GAME, started())
    assert g.refused(ANN, TakeDice(red=2)) == "bad_dice_choice"
    assert g.refused(ANN, TakeDice(red=4, black=-1)) == "bad_dice_choice"
    assert g.refused(ANN, TakeDice(red=2, golden=1)) == "bad_dice_choice"  # no golden dice
    g = Given(GAME, started())
    g.add(DiceRolled(player=ANN, taken=[22, 23], dice=[22, 23], faces=[1, 1]))
    g.add(TurnEnded(player=ANN, passed=[22, 23], karma=3, next_player=BOB))
    assert g.refused(BOB, TakeDice(black=3)) == "bad_dice_choice"  # two black left


def test_taking_dice_twice_and_acting_out_of_turn_are_refused_diced_tomatoes_3_and_10():
    g = Given(GAME, started())
    assert g.refused(BOB, TakeDice(red=3)) == "not_your_turn"
    assert g.refused(ANN, PlaceDie(die=RED0, owner=ANN, token=0)) == "dice_not_rolled"
    assert g.refused(ANN, EndTurn()) == "dice_not_rolled"
    take(g, ANN, [1, 2, 3])
    assert g.refused(ANN, TakeDice(red=3)) == "dice_already_rolled"
    assert g.refused(BOB, PlaceDie(die=RED0, owner=BOB, token=0)) == "not_your_turn"


# --- placing (Diced Tomatoes 4, 3.3-1, 3.3-2, 3.3-5) -----------------------------------------


def test_a_red_die_is_sown_on_any_empty_token_own_or_opponent_diced_tomatoes_4():
    g = Given(GAME, started())
    take(g, ANN, [2, 3, 4])
    assert place(g, ANN, RED0, ANN, 0) == [
        DiePlaced(player=ANN, die=RED0, face=2, owner=ANN, token=0),
    ]
    assert place(g, ANN, RED1, BOB, 2) == [
        DiePlaced(player=ANN, die=RED1, face=3, owner=BOB, token=2),
    ]
    assert g.state.plants[BOB][2] == (Die(RED1, 3),)


def test_black_and_golden_dice_are_never_seeds_diced_tomatoes_4_and_17():
    """Diced Tomatoes 4, 17; 3.3-2: black and golden faces count for the pattern."""
    g = Given(GAME, started(golden_sun=True))
    golden = ids_of(g.state, "golden")[0]
    take(g, ANN, [2, 3, 4], red=1, black=1, golden=1)
    assert g.refused(ANN, PlaceDie(die=BLACK0, owner=ANN, token=0)) == "seed_must_be_red"
    assert g.refused(ANN, PlaceDie(die=golden, owner=BOB, token=0)) == "seed_must_be_red"
    place(g, ANN, RED0, ANN, 0)  # seed 2: the black 3 and the golden 4 now have a plant
    place(g, ANN, BLACK0, ANN, 0)  # {2, 3}: a black die's face counts (3.3-2)
    place(g, ANN, golden, ANN, 0)  # {2, 3, 4}
    assert g.state.plants[ANN][0] == (Die(RED0, 2), Die(BLACK0, 3), Die(golden, 4))


def test_the_whole_plant_must_stay_a_set_or_a_straight_diced_tomatoes_4_and_3_3_1():
    g = Given(GAME, started())
    take(g, ANN, [4, 6, 4])
    place(g, ANN, RED0, ANN, 0)
    refused = g.rejects(ANN, PlaceDie(die=RED1, owner=ANN, token=0))
    assert code(refused) == "breaks_pattern" and "6" in refused.message
    place(g, ANN, RED2, ANN, 0)  # {4, 4}: a set
    assert g.refused(ANN, PlaceDie(die=RED1, owner=ANN, token=0)) == "breaks_pattern"


def test_unknown_dice_players_and_tokens_are_refused_diced_tomatoes_4():
    g = Given(GAME, started())
    take(g, ANN, [4, 5, 6])
    assert g.refused(ANN, PlaceDie(die=RED4, owner=ANN, token=0)) == "die_not_rolled"
    assert g.refused(ANN, PlaceDie(die=RED0, owner="zed", token=0)) == "no_such_player"
    assert g.refused(ANN, PlaceDie(die=RED0, owner=ANN, token=3)) == "no_such_token"
    assert g.refused(ANN, PlaceDie(die=RED0, owner=ANN, token=-1)) == "no_such_token"


def test_ending_the_turn_is_refused_while_a_die_can_be_placed_diced_tomatoes_4():
    g = Given(GAME, started())
    take(g, ANN, [4, 5, 6])
    assert g.refused(ANN, EndTurn()) == "must_place"
    assert EndTurn() not in legal_commands(g.state, ANN)
    finish_turn(g, ANN)
    assert g.state.active == BOB


# --- worked examples T-1..T-3 (Diced Tomatoes 4, 6, 9) ---------------------------------------


def test_t1_straight_grows_and_a_black_fourth_die_harvests_value_3_diced_tomatoes_6():
    """T-1: seed 4, +5, +3, a second 3 refused, black 6 harvests 4 - 1 = 3; +2 karma."""
    g = Given(GAME, started())
    take(g, ANN, [4, 5, 3])
    place(g, ANN, RED0, ANN, 0)
    place(g, ANN, RED1, ANN, 0)  # {4, 5}
    place(g, ANN, RED2, ANN, 0)  # {3, 4, 5}
    g.then(ANN, EndTurn())
    take(g, BOB, [3, 1, 6], red=2, black=1)  # red 3, red 1, black 6
    assert g.refused(BOB, PlaceDie(die=RED3, owner=ANN, token=0)) == "breaks_pattern"
    assert g.refused(BOB, SetDie(die=RED3, value=7)) == "bad_value"  # no 7 on a die
    assert place(g, BOB, BLACK0, ANN, 0) == [
        DiePlaced(player=BOB, die=BLACK0, face=6, owner=ANN, token=0),
        PlantHarvested(
            owner=ANN,
            token=0,
            seed=RED0,
            value=3,
            slot=1,
            star=0,
            returned=[RED1, RED2, BLACK0],
            completer=BOB,
        ),
        KarmaGained(player=BOB, amount=2, karma=5, thirds=0, reason="harvest"),
    ]
    state = g.state
    assert state.tracks[ANN][0].value == 3 and state.plants[ANN][0] == ()
    assert {RED1, RED2, BLACK0} <= set(state.bushel) and RED0 not in state.bushel


def test_t2_set_with_a_black_die_harvests_value_1_and_gives_1_karma_diced_tomatoes_6():
    g = Given(GAME, started())
    take(g, ANN, [2, 2, 2], red=2, black=1)
    for die in (RED0, RED1, BLACK0):
        place(g, ANN, die, ANN, 0)
    assert g.state.plants[ANN][0] == (Die(RED0, 2), Die(RED1, 2), Die(BLACK0, 2))
    g.then(ANN, EndTurn())
    take(g, BOB, [2, 6, 6])
    events = place(g, BOB, RED2, ANN, 0)
    assert events[1] == PlantHarvested(
        owner=ANN,
        token=0,
        seed=RED0,
        value=1,
        slot=1,
        star=0,
        returned=[RED1, BLACK0, RED2],
        completer=BOB,
    )
    assert events[2] == KarmaGained(player=BOB, amount=1, karma=4, thirds=0, reason="harvest")


def test_t3_seed_1_with_a_black_1_rots_and_is_uprooted_at_end_of_turn_diced_tomatoes_9():
    g = Given(GAME, started())
    take(g, ANN, [1, 5, 1], red=2, black=1)
    place(g, ANN, RED0, ANN, 0)
    place(g, ANN, BLACK0, ANN, 0)  # {1, 1}: value 1 - 1 = 0, still a plant during the turn
    place(g, ANN, RED1, ANN, 1)
    assert g.state.plants[ANN][0] == (Die(RED0, 1), Die(BLACK0, 1))
    assert g.then(ANN, EndTurn()) == [
        PlantUprooted(owner=ANN, token=0, dice=[RED0, BLACK0], cause="rotten", player=ANN),
        TurnEnded(player=ANN, passed=[], karma=3, next_player=BOB),
    ]
    state = g.state
    assert state.plants[ANN][0] == () and {RED0, BLACK0} <= set(state.bushel)


def test_completing_your_own_plant_gives_no_karma_diced_tomatoes_6():
    g = Given(GAME, started())
    history_plant(g, ANN, 0, [5, 5, 5])
    g.add(DiceRolled(player=ANN, taken=[RED3], dice=[RED3], faces=[5]))
    events = place(g, ANN, RED3, ANN, 0)
    assert [type(e) for e in events] == [DiePlaced, PlantHarvested]
    assert g.state.karma[ANN] == 3


def test_a_fourth_die_that_rots_the_plant_uproots_it_no_score_no_karma_diced_tomatoes_3_3_4():
    g = Given(GAME, started())
    g.add(DiceRolled(player=ANN, taken=[RED0, BLACK0, BLACK1], dice=[RED0, BLACK0, BLACK1], faces=[2, 2, 2]))
    for die in (RED0, BLACK0, BLACK1):
        place(g, ANN, die, ANN, 0)
    g.add(TurnEnded(player=ANN, passed=[], karma=3, next_player=BOB))
    take(g, BOB, [5, 5, 2], red=2, black=1)  # red 5, red 5, black 2 (id 24)
    assert place(g, BOB, BLACK2, ANN, 0) == [
        DiePlaced(player=BOB, die=BLACK2, face=2, owner=ANN, token=0),
        PlantUprooted(owner=ANN, token=0, dice=[RED0, BLACK0, BLACK1, BLACK2], cause="rotten", player=BOB),
    ]
    assert g.state.tracks[ANN] == () and g.state.karma[BOB] == 3


# --- karma (Diced Tomatoes 5, 7; T-6) --------------------------------------------------------


def test_t6_a_six_moves_to_5_for_2_karma_never_to_1_and_6_to_1_costs_4_diced_tomatoes_5():
    g = Given(GAME, started())
    history_karma(g, ANN, 4)
    take(g, ANN, [6, 3, 3])
    assert g.when(ANN, AdjustDie(die=RED0, by=-1)) == [
        DieChanged(player=ANN, die=RED0, face=5, effect="adjust", cost=2),
    ]
    assert g.refused(ANN, AdjustDie(die=RED0, by=+1)) == "no_wrap"
    assert g.when(ANN, InvertDie(die=RED0)) == [
        DieChanged(player=ANN, die=RED0, face=1, effect="invert", cost=4),
    ]
    g.then(ANN, InvertDie(die=RED0))
    assert g.state.hand[0] == Die(RED0, 1) and g.state.karma[ANN] == 0


def test_t6_with_3_karma_uproot_once_or_reroll_three_times_but_not_set_diced_tomatoes_5():
    """T-6; Diced Tomatoes 5; 3.3-7: the 3-karma uproot may target an opponent's plant."""
    g = Given(GAME, started())
    history_plant(g, BOB, 1, [3, 4])  # any plant may be uprooted (3.3-7)
    g.add(DiceRolled(player=ANN, taken=[RED2, RED3], dice=[RED2, RED3], faces=[6, 6]))
    assert g.refused(ANN, SetDie(die=RED2, value=4)) == "not_enough_karma"
    assert g.refused(ANN, FlipSeed(owner=BOB, token=1)) == "not_enough_karma"
    assert g.when(ANN, UprootPlant(owner=BOB, token=1)) == [
        PlantUprooted(owner=BOB, token=1, dice=[RED0, RED1], cause="karma", player=ANN, cost=3),
    ]
    rerolls = Given(GAME, g.events)
    for face in (1, 2, 3):
        assert rerolls.then(ANN, RerollDie(die=RED2), Rigged([face])) == [
            DieChanged(player=ANN, die=RED2, face=face, effect="reroll", cost=1),
        ]
    assert rerolls.refused(ANN, RerollDie(die=RED2)) == "not_enough_karma"
    g.then(ANN, UprootPlant(owner=BOB, token=1))
    assert g.state.karma[ANN] == 0 and g.state.plants[BOB][1] == ()
    assert g.refused(ANN, UprootPlant(owner=BOB, token=1)) == "no_plant"


def test_karma_effects_refuse_bad_targets_diced_tomatoes_5():
    g = Given(GAME, started())
    history_karma(g, ANN, 6)
    take(g, ANN, [3, 4, 5])
    assert g.refused(ANN, AdjustDie(die=RED0, by=2)) == "bad_adjustment"
    assert g.refused(ANN, InvertDie(die=RED0)) == "not_one_or_six"
    assert g.refused(ANN, SetDie(die=RED0, value=0)) == "bad_value"
    assert g.refused(ANN, RerollDie(die=RED4)) == "die_not_rolled"
    assert g.refused(ANN, UprootPlant(owner=ANN, token=0)) == "no_plant"
    assert g.refused(ANN, UprootPlant(owner="zed", token=0)) == "no_such_player"
    assert g.refused(ANN, FlipSeed(owner=ANN, token=5)) == "no_such_token"
    assert g.when(ANN, SetDie(die=RED1, value=1)) == [
        DieChanged(player=ANN, die=RED1, face=1, effect="set", cost=6),
    ]


def test_flip_seed_turns_it_to_the_opposite_face_for_5_karma_diced_tomatoes_5():
    g = Given(GAME, started())
    history_plant(g, BOB, 0, [4, 4])
    history_plant(g, BOB, 1, [4, 4, 4])
    history_karma(g, ANN, 5)
    assert g.when(ANN, FlipSeed(owner=BOB, token=0)) == [
        SeedFlipped(player=ANN, owner=BOB, token=0, face=3, cost=5),  # {3, 4}: a straight
    ]
    assert g.refused(ANN, FlipSeed(owner=BOB, token=1)) == "breaks_pattern"
    g.then(ANN, FlipSeed(owner=BOB, token=0))  # karma may be spent before taking dice
    assert g.state.plants[BOB][0][0].face == 3 and g.state.karma[ANN] == 0


def test_karma_rises_to_12_in_turn_and_drops_to_6_at_its_end_diced_tomatoes_7_and_16():
    g = Given(GAME, started(karma_overdose=True))
    history_plant(g, ANN, 0, [6, 6, 6])
    g.add(TurnEnded(player=ANN, passed=[], karma=3, next_player=BOB))
    history_karma(g, BOB, 6)
    take(g, BOB, [6, 6, 5])
    events = place(g, BOB, RED3, ANN, 0)
    assert isinstance(events[1], PlantHarvested)
    assert events[2:] == [
        KarmaGained(player=BOB, amount=0, karma=6, thirds=1, reason="thirds"),
        KarmaGained(player=BOB, amount=6, karma=12, thirds=1, reason="harvest"),
    ]
    place(g, BOB, RED4, ANN, 0)  # a new seed on ann's token: a second third
    assert g.state.karma[BOB] == 12 and g.state.thirds[BOB] == 2
    finish_turn(g, BOB)
    turn_ended = next(e for e in reversed(g.events) if isinstance(e, TurnEnded))
    assert turn_ended.karma == 6 and g.state.karma[BOB] == 6


def test_karma_overdose_gives_the_harvested_value_and_a_karma_per_three_dice_diced_tomatoes_16():
    g = Given(GAME, started(karma_overdose=True))
    history_plant(g, ANN, 0, [5, 5, 5])
    g.add(TurnEnded(player=ANN, passed=[], karma=3, next_player=BOB))
    take(g, BOB, [1, 1, 5])
    assert place(g, BOB, RED3, ANN, 1)[1:] == [
        KarmaGained(player=BOB, amount=0, karma=3, thirds=1, reason="thirds"),
    ]
    place(g, BOB, RED4, ANN, 1)
    assert place(g, BOB, RED5 := 5, ANN, 0)[1:] == [
        PlantHarvested(
            owner=ANN, token=0, seed=RED0, value=5, slot=1, star=0, returned=[RED1, RED2, RED5], completer=BOB
        ),
        KarmaGained(player=BOB, amount=1, karma=4, thirds=0, reason="thirds"),
        KarmaGained(player=BOB, amount=5, karma=9, thirds=0, reason="harvest"),
    ]


# --- golden dice (Diced Tomatoes 17) ---------------------------------------------------------


def test_a_golden_die_adds_1_and_an_overripe_plant_is_uprooted_diced_tomatoes_17_and_9():
    g = Given(GAME, started(golden_sun=True))
    golden = ids_of(g.state, "golden")
    take(g, ANN, [6, 6, 5], red=2, golden=1)  # red 6, red 6, golden 5
    place(g, ANN, RED0, ANN, 0)
    place(g, ANN, golden[0], ANN, 0)  # {6, 5}: value 6 + 1 = 7, overripe
    place(g, ANN, RED1, ANN, 1)
    assert g.then(ANN, EndTurn())[0] == PlantUprooted(
        owner=ANN,
        token=0,
        dice=[RED0, golden[0]],
        cause="overripe",
        player=ANN,
    )


def test_a_golden_fourth_die_making_7_uproots_the_plant_without_karma_diced_tomatoes_17_3_3_4():
    """3.3-4 with 3.1-17: a 4th die pushing the value to 7 uproots (overripe); the completer of
    the opponent's plant gains no karma and the owner scores nothing."""
    g = Given(GAME, started(golden_sun=True))
    golden = ids_of(g.state, "golden")
    history_plant(g, ANN, 0, [6, 6, 6])  # value 6
    g.add(TurnEnded(player=ANN, passed=[], karma=3, next_player=BOB))
    take(g, BOB, [2, 2, 6], red=2, golden=1)  # red 2, red 2, golden 6
    assert place(g, BOB, golden[0], ANN, 0) == [
        DiePlaced(player=BOB, die=golden[0], face=6, owner=ANN, token=0),
        PlantUprooted(owner=ANN, token=0, dice=[RED0, RED1, RED2, golden[0]], cause="overripe", player=BOB),
    ]
    assert g.state.tracks[ANN] == () and g.state.karma[BOB] == 3


def test_golden_and_black_dice_change_the_harvested_value_diced_tomatoes_6_and_17():
    g = Given(GAME, started(golden_sun=True))
    golden = ids_of(g.state, "golden")
    g.add(
        DiceRolled(
            player=ANN,
            taken=[RED0, golden[0], golden[1], BLACK0],
            dice=[RED0, golden[0], golden[1], BLACK0],
            faces=[3, 3, 3, 3],
        )
    )
    for die in (RED0, golden[0], golden[1]):
        place(g, ANN, die, ANN, 0)
    assert as_type(place(g, ANN, BLACK0, ANN, 0)[1], PlantHarvested).value == 3 + 2 - 1


# --- end of game (Diced Tomatoes 10, 11, 12, 3.3-5) ------------------------------------------


def test_the_turn_passes_clockwise_diced_tomatoes_10():
    g = Given(GAME, started((ANN, BOB, CY), last=CY))
    assert g.state.active == ANN
    for actor, nxt in ((ANN, BOB), (BOB, CY), (CY, ANN)):
        take(g, actor, [5, 5, 5])
        ended = finish_turn(g, actor)[-1]
        assert (ended.player, ended.next_player) == (actor, nxt)
        assert g.state.active == nxt


def test_a_6th_harvest_starts_the_final_round_ending_with_the_last_player_diced_tomatoes_11():
    """Diced Tomatoes 11, 13 (+2 to the first full track); 3.3-5: a full track takes no dice."""
    g = Given(GAME, started((ANN, BOB, CY), last=CY))
    for value in (1, 2, 3, 4, 5):
        history_harvest(g, ANN, value)
    history_plant(g, ANN, 1, [6, 6, 6])
    die = history_plant(g, ANN, 2, [6])[0]
    g.add(DiceRolled(player=ANN, taken=[30], dice=[30], faces=[6]))
    assert place(g, ANN, 30, ANN, 1)[1:] == [
        PlantHarvested(
            owner=ANN, token=1, seed=5, value=6, slot=6, star=0, returned=[6, 7, 30], completer=ANN
        ),
        FinalRoundTriggered(player=ANN),
    ]
    assert g.state.final_round and g.state.first_full == ANN
    g.add(DiceRolled(player=ANN, taken=[31], dice=[31], faces=[6]))
    assert g.refused(ANN, PlaceDie(die=31, owner=ANN, token=2)) == "track_full"  # 3.3-5
    assert g.state.plants[ANN][2] == (Die(die, 6),)
    assert not any(isinstance(e, PlayEnded) for e in finish_turn(g, ANN))
    take(g, BOB, [2, 2, 2])
    assert not any(isinstance(e, PlayEnded) for e in finish_turn(g, BOB))
    take(g, CY, [3, 3, 3])
    assert finish_turn(g, CY)[-1] == PlayEnded(reason="final_round")
    assert is_terminal(g.state)
    assert result(g.state).details["breakdown"][ANN]["first_full_track"] == 2


def test_a_6th_harvest_by_the_last_player_ends_the_game_with_their_turn_diced_tomatoes_11():
    g = Given(GAME, started((ANN, BOB), last=ANN))  # bob plays first, ann is last
    for value in (1, 2, 3, 4, 5):
        history_harvest(g, ANN, value)
    g.add(TurnEnded(player=BOB, passed=[], karma=3, next_player=ANN))
    history_plant(g, ANN, 1, [4, 4, 4])
    g.add(DiceRolled(player=ANN, taken=[20], dice=[20], faces=[4]))
    assert place(g, ANN, 20, ANN, 1)[-1] == FinalRoundTriggered(player=ANN)
    assert g.then(ANN, EndTurn())[-1] == PlayEnded(reason="final_round")


def test_an_empty_bushel_at_the_start_of_a_turn_ends_the_game_diced_tomatoes_12():
    g = Given(GAME, started())
    for owner in (ANN, BOB):
        for token in range(3):
            history_plant(g, owner, token, [2, 2, 2])  # 18 red dice, every token taken
    g.add(DiceRolled(player=ANN, taken=[18, 19, 20, 21, 22], dice=[18, 19, 20, 21, 22], faces=[5] * 5))
    assert g.then(ANN, EndTurn())[-1] == TurnEnded(
        player=ANN,
        passed=[18, 19, 20, 21, 22],
        karma=3,
        next_player=BOB,
    )
    take(g, BOB, [5] * 8, red=0, black=3)  # the last 3 dice, with the 5 passed ones
    assert g.then(BOB, EndTurn()) == [
        TurnEnded(player=BOB, passed=[23, 24, 25, 18, 19, 20, 21, 22], karma=3, next_player=ANN),
        PlayEnded(reason="empty_bushel"),
    ]
    assert is_terminal(g.state) and legal_commands(g.state, ANN) == []
    assert g.refused(ANN, TakeDice()) == "game_over"


# --- scoring (Diced Tomatoes 13-15; T-4, T-5) ------------------------------------------------


def test_t4_a_value_equal_to_its_slot_earns_a_star_completing_7_diced_tomatoes_15():
    g = Given(GAME, started(tomato_dice=True))
    history_harvest(g, ANN, 5)
    history_harvest(g, ANN, 1)
    history_plant(g, ANN, 1, [3, 3, 3])
    g.add(DiceRolled(player=ANN, taken=[10], dice=[10], faces=[3]))
    (_, event) = place(g, ANN, 10, ANN, 1)
    harvest = as_type(event, PlantHarvested)
    assert (harvest.slot, harvest.value, harvest.star) == (3, 3, 4)  # 3 + 4 = 7
    history_harvest(g, ANN, 2)
    history_plant(g, ANN, 1, [6, 6, 6])
    g.add(DiceRolled(player=ANN, taken=[15], dice=[15], faces=[6]))
    (_, event) = place(g, ANN, 15, ANN, 1)
    harvest = as_type(event, PlantHarvested)
    assert (harvest.slot, harvest.value, harvest.star) == (5, 6, 0)  # no star
    slots = [s.value + s.star for s in g.state.tracks[ANN]]
    assert slots == [5, 1, 7, 2, 6]
    assert score_breakdown(g.state, ANN)["stars"] == 4


def test_t5_track_26_karma_5_five_plant_dice_and_first_full_track_score_31_diced_tomatoes_13():
    g = Given(GAME, started())
    for value in (5, 3, 6, 2, 4, 6):
        history_harvest(g, ANN, value)
    g.add(FinalRoundTriggered(player=ANN))
    history_plant(g, ANN, 1, [2, 3, 4])
    history_plant(g, ANN, 2, [5, 5])
    history_karma(g, ANN, 5)
    assert score_breakdown(g.state, ANN) == {
        "track": 26,
        "stars": 0,
        "karma_pairs": 2,
        "plant_dice": 1,
        "first_full_track": 2,
        "total": 31,
    }
    assert result(g.state).scores[ANN] == 31


def test_the_per_plant_dice_bonus_counts_plants_of_exactly_3_dice_diced_tomatoes_13_and_3_3_3():
    for dice_bonus, expected in (("pooled", 1), ("per_plant", 0)):
        g = Given(GAME, started(dice_bonus=dice_bonus))
        history_plant(g, ANN, 0, [2, 3])
        history_plant(g, ANN, 1, [5, 5])
        assert score_breakdown(g.state, ANN)["plant_dice"] == expected
    g = Given(GAME, started(dice_bonus="per_plant"))
    history_plant(g, ANN, 0, [2, 3, 4])
    history_plant(g, ANN, 1, [5, 5, 5])
    history_plant(g, ANN, 2, [1])
    assert score_breakdown(g.state, ANN)["plant_dice"] == 2


def test_equal_totals_share_the_win_diced_tomatoes_14():
    g = Given(GAME, started((ANN, BOB, CY)))
    history_harvest(g, ANN, 4)
    history_harvest(g, BOB, 4)
    history_harvest(g, CY, 2)
    outcome = result(g.state)
    assert outcome.scores == {ANN: 5, BOB: 5, CY: 3}
    assert outcome.winners == [ANN, BOB]
    assert [(s.player, s.rank) for s in outcome.ranking] == [(ANN, 1), (BOB, 1), (CY, 3)]


# --- solo (Diced Tomatoes 18) ----------------------------------------------------------------


def test_solo_completing_your_own_plant_earns_karma_diced_tomatoes_18():
    g = Given(GAME, started((ANN,)))
    assert g.state.active == ANN and g.state.last_player == ANN
    history_plant(g, ANN, 0, [3, 3, 3])
    g.add(DiceRolled(player=ANN, taken=[3], dice=[3], faces=[3]))
    assert place(g, ANN, 3, ANN, 0)[-1] == KarmaGained(
        player=ANN,
        amount=2,
        karma=5,
        thirds=0,
        reason="harvest",
    )


def test_solo_scores_1_per_value_matching_its_slot_and_loses_short_of_6_diced_tomatoes_18():
    g = Given(GAME, started((ANN,)))
    for value in (1, 5, 3):
        history_harvest(g, ANN, value)
    outcome = result(g.state)
    assert outcome.scores == {ANN: 2} and outcome.winners == []
    assert outcome.details["won"] is False
    for value in (4, 5, 6):
        history_harvest(g, ANN, value)
    outcome = result(g.state)
    assert outcome.scores == {ANN: 5} and outcome.winners == [ANN]


def test_solo_goes_on_past_an_empty_bushel_while_dice_are_left_to_play_diced_tomatoes_18():
    g = Given(GAME, started((ANN,)))
    for token in range(3):
        history_plant(g, ANN, token, [2, 2, 2])  # 9 red dice, every token taken
    rest = [9, 10, 11, 12]  # 2 red, 2 black: the whole rest of the bushel
    g.add(DiceRolled(player=ANN, taken=rest, dice=rest, faces=[5] * 4))
    assert g.then(ANN, EndTurn()) == [TurnEnded(player=ANN, passed=rest, karma=3, next_player=ANN)]
    assert g.state.bushel == () and g.state.phase == "take"
    takes = [c for c in legal_commands(g.state, ANN) if isinstance(c, TakeDice)]
    assert takes == [TakeDice(red=0, black=0, golden=0)]
    take(g, ANN, [5, 5, 5, 5], red=0)
    assert not any(isinstance(e, PlayEnded) for e in g.then(ANN, EndTurn()))  # a 2 would fit: play on
    rolled = take(g, ANN, [2, 5, 5, 5], red=0)
    place(g, ANN, rolled[0], ANN, 0)  # the 4th die: harvested, 3 dice back in the bushel
    assert g.state.bushel


def test_issue12_point4_solo_dice_rerolled_to_1s_do_not_end_the_game_diced_tomatoes_18():
    """RULES 3.1-18 (ruling 2026-11-30): the game does not end on an empty bushel while the
    player still holds dice; passed dice re-rolled to 1s used to end it as out_of_dice."""
    g = Given(GAME, started((ANN,)))
    for token in range(3):
        history_plant(g, ANN, token, [3, 3, 3])  # each plant waits for a 3
    rest = list(g.state.bushel)  # 2 red, 2 black: the whole rest of the bushel
    g.add(DiceRolled(player=ANN, taken=rest, dice=rest, faces=[5] * 4))
    g.then(ANN, EndTurn())
    take(g, ANN, [1, 1, 1, 1], red=0)
    events = g.then(ANN, EndTurn())
    assert not any(isinstance(e, PlayEnded) for e in events), events
    assert not is_terminal(g.state) and g.state.phase == "take" and len(g.state.passed) == 4
    take(g, ANN, [3, 1, 1, 1], red=0)
    assert g.refused(ANN, EndTurn()) == "must_place"  # the held dice were still in play


def test_solo_ends_out_of_dice_when_no_die_held_could_ever_be_placed_diced_tomatoes_18():
    """RULES 3.1-18: held dice that keep their faces (reroll_passed_dice off) and fit nowhere
    will never be played: the game ends."""
    g = Given(GAME, started((ANN,), reroll_passed_dice=False))
    for token in range(3):
        history_plant(g, ANN, token, [2, 2, 2])
    rest = [9, 10, 11, 12]
    g.add(DiceRolled(player=ANN, taken=rest, dice=rest, faces=[5] * 4))
    assert g.then(ANN, EndTurn())[-1] == PlayEnded(reason="out_of_dice")


def test_issue12_point5_tomato_dice_variant_has_no_first_full_track_bonus_diced_tomatoes_13():
    """RULES 3.1-13 (ruling 2026-11-30): no +2 for the first 6th plant in the Tomato Dice
    variant; the base game keeps it."""
    for tomato_dice, bonus in ((False, 2), (True, 0)):
        g = Given(GAME, started((ANN, BOB), tomato_dice=tomato_dice))
        for value in (1, 2, 3, 4, 5, 6):
            history_harvest(g, ANN, value)
        g.add(FinalRoundTriggered(player=ANN))
        assert g.state.first_full == ANN
        breakdown = score_breakdown(g.state, ANN)
        assert breakdown["first_full_track"] == bonus, tomato_dice
        assert breakdown["total"] == 21 + breakdown["stars"] + 1 + bonus


# --- options, commands, codes ----------------------------------------------------------------


@pytest.mark.parametrize(
    "options",
    [
        {"dice_bonus": "each"},
        {"golden_sun": "yes"},
        {"karma_overdose": 1},
        {"harvest": True},
    ],
)
def test_bad_options_are_refused_at_create_diced_tomatoes_15_to_17(options):
    decider = TableDecider(GAME)
    refused = rejected(
        decider.decide(
            decider.initial_state, Create(options=options, seats=2), Context(actor=ANN, rng=Rigged())
        )
    )
    assert code(refused) == "bad_option"
    if "dice_bonus" in options:
        assert "pooled" in refused.message and "per_plant" in refused.message


def test_every_option_is_accepted_and_recorded_at_create_diced_tomatoes_15_to_17():
    decider = TableDecider(GAME)
    options = {
        "tomato_dice": True,
        "karma_overdose": True,
        "golden_sun": True,
        "dice_bonus": "per_plant",
        "reroll_passed_dice": False,
    }
    created = accepted(
        decider.decide(
            decider.initial_state, Create(options=options, seats=1), Context(actor=ANN, rng=Rigged())
        )
    )
    assert as_type(created[0], TableCreated).options == options
    assert (
        code(decider.decide(decider.initial_state, Create(seats=7), Context(actor=ANN, rng=Rigged())))
        == "bad_option"
    )


def test_an_unknown_command_is_refused():
    class Dance(Command, frozen=True, kw_only=True):
        pass

    g = Given(GAME, started())
    assert g.refused(ANN, Dance()) == "bad_command"
    take(g, ANN, [1, 2, 3])
    assert g.refused(ANN, Dance()) == "bad_command"
    assert code(decide(State(), TakeDice(red=3), Context(actor=ANN, rng=Rigged()))) == "not_started"


def test_game_set_up_round_trips_through_json():
    event = started((ANN, BOB, CY), golden_sun=True, dice_bonus="per_plant")[0]
    decoded = msgspec.json.decode(msgspec.json.encode(event), type=GameSetUp)
    assert decoded == event


def test_every_legal_command_is_accepted_in_a_busy_position():
    g = Given(GAME, started((ANN, BOB), golden_sun=True))
    history_plant(g, BOB, 0, [1])
    history_plant(g, BOB, 1, [6, 6])
    history_karma(g, ANN, 6)
    g.add(DiceRolled(player=ANN, taken=[3, 22, 26], dice=[3, 22, 26], faces=[1, 6, 3]))
    legal = legal_commands(g.state, ANN)
    kinds = {type(c) for c in legal}
    assert kinds == {PlaceDie, RerollDie, AdjustDie, InvertDie, SetDie, UprootPlant, FlipSeed}
    for command in legal:
        assert not isinstance(g.when(ANN, command), Rejection), command
    assert legal_commands(g.state, BOB) == []


def test_evolve_does_not_mutate_its_input():
    g = Given(GAME, started())
    take(g, ANN, [4, 4, 4])
    before = g.state
    snapshot = msgspec.json.encode(before)
    for event in g.accepts(ANN, PlaceDie(die=RED0, owner=ANN, token=0)):
        evolve(before, event)
    assert msgspec.json.encode(before) == snapshot
    assert data.KARMA_COSTS == {"reroll": 1, "adjust": 2, "uproot": 3, "invert": 4, "flip_seed": 5, "set": 6}
