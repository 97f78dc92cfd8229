"""Builders for the Dozito rules tests (given/when/then is `shared.games.testing.Given`): a
dealt game with the cards a test names, grids turned face up, cards."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import msgspec

from shared.games.decider import Event
from shared.games.dozito import GAME
from shared.games.dozito.cards import DECKS, Card, Kind
from shared.games.dozito.messages import GameSetUp, RoundDealt
from shared.games.dozito.state import State
from shared.games.testing import Given

STANDARD: list[Card] = list(DECKS["standard"])
PLAYERS = ("ann", "bob")


def dealt(
    grids: Mapping[str, Mapping[int, str]] | None = None,
    *,
    players: Sequence[str] = PLAYERS,
    discards: Sequence[Sequence[str]] | None = None,
    draw_top: Sequence[str] = (),
    draw: Sequence[str] | None = None,
    first: str = "ann",
    rounds: int = 3,
    deck: Sequence[Card] = STANDARD,
) -> list[Event]:
    """A game set up and dealt: the cards given where given, every other card filled in from
    the deck in sorted id order (grids first, then the discard piles, then the draw pile)."""
    grids = grids or {}
    named = [c for g in grids.values() for c in g.values()]
    named += [c for pile in discards or () for c in pile] + list(draw_top) + list(draw or ())
    pool = [c.id for c in sorted(deck, key=lambda c: c.id) if c.id not in set(named)]
    out_grids: dict[str, list[str | None]] = {}
    for p in players:
        out_grids[p] = [grids.get(p, {}).get(s) or pool.pop(0) for s in range(1, 13)]
    piles = [list(pile) for pile in discards] if discards is not None else [[pool.pop(0)], [pool.pop(0)]]
    pile_draw: list[str | None] = [*draw_top, *(draw if draw is not None else pool)]
    return [
        GameSetUp(players=list(players), rounds=rounds, deck=list(deck)),
        RoundDealt(round=1, first_player=first, grids=out_grids, discards=piles, draw=pile_draw),
    ]


def face_up(state: State, player: str, slots: Iterable[int]) -> State:
    """The state with these slots of `player`'s grid turned face up (a shortcut for a grid
    that earlier turns revealed)."""
    up = list(state.face_up[player])
    for s in slots:
        up[s - 1] = True
    return msgspec.structs.replace(state, face_up={**state.face_up, player: tuple(up)})


def card(colour: str, number: int | None, kind: Kind = "normal", suns: int = 0, id: str = "") -> Card:
    name = id or f"{colour}-{number if number is not None else 'joker'}"
    return Card(id=name, colour=colour, number=number, kind=kind, suns=suns)


def ann_face_up(grid: Mapping[int, str], slots: Iterable[int], **deal: Any) -> Given:
    """Ann's grid dealt with these cards (`dealt`'s other arguments in `deal`), these slots of
    it face up, and her turn."""
    return Given(GAME, start=face_up(Given(GAME, dealt({"ann": grid}, **deal)).state, "ann", slots))
