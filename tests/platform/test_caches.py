"""Caches sized by memory: the bounded cache drops its least recently used entries once their
weight passes its budget, a folded table's weight follows its memory on whole games of every
game, and a worker over a real NATS keeps its folded tables within its budget while every
command is decided on the table as its log has it."""

from __future__ import annotations

import gc
import random
import tracemalloc
import uuid

import msgspec
import pytest

from services.client import new_id
from services.game_worker.handler import CommandHandler
from services.registry import get
from shared.games.simulate import LocalTable
from shared.messages import subjects
from shared.messages.envelopes import encoder
from shared.messages.folding import Applied, Bounded, Folded, fold_log, weigh_folded
from shared.messages.snapshots import read_snapshot, write_snapshot


def test_the_least_recently_used_entries_go_once_the_weight_passes_the_budget():
    dropped: list[str] = []
    cache: Bounded[str, int] = Bounded(
        100, lambda key, value: dropped.append(key), budget=10, weigh=lambda value: value
    )
    cache.put("a", 4)
    cache.put("b", 4)
    assert cache.get("a") == 4  # a used last: b goes first
    cache.put("c", 4)
    assert dropped == ["b"] and list(cache) == ["a", "c"] and cache.weight == 8
    cache.put("a", 1)  # weighs anew
    assert cache.weight == 5
    assert cache.pop("c") == 4 and cache.weight == 1 and dropped == ["b"]  # a pop is not a drop
    cache.put("huge", 50)  # alone over the budget: kept, everything else goes
    assert list(cache) == ["huge"] and dropped == ["b", "a"] and cache.weight == 50
    cache.put("d", 1)
    assert list(cache) == ["d"] and cache.weight == 1


def test_a_value_put_unweighed_keeps_the_weight_its_key_had_until_put_weighed():
    weighed: list[int] = []

    def weigh(value: int) -> int:
        weighed.append(value)
        return value

    cache: Bounded[str, int] = Bounded(100, budget=100, weigh=weigh)
    cache.put("a", 5)
    cache.put("a", 9, weighed=False)  # a step within a batch
    cache.put("b", 3, weighed=False)  # new: weighed all the same
    assert cache.get("a") == 9 and cache.weight == 8 and weighed == [5, 3]
    cache.put("a", 9)  # the batch's last step
    assert cache.weight == 12 and weighed == [5, 3, 9]


def test_the_count_still_bounds_a_cache_without_a_budget():
    cache: Bounded[int, int] = Bounded(3)
    for i in range(10):
        cache.put(i, i)
    assert list(cache) == [7, 8, 9] and cache.weight == 0


def memory_of(decider, folded: Folded) -> int:
    """The bytes a folded table takes, as a fresh copy of it allocates them."""
    data = write_snapshot(folded, game=decider.name, table="t", rules="r")
    gc.collect()
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        copy = read_snapshot(decider, data, game=decider.name, table="t", rules="r")
        taken = tracemalloc.get_traced_memory()[0] - before
    finally:
        tracemalloc.stop()
    assert copy is not None
    return taken


@pytest.mark.parametrize("game", ["naishi", "dozito", "diced_tomatoes", "decrypto", "illustori"])
def test_a_folded_tables_weight_follows_its_memory_over_whole_games(game):
    """Within a factor of two of what the table takes, all game long."""
    decider = get(game)
    rng = random.Random(f"weights:{game}")
    local = LocalTable(decider, rng)
    local.seat([f"p{i}" for i in range(1, decider.game.min_players + 1)])
    ids: dict[str, Applied] = {}
    ratios = []
    while local.table.status == "running":
        actor = rng.choice(list(decider.players_to_act(local.table)))
        view = decider.player_view(local.table, actor)
        legal = [c for c in view.get("legal", []) if c.get("type") != "undo"]
        local.run(
            actor, msgspec.convert(decider.game.bot({**view, "legal": legal}, rng), decider.command_type)
        )
        ids[uuid.uuid4().hex] = Applied(len(ids) + 1, actor, "0123456789abcdef")
        folded = Folded(state=local.table, version=len(ids), last_seq=len(ids), command_ids=ids)
        if len(ids) % 3 == 0:
            ratios.append(weigh_folded(folded) / memory_of(decider, folded))
    assert ratios and all(0.5 <= r <= 2.0 for r in ratios), [round(r, 2) for r in ratios]


async def test_a_worker_keeps_its_tables_within_its_memory_budget(bus):
    """Forty tables through a worker that may hold about a quarter of them: its cache never
    weighs more than its budget, tables come and go, and each command is decided on the table
    as its log has it (the log's fold holds every seat taken)."""
    decider = get("highcard")
    sizes = []
    probe: Bounded[str, Folded] = Bounded(100, weigh=weigh_folded)
    handler = CommandHandler(decider, bus.events, cache_bytes=1)  # sized below, once weighed
    tables = [f"m{uuid.uuid4().hex[:12]}" for _ in range(40)]

    async def send(table: str, player: str, command: dict) -> None:
        body = encoder.encode({"id": new_id(), **command})
        reply = await handler.handle(subjects.cmd("highcard", table, player), body)
        assert reply.error is None, reply

    for table in tables[:4]:  # what ten tables weigh, from four
        await send(table, "ann", {"type": "create", "seats": 4})
        probe.put(table, await fold_log(bus.events, decider, "highcard", table))
    handler.cache.budget = probe.weight * 10 // 4
    for round_ in range(3):
        for table in tables:
            if round_ == 0 and table in tables[:4]:
                continue
            if round_ == 0:
                await send(table, "ann", {"type": "create", "seats": 4})
            else:
                await send(table, f"p{round_}", {"type": "join"})
            sizes.append(len(handler.cache))
            assert handler.cache.weight <= handler.cache.budget
    assert max(sizes) < len(tables) and min(sizes[10:]) >= 5, sizes
    for table in tables:
        folded = await fold_log(bus.events, decider, "highcard", table)
        assert folded.state.players == ("ann", "p1", "p2"), table
