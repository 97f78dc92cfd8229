"""How Illustori's bots play, in figures: whole games through the real rules (the table life
and the game, as `simulate` plays them), each seat's bot chosen, strong or easy.

`measure` is pure (no I/O, no clock, no global random): the same arguments give the same
figures, so that a change to a bot can be weighed by them.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

import msgspec

from shared.games.decider import Context, PlayerId, Rejection, View
from shared.games.illustori import GAME
from shared.games.illustori.bot import bot
from shared.games.illustori.data import HAND_SIZE, MAX_PLAYERS, MIN_PLAYERS, MODES
from shared.games.illustori.messages import (
    CardPenalised,
    CardPlayed,
    StartPenalised,
    StartProposed,
    TurnEnded,
    VoteClosed,
)
from shared.games.illustori.strong_bot import strong_bot
from shared.games.table import Create, Join, Start, Table, TableDecider

Kind = Literal["strong", "easy"]
BOTS: Mapping[Kind, Callable[[View, random.Random], dict[str, Any]]] = {"strong": strong_bot, "easy": bot}
DECIDER = TableDecider(GAME)


@dataclass
class Played:
    """One game: each seat's bot, and what happened to each seat."""

    kinds: dict[PlayerId, Kind]
    winners: list[PlayerId] = field(default_factory=list)
    penalties: dict[PlayerId, int] = field(default_factory=dict)  # texts failed without a vote
    rejections: dict[PlayerId, int] = field(default_factory=dict)  # texts voted down
    turns: int = 0
    commands: int = 0  # the seats' moves (votes included)


def variant(index: int) -> tuple[dict[str, Any], int]:
    """The options and seat count of the `index`th game: every mode and reverse direction, with
    and without each prohibition, both languages, the smallest deck now and then, 3-6 seats."""
    modes = [(m, d) for m in MODES for d in (("start", "end") if m != "english" else ("start",))]
    mode, direction = modes[index % len(modes)]
    rest = index // len(modes)
    seats = MIN_PLAYERS + index % (MAX_PLAYERS - MIN_PLAYERS + 1)
    options: dict[str, Any] = {
        "mode": mode,
        "reverse_direction": direction,
        "no_repeated_letter": bool(rest % 2),
        "no_used_letters": bool(rest // 2 % 2),
        "language": "fr" if rest // 4 % 2 else "en",
    }
    if index % 7 == 6:
        options["deck_size"] = seats * HAND_SIZE + 1
    return options, seats


def play(kinds: Mapping[PlayerId, Kind], options: Mapping[str, Any], seed: int) -> Played:
    """One whole game; the table's draws and each seat's bot seeded from `seed`."""
    dice = random.Random(seed)
    rngs = {seat: random.Random(f"{seed}/{seat}") for seat in kinds}
    seats = list(kinds)
    played = Played(kinds=dict(kinds), penalties=dict.fromkeys(seats, 0), rejections=dict.fromkeys(seats, 0))
    table: Table = DECIDER.initial_state
    proposer: PlayerId | None = None

    def run(actor: PlayerId, command: Any) -> None:
        nonlocal table, proposer
        events = DECIDER.decide(table, command, Context(actor=actor, rng=dice))
        if isinstance(events, Rejection):
            raise AssertionError(f"{actor}: {msgspec.to_builtins(command)} refused: {events}")
        for event in events:
            table = DECIDER.evolve(table, event)
            if isinstance(event, CardPlayed | StartProposed):
                proposer = event.player
            elif isinstance(event, CardPenalised | StartPenalised):
                played.penalties[event.player] += 1
            elif isinstance(event, VoteClosed) and not event.accepted and proposer is not None:
                played.rejections[proposer] += 1
            elif isinstance(event, TurnEnded):
                played.turns += 1

    run(seats[0], Create(options=dict(options), seats=len(seats), entropy=dice.randbytes(16).hex()))
    for seat in seats[1:]:
        run(seat, Join(entropy=dice.randbytes(16).hex()))
    run(seats[0], Start())
    while table.status == "running":
        if played.commands >= 20_000:
            raise AssertionError("no end after 20000 commands")
        actor = dice.choice(DECIDER.players_to_act(table))
        view = DECIDER.player_view(table, actor)
        view["legal"] = [c for c in view.get("legal", []) if c.get("type") != "undo"]
        run(actor, msgspec.convert(BOTS[kinds[actor]](view, rngs[actor]), DECIDER.command_type))
        played.commands += 1
    assert table.result is not None
    played.winners = list(table.result.winners)
    return played


def _summary(games: list[Played]) -> dict[str, Any]:
    n = max(len(games), 1)
    return {
        "games": len(games),
        "penalties_per_game": sum(sum(g.penalties.values()) for g in games) / n,
        "rejections_per_game": sum(sum(g.rejections.values()) for g in games) / n,
        "won_share": sum(1 for g in games if g.winners) / n,
        "turns_per_game": sum(g.turns for g in games) / n,
        "commands_per_game": sum(g.commands for g in games) / n,
    }


def _by_kind(games: list[Played], kind: Kind) -> dict[str, Any]:
    seats = [(g, s) for g in games for s, k in g.kinds.items() if k == kind]
    n = max(len(seats), 1)
    return {
        "seats": len(seats),
        "win_rate": sum(1 for g, s in seats if s in g.winners) / n,
        "penalties_per_seat": sum(g.penalties[s] for g, s in seats) / n,
        "rejections_per_seat": sum(g.rejections[s] for g, s in seats) / n,
    }


def mixed_kinds(seats: int, rng: random.Random) -> dict[PlayerId, Kind]:
    """Half the seats strong (the odd one either way), in an order drawn at random."""
    both: list[Kind] = ["strong", "easy"]
    kinds = both * (seats // 2)
    if seats % 2:
        kinds.append(rng.choice(both))
    rng.shuffle(kinds)
    return {f"p{i + 1}": kind for i, kind in enumerate(kinds)}


def measure(games: int, seed: int) -> dict[str, Any]:
    """`games` games each of all-strong, all-easy and mixed tables, on the same options, seats
    and draws' seeds: the penalties and rejected texts per game, the share of games somebody
    wins (empties their hand), the game length, and in the mixed tables each bot's win rate."""
    tables: dict[str, list[Played]] = {"strong": [], "easy": [], "mixed": []}
    for index in range(games):
        options, seats = variant(index)
        game_seed = seed * 1_000_003 + index
        players = [f"p{i + 1}" for i in range(seats)]
        for kind in BOTS:
            tables[kind].append(play(dict.fromkeys(players, kind), options, game_seed))
        tables["mixed"].append(play(mixed_kinds(seats, random.Random(game_seed)), options, game_seed))
    mixed = tables["mixed"]
    return {
        "games": games,
        "seed": seed,
        "all_strong": _summary(tables["strong"]),
        "all_easy": _summary(tables["easy"]),
        "mixed": {**_summary(mixed), "strong": _by_kind(mixed, "strong"), "easy": _by_kind(mixed, "easy")},
    }
