"""Helpers for the Decrypto tests: given events, when a command, then events or a rejection."""

from __future__ import annotations

import random
from collections.abc import Sequence

from shared.games.decider import Command, Event, Rejection
from shared.games.decrypto import GAME
from shared.games.decrypto.messages import (
    CluesGiven,
    GameSetUp,
    GiveClues,
    RoundStarted,
    SubmitGuess,
)
from shared.games.decrypto.state import CODES, TEAMS, State, encryptor_for
from shared.games.testing import Given

WHITE = ["ann", "bob"]
BLACK = ["cy", "dee"]
KEYWORDS = {
    "white": ["shark", "moon", "piano", "castle"],
    "black": ["forest", "king", "rocket", "cheese"],
}


def set_up(
    white: Sequence[str] = WHITE,
    black: Sequence[str] = BLACK,
    keywords: dict[str, list[str]] | None = None,
    **options,
) -> GameSetUp:
    settings = dict(
        language="en",
        max_rounds=8,
        clue_uniqueness="game",
        code_draw="with_replacement",
        timer_seconds=30,
    )
    settings.update(options)
    return GameSetUp(
        players=[*white, *black],
        teams={"white": list(white), "black": list(black)},
        keywords=dict(keywords or KEYWORDS),
        **settings,
    )


def round_started(state_or_setup: State | GameSetUp, round_: int, white, black) -> RoundStarted:
    teams = state_or_setup.teams
    return RoundStarted(
        round=round_,
        encryptors={t: encryptor_for(list(teams[t]), round_) for t in TEAMS},
        codes={"white": list(white), "black": list(black)},
    )


def given(events: Sequence[Event]) -> State:
    return Given(GAME, events).state


def when(state: State, command: Command, actor: str, seed: int = 0) -> list[Event] | Rejection:
    return Given(GAME, start=state).when(actor, command, random.Random(seed))


def play(state: State, command: Command, actor: str, seed: int = 0) -> tuple[State, list[Event]]:
    given = Given(GAME, start=state)
    events = given.then(actor, command, random.Random(seed))
    return given.state, events


def wrong(code: Sequence[int]) -> list[int]:
    """A valid code that is not `code`."""
    return list(next(c for c in CODES if c != tuple(code)))


_clue_counter = iter(range(10**6))


def fresh_clues() -> list[str]:
    return [f"clue{next(_clue_counter)}" for _ in range(3)]


def give_both_clues(state: State) -> tuple[State, list[Event]]:
    events: list[Event] = []
    for t in TEAMS:
        state, new = play(state, GiveClues(clues=fresh_clues()), state.encryptors[t])
        events += new
    return state, events


def play_round(
    state: State,
    *,
    white_ok: bool,
    black_ok: bool,
    black_intercepts: bool = False,
    white_intercepts: bool = False,
    seed: int = 0,
) -> tuple[State, list[Event]]:
    """Play the current round: clues, then each code's answers, right or wrong as asked
    (interceptions are attempted from round 2 only)."""
    round_ = state.round
    state, events = give_both_clues(state)
    plan = {"white": (white_ok, black_intercepts), "black": (black_ok, white_intercepts)}
    for target in TEAMS:
        code = state.codes[target]
        own_ok, intercept_ok = plan[target]
        decoder = next(p for p in state.teams[target] if p != state.encryptors[target])
        state, new = play(
            state,
            SubmitGuess(team=target, code=list(code) if own_ok else wrong(code)),
            decoder,
            seed,
        )
        events += new
        if round_ >= 2:
            opponent = next(t for t in TEAMS if t != target)
            interceptor = state.teams[opponent][-1]
            state, new = play(
                state,
                SubmitGuess(team=target, code=list(code) if intercept_ok else wrong(code)),
                interceptor,
                seed,
            )
            events += new
    return state, events


__all__ = [
    "BLACK",
    "KEYWORDS",
    "WHITE",
    "CluesGiven",
    "give_both_clues",
    "given",
    "play",
    "play_round",
    "round_started",
    "set_up",
    "when",
    "wrong",
]
