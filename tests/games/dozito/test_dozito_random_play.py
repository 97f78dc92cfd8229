"""Dozito's own invariants in whole bot games, on top of the conformance suite (which checks
the folded log, JSON, legal commands, refusals and secrets for every game): every card exactly
once, a face-up numbered card only in its slot, a face-up card never turned down within a round,
every round score equal to a recomputation from the grids (Dozito 10-12), the result's rounds.
The quick run plays each option set and player count once; the `slow` run
`TABLETOP_TEST_GAMES` games, and insists that they met the special cards."""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest

from shared.games.dozito import GAME
from shared.games.dozito.cards import DECKS
from shared.games.dozito.messages import (
    CardDiscarded,
    DrawPileRebuilt,
    OneColourGridCompleted,
    RoundEndTriggered,
    RoundScored,
)
from shared.games.dozito.state import State, is_one_colour_grid, score_grid, visible_grid
from shared.games.table import Table, TableDecider
from tests.conformance.conformance import GAMES, cases, play, quick_cases

DECIDER = TableDecider(GAME)


def check_invariants(state: State) -> None:
    """The invariants: every card exactly once; a numbered card only in its slot."""
    if state.round == 0:
        return
    where = [c for g in state.grids.values() for c in g] + list(state.draw)
    where += [c for pile in state.discards for c in pile]
    if state.hand is not None:
        where.append(state.hand)
    assert len(where) == len(state.cards) and set(where) == state.cards.keys(), Counter(where)
    for p in state.players:
        for slot, (c, up) in enumerate(zip(state.grids[p], state.face_up[p], strict=True), 1):
            number = state.cards[c].number
            # Dealt cards lie face down anywhere (Dozito 1); placed ones only in their slot.
            assert not up or number is None or number == slot, (p, slot, c)


def check_event(state: State, event: object) -> None:
    """What an event claims holds in the state after it: every round score equals a
    recomputation from the grids as they stand (Dozito 11); the round end is triggered by a
    full grid (Dozito 10); a one-colour grid is one (2.3-9)."""
    match event:
        case RoundScored(scores=scores):
            assert set(scores) == set(state.players)
            for p in state.players:
                assert scores[p] == score_grid(visible_grid(state, p)), (p, scores[p])
        case RoundEndTriggered(player=p):
            assert state.all_face_up(p) and state.current == p
        case OneColourGridCompleted(player=p):
            assert is_one_colour_grid(state, p) and state.current == p


class Invariants:
    """The checks after every event, with the previous state (face-up cards stay face up)."""

    def __init__(self) -> None:
        self.last: State | None = None
        self.kinds: Counter[str] = Counter()

    def __call__(self, table: Table, event: Any) -> None:
        self.kinds[type(event).__name__] += 1
        if isinstance(event, CardDiscarded) and event.extra_turn:
            self.kinds["extra_turn"] += 1
        state = table.game
        if not isinstance(state, State):
            return
        check_invariants(state)
        check_event(state, event)
        prev = self.last
        if prev is not None and prev.round == state.round:
            for p in prev.players:
                now = state.face_up[p]
                assert all(b or not a for a, b in zip(prev.face_up[p], now, strict=True))
        self.last = state


def check_end(table: Table, options: dict[str, Any]) -> None:
    """The result against the final state: rounds played, round scores recomputed."""
    state: State = table.game
    res = table.result
    assert res is not None and res == GAME.result(state) and res.winners
    rounds = options.get("rounds", 3)
    assert len(state.round_scores) == rounds or state.one_colour_winner is not None
    assert len(state.cards) == len(DECKS[options.get("deck", "standard")])
    for p in state.players:
        assert res.details["round_scores"][p][-1] == score_grid(visible_grid(state, p)).total
        assert res.scores[p] == sum(res.details["round_scores"][p])


def run(seed: int, options: dict[str, Any], seats: int, invariants: Invariants) -> None:
    played = play(DECIDER, seed, options, seats, invariants=invariants)
    if played is not None:
        assert played.sim is not None
        check_end(played.sim.table, options)
        invariants.last = None


def test_dozito_invariants_in_every_option_set_and_player_count_dozito_1_to_12():
    invariants = Invariants()
    for seed, options, seats in quick_cases(DECIDER):
        run(seed, options, seats, invariants)
    assert invariants.kinds[RoundScored.__name__]


@pytest.mark.slow
def test_dozito_invariants_in_many_games_meet_the_special_cards():
    invariants = Invariants()
    kinds = invariants.kinds
    # GAMES games, and more until a draw pile was rebuilt (a few games in a hundred rebuild it)
    for seed, options, seats in cases(DECIDER, 5 * GAMES):
        if seed >= GAMES and kinds[DrawPileRebuilt.__name__]:
            break
        run(5000 + seed, options, seats, invariants)
    assert kinds[DrawPileRebuilt.__name__] and kinds["extra_turn"]
    assert kinds[RoundEndTriggered.__name__] and kinds[RoundScored.__name__]
