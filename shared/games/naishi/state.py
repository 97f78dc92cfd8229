"""Naishi's state: the whole truth, secrets included (views cut it per viewer)."""

from __future__ import annotations

from typing import Literal

import msgspec

from shared.games.decider import PlayerId
from shared.games.naishi.components import COURT_SPOTS, ROWS
from shared.games.naishi.scoring import Cell, cell_key, copy_candidates, grid_of, ninja_cells

Phase = Literal["setup", "exchange", "turns", "end"]


class State(msgspec.Struct, frozen=True, kw_only=True):
    phase: Phase = "setup"
    players: tuple[PlayerId, ...] = ()  # seat order
    first_player: PlayerId = ""
    lines: dict[PlayerId, tuple[str, ...]] = {}
    # Before the exchange: the 5 cards of each Hand, unordered; afterwards in positions 1..5.
    hands: dict[PlayerId, tuple[str, ...]] = {}
    given: dict[PlayerId, str] = {}  # opening exchange: the card each player gives
    river: tuple[tuple[str, ...], ...] = ()  # RIVER_PILES piles, top (revealed) card first
    discard: tuple[str, ...] = ()  # oldest first
    reserve: dict[PlayerId, int] = {}
    court: dict[str, PlayerId | None] = {}
    turn: int = 0  # 1 for the first turn of the game
    active: PlayerId | None = None
    developed: bool = False  # this turn
    bonus_used: bool = False  # this turn
    end_reason: str | None = None
    final_player: PlayerId | None = None
    copies: dict[PlayerId, dict[str, str | None]] = {}  # Ninja cell key -> copied kind
    # What each player saw enter the opponent's Hand face up (issue 12, views): by position
    # (None: unknown), and cards known to be in it at an unknown position (after a shuffle).
    known: dict[PlayerId, tuple[str | None, ...]] = {}
    known_unplaced: dict[PlayerId, tuple[str, ...]] = {}

    # --- queries ----------------------------------------------------------------------------

    @property
    def second_player(self) -> PlayerId:
        return next(p for p in self.players if p != self.first_player)

    def opponent(self, player: PlayerId) -> PlayerId:
        return next(p for p in self.players if p != player)

    def row(self, player: PlayerId, row: str) -> tuple[str, ...]:
        return self.lines[player] if row == ROWS[0] else self.hands[player]

    def empty_piles(self) -> int:
        return sum(1 for pile in self.river if not pile)

    def open_piles(self) -> list[int]:
        """The 1-based positions of the piles holding a card."""
        return [i + 1 for i, pile in enumerate(self.river) if pile]

    def river_size(self) -> int:
        return sum(len(pile) for pile in self.river)

    def free_spot(self, action: str) -> str | None:
        return next((s for s, a in COURT_SPOTS.items() if a == action and not self.court[s]),
                    None)

    def recallable(self, player: PlayerId) -> list[str]:
        return [s for s, who in self.court.items()
                if who == player and COURT_SPOTS[s] != "decree"]

    def grid(self, player: PlayerId) -> dict[Cell, str]:
        return grid_of(self.lines[player], self.hands[player])

    def pending_ninjas(self, player: PlayerId) -> list[Cell]:
        """The player's Ninjas still waiting for their owner's choice (end phase)."""
        if self.phase != "end":
            return []
        done = self.copies.get(player, {})
        return [c for c in ninja_cells(self.grid(player)) if cell_key(c) not in done]

    def ninja_choices(self, player: PlayerId) -> list[str]:
        return copy_candidates(self.grid(player))

