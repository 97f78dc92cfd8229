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


class LocalTable:
    """A table played through its rules module alone, with no bus and no log: seated (each
    player adding entropy of its own to the table's seed, as the clients do), then played
    command by command. A command refused raises `BotRefused`."""

    def __init__(
        self,
        decider: TableDecider,
        rng: random.Random,
        *,
        after_event: Callable[[Table, Event], None] | None = None,
    ) -> None:
        self.decider = decider
        self.rng = rng  # the table's own draws
        self.after_event = after_event
        self.table: Table = decider.initial_state

    def run(self, actor: PlayerId, command: Any) -> list[Event]:
        """One command decided and its events folded in; returns the events."""
        events = self.decider.decide(self.table, command, Context(actor=actor, rng=self.rng))
        if isinstance(events, Rejection):
            raise BotRefused(f"{actor}: {msgspec.to_builtins(command)} -> {events}")
        for event in events:
            self.table = self.decider.evolve(self.table, event)
            if self.after_event is not None:
                self.after_event(self.table, event)
        return list(events)

    def seat(
        self, players: Sequence[PlayerId], options: Mapping[str, Any] | None = None
    ) -> list[tuple[PlayerId, list[Event]]]:
        """Create, join and start, the first player creating; each command's actor and events."""
        create = Create(options=dict(options or {}), seats=len(players), entropy=self.rng.randbytes(16).hex())
        done = [(players[0], self.run(players[0], create))]
        done += [(p, self.run(p, Join(entropy=self.rng.randbytes(16).hex()))) for p in players[1:]]
        done.append((players[0], self.run(players[0], Start())))
        return done

    def play(
        self, choose: Callable[[PlayerId], Mapping[str, Any]], *, max_commands: int
    ) -> list[tuple[PlayerId, list[Event]]]:
        """Until the game ends: a player to act drawn, `choose(actor)` asked for its command
        (as a client sends it); each command's actor and events."""
        done: list[tuple[PlayerId, list[Event]]] = []
        while self.table.status == "running":
            if len(done) >= max_commands:
                raise AssertionError(f"no end after {max_commands} commands")
            actor = self.rng.choice(self.decider.players_to_act(self.table))
            command = msgspec.convert(choose(actor), self.decider.command_type)
            done.append((actor, self.run(actor, command)))
        return done


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
    local = LocalTable(decider, rng, after_event=after_event)
    log = local.seat(players, options)

    def choose(actor: PlayerId) -> Mapping[str, Any]:
        return bot_move(decider.game, decider.player_view(local.table, actor), rng)

    log.extend(local.play(choose, max_commands=max_steps - len(log)))
    return Simulation(table=local.table, log=log, steps=len(log))
