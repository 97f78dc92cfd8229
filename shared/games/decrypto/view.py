"""What each viewer sees of Decrypto: the live view and the replay's redacted events.

Hidden: a team's clues from the other team until both teams' clues of the round are in; a
team's keywords from the other team (until the game is decided); a code from everyone
but its encryptor until it is revealed; a team's answer from the other team until the reveal
(and its keyword guesses until the game is decided). Spectators see only what is public.
"""

from __future__ import annotations

from typing import Any

import msgspec

from shared.games.decider import Event, PlayerId, View, describe_with, spoken_list
from shared.games.decrypto.messages import (
    CluesGiven,
    CluesRevealed,
    CodeRevealed,
    GameDecided,
    GameSetUp,
    GuessSubmitted,
    KeywordGuessingStarted,
    KeywordsGuessed,
    RoundStarted,
)
from shared.games.decrypto.state import TEAMS, Reveal, State
from shared.games.view_terms import common_terms

# The fields whose values in `legal` are only examples: any text may be sent (issue 12).
FREE_TEXT = {"give_clues": ["clues"], "guess_keywords": ["words"]}


def player_view(state: State, viewer: PlayerId | None) -> View:
    team = state.team_of(viewer)
    over = state.phase == "over"
    encryptor_of = {p: t for t, p in state.encryptors.items()}
    revealed = all(t in state.clues for t in TEAMS)
    my_code = None
    if viewer in encryptor_of and state.phase != "setup":
        my_code = list(state.codes[encryptor_of[viewer]])
    if state.phase == "keywords":
        answered = {t: t in state.keyword_guesses for t in TEAMS}
    else:
        answered = {t: t in state.answers for t in TEAMS}
    return {
        # Encryptors, then teams, act at the same time: no single active player (`to_act`).
        **common_terms(active_player=None, phase=state.phase, round=state.round),
        "max_rounds": state.max_rounds,
        "language": state.language,
        "clue_uniqueness": state.clue_uniqueness,
        "code_draw": state.code_draw,
        "timer_seconds": state.timer_seconds,
        "last_round_tiebreak": state.last_round_tiebreak,
        "teams": {t: list(m) for t, m in state.teams.items()},
        "my_team": team,
        "encryptors": dict(state.encryptors),
        "keywords": {t: list(k) if (over or t == team) else None for t, k in state.keywords.items()},
        "my_code": my_code,
        # Decrypto 7 (ruling 2026-11-30): the other team's clues once both teams' are in.
        "clues": {
            t: list(state.clues[t]) if t in state.clues and (t == team or revealed) else None for t in TEAMS
        },
        "clues_written": {t: t in state.clues for t in TEAMS},
        "decoding": state.decoding,
        "answered": answered,
        "team_answer": list(state.answers[team]) if team in state.answers else None,
        "tokens": {t: msgspec.to_builtins(k) for t, k in state.tokens.items()},
        "token_scores": state.scores() if state.tokens else {},
        "history": [_reveal(r) for r in state.reveals],
        "keyword_guesses": {
            t: list(g) if (over or t == team) else None for t, g in state.keyword_guesses.items()
        },
        "free_text": FREE_TEXT,
        "outcome": None
        if not over
        else {
            "winner": state.winner,
            "reason": state.reason,
            "tiebreak": state.tiebreak,
            "keywords_found": dict(state.keywords_found),
        },
    }


def _reveal(reveal: Reveal) -> dict[str, Any]:
    return {
        "round": reveal.round,
        "team": reveal.team,
        "encryptor": reveal.encryptor,
        "clues": list(reveal.clues),
        "code": list(reveal.code),
        "guess": list(reveal.guess),
        "interception": None if reveal.interception is None else list(reveal.interception),
    }


def redact(event: Event, viewer: PlayerId | None) -> Event | None:
    replace = msgspec.structs.replace
    match event:
        case GameSetUp():
            keywords = {
                t: (k if viewer in event.teams.get(t, ()) else None) for t, k in event.keywords.items()
            }
            return replace(event, keywords=keywords)
        case RoundStarted():
            codes = {t: (c if event.encryptors.get(t) == viewer else None) for t, c in event.codes.items()}
            return replace(event, codes=codes)
        case CluesGiven() if event.visible_to is not None and viewer not in event.visible_to:
            return replace(event, clues=None)
        case GuessSubmitted() if viewer not in event.visible_to:
            return replace(event, code=None)
        case KeywordsGuessed() if viewer not in event.visible_to:
            return replace(event, words=None)
    return event


# --- the game log ---------------------------------------------------------------------------

_REASONS = {
    "two_interceptions": "two Interception tokens",
    "two_miscommunications": "the other team's two Miscommunication tokens",
    "token_score": "the token score",
    "keywords": "the keywords found",
    "draw": "a draw",
}


def _code(code: list[int]) -> str:
    return "-".join(map(str, code))


def _quoted(words: list[str]) -> str:
    return ", ".join(f"“{w}”" for w in words)


def _scores(scores: dict[str, int]) -> str:
    return ", ".join(f"{t} {s}" for t, s in scores.items())


def _set_up(event: GameSetUp, viewer: PlayerId | None) -> str:
    said = "; ".join(f"{t}: {spoken_list(m)}" for t, m in event.teams.items())
    known = "; ".join(
        f"{t}'s keywords: " + ", ".join(f"{i} {w}" for i, w in enumerate(k, start=1))
        for t, k in event.keywords.items()
        if k is not None
    )
    return f"Teams, in encryptor order: {said}" + (f". {known}" if known else "")


def _round_started(event: RoundStarted, viewer: PlayerId | None) -> str:
    encryptors = event.encryptors
    who = ", ".join(f"{p} for {t}" for t, p in encryptors.items())
    own = "; ".join(f"{encryptors[t]}'s code: {_code(c)}" for t, c in event.codes.items() if c is not None)
    return f"Round {event.round}: the encryptors are {who}" + (f"; {own}" if own else "")


def _clues_given(event: CluesGiven, viewer: PlayerId | None) -> str:
    if event.clues is None:
        return f"{event.player} wrote {event.team}'s clues"
    return f"{event.player} gave {event.team}'s clues: {_quoted(event.clues)}"


def _clues_revealed(event: CluesRevealed, viewer: PlayerId | None) -> str:
    return f"Round {event.round} clues: " + "; ".join(f"{t} {_quoted(c)}" for t, c in event.clues.items())


def _guess_submitted(event: GuessSubmitted, viewer: PlayerId | None) -> str:
    team, code = event.team, event.code
    own = event.guessing_team == team
    what = f"answered {team}'s code" if own else f"tried to intercept {team}'s code"
    return f"{event.player} {what}" + (f": {_code(code)}" if code is not None else "")


def _code_revealed(event: CodeRevealed, viewer: PlayerId | None) -> str:
    team, guesses = event.team, event.guesses
    said = ", ".join(f"{t} {_code(g)}" for t, g in guesses.items())
    tokens = [f"{t} takes an Interception token" for t in guesses if t != team and event.interception]
    if event.miscommunication:
        tokens.append(f"{team} takes a Miscommunication token")
    return f"{team}'s code was {_code(event.code)} (answers: {said})" + "".join(f"; {t}" for t in tokens)


def _keyword_guessing_started(event: KeywordGuessingStarted, viewer: PlayerId | None) -> str:
    why = "both teams reached two tokens" if event.cause == "both_flags" else "the last round is over"
    return (
        f"Tie-break: {why} with equal scores ({_scores(event.scores)}); each team guesses "
        f"the other's keywords"
    )


def _keywords_guessed(event: KeywordsGuessed, viewer: PlayerId | None) -> str:
    if event.words is None:
        return f"{event.player} wrote {event.team}'s keyword guesses"
    return f"{event.player} guessed for {event.team}: {_quoted(event.words)}"


def _game_decided(event: GameDecided, viewer: PlayerId | None) -> str:
    how = _REASONS.get(event.reason, event.reason)
    outcome = "A draw" if event.winner is None else f"{event.winner} wins by {how}"
    said = "; ".join(f"{t}'s keywords: {', '.join(k)}" for t, k in event.keywords.items())
    hits = "".join(f"; {t} found {n}" for t, n in event.keywords_found.items())
    return f"{outcome} (token scores {_scores(event.scores)}{hits}). {said}"


# One event in words, as a player at the table would say it (docs/games/decrypto.md).
describe = describe_with(
    {
        GameSetUp: _set_up,
        RoundStarted: _round_started,
        CluesGiven: _clues_given,
        CluesRevealed: _clues_revealed,
        GuessSubmitted: _guess_submitted,
        CodeRevealed: _code_revealed,
        KeywordGuessingStarted: _keyword_guessing_started,
        KeywordsGuessed: _keywords_guessed,
        GameDecided: _game_decided,
    }
)


def secrets(state: State, viewer: PlayerId | None) -> set[str]:
    """The keywords of the team `viewer` is not in (both, for a spectator) until the game is
    over. A keyword somebody wrote as a clue or the viewer's team guessed is no secret (the
    examples in `legal` never hold a keyword: words.py)."""
    if state.phase in ("setup", "over"):
        return set()
    team = state.team_of(viewer)
    hidden = {w for t, words in state.keywords.items() if t != team for w in words}
    written = {c for clues in state.clues.values() for c in clues}
    written |= {c for reveal in state.reveals for c in reveal.clues}
    written |= set(state.keyword_guesses.get(team, ())) if team else set()
    return hidden - written
