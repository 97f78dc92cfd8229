"""Taking back a move, over whole random games of the five games: wherever `legal` offers
`undo`, the move it takes back revealed nothing (no viewer's secret became visible), and taking
it (and the ones before it, last first) gives every viewer the view it had before the move; it
is offered to the mover alone, never after a move that revealed something or after another
player acted, and a refused undo changes nothing."""

from __future__ import annotations

import random
from typing import Any

import msgspec
import pytest

from services.registry import get
from shared.games.bot_levels import bot_move
from shared.games.decider import Context, Rejection
from shared.games.table import Create, Join, Start, Table, TableDecider, TakeBackPoint, Undo

GAMES = {  # game: seat counts (the three whose moves may be taken back, and two whose may not)
    "naishi": (2,),
    "dozito": (2, 3),
    "diced_tomatoes": (1, 3),
    "decrypto": (4,),
    "illustori": (3,),
}
SEEDS = range(3)


def decide(decider: TableDecider, table: Table, actor: str, command: Any, rng: random.Random) -> Any:
    return decider.decide(table, command, Context(actor=actor, rng=rng))


def folded(decider: TableDecider, table: Table, events: list[Any]) -> Table:
    for event in events:
        table = decider.evolve(table, event)
    return table


def views(decider: TableDecider, table: Table) -> dict[str | None, Any]:
    return {v: decider.player_view(table, v) for v in (*table.players, None)}


def offered_undo(decider: TableDecider, table: Table) -> set[str]:
    return {p for p in table.players if Undo() in decider.legal_commands(table, p)}


@pytest.mark.parametrize(
    ("game", "seats", "seed"),
    [(g, n, s) for g, counts in GAMES.items() for n in counts for s in SEEDS],
)
def test_a_move_is_taken_back_only_while_it_revealed_nothing_and_back_to_the_same_views(game, seats, seed):
    decider = get(game)
    rng = random.Random(seed)
    players = [f"p{i}" for i in range(1, seats + 1)]
    table = decider.initial_state
    seating = [(players[0], Create(options={}, seats=seats)), *[(p, Join()) for p in players[1:]]]
    for actor, command in seating:
        table = folded(decider, table, decide(decider, table, actor, command, rng))
    table = folded(decider, table, decide(decider, table, players[0], Start(), rng))
    chain: list[dict[str | None, Any]] = []  # the views before each move that may be taken back
    taken_back = steps = 0
    while table.status == "running":
        steps += 1
        assert steps < 20_000
        actor = rng.choice(decider.players_to_act(table))
        view = decider.player_view(table, actor)
        command = msgspec.convert(bot_move(decider.game, view, rng), decider.command_type)
        before, seen_before = table, views(decider, table)
        events = decide(decider, table, actor, command, rng)
        assert not isinstance(events, Rejection), events
        table = folded(decider, table, events)
        if any(isinstance(e, TakeBackPoint) for e in events):
            chain = chain if table.take_backs[:-1] and table.take_backs[-2].player == actor else []
            chain.append(seen_before)
            assert offered_undo(decider, table) == {actor}
            for viewer in (*table.players, None):  # nothing that was hidden from anyone shows now
                hidden_before = decider.game.secrets(before.game, viewer)
                assert hidden_before <= decider.game.secrets(table.game, viewer), (viewer, command)
            for other in (p for p in table.players if p != actor):  # refused: nothing changes
                assert decide(decider, table, other, Undo(), rng).code == "nothing_to_undo"
            undone = table
            for seen in reversed(chain):  # last first, back to the views before each move
                undone = folded(decider, undone, decide(decider, undone, actor, Undo(), rng))
                assert views(decider, undone) == seen
                taken_back += 1
            if actor not in offered_undo(decider, undone):  # the mover's moves all taken back
                assert decide(decider, undone, actor, Undo(), rng).code == "nothing_to_undo"
        else:
            chain = []
            assert offered_undo(decider, table) == set(), command
    if decider.game.take_back:
        assert taken_back > 0, "no move of the game could be taken back"
    else:
        assert taken_back == 0
