"""What the other team can infer about a team's keywords from the example clues offered in
`legal` (Decrypto 15: the examples must stay valid clues). Every bot sends one of its offered
examples, so clues drawn from anything that depends on the writer's keywords would tell the
other team about them. Over many bot games, for every clue set an encryptor gave, three
measures, each 0:

* named: a clue that is a keyword (of either team);
* read from the gaps: the clues compared with the examples the same public state offers when
  the writer's keywords are blanked (what the other team can compute); a word of those
  examples skipped between the first and the last clue is a keyword the writer's examples had
  to avoid (the leak of issue 24: 20 of 1,206 clue sets named a keyword, none wrongly);
* dependence: the examples offered to the writer differ when both teams' keywords are replaced
  by other words of the list, the public state kept (any difference is information).

Examples walking the keyword list and skipping the writer's own keywords, as they once did,
score here: 57 clue sets named, 33 keywords read from the gaps (none wrongly), 1,259 of 7,650
trials dependent (2,550 clue sets).
"""

from __future__ import annotations

import dataclasses
import random
import re
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import msgspec

from shared.games.decider import Game, View, fold
from shared.games.decrypto import GAME
from shared.games.decrypto.messages import CluesGiven, GiveClues
from shared.games.decrypto.state import TEAMS, State, keyword_key
from shared.games.decrypto.words import EXAMPLES, WORDS
from shared.games.simulate import simulate
from shared.games.table import Table, TableDecider

DECIDER = TableDecider(GAME)
GAMES = 200
OPTION_SETS: tuple[dict[str, Any], ...] = (  # each played by both bots (seeds 2k and 2k+1)
    {},
    {"language": "fr", "max_rounds": None},
    {"clue_uniqueness": "team", "max_rounds": None},
    {"code_draw": "without_replacement", "max_rounds": 12, "language": "fr"},
)
ALTERNATIVES = 3  # other keyword deals tried per clue set for the dependence measure


def decoding_bot(now: dict[str, Table]) -> Game[Any, Any]:
    """The game's bot, except that it reads its own team's true code (from `now`, not its
    view) and answers it 90% of the time: games then last many rounds, and used clues pile up."""

    def bot(view: View, rng: random.Random) -> dict[str, Any]:
        target = view["legal"][0].get("team")
        if target == view["my_team"] and rng.random() < 0.9:
            return {"type": "submit_guess", "team": target, "code": list(now["table"].game.codes[target])}
        return GAME.bot(view, rng)

    return dataclasses.replace(GAME, bot=bot)


def clue_sets(seed: int) -> Iterator[tuple[State, str, list[str]]]:
    """(state before, writer, clues) for every clue set of one whole bot game; odd seeds
    decode well (long games), even seeds play the game's bot."""
    rng = random.Random(seed)
    players = [f"p{i}" for i in range(rng.randint(4, 8))]
    options = OPTION_SETS[seed // 2 % len(OPTION_SETS)]
    now: dict[str, Table] = {}
    decider = TableDecider(decoding_bot(now)) if seed % 2 else DECIDER
    sim = simulate(
        decider, players, rng, options=options, after_event=lambda table, _: now.update(table=table)
    )
    table = DECIDER.initial_state
    for actor, batch in sim.log:
        for event in batch:
            if isinstance(event, CluesGiven):
                assert event.clues is not None
                yield table.game, actor, event.clues
        table = fold(DECIDER.evolve, batch, table)


def offered(state: State, writer: str) -> list[str]:
    """The words of every example clue set offered to `writer`, in order."""
    return [w for c in GAME.legal_commands(state, writer) if isinstance(c, GiveClues) for w in c.clues]


def with_keywords(state: State, keywords: dict[str, tuple[str, ...]]) -> State:
    return msgspec.structs.replace(state, keywords=keywords)


def read_from_gaps(state: State, writer: str, clues: list[str]) -> set[str]:
    """What the other team reads: the words the public examples (the writer's keywords
    blanked) hold between the first and the last clue, the clues aside."""
    team = state.team_of(writer)
    assert team is not None
    public = offered(with_keywords(state, {**state.keywords, team: ()}), writer)
    if clues[0] not in public or clues[-1] not in public:
        return set()
    first, last = public.index(clues[0]), public.index(clues[-1])
    return set(public[first + 1 : last]) - set(clues)


def measure(games: int) -> Counter[str]:
    counts: Counter[str] = Counter()
    for seed in range(games):
        for state, writer, clues in clue_sets(seed):
            team = state.team_of(writer)
            assert team is not None
            keys = {keyword_key(k) for words in state.keywords.values() for k in words}
            own = {keyword_key(k) for k in state.keywords[team]}
            counts["clue_sets"] += 1
            counts["named"] += any(keyword_key(c) in keys for c in clues)
            inferred = {keyword_key(w) for w in read_from_gaps(state, writer, clues)}
            counts["read_from_gaps"] += len(inferred & own)
            counts["wrong_reads"] += len(inferred - own)
            rng = random.Random(f"{seed} {state.round} {team}")
            words = WORDS[state.language]
            examples = offered(state, writer)
            assert clues in [examples[i : i + 3] for i in range(0, len(examples), 3)]
            for _ in range(ALTERNATIVES):
                drawn = rng.sample(words, 4 * len(TEAMS))
                other_deal = {t: tuple(drawn[i * 4 : i * 4 + 4]) for i, t in enumerate(TEAMS)}
                counts["dependent"] += offered(with_keywords(state, other_deal), writer) != examples
    return counts


def test_offered_examples_tell_the_other_team_nothing_about_the_keywords() -> None:
    counts = measure(GAMES)
    assert counts["clue_sets"] > 1_000  # the measure is never vacuous
    assert (counts["named"], counts["read_from_gaps"], counts["dependent"]) == (0, 0, 0), counts


def test_the_gap_reading_finds_a_keyword_the_examples_skip() -> None:
    """The measure can fail: clues taken from examples that skip a keyword of the writer in a
    public order (as the examples once did) are read from the gaps."""
    state, writer, _ = next(clue_sets(0))
    team = state.team_of(writer)
    assert team is not None
    public = offered(with_keywords(state, {**state.keywords, team: ()}), writer)
    skipped = public[1]
    clues = [w for w in public if w != skipped][:3]
    assert read_from_gaps(state, writer, clues) == {skipped}


# The French the client registers (`addFrench({"English": "French", ...})`): what an English
# page never shows.
FRENCH_BLOCK = re.compile(r"addFrench\(\{(.*?)\n\}\);", re.S)
ENTRY = re.compile(r'("(?:[^"\\]|\\.)*")\s*:\s*"(?:[^"\\]|\\.)*"')


def english_only(script: str) -> str:
    """A client script without the French it registers (its English keys kept)."""
    return FRENCH_BLOCK.sub(lambda block: " ".join(ENTRY.findall(block.group(1))), script)


def test_no_example_is_a_word_of_the_web_pages() -> None:
    """A clue that is also a class name, tag or label of the web client ("small", "round")
    would read as part of the page, and fool the board tests' search for hidden words. The
    board tests draw English pages: the client's French is no part of them."""
    root = Path(__file__).resolve().parents[3]
    static = root / "services" / "web" / "static"
    pages = [p for p in static.rglob("*") if p.suffix in (".js", ".css", ".html") and ".fr." not in p.name]
    helps = list((root / "shared" / "games").glob("*/help.en.json"))  # the rules and moves shown
    assert helps
    text = "\n".join(english_only(p.read_text(encoding="utf-8")) for p in [*pages, *helps])
    french = (static / "games" / "dozito.js").read_text(encoding="utf-8")
    assert "Cliquez" in french and "Cliquez" not in english_only(french)  # the French is left out
    page_words = {w.casefold() for w in re.findall(r"(?<![\w-])[^\W\d_]+(?![\w-])", text)}
    clashes = {w for words in EXAMPLES.values() for w in words if w.casefold() in page_words}
    assert not clashes, sorted(clashes)
