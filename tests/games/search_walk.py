"""A game's search parts (`Search`: determinize, evaluate, policy) checked along whole bot
games, at every seat's view: `positions` walks a game's running tables seat by seat, and
`check_determinizations` draws states from a seat's view and checks what must hold in every
game. Each game's test adds its own checks on the states drawn (cards kept, what was hidden
drawn anew, ...)."""

from __future__ import annotations

import random
from collections.abc import Iterator, Mapping, Sequence
from typing import Any, TypeVar

import msgspec

from shared.games.decider import Game, PlayerId, Search, View
from shared.games.simulate import simulate
from shared.games.table import Table, TableDecider
from shared.games.table_views import player_view

S = TypeVar("S")


def positions(
    decider: TableDecider,
    players: Sequence[PlayerId],
    rng: random.Random,
    *,
    options: Mapping[str, Any] | None = None,
    every: int = 1,
) -> Iterator[tuple[Table, PlayerId]]:
    """One whole game of easy bots (`simulate`): every `every`-th running table (where a bot may
    be asked to move), once for each seated player. The game is played through before the first
    table comes, so what the checks draw from `rng` cannot change it."""
    played = simulate(decider, players, rng, options=options)
    assert played.table.status == "ended"
    table = decider.initial_state
    running = 0
    for _, events in played.log:
        for event in events:
            table = decider.evolve(table, event)
        if table.status == "running":
            running += 1
            if running % every == 0:
                yield from ((table, seat) for seat in table.players)


def seat_view(game: Game[Any, Any], table: Table, seat: PlayerId) -> View:
    """The seat's view as the bot service gets it: after a trip through JSON."""
    view: View = msgspec.json.decode(msgspec.json.encode(player_view(game, table, seat)))
    return view


def check_determinizations(
    game: Game[S, Any], search: Search[S], table: Table, seat: PlayerId, rng: random.Random, draws: int
) -> list[S]:
    """`draws` states drawn from the seat's view, each showing the seat exactly what the true
    state shows it, with the same legal commands; `evaluate` gives each player a chance in
    [0, 1], and `policy` picks one of the legal commands. The states, for the game's own checks."""
    truth: S = table.game
    view = seat_view(game, table, seat)
    shown = msgspec.to_builtins(game.player_view(truth, seat))
    legal = game.legal_commands(truth, seat)
    drawn: list[S] = []
    for _ in range(draws):
        state = search.determinize(view, rng)
        assert msgspec.to_builtins(game.player_view(state, seat)) == shown, seat
        assert game.legal_commands(state, seat) == legal, seat
        chances = search.evaluate(state)
        assert set(chances) == set(table.players), chances
        assert all(0.0 <= c <= 1.0 for c in chances.values()), chances
        if len(chances) > 1:  # a lone player's chance is against the game: not shared out
            assert abs(sum(chances.values()) - 1.0) < 1e-9, chances
        if legal:
            assert search.policy(state, seat, legal, rng) in legal
        drawn.append(state)
    return drawn
