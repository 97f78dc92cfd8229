"""Reading a key-value bucket's current values whole (the accounts check, `tabletop
rebuild-views` comparing stored views), and watching it (the lobby), over a real JetStream."""

import asyncio
import time
import uuid
from typing import Any

from shared.bus.buckets import watch_keys
from shared.bus.connection import Bucket, Bus
from shared.bus.nats_internals import drop_socket


async def fresh_bucket(bus: Bus) -> tuple[Any, Bucket]:
    """A new bucket: nats-py's handle to write with, and the project's to read with."""
    return await named_bucket(bus, f"test-{uuid.uuid4().hex[:12]}")


async def named_bucket(bus: Bus, name: str) -> tuple[Any, Bucket]:
    bucket = await bus.bucket(name, description="a test bucket")
    return await bus.js.key_value(name), bucket


async def test_a_snapshot_has_every_live_key_with_its_last_value(bus):
    kv, bucket = await fresh_bucket(bus)
    for i in range(40):
        await kv.put(f"seat.{i}", f"v{i}".encode())
    await kv.put("seat.2", b"second")
    await kv.delete("seat.3")
    await kv.put("lobby", b"lobby")
    expected = {f"seat.{i}": f"v{i}".encode() for i in range(40) if i != 3}
    expected["seat.2"] = b"second"
    assert await bucket.entries("seat.>") == expected
    assert await bucket.entries() == {**expected, "lobby": b"lobby"}
    assert await bucket.entries("nothing.>") == {}


async def test_an_empty_bucket_reads_empty(bus):
    _, bucket = await fresh_bucket(bus)
    assert await bucket.entries() == {}


async def test_a_snapshot_right_after_a_put_sees_it(bus):
    """Read at once after the put, the deliveries race the consumer's info reply: a reader
    that trusted only what it had received so far answered with nothing now and then."""
    kv, bucket = await fresh_bucket(bus)
    for i in range(150):
        await kv.put(f"k{i % 3}", f"{i}".encode())
        seen = await bucket.entries()
        assert seen.get(f"k{i % 3}") == f"{i}".encode(), (i, seen)


class Watched:
    """What a watch said of each key, and a signal when a key says a value."""

    def __init__(self) -> None:
        self.keys: dict[str, bytes | None] = {}
        self.said: dict[tuple[str, bytes | None], asyncio.Event] = {}

    def on_change(self, key: str, value: bytes | None) -> None:
        self.keys[key] = value
        self.said.setdefault((key, value), asyncio.Event()).set()

    async def until(self, key: str, value: bytes | None) -> None:
        await asyncio.wait_for(self.said.setdefault((key, value), asyncio.Event()).wait(), 10)


async def test_a_watch_says_the_current_values_then_every_change_in_order(bus):
    name = f"test-{uuid.uuid4().hex[:12]}"
    kv, bucket = await named_bucket(bus, name)
    await kv.put("seat.1", b"one")
    await kv.put("seat.2", b"two")
    await kv.delete("seat.2")
    await kv.put("other", b"not watched")
    watched = Watched()
    subscription = await watch_keys(bus.js, name, "seat.>", watched.on_change)
    try:
        await watched.until("seat.1", b"one")
        await watched.until("seat.2", None)  # a deleted key's last word: deleted
        await kv.put("seat.3", b"three")
        await kv.put("seat.1", b"one again")
        await kv.delete("seat.3")
        await kv.put("seat.end", b"end")
        await watched.until("seat.end", b"end")
        assert watched.keys == {"seat.1": b"one again", "seat.2": None, "seat.3": None, "seat.end": b"end"}
        assert {k: v for k, v in watched.keys.items() if v is not None} == await bucket.entries("seat.>")
    finally:
        await subscription.unsubscribe()


async def test_a_views_watch_goes_on_after_its_connection_is_cut(bus, nats_url):
    """The lobby's watch: what changed while the connection was away, and after it came
    back, is said (the watch started again from the current values)."""
    watcher = await Bus.connect(nats_url, bus.settings, name="test-watcher", wait=10)
    prefix = f"lobby.test.w{uuid.uuid4().hex[:10]}"
    watched = Watched()
    stop = asyncio.Event()
    watching = asyncio.create_task(watcher.watch_views(f"{prefix}.>", watched.on_change, stop=stop))
    try:
        await bus.view_put(f"{prefix}.a", b"1")
        await watched.until(f"{prefix}.a", b"1")
        reconnects = watcher.watch.reconnects
        drop_socket(watcher.nc)  # nats-py reconnects
        await bus.view_put(f"{prefix}.b", b"2")
        deadline = time.monotonic() + 10
        while watcher.watch.reconnects == reconnects:
            assert time.monotonic() < deadline, "the watcher never reconnected"
            await asyncio.sleep(0.01)
        await bus.view_delete(f"{prefix}.a")
        await watched.until(f"{prefix}.b", b"2")
        await watched.until(f"{prefix}.a", None)
    finally:
        stop.set()
        await watching
        await watcher.close()
