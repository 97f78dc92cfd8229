"""The operator's side of the results: fold the whole log here, make the running results
projectors fold it again, and compare what they answer with this fold."""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Iterable
from typing import Any

import nats.errors

from services.results_projector.service import PAGE_MAX
from services.results_projector.standings import Standings
from shared.bus.connection import Bus
from shared.bus.errors import Unavailable
from shared.messages import subjects

CONSUMER_PREFIX = "tabletop-results"


async def fold_the_log(bus: Bus) -> Standings:
    """The standings of the whole log as it is now."""
    standings = Standings()
    async for stream, run in bus.events.replay_log(await bus.events.last_seqs()):
        for message in run:
            standings.fold(stream, message.seq, message.subject, message.data, message.writer)
    return standings


async def results_consumers(bus: Bus) -> list[tuple[str, str]]:
    """(stream, consumer) of every results projector's consumer of the log."""
    found = []
    for stream in (await bus.events.layout()).streams:
        infos = await bus.js.consumers_info(stream)
        found += [(stream, i.name) for i in infos if i.name.startswith(CONSUMER_PREFIX)]
    return sorted(found)


async def fold_again(bus: Bus, *, timeout: float = 120.0) -> list[str]:
    """Make every results projector fold the log again from its start (its consumers are
    deleted: the projector makes them again and reads from the first message) and wait until
    they have read it all. The consumers that were deleted."""
    consumers = await results_consumers(bus)
    for stream, name in consumers:
        await bus.delete_consumer(name, stream=stream)
    deadline = time.monotonic() + timeout
    for stream, name in consumers:
        while True:
            pending = await bus.consumer_pending(name, stream=stream)
            if pending == (0, 0):
                break
            if time.monotonic() > deadline:
                raise Unavailable(f"the results projector of {name} did not read the log again in time")
            await asyncio.sleep(0.2)
    return sorted({name for _, name in consumers})


async def ask(bus: Bus, subject: str, request: dict[str, Any], *, timeout: float = 60.0) -> dict[str, Any]:
    """A results request answered, asked again while the projector is still reading."""
    deadline = time.monotonic() + timeout
    while True:
        try:
            reply = await bus.nc.request(subject, json.dumps(request).encode(), timeout=5)
        except (nats.errors.TimeoutError, nats.errors.NoRespondersError) as err:
            if time.monotonic() > deadline:
                raise Unavailable(f"no results projector answers {subject}") from err
            await asyncio.sleep(0.5)
            continue
        answer: dict[str, Any] = json.loads(reply.data)
        if answer.get("error", {}).get("code") != "unavailable":
            return answer
        if time.monotonic() > deadline:
            raise Unavailable(answer["error"]["message"])
        await asyncio.sleep(0.2)


async def differences(
    bus: Bus, standings: Standings, games: Iterable[str], *, timeout: float = 60.0
) -> list[str]:
    """Where the running results projectors' answers differ from `standings`: every game's
    whole leaderboard and every player's whole history. Unavailable when none answers within
    `timeout`."""
    found: list[str] = []
    for game in games:
        expected = _all_pages(
            lambda after, g=game: standings.rankings(g, after=after, limit=PAGE_MAX), "players"
        )
        answered = await _all_pages_asked(bus, subjects.rankings(game), "players", timeout)
        if answered is None:  # a game this deployment does not serve: nothing to compare, or
            if expected:  # results of it in the log that nobody ranks
                found.append(f"rankings of {game}: the log has results, no results projector knows the game")
            continue
        if answered != expected:
            found.append(
                f"rankings of {game}: {len(answered)} players answered, {len(expected)} in the log"
                if len(answered) != len(expected)
                else f"rankings of {game} differ from the log"
            )
    for player in sorted(standings.history):
        expected = _all_pages(
            lambda after, p=player: standings.tables_of(p, after=after, limit=PAGE_MAX, game=None), "tables"
        )
        answered = await _all_pages_asked(bus, subjects.history(player), "tables", timeout)
        if answered != expected:
            found.append(f"history of {player} differs from the log")
    return found


def _all_pages(page: Any, key: str) -> list[Any]:
    items: list[Any] = []
    after = None
    while True:
        body = json.loads(json.dumps(page(after)))
        items += body[key]
        after = body["next"]
        if after is None:
            return items


async def _all_pages_asked(bus: Bus, subject: str, key: str, timeout: float) -> list[Any] | None:
    """Every page's `key` items; None when the projector knows no such game."""
    items: list[Any] = []
    after = None
    while True:
        request = {"limit": PAGE_MAX, **({} if after is None else {"after": after})}
        body = await ask(bus, subject, request, timeout=timeout)
        if body.get("error", {}).get("code") == "unknown_game":
            return None
        if "error" in body:
            raise Unavailable(f"{subject}: {body['error']['message']}")
        items += body[key]
        after = body["next"]
        if after is None:
            return items
