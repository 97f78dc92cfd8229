"""Builders for the Decrypto rules tests (given/when/then is `shared.games.testing.Given`): the
teams and their keywords, the setup, a round's codes, and whole rounds played on a `Given`."""

from __future__ import annotations

import random
from collections.abc import Sequence

import msgspec

from shared.games.decider import Event
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
    setup = GameSetUp(
        players=[*white, *black],
        teams={"white": list(white), "black": list(black)},
        keywords=dict(keywords or KEYWORDS),
        language="en",
        max_rounds=8,
        clue_uniqueness="game",
        code_draw="with_replacement",
        timer_seconds=30,
    )
    return msgspec.structs.replace(setup, **options)


def round_started(state_or_setup: State | GameSetUp, round_: int, white, black) -> RoundStarted:
    teams = state_or_setup.teams
    return RoundStarted(
        round=round_,
        encryptors={t: encryptor_for(list(teams[t]), round_) for t in TEAMS},
        codes={"white": list(white), "black": list(black)},
    )


def wrong(code: Sequence[int]) -> list[int]:
    """A valid code that is not `code`."""
    return list(next(c for c in CODES if c != tuple(code)))


_clue_counter = iter(range(10**6))


def fresh_clues() -> list[str]:
    return [f"clue{next(_clue_counter)}" for _ in range(3)]


def give_both_clues(g: Given[State]) -> list[Event]:
    events: list[Event] = []
    for t in TEAMS:
        events += g.then(g.state.encryptors[t], GiveClues(clues=fresh_clues()))
    return events


def play_round(
    g: Given[State],
    *,
    white_ok: bool,
    black_ok: bool,
    black_intercepts: bool = False,
    white_intercepts: bool = False,
    seed: int = 0,
) -> list[Event]:
    """Play the current round: clues, then each code's answers, right or wrong as asked
    (interceptions are attempted from round 2 only)."""
    round_ = g.state.round
    events = give_both_clues(g)
    plan = {"white": (white_ok, black_intercepts), "black": (black_ok, white_intercepts)}
    for target in TEAMS:
        state = g.state
        code = state.codes[target]
        own_ok, intercept_ok = plan[target]
        decoder = next(p for p in state.teams[target] if p != state.encryptors[target])
        guess = SubmitGuess(team=target, code=list(code) if own_ok else wrong(code))
        events += g.then(decoder, guess, random.Random(seed))
        if round_ >= 2:
            opponent = next(t for t in TEAMS if t != target)
            interceptor = g.state.teams[opponent][-1]
            guess = SubmitGuess(team=target, code=list(code) if intercept_ok else wrong(code))
            events += g.then(interceptor, guess, random.Random(seed))
    return events


__all__ = [
    "BLACK",
    "KEYWORDS",
    "WHITE",
    "CluesGiven",
    "give_both_clues",
    "play_round",
    "round_started",
    "set_up",
    "wrong",
]
