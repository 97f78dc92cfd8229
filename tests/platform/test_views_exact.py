"""Views never fall behind the log: a view write that fails is retried, a projector that dies
between fetch and acknowledgement loses nothing, partitions split the work between replicas,
forged log messages are skipped, the lobby is bounded and paged, open tables expire. Every
test runs over a real nats-server; faults are real (the server killed, a connection closed)."""

from __future__ import annotations

import asyncio
import random
import time
import uuid
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable
from contextlib import asynccontextmanager
from dataclasses import dataclass

import msgspec
import pytest

from services.client import Client, RequestFailed, play_with_bots
from services.table_projector import maintenance
from services.table_projector.projector import (
    TableProjector,
    durable,
    former_durable,
    serve_table_projector,
)
from shared.bus.connection import Bus, Delivered
from shared.bus.errors import Unavailable
from shared.bus.event_store import WRITER, delivery_position
from shared.bus.server import EmbeddedServer
from shared.messages import subjects
from shared.messages.envelopes import EventBatch, encoder
from shared.messages.folding import weigh_folded
from shared.settings import load_settings
from tests.platform.stack import stack


def table_id() -> str:
    return f"t{uuid.uuid4().hex[:12]}"


async def until_exact(bus: Bus, tables=None, *, game: str = "highcard", within: float = 60.0) -> None:
    """Wait until every view (or those of `tables`) equals a fold of the log; fail with the
    differences if not. Tests sharing the session's server name their tables: other tests
    leave tables whose views fail on purpose."""
    deadline = time.monotonic() + within
    while True:
        if tables is None:
            differences = await maintenance.verify(bus)
        else:
            differences = [d for t in tables for d in await maintenance.verify(bus, (game, t))]
        if not differences:
            return
        if time.monotonic() > deadline:
            raise AssertionError(f"views differ from the log: {differences[:10]}")
        await asyncio.sleep(0.1)


async def create_tables(client: Client, count: int, players: int = 2) -> list[str]:
    tables = [table_id() for _ in range(count)]
    for table in tables:
        assert (await client.command("highcard", table, "p0", {"type": "create"}))["ok"]
        for i in range(1, players):
            assert (await client.command("highcard", table, f"p{i}", {"type": "join"}))["ok"]
    return tables


# --- defect 1: a failed view write is retried -----------------------------------------------


async def test_a_view_write_failing_under_a_killed_server_is_retried(
    tmp_path,
    secure_server,
):
    """The nats-server is killed (and started again) at the moment the projector writes a
    view: that write fails for real; the projector must store it later, not drop it. (A
    server of its own, with the session's secrets: everything here signs in as admin.)"""
    server = EmbeddedServer(tmp_path / "nats").start()
    bus = await Bus.connect(server.url, load_settings(), name="test-client", wait=10)
    await bus.ensure_streams()
    try:
        async with stack(server.url, "worker:highcard", "table-projector") as s:
            client = Client(bus, timeout=2, attempts=60)
            tables = await create_tables(client, 3)
            await until_exact(bus)
            projector_bus = s.buses["table-projector"]
            real_put = projector_bus.put_views
            killed = asyncio.Event()

            async def put_after_a_kill(items: Iterable[tuple[str, bytes]]) -> set[str]:
                if not killed.is_set():
                    killed.set()
                    server.kill()  # the writes below meet a server that is gone
                    asyncio.get_running_loop().call_later(0.5, server.start)
                return await real_put(items)

            projector_bus.put_views = put_after_a_kill  # type: ignore[method-assign,assignment]
            assert (await client.command("highcard", tables[0], "p0", {"type": "start"}))["ok"]
            await asyncio.wait_for(killed.wait(), 30)
            for table in tables[1:]:
                assert (await client.command("highcard", table, "p0", {"type": "start"}))["ok"]
            await until_exact(bus)
            started = await client.view("highcard", tables[0], "p0")
            assert started["view"]["status"] == "running" and started["version"] == 3
    finally:
        await bus.close()
        server.stop()


# --- defect 2: a projector killed between fetch and acknowledgement -------------------------


async def test_a_projector_killed_between_fetch_and_ack_loses_nothing(bus, nats_url):
    """The first projector's connection dies right after a batch is fetched, before anything
    is acknowledged; a new projector takes over at once and every view ends exact, although
    no later message comes for the tables of the lost batch."""
    client = Client(bus, timeout=5, attempts=20)
    async with stack(nats_url, "worker:highcard"):
        first = await Bus.connect(nats_url, load_settings(), name="doomed-projector", wait=10)
        fetched = asyncio.Event()
        original_apply = TableProjector.apply

        async def die_after_fetch(self, partition, messages):
            fetched.set()
            await first.nc.close()  # gone before any acknowledgement: as a kill -9 would be
            raise RuntimeError("killed")

        lost = await create_tables(client, 6)  # every message of these reaches the doomed one
        TableProjector.apply = die_after_fetch  # type: ignore[method-assign]
        try:
            doomed = asyncio.create_task(serve_table_projector(first, asyncio.Event()))
            await asyncio.wait_for(fetched.wait(), 30)
            with pytest.raises(ExceptionGroup):  # the projector stops on the failure
                await asyncio.wait_for(doomed, 30)
        finally:
            TableProjector.apply = original_apply  # type: ignore[method-assign]
        async with stack(nats_url, "table-projector"):
            later = await create_tables(client, 2)
            await until_exact(bus, lost + later, within=20)  # well before the 30 s ack wait
            for table in lost + later:
                assert (await client.view("highcard", table))["version"] == 2


# --- defect 8: projection scales out by partitions ------------------------------------------


async def test_two_shards_split_the_partitions_and_the_views_are_exact(bus, nats_url):
    client = Client(bus, timeout=10, attempts=20)
    async with stack(
        nats_url, "worker:highcard", "table-projector@0/2", "table-projector@1/2", "history-projector"
    ) as s:
        tables = [table_id() for _ in range(12)]
        await asyncio.gather(
            *(
                play_with_bots(client, "highcard", t, ["a", "b"], random.Random(i))
                for i, t in enumerate(tables)
            )
        )
        await until_exact(bus, tables)
        stats = await maintenance.service_stats(bus)
        shards = {
            e["data"]["shard"]: e["data"]
            for r in stats["tabletop-table-projector"]
            for e in r["endpoints"]
            if e["name"] == "views"
        }
        assert set(shards) == {"0/2", "1/2"}
        assert set(shards["0/2"]["partitions"]) == {str(p) for p in range(0, 16, 2)}
        assert set(shards["1/2"]["partitions"]) == {str(p) for p in range(1, 16, 2)}
        assert shards["0/2"].get("applied", 0) > 0 and shards["1/2"].get("applied", 0) > 0
        lag = await maintenance.partition_lag(bus)
        assert all(v is not None and v == (0, 0) for v in lag.values())
        assert s  # both shards served the whole run


def test_a_shard_must_name_a_part_of_the_partitions():
    from services.table_projector.projector import owned_partitions

    assert owned_partitions((0, 1)) == list(range(16))
    assert owned_partitions((3, 4)) == [3, 7, 11, 15]
    for bad in ((2, 2), (-1, 2), (0, 17), (0, 0)):
        with pytest.raises(ValueError, match="want 0 <= index < count"):
            owned_partitions(bad)


async def test_the_stored_subject_carries_the_servers_partition(bus):
    """`subjects.partition` computes what the stream's mapping does: a table's messages are
    found where the code looks for them."""
    for _ in range(40):
        table = table_id()
        await bus.events.append("highcard", table, b"{}", command_id="c", expected_seq=0)
        last = await bus.js.get_last_msg(subjects.STREAM, f"tabletop.evt.*.highcard.{table}")
        assert last.subject == subjects.evt("highcard", table)


# --- forged messages in the log --------------------------------------------------------------


async def forge(
    bus: Bus,
    table: str,
    *,
    version: int,
    body_table: str | None = None,
    writer: str | None = subjects.writer("highcard"),
    player: str = "mallory",
) -> None:
    batch = EventBatch(
        game="highcard",
        table=body_table or table,
        version=version,
        command_id=uuid.uuid4().hex,
        player=player,
        at="2026-01-01T00:00:00Z",
        events=[{"type": "player_joined", "player": player}],
    )
    headers = {WRITER: writer} if writer else {}
    stream = (await bus.events.layout()).stream_of("highcard", table)
    await bus.js.publish(
        subjects.evt("highcard", table), encoder.encode(batch), stream=stream, headers=headers
    )


async def test_forged_log_messages_are_skipped_and_the_table_goes_on(bus, nats_url):
    from structlog.testing import capture_logs

    client = Client(bus, timeout=5, attempts=20)
    async with stack(nats_url, "worker:highcard", "table-projector", "history-projector"):
        target, other = table_id(), table_id()
        await create_tables(client, 1)
        for table in (target, other):
            assert (await client.command("highcard", table, "ann", {"type": "create"}))["ok"]
        with capture_logs() as logs:
            await forge(bus, target, version=2, writer=None)  # no worker wrote it
            await forge(bus, target, version=2, writer="tabletop-worker-naishi")
            await forge(bus, target, version=5)  # a version gap
            await forge(bus, target, version=2, body_table=other)  # names another table
            # the honest players go on: the worker folds past the forged messages
            reply = await client.command("highcard", target, "bob", {"type": "join"})
            assert reply == {"ok": True, "version": 2}
            await until_exact(bus, [target])
        reasons = {e["reason"] for e in logs if e["event"] == "log_message_skipped"}
        assert reasons >= {"unknown_writer", "version_gap", "another_table"}
        for viewer in ("ann", "bob", subjects.SPECTATOR):
            view = await client.view("highcard", target, viewer)
            assert view["view"]["seats"] == ["ann", "bob"] and view["version"] == 2
        assert (await client.view("highcard", other))["view"]["seats"] == ["ann"]
        steps = await client.replay("highcard", target, "ann")
        assert [s["player"] for s in steps] == ["ann", "bob"]
        assert "mallory" not in msgspec.json.encode(steps).decode()


# --- defect 5: bounded options and a paged lobby --------------------------------------------


async def test_a_huge_option_is_refused_and_nothing_is_appended(bus, services_highcard):
    client, table = Client(bus), table_id()
    for white in (["x" * 60_000], ["a" * 65], [f"p{i}" for i in range(40)]):
        reply = await client.command(
            "decrypto", table, "ann", {"type": "create", "options": {"white": white}}
        )
        assert not reply["ok"] and reply["error"]["code"] == "bad_option", reply
    assert await bus.events.read("decrypto", table) == []
    assert (await client.command("decrypto", table, "ann", {"type": "create"}))["ok"]


@pytest.fixture
async def services_highcard(nats_url):
    async with stack(
        nats_url, "worker:highcard", "worker:decrypto", "table-projector", "history-projector"
    ) as s:
        yield s


async def test_ten_thousand_open_tables_are_paged_newest_first(bus, nats_url):
    """The lobby never answers more than a page: 10,000 open tables, 100 at most a page, each
    page newest first, every table exactly once across the pages."""
    game = "highcard"
    tag = uuid.uuid4().hex[:6]
    names = [f"lobby{tag}{i:05d}" for i in range(10_000)]

    async def put(i: int, name: str) -> None:  # as a projector writes them
        created = f"2030-01-01T{i // 3600:02d}:{i // 60 % 60:02d}:{i % 60:02d}.000Z"
        entry = {
            "table": name,
            "version": 1,
            "created_at": created,
            "status": "open",
            "seats": ["ann"],
            "seat_count": 4,
            "creator": "ann",
            "options": {"hand_size": 3},
        }
        await bus.view_put(subjects.lobby_key(game, name), encoder.encode(entry))

    for start in range(0, len(names), 500):
        await asyncio.gather(*(put(i, n) for i, n in enumerate(names[start : start + 500], start)))
    client = Client(bus, timeout=10)
    async with stack(nats_url, "table-projector"):
        deadline = time.monotonic() + 60
        while True:  # the projector has watched every entry in
            first = await client.lobby(game, limit=100, status="open")
            if first["tables"] and first["tables"][0]["table"] == names[-1]:
                break
            assert time.monotonic() < deadline
            await asyncio.sleep(0.1)
        seen: list[str] = []
        page = first
        while True:
            assert len(page["tables"]) <= 100
            assert len(encoder.encode(page)) < 64 * 1024
            seen += [t["table"] for t in page["tables"] if t["table"].startswith(f"lobby{tag}")]
            if page["next"] is None:
                break
            page = await client.lobby(game, limit=100, status="open", after=page["next"])
        assert seen == list(reversed(names))
        assert len((await client.lobby(game))["tables"]) == 50  # the default page
        assert all(
            t["status"] == "running"
            for t in (await client.lobby(game, status="running", limit=100))["tables"]
        )
        with pytest.raises(RequestFailed) as caught:
            await client.lobby(game, status="finished")
        assert caught.value.code == "bad_request"


# --- open tables expire ----------------------------------------------------------------------


async def test_an_open_table_nobody_starts_expires_with_an_event(bus, nats_url, monkeypatch):
    monkeypatch.setenv("TABLETOP_OPEN_TABLE_TTL", "1")
    client = Client(bus, timeout=5, attempts=20)
    async with stack(nats_url, "worker:highcard", "table-projector", "history-projector"):
        idle, started = table_id(), table_id()
        assert (await client.command("highcard", idle, "ann", {"type": "create"}))["ok"]
        for table in (started,):
            await client.command("highcard", table, "ann", {"type": "create"})
            await client.command("highcard", table, "bob", {"type": "join"})
            await client.command("highcard", table, "ann", {"type": "start"})
        # the projector's sweep expires it: seconds on a busy machine, so waited for up to 60
        ended = await client.wait_view("highcard", idle, subjects.SPECTATOR, 2, timeout=60)
        assert ended["view"]["status"] == "ended"
        assert ended["view"]["result"]["details"] == {"abandoned": True, "expired": True}
        steps = await client.replay("highcard", idle, "ann")
        assert [e["type"] for e in steps[-1]["events"]] == ["table_expired", "seed_revealed"]
        assert steps[-1]["player"] == "tabletop"
        assert (await client.view("highcard", started))["view"]["status"] == "running"
        lobby = {t["table"] for t in (await client.lobby("highcard", limit=100))["tables"]}
        assert idle not in lobby
        # a person cannot expire a table, even one that is open
        other = table_id()
        await client.command("highcard", other, "ann", {"type": "create"})
        reply = await client.command("highcard", other, "ann", {"type": "expire"})
        assert reply["error"]["code"] == "not_allowed"


async def test_a_running_table_without_clocks_nobody_moves_at_ends_abandoned(bus, nats_url, monkeypatch):
    """Everyone walked away from a game without clocks: after TABLETOP_IDLE_TABLE_TTL seconds
    without a move the service ends it, without a winner; a table with clocks is left to its
    deadlines."""
    monkeypatch.setenv("TABLETOP_IDLE_TABLE_TTL", "2")
    client = Client(bus, timeout=5, attempts=20)
    async with stack(nats_url, "worker:highcard", "table-projector", "history-projector"):
        idle, clocked = table_id(), table_id()
        clocks = {"clock": "custom", "clock_bank": 3600, "clock_increment": 0}
        for table, options in ((idle, {}), (clocked, clocks)):
            create = {"type": "create", "options": options}
            assert (await client.command("highcard", table, "ann", create))["ok"]
            await client.command("highcard", table, "bob", {"type": "join"})
            assert (await client.command("highcard", table, "ann", {"type": "start"}))["ok"]
        ended = await client.wait_view("highcard", idle, subjects.SPECTATOR, 4)
        assert ended["view"]["status"] == "ended"
        assert ended["view"]["result"]["details"] == {"abandoned": True, "idle": True}
        step = (await client.replay("highcard", idle, "ann"))[-1]
        assert step["player"] == "tabletop" and step["events"][0]["type"] == "game_ended"
        assert step["log"] == [
            "Nobody moved for a long time: the game is closed, without a winner",
            "The table's secret is revealed: anyone can now check every draw",
        ]
        assert (await client.view("highcard", clocked))["view"]["status"] == "running"
        refused = await client.command("highcard", clocked, "tabletop", {"type": "expire"})
        assert refused["error"]["code"] == "has_clocks"


# --- pipelined writes ------------------------------------------------------------------------


@pytest.mark.parametrize("refused", ["views", "lobby", "views and lobby"])
async def test_a_batch_stores_its_tables_together_and_only_a_stored_tables_messages_are_acked(
    bus, nats_url, refused
):
    """One fetched batch over six tables: their writes are in flight together; the one table
    whose views or lobby entry cannot be stored has its messages handed back (and only its),
    the others are exact at once, and the messages handed back make that table exact when
    they come again (views stored at their version without their lobby entry too)."""
    client = Client(bus, timeout=5)
    async with stack(nats_url, "worker:highcard"):
        tables = await create_tables(client, 6, players=3)
    failing = tables[2]
    messages = sorted(
        [
            Delivered(m.seq, subjects.evt("highcard", t), m.data, m.writer, 0)
            for t in tables
            for m in await bus.events.read("highcard", t)
        ],
        key=lambda m: m.seq,
    )
    projector = TableProjector(bus)
    real_put = bus.put_views

    async def put(items: Iterable[tuple[str, bytes]]) -> set[str]:
        items = list(items)
        away = {  # kinds of its keys the bucket refuses
            key
            for key, _ in items
            if key.split(".")[2] == failing and key.split(".")[0] in refused.split(" and ")
        }
        return away | await real_put([item for item in items if item[0] not in away])

    bus.put_views = put
    retry = await projector.apply(0, messages)
    bus.put_views = real_put
    assert retry == {m.seq for m in messages if m.subject.endswith(f".{failing}")}
    assert len(retry) == 3
    for table in tables:
        differences = await maintenance.verify(bus, ("highcard", table))
        assert bool(differences) == (table == failing), (table, differences)
    # the last message handed back comes again alone, to a projector that holds nothing (its
    # earlier ones acknowledged in an earlier batch, say)
    assert await TableProjector(bus).apply(0, [m for m in messages if m.seq == max(retry)]) == set()
    await until_exact(bus, tables, within=10)
    for table in tables:
        stored = await bus.table_views("highcard", table)
        assert msgspec.json.decode(stored.of("p2"))["version"] == 3


async def test_a_batch_weighs_each_table_it_holds_once_at_its_last_step(bus, nats_url):
    """A table's steps within a batch are held unweighed but its last (weighing encodes the
    state): after the batch, the cache weighs exactly what its tables at their newest do."""
    client = Client(bus, timeout=5)
    async with stack(nats_url, "worker:highcard"):
        tables = await create_tables(client, 4, players=3)
    messages = sorted(
        [
            Delivered(m.seq, subjects.evt("highcard", t), m.data, m.writer, 0)
            for t in tables
            for m in await bus.events.read("highcard", t)
        ],
        key=lambda m: m.seq,
    )
    projector = TableProjector(bus, cache_bytes=1 << 30)
    assert await projector.apply(0, messages[:4]) == set()  # each table held at its first step
    assert await projector.apply(0, messages[4:]) == set()
    held = [projector.tables[("highcard", t)] for t in tables]
    assert [folded.version for folded in held] == [3] * 4
    assert projector.tables.weight == sum(weigh_folded(folded) for folded in held)


@dataclass(frozen=True)
class OneTablesConsumer:
    """A consumer acknowledged a batch at a time (`ack_all`) of the partition of one table,
    from the table's first message, and the stream sequences of that table's messages."""

    bus: Bus
    name: str
    subject: str
    written: list[int]

    async def consume(
        self, handle: Callable[[list[Delivered]], Awaitable[set[int]]], stop: asyncio.Event, batch: int = 256
    ) -> None:
        await asyncio.wait_for(
            self.bus.consume(
                self.name, self.subject, handle, stop=stop, stream=subjects.STREAM, batch=batch, ack_all=True
            ),
            30,
        )


@asynccontextmanager
async def one_tables_consumer(bus: Bus, nats_url: str) -> AsyncIterator[OneTablesConsumer]:
    """A new table of four messages (one partition) and its `OneTablesConsumer`, deleted after."""
    client = Client(bus, timeout=5)
    async with stack(nats_url, "worker:highcard"):
        tables = await create_tables(client, 1, players=4)
    subject = subjects.evt_partition(subjects.partition("highcard", tables[0]))
    name = f"ack-all-{uuid.uuid4().hex[:8]}"
    written = [m.seq for m in await bus.events.read("highcard", tables[0])]
    await bus.start_consumer_after(name, subject, written[0] - 1, stream=subjects.STREAM, ack_all=True)
    try:
        yield OneTablesConsumer(bus, name, subject, written)
    finally:
        await bus.delete_consumer(name, stream=subjects.STREAM)


async def test_a_batch_acknowledged_at_once_is_delivered_again_from_its_first_message_not_finished(
    bus, nats_url
):
    """A consumer acknowledged a batch at a time (`ack_all`): the messages before the first one
    not finished are acknowledged, that one and every later one come again (a later
    acknowledgement would cover them), and once finished nothing is left unacknowledged."""
    batches: list[list[int]] = []
    stop = asyncio.Event()

    async def handle(messages: list[Delivered]) -> set[int]:
        batches.append([m.seq for m in messages])
        if len(batches) == 1:  # the first batch: its middle message is not finished
            return {messages[len(messages) // 2].seq}
        if batches[-1][-1] >= batches[0][-1]:
            stop.set()
        return set()

    async with one_tables_consumer(bus, nats_url) as consumer:
        await consumer.consume(handle, stop)
        failed_at = len(batches[0]) // 2
        again = [seq for batch in batches[1:] for seq in batch]
        # from the one not finished on, in order, and none of those acknowledged before it
        assert again[: len(batches[0]) - failed_at] == batches[0][failed_at:]
        deadline = time.monotonic() + 10  # the server takes an acknowledgement in its own time
        while await bus.consumer_pending(consumer.name, stream=subjects.STREAM) != (0, 0):
            assert time.monotonic() < deadline, await bus.consumer_pending(
                consumer.name, stream=subjects.STREAM
            )
            await asyncio.sleep(0.05)


async def test_a_delivery_that_never_reached_the_only_reader_is_not_covered_by_a_later_acknowledgement(
    bus, nats_url
):
    """A consumer acknowledged a batch at a time loses a delivery on its way (here: pulled by an
    inbox its reader does not read, as when a consumer leader dies after its peers agreed on
    the delivery but before the message left it): its reader sees the count of deliveries
    skip, acknowledges nothing past the hole, and opens the consumer again, which delivers the
    lost message. Every message is handled, in order."""
    handled: list[int] = []
    lost: list[int] = []
    stop = asyncio.Event()

    async with one_tables_consumer(bus, nats_url) as consumer:

        async def handle(messages: list[Delivered]) -> set[int]:
            handled.extend(m.seq for m in messages)
            if not lost:  # between two pulls of the reader, another inbox takes the next message
                elsewhere = await bus.nc.subscribe(bus.nc.new_inbox())
                await bus.nc.publish(
                    f"$JS.API.CONSUMER.MSG.NEXT.{subjects.STREAM}.{consumer.name}",
                    b'{"batch":1}',
                    reply=elsewhere.subject,
                )
                lost.append(delivery_position((await elsewhere.next_msg(5)).reply)[0])
                await elsewhere.unsubscribe()
            if consumer.written[-1] in handled:
                stop.set()
            return set()

        await consumer.consume(handle, stop, batch=1)  # no pull of the reader's open meanwhile
        assert lost == [consumer.written[1]]
        assert sorted(set(handled)) == consumer.written, (handled, lost)


async def test_a_projector_takes_over_each_partition_after_the_former_consumers_ack_floor(bus, nats_url):
    """Consumers acknowledged one message at a time (the former durables) are taken over by
    the batch-acknowledged ones: each starts just after its predecessor's ack floor, so
    nothing it acknowledged is read again and nothing after is missed, and the former one is
    deleted."""
    client = Client(bus, timeout=5, attempts=20)
    async with stack(nats_url, "worker:highcard"):
        await create_tables(client, 3)
        floor = (await bus.events.last_seqs())[subjects.STREAM]
        for p in range(subjects.PARTITIONS):  # as a projector of before left them: all acked
            await bus.delete_consumer(durable(p), stream=subjects.STREAM)
            await bus.start_consumer_after(
                former_durable(p), subjects.evt_partition(p), floor, stream=subjects.STREAM
            )
        later = await create_tables(client, 3)
        newest = (await bus.events.last_seqs())[subjects.STREAM]
        own = await Bus.connect(nats_url, load_settings(), name="test-projector", wait=10)
        try:
            projector = await asyncio.wait_for(
                serve_table_projector(
                    own,
                    asyncio.Event(),
                    until=lambda p: p.caught_up() and p.applied_seq >= newest,
                ),
                30,
            )
        finally:
            await own.close()
    written = [len(await bus.events.read("highcard", t)) for t in later]
    assert projector.counts.get("applied") == sum(written)  # none of what came before the floor
    await until_exact(bus, later, within=10)
    for p in range(subjects.PARTITIONS):
        assert await bus.consumer_pending(former_durable(p), stream=subjects.STREAM) is None
        assert await bus.consumer_pending(durable(p), stream=subjects.STREAM) is not None


async def test_the_views_bucket_of_one_node_is_acknowledged_before_the_disk(bus):
    """Views can be rebuilt from the log: on one node their puts do not wait for an fsync."""
    await bus.reset_views()
    info = await bus.js.stream_info(f"KV_{subjects.VIEWS_BUCKET}")
    assert info.config.persist_mode == "async"
    assert info.config.max_msgs_per_subject == 1 and info.config.allow_direct


async def test_views_put_together_are_stored_and_the_ones_refused_are_named(bus, monkeypatch):
    """`put_views` pipelines its puts (acknowledged together, a few in flight at a time here)
    and names the keys the server did not store: a put nobody answers (no bucket there) is
    refused, not lost silently."""
    prefix = f"pipelined.t{uuid.uuid4().hex[:8]}"
    items = [(f"{prefix}.v{i}", b'{"version": %d}' % i) for i in range(40)]
    assert await bus.put_views(items, in_flight=7) == set()
    for key, value in items:
        assert await bus.view_get(key) == value
    monkeypatch.setattr(subjects, "VIEWS_BUCKET", "TABLETOP_NO_SUCH_BUCKET")
    assert await bus.put_views(items[:3], timeout=2) == {key for key, _ in items[:3]}
    with pytest.raises(Unavailable):
        await bus.view_put_many(items[:1], timeout=2)
