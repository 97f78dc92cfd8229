"""Illustori's state: frozen, replaced by `evolve`, never mutated."""

from __future__ import annotations

from typing import Any

import msgspec

from shared.games.decider import PlayerId
from shared.games.illustori.chaining import Rules

# Phases: "setup" (before the deal), "naming" (the first player names the starting card),
# "voting" (the others vote on a proposed text), "turn" (the active player chains, swaps or
# passes), "over".


class Placed(msgspec.Struct, frozen=True, kw_only=True):
    """A card with its text: on the table, or proposed and under vote."""

    player: PlayerId
    card: str
    text: str


class State(msgspec.Struct, frozen=True, kw_only=True):
    players: tuple[PlayerId, ...] = ()
    rules: Rules = Rules()
    phase: str = "setup"
    active: PlayerId = ""  # whose turn it is (the proposer, while the others vote)
    hands: dict[PlayerId, tuple[str, ...]] = {}
    stack: tuple[str, ...] = ()  # top first
    discard: tuple[str, ...] = ()
    start_card: str = ""
    chain: tuple[Placed, ...] = ()  # accepted texts, the starting one first
    pending: Placed | None = None  # the text under vote
    votes: dict[PlayerId, bool] = {}
    used: tuple[str, ...] = ()  # U, sorted (Illustori 14)
    failed_turns: int = 0  # consecutive turns without an accepted chain (Illustori 15a)
    last_round: bool = False  # Illustori 16
    turns: int = 0  # turns ended so far
    last_outcome: dict[str, Any] | None = None  # what just happened, for the views

    @property
    def first_player(self) -> PlayerId:
        return self.players[0]

    @property
    def current_text(self) -> str | None:
        return self.chain[-1].text if self.chain else None

    def next_player(self, player: PlayerId) -> PlayerId:
        return self.players[(self.players.index(player) + 1) % len(self.players)]

    def cards_on_table(self) -> list[str]:
        """The chain, the starting card before it is named, and a card under vote."""
        cards = [p.card for p in self.chain]
        if not self.chain:
            if self.start_card:
                cards.append(self.start_card)
        elif self.pending is not None:
            cards.append(self.pending.card)
        return cards
