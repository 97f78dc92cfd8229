"""Example texts from the shipped word list: the free-text part of `legal_commands` and the
bots' words. Deterministic: `k` (taken from the state) rotates through the list."""

from __future__ import annotations

from collections.abc import Iterable

from shared.games.illustori.chaining import (
    Rules, allowed_letters, chain_problem, forced_end, penalties, text_problem,
)
from shared.games.illustori.data import ALPHABET, GERMAN_PENALTY_STARTS, WORDS


def _index(position: int) -> dict[str, tuple[str, ...]]:
    table: dict[str, list[str]] = {letter: [] for letter in ALPHABET}
    for word in WORDS:
        table[word[position]].append(word)
    return {letter: tuple(words) for letter, words in table.items()}


BY_FIRST = _index(0)
BY_LAST = _index(-1)
PENALTY_WORD = "maxx"  # ends with "xx": the English penalty example


def _pick(words: tuple[str, ...] | list[str] | str, k: int) -> str:
    return words[k % len(words)]


def _text(*words: str) -> str:
    return " ".join(words).capitalize()


def start_examples(rules: Rules, k: int) -> list[str]:
    """A few texts for the starting card (any text with letters at both ends)."""
    return [_text(_pick(WORDS, k * 7 + i * 61)) for i in range(3)]


def chain_examples(rules: Rules, current: str, used: Iterable[str], k: int) -> list[str]:
    """Texts that chain on `current` and escape every penalty, where the letters allow it."""
    used = set(used) if rules.no_used_letters else set()
    texts: list[str] = []
    for n, letter in enumerate(allowed_letters(rules, current)):
        banned = set(used)
        if rules.no_repeated_letter:
            banned.add(letter)
        for i in range(2):
            j = k + n * 7 + i * 13
            if forced_end(rules) == "start":
                head = _pick(BY_FIRST[letter], j)
                free = [e for e in ALPHABET if e not in banned]
                if head[-1] in banned and free:
                    head = f"{head} {_pick(BY_LAST[_pick(free, j)], j)}"
                texts.append(_text(head))
            else:
                if rules.mode == "german_reverse":
                    banned |= GERMAN_PENALTY_STARTS
                tail = _pick(BY_LAST[letter], j)
                free = [s for s in ALPHABET if s not in banned]
                if tail[0] in banned and free:
                    tail = f"{_pick(BY_FIRST[_pick(free, j)], j)} {tail}"
                texts.append(_text(tail))
    return list(dict.fromkeys(texts))


def penalised_example(rules: Rules, current: str, used: Iterable[str], k: int) -> str | None:
    """One text that chains but fails a penalty rule (Illustori 7), if the rules have one."""
    used = sorted(used)
    letter = allowed_letters(rules, current)[0]
    candidates: list[str] = []
    if forced_end(rules) == "start":
        head = _pick(BY_FIRST[letter], k)
        candidates.append(_text(head, PENALTY_WORD))
        candidates.append(_text(head, _pick(BY_LAST[letter], k)))
        candidates += [_text(head, _pick(BY_LAST[u], k)) for u in used[:2]]
    else:
        tail = _pick(BY_LAST[letter], k)
        candidates += [_text(_pick(BY_FIRST[s], k), tail) for s in sorted(GERMAN_PENALTY_STARTS)]
        candidates.append(_text(_pick(BY_FIRST[letter], k), tail))
        candidates += [_text(_pick(BY_FIRST[u], k), tail) for u in used[:2]]
    for text in candidates:
        if text_problem(text, rules.mode) or chain_problem(rules, current, text):
            continue
        if penalties(rules, text, used):
            return text
    return None
