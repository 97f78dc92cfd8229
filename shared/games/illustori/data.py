"""Illustori's tables: every value RULES.md section 5 gives (or marks ASSUMED) lives here.

The card catalogue and the bots' word list are data files shipped with the package
(`cards.json`, `words.txt`); they are read once, at import.
"""

from __future__ import annotations

import json
import unicodedata
from pathlib import Path
from types import MappingProxyType
from typing import Literal, get_args

# --- players and cards ----------------------------------------------------------------------

MIN_PLAYERS = 3  # Illustori 5.2: 3-6 physical; the BGA range is ASSUMED the same
MAX_PLAYERS = 6
HAND_SIZE = 5  # Illustori 1 (seed 000/001)
DEFAULT_DECK_SIZE = 60  # 5.2: "60 (low-confidence site)", ASSUMED; a table option

_PACKAGE = Path(__file__).parent

_CATALOGUE = json.loads(_PACKAGE.joinpath("cards.json").read_text(encoding="utf-8"))
# The illustrated cards: id -> a short description of the picture. The deck of a table is the
# first `deck_size` cards of this catalogue.
CARDS: MappingProxyType[str, str] = MappingProxyType({card["id"]: card["picture"] for card in _CATALOGUE})
# The same pictures in French (the French game log names the cards by them; the web board has
# them too, in services/web/static/games/illustori.js).
CARDS_FR: MappingProxyType[str, str] = MappingProxyType(
    {card["id"]: card["picture_fr"] for card in _CATALOGUE}
)
CARD_IDS: tuple[str, ...] = tuple(CARDS)

# --- texts and letters ----------------------------------------------------------------------

ALPHABET = "abcdefghijklmnopqrstuvwxyz"  # letters are compared folded to these (5.3-4)
# English modes: after stripping diacritics (NFD), these letters fold to their first letter.
ENGLISH_FOLDS = MappingProxyType({"ß": "s", "æ": "a", "œ": "o"})
# German reverse (Illustori 11): the alphabet adds ä, ö, ü, ß, which stand for a, o, u, s.
GERMAN_FOLDS = MappingProxyType({"ä": "a", "ö": "o", "ü": "u", "ß": "s"})
ENGLISH_PENALTY_ENDING = "xx"  # Illustori 9 and 5.3-1: a text ending in "xx" is penalised
GERMAN_PENALTY_STARTS = frozenset("qxz")  # Illustori 11: a text starting with q, x or z
# Not in the rules, a bound on what an untrusted client may send as one text; 5.3-5 (ruling
# 2026-11-30): a whole sentence is fine, so it allows at least 280 characters.
MAX_TEXT_LENGTH = 280

# --- options --------------------------------------------------------------------------------

Mode = Literal["english", "english_reverse", "german_reverse"]  # Illustori 9-11 (12, Japanese, is out)
MODES: tuple[Mode, ...] = get_args(Mode)
REVERSE_MODES = frozenset({"english_reverse", "german_reverse"})
ReverseDirection = Literal["start", "end"]  # Illustori 10 and 5.3-2; "start" by default

# --- the bots' words ------------------------------------------------------------------------

# the example texts follow the table's language (issue 12 point 8)
Language = Literal["en", "fr"]
LANGUAGES: tuple[Language, ...] = get_args(Language)
_WORD_FILES = MappingProxyType({"en": "words.txt", "fr": "words_fr.txt"})


def _first_letter_of(char: str) -> str:
    return unicodedata.normalize("NFD", char.lower())[0]


def _load_words(language: str) -> tuple[str, ...]:
    """A word list, checked at import: every letter starts a word and ends one, so that an
    example can always chain, whatever the letter asked."""
    text = _PACKAGE.joinpath(_WORD_FILES[language]).read_text(encoding="utf-8")
    words = tuple(
        sorted({line.strip() for line in text.splitlines() if line.strip() and not line.startswith("#")})
    )
    for end in (0, -1):
        missing = set(ALPHABET) - {_first_letter_of(w[end]) for w in words}
        if missing:
            raise ValueError(f"{_WORD_FILES[language]}: no word for {sorted(missing)} at {end}")
    return words


WORDS_BY_LANGUAGE: MappingProxyType[str, tuple[str, ...]] = MappingProxyType(
    {language: _load_words(language) for language in LANGUAGES}
)
WORDS = WORDS_BY_LANGUAGE["en"]
