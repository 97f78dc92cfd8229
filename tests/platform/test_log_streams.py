"""The log spread over several streams (`TABLETOP_LOG_STREAMS`), on a NATS of its own: each
stream holds its partitions only, views, replays and results equal a fold of the log, the
results are the same whatever order the streams are folded in, a rebuild reads every stream,
and a log made before keeps its layout whatever the setting says."""

from __future__ import annotations

import asyncio
import json
import random
import subprocess
import uuid
from collections.abc import AsyncIterator

import nats
import pytest
from nats.js.api import StreamConfig, SubjectTransform

from services.client import Client
from services.results_projector import maintenance as results_maintenance
from services.results_projector.standings import Standings
from services.table_projector import maintenance
from shared.bus.connection import Bus
from shared.bus.server import EmbeddedServer
from shared.messages import subjects
from shared.settings import load_settings
from tests.consistency import read_log, settled_views
from tests.platform.stack import stack
from tests.platform.test_results import play, until_counted
from tests.processes import TABLETOP, cli_env

GAME = "highcard"
STREAMS = 4


@pytest.fixture(scope="module")
async def spread_url(secure_server, tmp_path_factory) -> AsyncIterator[str]:
    """A NATS of its own (the session's log is one stream), every process of this module told
    to make the log over `STREAMS` streams."""
    if secure_server.secrets is None:
        pytest.skip("the log's layout is fixed when it is made: this needs a NATS of its own")
    with pytest.MonkeyPatch.context() as env:
        env.setenv("TABLETOP_LOG_STREAMS", str(STREAMS))
        server = EmbeddedServer(
            tmp_path_factory.mktemp("spread"), sync_always=False, secrets=secure_server.secrets, max_store=0
        )
        with server:
            yield server.url


@pytest.fixture
async def spread_bus(spread_url) -> AsyncIterator[Bus]:
    bus = await Bus.connect(spread_url, load_settings(), name="test-spread", wait=10)
    await bus.ensure_streams()
    yield bus
    await bus.close()


def unique(prefix: str) -> str:
    return f"{prefix}{uuid.uuid4().hex[:8]}"


def table_in(stream: int) -> str:
    """A fresh table id whose partition lies in the `stream`-th stream."""
    while subjects.LogLayout(STREAMS).stream_of(GAME, table := unique("t")) != subjects.log_stream(stream):
        pass
    return table


async def test_tables_spread_over_the_streams_and_every_reader_follows(spread_bus, spread_url):
    bus = spread_bus
    layout = await bus.events.layout()
    assert layout.streams == tuple(subjects.log_stream(i) for i in range(STREAMS))
    names = [
        "worker:highcard",
        "table-projector@0/2",
        "table-projector@1/2",
        "history-projector",
        "results-projector",
    ]
    async with stack(spread_url, *names) as s:
        client, rng = Client(bus), random.Random(5)
        players = [unique("p") for _ in range(3)]
        seatings = [players[i % 3 : i % 3 + 2] if i % 3 < 2 else [players[2], players[0]] for i in range(12)]
        # table ids drawn so that every stream takes three tables
        ended = [
            await play(client, seats, rng, table=table_in(i % STREAMS)) for i, seats in enumerate(seatings)
        ]
        for player in players:
            await until_counted(client, player, sum(player in seats for seats in seatings))

        # every stream holds its own partitions' tables only, and each took some
        lasts = await bus.events.last_seqs()
        assert list(lasts) == list(layout.streams) and all(lasts.values()), lasts
        for stream in layout.streams:
            stored = await bus._stream_subjects(stream, subjects.EVT_ALL)
            partitions = {parsed[0] for subject in stored if (parsed := subjects.parse_evt(subject))}
            assert partitions and partitions <= set(layout.partitions(stream)), (stream, partitions)

        # views, a replay, and the results: each what a fold of the log gives
        log = await read_log(bus)
        assert len(log) == len(seatings)
        figures = await settled_views(bus, log, timeout=30)
        assert not figures.different, figures
        table = ended[-1]["view"]
        steps = await client.replay(GAME, ended[-1]["table"], subjects.SPECTATOR, views="last")
        assert steps[-1]["view"] == table
        folded = await results_maintenance.fold_the_log(bus)
        assert await results_maintenance.differences(bus, folded, [GAME]) == []
        assert folded.results == len(seatings)

        # the streams folded in another order (each in its own): results that ended earlier
        # come after later ones, and are rated again in their place
        backwards = Standings()
        async for stream, run in bus.events.replay_log(dict(reversed(lasts.items()))):
            for m in run:
                backwards.fold(stream, m.seq, m.subject, m.data, m.writer)
        assert backwards.comparable() == folded.comparable()

        # a rebuild reads every stream; the projectors go on after it
        for shard in ("table-projector@0/2", "table-projector@1/2"):
            await s.stop(shard)
        tables, read = await maintenance.rebuild_views(bus)
        assert (tables, read) == (len(log), sum(lasts.values()))
        await s.start("table-projector@0/2", "table-projector@1/2")
        await play(client, players[:2], rng)
        figures = await settled_views(bus, await read_log(bus), timeout=30)
        assert not figures.different, figures

        # what an operator sees: every stream counted, and `verify` reads them all
        def tabletop(*args: str) -> subprocess.CompletedProcess[str]:
            command = [*TABLETOP, *args]
            env = cli_env(NATS_URL=spread_url)
            return subprocess.run(command, env=env, text=True, capture_output=True, timeout=120)

        status = await asyncio.to_thread(tabletop, "status", "--json")
        shown = json.loads(status.stdout)
        assert list(shown["log_streams"]) == list(layout.streams), status.stderr
        assert shown["log_last_seq"] == sum(shown["log_streams"].values()) > sum(lasts.values())
        verified = await asyncio.to_thread(tabletop, "verify")
        assert verified.returncode == 0, verified.stdout + verified.stderr


async def test_a_log_made_before_keeps_its_layout_and_captures_its_partitions(tmp_path, secure_server):
    """A log of the former configuration (one stream, an append subject placed into
    partitions by a subject transform) is kept as one stream whatever the setting says, its
    messages read as before, and appends go on."""
    if secure_server.secrets is None:
        pytest.skip("this needs a NATS of its own")
    with EmbeddedServer(tmp_path, sync_always=False, secrets=secure_server.secrets, max_store=0) as server:
        admin = secure_server.secrets.password("admin")
        nc = await nats.connect(server.url, user="admin", password=admin)
        js = nc.jetstream()
        former = "tabletop.evt.{{partition(16,1,2)}}.{{wildcard(1)}}.{{wildcard(2)}}"
        await js.add_stream(
            StreamConfig(
                name=subjects.STREAM,
                subjects=[subjects.EVT_FORMER_APPEND],
                subject_transform=SubjectTransform(src=subjects.EVT_FORMER_APPEND, dest=former),
                allow_direct=True,
            )
        )
        table = unique("t")
        body = json.dumps({"game": GAME, "table": table, "version": 1}).encode()
        await js.publish(f"tabletop.evt.{GAME}.{table}", body, headers={"Nats-Msg-Id": "first"})
        await nc.close()

        bus = await Bus.connect(server.url, load_settings(log_streams=STREAMS), name="test-former", wait=10)
        try:
            await bus.ensure_streams()
            assert (await bus.events.layout()).count == 1
            config = (await bus.js.stream_info(subjects.STREAM)).config
            assert config.subjects == [subjects.EVT_STORED_ANY] and config.subject_transform is None
            assert [m.data for m in await bus.events.read(GAME, table)] == [body]
            appended = await bus.events.append(GAME, table, b"{}", command_id="second", expected_seq=1)
            assert appended.seq == 2 and not appended.duplicate
            assert [m.seq for m in await bus.events.read(GAME, table)] == [1, 2]
            with pytest.raises(nats.js.errors.NotFoundError):
                await bus.js.stream_info(subjects.log_stream(1))
        finally:
            await bus.close()


def test_a_layout_is_read_from_what_its_first_stream_captures():
    for count in subjects.LOG_STREAM_COUNTS:
        layout = subjects.LogLayout(count)
        assert subjects.LogLayout.of_first_stream(layout.stored_subjects(subjects.STREAM)) == layout
        held = [p for stream in layout.streams for p in layout.partitions(stream)]
        assert sorted(held) == list(range(subjects.PARTITIONS))  # each partition in one stream
    with pytest.raises(ValueError, match="not 3"):
        subjects.LogLayout(3)
    assert subjects.LogLayout.of_first_stream([subjects.EVT_FORMER_APPEND]).count == 1


async def test_the_roles_may_use_every_stream_the_log_may_span():
    from shared.bus.roles import GRANTS

    for stream in subjects.LOG_STREAMS_ANY:
        assert f"$JS.API.DIRECT.GET.{stream}" in GRANTS["worker"].publish
        assert f"$JS.API.CONSUMER.MSG.NEXT.{stream}.*" in GRANTS["projector"].publish
        assert f"$JS.API.CONSUMER.MSG.NEXT.{stream}.*" in GRANTS["history"].publish
        assert not any(stream in p for p in GRANTS["bots"].publish)


def test_a_stream_read_after_another_rates_each_result_once_more_at_most(monkeypatch):
    """At a start the results projector reads one stream, then the next: the second's results
    ended among the first's. Each is placed in its order and the ratings applied once, when
    asked (a rating a result, then the whole tail again per late result, would be quadratic);
    the standings equal those of the two streams read in the order the tables ended."""
    from services.results_projector import standings as module

    rated = 0
    rate = module._rate

    def counting(*args: object) -> None:
        nonlocal rated
        rated += 1
        rate(*args)  # type: ignore[arg-type]

    monkeypatch.setattr(module, "_rate", counting)
    rng = random.Random(3)
    players = ["ann", "bob", "cat", "dan"]

    def table_messages(index: int) -> list[tuple[str, bytes]]:
        """A table's two log messages: started, and ended with a ranking at second `index`."""
        table, seats = f"t{index}", rng.sample(players, 2)
        at = f"2026-12-03T10:00:{index:02d}.000Z"
        ranking = [{"player": p, "rank": r, "score": 2 - r} for r, p in enumerate(seats, 1)]
        result = {
            "scores": {p: 2 - r for r, p in enumerate(seats, 1)},
            "ranking": ranking,
            "winners": seats[:1],
        }
        bodies = [
            {"type": "table_started", "players": seats},
            {"type": "game_ended", "result": result},
        ]
        subject = subjects.evt(GAME, table)
        return [
            (
                subject,
                json.dumps({"game": GAME, "table": table, "version": v, "at": at, "events": [e]}).encode(),
            )
            for v, e in enumerate(bodies, 1)
        ]

    # even tables in one stream, odd ones in another: each stream in the order its tables ended
    streams = {"A": [m for i in range(0, 40, 2) for m in table_messages(i)]}
    streams["B"] = [m for i in range(1, 40, 2) for m in table_messages(i)]
    writer = subjects.writer(GAME)
    one_after_another = Standings()
    for stream, messages in streams.items():
        for seq, (subject, data) in enumerate(messages, 1):
            assert one_after_another.fold(stream, seq, subject, data, writer)
    in_their_order = Standings()
    merged = sorted(
        (
            (json.loads(d)["at"], s, seq, subj, d)
            for s, ms in streams.items()
            for seq, (subj, d) in enumerate(ms, 1)
        ),
    )
    for _, stream, seq, subject, data in merged:
        in_their_order.fold(stream, seq, subject, data, writer)
        in_their_order.settle()  # as a projector asked after every result
    rated_in_order = rated
    rated = 0
    assert one_after_another.comparable() == in_their_order.comparable()
    assert rated == rated_in_order == 40  # each result rated once
    # a late result once the others were applied: those after it taken back and rated again
    late = Standings()
    for stream, messages in sorted(streams.items(), reverse=True):  # B first, then A
        for seq, (subject, data) in enumerate(messages, 1):
            late.fold(stream, seq, subject, data, writer)
            late.settle()
    assert late.comparable() == in_their_order.comparable()
