"""Pushed updates carry the game log over a real NATS: each push holds its version's step, the
events redacted for its viewer and their texts, equal to that viewer's replay of the step."""

import asyncio
import random
import uuid

import pytest

from services.cli import missed_steps
from services.client import Client, play_with_bots
from shared.messages import subjects
from tests.platform.stack import stack

# highcard: table events said alike, its own per viewer; Naishi: some alike, some not;
# Diced Tomatoes: every event alike (the steps encoded once for all viewers)
GAMES = {"highcard": ["b1", "b2", "b3"], "naishi": ["b1", "b2"], "diced_tomatoes": ["b1", "b2"]}


@pytest.fixture(scope="module")  # no test here starts or stops a service of its own
async def services(nats_url):
    workers = [f"worker:{game}" for game in GAMES]
    async with stack(nats_url, *workers, "table-projector", "history-projector") as s:
        yield s


@pytest.mark.parametrize("game", GAMES)
async def test_every_push_carries_its_step_as_the_replay_gives_it(bus, services, game):
    client, table = Client(bus), f"t{uuid.uuid4().hex[:12]}"
    bots = GAMES[game]
    viewers = (*bots, subjects.SPECTATOR)
    pushed: dict[str, list[dict]] = {viewer: [] for viewer in viewers}
    subscribed = {viewer: asyncio.Event() for viewer in viewers}
    ended = {viewer: asyncio.Event() for viewer in viewers}

    async def record(viewer):
        async for update in client.updates(game, table, viewer, subscribed=subscribed[viewer]):
            pushed[viewer].append(update)
            if update["view"]["status"] == "ended":
                ended[viewer].set()

    recorders = [asyncio.create_task(record(v)) for v in viewers]
    await asyncio.gather(*(e.wait() for e in subscribed.values()))
    final = await play_with_bots(client, game, table, bots, random.Random(5))
    await asyncio.wait_for(asyncio.gather(*(e.wait() for e in ended.values())), 30)
    for task in recorders:
        task.cancel()

    for viewer in viewers:
        replay = {s["version"]: s for s in await client.replay(game, table, viewer)}
        assert sorted(replay) == list(range(1, final["version"] + 1))
        stepped = []
        for update in pushed[viewer]:
            # a push holds the steps since the viewer's previous one, its own version last
            # (several when the projector coalesced a batch of the table's commands)
            assert update["steps"] and update["steps"][-1]["version"] == update["version"]
            for step in update["steps"]:
                assert step == {k: v for k, v in replay[step["version"]].items() if k != "view"}
                assert step["log"] and all(isinstance(t, str) and t for t in step["log"])
                stepped.append(step["version"])
        assert stepped == sorted(set(stepped))  # no step twice, in order
        if viewer == subjects.SPECTATOR:  # the spectator is told every version
            assert stepped == sorted(replay)
    assert pushed[subjects.SPECTATOR][-1]["steps"][-1]["log"][-2].startswith("Game over: ")


async def test_a_seat_reads_its_own_secret_and_the_others_do_not(bus, services):
    """High Card: a chosen card is named to its player only, until the trick reveals it."""
    client, table = Client(bus), f"t{uuid.uuid4().hex[:12]}"
    for player, command in (
        ("ann", {"type": "create", "seats": 2, "options": {"hand_size": 1}}),
        ("bob", {"type": "join"}),
        ("ann", {"type": "start"}),
    ):
        assert (await client.command("highcard", table, player, command))["ok"]
    card = (await client.wait_view("highcard", table, "ann", 3))["view"]["hand"][0]
    viewers = ("ann", "bob", subjects.SPECTATOR)
    subscribed = {v: asyncio.Event() for v in viewers}
    updates = {v: client.updates("highcard", table, v, subscribed=subscribed[v]) for v in viewers}

    async def log_of_version_4(viewer):
        async for update in updates[viewer]:  # the push of version 3 may come first
            for step in update["steps"]:
                if step["version"] == 4:
                    return step["log"]

    played = {v: asyncio.create_task(log_of_version_4(v)) for v in viewers}
    await asyncio.gather(*(e.wait() for e in subscribed.values()))
    assert (await client.command("highcard", table, "ann", {"type": "play_card", "card": card}))["ok"]
    said = {v: await asyncio.wait_for(task, 10) for v, task in played.items()}
    assert said["ann"] == [f"ann chose the {card}"]
    assert said["bob"] == said[subjects.SPECTATOR] == ["ann chose a card"]
    for updates_of in updates.values():
        await updates_of.aclose()


async def test_watch_fills_a_gap_in_the_pushes_from_the_replay(bus, services):
    client, table = Client(bus), f"t{uuid.uuid4().hex[:12]}"
    final = await play_with_bots(client, "highcard", table, ["b1", "b2"], random.Random(2))
    steps = await client.replay("highcard", table, "b1")
    last = {k: v for k, v in steps[-1].items() if k != "view"}
    pushed = {"version": final["version"], "view": steps[-1]["view"], "steps": [last]}
    # pushes up to version 2 seen, the rest lost: the gap comes from the replay
    filled = await missed_steps(client, "highcard", table, "b1", 2, pushed)
    assert [s["version"] for s in filled] == list(range(3, final["version"] + 1))
    # (a replay page's last step carries the view: steps are compared without it)
    assert [_without_view(s) for s in filled[:-1]] == [_without_view(s) for s in steps[2:-1]]
    assert filled[-1] == last
    # no gap: the push's own steps only
    assert await missed_steps(client, "highcard", table, "b1", final["version"] - 1, pushed) == [last]


def _without_view(step):
    return {k: v for k, v in step.items() if k != "view"}
