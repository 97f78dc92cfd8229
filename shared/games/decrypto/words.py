"""The keyword lists the project ships (words_<language>.txt), read once at import.

They also feed the example clues and keyword guesses offered in `legal` (bots play from them).
"""

from __future__ import annotations

from importlib.resources import files

from shared.games.decrypto.state import LANGUAGES, normalize


def _load(language: str) -> tuple[str, ...]:
    text = files(__package__).joinpath(f"words_{language}.txt").read_text(encoding="utf-8")
    seen: set[str] = set()
    words: list[str] = []
    for line in text.splitlines():
        word = line.strip()
        if word and not word.startswith("#") and normalize(word) not in seen:
            seen.add(normalize(word))
            words.append(word)
    return tuple(words)


WORDS: dict[str, tuple[str, ...]] = {language: _load(language) for language in LANGUAGES}
