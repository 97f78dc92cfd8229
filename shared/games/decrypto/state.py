"""Decrypto's state, the game's data tables (RULES.md 4.1-4.2) and small pure helpers."""

from __future__ import annotations

import unicodedata
from itertools import permutations

import msgspec

from shared.games.decider import PlayerId

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
LANGUAGES = ("en", "fr")
CLUE_UNIQUENESS = ("game", "team")  # ASSUMED scope, 4.3-5: "game" = both teams' past clues
CODE_DRAWS = ("with_replacement", "without_replacement")  # 4.3-6
# ASSUMED (4.3-2): after the last round, "score" = the chain of Decrypto 12 (score, keywords,
# draw); "keywords" = straight to the keywords, then a draw (BGA's description).
LAST_ROUND_TIEBREAKS = ("score", "keywords")
MAX_ROUNDS_RANGE = (1, 99)
TIMER_RANGE = (0, 600)  # ASSUMED 30 s by default; 0 = no timer

Phase = str  # "setup" | "clues" | "decode" | "keywords" | "over"


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
    bare = "".join(
        c for c in decomposed
        if not unicodedata.combining(c) and unicodedata.category(c) != "Cf"
    )
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
    return any(whole[i:i + len(part)] == part for i in range(len(whole) - len(part) + 1))


def end_flags(tokens: dict[str, Tokens]) -> dict[str, bool]:
    """Decrypto 11: a team's win flag (two Interceptions, or the other's two Miscommunications)."""
    return {
        t: tokens[t].interceptions >= WIN_INTERCEPTIONS
        or tokens[other(t)].miscommunications >= LOSE_MISCOMMUNICATIONS
        for t in TEAMS
    }
