"""How Decrypto's bots play, in figures: whole 4-player games through the real rules (the table
life and the game, as `simulate` plays them), each team's bot chosen, strong or easy.

Half the games put two strong teams against each other, the other half a strong team against an
easy one (random example clues, random guesses: today's `bot`, the baseline). From every revealed
code: how often a team decodes its own code, by its bot; and how often a strong team intercepts,
against strong clues and against the easy bot's random ones.

`measure` is pure (no I/O, no clock, no global random): the same arguments give the same
figures, so that a change to the bot or to the association table can be weighed by them.

measure(300, 2026) gave, English / French, every seat a bot's: strong teams decode 1841/1841 /
1760/1760 of their own codes, random guessing 13/313 / 14/314; a strong team intercepts 435/1228 /
423/1146 of strong clues (lateral ones among them), but 7/163 / 11/164 of random ones. Seated as
people (the encryptors keep to the keywords' lists): 520/736 / 526/726 of strong clues. The strong
interceptor reads the very table the clues come from, and any two clues of one keyword's list
share that list: it links a keyword's clues from the second time it is clued; lateral clues,
which go through another keyword's list, it links far less often.
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
from shared.games.decrypto.state import TEAMS, other
from shared.games.decrypto.strong_bot import strong_bot
from shared.games.simulate import LocalTable
from shared.games.table import BOT_SEAT_PREFIX, TableDecider

Kind = Literal["strong", "easy"]
BOTS: Mapping[Kind, Callable[[View, random.Random], dict[str, Any]]] = {"strong": strong_bot, "easy": bot}
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
    decode: dict[Kind, Tally] = field(default_factory=lambda: {"strong": Tally(), "easy": Tally()})
    # (interceptor's bot, clue giver's bot) -> interceptions
    intercept: dict[tuple[Kind, Kind], Tally] = field(default_factory=dict)
    wins: dict[str, int] = field(default_factory=dict)  # strong-vs-easy games: "strong", "easy", "draw"
    rounds: int = 0


def teams_of(index: int) -> dict[str, Kind]:
    """The `index`th game's bots by team: even games strong against strong, odd ones strong
    against easy, the strong team's colour alternating (White decodes first)."""
    if index % 2 == 0:
        return {t: "strong" for t in TEAMS}
    strong = TEAMS[(index // 2) % 2]
    return {strong: "strong", other(strong): "easy"}


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
            who = "draw" if event.winner is None else kinds[event.winner]
            figures.wins[who] = figures.wins.get(who, 0) + 1


def measure(games: int, seed: int, language: str = "en", seats: str = "bots") -> dict[str, Any]:
    """Plays `games` 4-player games (half strong against strong, half strong against easy) and
    returns the figures: own-code decode rates of strong and random-guessing (easy) teams; the
    interception rate of a strong team against strong clues and against random clues (and of an
    easy team against strong clues); who won the mixed games; rounds played. `seats`: "bots"
    (every seat a bot's) or "people" (seats named as people's, still played by the bots: their
    encryptors keep to the keywords' own lists)."""
    if seats not in SEATS:
        raise ValueError(f"seats is one of {', '.join(SEATS)}, not {seats!r}")
    figures = Figures()
    for index in range(games):
        kinds = teams_of(index)
        rng = random.Random(f"{seed}:{index}")
        count(figures, kinds, play(kinds, language, rng, SEATS[seats]))
    intercept = figures.intercept
    return {
        "games": games,
        "language": language,
        "seed": seed,
        "seats": seats,
        "rounds": figures.rounds,
        "decode": {"strong": figures.decode["strong"].figures(), "random": figures.decode["easy"].figures()},
        "intercept": {
            "strong_vs_strong_clues": intercept.get(("strong", "strong"), Tally()).figures(),
            "strong_vs_random_clues": intercept.get(("strong", "easy"), Tally()).figures(),
            "random_vs_strong_clues": intercept.get(("easy", "strong"), Tally()).figures(),
        },
        "strong_vs_easy_wins": dict(sorted(figures.wins.items())),
    }
