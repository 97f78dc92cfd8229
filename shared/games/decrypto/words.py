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
    would hint at a keyword. Indexed by runs of words, so that checking every shipped list at
    import costs milliseconds, not a comparison of every pair."""
    keys = {keyword_key(k): k for k in keywords}
    named = [(e, keys[keyword_key(e)]) for e in examples if keyword_key(e) in keys]
    whole: dict[tuple[str, ...], list[str]] = {}  # a keyword's words -> the keywords of them
    inside: dict[tuple[str, ...], list[str]] = {}  # any run of a keyword's words -> its keywords
    for keyword in keywords:
        whole.setdefault(word_parts(keyword), []).append(keyword)
        for run in _runs(word_parts(keyword)):
            inside.setdefault(run, []).append(keyword)
    contained = []
    for example in examples:
        parts = word_parts(example)
        found = {k for run in _runs(parts) for k in whole.get(run, ())} | set(inside.get(parts, ()))
        contained += [(example, k) for k in keywords if k in found and keyword_key(k) != keyword_key(example)]
    return named + contained


def _runs(parts: tuple[str, ...]) -> set[tuple[str, ...]]:
    """Every run of consecutive words of `parts` (what `contains_word` looks for)."""
    return {parts[i:j] for i in range(len(parts)) for j in range(i + 1, len(parts) + 1)}


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
