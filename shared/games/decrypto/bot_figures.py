"""How Decrypto's bots play, in figures: whole 4-player games through the real rules (the table
life and the game, as `simulate` plays them), each team's bot chosen.

A third of the games put two strong teams against each other, a third a strong team against an
easy one (random example clues, random guesses: today's `bot`), a third a strong team against a
*drawn* one: the strong bot, except that its encryptor draws each clue at random among the
unused clues of its keyword's own list (random clues a team could give, as a person picking from
the table would). From every revealed code: how often a team decodes its own code, by its bot;
and how often a strong team intercepts, against strong clues, drawn clues and the easy bot's.

`measure` is pure (no I/O, no clock, no global random): the same arguments give the same
figures, so that a change to the bot or to the association table can be weighed by them; its
figures are in docs/bots.md. The strong interceptor reads the very table the clues come from,
and any two clues of one keyword's list share that list: it links a keyword's drawn clues from
the second time it is clued; the strong encryptor's (lateral ones among them, for bot
teammates) it links far less often.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

from shared.games.decider import PlayerId, View
from shared.games.decrypto import GAME
from shared.games.decrypto.bot import bot
from shared.games.decrypto.messages import CodeRevealed, GameDecided
from shared.games.decrypto.state import TEAMS, normalize, other
from shared.games.decrypto.strong_bot import index as association_index
from shared.games.decrypto.strong_bot import strong_bot, used_clues
from shared.games.simulate import LocalTable
from shared.games.table import BOT_SEAT_PREFIX, TableDecider

Kind = Literal["strong", "easy", "drawn"]
KINDS: tuple[Kind, ...] = ("strong", "easy", "drawn")


def drawn_bot(view: View, rng: random.Random) -> dict[str, Any]:
    """The strong bot, except that as encryptor it draws each clue at random among the clues of
    its keyword's own list not used yet (the strong bot's clues once a list is used up)."""
    legal = [c for c in view.get("legal") or [] if c.get("type") != "undo"]
    table = association_index(view.get("language", "en"))
    team = view.get("my_team")
    encrypting = bool(legal) and legal[0].get("type") == "give_clues" and bool(view.get("my_code"))
    if not encrypting or table is None or team not in TEAMS:
        return strong_bot(view, rng)
    keywords = [normalize(k) for k in view["keywords"][team]]
    taken = used_clues(view, team)
    clues: list[str] = []
    for digit in view["my_code"]:
        fresh = [o for o in table.clues[keywords[digit - 1]] if o[0] not in taken]
        if not fresh:
            return strong_bot(view, rng)
        norm, text = rng.choice(fresh)
        taken.add(norm)
        clues.append(text)
    return {"type": "give_clues", "clues": clues}


BOTS: Mapping[Kind, Callable[[View, random.Random], dict[str, Any]]] = {
    "strong": strong_bot,
    "easy": bot,
    "drawn": drawn_bot,
}
DECIDER = TableDecider(GAME)
# The seats' names: bot seats (a strong encryptor gives lateral clues too, for bot teammates), or
# people's, as when a person is to decode (it keeps to the keyword's own list).
SEATS: Mapping[str, tuple[PlayerId, ...]] = {
    "bots": tuple(f"{BOT_SEAT_PREFIX}{n}" for n in range(1, 5)),
    "people": ("p1", "p2", "p3", "p4"),
}
MAX_COMMANDS = 2_000  # a game far longer than the 8 rounds allow is a bug


@dataclass
class Tally:
    """Right answers out of tries."""

    right: int = 0
    tries: int = 0

    def add(self, right: bool) -> None:
        self.right += right
        self.tries += 1

    def figures(self) -> dict[str, float | int]:
        return {
            "right": self.right,
            "tries": self.tries,
            "rate": self.right / self.tries if self.tries else 0.0,
        }


@dataclass
class Figures:
    decode: dict[Kind, Tally] = field(default_factory=lambda: {kind: Tally() for kind in KINDS})
    # (interceptor's bot, clue giver's bot) -> interceptions
    intercept: dict[tuple[Kind, Kind], Tally] = field(default_factory=dict)
    # the mixed games' ends, by the strong team's rival: "strong", the rival's kind, or "draw"
    wins: dict[Kind, dict[str, int]] = field(default_factory=dict)
    rounds: int = 0


def teams_of(index: int) -> dict[str, Kind]:
    """The `index`th game's bots by team, in turn: strong against strong, strong against easy,
    strong against drawn; the strong team's colour alternating (White decodes first)."""
    rival = KINDS[index % len(KINDS)]
    strong = TEAMS[(index // len(KINDS)) % 2]
    return {strong: "strong", other(strong): rival}


def play(
    kinds: Mapping[str, Kind],
    language: str,
    rng: random.Random,
    players: tuple[PlayerId, ...] = SEATS["bots"],
) -> list[Any]:
    """One whole game, each seat played by its team's bot from its own view; its game events."""
    teams = {TEAMS[0]: list(players[:2]), TEAMS[1]: list(players[2:])}
    seat_kind = {p: kinds[t] for t, members in teams.items() for p in members}
    local = LocalTable(DECIDER, rng)
    options = {"language": language, **teams}

    def choose(actor: PlayerId) -> Mapping[str, Any]:
        view = DECIDER.player_view(local.table, actor)
        legal = [c for c in view.get("legal", []) if c.get("type") != "undo"]
        return BOTS[seat_kind[actor]]({**view, "legal": legal}, rng)

    commands = local.seat(players, options) + local.play(choose, max_commands=MAX_COMMANDS)
    return [event for _, events in commands for event in events]


def count(figures: Figures, kinds: Mapping[str, Kind], events: list[Any]) -> None:
    """What one game's revealed codes and end add to the figures."""
    for event in events:
        if isinstance(event, CodeRevealed):
            team, code = event.team, event.code
            figures.decode[kinds[team]].add(event.guesses[team] == code)
            rival = other(team)
            if rival in event.guesses:
                pair = (kinds[rival], kinds[team])
                figures.intercept.setdefault(pair, Tally()).add(event.guesses[rival] == code)
            figures.rounds += team == TEAMS[-1]
        elif isinstance(event, GameDecided) and len(set(kinds.values())) > 1:
            rival = next(kind for kind in kinds.values() if kind != "strong")
            who = "draw" if event.winner is None else kinds[event.winner]
            ends = figures.wins.setdefault(rival, {})
            ends[who] = ends.get(who, 0) + 1


def measure(games: int, seed: int, language: str = "en", seats: str = "bots") -> dict[str, Any]:
    """Plays `games` 4-player games (a third each strong against strong, easy and drawn) and
    returns the figures: own-code decode rates of strong, random-guessing (easy) and drawn
    teams; the interception rate of a strong team against strong, drawn and random (easy) clues,
    and of an easy team against strong clues; who won the mixed games; rounds played. `seats`:
    "bots" (every seat a bot's) or "people" (seats named as people's, still played by the bots:
    the strong encryptors keep to the keywords' own lists)."""
    if seats not in SEATS:
        raise ValueError(f"seats is one of {', '.join(SEATS)}, not {seats!r}")
    figures = Figures()
    for index in range(games):
        kinds = teams_of(index)
        rng = random.Random(f"{seed}:{index}")
        count(figures, kinds, play(kinds, language, rng, SEATS[seats]))
    intercept = figures.intercept
    decode = figures.decode
    return {
        "games": games,
        "language": language,
        "seed": seed,
        "seats": seats,
        "rounds": figures.rounds,
        "decode": {
            "strong": decode["strong"].figures(),
            "drawn": decode["drawn"].figures(),
            "random": decode["easy"].figures(),
        },
        "intercept": {
            "strong_vs_strong_clues": intercept.get(("strong", "strong"), Tally()).figures(),
            "strong_vs_drawn_clues": intercept.get(("strong", "drawn"), Tally()).figures(),
            "strong_vs_random_clues": intercept.get(("strong", "easy"), Tally()).figures(),
            "random_vs_strong_clues": intercept.get(("easy", "strong"), Tally()).figures(),
        },
        "strong_vs_easy_wins": dict(sorted(figures.wins.get("easy", {}).items())),
        "strong_vs_drawn_wins": dict(sorted(figures.wins.get("drawn", {}).items())),
    }
