"""The game worker service: the commands of one game or of several (`serve_workers`: one
process, one connection, each game its own micro service, queue groups and cache), until
SIGTERM.

Replicas share a game's commands by table: the account maps each command to one of
`subjects.CMD_PARTITIONS` partitions of its table, and each replica answers the partitions it
owns, so a table's commands reach one replica and its cache stays current. Replicas say every
`HEARTBEAT` seconds that they are alive; partition p belongs to the (p mod n)-th of the n
replicas heard from within `SILENCE` seconds (by id). A replica that stops says so and its
partitions move at once; one that dies is dropped after `SILENCE` seconds, and meanwhile its
tables' commands are not answered (clients ask again). While two replicas disagree on who owns
a partition, both answer it in one queue group: each command is handled once, and a decision
taken on a stale cache fails its append and is taken again, so the history never forks.
"""

from __future__ import annotations

import asyncio
import functools
import secrets
import time
from collections.abc import Callable, Collection
from typing import Any

import structlog

from services import VERSION
from services.game_worker.handler import CommandHandler
from services.game_worker.unknown_games import answer_unknown_games
from services.registry import games, get
from shared.background import Background
from shared.bus.connection import Bus, Delivered, Incoming, answering_failures
from shared.bus.messaging import release
from shared.bus.snapshots import Snapshots
from shared.bus.timers import due_version
from shared.games.table import SERVICE_PLAYER
from shared.messages import subjects
from shared.messages.envelopes import SEND_AGAIN, STORAGE_FULL, encoder
from shared.metrics import WorkerMetrics

log = structlog.get_logger("tabletop.worker")
HEARTBEAT = 0.5  # seconds between a replica's "alive"
SILENCE = 3.0  # seconds without a word after which a replica counts as gone


def service_name(game: str) -> str:
    """The worker's micro service name (`$SRV.*.<name>`)."""
    return f"tabletop-worker-{game}".replace("_", "-")


class Partitions:
    """The command partitions this replica owns, subscribed as the replicas come and go."""

    def __init__(self, bus: Bus, game: str, start_command: Callable[[Incoming], None]) -> None:
        self.bus = bus
        self.game = game
        self.start_command = start_command
        self.me = secrets.token_hex(8)
        self.heard: dict[str, float] = {self.me: time.monotonic()}
        self.subscriptions: dict[int, Any] = {}  # partition -> its subscription
        # a word heard and the heartbeat both settle; one at a time, or both would subscribe
        # the same partition (one subscription lost, never drained) or drain one twice
        self.settling = asyncio.Lock()

    def replicas(self) -> list[str]:
        now = time.monotonic()
        return sorted(r for r, at in self.heard.items() if r == self.me or now - at < SILENCE)

    def owned(self) -> set[int]:
        replicas = self.replicas()
        return {p for p in range(subjects.CMD_PARTITIONS) if replicas[p % len(replicas)] == self.me}

    async def on_word(self, message: Incoming) -> None:
        word = message.data.decode(errors="replace")
        replica, _, what = word.partition(" ")
        if what == "leaving":
            self.heard.pop(replica, None)
        else:
            self.heard[replica] = time.monotonic()
        if replica != self.me:
            await self.settle()

    async def settle(self) -> None:
        """Subscribe to the partitions owned now, and drain those no longer owned."""
        async with self.settling:
            owned = self.owned()
            for p in sorted(owned - self.subscriptions.keys()):
                self.subscriptions[p] = await self.bus.take(
                    subjects.cmd_partition(self.game, p),
                    self.start_command,
                    queue=f"tabletop-worker-{self.game}-p{p}",
                )
            for p in sorted(self.subscriptions.keys() - owned):
                await release(self.subscriptions.pop(p))

    async def run(self, stop: asyncio.Event) -> None:
        """Say this replica is alive, and keep its partitions, until `stop` is set. A beat
        that fails (the server away mid-subscribe) is taken again at the next: a keeper that
        stopped would leave a dead replica's partitions unanswered for good."""
        listening = None
        while not stop.is_set():
            try:
                if listening is None:
                    listening = await self.bus.subscribe(subjects.workers(self.game), self.on_word)
                await self.bus.publish(subjects.workers(self.game), f"{self.me} alive".encode())
                self.heard[self.me] = time.monotonic()
                await self.settle()  # also drops replicas gone silent
            except Exception as err:  # noqa: BLE001 - any failure of a beat: the next takes it again
                log.warning("partitions_beat_failed", game=self.game, error=f"{type(err).__name__}: {err}")
            try:
                await asyncio.wait_for(stop.wait(), HEARTBEAT)
            except TimeoutError:
                pass
        if listening is not None:  # stopped: no word heard settles its partitions again
            await release(listening, drain=False)

    async def leave(self) -> None:
        await self.bus.publish(subjects.workers(self.game), f"{self.me} leaving".encode())
        for p in list(self.subscriptions):
            await release(self.subscriptions.pop(p))


def deadlines_durable(game: str) -> str:
    """The durable consumer the game's worker replicas share for its due deadlines."""
    return f"tabletop-deadlines-{game}"


# Answers after which a due deadline is delivered again (a second later): it could not be
# decided yet (or whether it was is not known yet), or it came before its time by this
# machine's clock (the server's clock may run a little ahead), or the log's storage is full;
# one the table has moved past is refused `stale_version` and dropped.
TRY_AGAIN = frozenset({*SEND_AGAIN, "conflict", "not_due", STORAGE_FULL})


async def handle_deadlines(handler: CommandHandler, due: list[Delivered]) -> set[int]:
    """Decide each due deadline as the service's `deadline` command, expecting the version it
    was set for; the stream sequences of those to deliver again."""
    retry = set()
    for message in due:
        parsed = subjects.parse_deadline_due(message.subject)
        version = due_version(message.data)
        if parsed is None or version is None or parsed[0] != handler.game:
            log.error("deadline_skipped", subject=message.subject, seq=message.seq)
            continue
        game, table = parsed
        # one id per delivered message: delivered again after a crash, it is the same command
        command = {"id": f"deadline-{version}-{message.seq}", "type": "deadline", "expect": version}
        reply = await handler.handle(subjects.cmd(game, table, SERVICE_PLAYER), encoder.encode(command))
        if reply.error is not None and reply.error.code in TRY_AGAIN:
            retry.add(message.seq)
    return retry


async def serve_workers(bus: Bus, stop: asyncio.Event, *, served: Collection[str]) -> None:
    """Answer the commands of the games `served` until `stop` is set, then drain what is in
    flight: each game's worker as if alone (a replica of that game), and one answerer of
    unknown games for the process. A game's worker that fails ends them all: the process
    ends and is started again (under `tabletop up`, by its supervisor)."""
    await bus.ensure_streams()
    async with asyncio.TaskGroup() as group:
        group.create_task(
            answer_unknown_games(bus, games(), stop, listen_first=2 * HEARTBEAT, silence=SILENCE)
        )
        for game in served:
            group.create_task(serve_worker(bus, game, stop))


async def serve_worker(bus: Bus, game: str, stop: asyncio.Event) -> None:
    """Answer `game`'s commands until `stop` is set, then drain what is in flight (unknown
    games are answered by `serve_workers`, once a process)."""
    decider = get(game)
    # counted only where a port serves the counts: a count takes a lock, 5% of a command
    counted = WorkerMetrics(decider.name) if bus.settings.metrics_port else None
    await bus.ensure_streams()
    every, cache_size = bus.settings.snapshot_every, bus.settings.cache_size
    snapshots = None
    if every > 0:
        try:  # once: JetStream answers (the streams were just ensured)
            bucket = await bus.snapshots()
        except Exception as err:  # noqa: BLE001 - a cache: without it every table folds its log
            # (a server whose grants predate the bucket refuses it: `tabletop credentials` anew)
            log.warning("snapshots_off", game=game, error=f"{type(err).__name__}: {err}")
        else:
            snapshots = Snapshots(bucket, decider, every=every, cache_size=cache_size)
    handler = CommandHandler(
        decider,
        bus.events,
        cache_size=cache_size,
        cache_bytes=bus.settings.cache_mb << 20,
        max_retries=bus.settings.max_retries,
        timers=bus.timers,
        metrics=counted,
        snapshots=snapshots,
    )
    in_flight = Background()

    async def run(message: Incoming, received: float) -> None:
        reply = await handler.handle(message.subject, message.data)
        await message.respond(encoder.encode(reply))
        if counted is not None:
            counted.answered(
                None if reply.error is None else reply.error.code, time.perf_counter() - received
            )

    def start_command(message: Incoming) -> None:
        # One task per command: tables are handled concurrently, each under its own lock.
        answer = functools.partial(run, received=time.perf_counter())
        in_flight.start(answering_failures(answer, message))

    unmapped = 0  # commands taken as sent: the server's config maps no partitions for the game

    async def on_command(message: Incoming) -> None:
        nonlocal unmapped
        if not unmapped:
            log.warning(
                "commands_not_partitioned",
                game=game,
                why="the NATS account does not map this game's commands to partitions, so "
                "its replicas share every table and may conflict: run `tabletop credentials` "
                "again where the game is offered and give the servers the new auth.conf",
            )
        unmapped += 1
        start_command(message)

    partitions = Partitions(bus, game, start_command)
    keeping = asyncio.create_task(partitions.run(stop))
    deadlines = asyncio.create_task(
        bus.consume(
            deadlines_durable(game),
            subjects.deadline_due_all(game),
            lambda due: handle_deadlines(handler, due),
            stop=stop,
            batch=16,
            stream=subjects.TIMERS_STREAM,
        )
    )
    # the subject as sent, in one queue group: answered where the account maps no partitions
    service = await bus.add_service(
        name=service_name(game),
        version=VERSION,
        description=f"tabletop game worker for {decider.game.title}",
        endpoints=[("commands", subjects.cmd_all(game), f"tabletop-worker-{game}", on_command)],
        stats=lambda: {
            **handler.counts,
            **(snapshots.counts if snapshots is not None else {}),
            "in_flight": len(in_flight),
            "unmapped_commands": unmapped,
            "cached_tables": len(handler.cache),
            "cached_mb": round(handler.cache.weight / (1 << 20), 1),
            "replica": partitions.me,
            "replicas": len(partitions.replicas()),
            "partitions": sorted(partitions.subscriptions),
        },
    )
    log.info("worker_started", game=game, replica=partitions.me)
    await stop.wait()
    await keeping
    await deadlines
    await partitions.leave()
    await service.stop()  # no new commands; answer the ones already taken
    await in_flight.finish(timeout=10)
    if snapshots is not None:
        await snapshots.drain()
    log.info("worker_stopped", game=game, **handler.counts)
