"""Decrypto's state, the game's data tables (RULES.md 4.1-4.2) and small pure helpers."""

from __future__ import annotations

import unicodedata
from itertools import permutations
from typing import Literal

import msgspec

from shared.games.decider import (
    Event,
    PlayerId,
)
from shared.games.decrypto.messages import (
    CluesGiven,
    CodeRevealed,
    GameDecided,
    GameSetUp,
    GuessSubmitted,
    KeywordGuessingStarted,
    KeywordsGuessed,
    RoundStarted,
)

# --- data (RULES.md 4.1-4.2; ASSUMED values are marked) ------------------------------------

TEAMS: tuple[str, str] = ("white", "black")  # Decrypto 1; White's code is decoded first (8-9)
TEAM_SIZE = (2, 4)  # Decrypto 1: 2 to 4 players a team
KEYWORD_COUNT = 4  # Decrypto 2
CODE_LENGTH = 3
DIGITS = (1, 2, 3, 4)
CODES: tuple[tuple[int, ...], ...] = tuple(permutations(DIGITS, CODE_LENGTH))  # Decrypto 3: 24
WIN_INTERCEPTIONS = 2  # Decrypto 11: two Interceptions win
LOSE_MISCOMMUNICATIONS = 2  # Decrypto 11: two Miscommunications lose
FIRST_INTERCEPTION_ROUND = 2  # Decrypto 8: no interception in round 1
TOKEN_SUPPLY = {"interceptions": 4, "miscommunications": 4}  # ASSUMED 4+4 split of the 8 tokens
CLUE_MAX_CHARS = 60  # longest clue accepted (a phrase is allowed, Decrypto 13)
KEYWORD_GUESS_MAX_CHARS = 60

# "setup" (before the deal), "clues" (the encryptors write), "decode" (the teams guess the
# codes), "keywords" (the tie-break: guessing the other team's keywords), "over".
Phase = Literal["setup", "clues", "decode", "keywords", "over"]


class Tokens(msgspec.Struct, frozen=True, kw_only=True):
    interceptions: int = 0  # white tokens, Decrypto 4
    miscommunications: int = 0  # black tokens

    @property
    def score(self) -> int:
        """Decrypto 12: Interceptions minus Miscommunications."""
        return self.interceptions - self.miscommunications


class Reveal(msgspec.Struct, frozen=True, kw_only=True):
    """One revealed code with its clues and the answers given (Decrypto 10: public for good)."""

    round: int
    team: str
    encryptor: PlayerId
    clues: tuple[str, ...]
    code: tuple[int, ...]
    guess: tuple[int, ...]
    interception: tuple[int, ...] | None  # None in round 1


class State(msgspec.Struct, frozen=True, kw_only=True):
    players: tuple[PlayerId, ...] = ()  # seat order
    teams: dict[str, tuple[PlayerId, ...]] = {}
    player_teams: dict[PlayerId, str] = {}  # derived from `teams`, for quick look-ups
    keywords: dict[str, tuple[str, ...]] = {}
    language: str = "en"
    max_rounds: int | None = 8
    clue_uniqueness: str = "game"
    code_draw: str = "with_replacement"
    timer_seconds: int = 30
    last_round_tiebreak: str = "score"
    phase: Phase = "setup"
    round: int = 0
    encryptors: dict[str, PlayerId] = {}
    codes: dict[str, tuple[int, ...]] = {}  # this round's secret codes
    code_pools: dict[str, tuple[tuple[int, ...], ...]] = {}  # codes left, without replacement
    clues: dict[str, tuple[str, ...]] = {}  # this round's clues, by team
    decoding: str | None = None  # the team whose code is being decoded
    answers: dict[str, tuple[int, ...]] = {}  # guessing team -> answer for `decoding`'s code
    tokens: dict[str, Tokens] = {}
    reveals: tuple[Reveal, ...] = ()
    used_clues: dict[str, tuple[str, ...]] = {}  # normalized clue texts given, by team
    tiebreak: str | None = None  # why keywords are guessed / were compared
    keyword_guesses: dict[str, tuple[str, ...]] = {}
    winner: str | None = None
    reason: str = ""
    keywords_found: dict[str, int] = {}

    def team_of(self, player: PlayerId | None) -> str | None:
        return self.player_teams.get(player) if player is not None else None

    def scores(self) -> dict[str, int]:
        return {t: self.tokens[t].score for t in TEAMS}


def other(team: str) -> str:
    return TEAMS[1] if team == TEAMS[0] else TEAMS[0]


def encryptor_for(members: tuple[PlayerId, ...] | list[PlayerId], round_: int) -> PlayerId:
    """Decrypto 5: members take turns in their order; a 2-player team alternates (4.3-4)."""
    return members[(round_ - 1) % len(members)]


def normalize(text: str) -> str:
    """Case-, accent- and spacing-insensitive form used to compare clues and keywords.
    Invisible characters (zero-width spaces and joiners, soft hyphens: Unicode format
    characters) are dropped too, so that they cannot make a used clue or a keyword look new."""
    decomposed = unicodedata.normalize("NFKD", text)
    bare = "".join(c for c in decomposed if not unicodedata.combining(c) and unicodedata.category(c) != "Cf")
    return " ".join(bare.casefold().split())


# Decrypto 12 (ruling 2026-11-30): spaces, hyphens and apostrophes do not tell words apart.
_WORD_JOINERS = frozenset("-‐‑‒–—'’‘ʼ`")


def keyword_key(text: str) -> str:
    """The form under which a keyword guess (or a clue) names a keyword: its letters in order,
    without case, accents, spaces, hyphens or apostrophes ("Arc en ciel" = "arc-en-ciel")."""
    return "".join(c for c in normalize(text) if not c.isspace() and c not in _WORD_JOINERS)


def word_parts(text: str) -> tuple[str, ...]:
    """The words of a keyword, split at spaces, hyphens and apostrophes; case-insensitive but
    accent-sensitive, so that "dé" is not the "de" of "pomme de terre"."""
    spaced = "".join(" " if c in _WORD_JOINERS else c for c in text.casefold())
    return tuple(spaced.split())


def contains_word(longer: str, shorter: str) -> bool:
    """Whether the words of `shorter` appear, in a row, among those of `longer`
    ("pomme de terre" contains "pomme"; "pirate" does not contain "rat")."""
    whole, part = word_parts(longer), word_parts(shorter)
    return any(whole[i : i + len(part)] == part for i in range(len(whole) - len(part) + 1))


def end_flags(tokens: dict[str, Tokens]) -> dict[str, bool]:
    """Decrypto 11: a team's win flag (two Interceptions, or the other's two Miscommunications)."""
    return {
        t: tokens[t].interceptions >= WIN_INTERCEPTIONS
        or tokens[other(t)].miscommunications >= LOSE_MISCOMMUNICATIONS
        for t in TEAMS
    }


replace = msgspec.structs.replace


# --- evolve ---------------------------------------------------------------------------------


def evolve(state: State, event: Event) -> State:
    replace = msgspec.structs.replace
    match event:
        case GameSetUp():
            return replace(
                state,
                players=tuple(event.players),
                teams={t: tuple(m) for t, m in event.teams.items()},
                player_teams={p: t for t, m in event.teams.items() for p in m},
                keywords={t: tuple(k or ()) for t, k in event.keywords.items()},
                language=event.language,
                max_rounds=event.max_rounds,
                clue_uniqueness=event.clue_uniqueness,
                code_draw=event.code_draw,
                timer_seconds=event.timer_seconds,
                last_round_tiebreak=event.last_round_tiebreak,
                tokens={t: Tokens() for t in TEAMS},
                used_clues={t: () for t in TEAMS},
                code_pools={t: CODES for t in TEAMS},
            )
        case RoundStarted():
            codes = {t: tuple(c or ()) for t, c in event.codes.items()}
            pools = state.code_pools
            if state.code_draw == "without_replacement":
                pools = {t: _without(pools.get(t) or CODES, codes[t]) for t in TEAMS}
            return replace(
                state,
                phase="clues",
                round=event.round,
                encryptors=dict(event.encryptors),
                codes=codes,
                code_pools=pools,
                clues={},
                decoding=None,
                answers={},
            )
        case CluesGiven():
            clues = {**state.clues, event.team: tuple(event.clues or ())}
            # Both in: the clues are revealed (CluesRevealed, in the same batch), decoded, and
            # only from now on count as used for the other team too (Decrypto 7 and 15).
            both = len(clues) == len(TEAMS)
            used = state.used_clues
            if both:
                used = {t: (*used.get(t, ()), *(normalize(c) for c in clues[t])) for t in TEAMS}
            return replace(
                state,
                clues=clues,
                used_clues=used,
                phase="decode" if both else state.phase,
                decoding=TEAMS[0] if both else state.decoding,
            )
        case GuessSubmitted():
            return replace(
                state,
                answers={**state.answers, event.guessing_team: tuple(event.code or ())},
            )
        case CodeRevealed():
            return _code_revealed(state, event)
        case KeywordGuessingStarted():
            return replace(state, phase="keywords", tiebreak=event.cause, decoding=None)
        case KeywordsGuessed():
            return replace(
                state,
                keyword_guesses={**state.keyword_guesses, event.team: tuple(event.words or ())},
            )
        case GameDecided():
            return replace(
                state,
                phase="over",
                winner=event.winner,
                reason=event.reason,
                tiebreak=event.tiebreak,
                keywords_found=dict(event.keywords_found),
                keywords={t: tuple(k) for t, k in event.keywords.items()},
                decoding=None,
            )
    return state


def _code_revealed(state: State, event: CodeRevealed) -> State:
    """Decrypto 10: the tokens the revealed code gives, and the reveal kept for the notes."""
    team, opponent = event.team, other(event.team)
    tokens = dict(state.tokens)
    if event.interception:
        tokens[opponent] = replace(
            tokens[opponent],
            interceptions=tokens[opponent].interceptions + 1,
        )
    if event.miscommunication:
        tokens[team] = replace(
            tokens[team],
            miscommunications=tokens[team].miscommunications + 1,
        )
    intercepted = event.guesses.get(opponent)
    reveal = Reveal(
        round=state.round,
        team=team,
        encryptor=state.encryptors[team],
        clues=state.clues[team],
        code=tuple(event.code),
        guess=tuple(event.guesses[team]),
        interception=tuple(intercepted) if intercepted is not None else None,
    )
    last = team == TEAMS[-1]
    return replace(
        state,
        tokens=tokens,
        reveals=(*state.reveals, reveal),
        answers={},
        decoding=None if last else TEAMS[TEAMS.index(team) + 1],
    )


def _without(
    pool: tuple[tuple[int, ...], ...],
    code: tuple[int, ...],
) -> tuple[tuple[int, ...], ...]:
    left = list(pool)
    if code in left:
        left.remove(code)
    return tuple(left) or CODES
