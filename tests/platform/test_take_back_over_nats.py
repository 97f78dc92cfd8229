"""Taking back a move through a real worker and projector: a Diced Tomatoes player places a
die, takes it back, and sees the view from before; an undo with nothing to take back, or from
someone without a seat, is refused with its code and appends nothing."""

from __future__ import annotations

import uuid

import msgspec

from services.client import Client
from tests.platform.stack import stack

GAME = "diced_tomatoes"


async def log_length(bus, table: str) -> int:
    return len(await bus.events.read(GAME, table))


async def test_a_die_placed_is_taken_back_and_an_undo_with_nothing_to_take_back_is_refused(bus, nats_url):
    async with stack(nats_url, f"worker:{GAME}", "table-projector"):
        client = Client(bus, timeout=20)
        table = f"{GAME}-{uuid.uuid4().hex[:12]}"
        assert (await client.command(GAME, table, "ann", {"type": "create", "seats": 1}))["ok"]
        reply = await client.command(GAME, table, "ann", {"type": "start"})
        assert reply["ok"], reply
        seen = await client.wait_view(GAME, table, "ann", reply["version"])
        refused = await client.command(GAME, table, "ann", {"type": "undo"})  # nothing yet
        assert refused["error"]["code"] == "nothing_to_undo", refused
        for _ in range(40):  # roll, then place a die: a move that revealed nothing
            legal = seen["view"].get("legal", [])
            if {"type": "undo"} in legal:
                break
            before = seen
            move = next(c for c in legal if c["type"] != "undo")
            reply = await client.command(GAME, table, "ann", {**move, "expect": seen["version"]})
            assert reply["ok"], reply
            seen = await client.wait_view(GAME, table, "ann", reply["version"])
        else:
            raise AssertionError("no move could be taken back")
        length = await log_length(bus, table)
        for who, code in (("bob", "not_seated"), ("ann", None)):
            reply = await client.command(GAME, table, who, {"type": "undo"})
            if code:
                assert reply["error"]["code"] == code, reply
                assert await log_length(bus, table) == length  # nothing appended
        assert reply["ok"], reply
        after = await client.wait_view(GAME, table, "ann", reply["version"])
        assert after["view"] == before["view"]  # as it was before the die was placed
        events = [msgspec.json.decode(m.data) for m in await bus.events.read(GAME, table)]
        types = [e["type"] for batch in events for e in batch["events"]]
        assert "take_back_point" in types and types[-1] == "move_taken_back"  # both in the log
