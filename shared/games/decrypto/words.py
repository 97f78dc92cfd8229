"""The keyword lists the project ships (words_<language>.txt), read once at import.

They also feed the example clues and keyword guesses offered in `legal` (bots play from them).
"""

from __future__ import annotations

from importlib.resources import files

from shared.games.decrypto.messages import LANGUAGES
from shared.games.decrypto.state import contains_word, normalize, word_parts


def _load(language: str) -> tuple[str, ...]:
    text = files(__package__).joinpath(f"words_{language}.txt").read_text(encoding="utf-8")
    seen: set[str] = set()
    words: list[str] = []
    for line in text.splitlines():
        word = line.strip()
        if word and not word.startswith("#") and normalize(word) not in seen:
            seen.add(normalize(word))
            words.append(word)
    pairs = contained_pairs(words)
    if pairs:  # a bad list fails at import, not in the middle of a game
        raise ValueError(f"words_{language}.txt: a keyword contains another: {pairs[:3]}")
    return tuple(words)


def contained_pairs(words: list[str] | tuple[str, ...]) -> list[tuple[str, str]]:
    """(longer, shorter) pairs where one word of the list contains another ("pomme de terre",
    "pomme"): two such keywords in one game would give one away (issue point 3)."""
    several = [w for w in words if len(word_parts(w)) > 1]  # only these can hold another
    return [
        (longer, shorter)
        for longer in several
        for shorter in words
        if longer != shorter and contains_word(longer, shorter)
    ]


WORDS: dict[str, tuple[str, ...]] = {language: _load(language) for language in LANGUAGES}
