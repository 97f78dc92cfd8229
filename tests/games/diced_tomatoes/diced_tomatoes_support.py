"""Builders for the Diced Tomatoes rules tests (given/when/then is `shared.games.testing.Given`):
rigged dice, a started game, and the moves and past facts the tests repeat."""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence

from shared.games.decider import Event, Rejection
from shared.games.diced_tomatoes import data
from shared.games.diced_tomatoes.messages import (
    DicedTomatoesOptions,
    DiceRolled,
    DiePlaced,
    KarmaGained,
    PlaceDie,
    PlantHarvested,
    TakeDice,
)
from shared.games.diced_tomatoes.rules import setup
from shared.games.diced_tomatoes.state import State
from shared.games.testing import Given

ANN, BOB, CY = "ann", "bob", "cy"


class Rigged(random.Random):
    """An rng whose die rolls are the given faces, in order (then seeded random ones)."""

    def __init__(self, faces: Iterable[int] = ()) -> None:
        super().__init__(0)
        self.faces = list(faces)

    def choice(self, seq):
        if self.faces and tuple(seq) == data.FACES:
            return self.faces.pop(0)
        return super().choice(seq)


def started(players: Sequence[str] = (ANN, BOB), last: str | None = None, **options) -> list[Event]:
    """Setup with the starting roll rigged so that `last` (default: the last seat) rolls lowest."""
    last = last or players[-1]
    faces = [1 if p == last else 6 for p in players]
    events = setup(DicedTomatoesOptions(**options), tuple(players), Rigged(faces))
    assert not isinstance(events, Rejection)
    return list(events)


def take(
    g: Given[State], actor: str, faces: Sequence[int], red: int = 3, black: int = 0, golden: int = 0
) -> list[int]:
    """Take and roll dice with these faces; the ids of the dice rolled, in `faces` order."""
    (rolled,) = g.then(actor, TakeDice(red=red, black=black, golden=golden), Rigged(faces))
    assert isinstance(rolled, DiceRolled)
    return list(rolled.dice)


def place(g: Given[State], actor: str, die: int, owner: str, token: int) -> list[Event]:
    return g.then(actor, PlaceDie(die=die, owner=owner, token=token))


def history_harvest(g: Given[State], owner: str, value: int, completer: str | None = None) -> None:
    """Facts of a past harvest of `owner` (a one-die plant, for brevity): seed rolled,
    placed on token 0, harvested with `value`."""
    state = g.state
    die = next(d for d in state.bushel if state.colours[d] == data.RED)
    slot = len(state.tracks[owner]) + 1
    g.add(
        DiceRolled(player=state.active, taken=[die], dice=[die], faces=[value]),
        DiePlaced(player=state.active, die=die, face=value, owner=owner, token=0),
        PlantHarvested(
            owner=owner,
            token=0,
            seed=die,
            value=value,
            slot=slot,
            star=0,
            returned=[],
            completer=completer or owner,
        ),
    )


def history_plant(g: Given[State], owner: str, token: int, faces: Sequence[int]) -> list[int]:
    """Facts of a plant of red dice with these faces on `owner`'s `token`."""
    state = g.state
    dice = [d for d in state.bushel if state.colours[d] == data.RED][: len(faces)]
    g.add(DiceRolled(player=state.active, taken=dice, dice=dice, faces=list(faces)))
    g.add(
        *[
            DiePlaced(player=state.active, die=d, face=f, owner=owner, token=token)
            for d, f in zip(dice, faces)
        ]
    )
    return dice


def history_karma(g: Given[State], player: str, karma: int) -> None:
    g.add(KarmaGained(player=player, amount=0, karma=karma, thirds=0, reason="harvest"))


def ids_of(state: State, colour: str) -> list[int]:
    return [d for d, c in enumerate(state.colours) if c == colour]
