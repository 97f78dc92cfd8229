"""The processes that hold tables collect cyclic garbage on a schedule, never on their own
(services/garbage.py): their collections walked every held table and found nothing."""

from __future__ import annotations

import asyncio
import gc
import weakref

from services import compose
from services.garbage import collect_on_a_schedule


class Node:
    def __init__(self) -> None:
        self.me = self  # a cycle: only a collection frees it


async def test_garbage_is_collected_on_the_schedule_and_never_on_its_own():
    collections: list[int] = []
    scheduled = asyncio.Event()

    def seen(phase: str, info: dict) -> None:
        if phase == "stop":
            collections.append(info["generation"])
            if info["generation"] == 2:
                scheduled.set()

    undo = collect_on_a_schedule(every=0.3)
    gc.callbacks.append(seen)
    try:
        assert not gc.isenabled()
        node = Node()
        dead = weakref.ref(node)
        del node
        held: list[list[int]] = [[] for _ in range(50_000)]  # what would make it run on its own
        del held
        assert dead() is not None and collections == []
        await asyncio.wait_for(scheduled.wait(), 30)
        assert dead() is None
    finally:
        gc.callbacks.remove(seen)
        undo()
    assert gc.isenabled()


def test_the_services_that_hold_tables_are_the_ones_scheduled():
    held = {s.name for s in (compose.worker("highcard"), compose.table_projector()) if s.holds_tables}
    assert held == {"worker-highcard", "table-projector"}
    assert not compose.history_projector().holds_tables
