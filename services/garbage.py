"""The cyclic garbage collector in the processes that hold tables (a game's worker, the table
projector). What they hold grows with the tables they keep (folded states, caches, the lobby)
and makes no cycles worth looking for: measured at 20,000 held tables, their collections found
nothing to free, yet each walked what the process held, pauses of 15-200 ms on a command's way
(docs/performance.md). So the collector does not run on its own there: every `FULL_EVERY`
seconds it collects everything once, so that the rare cycle that dies (an asyncio future that
held an exception, say) is freed and memory stays bounded. Objects without cycles, nearly all,
are freed by their reference counts as always."""

from __future__ import annotations

import asyncio
import gc
from collections.abc import Callable

FULL_EVERY = 600.0  # seconds between collections of everything the process holds


def collect_on_a_schedule(every: float = FULL_EVERY) -> Callable[[], None]:
    """From now on, in this process, the collector runs every `every` seconds over all of it
    and never on its own. Called in the running event loop, which the collections interrupt.
    Returns what undoes it (for a process that goes on to other things, a test's)."""
    loop = asyncio.get_running_loop()
    timer: list[asyncio.TimerHandle] = []

    def collect() -> None:
        gc.collect()
        timer[:] = [loop.call_later(every, collect)]

    def undo() -> None:
        for handle in timer:
            handle.cancel()
        gc.unfreeze()
        gc.enable()

    gc.disable()
    gc.freeze()  # what it holds at its start (the code, the games): never walked
    timer.append(loop.call_later(every, collect))
    return undo
