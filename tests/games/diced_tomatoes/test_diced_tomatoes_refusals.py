"""Diced Tomatoes refusals: every command a player could send, in positions reached by real
play, is either accepted or refused with a stable code and a message, never raises, and is
accepted exactly when the acting seat's `legal` list offers it (Diced Tomatoes 3, 4, 5, 8, 10).
"""

from __future__ import annotations

import random
import re

import msgspec

from shared.games.decider import Command, Context, Rejection
from shared.games.diced_tomatoes import GAME, data
from shared.games.diced_tomatoes.messages import (
    AdjustDie,
    EndTurn,
    FlipSeed,
    InvertDie,
    PlaceDie,
    RerollDie,
    SetDie,
    TakeDice,
    UprootPlant,
)
from shared.games.diced_tomatoes.rules import decide, legal_commands
from shared.games.diced_tomatoes.state import State
from shared.games.simulate import simulate
from shared.games.table import TableDecider
from shared.games.testing import Given

from .diced_tomatoes_support import ANN, history_karma, started, take

DECIDER = TableDecider(GAME)
PLAYERS = ("ann", "bob", "cy", "dee")
CODE = re.compile(r"^[a-z][a-z_]*$")


def positions(games: int = 8, every: int = 23) -> list[State]:
    """Game states met in seeded bot games of 1 to 4 players, over the options."""
    found: list[State] = []
    for index in range(games):
        n = index % 4 + 1
        options = {
            "golden_sun": index % 2 == 0,
            "karma_overdose": index % 3 == 0,
            "reroll_passed_dice": index % 4 != 1,
        }
        count = 0

        def keep(table, event) -> None:
            nonlocal count
            count += 1
            if table.game is not None and table.game.players and count % every == 0:
                found.append(table.game)

        simulate(DECIDER, PLAYERS[:n], random.Random(1000 + index), options=options, after_event=keep)
    return found


def commands_for(state: State) -> list[Command]:
    """Every shape of command, with good and bad dice, owners, tokens and values."""
    dice = sorted(
        {d.id for d in state.hand}
        | {d.id for d in state.passed}
        | set(state.bushel[:2])
        | {-1, len(state.colours)}
    )
    owners = [*state.players, "zed"]
    tokens = range(-1, data.TOKENS_PER_PLAYER + 1)
    commands: list[Command] = [EndTurn()]
    commands += [
        TakeDice(red=r, black=b, golden=g) for r in range(-1, 5) for b in range(-1, 4) for g in range(-1, 3)
    ]
    for d in dice:
        commands += [RerollDie(die=d), InvertDie(die=d)]
        commands += [AdjustDie(die=d, by=by) for by in (-2, -1, 0, 1, 2)]
        commands += [SetDie(die=d, value=v) for v in range(0, 8)]
        commands += [PlaceDie(die=d, owner=o, token=t) for o in owners for t in tokens]
    for o in owners:
        for t in tokens:
            commands += [UprootPlant(owner=o, token=t), FlipSeed(owner=o, token=t)]
    return commands


def test_every_command_is_accepted_exactly_when_legal_and_refusals_are_clear_diced_tomatoes_4_5():
    """Diced Tomatoes 3, 4, 5, 8, 10: no command raises; a seat not to act gets `not_your_turn`;
    for the active seat, accepted <=> offered in `legal` (so no turn can get stuck)."""
    states = positions()
    assert len(states) >= 30
    phases = set()
    for state in states:
        phases.add(state.phase)
        active = state.active
        legal = {msgspec.json.encode(c) for c in legal_commands(state, active)}
        assert legal or state.phase == "over", "the active seat has nothing to do"
        others = [p for p in state.players if p != active]
        for command in commands_for(state):
            ctx = Context(actor=active, rng=random.Random(0))
            outcome = decide(state, command, ctx)
            offered = msgspec.json.encode(command) in legal
            if isinstance(outcome, Rejection):
                assert CODE.match(outcome.code) and len(outcome.message) > 10, outcome
                assert not offered, (command, outcome)
            else:
                assert offered, (command, "accepted but not offered in legal")
            for other in others[:1]:
                refused = decide(state, command, Context(actor=other, rng=random.Random(0)))
                assert isinstance(refused, Rejection)
                assert refused.code in ("not_your_turn", "game_over"), refused
    assert phases >= {"take", "place"}


def test_setting_a_die_to_the_face_it_shows_is_refused_diced_tomatoes_5():
    """Diced Tomatoes 5 (cost 6): a set that would change nothing is refused, as `legal` says,
    instead of taking 6 karma for nothing."""
    g = Given(GAME, started())
    history_karma(g, ANN, 6)
    take(g, ANN, [3, 4, 5])
    refused = g.when(ANN, SetDie(die=0, value=3))
    assert isinstance(refused, Rejection) and refused.code == "no_change"
    assert SetDie(die=0, value=3) not in legal_commands(g.state, ANN)
    assert g.state.karma[ANN] == 6
