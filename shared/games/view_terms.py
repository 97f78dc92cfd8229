"""The words every game's view uses for the same ideas, so that a client reads them once.

* `active_player`: the seat whose turn it is; `null` when nobody's (before the start, at the
  end) or when several seats act at once (see the platform's `to_act`).
* `phase`: the step the game is in, a snake_case word each game lists in its doc.
* `round`: the current round, from 1 (0 before the first). A game without rounds of its own
  counts one turn of every seat, in turn order, as a round.
* `turn`: the current turn, from 1, in games that count turns.
"""

from __future__ import annotations

from typing import Any

COMMON_VIEW_KEYS = ("active_player", "phase", "round")


def common_terms(
    *,
    active_player: str | None,
    phase: str,
    round: int,
    turn: int | None = None,
) -> dict[str, Any]:
    """The shared view keys, to be spread first into a game's view."""
    terms: dict[str, Any] = {"active_player": active_player or None, "phase": phase, "round": round}
    if turn is not None:
        terms["turn"] = turn
    return terms


def round_of_turn(turn: int, seats: int) -> int:
    """The round of turn `turn` (from 1) when a round is one turn of each of `seats` seats."""
    return 0 if turn <= 0 or seats <= 0 else (turn - 1) // seats + 1
