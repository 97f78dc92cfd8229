"""Clocks, deadlines, quitting and bots over a real nats-server: the deadline is a JetStream
scheduled message the worker decides, the bot service plays zombie and bot seats through the
bus. Clocks are short (custom, 1-2 s); every wait waits for a signal (a view version, a
consumer's count), never a fixed time."""

from __future__ import annotations

import asyncio
import random
import uuid
from typing import Any

import msgspec
import pytest

from services.client import Client, play_with_bots
from services.game_worker.app import deadlines_durable
from services.game_worker.handler import CommandHandler
from services.registry import games, get
from services.table_projector import maintenance
from shared.bus.connection import Bus
from shared.games.clock import later
from shared.games.table import SERVICE_PLAYER
from shared.messages import subjects
from shared.messages.envelopes import encoder
from tests.conftest import assert_replay_equals_live
from tests.platform.stack import stack
from tests.processes import Services

GAME = "highcard"
CLOCK = {"clock": "custom", "clock_bank": 1.5, "clock_increment": 1}


def table_id() -> str:
    return f"clk{uuid.uuid4().hex[:12]}"


async def log_of(bus: Bus, game: str, table: str) -> list[dict[str, Any]]:
    return [msgspec.json.decode(m.data) for m in await bus.events.read(game, table)]


def events_of(log: list[dict[str, Any]], kind: str) -> list[dict[str, Any]]:
    return [e for batch in log for e in batch["events"] if e["type"] == kind]


async def until_view(
    client: Client, game: str, table: str, test, viewer: str = "spectator", timeout: float = 30.0
) -> dict[str, Any]:
    """The first view (reply) of `viewer` for which `test(view)` holds, looking again at each
    new version."""
    version = 0
    deadline = asyncio.get_running_loop().time() + timeout
    while True:
        reply = await client.wait_view(
            game, table, viewer, version + 1, timeout=max(0.1, deadline - asyncio.get_running_loop().time())
        )
        if test(reply["view"]):
            return reply
        version = reply["version"]


async def command(client: Client, game: str, table: str, player: str, body: dict[str, Any]):
    reply = await client.command(game, table, player, body)
    assert reply["ok"], reply
    return reply["version"]


async def play_to_the_end(client: Client, table: str, seat: str, version: int) -> dict[str, Any]:
    """`seat` plays the first card of its hand whenever it must act (other seats are the bots'),
    until the game ends; the final spectator view reply."""
    own = await client.wait_view(GAME, table, seat, version)
    while own["view"]["status"] != "ended":
        if "legal" in own["view"]:
            card = own["view"]["hand"][0]
            reply = await client.command(
                GAME, table, seat, {"type": "play_card", "card": card, "expect": own["version"]}
            )
            assert reply["ok"] or reply["error"]["code"] == "stale_version", reply
        own = await client.wait_view(GAME, table, seat, own["version"] + 1)
    return await client.wait_view(GAME, table, "spectator", own["version"])


async def test_a_move_one_millisecond_before_the_deadline_wins_over_the_timer(bus):
    """Times are the worker's `at` stamps: a handler with a clock of its own, over the real log.
    The deadline message for the version before the move comes after it: `stale_version`."""
    t0 = "2026-01-01T00:00:00.000Z"
    now = [t0]
    handler = CommandHandler(get(GAME), bus.events, clock=lambda: now[0])
    table = table_id()

    async def send(player: str, body: dict[str, Any]) -> Any:
        reply = await handler.handle(
            subjects.cmd(GAME, table, player), encoder.encode({"id": uuid.uuid4().hex, **body})
        )
        return reply

    await send("ann", {"type": "create", "options": {**CLOCK, "clock_bank": 2}, "seats": 2})
    await send("bob", {"type": "join"})
    assert (await send("ann", {"type": "start"})).version == 3
    hand = (await handler._load(table)).state.game.hands["ann"]
    now[0] = later(t0, 1999)
    assert (await send("ann", {"type": "play_card", "card": hand[0]})).version == 4
    now[0] = later(t0, 2000)
    late = await send(SERVICE_PLAYER, {"type": "deadline", "expect": 3})
    assert late.error is not None and late.error.code == "stale_version"
    refused = await send("bob", {"type": "play_card", "card": 99, "expect": 4})
    assert refused.error is not None and refused.error.code == "out_of_time"
    assert (await send(SERVICE_PLAYER, {"type": "deadline", "expect": 4})).version == 5
    log = await log_of(bus, GAME, table)
    assert [e["player"] for e in events_of(log, "card_chosen")] == ["ann"]
    assert [e["player"] for e in events_of(log, "clock_expired")] == ["bob"]
    assert log[-1]["events"][-1] == {"type": "seat_zombied", "player": "bob", "reason": "timed_out"}


@pytest.fixture
def service_processes(nats_url, tmp_path):
    services = Services({"NATS_URL": nats_url}, tmp_path / "logs")
    yield services
    services.stop_all()


async def due_deadlines(bus: Bus, game: str) -> int:
    """Deadlines delivered to the game's workers and not yet handled."""
    info = await bus.js.consumer_info(subjects.TIMERS_STREAM, deadlines_durable(game))
    return (info.num_pending or 0) + (info.num_ack_pending or 0)


async def test_a_clock_running_out_makes_the_zombie_move_exactly_once(
    bus,
    nats_url,
    service_processes,
):
    """The worker is killed before the deadline and started again after it came; the same
    deadline is then delivered a second time: one expiry, one zombie, one bot move. The replay
    shows every view, remaining times included, as the live table showed it."""
    worker = service_processes.start("worker", GAME)
    await service_processes.wait_serving(bus)
    client = Client(bus, timeout=2, attempts=30)
    table = table_id()
    live: dict[str, dict[int, dict[str, Any]]] = {"spectator": {}}

    async def record(message) -> None:
        update = msgspec.json.decode(message.data)
        live["spectator"][update["version"]] = update["view"]

    recorder = await bus.subscribe(subjects.update(GAME, table, "spectator"), record)
    async with stack(nats_url, "table-projector", "history-projector", "bots"):
        await command(
            client, GAME, table, "ann", {"type": "create", "options": {**CLOCK, "hand_size": 2}, "seats": 2}
        )
        await command(client, GAME, table, "bob", {"type": "join"})
        await command(client, GAME, table, "ann", {"type": "start"})
        hand = (await client.wait_view(GAME, table, "ann", 3))["view"]["hand"]
        version = await command(
            client, GAME, table, "ann", {"type": "play_card", "card": hand[0], "expect": 3}
        )
        service_processes.kill(worker.label)  # before bob's deadline (1.5 s after the start)
        while not await due_deadlines(bus, GAME):  # the deadline came; no worker to decide it
            await asyncio.sleep(0.05)
        service_processes.start("worker", GAME)
        # bob's seat a zombie, and the bot played its card: the first trick was taken
        zombie = await until_view(
            client, GAME, table, lambda v: v.get("zombies") == ["bob"] and sum(v["tricks"].values()) >= 1
        )
        # the same deadline delivered again: refused, nothing changes
        await bus.js.publish(
            subjects.deadline_due(GAME, table),
            encoder.encode({"version": version}),
            stream=subjects.TIMERS_STREAM,
        )
        while await due_deadlines(bus, GAME):
            await asyncio.sleep(0.05)
        # ann plays on to the end (the bot plays bob's cards as they come)
        final = await play_to_the_end(client, table, "ann", zombie["version"])
        log = await log_of(bus, GAME, table)
        assert [e["player"] for e in events_of(log, "clock_expired")] == ["bob"]
        assert len(events_of(log, "seat_zombied")) == 1
        bob_moves = [b for b in log if b["player"] == "bots"]
        assert len(bob_moves) == len(events_of(log, "trick_taken"))  # one card per trick
        zombied_at = next(
            b["version"]
            for b in log
            if b["player"] == SERVICE_PLAYER and any(e["type"] == "seat_zombied" for e in b["events"])
        )
        assert bob_moves[0]["version"] == zombied_at + 1  # the zombie moved at once, once
        assert final["view"]["result"]["details"]["timed_out"] == ["bob"]
        while final["version"] not in live["spectator"]:  # the last push
            await asyncio.sleep(0.05)
        await recorder.unsubscribe()
        steps = await client.replay(GAME, table, "spectator", views="every")
        assert_replay_equals_live(steps, live, "spectator")
        # the remaining times, as they were live, from the log's stamps
        started = next(s for s in steps if s["version"] == 3)["view"]["clock"]
        assert started["remaining_ms"] == {"ann": 1500, "bob": 1500}
        assert final["view"]["clock"] == steps[-1]["view"]["clock"]


async def test_quit_mid_game_hands_the_seat_to_the_bot_and_the_result_names_it(bus, nats_url):
    """Two replicas of the bot service share the table's pushes; the seat is played once per
    move all the same."""
    async with stack(nats_url, f"worker:{GAME}", "table-projector", "history-projector", "bots", "bots#2"):
        client = Client(bus)
        table = table_id()
        playing = asyncio.create_task(
            play_with_bots(
                client,
                GAME,
                table,
                ["ann", "bob", "cat"],
                random.Random(3),
                options={"hand_size": 3},
                silent=["bob"],
            )
        )
        await until_view(client, GAME, table, lambda v: v["status"] == "running")
        await command(client, GAME, table, "bob", {"type": "quit"})
        final = await asyncio.wait_for(playing, 60)
        result = final["view"]["result"]
        assert result["details"]["abandoned_seats"] == ["bob"]
        assert {s["player"] for s in result["ranking"]} == {"ann", "bob", "cat"}
        log = await log_of(bus, GAME, table)
        bob_moves = [b for b in log if b["player"] == "bots"]  # bob's seat, by the bot service
        assert bob_moves
        assert len(bob_moves) <= len(events_of(log, "trick_taken"))  # one card a trick at most
        assert "bob left the game; a bot plays that seat from now on" in [
            line for s in await client.replay(GAME, table, views="none") for line in s["log"]
        ]


async def test_bots_seated_at_creation_play_even_when_their_service_starts_late(bus, nats_url):
    """No bot service runs when the bots' turn comes: the one started later finds the table by
    its sweep of the lobby, and its pushes carry it to the end."""
    client = Client(bus)
    table = table_id()
    async with stack(nats_url, f"worker:{GAME}", "table-projector"):
        await command(
            client, GAME, table, "ann", {"type": "create", "options": {"bots": 2, "hand_size": 2}, "seats": 3}
        )
        version = await command(client, GAME, table, "ann", {"type": "start"})
        hand = (await client.wait_view(GAME, table, "ann", version))["view"]["hand"]
        version = await command(client, GAME, table, "ann", {"type": "play_card", "card": hand[0]})
        waiting = await client.wait_view(GAME, table, "spectator", version)
        assert waiting["view"]["to_act"] == ["robot-1", "robot-2"]
        async with stack(nats_url, "bots"):
            final = await play_to_the_end(client, table, "ann", version)
    assert final["view"]["bots"] == ["robot-1", "robot-2"]
    assert {s["player"] for s in final["view"]["result"]["ranking"]} == {"ann", "robot-1", "robot-2"}
    log = await log_of(bus, GAME, table)
    assert [e["player"] for e in events_of(log, "bot_seated")] == ["robot-1", "robot-2"]
    assert {b["player"] for b in log} == {"ann", "bots"}


async def test_a_table_s_bot_level_plays_its_bot_seats_and_a_zombie_plays_at_normal(bus, nats_url):
    """Naishi with its search bot through the bus: a `hard` bot seat at one table, a seat its
    player quit at another (played at `normal`); the bot service counts its moves by level."""
    async with stack(nats_url, "worker:naishi", "table-projector", "history-projector", "bots"):
        client = Client(bus)
        hard = await asyncio.wait_for(
            play_with_bots(
                client,
                "naishi",
                table_id(),
                ["ann"],
                random.Random(4),
                options={"bots": 1, "bot_level": "hard"},
            ),
            120,
        )
        assert hard["view"]["status"] == "ended" and hard["view"]["bots"] == ["robot-1"]
        table = table_id()
        playing = asyncio.create_task(
            play_with_bots(client, "naishi", table, ["ann", "bob"], random.Random(5))
        )
        await until_view(client, "naishi", table, lambda v: v["status"] == "running")
        await command(client, "naishi", table, "bob", {"type": "quit"})
        left = await asyncio.wait_for(playing, 120)
        assert left["view"]["zombies"] == ["bob"] and left["view"]["status"] == "ended"
        counts = (await maintenance.service_stats(bus))["tabletop-bots"][0]["endpoints"][0]["data"]
    assert counts["moves_hard"] > 0 and counts["moves_normal"] > 0 and "moves_easy" not in counts
    assert counts["moves"] == counts["moves_hard"] + counts["moves_normal"]


# Short games, as in the golden playthroughs.
SHORT = {
    "decrypto": {"max_rounds": 2},
    "dozito": {"rounds": 1},
    "illustori": {"deck_size": 16},
    "highcard": {"hand_size": 2},
}
PLAYABLE = sorted(g for g in games() if g != "crashy")


@pytest.mark.parametrize("game", PLAYABLE)
async def test_every_game_ends_with_all_seats_but_one_timed_out_and_played_by_bots(
    bus,
    nats_url,
    game,
):
    decider = get(game)
    seats = max(2, decider.game.min_players)
    players = [f"p{i}" for i in range(1, seats + 1)]
    options = {**SHORT.get(game, {}), "clock": "custom", "clock_bank": 2, "clock_increment": 2}
    async with stack(nats_url, f"worker:{game}", "table-projector", "bots"):
        final = await asyncio.wait_for(
            play_with_bots(
                Client(bus), game, table_id(), players, random.Random(1), options=options, silent=players[1:]
            ),
            300,
        )
    view = final["view"]
    assert view["status"] == "ended"
    assert sorted(view["result"]["details"]["timed_out"]) == players[1:]
    assert view["zombies"] == view["result"]["details"]["timed_out"]
    assert "abandoned" not in view["result"]["details"]  # played to its end, p1 still there
