"""The word lists the project ships, read once at import: the keywords (words_<language>.txt)
and the example clues (examples_<language>.txt).

The examples offered in `legal` (bots play from them) come only from the example lists, whose
words are never keywords: an example sent as a clue then tells nothing about any keyword.
"""

from __future__ import annotations

from importlib.resources import files

from shared.games.decrypto.messages import LANGUAGES
from shared.games.decrypto.state import contains_word, keyword_key, normalize, word_parts


def _read(name: str) -> tuple[str, ...]:
    """The words of a shipped list, once each (after normalization), comments left out."""
    text = files(__package__).joinpath(name).read_text(encoding="utf-8")
    seen: set[str] = set()
    words: list[str] = []
    for line in text.splitlines():
        word = line.strip()
        if word and not word.startswith("#") and normalize(word) not in seen:
            seen.add(normalize(word))
            words.append(word)
    return tuple(words)


def _load(language: str) -> tuple[str, ...]:
    words = _read(f"words_{language}.txt")
    pairs = contained_pairs(words)
    if pairs:  # a bad list fails at import, not in the middle of a game
        raise ValueError(f"words_{language}.txt: a keyword contains another: {pairs[:3]}")
    return words


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


def keyword_clashes(examples: tuple[str, ...], keywords: tuple[str, ...]) -> list[tuple[str, str]]:
    """(example, keyword) pairs where the example names the keyword (Decrypto 12's comparison)
    or one contains the other as whole words: such an example would be refused as a clue, or
    would hint at a keyword."""
    keys = {keyword_key(k): k for k in keywords}
    named = [(e, keys[keyword_key(e)]) for e in examples if keyword_key(e) in keys]
    return named + [
        (e, k)
        for e in examples
        for k in keywords
        if keyword_key(e) != keyword_key(k) and (contains_word(e, k) or contains_word(k, e))
    ]


WORDS: dict[str, tuple[str, ...]] = {language: _load(language) for language in LANGUAGES}


def _load_examples(language: str) -> tuple[str, ...]:
    examples = _read(f"examples_{language}.txt")
    # Every language's keywords: an example that is a keyword's spelling in another language
    # could be its translation (Decrypto 15).
    clashes = [c for words in WORDS.values() for c in keyword_clashes(examples, words)]
    if clashes:  # a bad list fails at import, not in the middle of a game
        raise ValueError(f"examples_{language}.txt: examples clash with keywords: {clashes[:3]}")
    return examples


EXAMPLES: dict[str, tuple[str, ...]] = {language: _load_examples(language) for language in LANGUAGES}
