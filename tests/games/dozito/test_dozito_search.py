"""Dozito's search parts (`shared.games.dozito.search`) in whole bot games, with 2 to 5
players, both round counts and both decks: a determinization drawn from a seat's view (as it
comes through JSON) gives that seat the same view and the same legal commands as the true
state, holds every card once, and deals the hidden places differently from one draw to the
next (and the same from the same seed); `evaluate` gives chances in [0, 1] that sum to 1, the
result at the end, more to a player ahead; `policy` picks one of the legal commands, plays
whole games to their end and beats the easy bot."""

from __future__ import annotations

import dataclasses
import random
from collections import Counter
from typing import Any

import msgspec

from services.registry import games
from shared.games.bot_levels import settings_for
from shared.games.decider import Context, Rejection
from shared.games.dozito import GAME
from shared.games.dozito.cards import DECKS
from shared.games.dozito.search import SEARCH, _visible_score, determinize, evaluate, policy
from shared.games.dozito.state import State, score_grid, visible_grid
from shared.games.search import search_move
from shared.games.simulate import simulate
from shared.games.table import TableDecider
from tests.games.search_walk import check_determinizations, positions, seat_view

DECIDER: TableDecider = games()["dozito"]
DRAWS_PER_SEAT = 3
EVERY = 7  # check the table after one command in EVERY
# both round counts with every deck (the deck is a free-text option, so `option_sets` leaves it out)
OPTION_SETS = [{"rounds": r, "deck": d} for r in (1, 3) for d in sorted(DECKS)]


def _hidden(state: State) -> tuple[Any, ...]:
    """Where the hidden cards lie: face-down grid cards, the draw pile, the piles under their tops."""
    down = tuple(
        c for p in state.players for c, up in zip(state.grids[p], state.face_up[p], strict=True) if not up
    )
    return (down, state.draw, tuple(pile[:-1] for pile in state.discards))


def _check_draw(det: State, truth: State) -> None:
    """Dozito's own checks on a state drawn from a seat's view: the same players and deck, every
    card of it exactly once, and the search's quick scorer agreeing with Dozito 11's."""
    assert det.players == truth.players and det.cards == truth.cards
    where = [c for g in det.grids.values() for c in g] + list(det.draw)
    where += [c for pile in det.discards for c in pile] + ([det.hand] if det.hand else [])
    assert Counter(where) == Counter(list(det.cards)), Counter(where) - Counter(list(det.cards))
    for p in det.players:
        assert _visible_score(det, p) == score_grid(visible_grid(det, p)).total


def test_dozito_search_determinizations_agree_with_every_seat_view_in_every_option_set_and_player_count():
    games_rng, rng = random.Random(7), random.Random(8)
    games_played = checked = varied = hidden_states = 0
    for options in OPTION_SETS:
        for seats in range(GAME.min_players, GAME.max_players + 1):
            if GAME.check_options(msgspec.convert(options, GAME.options), seats):
                continue  # this deck is too small for so many players
            players = [f"p{i}" for i in range(1, seats + 1)]
            for table, seat in positions(DECIDER, players, games_rng, options=options, every=EVERY):
                truth: State = table.game
                draws = check_determinizations(GAME, SEARCH, table, seat, rng, DRAWS_PER_SEAT)
                for det in draws:
                    _check_draw(det, truth)
                checked += len(draws)
                hidden = _hidden(truth)
                if sum(map(len, hidden[0:2])) + sum(map(len, hidden[2])) > 5:
                    hidden_states += 1
                    # not the truth copied, and not the same deal twice
                    dealt = [_hidden(det) for det in draws]
                    varied += any(d != hidden for d in dealt) and len(set(dealt)) > 1
            games_played += 1
    assert games_played == 14
    assert checked > 1000
    assert varied == hidden_states > 100


def test_dozito_search_is_declared_on_the_game():
    assert GAME.search is SEARCH


def test_dozito_search_evaluates_the_end_as_the_result():
    sim = simulate(DECIDER, ["ann", "bob", "cat"], random.Random(3), options={"rounds": 1})
    state: State = sim.table.game
    chances = evaluate(state)
    result = GAME.result(state)
    assert {p for p, v in chances.items() if v > 0} == set(result.winners)
    assert sum(chances.values()) == 1


def _policy_game(seed: int, seats: int, options: dict[str, Any]) -> State:
    """A whole game on the true state, every seat playing `policy` (it reads only what is public)."""
    rng = random.Random(seed)
    players = tuple(f"p{i}" for i in range(1, seats + 1))
    events = GAME.setup(msgspec.convert(options, GAME.options), players, rng)
    assert isinstance(events, list)
    state = GAME.initial_state
    for e in events:
        state = GAME.evolve(state, e)
    for _ in range(20_000):
        if GAME.is_terminal(state):
            return state
        actor = GAME.players_to_act(state)[0]
        legal = GAME.legal_commands(state, actor)
        command = policy(state, actor, legal, rng)
        assert command in legal
        decided = GAME.decide(state, command, Context(actor=actor, rng=rng))
        assert not isinstance(decided, Rejection), decided
        for e in decided:
            state = GAME.evolve(state, e)
    raise AssertionError("a policy game did not end")


def test_dozito_search_policy_plays_whole_games_to_their_end():
    for seed, seats in enumerate(range(2, 6)):
        state = _policy_game(seed, seats, {"rounds": 3})
        assert len(state.round_scores) == 3 or state.one_colour_winner is not None


def test_dozito_search_determinize_is_the_same_from_the_same_seed_and_evaluate_favours_the_lead():
    game = positions(DECIDER, ["p1", "p2"], random.Random(5), options={"rounds": 3})
    table = next(t for t, _ in game if t.game.round == 2 and t.game.phase == "turn_start")
    seat = table.game.current
    view = seat_view(GAME, table, seat)
    first = determinize(view, random.Random(1))
    assert determinize(view, random.Random(1)) == first  # a bot's move is made again from its view
    assert determinize(view, random.Random(2)) != first
    chances = evaluate(first)
    past = first.round_scores[0][seat]
    more = msgspec.structs.replace(past, group_points=past.group_points + 30, total=past.total + 30)
    ahead = msgspec.structs.replace(first, round_scores=({**first.round_scores[0], seat: more},))
    assert 0.0 < chances[seat] < evaluate(ahead)[seat] < 1.0


def test_dozito_search_policy_beats_the_easy_bot_in_most_two_player_games():
    """The policy alone, on the state but reading only what is public, against the easy bot:
    it is the playout of the `hard` level, so it should be the better player."""
    wins = 0.0
    games = 40
    for seed in range(games):
        rng = random.Random(seed)
        players = ("pol", "easy") if seed % 2 else ("easy", "pol")
        events = GAME.setup(msgspec.convert({"rounds": 1}, GAME.options), players, rng)
        assert isinstance(events, list)
        state = GAME.initial_state
        for e in events:
            state = GAME.evolve(state, e)
        while not GAME.is_terminal(state):
            actor = GAME.players_to_act(state)[0]
            legal = GAME.legal_commands(state, actor)
            if actor == "pol":
                command = policy(state, actor, legal, rng)
            else:
                view = {**GAME.player_view(state, actor), "legal": msgspec.to_builtins(legal)}
                command = legal[view["legal"].index(GAME.bot(view, rng))]
            decided = GAME.decide(state, command, Context(actor=actor, rng=rng))
            assert not isinstance(decided, Rejection)
            for e in decided:
                state = GAME.evolve(state, e)
        winners = GAME.result(state).winners
        wins += ("pol" in winners) / len(winners)
    assert wins / games > 0.6, wins


def _policy_choice(view: dict[str, Any], seat: str, rng: random.Random) -> Any:
    state = determinize(view, rng)
    return policy(state, seat, GAME.legal_commands(state, seat), rng)


def test_dozito_hard_search_keeps_the_policys_move_unless_another_is_clearly_better():
    """`hard` in Dozito plays the policy's move where the search's averages do not tell it from
    the most visited move (Settings.doubt): with a doubt no gap can pass, it is the policy's move
    every time; with none, the search's own choice, which often differs."""
    hard = settings_for("hard", None, 120, "dozito")
    assert hard.doubt > 0 and settings_for("hard", None, 120).doubt == 0  # Dozito's own setting
    certain = dataclasses.replace(hard, doubt=1e9)
    free = dataclasses.replace(hard, doubt=0.0)
    tables = positions(DECIDER, ["p1", "p2"], random.Random(11), options={"rounds": 3}, every=3)
    checked = differed = 0
    for table, seat in tables:
        view = seat_view(GAME, table, seat)
        legal = [c for c in view.get("legal", []) if c.get("type") != "undo"]
        if seat != table.game.current or len(legal) < 2 or checked == 20:
            continue
        chosen = {_policy_choice(view, seat, random.Random(k)) for k in range(4)}
        if len(chosen) > 1:
            continue  # the policy draws lots between equal moves here
        policy_move = msgspec.to_builtins(chosen.pop())
        assert search_move(GAME, view, random.Random(1), certain).command == policy_move
        differed += search_move(GAME, view, random.Random(1), free).command != policy_move
        checked += 1
    assert checked == 20 and differed > 0
