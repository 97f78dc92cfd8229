"""A worker replica's partition keeper over a real NATS: while replicas come, flap and go, each
partition is subscribed once, and a replica whose neighbour dies takes its partitions, even
after beats that failed."""

import asyncio
import uuid

from services.game_worker.app import HEARTBEAT, SILENCE, Partitions
from shared.messages import subjects
from tests.waiting import until


def ignore(message) -> None:
    pass


def partition_subscriptions(bus, game: str) -> list[str]:
    """The partition subscriptions the connection holds, by subject (a lost one included)."""
    prefix = subjects.cmd_partition(game, 0).rsplit(".", 3)[0] + "."
    return [s.subject for s in bus.nc._subs.values() if s.subject.startswith(prefix)]


async def test_replicas_that_come_and_go_share_every_partition_once(bus, nats_url):
    game = f"g{uuid.uuid4().hex[:8]}"
    stop, stop_b = asyncio.Event(), asyncio.Event()
    a, b = Partitions(bus, game, ignore), Partitions(bus, game, ignore)
    keeping = [asyncio.create_task(a.run(stop)), asyncio.create_task(b.run(stop_b))]
    for i in range(60):  # a third replica flapping: every word makes both settle at once
        word = "alive" if i % 2 == 0 else "leaving"
        await bus.publish(subjects.workers(game), f"flapper {word}".encode())
        await asyncio.sleep(0.005)

    def shared_once() -> bool:
        """Each partition owned by one keeper, and subscribed once: none twice, none left
        behind unknown to its keeper (one still draining is gone once its drain ends)."""
        owned = [set(a.subscriptions), set(b.subscriptions)]
        return (
            not owned[0] & owned[1]
            and owned[0] | owned[1] == set(range(subjects.CMD_PARTITIONS))
            and len(partition_subscriptions(bus, game)) == subjects.CMD_PARTITIONS
        )

    await until(shared_once, timeout=SILENCE + 30)
    stop_b.set()  # b dies without a word: a takes its partitions once b is silent
    await keeping[1]
    for p in list(b.subscriptions):
        await b.subscriptions.pop(p).unsubscribe()
    await until(
        lambda: (
            set(a.subscriptions) == set(range(subjects.CMD_PARTITIONS))
            and len(partition_subscriptions(bus, game)) == subjects.CMD_PARTITIONS
        ),
        timeout=SILENCE + 30,
    )
    stop.set()
    await keeping[0]
    await a.leave()


async def test_a_keeper_goes_on_after_beats_that_fail(bus, monkeypatch):
    game = f"g{uuid.uuid4().hex[:8]}"
    keeper = Partitions(bus, game, ignore)
    failures = 5
    take = bus.take

    async def failing_take(subject, start, *, queue=""):
        nonlocal failures
        if failures:
            failures -= 1
            raise TimeoutError("the server is away")
        return await take(subject, start, queue=queue)

    monkeypatch.setattr(bus, "take", failing_take)
    stop = asyncio.Event()
    keeping = asyncio.create_task(keeper.run(stop))
    await until(lambda: len(keeper.subscriptions) == subjects.CMD_PARTITIONS, timeout=30 * HEARTBEAT + 30)
    assert failures == 0 and not keeping.done()
    stop.set()
    await keeping
    await keeper.leave()
