"""Reading a key-value bucket's current values whole (the accounts check, `tabletop
rebuild-views` comparing stored views) over a real JetStream."""

import uuid
from typing import Any

from shared.bus.connection import Bucket, Bus


async def fresh_bucket(bus: Bus) -> tuple[Any, Bucket]:
    """A new bucket: nats-py's handle to write with, and the project's to read with."""
    name = f"test-{uuid.uuid4().hex[:12]}"
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
