"""`Background` holds the tasks a service leaves running until they end, counts them, and
waits for them on a stop."""

import asyncio
import gc

from shared.background import Background


async def test_a_task_left_running_is_held_until_it_ends_then_forgotten():
    running = Background()
    release, done = asyncio.Event(), []

    async def work() -> None:
        await release.wait()
        done.append(True)

    running.start(work())  # no reference kept here: only `running` holds it
    gc.collect()
    assert len(running) == 1
    await running.finish(timeout=0.01)  # not done yet: finish gives up after its timeout
    assert len(running) == 1 and not done
    release.set()
    await running.finish(timeout=5)
    assert done == [True] and len(running) == 0


async def test_finishing_with_nothing_running_returns_at_once():
    running = Background()
    await asyncio.wait_for(running.finish(timeout=60), 1)
