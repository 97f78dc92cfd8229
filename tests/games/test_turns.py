"""The turn guard of the platform (shared/games/turns.py), the same in every game: each game's
`decide` refuses a seat not to act with `not_your_turn` naming who is awaited, any command once
the game is over with `game_over`, before the setup with `not_started`, and an unknown command
with `bad_command` first."""

from __future__ import annotations

import random

import pytest

from services.registry import get
from shared.games.decider import Command, Context, fold
from shared.games.simulate import simulate
from shared.games.testing import rejected
from shared.games.turns import GAME_OVER, NOT_STARTED, not_your_turn

SEATS = {"naishi": 2, "dozito": 3, "diced_tomatoes": 2, "decrypto": 4, "illustori": 3, "highcard": 3}


class Probe(Command, frozen=True, kw_only=True):
    """A command no game has."""


@pytest.mark.parametrize("name", sorted(SEATS))
def test_every_game_refuses_out_of_turn_and_after_the_end_alike(name):
    decider = get(name)
    game = decider.game
    players = [f"p{i}" for i in range(SEATS[name])]
    table, waited = decider.initial_state, 0
    for actor, batch in simulate(decider, players, random.Random(4)).log:
        before, table = table, fold(decider.evolve, batch, table)
        to_act = decider.players_to_act(before)
        if before.status != "running" or actor not in to_act:
            continue
        move = decider.legal_commands(before, actor)[0]
        for seat in (p for p in players if p not in to_act):
            ctx = Context(actor=seat, rng=random.Random(0))
            assert game.decide(before.game, move, ctx) == not_your_turn(to_act)
            assert not_your_turn(to_act).message.startswith("It is not your turn: waiting for ")
            waited += 1
        last = move
    assert waited, "some seat waited at some point"
    assert table.status == "ended" and game.is_terminal(table.game)
    anyone = Context(actor=players[0], rng=random.Random(0))
    assert game.decide(table.game, last, anyone) == GAME_OVER
    assert game.decide(game.initial_state, last, anyone) == NOT_STARTED
    assert rejected(game.decide(table.game, Probe(), anyone)).code == "bad_command"
