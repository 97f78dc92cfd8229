"""Example texts from the shipped word list: the free-text part of `legal_commands` and the
bots' words. Deterministic: `k` (taken from the state) rotates through the list."""

from __future__ import annotations

from collections.abc import Iterable

from shared.games.illustori.chaining import (
    Rules,
    allowed_letters,
    chain_problem,
    forced_end,
    letters,
    penalties,
    text_problem,
)
from shared.games.illustori.data import ALPHABET, GERMAN_PENALTY_STARTS, WORDS_BY_LANGUAGE


def _index(words: tuple[str, ...], position: int) -> dict[str, tuple[str, ...]]:
    table: dict[str, list[str]] = {letter: [] for letter in ALPHABET}
    for word in words:
        table[letters(word, "english")[position]].append(word)
    return {letter: tuple(found) for letter, found in table.items()}


BY_FIRST = {language: _index(words, 0) for language, words in WORDS_BY_LANGUAGE.items()}
BY_LAST = {language: _index(words, -1) for language, words in WORDS_BY_LANGUAGE.items()}
PENALTY_WORD = "maxx"  # ends with "xx": the English penalty example


def _pick(words: tuple[str, ...] | list[str] | str, k: int) -> str:
    return words[k % len(words)]


def _text(*words: str) -> str:
    return " ".join(words).capitalize()


def start_examples(rules: Rules, k: int) -> list[str]:
    """A few texts for the starting card (any text with letters at both ends)."""
    words = WORDS_BY_LANGUAGE[rules.language]
    texts = [_text(_pick(words, k * 7 + i * 61)) for i in range(3)]
    return [
        t
        for t in texts
        if not (text_problem(t, rules.mode, start=True) or penalties(rules, t, (), start=True))
    ]


def chain_examples(rules: Rules, current: str, used: Iterable[str], k: int) -> list[str]:
    """Texts that chain on `current` and escape every penalty, where the letters allow it."""
    used = set(used) if rules.no_used_letters else set()
    first, last = BY_FIRST[rules.language], BY_LAST[rules.language]
    texts: list[str] = []
    for n, letter in enumerate(allowed_letters(rules, current)):
        banned = set(used)
        if rules.no_repeated_letter:
            banned.add(letter)
        for i in range(2):
            j = k + n * 7 + i * 13
            if forced_end(rules) == "start":
                head = _pick(first[letter], j)
                free = [e for e in ALPHABET if e not in banned]
                if head[-1] in banned and free:
                    head = f"{head} {_pick(last[_pick(free, j)], j)}"
                texts.append(_text(head))
            else:
                if rules.mode == "german_reverse":
                    banned |= GERMAN_PENALTY_STARTS
                tail = _pick(last[letter], j)
                free = [s for s in ALPHABET if s not in banned]
                if tail[0] in banned and free:
                    tail = f"{_pick(first[_pick(free, j)], j)} {tail}"
                texts.append(_text(tail))
    # Offered as examples of what may be sent: never a text the rules penalise (issue 12).
    return [
        t
        for t in dict.fromkeys(texts)
        if not (text_problem(t, rules.mode) or chain_problem(rules, current, t) or penalties(rules, t, used))
    ]


def penalised_example(rules: Rules, current: str, used: Iterable[str], k: int) -> str | None:
    """One text that chains but fails a penalty rule (Illustori 7), if the rules have one:
    never offered in `legal`, but the bot plays it now and then so penalties happen."""
    used = sorted(used)
    first, last = BY_FIRST[rules.language], BY_LAST[rules.language]
    letter = allowed_letters(rules, current)[0]
    candidates: list[str] = []
    if forced_end(rules) == "start":
        head = _pick(first[letter], k)
        candidates.append(_text(head, PENALTY_WORD))
        candidates.append(_text(head, _pick(last[letter], k)))
        candidates += [_text(head, _pick(last[u], k)) for u in used[:2]]
    else:
        tail = _pick(last[letter], k)
        candidates += [_text(_pick(first[s], k), tail) for s in sorted(GERMAN_PENALTY_STARTS)]
        candidates.append(_text(_pick(first[letter], k), tail))
        candidates += [_text(_pick(first[u], k), tail) for u in used[:2]]
    for text in candidates:
        if text_problem(text, rules.mode) or chain_problem(rules, current, text):
            continue
        if penalties(rules, text, used):
            return text
    return None
