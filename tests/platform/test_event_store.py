"""The log over a real JetStream: expected-sequence conflicts, message-id dedupe, reads."""

import uuid

import pytest
from nats.aio.msg import Msg
from nats.js.api import StorageType

from shared.bus.errors import ConcurrencyConflict, Unavailable
from shared.bus.event_store import delivery_position
from shared.messages import subjects

# Raw payloads, on a game no service knows: the projector skips what it cannot read.
GAME = "rawlog"


def table_id() -> str:
    return f"t{uuid.uuid4().hex[:12]}"


async def test_the_stream_is_append_only(bus):
    info = await bus.js.stream_info(subjects.STREAM)
    assert info.config.deny_delete and info.config.deny_purge
    assert info.config.storage == StorageType.FILE
    assert info.config.duplicate_window >= 60


async def test_append_expects_the_last_sequence_of_the_table(bus):
    table = table_id()
    first = await bus.events.append(GAME, table, b"1", command_id="a", expected_seq=0)
    assert not first.duplicate
    with pytest.raises(ConcurrencyConflict):  # a second "first" message: the table moved on
        await bus.events.append(GAME, table, b"x", command_id="b", expected_seq=0)
    second = await bus.events.append(GAME, table, b"2", command_id="c", expected_seq=first.seq)
    stored = await bus.events.read(GAME, table)
    assert [(m.seq, m.data) for m in stored] == [(first.seq, b"1"), (second.seq, b"2")]
    assert (await bus.events.last(GAME, table)).seq == second.seq


async def test_a_repeated_append_is_stored_once(bus):
    """The server checks the expectation before the message id: a retried append fails as a
    conflict (the worker then finds the command id in the table and answers as before)."""
    table = table_id()
    await bus.events.append(GAME, table, b"1", command_id="same", expected_seq=0)
    with pytest.raises(ConcurrencyConflict):
        await bus.events.append(GAME, table, b"1", command_id="same", expected_seq=0)
    assert len(await bus.events.read(GAME, table)) == 1


async def test_other_tables_do_not_disturb_the_expectation(bus):
    mine, other = table_id(), table_id()
    first = await bus.events.append(GAME, mine, b"1", command_id="a", expected_seq=0)
    await bus.events.append(GAME, other, b"x", command_id="a", expected_seq=0)
    await bus.events.append(GAME, mine, b"2", command_id="b", expected_seq=first.seq)


async def test_reads_page_through_long_tables_and_respect_bounds(bus):
    table = table_id()
    seqs = []
    last = 0
    for i in range(1200):  # more than two pages of the batched read
        last = (
            await bus.events.append(GAME, table, str(i).encode(), command_id=f"c{i}", expected_seq=last)
        ).seq
        seqs.append(last)
    stored = await bus.events.read(GAME, table)
    assert [m.data for m in stored] == [str(i).encode() for i in range(1200)]
    middle = await bus.events.read(GAME, table, after=seqs[99], upto=seqs[199])
    assert [m.seq for m in middle] == seqs[100:200]


async def test_a_read_expecting_few_messages_still_reads_up_to_its_bound(bus):
    """`expect` sizes the first page only: a table with more messages than expected (messages
    skipped by the fold, say) is still read to `upto`, and no further."""
    table, other = table_id(), table_id()
    seqs, last = [], 0
    for i in range(7):
        last = (await bus.events.append(GAME, table, b"%d" % i, command_id=f"c{i}", expected_seq=last)).seq
        seqs.append(last)
        await bus.events.append(
            GAME,
            other,
            b"x",
            command_id=f"o{i}",
            expected_seq=0 if i == 0 else (await bus.events.last(GAME, other)).seq,
        )
    found = await bus.events.read(GAME, table, upto=seqs[4], expect=1)
    assert [m.seq for m in found] == seqs[:5]
    assert [m.seq for m in await bus.events.read(GAME, table, upto=seqs[0], expect=1)] == seqs[:1]
    assert [m.seq for m in await bus.events.read(GAME, table, after=seqs[1], upto=seqs[3], expect=2)] == seqs[
        2:4
    ]


async def test_a_read_nobody_answers_is_unavailable_and_no_read_leaves_its_subscription(bus):
    """Reads gather the direct gets' answers by callback: a stream that cannot answer is
    `Unavailable` (the server's 503, not a wait), and whether a read ends, fails or is dropped
    after its first message, its subscription goes with it."""
    subscriptions = len(bus.nc._subs)
    with pytest.raises(Unavailable):
        [m async for m in bus.events.iterate("TABLETOP_NO_SUCH_STREAM", subjects.EVT_ALL)]
    table = table_id()
    last = 0
    for i in range(3):
        last = (await bus.events.append(GAME, table, b"%d" % i, command_id=f"c{i}", expected_seq=last)).seq
    reading = bus.events.iterate(subjects.STREAM, subjects.evt(GAME, table))
    assert (await anext(reading)).data == b"0"
    await reading.aclose()
    assert [m.data for m in await bus.events.read(GAME, table)] == [b"0", b"1", b"2"]
    assert len(bus.nc._subs) == subscriptions


async def test_a_replay_hands_over_every_message_in_order_and_leaves_nothing_behind(bus, monkeypatch):
    """The whole-log replay pulls REPLAY_PULL messages at a time through a consumer of its own:
    every message comes, once, in order, from after a sequence if asked, up to the bound; a
    stream that is not there is `Unavailable`; a bound past the subject's last message, or a
    subject with nothing in the range, ends the replay when the log has nothing more for it
    (not `Unavailable` once it waited in vain); its consumer and subscription are gone
    afterwards."""
    from shared.bus import event_store

    monkeypatch.setattr(event_store, "REPLAY_PULL", 3)
    table, other = table_id(), table_id()
    seqs, last = [], 0
    for i in range(25):
        last = (await bus.events.append(GAME, table, b"%d" % i, command_id=f"c{i}", expected_seq=last)).seq
        seqs.append(last)
    after = (await bus.events.append(GAME, other, b"o", command_id="o", expected_seq=0)).seq
    consumers = (await bus.js.stream_info(subjects.STREAM)).state.consumer_count
    subscriptions = len(bus.nc._subs)

    async def replayed(upto: int) -> list:
        runs = bus.events.replay(subjects.STREAM, subjects.evt(GAME, table), upto=upto)
        return [m async for run in runs for m in run]

    got = await replayed(seqs[19])
    assert [m.seq for m in got] == seqs[:20]
    assert [m.data for m in got] == [b"%d" % i for i in range(20)]
    assert all(m.subject == subjects.evt(GAME, table) and m.writer == subjects.writer(GAME) for m in got)
    assert [m.seq for m in await replayed(after)] == seqs
    subject = subjects.evt(GAME, table)
    from_the_middle = bus.events.replay(subjects.STREAM, subject, after=seqs[4], upto=seqs[9])
    assert [m.seq async for run in from_the_middle for m in run] == seqs[5:10]
    with pytest.raises(Unavailable):
        [run async for run in bus.events.replay("TABLETOP_NO_SUCH_STREAM", subjects.EVT_ALL, upto=5)]
    # a subject with nothing in the range: no message ever says nothing is pending
    nothing = bus.events.replay(subjects.STREAM, subjects.evt(GAME, table_id()), after=seqs[0], upto=after)
    assert [run async for run in nothing] == []
    assert (await bus.js.stream_info(subjects.STREAM)).state.consumer_count == consumers
    assert len(bus.nc._subs) == subscriptions


async def test_an_unknown_table_has_no_messages(bus):
    assert await bus.events.last(GAME, table_id()) is None
    assert await bus.events.read(GAME, table_id()) == []


async def test_a_cluster_url_list_connects(nats_url):
    from shared.bus.connection import Bus
    from shared.settings import load_settings

    bus = await Bus.connect(f"{nats_url}, {nats_url}", load_settings(), name="test-list", wait=10)
    try:
        assert bus.nc.is_connected and len(bus.nc.servers) >= 1
    finally:
        await bus.close()


@pytest.mark.parametrize(
    "reply",
    [
        "$JS.ACK.TABLETOP.tabletop-table-projector-p3-all.1.4217.12.1764567600000000000.58",
        "$JS.ACK.hub.ACCHASH.TABLETOP.tabletop-table-projector-p3-all.2.4217.12.1764567600000000000.58",
        "$JS.ACK.hub.ACCHASH.TABLETOP.tabletop-table-projector-p3-all.2.4217.12.1764567600000000000.58.tok",
    ],
)
def test_a_delivery_position_is_what_nats_py_reads_from_the_reply(reply):
    metadata = Msg(_client=None, subject="x", reply=reply).metadata  # type: ignore[arg-type]  # no connection needed to parse
    assert delivery_position(reply) == (metadata.sequence.stream, metadata.num_pending)


@pytest.mark.parametrize("reply", ["", "_INBOX.abc.1", "$JS.ACK.TABLETOP.c.1.2"])
def test_a_subject_that_is_no_delivery_is_refused(reply):
    with pytest.raises(ValueError, match="not a JetStream delivery"):
        delivery_position(reply)
