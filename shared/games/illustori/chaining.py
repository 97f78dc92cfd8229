"""The word-chain rules on texts alone (Illustori 8-15): letters, chaining, penalties.

Pure functions of a text, the current text, the table's `Rules` and the used letters U; the
rules module, the views and the bots all ask these.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable
from functools import lru_cache

import msgspec

from shared.games.illustori.data import (
    ALPHABET,
    ENGLISH_FOLDS,
    ENGLISH_PENALTY_ENDING,
    GERMAN_FOLDS,
    GERMAN_PENALTY_STARTS,
    MAX_TEXT_LENGTH,
    REVERSE_MODES,
)


class Rules(msgspec.Struct, frozen=True, kw_only=True):
    """The options that change the chaining (and the examples' language), as the game's
    events carry them."""

    mode: str = "english"
    reverse_direction: str = "start"
    no_repeated_letter: bool = False
    no_used_letters: bool = False
    language: str = "en"  # the words of the example texts (issue 12 point 8), not a rule

    @property
    def prohibitions(self) -> bool:
        return self.no_repeated_letter or self.no_used_letters


# Penalty reasons (Illustori 7): stable names, shown in events and views.
ENDS_WITH_XX = "ends_with_xx"
STARTS_WITH_QXZ = "starts_with_qxz"
REPEATED_LETTER = "repeated_letter"
USED_LETTER = "used_letter"


@lru_cache(maxsize=4096)
def fold(char: str, mode: str) -> str | None:
    """The letter `char` stands for, in a-z, or None if it is no letter of the mode's alphabet
    (5.3-4: case-insensitive; English modes strip diacritics, German keeps ä/ö/ü/ß)."""
    low = char.lower()
    if mode == "german_reverse":
        low = GERMAN_FOLDS.get(low, low)
        return low if low in ALPHABET else None
    base = "".join(c for c in unicodedata.normalize("NFD", low) if not unicodedata.combining(c))
    base = ENGLISH_FOLDS.get(base, base)
    return base if len(base) == 1 and base in ALPHABET else None


@lru_cache(maxsize=4096)
def letters(text: str, mode: str) -> tuple[str, ...]:
    """The letters of `text`, folded, skipping spaces, digits and punctuation (5.3-3)."""
    return tuple(f for f in (fold(c, mode) for c in text) if f is not None)


def clean(text: str) -> str:
    """A text as the table keeps it: composed (NFC) and trimmed."""
    return unicodedata.normalize("NFC", text).strip()


def text_problem(text: str, mode: str, *, start: bool = False) -> tuple[str, str] | None:
    """Input validation (Illustori 8, 5.3-5): (code, message) when the text is refused outright.

    Ruling 2026-11-30 (the seeds win): only the starting card's text must begin and end with a
    letter; a chained text may begin or end with punctuation, digits or symbols ("Oh là
    là...", "« Oui »") and chains on its first and last letters, so it needs one letter."""
    if not text:
        return "bad_text", "The text is empty."
    if len(text) > MAX_TEXT_LENGTH:
        return "text_too_long", f"A text has at most {MAX_TEXT_LENGTH} characters."
    if start and (fold(text[0], mode) is None or fold(text[-1], mode) is None):
        return (
            "bad_text",
            f"The starting text must begin and end with {LETTER_NAMES[_alphabet(mode)]}.",
        )
    if not letters(text, mode):
        return "bad_text", f"The text must hold at least one letter: {LETTER_NAMES[_alphabet(mode)]}."
    return None


# How the rejection of rule 8 names the letters of each alphabet (5.3-4).
LETTER_NAMES = {
    "latin": (
        "a letter from a to z (é, ç, ß, æ, œ and the like count as their base letter; "
        "no digit, punctuation or symbol)"
    ),
    "german": (
        "a letter of the German alphabet: a to z, ä, ö, ü or ß "
        "(no other accent, no digit, punctuation or symbol)"
    ),
}


def _alphabet(mode: str) -> str:
    return "german" if mode == "german_reverse" else "latin"


def first_letter(text: str, mode: str) -> str:
    return letters(text, mode)[0]


def last_letter(text: str, mode: str) -> str:
    return letters(text, mode)[-1]


def forced_end(rules: Rules) -> str:
    """Which end of a new text the chaining rule fixes: "start" or "end" (Illustori 9-11)."""
    if rules.mode in REVERSE_MODES and rules.reverse_direction == "end":
        return "end"
    return "start"


def allowed_letters(rules: Rules, current: str) -> tuple[str, ...]:
    """The letters the forced end of the next text may be (Illustori 9-11, 13-14)."""
    if rules.mode in REVERSE_MODES:
        return (first_letter(current, rules.mode),)
    ends = letters(current, rules.mode)
    if rules.prohibitions:  # 13, 14: English switches to last-letter chaining
        return (ends[-1],)
    return tuple(dict.fromkeys(reversed(ends[-2:])))  # the last letter first


def chain_problem(rules: Rules, current: str, text: str) -> tuple[str, str] | None:
    """(code, message) when `text` does not chain on `current`: refused, not penalised."""
    allowed = allowed_letters(rules, current)
    end = forced_end(rules)
    letter = first_letter(text, rules.mode) if end == "start" else last_letter(text, rules.mode)
    if letter in allowed:
        return None
    choice = " or ".join(a.upper() for a in allowed)
    verb = "begin" if end == "start" else "end"
    return "does_not_chain", f"After {current!r} the text must {verb} with {choice}."


def free_letter(rules: Rules, text: str) -> str:
    """The end of a text that the chaining rule does not force (Illustori 14)."""
    if forced_end(rules) == "end":
        return first_letter(text, rules.mode)
    return last_letter(text, rules.mode)


def penalties(rules: Rules, text: str, used: Iterable[str], *, start: bool = False) -> list[str]:
    """Why `text` fails automatically (Illustori 7, 9, 11, 13, 14); empty when it goes to vote.

    The starting text (`start`) chains on nothing, so the used-letters rule has nothing to
    exempt there; U is empty then anyway.
    """
    reasons: list[str] = []
    mode = rules.mode
    if mode == "english" and _ends_with_penalty(text, mode):
        reasons.append(ENDS_WITH_XX)
    if mode == "german_reverse" and first_letter(text, mode) in GERMAN_PENALTY_STARTS:
        reasons.append(STARTS_WITH_QXZ)
    if rules.no_repeated_letter and first_letter(text, mode) == last_letter(text, mode):
        reasons.append(REPEATED_LETTER)
    if rules.no_used_letters and not start and free_letter(rules, text) in set(used):
        reasons.append(USED_LETTER)
    return reasons


def _ends_with_penalty(text: str, mode: str) -> bool:
    """Illustori 9, 5.3-1: the text's last two characters are the letters "xx", once the
    punctuation and symbols a chained text may end with are set aside ("Maxx !")."""
    body = text
    while body and fold(body[-1], mode) is None:
        body = body[:-1]
    tail = "".join(fold(c, mode) or "_" for c in body[-len(ENGLISH_PENALTY_ENDING) :])
    return tail == ENGLISH_PENALTY_ENDING


def ends(text: str, mode: str) -> tuple[str, str]:
    """The first and last letters of an accepted text: what it adds to U (Illustori 14)."""
    return first_letter(text, mode), last_letter(text, mode)
