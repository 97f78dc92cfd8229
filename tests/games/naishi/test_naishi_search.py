"""Naishi's search parts (`shared.games.naishi.search`) on whole games: at every step and for
each seat, a determinized state shows that seat exactly its view and offers it exactly its
legal moves, yet draws what the view hides anew; the estimate is a chance and the playout
policy keeps to the legal moves; the fast scorer agrees with the engine's."""

from __future__ import annotations

import dataclasses
import gc
import random

import pytest

from shared.games.decider import Context, Rejection, random_legal_bot
from shared.games.naishi import GAME
from shared.games.naishi import search as naishi_search
from shared.games.naishi.components import CARD_KINDS, MOUNTAIN, all_cards, kind_of
from shared.games.naishi.scoring import best_copies, copy_candidates, grid_of, ninja_cells, score_grid
from shared.games.naishi.search import _CODE as CODE
from shared.games.naishi.search import SEARCH, determinize, evaluate, policy, territory_score
from shared.games.naishi.search import _gain as gain
from shared.games.naishi.search import _swap_gain as swap_gain
from shared.games.naishi.state import State
from shared.games.simulate import simulate
from shared.games.table import TableDecider
from shared.games.table_views import player_view
from tests.games.search_walk import check_determinizations, positions, seat_view

GREEDY = TableDecider(GAME)
RANDOM = TableDecider(dataclasses.replace(GAME, bot=random_legal_bot))
PLAYERS = ("ann", "bob")
DRAWS = 3  # determinizations checked per seat and step


def hidden(state: State, seat: str) -> tuple[object, ...]:
    """What the seat's view hides: the opponent's Hand, the River's face-down cards, gifts."""
    other = state.opponent(seat)
    return (state.hands[other], tuple(pile[1:] for pile in state.river), state.given.get(other))


def check_game(decider: TableDecider, seed: int) -> tuple[int, int]:
    """Check every step of one game; (seat decisions checked, those whose hidden part varied)."""
    rng = random.Random(seed)
    checked = varied = 0
    for table, seat in positions(decider, PLAYERS, rng):
        truth: State = table.game
        if truth.phase == "setup":
            with pytest.raises(ValueError, match="before the deal"):
                determinize(seat_view(GAME, table, seat), rng)
            continue
        draws = check_determinizations(GAME, SEARCH, table, seat, rng, DRAWS)
        for det in draws:
            assert sorted(_cards(det)) == SORTED_CARDS
        if GAME.legal_commands(truth, seat):
            if GAME.secrets(truth, seat):
                checked += 1
                varied += len({hidden(det, seat) for det in draws}) > 1
            play_on(draws[0], rng)
    return checked, varied


SORTED_CARDS = sorted(all_cards())


def _cards(state: State) -> list[str]:
    """Every card of a state, where it lies (the gift of the exchange is still in its Hand)."""
    out = [c for p in state.players for c in (*state.lines[p], *state.hands[p])]
    return out + [c for pile in state.river for c in pile] + list(state.discard)


def play_on(state: State, rng: random.Random, moves: int = 6) -> None:
    """A few policy moves from a determinized state: the rules take every one."""
    for _ in range(moves):
        if GAME.is_terminal(state):
            return
        to_act = GAME.players_to_act(state)
        if not to_act:
            return
        player = rng.choice(list(to_act))
        command = policy(state, player, GAME.legal_commands(state, player), rng)
        events = GAME.decide(state, command, Context(actor=player, rng=rng))
        assert not isinstance(events, Rejection), events
        for event in events:
            state = GAME.evolve(state, event)


@pytest.mark.parametrize(("decider", "games"), [(GREEDY, 12), (RANDOM, 12)], ids=["greedy", "random"])
def test_determinized_states_show_each_seat_its_view_and_legal_moves(decider: TableDecider, games: int):
    checked = varied = 0
    for seed in range(games):
        c, v = check_game(decider, seed)
        checked, varied = checked + c, varied + v
    assert checked > 25 * games
    # what a seat cannot see is drawn anew each time (a few late steps hide only one card)
    assert varied >= 0.9 * checked


def test_a_spectator_or_a_view_before_the_deal_cannot_be_determinized():
    rng = random.Random(1)
    with pytest.raises(ValueError, match="before the deal"):
        determinize({"phase": "setup"}, rng)
    sim = simulate(GREEDY, PLAYERS, random.Random(2))
    assert isinstance(sim.table.game, State)
    with pytest.raises(ValueError, match="spectator"):
        determinize(player_view(GAME, sim.table, None), rng)


def test_the_fast_score_agrees_with_the_engine_with_any_ninja_copies():
    """The search's own scorer (table look-ups) against scoring.py's, each Ninja copying its
    best or a given kind."""
    rng = random.Random(3)
    kinds = [MOUNTAIN, *CARD_KINDS]
    for _ in range(600):
        line = [f"{rng.choice(kinds)}_1" for _ in range(5)]
        hand = [f"{rng.choice(kinds)}_1" for _ in range(5)]
        grid = grid_of(line, hand)
        flat = [grid[(r, c)] for r in range(2) for c in range(5)]
        assert territory_score(flat) == score_grid(grid, best_copies(grid))["total"], (line, hand)
        choices: list[str | None] = [*copy_candidates(grid)] or [None]
        copies = {cell: rng.choice(choices) for cell in ninja_cells(grid)}
        by_index = {r * 5 + c: kind for (r, c), kind in copies.items()}
        assert territory_score(flat, by_index) == score_grid(grid, copies)["total"], (line, hand, copies)


def test_a_change_of_one_cell_or_a_swap_scores_as_the_whole_territory_again():
    """The policy's quick gains (only what a change touches) against the whole score after it,
    on territories drawn from the real cards and on any kinds at all."""
    rng = random.Random(5)
    cards = all_cards()
    kinds = [MOUNTAIN, *CARD_KINDS]
    for n in range(6000):
        flat = (
            [kind_of(c) for c in rng.sample(cards, 10)] if n % 2 else [rng.choice(kinds) for _ in range(10)]
        )
        codes = [CODE[k] for k in flat]
        total = territory_score(flat)
        i, j, kind = rng.randrange(10), rng.randrange(10), rng.choice(kinds)
        changed = [*flat[:i], kind, *flat[i + 1 :]]
        assert gain(codes, i, CODE[kind], total) == territory_score(changed) - total, (flat, i, kind)
        swapped = list(flat)
        swapped[i], swapped[j] = swapped[j], swapped[i]
        assert swap_gain(codes, i, j, total) == territory_score(swapped) - total, (flat, i, j)
        assert codes == [CODE[k] for k in flat]  # left as it was


def test_the_playout_memos_agree_stay_bounded_and_hold_nothing_the_collector_walks(monkeypatch):
    """The memoized gains against whole scores, with memos so small they empty again and
    again; what they keep is bytes and ints, which the cyclic garbage collector never walks
    (a memo of tuples made its collections long enough to overrun a move's time)."""
    monkeypatch.setattr(naishi_search, "MEMO_SIZE", 64)
    naishi_search._gain_memo.clear()
    naishi_search._copies_memo.clear()
    rng = random.Random(6)
    kinds = [MOUNTAIN, *CARD_KINDS]
    for _ in range(3000):
        flat = [rng.choice(kinds) for _ in range(10)]
        i, kind = rng.randrange(10), rng.choice(kinds)
        changed = [*flat[:i], kind, *flat[i + 1 :]]
        territory = bytes(CODE[k] for k in flat)
        gained = naishi_search._gain_in(territory, i, CODE[kind])
        assert gained == territory_score(changed) - territory_score(flat), (flat, i, kind)
        assert len(naishi_search._gain_memo) <= 64 and len(naishi_search._copies_memo) <= 64
    assert naishi_search._gain_memo and naishi_search._copies_memo
    gc.collect()  # a tuple of untracked things is untracked by the first collection that sees it
    memos = (naishi_search._gain_memo, naishi_search._copies_memo)
    kept = [x for memo in memos for x in (*memo, *memo.values())]
    assert not [x for x in kept if gc.is_tracked(x)]


def test_the_policy_plays_whole_games_to_their_end():
    """Both seats on the policy alone, from the deal to the result: a playout never sticks."""
    rng = random.Random(4)
    for _ in range(5):
        setup = GAME.setup(GAME.options(), PLAYERS, rng)
        assert not isinstance(setup, Rejection)
        state = GAME.initial_state
        for event in setup:
            state = GAME.evolve(state, event)
        for _ in range(500):
            if GAME.is_terminal(state):
                break
            player = rng.choice(list(GAME.players_to_act(state)))
            legal = GAME.legal_commands(state, player)
            command = policy(state, player, legal, rng)
            assert command in legal
            events = GAME.decide(state, command, Context(actor=player, rng=rng))
            assert not isinstance(events, Rejection), events
            for event in events:
                state = GAME.evolve(state, event)
        assert GAME.is_terminal(state)
        assert evaluate(state)[GAME.result(state).winners[0]] >= 0.5
    assert GAME.search is SEARCH
