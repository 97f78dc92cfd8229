"""Snapshots of folded tables over a real NATS: a worker that does not hold a table loads it
from its snapshot and the log after it, and gets exactly the table the whole log folds to; a
wrong snapshot is not used; the worker's role writes them and nobody else's reads them
(test_roles.py, test_security.py)."""

from __future__ import annotations

import random
import uuid
from typing import Any

import msgspec
import pytest
from structlog.testing import capture_logs

from services.client import new_id
from services.game_worker.handler import CommandHandler
from services.registry import get
from services.table_projector import maintenance
from shared.bus import snapshots as snapshots_module
from shared.bus.buckets import Buckets
from shared.bus.errors import Unavailable
from shared.bus.snapshots import EVICTED_TAIL, WORTH_IT, Snapshots, rules_fingerprint
from shared.games.table import TableDecider
from shared.messages import subjects
from shared.messages.envelopes import encoder
from shared.messages.folding import Folded, fold_log
from shared.messages.snapshots import read_snapshot, write_snapshot
from tests.platform.stack import stack
from tests.platform.test_views_exact import until_exact
from tests.waiting import until

GAMES = ("naishi", "dozito", "diced_tomatoes", "decrypto", "illustori")


def table_id() -> str:
    return f"s{uuid.uuid4().hex[:12]}"


def same(a: Folded, b: Folded) -> bool:
    return (a.state, a.version, a.last_seq, a.command_ids) == (b.state, b.version, b.last_seq, b.command_ids)


class Player:
    """Sends commands through one handler as the tables' players would, choosing each with
    the game's easy bot from the seat's view of the table as its whole log folds."""

    def __init__(self, bus: Any, handler: CommandHandler, rng: random.Random) -> None:
        self.bus, self.handler, self.rng = bus, handler, rng
        self.decider: TableDecider = handler.decider

    async def send(self, table: str, player: str, command: dict[str, Any], command_id: str = "") -> Any:
        body = encoder.encode({"id": command_id or new_id(), **command})
        subject = subjects.cmd(self.decider.name, table, player)
        return msgspec.to_builtins(await self.handler.handle(subject, body))

    async def folded(self, table: str) -> Folded:
        return await fold_log(self.bus.events, self.decider, self.decider.name, table)

    async def seat(self, table: str, count: int) -> list[str]:
        players = [f"p{i}" for i in range(1, count + 1)]
        entropy = {"entropy": "ab" * 16}
        assert (await self.send(table, players[0], {"type": "create", "seats": count, **entropy}))["ok"]
        for player in players[1:]:
            assert (await self.send(table, player, {"type": "join", **entropy}))["ok"]
        assert (await self.send(table, players[0], {"type": "start"}))["ok"]
        return players

    async def move(self, table: str) -> bool:
        """One move at the table; False once its game is over."""
        state = (await self.folded(table)).state
        if state.status != "running":
            return False
        actor = self.rng.choice(list(self.decider.players_to_act(state)))
        view = self.decider.player_view(state, actor)
        legal = [c for c in view.get("legal", []) if c.get("type") != "undo"]
        command = self.decider.game.bot({**view, "legal": legal}, self.rng)
        reply = await self.send(table, actor, command)
        assert reply["ok"], (command, reply)
        return True


@pytest.mark.parametrize("game", GAMES)
async def test_tables_loaded_from_snapshots_fold_to_exactly_what_their_whole_logs_do(bus, game, monkeypatch):
    """Two tables played in turns through a worker that holds one table: every command loads
    the other table cold, from its snapshot (every 4 versions, and when dropped, whatever the
    table's length) and the log after it. After each command, every table's snapshot plus its
    log's tail folds to the table its whole log folds to, and at the end a fresh worker that
    loads them so agrees too."""
    monkeypatch.setattr(snapshots_module, "WORTH_IT", 1)
    decider = get(game)
    bucket = await bus.snapshots()
    snapshots = Snapshots(bucket, decider, every=4, cache_size=1)
    draws = random.Random(f"draws:{game}")
    handler = CommandHandler(decider, bus.events, cache_size=1, snapshots=snapshots, rng=lambda: draws)
    player = Player(bus, handler, random.Random(f"snapshots:{game}"))
    tables = [table_id(), table_id()]
    for table in tables:
        await player.seat(table, decider.game.min_players)
    rules = rules_fingerprint(decider)
    moving = list(tables)
    while moving:
        for table in list(moving):
            if not await player.move(table):
                moving.remove(table)
        await snapshots.drain()
        for table in tables:
            whole = await player.folded(table)
            data = await bucket.get(f"{game}.{table}")
            if data is None:
                continue
            snapshot = read_snapshot(decider, data, game=game, table=table, rules=rules)
            assert snapshot is not None and snapshot.version <= whole.version
            tail = await fold_log(bus.events, decider, game, table, since=snapshot)
            assert same(tail, whole)
    assert snapshots.counts.get("snapshots_loaded", 0) > 0
    assert snapshots.counts.get("snapshots_rejected", 0) == 0
    fresh = Snapshots(bucket, decider, every=4, cache_size=1)
    for table in tables:
        cold = CommandHandler(decider, bus.events, snapshots=fresh)
        assert same(await cold._load(table), await player.folded(table))
    assert fresh.counts["snapshots_loaded"] == len(tables)


def wrong_snapshots(
    decider: TableDecider, whole: Folded, older: Folded, other: Folded, table: str
) -> dict[str, bytes]:
    """Snapshots a worker must not use for `table` (folded whole, and `older` a fold of its
    log up to an earlier message; `other` another table's fold)."""
    game, rules = decider.name, rules_fingerprint(decider)

    def write(folded: Folded, **kw: str) -> bytes:
        return write_snapshot(folded, **{"game": game, "table": table, "rules": rules, **kw})

    replace = msgspec.structs.replace
    return {
        "garbage": b"\x93not a snapshot",
        "other rules": write(whole, rules="0" * 24),
        "another table's": write(other, table="elsewhere"),
        "another table's, under this name": write(other),
        "past the log": write(replace(whole, last_seq=whole.last_seq + 1000)),
        "a version too many": write(replace(whole, version=whole.version + 1)),
        "a version too few, older": write(replace(older, version=older.version - 1)),
        "a sequence between the table's messages": write(replace(older, last_seq=older.last_seq - 1)),
    }


async def test_a_wrong_snapshot_is_not_used_and_the_table_is_folded_from_its_whole_log(bus):
    decider = get("highcard")
    bucket = await bus.snapshots()
    writer = Player(bus, CommandHandler(decider, bus.events), random.Random(1))
    table, other = table_id(), table_id()
    for name in (table, other):
        assert (await writer.send(name, "ann", {"type": "create", "seats": 4}))["ok"]
        for i in range(WORTH_IT + 4):
            assert (await writer.send(name, "bob", {"type": "join" if i % 2 == 0 else "leave"}))["ok"]
    whole = await writer.folded(table)
    log = await bus.events.read("highcard", table)
    older = await fold_log(bus.events, decider, "highcard", table, upto=log[3].seq)
    for why, data in wrong_snapshots(decider, whole, older, await writer.folded(other), table).items():
        await bucket.put(f"highcard.{table}", data)
        snapshots = Snapshots(bucket, decider, every=1000, cache_size=8)
        cold = CommandHandler(decider, bus.events, snapshots=snapshots)
        folded = await cold._load(table)
        assert same(folded, whole), why
        assert snapshots.counts.get("snapshots_rejected") == 1, why
    # a right one is used: a retried command is still known, a new one applied once
    await bucket.put(
        f"highcard.{table}",
        write_snapshot(whole, game="highcard", table=table, rules=rules_fingerprint(decider)),
    )
    snapshots = Snapshots(bucket, decider, every=1000, cache_size=8)
    player = Player(bus, CommandHandler(decider, bus.events, snapshots=snapshots), random.Random(2))
    first_id = log[0]
    first = msgspec.json.decode(first_id.data)
    assert await player.send(
        table, "ann", {"type": "create", "seats": 4}, command_id=first["command_id"]
    ) == {
        "ok": True,
        "version": 1,
    }
    assert snapshots.counts == {"snapshots_loaded": 1}
    assert (await player.send(table, "cy", {"type": "join"}))["version"] == whole.version + 1
    assert len(await bus.events.read("highcard", table)) == whole.version + 1


async def test_a_worker_drops_a_table_into_its_snapshot_when_it_moved_enough(bus):
    """Dropped from the cache, a table moved EVICTED_TAIL versions since its last snapshot is
    written; one that moved less is not (its next load folds a short tail), nor one shorter
    than WORTH_IT versions (its log reads as fast)."""
    decider = get("highcard")
    bucket = await bus.snapshots()
    snapshots = Snapshots(bucket, decider, every=1000, cache_size=1)
    player = Player(
        bus, CommandHandler(decider, bus.events, cache_size=1, snapshots=snapshots), random.Random(3)
    )
    busy, quiet, short = table_id(), table_id(), table_id()

    seated: dict[str, bool] = {}

    async def grow(table: str, versions: int) -> None:
        for _ in range(versions):
            seated[table] = not seated.get(table, False)
            assert (await player.send(table, "bob", {"type": "join" if seated[table] else "leave"}))["ok"]

    for name in (busy, quiet, short):
        assert (await player.send(name, "ann", {"type": "create", "seats": 4}))["ok"]
    await grow(busy, WORTH_IT)  # dropped by the next: written
    await grow(quiet, WORTH_IT - 2)  # dropped by the next: too short
    await grow(short, 1)
    await snapshots.drain()
    assert await bucket.get(f"highcard.{quiet}") is None
    assert snapshots.counts == {"snapshots_written": 1}
    await grow(quiet, EVICTED_TAIL - 1)  # now worth it
    await grow(busy, 1)  # loads busy from its snapshot; drops quiet: written (none covered it)
    await grow(quiet, 1)  # loads quiet from its snapshot; drops busy: moved 1 since, not written
    await snapshots.drain()
    assert snapshots.counts == {"snapshots_written": 2, "snapshots_loaded": 2}
    data = await bucket.get(f"highcard.{busy}")
    assert data is not None
    snapshot = read_snapshot(decider, data, game="highcard", table=busy, rules=snapshots.rules)
    assert snapshot is not None and snapshot.version == WORTH_IT + 1  # as it was when dropped
    assert same(snapshot, await fold_log(bus.events, decider, "highcard", busy, upto=snapshot.last_seq))


async def test_the_worker_service_writes_snapshots_as_its_role(bus, nats_url):
    """The worker as `tabletop up` runs it, signed in as `worker`: a table past the default
    32 versions has a snapshot, which folds with the log to the table."""
    decider = get("highcard")
    table = table_id()
    async with stack(nats_url, "worker:highcard"):
        writer = Player(bus, CommandHandler(decider, bus.events), random.Random(4))

        # through the service, not this process's handler
        async def send(player: str, command: dict[str, Any]) -> Any:
            body = encoder.encode({"id": new_id(), **command})
            return msgspec.json.decode(await bus.request(subjects.cmd("highcard", table, player), body))

        assert (await send("ann", {"type": "create", "seats": 4}))["ok"]
        for i in range(33):
            assert (await send("bob", {"type": "join" if i % 2 == 0 else "leave"}))["ok"]
        bucket = await bus.snapshots()
        assert await until(lambda: bucket.get(f"highcard.{table}"))
        data = await bucket.get(f"highcard.{table}")
    assert data is not None
    snapshot = read_snapshot(decider, data, game="highcard", table=table, rules=rules_fingerprint(decider))
    assert snapshot is not None and snapshot.version == 32
    assert same(
        await fold_log(bus.events, decider, "highcard", table, since=snapshot), await writer.folded(table)
    )


async def test_a_projector_loads_tables_it_does_not_hold_from_their_snapshots_and_its_views_are_exact(
    bus, nats_url
):
    """A table projector restarted while its tables moved on folds each from its snapshot and
    the log after it (read with its role's grant), and every view it stores is the one the
    whole log folds to."""
    decider = get("highcard")
    # each table's snapshot at its version 33, where the projector stops
    snapshots = Snapshots(await bus.snapshots(), decider, every=1 + 2 * WORTH_IT, cache_size=8)
    player = Player(bus, CommandHandler(decider, bus.events, snapshots=snapshots), random.Random(5))
    tables = [table_id() for _ in range(3)]
    seated = dict.fromkeys(tables, False)

    async def grow(table: str, versions: int) -> None:
        for _ in range(versions):
            seated[table] = not seated[table]
            assert (await player.send(table, "bob", {"type": "join" if seated[table] else "leave"}))["ok"]

    async with stack(nats_url, "table-projector") as running:
        for table in tables:
            assert (await player.send(table, "ann", {"type": "create", "seats": 4}))["ok"]
            await grow(table, 2 * WORTH_IT)
        await until_exact(bus, tables)
        await running.stop("table-projector")
        for table in tables:
            await grow(table, 3)
        await snapshots.drain()
        await running.start("table-projector")
        await until_exact(bus, tables)
        stats = (await maintenance.service_stats(bus))["tabletop-table-projector"]
    counts = stats[0]["endpoints"][0]["data"]["snapshots"]["highcard"]
    assert counts.get("snapshots_loaded", 0) >= len(tables), counts
    assert counts.get("snapshots_rejected", 0) == 0, counts


async def test_a_worker_refused_the_snapshots_bucket_serves_without_snapshots(bus, nats_url, monkeypatch):
    """Snapshots are a cache: a worker whose server refuses it the bucket (grants from before
    the bucket, say) starts all the same, says so, and answers every command from the log."""

    async def refused(self: Any) -> Any:
        raise Unavailable("Permissions Violation for Publish to $JS.API.STREAM.CREATE.KV_TABLETOP_SNAPSHOTS")

    monkeypatch.setattr(Buckets, "snapshots", refused)
    table = table_id()
    with capture_logs() as logs:
        async with stack(nats_url, "worker:highcard"):
            for player, command in (("ann", {"type": "create", "seats": 4}), ("bob", {"type": "join"})):
                body = encoder.encode({"id": new_id(), **command})
                reply = msgspec.json.decode(await bus.request(subjects.cmd("highcard", table, player), body))
                assert reply["ok"], reply
    assert any(e["event"] == "snapshots_off" for e in logs)
