"""Views, lobby and replays over a real NATS: exact after restarts, equal to a rebuild, and
never showing a viewer what it may not see."""

import asyncio
import random
import uuid

import msgspec
import pytest

from services.client import Client, RequestFailed, play_with_bots
from services.registry import get
from services.table_projector import maintenance
from shared.messages import subjects
from shared.messages.envelopes import normalize
from shared.messages.folding import decode_batch, empty
from tests.conftest import assert_replay_equals_live
from tests.platform.stack import stack
from tests.platform.test_views_exact import until_exact

HIGHCARD = get("highcard")


def table_id() -> str:
    return f"t{uuid.uuid4().hex[:12]}"


@pytest.fixture
async def services(nats_url):
    async with stack(nats_url, "worker:highcard", "table-projector", "history-projector") as s:
        yield s


async def folded_from_log(bus, table):
    folded = empty(HIGHCARD)
    for m in await bus.events.read("highcard", table):
        folded = folded.then(HIGHCARD, m.seq, decode_batch(HIGHCARD, m.data))
    return folded


async def test_views_follow_every_command_and_are_pushed(bus, services):
    client, table = Client(bus), table_id()
    subscribed = asyncio.Event()
    updates = client.updates("highcard", table, subjects.SPECTATOR, subscribed=subscribed)
    first = asyncio.ensure_future(anext(updates))
    await subscribed.wait()
    await client.command("highcard", table, "ann", {"type": "create"})
    pushed = await asyncio.wait_for(first, 5)
    assert pushed["version"] == 1 and pushed["view"]["status"] == "open"
    assert pushed["view"]["seats"] == ["ann"]
    await updates.aclose()
    view = await client.wait_view("highcard", table, "ann", 1)
    assert "legal" not in view["view"]  # alone at the table: nothing to do yet


async def test_an_unknown_table_has_no_view(bus, services):
    with pytest.raises(RequestFailed) as caught:
        await Client(bus).view("highcard", table_id())
    assert caught.value.code == "unknown_table"


async def test_the_lobby_lists_open_and_running_tables_only(bus, services):
    client = Client(bus)
    open_table, done_table = table_id(), table_id()
    await client.command("highcard", open_table, "ann", {"type": "create", "seats": 3})
    await play_with_bots(client, "highcard", done_table, ["b1", "b2"], random.Random(1))
    await client.wait_view("highcard", open_table, subjects.SPECTATOR, 1)
    tables = {t["table"]: t for t in (await client.lobby("highcard"))["tables"]}
    assert tables[open_table]["status"] == "open" and tables[open_table]["seats"] == ["ann"]
    assert tables[open_table]["seat_count"] == 3
    assert done_table not in tables
    with pytest.raises(RequestFailed):
        await client.lobby("no_such_game")


async def test_every_replay_step_equals_the_live_view_at_that_version(bus, services):
    client, table = Client(bus), table_id()
    live: dict[str, dict[int, dict]] = {"b1": {}, "b2": {}, subjects.SPECTATOR: {}}

    subscribed = {viewer: asyncio.Event() for viewer in live}
    ended = {viewer: asyncio.Event() for viewer in live}

    async def record(viewer):
        async for update in client.updates("highcard", table, viewer, subscribed=subscribed[viewer]):
            live[viewer][update["version"]] = update["view"]
            if update["view"]["status"] == "ended":
                ended[viewer].set()

    recorders = [asyncio.create_task(record(v)) for v in live]
    await asyncio.gather(*(e.wait() for e in subscribed.values()))
    final = await play_with_bots(client, "highcard", table, ["b1", "b2"], random.Random(7))
    await asyncio.wait_for(asyncio.gather(*(e.wait() for e in ended.values())), 30)
    for task in recorders:
        task.cancel()
    for viewer in live:
        steps = await client.replay("highcard", table, viewer, views="every")
        assert [s["version"] for s in steps] == list(range(1, final["version"] + 1))
        assert_replay_equals_live(steps, live, viewer)
        assert steps[-1]["view"] == normalize((await client.view("highcard", table, viewer))["view"])
    partial = await client.replay("highcard", table, "b1", first=3, last=5)
    assert [s["version"] for s in partial] == [3, 4, 5]


async def test_replays_hide_what_the_viewer_may_not_see(bus, services):
    client, table = Client(bus), table_id()
    await play_with_bots(client, "highcard", table, ["b1", "b2", "b3"], random.Random(3))
    for viewer in ("b1", subjects.SPECTATOR):
        for step in await client.replay("highcard", table, viewer):
            for event in step["events"]:
                if event["type"] == "hands_dealt":
                    assert all(not h for p, h in event["hands"].items() if p != viewer)
                if event["type"] in ("card_chosen", "card_drawn") and event["player"] != viewer:
                    assert event["card"] is None


@pytest.mark.parametrize("seed", range(8))
async def test_seat_and_spectator_views_never_hold_another_seats_cards(bus, services, seed):
    client, table = Client(bus), table_id()
    rng = random.Random(seed)
    bots = [f"b{i}" for i in range(rng.randint(2, 5))]
    checked = 0

    subscribed = {viewer: asyncio.Event() for viewer in (*bots, subjects.SPECTATOR)}
    ended = {viewer: asyncio.Event() for viewer in subscribed}

    async def check(viewer):
        nonlocal checked
        async for update in client.updates("highcard", table, viewer, subscribed=subscribed[viewer]):
            view = update["view"]
            state = (await folded_at(bus, table, update["version"])).state
            if state.game is None:
                continue
            mine = set(state.game.hands.get(viewer, ()))
            others = {c for p, h in state.game.hands.items() if p != viewer for c in h}
            assert set(view.get("hand") or ()) == (mine if viewer != subjects.SPECTATOR else set())
            assert not set(view.get("hand") or ()) & others
            assert view["my_choice"] in (None, state.game.chosen.get(viewer))
            checked += 1
            if view["status"] == "ended":  # checked to the last view
                ended[viewer].set()

    watchers = [asyncio.create_task(check(v)) for v in subscribed]
    await asyncio.gather(*(e.wait() for e in subscribed.values()))
    await play_with_bots(client, "highcard", table, bots, rng, options={"hand_size": rng.randint(1, 4)})
    await asyncio.wait_for(asyncio.gather(*(e.wait() for e in ended.values())), 30)
    for task in watchers:
        task.cancel()
        try:
            await task
        except asyncio.CancelledError:
            pass
    assert checked > len(bots)


async def folded_at(bus, table, version):
    folded = empty(HIGHCARD)
    for m in await bus.events.read("highcard", table):
        if folded.version == version:
            break
        folded = folded.then(HIGHCARD, m.seq, decode_batch(HIGHCARD, m.data))
    return folded


async def all_views(bus, tables):
    """The views of these tables (other tests share the bucket)."""
    return {
        k: msgspec.json.decode(v)
        for k, v in (await bus.view_entries("views.>")).items()
        if k.split(".")[2] in tables
    }


async def test_a_restarted_projector_ends_equal_to_a_fresh_rebuild(bus, nats_url):
    client = Client(bus, timeout=20)
    async with stack(nats_url, "worker:highcard", "table-projector") as s:
        tables = [table_id() for _ in range(6)]
        games = [
            asyncio.create_task(play_with_bots(client, "highcard", t, ["x", "y", "z"], random.Random(i)))
            for i, t in enumerate(tables[:3])
        ]
        await client.wait_view("highcard", tables[0], subjects.SPECTATOR, 3)
        await s.stop("table-projector")  # in the middle of the stream
        for t in tables[3:]:  # commands keep coming while it is down
            await client.command("highcard", t, "x", {"type": "create"})
            await client.command("highcard", t, "y", {"type": "join"})
        await s.start("table-projector")
        await asyncio.gather(*games)
        for t in tables[3:]:
            await client.wait_view("highcard", t, subjects.SPECTATOR, 2)
        await until_exact(bus, tables)  # the restarted projector caught up with the log
        restarted = await all_views(bus, tables)
    _, read = await maintenance.rebuild_views(bus)
    assert read >= sum([len(await bus.events.read("highcard", t)) for t in tables])
    rebuilt = await all_views(bus, tables)
    assert rebuilt.keys() == restarted.keys()
    assert rebuilt == restarted
    for t in tables:
        folded = await folded_from_log(bus, t)
        spectator = rebuilt[subjects.views_key("highcard", t)]["views"][subjects.SPECTATOR]
        assert spectator["version"] == folded.version
        assert spectator["view"] == normalize(HIGHCARD.player_view(folded.state, None))
    # the projectors go on after the rebuild: with what comes next, and exact
    async with stack(nats_url, "worker:highcard", "table-projector"):
        assert (await client.command("highcard", tables[3], "z", {"type": "join"}))["ok"]
        await client.wait_view("highcard", tables[3], "z", 3)
        await until_exact(bus, tables)


async def test_a_player_who_left_sees_what_a_spectator_sees(bus, services):
    client, table = Client(bus), table_id()
    await client.command("highcard", table, "ann", {"type": "create"})
    await client.command("highcard", table, "bob", {"type": "join"})
    await client.wait_view("highcard", table, "bob", 2)
    await client.command("highcard", table, "bob", {"type": "leave"})
    await client.wait_view("highcard", table, subjects.SPECTATOR, 3)
    assert (await client.view("highcard", table, "bob"))["view"]["seats"] == ["ann"]


async def test_a_table_whose_views_fail_does_not_stop_the_others(bus, nats_url):
    from structlog.testing import capture_logs

    async with stack(nats_url, "worker:highcard", "worker:crashy", "table-projector"):
        client, broken, fine = Client(bus), table_id(), table_id()
        with capture_logs() as logs:
            for i, player in enumerate(("a", "b", "c", "d")):
                await client.command("crashy", broken, player, {"type": "create" if i == 0 else "join"})
            assert (await client.command("crashy", broken, "a", {"type": "start"}))["ok"]
            await client.command("highcard", fine, "ann", {"type": "create"})
            view = await client.wait_view("highcard", fine, "ann", 1)
            assert view["view"]["seats"] == ["ann"]
            # the two tables' partitions are projected side by side: the failure may come later
            deadline = asyncio.get_running_loop().time() + 30
            while not any(e["event"] == "projection_failed" and e["table"] == broken for e in logs):
                assert asyncio.get_running_loop().time() < deadline, "the failure was never logged"
                await asyncio.sleep(0.05)
        # its views up to the failure are stored apart from it: waited for (`not_ready` until then)
        stuck = await client.wait_view("crashy", broken, "spectator", 1)
        assert stuck["version"] <= 4 and stuck["view"]["status"] == "open"  # its last good view


async def test_a_table_whose_views_fail_in_one_batch_with_its_good_steps_shows_the_last_good_one(
    bus, nats_url
):
    """The failing step and the good ones before it folded in one batch (the projector starts
    after they are all in the log): the last good view is stored, not none."""
    async with stack(nats_url, "worker:crashy"):
        client, broken = Client(bus), table_id()
        for i, player in enumerate(("a", "b", "c", "d")):
            await client.command("crashy", broken, player, {"type": "create" if i == 0 else "join"})
        assert (await client.command("crashy", broken, "a", {"type": "start"}))["ok"]
    async with stack(nats_url, "table-projector"):
        stuck = await client.wait_view("crashy", broken, "spectator", 4)
        assert stuck["version"] == 4 and stuck["view"]["status"] == "open"


async def test_a_replay_that_fails_is_answered_and_the_service_goes_on(bus, nats_url):
    async with stack(nats_url, "worker:crashy", "worker:highcard", "history-projector"):
        client, broken, fine = Client(bus), table_id(), table_id()
        for i, player in enumerate(("a", "b", "c", "d")):
            await client.command("crashy", broken, player, {"type": "create" if i == 0 else "join"})
        await client.command("crashy", broken, "a", {"type": "start"})
        with pytest.raises(RequestFailed) as caught:
            await client.replay("crashy", broken, "a")
        assert caught.value.code == "internal_error"
        await client.command("highcard", fine, "ann", {"type": "create"})
        assert [s["version"] for s in await client.replay("highcard", fine, "ann")] == [1]


async def test_messages_no_worker_wrote_are_skipped(bus, services):
    await bus.events.append("highcard", table_id(), b"not a batch", command_id="x", expected_seq=0)
    client, table = Client(bus), table_id()
    await client.command("highcard", table, "ann", {"type": "create"})
    assert (await client.wait_view("highcard", table, "ann", 1))["view"]["seats"] == ["ann"]


async def pushes_until(updates, version):
    """The updates pushed until the one at `version`."""
    received = []
    async for update in updates:
        received.append(update)
        if update["version"] >= version:
            return received
    raise AssertionError("the updates stopped")


async def test_updates_written_while_the_projector_was_away_come_as_one_push_with_every_step(bus, nats_url):
    client, table = Client(bus), table_id()
    subscribed = asyncio.Event()
    updates = client.updates("highcard", table, subjects.SPECTATOR, subscribed=subscribed)
    first = asyncio.ensure_future(anext(updates))
    await subscribed.wait()
    async with stack(nats_url, "worker:highcard"):
        for i, player in enumerate(("ann", "bob", "cy")):
            command = {"type": "create", "seats": 4} if i == 0 else {"type": "join"}
            await client.command("highcard", table, player, command)
        await client.command("highcard", table, "bob", {"type": "leave"})
    async with stack(nats_url, "table-projector", "history-projector"):
        pushed = [await asyncio.wait_for(first, 20)]
        if pushed[0]["version"] < 4:  # the projector's batch was cut: the rest come later
            pushed += await asyncio.wait_for(pushes_until(updates, 4), 20)
        replay = await client.replay("highcard", table, subjects.SPECTATOR, views="none")
    await updates.aclose()
    steps = [step for push in pushed for step in push["steps"]]
    assert [s["version"] for s in steps] == [1, 2, 3, 4]
    assert [push["version"] for push in pushed] == [push["steps"][-1]["version"] for push in pushed]
    assert pushed[-1]["view"]["seats"] == ["ann", "cy"]
    assert [{k: s[k] for k in ("version", "player", "at", "events")} for s in steps] == [
        {k: s[k] for k in ("version", "player", "at", "events")} for s in replay
    ]


async def test_every_push_carries_the_steps_since_the_previous_one(bus, services):
    client, table = Client(bus), table_id()
    subscribed, ended = asyncio.Event(), asyncio.Event()
    pushed = []

    async def record():
        async for update in client.updates("highcard", table, "b1", subscribed=subscribed):
            pushed.append(update)
            if update["view"]["status"] == "ended":
                ended.set()

    recorder = asyncio.create_task(record())
    await subscribed.wait()
    final = await play_with_bots(client, "highcard", table, ["b1", "b2"], random.Random(5))
    await asyncio.wait_for(ended.wait(), 30)
    recorder.cancel()
    # b1 created the table, so was seated from version 1: every step reached it, in order and
    # once, however the pushes were cut, each push at the version of its last step
    steps = [step for push in pushed for step in push["steps"]]
    assert [s["version"] for s in steps] == list(range(1, final["version"] + 1))
    assert [push["version"] for push in pushed] == [push["steps"][-1]["version"] for push in pushed]
    replay = await client.replay("highcard", table, "b1", views="none")
    assert all("view" not in s for s in replay)
    assert [s["events"] for s in steps] == [s["events"] for s in replay]


async def test_the_projector_keeps_as_many_tables_folded_as_its_setting_says(bus, nats_url, monkeypatch):
    """`TABLETOP_PROJECTOR_CACHE_SIZE` bounds a shard's folded tables (the others are folded
    again from the log when they move); every table's view is right all the same. A table's
    first version is folded from its message alone, with no read of the log."""
    monkeypatch.setenv("TABLETOP_PROJECTOR_CACHE_SIZE", "3")
    client = Client(bus, timeout=20)

    async def counts():
        return (await maintenance.service_stats(bus))["tabletop-table-projector"][0]["endpoints"][0]["data"]

    async with stack(nats_url, "worker:highcard", "table-projector"):
        tables = [f"t{uuid.uuid4().hex[:12]}" for _ in range(5)]
        for table in tables:
            reply = await client.command("highcard", table, "ann", {"type": "create", "seats": 2})
            assert reply["ok"], reply
            await client.wait_view("highcard", table, "ann", reply["version"])
        assert (await counts()).get("read_from_log", 0) == 0
        for table in tables:  # each moves again, folded anew where it was dropped
            reply = await client.command("highcard", table, "bob", {"type": "join"})
            assert reply["ok"], reply
            seen = await client.wait_view("highcard", table, "bob", reply["version"])
            assert seen["view"]["seats"] == ["ann", "bob"]
        shard = await counts()
        assert shard["cache_size"] == 3 and shard["tables"] <= 3, shard
        # the least recently moved go first: each join found its table dropped
        assert shard["read_from_log"] == len(tables), shard
        await until_exact(bus, tables)
