"""Decrypto's strong bot (the `normal` and `hard` levels): it plays by the word associations the
game ships (associations.py), from its own seat's view alone, as a client would.

Two clues relate as often as one keyword's association list holds both ("purr" and "whiskers":
the list of "cat"); a clue belongs to a keyword whose list holds it.

* Encryptor: for each digit of its code, a clue new to the game, from that keyword's list, or,
  when every teammate who decodes is a bot, also a lateral one: a clue of another keyword's list
  reached through a word only the two lists hold ("pharaoh" for "bandage", through "mummy").
  Of the triples it could write it takes the one that leaves the team the fewest tokens to
  expect: a Miscommunication as likely as its own team would misread it, an Interception as
  likely as the other team, reading the public clue history as this bot does (`intercepting`),
  would read it right. (A reader of the same table links any two clues of one keyword's list:
  lateral clues are what keeps such a reader from most codes; a person decodes the list's own
  clues more surely, so a bot that has a person to decode for keeps to those: bot_figures.py.)
* Its own team's code: each clue goes to the keyword whose list holds it (or relates most to it):
  the legal code that fits best.
* The other team's code: each clue goes to the position whose past clues relate most to it; a
  code already revealed is left out when codes are drawn without replacement (as the easy bot).
* Keyword guesses (the tie-break): at each position, the keyword whose list holds most of the
  clues seen there.

Randomness only from the `rng` passed in, to break ties; sets of words are only counted, never
walked, so that a move does not depend on the process's hash seed.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from functools import cache, lru_cache
from itertools import product
from typing import Any

from shared.games.decider import View
from shared.games.decrypto.associations import ASSOCIATIONS
from shared.games.decrypto.bot import bot as easy_bot
from shared.games.decrypto.state import (
    CODE_LENGTH,
    CODES,
    FIRST_INTERCEPTION_ROUND,
    KEYWORD_COUNT,
    TEAMS,
    normalize,
    other,
)
from shared.games.decrypto.words import WORDS
from shared.games.table_messages import BOT_SEAT_PREFIX

Code = tuple[int, ...]
Scores = tuple[float, ...]  # how well a clue fits each keyword position, 1-4
Option = tuple[str, str]  # a clue: (normalized, as written)

MEMBER = 1_000_000.0  # a clue in a keyword's own list outweighs any relatedness
CANDIDATES = 8  # clues weighed per digit of the code: 8**3 triples at most
# A lateral clue goes through a word that at most this many keyword lists hold: a link between
# two keywords ("mummy": bandage, pharaoh's tomb), not a word shared by many ("green").
LINK_HOLDERS = 2
NOTHING: frozenset[str] = frozenset()


@dataclass(frozen=True)
class Index:
    """One language's associations, indexed to read clues by."""

    keywords: tuple[str, ...]  # normalized, in the word list's order
    spelled: dict[str, str]  # normalized keyword -> as the word list writes it
    clues: dict[str, tuple[Option, ...]]  # normalized keyword -> its clues
    holders: dict[str, frozenset[str]]  # normalized clue -> the keywords whose list holds it


@cache
def index(language: str) -> Index | None:
    """The language's associations indexed (built once, on first use); None: none shipped."""
    table = ASSOCIATIONS.get(language)
    if table is None:
        return None
    spelled = {normalize(k): k for k in WORDS[language]}
    clues = {normalize(k): tuple((normalize(c), c) for c in cs) for k, cs in table.items()}
    holders: dict[str, set[str]] = {}
    for keyword, options in clues.items():
        for norm, _ in options:
            holders.setdefault(norm, set()).add(keyword)
    return Index(
        keywords=tuple(spelled),
        spelled=spelled,
        clues=clues,
        holders={c: frozenset(ks) for c, ks in holders.items()},
    )


@lru_cache(maxsize=1 << 14)
def held_by(language: str, clue: str) -> frozenset[str]:
    """The keywords whose list holds `clue` (any text: a person's clue too), also as a singular
    ("whiskers" for "whisker"); none for a word the table does not know."""
    idx = index(language)
    if idx is None:
        return NOTHING
    norm = normalize(clue)
    for form in (
        norm,
        norm[:-1] if norm.endswith(("s", "x")) else "",
        norm[:-2] if norm.endswith("es") else "",
    ):
        if form in idx.holders:
            return idx.holders[form]
    return NOTHING


def relate(language: str, a: str, b: str, leave_out: frozenset[str] = NOTHING) -> int:
    """How many keyword lists hold both clues (leaving out the keywords known not to be meant)."""
    return len((held_by(language, a) & held_by(language, b)) - leave_out)


# --- reading the table's view ---------------------------------------------------------------


def past_clues(view: View, team: str) -> list[list[str]]:
    """The clues `team` gave before for each keyword position (the revealed codes say which)."""
    past: list[list[str]] = [[] for _ in range(KEYWORD_COUNT)]
    for reveal in view.get("history", []):
        if reveal["team"] == team:
            for clue, digit in zip(reveal["clues"], reveal["code"]):
                past[digit - 1].append(clue)
    return past


def possible_codes(view: View, team: str, codes: Sequence[Code] = CODES) -> list[Code]:
    """The codes `team`'s could be: any, or, when drawn without replacement, those not revealed
    yet since its 24 codes were last all drawn."""
    if view.get("code_draw") != "without_replacement":
        return list(codes)
    revealed = [tuple(r["code"]) for r in view.get("history", []) if r["team"] == team]
    seen = set(revealed[len(revealed) - len(revealed) % len(CODES) :])
    return [c for c in codes if c not in seen] or list(codes)


def used_clues(view: View, team: str) -> set[str]:
    """The normalized clues `team` may not give again (rules.used_clues, from the view): its own
    past clues, and the other team's too when no clue may repeat in the game."""
    scope_all = view.get("clue_uniqueness", "game") == "game"
    return {
        normalize(c) for r in view.get("history", []) if scope_all or r["team"] == team for c in r["clues"]
    }


# --- the two readings of a clue ---------------------------------------------------------------


def intercepting(
    language: str, past: Sequence[Sequence[str]], leave_out: frozenset[str] = NOTHING
) -> Callable[[str], Scores]:
    """How the other team reads a clue, not knowing the keywords: by position, how much it
    relates to the clues seen there before."""

    def scores(clue: str) -> Scores:
        return tuple(float(sum(relate(language, clue, d, leave_out) for d in seen)) for seen in past)

    return scores


def decoding(
    language: str, keywords: Sequence[str], past: Sequence[Sequence[str]]
) -> Callable[[str], Scores]:
    """How the own team reads a clue, knowing its keywords (normalized): a clue in a keyword's
    list belongs to it; else to the keyword whose list and past clues relate most to it."""
    idx = index(language)
    lists = [[n for n, _ in idx.clues.get(k, ())] if idx else [] for k in keywords]

    def scores(clue: str) -> Scores:
        held = held_by(language, clue)
        return tuple(
            MEMBER * (k in held)
            + sum(relate(language, clue, x) for x in lists[p])
            + sum(relate(language, clue, d) for d in past[p])
            for p, k in enumerate(keywords)
        )

    return scores


def best_codes(scores: Sequence[Scores], codes: Iterable[Code]) -> list[Code]:
    """The codes that give the clues (their scores, in order) the most in all."""
    totals = [(sum(s[d - 1] for s, d in zip(scores, code)), code) for code in codes]
    top = max(t for t, _ in totals)
    return [code for t, code in totals if t == top]


def chance(scores: Sequence[Scores], codes: Sequence[Code], code: Code) -> float:
    """How likely a reader who scores clues so, choosing among `codes`, guesses `code` (as
    `best_codes`, without adding up more codes than needed: thousands of calls a move)."""
    if code not in codes:
        return 0.0
    first, second, third = scores
    true = first[code[0] - 1] + second[code[1] - 1] + third[code[2] - 1]
    ties = 0
    for a, b, c in codes:
        total = first[a - 1] + second[b - 1] + third[c - 1]
        if total > true:
            return 0.0
        ties += total == true
    return 1 / ties


# --- the moves --------------------------------------------------------------------------------


def strong_bot(view: View, rng: random.Random) -> dict[str, Any]:
    """Plays its own seat from its view only; anything the table cannot read (a language
    without associations, a command it does not know) is played as the easy bot would."""
    legal = [c for c in view.get("legal") or [] if c.get("type") != "undo"]  # never takes back
    view = {**view, "legal": legal}
    language = view.get("language", "en")
    kind = legal[0].get("type") if legal else None
    if not legal or index(language) is None or view.get("my_team") not in TEAMS:
        return easy_bot(view, rng)
    if kind == "give_clues" and view.get("my_code"):
        return give_clues(view, rng, language)
    if kind == "submit_guess":
        return submit_guess(view, rng, language)
    if kind == "guess_keywords":
        return guess_keywords(view, rng, language)
    return easy_bot(view, rng)


def give_clues(view: View, rng: random.Random, language: str) -> dict[str, Any]:
    """A clue per digit from that keyword's list, as the module says; an example from `legal`
    for a keyword whose list is used up."""
    team: str = view["my_team"]
    code: Code = tuple(view["my_code"])
    keywords = [normalize(k) for k in view["keywords"][team]]
    past = past_clues(view, team)
    own = decoding(language, keywords, past)
    theirs = intercepting(language, past)
    examples = [(normalize(w), w) for cmd in view["legal"] for w in cmd["clues"]]
    # lateral clues only for bots: a person decodes a clue of the keyword's own list more surely
    decoders = [p for p in view["teams"][team] if p != view["encryptors"].get(team)]
    lateral = all(p.startswith(BOT_SEAT_PREFIX) for p in decoders)
    used = used_clues(view, team)
    options = [_options(language, keywords, digit, used, past, examples, rng, lateral) for digit in code]
    own_vec = {n: own(n) for opts in options for (n, _), _ in opts}
    their_vec = {n: theirs(n) for opts in options for (n, _), _ in opts}
    codes = possible_codes(view, team)  # for both teams: they see the same revealed codes
    watched = view.get("round", 1) >= FIRST_INTERCEPTION_ROUND

    def cost(triple: tuple[tuple[Option, float], ...]) -> tuple[float, float, float]:
        """The tokens the team may expect to take (a Miscommunication as likely as its own team
        misreads, an Interception as likely as the other team reads right: both count alike),
        then the better understood, then the clues' ranks."""
        norms = [n for (n, _), _ in triple]
        understood = chance([own_vec[n] for n in norms], codes, code)
        intercepted = chance([their_vec[n] for n in norms], codes, code) if watched else 0.0
        return (1 - understood + intercepted, -understood, sum(rank for _, rank in triple))

    triples = [t for t in product(*options) if len({n for (n, _), _ in t}) == CODE_LENGTH]
    if not triples:  # every option the same word: let the examples do
        return dict(rng.choice(view["legal"]))
    chosen = min(triples, key=cost)
    return {"type": "give_clues", "clues": [text for (_, text), _ in chosen]}


def _options(
    language: str,
    keywords: Sequence[str],
    digit: int,
    used: set[str],
    past: Sequence[Sequence[str]],
    examples: Sequence[Option],
    rng: random.Random,
    lateral: bool = False,
) -> list[tuple[Option, float]]:
    """The clues weighed for one digit, each with its rank (lower: better). New ones from the
    keyword's list (examples once it is used up): those no other own keyword's list holds first,
    then by how little they relate to the keyword's past clues (another facet), then by how many
    keywords share them (the less a clue tells who it is for, the better); ties at random. Clues
    another own keyword's list holds stay in: the triple may place them for the team, and they
    point the other team to two positions. With `lateral`, see `_lateral_options`."""
    idx = index(language)
    keyword = keywords[digit - 1]
    own = set(keywords)
    fresh = [o for o in (idx.clues.get(keyword, ()) if idx else ()) if o[0] not in used]
    if lateral and fresh:
        found = _lateral_options(language, keywords, digit, used, past, fresh, rng)
        if found:
            return found
    pool = fresh or [e for e in examples if e[0] not in used]
    seen = past[digit - 1]

    def rank(option: Option) -> tuple[int, int, int, float]:
        mixed = len((held_by(language, option[0]) & own) - {keyword})  # other own keywords'
        likeness = sum(relate(language, option[0], d) for d in seen)
        shared = len(held_by(language, option[0]) - own)
        return (mixed, likeness, -shared, rng.random())

    ranked = sorted(pool, key=rank)[:CANDIDATES]
    return [(o, float(i)) for i, o in enumerate(ranked)]


def _lateral_options(
    language: str,
    keywords: Sequence[str],
    digit: int,
    used: set[str],
    past: Sequence[Sequence[str]],
    fresh: Sequence[Option],
    rng: random.Random,
) -> list[tuple[Option, float]]:
    """The keyword's new clues and its lateral ones (`linked`) that the team reads as this
    keyword's more than any other's; those the other team would place at this position least
    (by how much more it relates there than to any other position: below zero, a decoy), then
    the keyword's own before lateral ones, then the clearest to the team; ties at random."""
    position = digit - 1
    own = set(keywords)
    theirs = intercepting(language, past)
    team = decoding(language, keywords, past)
    listed = {n for n, _ in fresh}
    lateral = [
        o
        for o in linked(language, keywords[position])
        if o[0] not in used and not held_by(language, o[0]) & own
    ]
    pool = [*fresh, *lateral]
    ranked = []
    for option in pool:
        read = team(option[0])
        clarity = read[position] - max(r for p, r in enumerate(read) if p != position)
        if clarity <= 0:
            continue
        placed = theirs(option[0])
        margin = placed[position] - max(r for p, r in enumerate(placed) if p != position)
        ranked.append(((margin, option[0] not in listed, -clarity, rng.random()), option))
    ranked.sort(key=lambda entry: entry[0])
    return [(o, float(i)) for i, (_, o) in enumerate(ranked[:CANDIDATES])]


@lru_cache(maxsize=4096)
def linked(language: str, keyword: str) -> tuple[Option, ...]:
    """The lateral clues of a keyword (normalized): the clues of every other keyword whose list
    shares a link with its own (a word at most `LINK_HOLDERS` lists hold), not in its own list,
    in the table's order."""
    idx = index(language)
    if idx is None:
        return ()
    own_list = [n for n, _ in idx.clues.get(keyword, ())]
    found: dict[str, Option] = {}
    for link in own_list:
        holders = idx.holders.get(link, NOTHING)
        if len(holders) > LINK_HOLDERS:
            continue
        for neighbour in sorted(holders - {keyword}):
            for option in idx.clues.get(neighbour, ()):
                if option[0] not in own_list:
                    found.setdefault(option[0], option)
    return tuple(found.values())


def submit_guess(view: View, rng: random.Random, language: str) -> dict[str, Any]:
    """The own code read by the keywords, the other team's by its past clues; the best
    possible code, ties at random."""
    legal = view["legal"]
    target: str = legal[0]["team"]
    team: str = view["my_team"]
    clues = (view.get("clues") or {}).get(target) or []
    past = past_clues(view, target)
    mine = [normalize(k) for k in view["keywords"][team]]
    if target == team:
        read = decoding(language, mine, past)
    else:  # its own keywords are not the other team's: their lists cannot be meant
        read = intercepting(language, past, frozenset(mine))
    codes = possible_codes(view, target, [tuple(c["code"]) for c in legal])
    if len(clues) != CODE_LENGTH:
        return dict(rng.choice([c for c in legal if tuple(c["code"]) in codes]))
    best = rng.choice(best_codes([read(c) for c in clues], codes))
    return next(dict(c) for c in legal if tuple(c["code"]) == best)


def guess_keywords(view: View, rng: random.Random, language: str) -> dict[str, Any]:
    """At each position of the other team, the keyword (not one of the own) whose list holds
    most of the clues seen there, each keyword named once; no clue known there: an example."""
    idx = index(language)
    assert idx is not None
    team: str = view["my_team"]
    mine = {normalize(k) for k in view["keywords"][team]}
    past = past_clues(view, other(team))
    examples: list[str] = list(view["legal"][0]["words"])
    votes = [
        Counter(k for clue in seen for k in sorted(held_by(language, clue)) if k not in mine) for seen in past
    ]
    words = list(examples)
    taken: set[str] = set()
    order = sorted(range(KEYWORD_COUNT), key=lambda p: (-max(votes[p].values(), default=0), rng.random()))
    for p in order:
        left = {k: n for k, n in votes[p].items() if k not in taken}
        if not left:
            continue
        top = max(left.values())
        choice = rng.choice(sorted(k for k, n in left.items() if n == top))
        taken.add(choice)
        words[p] = idx.spelled.get(choice, choice)
    return {"type": "guess_keywords", "words": words}
