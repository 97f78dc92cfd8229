"""Diced Tomatoes' part of the search bot, in whole random games of 1 to 6 players and every
option variant: a seat's view gives back a state with the same view and the same legal
commands (all dice are public, so it is the true state but for the two unshown counters of
the turn), `evaluate` gives chances in [0, 1], `policy` picks one of the legal commands."""

from __future__ import annotations

import random
import time
from typing import Any

import msgspec
import pytest

from services.registry import games
from shared.games.decider import Context, Event, Rejection
from shared.games.diced_tomatoes import GAME
from shared.games.diced_tomatoes.messages import (
    AdjustDie,
    EndTurn,
    PlaceDie,
    RerollDie,
    TakeDice,
    UprootPlant,
)
from shared.games.diced_tomatoes.search import SEARCH, determinize, evaluate, policy
from shared.games.diced_tomatoes.state import Die, State
from shared.games.simulate import simulate
from shared.games.table import Table
from shared.games.table_views import player_view
from tests.games.search_walk import check_determinizations, positions

replace = msgspec.structs.replace
DECIDER = games()["diced_tomatoes"]
OPTION_SETS: list[dict[str, Any]] = [
    {},
    {"golden_sun": True},
    {"tomato_dice": True},
    {"karma_overdose": True},
    {"dice_bonus": "per_plant"},
    {"reroll_passed_dice": False},
    {"golden_sun": True, "tomato_dice": True, "karma_overdose": True, "reroll_passed_dice": False},
]
DRAWS = 3  # determinizations checked per seat and step
EVERY = 5  # check the table after one command in EVERY


def _context(seat: str, rng: random.Random) -> Context:
    return Context(actor=seat, rng=rng)


@pytest.mark.parametrize("index", range(len(OPTION_SETS)), ids=lambda i: ",".join(OPTION_SETS[i]) or "-")
def test_determinize_evaluate_and_policy_along_whole_games(index: int) -> None:
    """Each option set in games of 3 player counts, every count met in 3 or 4 option sets."""
    games_rng, rng = random.Random(100 + index), random.Random(200 + index)
    checked = acting = 0
    for seats in (index % 6 + 1, (index + 2) % 6 + 1, (index + 4) % 6 + 1):
        players = [f"p{i}" for i in range(1, seats + 1)]
        for table, seat in positions(DECIDER, players, games_rng, options=OPTION_SETS[index], every=EVERY):
            state: State = table.game
            draws = check_determinizations(GAME, SEARCH, table, seat, rng, DRAWS)
            # Nothing is hidden: the very state, but for what this turn took and placed; the same
            # from the view as a local game hands it over (not through JSON).
            draws.append(determinize(player_view(GAME, table, seat), rng))
            for det in draws:
                assert replace(det, taken=state.taken, placed=state.placed) == state
                assert det == draws[0]
            legal = GAME.legal_commands(state, seat)
            if legal:
                acting += 1
                move = policy(draws[0], seat, legal, rng)
                assert not isinstance(GAME.decide(draws[0], move, _context(seat, rng)), Rejection)
            checked += 1
    assert checked > 50 and acting > 20, (checked, acting)


def test_ended_game_is_judged_by_its_result_and_search_is_wired() -> None:
    assert GAME.search is SEARCH
    rng = random.Random(5)
    for seats in (1, 2, 4):
        players = [f"p{i}" for i in range(1, seats + 1)]
        sim = simulate(DECIDER, players, rng)
        assert sim.table.result is not None
        chances = evaluate(sim.table.game)
        winners = set(sim.table.result.winners)
        assert {p for p, c in chances.items() if c == 1.0} == winners
        assert all(c == 0.0 for p, c in chances.items() if p not in winners)


def test_policy_plays_whole_games_from_its_own_legal_moves() -> None:
    """Policy against policy, on the state, as the playouts play: every move is accepted and
    the games end."""
    rng = random.Random(11)
    for options in OPTION_SETS:
        for seats in (1, 2, 3, 6):
            state = _started(options, seats, rng)
            for _ in range(5000):
                if GAME.is_terminal(state):
                    break
                (actor,) = GAME.players_to_act(state)
                move = policy(state, actor, GAME.legal_commands(state, actor), rng)
                events = GAME.decide(state, move, _context(actor, rng))
                assert isinstance(events, list), (move, events)
                for e in events:
                    state = GAME.evolve(state, e)
            assert GAME.is_terminal(state)


def _started(options: dict[str, Any], seats: int, rng: random.Random) -> State:
    events = GAME.setup(GAME.options(**options), tuple(f"p{i}" for i in range(1, seats + 1)), rng)
    assert isinstance(events, list)
    state = GAME.initial_state
    for e in events:
        state = GAME.evolve(state, e)
    return state


def test_policy_prefers_good_moves() -> None:
    """Dice it likes first, its own harvests, and a re-roll of karma that would be lost."""
    rng = random.Random(3)
    state = _started({}, 2, rng)
    me = state.active
    other = state.next_player(me)
    assert policy(state, me, GAME.legal_commands(state, me), rng) == TakeDice(red=3)
    red = [i for i, c in enumerate(state.colours) if c == "red"]
    fives = (Die(red[0], 5), Die(red[1], 5), Die(red[2], 5))
    state = replace(
        state,
        phase="place",
        plants={me: (fives, (), ()), other: ((), (), ())},
        hand=(Die(red[3], 5), Die(red[4], 2)),
        bushel=tuple(d for d in state.bushel if d not in red[:5]),
    )
    assert policy(state, me, GAME.legal_commands(state, me), rng) == PlaceDie(die=red[3], owner=me, token=0)
    # a 2 fits nowhere, no plant is worth karma, and 2 karma above the cap would be lost at the
    # end of the turn
    sixes = ((Die(red[5], 6),), (Die(red[6], 6),))
    stuck = replace(
        state,
        hand=(Die(red[4], 2),),
        karma={me: 8, other: 3},
        plants={me: (fives[:2], *sixes), other: ((Die(red[7], 5),), (Die(red[8], 5),), (Die(red[9], 5),))},
    )
    legal = GAME.legal_commands(stuck, me)
    assert legal[0] == EndTurn()
    assert policy(stuck, me, legal, rng) == RerollDie(die=red[4])
    assert policy(replace(stuck, karma={me: 6, other: 3}), me, legal, rng) == EndTurn()


def test_policy_spends_karma_where_it_pays() -> None:
    """3 karma to uproot an opponent's 3-dice plant of 5, and 2 to make a 4 fit one's own 3-dice
    plant of 6 and harvest it; none on a plant of 1."""
    rng = random.Random(4)
    state = _started({}, 2, rng)
    me = state.active
    other = state.next_player(me)
    red = [i for i, c in enumerate(state.colours) if c == "red"]
    ripe = (Die(red[0], 5), Die(red[1], 5), Die(red[2], 5))
    state = replace(
        state,
        phase="place",
        plants={me: ((), (), ()), other: (ripe, (), ())},
        hand=(Die(red[3], 1),),
        bushel=tuple(d for d in state.bushel if d not in red[:4]),
    )
    assert policy(state, me, GAME.legal_commands(state, me), rng) == UprootPlant(owner=other, token=0)
    ones = (Die(red[0], 1), Die(red[1], 1), Die(red[2], 1))
    poor = replace(state, plants={me: ((), (), ()), other: (ones, (), ())})
    assert isinstance(policy(poor, me, GAME.legal_commands(poor, me), rng), PlaceDie)
    sixes = (Die(red[0], 6), Die(red[1], 6), Die(red[2], 6))
    mine = replace(state, plants={me: (sixes, (), ()), other: ((), (), ())}, hand=(Die(red[3], 5),))
    assert policy(mine, me, GAME.legal_commands(mine, me), rng) == AdjustDie(die=red[3], by=1)


def test_timings() -> None:
    """Well under a millisecond a determinization; tens of microseconds an evaluation and a
    playout move (in CPU time, with generous bounds: a loaded machine must not fail them)."""
    rng = random.Random(2)
    samples: list[tuple[dict[str, Any], State, str]] = []

    def keep(table: Table, event: Event) -> None:
        state = table.game
        if (
            table.status == "running"
            and state is not None
            and GAME.players_to_act(state)
            and rng.random() < 0.05
        ):
            samples.append((player_view(DECIDER.game, table, state.active), state, state.active))

    simulate(DECIDER, ["a", "b", "c", "d"], rng, after_event=keep)
    legal = [GAME.legal_commands(s, seat) for _, s, seat in samples]
    start = time.process_time()
    for view, _, _ in samples:
        determinize(view, rng)
    per_determinize = (time.process_time() - start) / len(samples)
    start = time.process_time()
    for _, state, _ in samples:
        evaluate(state)
    per_evaluate = (time.process_time() - start) / len(samples)
    start = time.process_time()
    for (_, state, seat), moves in zip(samples, legal):
        policy(state, seat, moves, rng)
    per_policy = (time.process_time() - start) / len(samples)
    assert per_determinize < 1e-3 and per_evaluate < 2e-4 and per_policy < 4e-4, (
        per_determinize,
        per_evaluate,
        per_policy,
    )
