"""Illustori's strong bot (the `normal` and `hard` levels): it writes texts about its cards'
pictures that follow the chaining rules, and votes by judging the text under vote.

It reads its own seat's view and the game's static data only (the pictures of `cards.json`, the
word lists, and the small lexicon below of words a picture calls to mind), and draws from the
`rng` it is given only to break ties, so that a view and a seeded rng always give one move.

* **Texts.** Built from the card's picture (a run of its words: "cat asleep on a piano") or a
  word it calls to mind ("purr"), bridged where the letters ask for it by a word of the table's
  word list ("nest cat asleep on a piano"). Every text is checked with the engine's own rules
  (`chaining.py`) before it is sent: never one the rules refuse or penalise. Among cards it plays
  first the one hardest to chain (the fewest letters its picture can start, or end, a text
  with), and among texts it prefers those after which its other cards chain naturally.
* **Swaps.** Only when no card of its hand can carry a sound text about its picture (the
  letters forbid it): then it swaps its hardest card, or its whole hand when most of it is hard.
* **Votes.** Yes iff the text follows the rules (input, chaining, penalties, read from the view)
  and fits the card as far as the bot can tell: it names the picture or a word it calls to mind,
  or holds a word the bot does not know (it cannot tell, so it trusts the writer). A text made
  only of words the bot knows, none about the picture, gets a no; no vote is ever at random.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from functools import cache, lru_cache
from typing import Any, NamedTuple

from shared.games.decider import View
from shared.games.illustori.chaining import (
    Rules,
    allowed_letters,
    chain_problem,
    fold,
    forced_end,
    letters,
    penalties,
    text_problem,
)
from shared.games.illustori.data import (
    CARD_IDS,
    CARDS,
    CARDS_FR,
    GERMAN_PENALTY_STARTS,
    REVERSE_MODES,
    WORDS_BY_LANGUAGE,
)

# --- what a picture calls to mind -----------------------------------------------------------

# Words that say nothing of a picture by themselves (folded to a-z, as `_tokens` gives them).
_STOP_EN = """a an the on in of to with at by over under through that does not no out made and is it
its from"""
_STOP_FR = """un une le la les l de des du d qui sur dans sous au aux a avec en pour ne pas s contre vers
et est se fait"""
STOP: Mapping[str, frozenset[str]] = {"en": frozenset(_STOP_EN.split()), "fr": frozenset(_STOP_FR.split())}
STOPWORDS = STOP["en"] | STOP["fr"]

# card -> (English words, French words) that its picture calls to mind, beyond its own words.
LEXICON: Mapping[str, tuple[str, str]] = {
    "c01": (
        "beacon lamp light sea coast shore wave waves tempest thunder lightning rain wind sailor ship",
        "phare tempête mer côte vague vagues orage éclair tonnerre pluie vent lumière marin navire",
    ),
    "c02": (
        "kitten nap sleep dream purr keys music melody tune song whiskers paws lullaby",
        "chaton sieste sommeil rêve ronron touches musique mélodie chanson moustaches berceuse",
    ),
    "c03": (
        "origami sail rain splash water float voyage folded ripple",
        "origami voile pluie eau flotter voyage pliage éclaboussure",
    ),
    "c04": (
        "lock door home house secret hidden welcome mat entrance spare",
        "serrure porte maison secret cachette bienvenue tapis entrée clef",
    ),
    "c05": (
        "sky flying ocean giant dream float soaring heaven",
        "ciel vol voler océan géante rêve flotter nuage",
    ),
    "c06": (
        "lamp light glow candle night path green stalks jungle woods",
        "lampe lumière lueur bougie nuit chemin vert tiges jungle bois",
    ),
    "c07": (
        "winter cold cozy knit wool red tail warm clever autumn",
        "hiver froid laine tricot rouge queue chaud rusé automne",
    ),
    "c08": (
        "tea kettle pour galaxy cosmos night sky magic starlight cup",
        "thé bouilloire verser galaxie cosmos nuit ciel magie tasse",
    ),
    "c09": (
        "bike ride cycling spring blossom sakura pink petals wheels pedal",
        "bicyclette balade printemps fleurs rose pétales roues pédale cerise",
    ),
    "c10": (
        "snow winter spring summer heat thaw carrot water puddle warm",
        "neige hiver printemps été chaleur dégel carotte eau flaque chaud fondre",
    ),
    "c11": (
        "space rocket cosmos rod hook fish stars lunar crater orbit",
        "espace fusée cosmos canne hameçon poisson étoiles lunaire cratère orbite",
    ),
    "c12": (
        "stairs steps climb ladder endless upward void sky mystery illusion",
        "marches monter échelle infini vide ciel mystère illusion escaliers",
    ),
    "c13": (
        "bird raven black beak shiny jewel gold treasure thief wedding",
        "oiseau noir bec brillant bijou anneau trésor voleur mariage",
    ),
    "c14": (
        "flight fly sky peaks hills travel journey basket float clouds altitude",
        "vol voler ciel sommets collines voyage nacelle flotter nuages altitude",
    ),
    "c15": (
        "storm wind wet drops water puddle weather shower",
        "orage vent mouillé gouttes eau flaque météo averse",
    ),
    "c16": (
        "time timeless hours minutes tick tock watch dial frozen forever",
        "temps heures minutes tic tac montre cadran figé éternité pendule",
    ),
    "c17": (
        "book books story read cozy night flashlight pillow hideout child",
        "livre livres histoire lire nuit lampe oreiller coussins cachette enfant",
    ),
    "c18": (
        "garden gardening water plants machine android bloom spring",
        "jardin jardinage eau plantes machine arrosoir printemps fleurir",
    ),
    "c19": (
        "railway rails track journey travel stars dark moon viaduct locomotive",
        "chemin fer rails voie voyage étoiles sombre lune viaduc locomotive",
    ),
    "c20": (
        "teacup storm vortex spin swirl spoon stir tempest drink",
        "tempête vortex tourbillon cuillère remuer boisson",
    ),
    "c21": (
        "tortoise shell home slow moving burden journey",
        "carapace foyer lent lentement déménagement fardeau voyage",
    ),
    "c22": (
        "dusk evening twilight lonely alone park playground childhood orange",
        "crépuscule soir solitude seul parc enfance orange",
    ),
    "c23": (
        "treasure pirate island hunt quest marks spot",
        "trésor pirate carte île chasse quête",
    ),
    "c24": (
        "carnival fair party parade disguise costume market celebration",
        "carnaval foire défilé déguisement costume marché célébration",
    ),
    "c25": (
        "fruit berry red huge sweet farm harvest summer",
        "fruit baie rouge énorme sucré ferme récolte été",
    ),
    "c26": (
        "envelope mail seal post message secret stamp love writing",
        "enveloppe courrier sceau poste message secret timbre amour écriture",
    ),
    "c27": (
        "freedom free escape fly flight wings feather release",
        "liberté libre évasion envol vol ailes plume",
    ),
    "c28": (
        "fire camp flames stars galaxy night sky camping embers smoke",
        "flammes étoiles galaxie nuit ciel camping braises fumée",
    ),
    "c29": (
        "pond water lotus leaf toad jump green swamp croak",
        "mare étang eau lotus feuille crapaud saut vert marais",
    ),
    "c30": (
        "glass shards cracked reflection luck shattered crack",
        "verre éclats fissure reflet malheur cassé",
    ),
    "c31": (
        "japan japanese fish rice restaurant dish food",
        "japon japonais poisson riz restaurant plat nourriture",
    ),
    "c32": (
        "sky myth legend flying smoke beast fantasy",
        "ciel mythe légende voler fumée bête fantaisie",
    ),
    "c33": (
        "fish bowl water lamp idea bright swim glow",
        "bocal eau lampe idée lumière nager",
    ),
    "c34": (
        "shoes hiking walk journey old leather mud path",
        "chaussures randonnée marche voyage vieilles cuir boue chemin",
    ),
    "c35": (
        "climb night sky stars lunar reach dream",
        "grimper nuit ciel étoiles lunaire rêve escalade",
    ),
    "c36": (
        "music rhythm beat drummer band tentacles sea ocean",
        "musique rythme batteur groupe tentacules mer océan tambour",
    ),
    "c37": (
        "puppy nap fire warm cozy hearth home asleep dream",
        "chiot sieste chaud cheminée foyer maison rêve",
    ),
    "c38": (
        "sand dunes portal mystery heat mirage sun",
        "sable dunes portail mystère chaleur mirage soleil",
    ),
    "c39": (
        "wind string branches sky tangled flying",
        "vent ficelle branches ciel voler",
    ),
    "c40": (
        "noodles soup broth hot steam japan chopsticks",
        "nouilles soupe bouillon chaud vapeur japon baguettes",
    ),
    "c41": (
        "dark silhouette strange mystery wrong odd ghost",
        "sombre silhouette étrange mystère bizarre fantôme",
    ),
    "c42": (
        "stars sea glow float tentacles space cosmic",
        "étoiles mer lueur flotter tentacules espace cosmique",
    ),
    "c43": (
        "beach sea tower waves bucket summer shore",
        "plage mer tour vagues seau été",
    ),
    "c44": (
        "north south direction lost needle map travel",
        "nord sud direction perdu aiguille carte voyage",
    ),
    "c45": (
        "bees hive sweet forest brown paw teddy",
        "abeilles ruche sucré forêt brun patte",
    ),
    "c46": (
        "travel journey train trip destination mystery adventure",
        "voyage trajet train destination mystère aventure",
    ),
    "c47": (
        "race slow fast speed shell contest",
        "lent rapide vitesse coquille",
    ),
    "c48": (
        "trees terrarium miniature jar tiny nature green",
        "arbres terrarium miniature bocal nature vert",
    ),
    "c49": (
        "music forgotten park bow strings alone melody",
        "musique parc archet cordes seul mélodie",
    ),
    "c50": (
        "magic trick bunny show wand",
        "magie tour spectacle baguette",
    ),
    "c51": (
        "colors colours rain paddy farm sky green",
        "couleurs pluie ferme ciel vert",
    ),
    "c52": (
        "library stack pile read reading knowledge",
        "bibliothèque pile lire lecture savoir",
    ),
    "c53": (
        "call ring silence alone lonely telephone",
        "appel sonnerie silence seul",
    ),
    "c54": (
        "king queen halloween royal orange autumn",
        "roi reine halloween royal orange automne",
    ),
    "c55": (
        "light lights glow night insects sparkle",
        "lumière lumières lueur nuit insectes scintiller",
    ),
    "c56": (
        "ice sand sun sea summer holiday bird",
        "glace sable soleil mer été vacances oiseau pingouin",
    ),
    "c57": (
        "wise wisdom bird night reading spectacles",
        "sage sagesse oiseau nuit lecture",
    ),
    "c58": (
        "flame light winter cold warm wax",
        "flamme lumière hiver froid chaud cire",
    ),
    "c59": (
        "lava eruption fire mountain puff ash",
        "lave éruption feu montagne cendre",
    ),
    "c60": (
        "sky float fly flight colors child air",
        "ciel flotter voler vol couleurs enfant air",
    ),
}


def _pictures(card: str) -> dict[str, str]:
    return {"en": CARDS.get(card, ""), "fr": CARDS_FR.get(card, "")}


@lru_cache(maxsize=8192)
def _tokens(text: str) -> tuple[str, ...]:
    """The words of a text for judging: letters folded to a-z (accents and case set aside),
    anything else a break between words."""
    words, word = [], ""
    for char in text:
        letter = fold(char, "english")
        if letter is None:
            if word:
                words.append(word)
            word = ""
        else:
            word += letter
    if word:
        words.append(word)
    return tuple(words)


def _content(text: str, stop: frozenset[str] = STOPWORDS) -> tuple[str, ...]:
    """The words of a text that can say something about a picture (not a `stop` word)."""
    return tuple(t for t in _tokens(text) if len(t) > 1 and t not in stop)


def _stem(word: str) -> str:
    return word[:-1] if len(word) > 3 and word[-1] in "sx" else word


def _relates(a: str, b: str) -> bool:
    """The same word give or take a plural or an ending: "star"/"stars", "melt"/"melting"."""
    if a == b or _stem(a) == _stem(b):
        return True
    short, long = (a, b) if len(a) <= len(b) else (b, a)
    return len(short) >= 4 and long.startswith(short)


@cache
def _card_words(card: str) -> tuple[str, ...]:
    """Every word about a card, in both languages: its picture's and its lexicon's."""
    en, fr = LEXICON.get(card, ("", ""))
    pictures = _pictures(card)
    words = [*_content(pictures["en"], STOP["en"]), *_content(pictures["fr"], STOP["fr"])]
    return tuple(dict.fromkeys([*words, *_tokens(f"{en} {fr}")]))


@cache
def _vocabulary() -> tuple[frozenset[str], dict[str, tuple[str, ...]]]:
    """The words the bot knows (every card's, the word lists'): by stem, and by their first
    four letters for the longer ones."""
    words = {w for card in CARD_IDS for w in _card_words(card)}
    for listed in WORDS_BY_LANGUAGE.values():
        words |= {t for w in listed for t in _content(w)}
    by_prefix: dict[str, list[str]] = {}
    for word in sorted(words):
        if len(word) >= 4:
            by_prefix.setdefault(word[:4], []).append(word)
    return frozenset(_stem(w) for w in words), {k: tuple(v) for k, v in by_prefix.items()}


@lru_cache(maxsize=8192)
def _known(word: str) -> bool:
    stems, by_prefix = _vocabulary()
    if word in STOPWORDS or _stem(word) in stems:
        return True
    return len(word) >= 4 and any(_relates(word, w) for w in by_prefix.get(word[:4], ()))


def _about(word: str, card: str) -> bool:
    return any(_relates(word, w) for w in _card_words(card))


def fits(text: str, card: str) -> bool:
    """Whether `text` fits `card` as far as the bot can tell: a word of it is about the picture,
    or one is unknown to the bot (it cannot tell, so it trusts the writer); a text of known words
    none of which is about the picture, or of no word that says anything, does not fit."""
    if any(_about(w, card) for w in _tokens(text) if len(w) > 1):  # "pour" is English too
        return True
    words = _content(text)
    return bool(words) and not all(_known(w) for w in words)


def sound(rules: Rules, text: str, current: str | None, used: Iterable[str]) -> bool:
    """The engine's own letter rules: the text is neither refused (8-11) nor penalised (7, 9,
    11, 13, 14); `current` None: the starting text."""
    start = current is None
    if text_problem(text, rules.mode, start=start):
        return False
    if current is not None and chain_problem(rules, current, text):
        return False
    return not penalties(rules, text, list(used), start=start)


def judge(view: View) -> bool:
    """The vote on the text under vote: sound by the rules, and fitting its card. A starting
    text named again after a rejection needs only be sound: the same player names the same card
    until the table accepts (5.3-8), and a namer who cannot write about it would hold the game
    up for ever."""
    pending = view.get("pending")
    if not pending:
        return True  # nothing to judge (never asked): no reason to refuse
    rules = Rules(**view["rules"])
    current = view.get("current_text") if view.get("chain") else None
    text = str(pending.get("text", ""))
    if not sound(rules, text, current, view.get("used_letters") or ()):
        return False
    if current is None and (view.get("last_outcome") or {}).get("kind") == "start_rejected":
        return True  # a starting text is named again until one passes: let the game begin
    return fits(text, str(pending.get("card", "")))


# --- the bot's own texts --------------------------------------------------------------------


class Unit(NamedTuple):
    """A piece of text the bot builds with, and its letters in the table's mode."""

    text: str
    first: str  # its first letter
    last: str  # its last letter
    tail: tuple[str, ...]  # its last two letters (one, for a one-letter word)
    content: int  # its words that say something


def _unit(text: str, mode: str) -> Unit | None:
    found = letters(text, mode)
    return Unit(text, found[0], found[-1], found[-2:], len(_content(text))) if found else None


def _ends(combo: Sequence[Unit]) -> tuple[str, str, tuple[str, ...]]:
    """The first, last and last two letters of the text the units make together."""
    tail = combo[-1].tail
    if len(tail) < 2 and len(combo) > 1:
        tail = (combo[-2].last, *tail)
    return combo[0].first, combo[-1].last, tail


def _trim(text: str) -> str:
    """A text without the symbols at its ends (so it begins and ends with a letter)."""
    start, end = 0, len(text)
    while start < end and not text[start].isalpha():
        start += 1
    while end > start and not text[end - 1].isalpha():
        end -= 1
    return text[start:end]


@cache
def card_units(card: str, language: str, mode: str) -> tuple[Unit, ...]:
    """The texts about a card in the table's language: every run of its picture's words that
    ends on a word that says something ("a cat", "asleep on a piano"), and its lexicon's words."""
    language = language if language in STOP else "en"
    words = _pictures(card)[language].split()
    texts: list[str] = []
    for i in range(len(words)):
        for j in range(i + 1, len(words) + 1):
            if _content(words[j - 1], STOP[language]):
                texts.append(_trim(" ".join(words[i:j])))
    en, fr = LEXICON.get(card, ("", ""))
    lexicon = (fr if language == "fr" else en).split()
    units = [_unit(t, mode) for t in dict.fromkeys(texts + lexicon) if t]
    return tuple(u for u in units if u is not None)


@cache
def _bridges(language: str, mode: str, end: int) -> dict[str, tuple[Unit, ...]]:
    """The word list's words (what joins a picture's words to the letter the chain asks for),
    the two shortest for each first (`end` 0) or last (`end` -1) letter."""
    table: dict[str, list[Unit]] = {}
    for word in sorted(WORDS_BY_LANGUAGE.get(language, WORDS_BY_LANGUAGE["en"]), key=lambda w: (len(w), w)):
        unit = _unit(word, mode)
        if unit is not None:
            group = table.setdefault(unit.last if end else unit.first, [])
            if len(group) < 2:
                group.append(unit)
    return {letter: tuple(found) for letter, found in table.items()}


@dataclass(frozen=True)
class Ask:
    """What the letter rules ask of the next text, read from the view."""

    rules: Rules
    current: str | None  # None: the starting text
    used: frozenset[str]
    end: str  # the end of the text the chaining forces: "start" or "end"
    allowed: tuple[str, ...]  # the letters it may be (none for the starting text)

    def passes(self, combo: Sequence[Unit]) -> bool:
        """A quick reading of the rules on a text's letters (`sound` has the last word)."""
        first, last, tail = _ends(combo)
        rules = self.rules
        if self.current is not None:
            forced, free = (first, last) if self.end == "start" else (last, first)
            if forced not in self.allowed:
                return False
            if rules.no_used_letters and free in self.used:
                return False
        if rules.mode == "english" and tail == ("x", "x"):
            return False
        if rules.mode == "german_reverse" and first in GERMAN_PENALTY_STARTS:
            return False
        return not (rules.no_repeated_letter and first == last)

    def opens(self, unit: Unit) -> bool:
        """Whether a text may begin with `unit` (its first letter, where the chaining forces it)."""
        return self.current is None or self.end != "start" or unit.first in self.allowed

    def closes(self, unit: Unit) -> bool:
        """Whether a text may end with `unit`."""
        return self.current is None or self.end != "end" or unit.last in self.allowed


def ask_of(rules: Rules, current: str | None, used: Iterable[str]) -> Ask:
    allowed = allowed_letters(rules, current) if current is not None else ()
    return Ask(rules, current, frozenset(used), forced_end(rules), allowed)


def next_letters(rules: Rules, combo: Sequence[Unit]) -> frozenset[str]:
    """The letters the text after these units may chain on (as `allowed_letters`)."""
    first, last, tail = _ends(combo)
    if rules.mode in REVERSE_MODES:
        return frozenset(first)
    if rules.prohibitions:
        return frozenset(last)
    return frozenset(tail)


@cache
def natural_letters(card: str, rules: Rules) -> frozenset[str]:
    """The letters a text about the card alone can chain on: how easy the card is to play."""
    start = forced_end(rules) == "start"
    return frozenset(u.first if start else u.last for u in card_units(card, rules.language, rules.mode))


class Option(NamedTuple):
    key: tuple[int, ...]
    combo: tuple[Unit, ...]
    card: str

    @property
    def text(self) -> str:
        text = " ".join(u.text for u in self.combo)
        return text[:1].upper() + text[1:]


def _tiers(units: Sequence[Unit], ask: Ask) -> Iterator[tuple[int, list[tuple[Unit, ...]]]]:
    """The ways to build a text about one card, by how much of it is about the card (3: all;
    2: one bridge word; 1: two), pruned to those that start and end as the chaining asks."""
    rules = ask.rules
    firsts, lasts = [u for u in units if ask.opens(u)], [u for u in units if ask.closes(u)]
    lexicon = [u for u in units if " " not in u.text]
    yield (
        3,
        [
            *((u,) for u in firsts if ask.closes(u)),
            *((a, b) for a in firsts for b in lexicon if a is not b and ask.closes(b)),
            *((b, a) for b in lexicon for a in lasts if a is not b and ask.opens(b)),
        ],
    )
    heads = [u for group in _bridges(rules.language, rules.mode, 0).values() for u in group if ask.opens(u)]
    tails = [u for group in _bridges(rules.language, rules.mode, -1).values() for u in group if ask.closes(u)]
    yield 2, [*((h, u) for h in heads for u in lasts), *((u, t) for u in firsts for t in tails)]
    yield 1, [(h, u, t) for h in heads for u in units for t in tails]


def _combos(units: Sequence[Unit], ask: Ask) -> Iterator[tuple[int, tuple[Unit, ...]]]:
    """The texts about one card that pass the letter rules, from the best tier that has any."""
    for tier, combos in _tiers(units, ask):
        found = False
        for combo in combos:
            if ask.passes(combo):
                found = True
                yield tier, combo
        if found:
            return


def options(cards: Sequence[str], ask: Ask, keep: Sequence[str] = ()) -> list[Option]:
    """Every text the bot would write for each of `cards` (the starting card: `cards` is it
    alone), ranked: most about the card, hardest card first, then the one that leaves the
    cards in `keep` (the rest of the hand) most chances to chain on it."""
    rules = ask.rules
    easy = {c: natural_letters(c, rules) for c in [*cards, *keep]}
    found: list[Option] = []
    for card in cards:
        rest = [c for c in keep if c != card]
        for tier, combo in _combos(card_units(card, rules.language, rules.mode), ask):
            after = next_letters(rules, combo)
            chances = sum(1 for c in rest if after & easy[c])
            content = sum(u.content for u in combo)
            key = (tier, -len(easy[card]), chances, 4 - len(combo), min(content, 4))
            found.append(Option(key, combo, card))
    found.sort(key=lambda o: o.key, reverse=True)
    return found


def _choose(ranked: list[Option], ask: Ask, rng: random.Random) -> Option | None:
    """The best option the engine's rules pass (ties broken by `rng`)."""
    while ranked:
        best = ranked[0].key
        top = [o for o in ranked if o.key == best]
        ranked = ranked[len(top) :]
        while top:
            pick = top.pop(rng.randrange(len(top)))
            if sound(ask.rules, pick.text, ask.current, ask.used):
                return pick
    return None


# --- the moves ------------------------------------------------------------------------------


def _name_start(view: View, legal: list[dict[str, Any]], rng: random.Random) -> dict[str, Any]:
    rules = Rules(**view["rules"])
    ask = ask_of(rules, None, ())
    start = view["start_card"]["card"]
    hand = [c["card"] for c in view.get("hand") or ()]
    pick = _choose(options([start], ask, keep=hand), ask, rng)
    if pick is None:
        return dict(rng.choice(legal))
    return {"type": "propose_start", "text": pick.text}


def _hard_cards(hand: list[str], rules: Rules) -> list[str]:
    """The hand, the hardest card to chain first."""
    return sorted(hand, key=lambda c: (len(natural_letters(c, rules)), hand.index(c)))


def _swap_or_pass(hand: list[str], legal: list[dict[str, Any]], rules: Rules) -> dict[str, Any] | None:
    """No sound text about any card: swap the hardest card, or all of a mostly hard hand; pass
    when there is nothing to draw."""
    swaps = [c for c in legal if c["type"] == "swap_cards"]
    if swaps:
        hard = [c for c in hand if len(natural_letters(c, rules)) <= 4]
        whole = [s for s in swaps if len(s["cards"]) == len(hand) > 1]
        if whole and len(hard) * 2 > len(hand):
            return dict(whole[0])
        hardest = _hard_cards(hand, rules)[0]
        return dict(next((s for s in swaps if s["cards"] == [hardest]), swaps[0]))
    passes = [c for c in legal if c["type"] == "pass_turn"]
    return dict(passes[0]) if passes else None


def _turn(view: View, legal: list[dict[str, Any]], rng: random.Random) -> dict[str, Any]:
    rules = Rules(**view["rules"])
    ask = ask_of(rules, view.get("current_text") or "", view.get("used_letters") or ())
    hand = [c["card"] for c in view.get("hand") or ()]
    pick = _choose(options(hand, ask, keep=hand), ask, rng)
    if pick is not None and pick.key[0] > 0:
        return {"type": "play_card", "card": pick.card, "text": pick.text}
    fallback = _swap_or_pass(hand, legal, rules)
    if fallback is not None:
        return fallback
    plays = [c for c in legal if c["type"] == "play_card"]
    return dict(rng.choice(plays or legal))


def strong_bot(view: View, rng: random.Random) -> dict[str, Any]:
    """The move of the seat whose view this is: a vote that judges, a starting text about the
    starting card, or a sound text about the card hardest to chain (a swap when none has one)."""
    legal: list[dict[str, Any]] = list(view.get("legal") or ())
    kinds = {c.get("type") for c in legal}
    if "vote" in kinds:
        return {"type": "vote", "yes": judge(view)}
    if "propose_start" in kinds:
        return _name_start(view, legal, rng)
    if "play_card" in kinds or "swap_cards" in kinds or "pass_turn" in kinds:
        return _turn(view, legal, rng)
    return dict(rng.choice(legal))
