"""Dozito's search parts (`shared.games.dozito.search`) in whole bot games, with 2 to 5
players, both round counts and both decks: a determinization drawn from a seat's view (as it
comes through JSON) gives that seat the same view and the same legal commands as the true
state, holds every card once, and deals the hidden places differently from one draw to the
next (and the same from the same seed); `evaluate` gives chances in [0, 1] that sum to 1, the
result at the end, more to a player ahead; `policy` picks one of the legal commands, plays
whole games to their end and beats the easy bot."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Sequence
from typing import Any

import msgspec

from services.registry import games
from shared.games.decider import Command, Context, Rejection
from shared.games.dozito import GAME
from shared.games.dozito.cards import DECKS
from shared.games.dozito.search import SEARCH, _visible_score, determinize, evaluate, policy
from shared.games.dozito.state import State, score_grid, visible_grid
from shared.games.simulate import simulate
from shared.games.table import Table, TableDecider
from shared.games.table_views import player_view

DECIDER: TableDecider = games()["dozito"]
DRAWS_PER_SEAT = 3
EVERY = 7  # check one command in EVERY
# both round counts with every deck (the deck is a free-text option, so `option_sets` leaves it out)
OPTION_SETS = [{"rounds": r, "deck": d} for r in (1, 3) for d in sorted(DECKS)]


def _hidden(state: State) -> tuple[Any, ...]:
    """Where the hidden cards lie: face-down grid cards, the draw pile, the piles under their tops."""
    down = tuple(
        c for p in state.players for c, up in zip(state.grids[p], state.face_up[p], strict=True) if not up
    )
    return (down, state.draw, tuple(pile[:-1] for pile in state.discards))


def _check_cards(det: State) -> None:
    """Every card of the deck exactly once."""
    where = [c for g in det.grids.values() for c in g] + list(det.draw)
    where += [c for pile in det.discards for c in pile] + ([det.hand] if det.hand else [])
    assert Counter(where) == Counter(list(det.cards)), Counter(where) - Counter(list(det.cards))


class Checks:
    """After every EVERY-th command of a running game: for each seat, several determinizations."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self.count = 0
        self.checked = 0
        self.varied = 0
        self.hidden_states = 0

    def __call__(self, table: Table) -> None:
        self.count += 1
        truth = table.game
        if table.status != "running" or not isinstance(truth, State) or self.count % EVERY:
            return
        for seat in table.players:
            self.seat(table, truth, seat)

    def seat(self, table: Table, truth: State, seat: str) -> None:
        # the view as the bot service gets it: after a trip through JSON
        view = msgspec.json.decode(msgspec.json.encode(player_view(DECIDER.game, table, seat)))
        want_view = msgspec.to_builtins(GAME.player_view(truth, seat))
        want_legal = GAME.legal_commands(truth, seat)
        draws = []
        for _ in range(DRAWS_PER_SEAT):
            det = determinize(view, self.rng)
            assert msgspec.to_builtins(GAME.player_view(det, seat)) == want_view
            assert GAME.legal_commands(det, seat) == want_legal
            assert det.players == truth.players and det.cards == truth.cards
            _check_cards(det)
            for p in det.players:  # the search's quick scorer is Dozito 11's
                assert _visible_score(det, p) == score_grid(visible_grid(det, p)).total
            self.check_evaluate(det)
            if want_legal:
                self.check_policy(det, seat, want_legal)
            draws.append(_hidden(det))
            self.checked += 1
        hidden = _hidden(truth)
        if sum(map(len, hidden[0:2])) + sum(map(len, hidden[2])) > 5:
            self.hidden_states += 1
            # not the truth copied, and not the same deal twice
            self.varied += any(d != hidden for d in draws) and len(set(draws)) > 1

    def check_evaluate(self, det: State) -> None:
        chances = evaluate(det)
        assert set(chances) == set(det.players)
        assert all(0.0 <= v <= 1.0 for v in chances.values()), chances
        assert abs(sum(chances.values()) - 1) < 1e-9, chances

    def check_policy(self, det: State, seat: str, legal: Sequence[Command]) -> None:
        assert policy(det, seat, legal, self.rng) in legal


def _play(options: dict[str, Any], seats: int, rng: random.Random, checks: Callable[[Table], None]) -> Table:
    """A whole game of easy bots (as `simulate` plays it), `checks` run between commands:
    where a seat's view is sent."""
    players = [f"p{i}" for i in range(1, seats + 1)]

    def run(table: Table, actor: str, command: Any) -> Table:
        events = DECIDER.decide(table, command, Context(actor=actor, rng=rng))
        assert not isinstance(events, Rejection), events
        for event in events:
            table = DECIDER.evolve(table, event)
        return table

    kind = DECIDER.command_type
    create = {"type": "create", "options": options, "seats": seats, "entropy": rng.randbytes(16).hex()}
    table = run(DECIDER.initial_state, players[0], msgspec.convert(create, kind))
    for p in players[1:]:
        table = run(table, p, msgspec.convert({"type": "join", "entropy": rng.randbytes(16).hex()}, kind))
    table = run(table, players[0], msgspec.convert({"type": "start"}, kind))
    while table.status == "running":
        checks(table)
        actor = rng.choice(DECIDER.players_to_act(table))
        view = player_view(GAME, table, actor)
        move = GAME.bot({**view, "legal": [c for c in view["legal"] if c["type"] != "undo"]}, rng)
        table = run(table, actor, msgspec.convert(move, kind))
    return table


def test_dozito_search_determinizations_agree_with_every_seat_view_in_every_option_set_and_player_count():
    rng = random.Random(7)
    checks = Checks(random.Random(8))
    games_played = 0
    for options in OPTION_SETS:
        for seats in range(GAME.min_players, GAME.max_players + 1):
            if GAME.check_options(msgspec.convert(options, GAME.options), seats):
                continue  # this deck is too small for so many players
            assert _play(options, seats, rng, checks).status == "ended"
            games_played += 1
    assert games_played == 14
    assert checks.checked > 1000
    assert checks.varied == checks.hidden_states > 100


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
    caught: list[Table] = []

    def catch(table: Table) -> None:
        state = table.game
        if not caught and isinstance(state, State) and state.round == 2 and state.phase == "turn_start":
            caught.append(table)

    _play({"rounds": 3}, 2, random.Random(5), catch)
    table = caught[0]
    seat = table.game.current
    view = msgspec.json.decode(msgspec.json.encode(player_view(GAME, table, seat)))
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
