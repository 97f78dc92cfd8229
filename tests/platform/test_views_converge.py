"""Views converge by themselves: views the bucket lost are written again when the projector
(re)opens its partitions, with no command and no operator; a full rebuild beside a running
projector ends exact, and one that dies leaves a projector the whole log to read; a view
asked for a table whose log exists is answered with the view or `not_ready`, never
`unknown_table`. Every test runs over a real nats-server."""

from __future__ import annotations

import asyncio
import random
import time
import uuid

import msgspec
import pytest
from nats.js.api import DeliverPolicy

from services.client import Client, RequestFailed, play_with_bots
from services.registry import get
from services.table_projector import maintenance
from services.table_projector.projector import VIEW_RETRY_AFTER_MS, durable, view_bodies
from shared.bus import consumers
from shared.bus.errors import Unavailable
from shared.bus.nats_internals import drop_socket
from shared.bus.puller import Puller
from shared.bus.views import LAYOUT, LAYOUT_KEY
from shared.messages import subjects
from shared.messages.envelopes import table_views_body
from shared.messages.folding import empty, fold_messages
from tests.platform.stack import stack
from tests.platform.test_views_exact import until_exact

HIGHCARD = get("highcard")


def table_id(partitions: tuple[int, ...] = tuple(range(subjects.PARTITIONS))) -> str:
    """A new table id whose partition is one of `partitions`."""
    while True:
        table = f"t{uuid.uuid4().hex[:12]}"
        if subjects.partition("highcard", table) in partitions:
            return table


async def views_at(bus, table: str, version: int) -> bytes:
    """The views the projector stored when the table was at `version`."""
    messages = (await bus.events.read("highcard", table))[:version]
    folded = fold_messages(HIGHCARD, empty(HIGHCARD), "highcard", table, messages)
    return table_views_body(folded.version, view_bodies(HIGHCARD, folded))


async def test_views_the_bucket_lost_are_written_again_when_the_projector_starts(bus, nats_url):
    """What a server killed on one node may lose of the bucket (acknowledged before the disk):
    a spectator view's last write, every view of a table, a lobby entry, a lobby entry's
    removal. A projector that starts finds and writes them again, without a command."""
    client = Client(bus)
    one_behind, all_lost, unlisted, still_listed = (table_id() for _ in range(4))
    tables = [one_behind, all_lost, unlisted, still_listed]
    async with stack(nats_url, "worker:highcard", "table-projector") as s:
        await play_with_bots(client, "highcard", one_behind, ["a", "b"], random.Random(2))
        await play_with_bots(client, "highcard", still_listed, ["a", "b"], random.Random(3))
        for table in (all_lost, unlisted):
            await client.command("highcard", table, "ann", {"type": "create"})
            await client.command("highcard", table, "bob", {"type": "join"})
        await until_exact(bus, tables)
        last = (await client.view("highcard", one_behind))["version"]
        await s.stop("table-projector")

        behind = await views_at(bus, one_behind, last - 1)
        await bus.view_put(subjects.views_key("highcard", one_behind), behind)
        for key in [subjects.views_key("highcard", all_lost), subjects.lobby_key("highcard", all_lost)]:
            await bus.view_delete(key)
        await bus.view_delete(subjects.lobby_key("highcard", unlisted))
        # the projector's marks of its clean stop were its last writes: lost first
        for key in await bus.view_entries("stopped.>"):
            await bus.view_delete(key)
        ended = msgspec.json.decode(await bus.view_get(subjects.views_key("highcard", still_listed)))
        await bus.view_put(  # the entry an ended table had while it ran
            subjects.lobby_key("highcard", still_listed),
            msgspec.json.encode({"table": still_listed, "version": ended["version"] - 1}),
        )
        assert len({d.table for t in tables for d in await maintenance.verify(bus, ("highcard", t))}) == 4

        await s.start("table-projector")
        await until_exact(bus, tables, within=15)
        assert (await client.view("highcard", one_behind))["version"] == last


async def opened_counts(bus, within: float = 15.0) -> dict[str, int]:
    """The running table projector's counts (its stats endpoint) once it has opened every
    partition: each opening is either checked or, after a clean stop, skipped."""
    deadline = time.monotonic() + within
    while True:
        (replica,) = (await maintenance.service_stats(bus))["tabletop-table-projector"]
        counts = replica["endpoints"][0]["data"]
        opened = sum(counts.get(k, 0) for k in ("reconcile_skipped", "checked"))
        if opened >= subjects.PARTITIONS or time.monotonic() > deadline:
            return counts
        await asyncio.sleep(0.05)


async def test_a_projector_stopped_cleanly_starts_without_checking_and_one_that_crashed_checks(bus, nats_url):
    """A clean stop leaves, per partition, the position up to which its views are stored;
    the next start skips the check of those partitions' recent views, once. A crash leaves
    none, and a mark that is not where the consumer is vouches for nothing: the views lost
    meanwhile are written again."""
    client = Client(bus, timeout=5, attempts=20)
    tables = [table_id() for _ in range(3)]
    async with stack(nats_url, "worker:highcard", "table-projector") as s:
        for table in tables:
            await client.command("highcard", table, "ann", {"type": "create"})
            await client.command("highcard", table, "bob", {"type": "join"})
        await until_exact(bus, tables)
        await s.stop("table-projector")
        marks = await bus.view_entries("stopped.>")
        assert sorted(marks) == sorted(f"stopped.p{p}" for p in range(subjects.PARTITIONS))
        layout = await bus.events.layout()
        for p in range(subjects.PARTITIONS):
            mark = msgspec.json.decode(marks[f"stopped.p{p}"])
            assert mark["stream"] == layout.stream_of_partition(p)
            info = await bus.js.consumer_info(mark["stream"], durable(p))
            assert mark["acknowledged"] == info.ack_floor.stream_seq

        await s.start("table-projector")
        counts = await opened_counts(bus)
        assert counts.get("reconcile_skipped") == subjects.PARTITIONS
        assert await bus.view_entries("stopped.>") == {}  # each vouched for one opening
        await client.command("highcard", tables[0], "cat", {"type": "join"})
        await until_exact(bus, tables)

        # a crash: no mark, the views lost meanwhile come back
        await s.kill("table-projector")
        assert await bus.view_entries("stopped.>") == {}
        await bus.view_delete(subjects.views_key("highcard", tables[1]))
        await s.start("table-projector")
        await until_exact(bus, tables, within=15)
        assert (await opened_counts(bus)).get("reconciled", 0) >= 1

        # marks that are not where the consumers are: checked as after a crash
        await s.stop("table-projector")
        for key, value in (await bus.view_entries("stopped.>")).items():
            mark = msgspec.json.decode(value)
            await bus.view_put(key, msgspec.json.encode({**mark, "acknowledged": mark["acknowledged"] - 1}))
        await bus.view_delete(subjects.views_key("highcard", tables[2]))
        await s.start("table-projector")
        await until_exact(bus, tables, within=15)
        counts = await opened_counts(bus)
        assert counts.get("reconcile_after_stop_mark") == subjects.PARTITIONS
        assert counts.get("reconcile_skipped", 0) == 0
        assert counts.get("reconciled", 0) >= 1


async def test_a_consumer_closes_at_its_position_only_after_an_opening_that_went_through(bus, nats_url):
    """`consume`'s `closed` (what the projector's stop mark is written from): not called when
    the loop stops after its `opened` failed (the check of the views never ran), called with
    the last message acknowledged once an opening went through."""
    client = Client(bus, timeout=5)
    table = table_id()
    async with stack(nats_url, "worker:highcard"):
        await client.command("highcard", table, "ann", {"type": "create"})
        await client.command("highcard", table, "bob", {"type": "join"})
    seqs = [m.seq for m in await bus.events.read("highcard", table)]
    partition = subjects.evt_partition(subjects.partition("highcard", table))
    name = f"test-closed-{uuid.uuid4().hex[:8]}"
    await bus.start_consumer_after(name, partition, seqs[0] - 1, stream=subjects.STREAM, ack_all=True)
    closed_at: list[int] = []

    async def closed(acknowledged: int) -> None:
        closed_at.append(acknowledged)

    async def consume(handle, opened, stop: asyncio.Event) -> None:
        await asyncio.wait_for(
            bus.consume(
                name,
                partition,
                handle,
                stop=stop,
                stream=subjects.STREAM,
                ack_all=True,
                opened=opened,
                closed=closed,
            ),
            30,
        )

    try:
        stop = asyncio.Event()

        async def opened_fails(floor: int) -> None:
            stop.set()  # the stop comes while the opening fails
            raise Unavailable("the check of the views could not read the log")

        async def handle(messages):
            raise AssertionError("nothing is delivered before an opening went through")

        await consume(handle, opened_fails, stop)
        assert closed_at == []

        stop_all = asyncio.Event()
        handled: list[int] = []

        async def opened(floor: int) -> None:
            pass

        async def handle_all(messages):
            handled.extend(m.seq for m in messages if m.subject.endswith(f".{table}"))
            if seqs[-1] in handled:
                stop_all.set()
            return set()

        await consume(handle_all, opened, stop_all)
        assert handled == seqs and closed_at and closed_at[-1] >= seqs[-1]
    finally:
        await bus.delete_consumer(name, stream=subjects.STREAM)


async def test_a_projector_writes_again_what_the_bucket_lost_when_its_connection_comes_back(bus, nats_url):
    """The same after a reconnect: the projector's connection is cut (as a server restart
    cuts it) and the views lost meanwhile come back by themselves."""
    client = Client(bus, timeout=5, attempts=20)
    table = table_id()
    async with stack(nats_url, "worker:highcard", "table-projector") as s:
        await client.command("highcard", table, "ann", {"type": "create"})
        await client.command("highcard", table, "bob", {"type": "join"})
        await until_exact(bus, [table])
        await bus.view_delete(subjects.views_key("highcard", table))
        projector_bus = s.buses["table-projector"]
        reconnects = projector_bus.watch.reconnects
        drop_socket(projector_bus.nc)  # nats-py reconnects
        await until_exact(bus, [table], within=15)
        assert projector_bus.watch.reconnects > reconnects


async def test_views_acknowledged_by_a_server_that_then_went_away_are_written_again_whole(bus, nats_url):
    """A server killed while a table's puts were in flight: it acknowledged the lobby entry
    and lost it, while the views reached the next server. The views alone would then vouch
    for a lobby entry that is missing; the projector writes the whole table again on the
    server it ends on. The fault: the puts acknowledged, the lobby entry then deleted (the
    loss) and the connection cut."""
    client = Client(bus, timeout=5, attempts=20)
    table = table_id()
    lost_entry = subjects.lobby_key("highcard", table)
    async with stack(nats_url, "worker:highcard", "table-projector") as s:
        await client.command("highcard", table, "ann", {"type": "create"})
        await until_exact(bus, [table])
        projector_bus = s.buses["table-projector"]
        put_views = projector_bus.put_views
        faults: list[int] = []  # the disconnect count when the fault was made

        async def seats_lost_then_server_gone(items, **kwargs):
            items = list(items)
            failed = await put_views(items, **kwargs)
            if not faults and any(key == lost_entry for key, _ in items):
                faults.append(projector_bus.watch.disconnects)
                await bus.view_delete(lost_entry)
                drop_socket(projector_bus.nc)  # nats-py reconnects
                while projector_bus.watch.disconnects == faults[0]:
                    await asyncio.sleep(0.01)
            return failed

        projector_bus.put_views = seats_lost_then_server_gone  # type: ignore[method-assign]
        await client.command("highcard", table, "bob", {"type": "join"})
        await until_exact(bus, [table], within=15)
        assert faults, "the fault never happened: no lobby entry of the table was put"
        assert await bus.view_get(lost_entry) is not None


async def test_a_full_rebuild_beside_a_running_projector_ends_exact(bus, nats_url):
    """`tabletop rebuild-views` under `tabletop up`: the projector makes its consumers again
    as soon as the rebuild deletes them. Commands keep coming during each rebuild; the views
    end exact, and the rebuild never fails on a consumer the projector made."""
    client = Client(bus, timeout=5, attempts=20)
    tables = [table_id() for _ in range(4)]
    async with stack(nats_url, "worker:highcard", "table-projector"):
        for table in tables:
            assert (await client.command("highcard", table, "p0", {"type": "create"}))["ok"]
        for round_ in range(3):
            joining = asyncio.gather(
                *(client.command("highcard", t, f"r{round_}", {"type": "join"}) for t in tables)
            )
            await maintenance.rebuild_views(bus)
            replies = await joining
            assert all(reply["ok"] for reply in replies), replies
        await until_exact(bus, tables, within=30)
        for table in tables:
            assert (await client.view("highcard", table))["version"] == 4


async def test_a_rebuild_that_dies_before_its_end_leaves_a_projector_the_whole_log_to_read(bus, nats_url):
    """`rebuild-views` dying after it emptied the views and before it moved the consumers past
    what it read (here its puts of the tables' views fail): every partition's consumer is as a
    projector makes it, from the first message, read by no one, and a projector started
    after it ends exact."""
    client = Client(bus, timeout=5, attempts=20)
    tables = [table_id() for _ in range(4)]
    async with stack(nats_url, "worker:highcard", "table-projector") as s:
        for table in tables:
            assert (await client.command("highcard", table, "p0", {"type": "create"}))["ok"]
            assert (await client.command("highcard", table, "p1", {"type": "join"}))["ok"]
        await until_exact(bus, tables)
        await s.stop("table-projector")
        put_many = bus.view_put_many

        async def dies_at_the_views(items, **kwargs):
            items = list(items)
            if any(key.startswith("views.") for key, _ in items):  # not the lobby entries
                raise RuntimeError("the rebuild is killed")
            return await put_many(items, **kwargs)

        bus.view_put_many = dies_at_the_views
        try:
            with pytest.raises(RuntimeError):
                await maintenance.rebuild_views(bus)
        finally:
            del bus.view_put_many
        assert await bus.view_get(subjects.views_key("highcard", tables[0])) is None
        for p in range(subjects.PARTITIONS):
            info = await bus.js.consumer_info(subjects.STREAM, durable(p))
            assert info.config.deliver_policy == DeliverPolicy.ALL
            assert info.delivered.consumer_seq == 0 and not info.num_ack_pending
        await s.start("table-projector")
        await until_exact(bus, tables, within=30)


@pytest.mark.parametrize("reset", [True, False], ids=["reset", "made-again"])
async def test_a_rebuild_moves_each_consumer_just_past_the_log_it_read(
    bus, nats_url, monkeypatch, consumers_made_again, reset
):
    """After a rebuild each partition's consumer delivers only what comes after the log it
    read: moved in one request by a server that can (nats-server 2.14), made again by an
    older one. The projector then goes on exact from there."""
    if not reset:
        monkeypatch.setattr(consumers, "RESET_SINCE", (99, 0, 0))
    client = Client(bus, timeout=5, attempts=20)
    tables = [table_id() for _ in range(6)]
    async with stack(nats_url, "worker:highcard") as s:
        for table in tables:
            assert (await client.command("highcard", table, "p0", {"type": "create"}))["ok"]
        await maintenance.rebuild_views(bus)
        assert sorted(consumers_made_again) == (
            [] if reset else sorted(durable(p) for p in range(subjects.PARTITIONS))
        )
        for p in range(subjects.PARTITIONS):
            assert await bus.consumer_pending(durable(p), stream=subjects.STREAM) == (0, 0)
        assert (await client.command("highcard", tables[0], "p1", {"type": "join"}))["ok"]
        moved = subjects.partition("highcard", tables[0])
        for p in range(subjects.PARTITIONS):
            wanted = (1, 0) if p == moved else (0, 0)
            assert await bus.consumer_pending(durable(p), stream=subjects.STREAM) == wanted
        await s.start("table-projector")
        await until_exact(bus, tables)
        assert (await client.view("highcard", tables[0]))["version"] == 2


async def test_a_consumer_a_reader_took_from_is_not_moved(bus, nats_url):
    """`move_unread_consumer_after` moves a consumer no one read since it was made, and leaves
    one a reader has taken messages from as it is (a projector beside a rebuild goes on)."""
    client = Client(bus, timeout=5)
    partition = 3
    table = table_id((partition,))
    async with stack(nats_url, "worker:highcard"):
        assert (await client.command("highcard", table, "p0", {"type": "create"}))["ok"]
        assert (await client.command("highcard", table, "p1", {"type": "join"}))["ok"]
    last = (await bus.events.last_seqs())[subjects.STREAM]
    subject = subjects.evt_partition(partition)
    read, unread = (f"test-move-{uuid.uuid4().hex[:8]}" for _ in range(2))
    try:
        for name in (read, unread):
            await bus.make_consumer(name, subject, stream=subjects.STREAM, ack_all=True)
        puller = await Puller.open(bus.nc, read, 1, subjects.STREAM)
        try:
            taken, _ = await puller.take()
            assert taken
            assert not await bus.move_unread_consumer_after(
                read, subject, last, stream=subjects.STREAM, ack_all=True
            )
            info = await bus.js.consumer_info(subjects.STREAM, read)
            assert info.delivered.stream_seq == taken[-1].seq and info.num_pending > 0
        finally:
            await puller.close()
        assert await bus.move_unread_consumer_after(
            unread, subject, last, stream=subjects.STREAM, ack_all=True
        )
        assert await bus.consumer_pending(unread, stream=subjects.STREAM) == (0, 0)
    finally:
        for name in (read, unread):
            await bus.delete_consumer(name, stream=subjects.STREAM)


async def test_a_view_of_a_table_whose_views_are_not_stored_is_not_ready_never_unknown(bus, nats_url):
    """One shard of two serves views, so the other half of the partitions has no projector:
    their tables have a log and no views. Asked for, such a view is `not_ready` with a retry
    hint; a table with no log is `unknown_table`; a table of a served partition is answered
    with its view as soon as it is stored, even when asked at once."""
    client = Client(bus)
    served, orphan = (0,), tuple(range(1, subjects.PARTITIONS))
    async with stack(nats_url, "worker:highcard", f"table-projector@0/{subjects.PARTITIONS}"):
        waiting = table_id(orphan)
        await client.command("highcard", waiting, "ann", {"type": "create"})
        for viewer in (subjects.SPECTATOR, "ann"):
            raw = msgspec.json.decode(await bus.request(subjects.view("highcard", waiting, viewer), b"{}"))
            assert raw["error"]["code"] == "not_ready"
            assert raw["error"]["retry_after_ms"] == VIEW_RETRY_AFTER_MS
        with pytest.raises(RequestFailed) as caught:
            await client.view("highcard", table_id(orphan))
        assert caught.value.code == "unknown_table"
        for _ in range(5):
            fresh = table_id(served)
            await client.command("highcard", fresh, "ann", {"type": "create"})
            assert (await client.view("highcard", fresh, "ann"))["version"] == 1


async def test_views_kept_one_key_a_viewer_are_carried_over_to_one_key_a_table(bus, nats_url):
    """A views bucket of the former layout (one key a viewer) when the projector starts: each
    table's views become its one key, at the spectator's version with the seats of that
    version (a player who left sees the spectator's), the former keys go, and viewers are
    answered without any command. Views of the new layout already there are kept; the carry
    over is done once a bucket."""
    client = Client(bus)
    table, newer = table_id(), table_id()
    async with stack(nats_url, "worker:highcard", "table-projector") as s:
        for player in ("ann", "bob", "cat"):
            await client.command("highcard", table, player, {"type": "create" if player == "ann" else "join"})
        await client.command("highcard", table, "cat", {"type": "leave"})
        await client.command("highcard", newer, "ann", {"type": "create"})
        await until_exact(bus, [table, newer])
        await s.stop("table-projector")

        logged = await bus.events.read("highcard", table)
        versions = [fold_messages(HIGHCARD, empty(HIGHCARD), "highcard", table, logged[:v]) for v in (3, 4)]
        await bus.view_delete(subjects.views_key("highcard", table))
        formerly = {  # as the former projector left them: cat's view of when it sat
            "cat": view_bodies(HIGHCARD, versions[0])["cat"],
            **view_bodies(HIGHCARD, versions[1]),
        }
        for viewer, body in formerly.items():
            await bus.view_put(subjects.former_view_key("highcard", table, viewer), body)
        kept = await bus.view_get(subjects.views_key("highcard", newer))
        await bus.view_put(subjects.former_view_key("highcard", newer, subjects.SPECTATOR), b'{"version":0}')
        await bus.view_delete(LAYOUT_KEY)

        await s.start("table-projector")
        bob, cat = [await client.view("highcard", table, viewer) for viewer in ("bob", "cat")]
        assert bob["view"] == HIGHCARD.player_view(versions[1].state, "bob")
        assert cat["view"] == HIGHCARD.player_view(versions[1].state, None)
        await until_exact(bus, [table, newer])
        assert (await opened_counts(bus)).get("reconciled", 0) == 0  # the carry over wrote them
        assert await bus.view_entries("view.>") == {}
        assert await bus.view_get(subjects.views_key("highcard", newer)) == kept
        assert await bus.view_get(LAYOUT_KEY) == LAYOUT
        assert await bus.carry_over_former_views() == 0
