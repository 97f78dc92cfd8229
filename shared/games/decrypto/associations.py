"""Decrypto's word associations, read once at import: for every keyword of each language, the
words a player would give as clues for it (associations_<language>.txt, a line per keyword:
`keyword: clue, clue, ...`). The strong bot (strong_bot.py) writes its clues from them and reads
everybody's clues by them.

Every association is a clue the rules accept for its keyword (rules.clue_problem), and it names
no keyword of its language, contains none, is contained in none (words.keyword_clashes) and is
none's plural: a clue from the table never gives another keyword away either. `problems` says
what is wrong with a table; the tests hold the shipped ones to it. At import only its quick part
runs (every keyword listed, enough clues, none too long): comparing each of the ~9,000 clues
with every keyword takes a second, too long for every process that imports the games.
"""

from __future__ import annotations

from functools import cache
from importlib.resources import files

from shared.games.decrypto.messages import LANGUAGES
from shared.games.decrypto.state import CLUE_MAX_CHARS, normalize, word_parts
from shared.games.decrypto.words import WORDS, keyword_clashes

MIN_ASSOCIATIONS = 5  # a keyword's clues, at least: enough for the rounds of a long game

Table = dict[str, tuple[str, ...]]  # keyword (as in words_<language>.txt) -> its clues


def parse(text: str) -> Table:
    """The lines `keyword: clue, clue, ...` of a file, blank lines and # comments left out."""
    table: Table = {}
    for line in text.splitlines():
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        keyword, _, clues = line.partition(":")
        table[keyword.strip()] = tuple(c.strip() for c in clues.split(","))
    return table


def plural_of(clue: str, keywords: tuple[str, ...]) -> str | None:
    """The one-word keyword one of the clue's words is a plural of ("stars": star; "chevaux":
    cheval), if any: the game's check lets plurals through, but they name the keyword all the
    same."""
    singles = _one_word(keywords)
    for word in word_parts(normalize(clue)):
        stems = [word[: -len(end)] + root for end, root in _PLURALS if word.endswith(end)]
        found = next((singles[s] for s in stems if s in singles), None)
        if found is not None:
            return found
    return None


@cache
def _one_word(keywords: tuple[str, ...]) -> dict[str, str]:
    """The one-word keywords of a list, by their normalized form (built once per list)."""
    return {normalize(k): k for k in keywords if len(word_parts(k)) == 1}


# (plural ending, what it replaces): stars, boxes, cherries, chevaux, cheveux
_PLURALS = (("s", ""), ("x", ""), ("es", ""), ("ies", "y"), ("aux", "al"))


def problems(language: str, table: Table) -> list[str]:
    """Everything wrong with a language's table (empty: none): its `quick_problems`, and any
    clue that names, contains, is contained in or is the plural of a keyword."""
    keywords = WORDS[language]
    found = quick_problems(language, table)
    for keyword, clues in table.items():
        for clue in clues:
            plural = plural_of(clue, keywords)
            if plural is not None:
                found.append(f"{keyword!r}: {clue!r} is the plural of the keyword {plural!r}")
    clues = tuple(c for cs in table.values() for c in cs)
    found += [f"{clue!r} names the keyword {k!r}" for clue, k in keyword_clashes(clues, keywords)]
    return found


def quick_problems(language: str, table: Table) -> list[str]:
    """What is wrong with a table that takes no time to find: a keyword missing or unknown,
    fewer than MIN_ASSOCIATIONS clues, a clue empty, too long or repeated in its line."""
    keywords = WORDS[language]
    found: list[str] = []
    known = {normalize(k) for k in keywords}
    listed = {normalize(k) for k in table}
    found += [f"no associations for {k!r}" for k in keywords if normalize(k) not in listed]
    found += [f"{k!r} is not a keyword" for k in table if normalize(k) not in known]
    for keyword, clues in table.items():
        if len(clues) < MIN_ASSOCIATIONS:
            found.append(f"{keyword!r}: {len(clues)} clues, fewer than {MIN_ASSOCIATIONS}")
        norms = [normalize(c) for c in clues]
        if len(set(norms)) != len(clues):
            found.append(f"{keyword!r}: a clue is repeated")
        for clue, norm in zip(clues, norms):
            if not norm or len(clue) > CLUE_MAX_CHARS:
                found.append(f"{keyword!r}: {clue!r} is empty or longer than {CLUE_MAX_CHARS}")
    return found


def _load(language: str) -> Table:
    table = parse(files(__package__).joinpath(f"associations_{language}.txt").read_text(encoding="utf-8"))
    found = quick_problems(language, table)
    if found:  # a table that lacks a keyword fails at import, not in the middle of a game
        raise ValueError(f"associations_{language}.txt: {found[:3]}")
    return table


ASSOCIATIONS: dict[str, Table] = {language: _load(language) for language in LANGUAGES}
