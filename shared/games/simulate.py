"""Whole games played by bots without any I/O: for random-play tests and benchmarks.

The bots see only what a client sees (their own seat's view, with its `legal` list), so a game
simulated here is one that a client could play through the bus.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import msgspec

from shared.games.bot_levels import bot_move
from shared.games.decider import Context, Event, PlayerId, Rejection
from shared.games.table import Create, Join, Start, Table, TableDecider


class BotRefused(AssertionError):
    """A bot sent a command its own `legal` list offered, and the rules refused it."""


@dataclass
class Simulation:
    table: Table
    log: list[tuple[PlayerId, list[Event]]] = field(default_factory=list)  # one entry per command
    steps: int = 0

    @property
    def events(self) -> list[Event]:
        return [e for _, batch in self.log for e in batch]


def simulate(
    decider: TableDecider,
    players: Sequence[PlayerId],
    rng: random.Random,
    *,
    options: Mapping[str, Any] | None = None,
    after_event: Callable[[Table, Event], None] | None = None,
    max_steps: int = 100_000,
) -> Simulation:
    """Seat `players`, start, and let every seat's bot play until the game ends.

    `after_event(table, event)` is called with the state after every event (for invariants).
    """
    sim = Simulation(table=decider.initial_state)
    command_type = decider.command_type

    def run(actor: PlayerId, command: Any) -> None:
        events = decider.decide(sim.table, command, Context(actor=actor, rng=rng))
        if isinstance(events, Rejection):
            raise BotRefused(f"{actor}: {msgspec.to_builtins(command)} -> {events}")
        for event in events:
            sim.table = decider.evolve(sim.table, event)
            if after_event is not None:
                after_event(sim.table, event)
        sim.log.append((actor, list(events)))
        sim.steps += 1

    # each player adds entropy of its own to the table's seed, as the clients do
    run(players[0], Create(options=dict(options or {}), seats=len(players), entropy=rng.randbytes(16).hex()))
    for p in players[1:]:
        run(p, Join(entropy=rng.randbytes(16).hex()))
    run(players[0], Start())
    while sim.table.status == "running":
        if sim.steps >= max_steps:
            raise AssertionError(f"no end after {max_steps} commands")
        actor = rng.choice(decider.players_to_act(sim.table))
        view = decider.player_view(sim.table, actor)
        choice = bot_move(decider.game, view, rng)
        run(actor, msgspec.convert(choice, command_type))
    return sim
