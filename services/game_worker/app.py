"""The game worker service: one game's commands, from a queue group, until SIGTERM."""

from __future__ import annotations

import asyncio

import structlog

from services.game_worker.handler import CommandHandler
from services.registry import get
from shared.bus.connection import Bus, Incoming, answering_failures
from shared.messages import subjects
from shared.messages.envelopes import encoder

log = structlog.get_logger("tabletop.worker")
VERSION = "0.1.0"


def service_name(game: str) -> str:
    """The worker's micro service name (`$SRV.*.<name>`)."""
    return f"tabletop-worker-{game}".replace("_", "-")


async def serve_worker(bus: Bus, game: str, stop: asyncio.Event) -> None:
    """Answer `tabletop.cmd.<game>.>` until `stop` is set, then drain what is in flight."""
    decider = get(game)
    handler = CommandHandler(
        decider, bus.events, cache_size=bus.settings.cache_size,
        max_retries=bus.settings.max_retries,
    )
    in_flight: set[asyncio.Task[None]] = set()

    async def run(message: Incoming) -> None:
        reply = await handler.handle(message.subject, message.data)
        await message.respond(encoder.encode(reply))

    async def on_command(message: Incoming) -> None:
        # One task per command: tables are handled concurrently, each under its own lock.
        task = asyncio.create_task(answering_failures(run, message))
        in_flight.add(task)
        task.add_done_callback(in_flight.discard)

    await bus.ensure_streams()
    service = await bus.add_service(
        name=service_name(game), version=VERSION,
        description=f"tabletop game worker for {decider.game.title}",
        endpoints=[("commands", subjects.cmd_all(game), f"tabletop-worker-{game}", on_command)],
        stats=lambda: {**handler.counts, "in_flight": len(in_flight),
                       "cached_tables": len(handler.cache)},
    )
    log.info("worker_started", game=game)
    await stop.wait()
    await service.stop()  # no new commands; answer the ones already taken
    if in_flight:
        await asyncio.wait(in_flight, timeout=10)
    log.info("worker_stopped", game=game, **handler.counts)

