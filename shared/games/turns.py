"""The turn, owned by the platform: whose turn it is and whether the game is over is asked of
the game (`players_to_act`, `is_terminal`), and refused here the same way for every game, so
that a game's rules only say what each of its commands does.

A game's `decide` is a `DecideByTurns`: the guard, then the one small function its command's
type maps to.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from shared.games.decider import Command, Context, Event, PlayerId, Rejection, spoken_list

S = TypeVar("S")

# A rule for one command type: the command is that type (hence Any), its actor is to act.
Move = Callable[[S, Any, Context], Sequence[Event] | Rejection]

GAME_OVER = Rejection("game_over", "The game at this table is over.")
NOT_STARTED = Rejection("not_started", "The game has not started yet.")


def not_your_turn(to_act: Sequence[PlayerId]) -> Rejection:
    return Rejection("not_your_turn", f"It is not your turn: waiting for {spoken_list(to_act)}.")


def turn_refusal(
    state: S,
    actor: PlayerId,
    players_to_act: Callable[[S], Sequence[PlayerId]],
    is_terminal: Callable[[S], bool],
) -> Rejection | None:
    """Why `actor` may not act in `state` (the game is over, not started, or someone else is
    to act), or None."""
    if is_terminal(state):
        return GAME_OVER
    to_act = players_to_act(state)
    if not to_act:  # only before the setup: a game under way always has someone to act
        return NOT_STARTED
    if actor not in to_act:
        return not_your_turn(to_act)
    return None


@dataclass(frozen=True, eq=False)
class DecideByTurns(Generic[S]):
    """A game's `decide`: an unknown command is `bad_command`; else the turn guard; else the
    move of the command's type (`moves`, one per command of the game)."""

    title: str
    moves: Mapping[type[Command], Move[S]]
    players_to_act: Callable[[S], Sequence[PlayerId]]
    is_terminal: Callable[[S], bool]

    def __call__(self, state: S, command: Command, ctx: Context) -> Sequence[Event] | Rejection:
        move = self.moves.get(type(command))
        if move is None:
            return Rejection("bad_command", f"{self.title} has no command {type(command).__name__}.")
        if refused := turn_refusal(state, ctx.actor, self.players_to_act, self.is_terminal):
            return refused
        return move(state, command, ctx)


def in_phase(phase: str, refusal: Callable[[S], Rejection], move: Move[S]) -> Move[S]:
    """`move`, when the state's `phase` is `phase`; else `refusal(state)` (a command of
    another step of the game)."""

    def checked(state: S, command: Any, ctx: Context) -> Sequence[Event] | Rejection:
        if getattr(state, "phase", None) != phase:
            return refusal(state)
        return move(state, command, ctx)

    return checked
