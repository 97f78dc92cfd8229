"""Decrypto's wire types: the table options, the commands players send and the events logged.

Teams are named by the strings "white" and "black"; codes are lists of three digits 1..4.
Fields that some viewers may not see are typed `... | None`: `redact` blanks them to None.
"""

from __future__ import annotations

from typing import Annotated, Literal, get_args

import msgspec

from shared.games.decider import LANGUAGE_NAMES, Command, Event, Options, PlayerId, explained

Language = Literal["en", "fr"]
LANGUAGES: tuple[Language, ...] = get_args(Language)
ClueUniqueness = Literal["game", "team"]  # ASSUMED scope, 4.3-5: "game" = both teams' past clues
CodeDraw = Literal["with_replacement", "without_replacement"]  # 4.3-6
# ASSUMED (4.3-2): after the last round, "score" = the chain of Decrypto 12 (score, keywords,
# draw); "keywords" = straight to the keywords, then a draw (BGA's description).
LastRoundTiebreak = Literal["score", "keywords"]
MAX_ROUNDS_RANGE = (1, 99)
TIMER_RANGE = (0, 600)  # ASSUMED 30 s by default; 0 = no timer

MaxRounds = Annotated[int, msgspec.Meta(ge=MAX_ROUNDS_RANGE[0], le=MAX_ROUNDS_RANGE[1])]
TimerSeconds = Annotated[int, msgspec.Meta(ge=TIMER_RANGE[0], le=TIMER_RANGE[1])]


class DecryptoOptions(Options, frozen=True, kw_only=True):
    """Table options: msgspec refuses a value outside its type at `create`; `check_options`
    in rules.py checks the teams."""

    # the keyword list: "en" or "fr"
    language: Annotated[
        Language, explained("The language of the keywords and of the example clues.", LANGUAGE_NAMES)
    ] = "en"
    # RULES 4.3-1: the 8-round cap, on by default; None = no cap
    max_rounds: Annotated[
        MaxRounds | None, explained("The game ends after this many rounds at most (empty: no limit).")
    ] = 8
    # players the creator puts in White / Black, in encryptor order
    white: Annotated[
        list[PlayerId],
        explained("Names of the White team, in the order they give clues (empty: teams made at the start)."),
    ] = []
    black: Annotated[
        list[PlayerId],
        explained("Names of the Black team, in the order they give clues (empty: teams made at the start)."),
    ] = []
    # ASSUMED scope (4.1-15): "game" both teams, "team" own team
    clue_uniqueness: Annotated[
        ClueUniqueness,
        explained("A clue may never repeat one of the whole game, or only one of the own team."),
    ] = "game"
    # 4.3-6: BGA reshuffles; or "without_replacement"
    code_draw: Annotated[
        CodeDraw,
        explained("Codes drawn from all 24 each round, or each of a team's 24 once before any repeats."),
    ] = "with_replacement"
    # ASSUMED sand timer; advisory only (the rules have no clock)
    timer_seconds: Annotated[
        TimerSeconds, explained("The sand timer shown to the slower team, in seconds: advice only (0: none).")
    ] = 30
    # ASSUMED (4.3-2): after the last round, "score" (score, then keywords, then a draw) or
    # "keywords" (straight to the keywords, then a draw)
    last_round_tiebreak: Annotated[
        LastRoundTiebreak,
        explained("After the last round: compare scores first, or go straight to guessing keywords."),
    ] = "score"


# --- commands -------------------------------------------------------------------------------


class GiveClues(Command, frozen=True, kw_only=True):
    """The encryptor's three clues, one per digit of the code, in order."""

    clues: list[str]


class SubmitGuess(Command, frozen=True, kw_only=True):
    """A team's answer for the code of `team` (its own code, or the other team's: interception)."""

    team: str
    code: list[int]


class GuessKeywords(Command, frozen=True, kw_only=True):
    """Tie-break: a team's guesses of the other team's 4 keywords, by position (blank = pass)."""

    words: list[str]


COMMANDS: tuple[type[Command], ...] = (GiveClues, SubmitGuess, GuessKeywords)


# --- events ---------------------------------------------------------------------------------


class GameSetUp(Event, frozen=True, kw_only=True):
    players: list[PlayerId]  # seat order
    teams: dict[str, list[PlayerId]]  # team -> members, in encryptor order
    keywords: dict[str, list[str] | None]  # None where the viewer may not see them
    language: str
    max_rounds: int | None
    clue_uniqueness: str
    code_draw: str
    timer_seconds: int
    last_round_tiebreak: str = "score"  # a default: logs written before the option still decode


class RoundStarted(Event, frozen=True, kw_only=True):
    round: int
    encryptors: dict[str, PlayerId]
    codes: dict[str, list[int] | None]  # the secret codes drawn; None for all but its encryptor


class CluesGiven(Event, frozen=True, kw_only=True):
    team: str
    player: PlayerId
    clues: list[str] | None  # None for viewers outside the team (Decrypto 7: not yet shown)
    # The team: redact is stateless, so the event says who. None in logs written before the
    # ruling of 2026-11-30, when clues were public at once.
    visible_to: list[PlayerId] | None = None


class CluesRevealed(Event, frozen=True, kw_only=True):
    """Both encryptors have written: every clue of the round is shown (Decrypto 7)."""

    round: int
    clues: dict[str, list[str]]  # team -> its three clues


class GuessSubmitted(Event, frozen=True, kw_only=True):
    team: str  # whose code is guessed
    guessing_team: str
    player: PlayerId
    code: list[int] | None  # None for viewers outside the guessing team
    visible_to: list[PlayerId]  # the guessing team: redact is stateless, so the event says who


class CodeRevealed(Event, frozen=True, kw_only=True):
    team: str
    code: list[int]
    guesses: dict[str, list[int]]  # guessing team -> its answer (no interception in round 1)
    interception: bool  # the other team guessed exactly: it takes an Interception token
    miscommunication: bool  # the team itself guessed wrong: it takes a Miscommunication token


class KeywordGuessingStarted(Event, frozen=True, kw_only=True):
    cause: str  # "both_flags" or "last_round"
    scores: dict[str, int]  # equal, unless last_round_tiebreak="keywords" skipped the score


class KeywordsGuessed(Event, frozen=True, kw_only=True):
    team: str
    player: PlayerId
    words: list[str] | None  # None for viewers outside the team
    visible_to: list[PlayerId]


class GameDecided(Event, frozen=True, kw_only=True):
    winner: str | None  # None: a draw
    reason: str  # two_interceptions | two_miscommunications | token_score | keywords | draw
    tiebreak: str | None  # None, or why the tie-break ran: "both_flags" | "last_round"
    scores: dict[str, int]  # Interceptions minus Miscommunications, per team
    keywords: dict[str, list[str]]  # every keyword, now public
    keyword_guesses: dict[str, list[str]]  # the tie-break guesses, if keywords were guessed
    keywords_found: dict[str, int]


EVENTS: tuple[type[Event], ...] = (
    GameSetUp,
    RoundStarted,
    CluesGiven,
    CluesRevealed,
    GuessSubmitted,
    CodeRevealed,
    KeywordGuessingStarted,
    KeywordsGuessed,
    GameDecided,
)
