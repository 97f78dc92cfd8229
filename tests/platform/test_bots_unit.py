"""The bot service's choice of when to move, with its moves recorded instead of sent (the same
service plays whole games over a real NATS in test_clocks.py): one move at a time per table,
and no push dropped because it came while a move was under way."""

import asyncio
import random
from collections.abc import Awaitable, Callable

from services.bots.service import Bots


class RecordingBots(Bots):
    """Bots whose moves are recorded; `during_move` runs inside the first move, as a push
    arriving before the move's reply."""

    def __init__(self) -> None:
        super().__init__(bus=None, deciders={}, rng=random.Random(1))  # type: ignore[arg-type]
        self.moves: list[tuple[str, int, list[str]]] = []
        self.during_move: Callable[[], Awaitable[None]] | None = None

    async def _move(self, game, table, version, seats):
        self.moves.append((table, version, seats))
        if self.during_move is not None:
            during, self.during_move = self.during_move, None
            await during()


def view(*to_act: str, zombies=("bob",), status="running") -> dict:
    return {"status": status, "to_act": list(to_act), "zombies": list(zombies), "bots": []}


async def test_a_push_that_comes_during_a_move_is_acted_on_after_it():
    bots = RecordingBots()

    async def next_push_before_the_reply():
        await bots.act("g", "t", 4, view("bob"))  # the table moved on: bob acts again
        await bots.act("g", "t", 3, view("bob"))  # an older push, late: not acted on

    bots.during_move = next_push_before_the_reply
    await bots.act("g", "t", 2, view("bob"))
    assert bots.moves == [("t", 2, ["bob"]), ("t", 4, ["bob"])]
    assert not bots.moving and not bots.newer


async def test_only_the_newest_push_seen_during_a_move_is_acted_on():
    bots = RecordingBots()

    async def three_pushes():
        for version in (3, 5, 4):
            await bots.act("g", "t", version, view("bob"))

    bots.during_move = three_pushes
    await bots.act("g", "t", 2, view("bob"))
    assert bots.moves == [("t", 2, ["bob"]), ("t", 5, ["bob"])]


async def test_tables_move_side_by_side_and_humans_are_left_alone():
    bots = RecordingBots()
    other_table = asyncio.Event()

    async def other():
        await bots.act("g", "u", 7, view("bob"))  # another table: not held up
        await bots.act("g", "t", 3, view("ann"))  # a human's turn: nothing to play
        other_table.set()

    bots.during_move = other
    await bots.act("g", "t", 2, view("bob"))
    assert other_table.is_set()
    assert bots.moves == [("t", 2, ["bob"]), ("u", 7, ["bob"])]
    await bots.act("g", "t", 9, view("bob", status="ended"))
    assert len(bots.moves) == 2
