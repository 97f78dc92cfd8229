"""The clocks of a running table: which run, when the first runs out, and charging them.

Time is only ever the `at` stamps of log messages (`Context.now`), recorded in `clock_charged`
events, so that a replay gives the same remaining times as the live table.
"""

from __future__ import annotations

from typing import Any

import msgspec

from shared.games.clock import later, ms_between
from shared.games.decider import Event, Game, PlayerId
from shared.games.table_messages import ClockCharged, ClockExpired
from shared.games.table_state import Table, players_to_act


def running(game: Game[Any, Any], table: Table) -> list[PlayerId]:
    """The seats whose clocks run: the humans who must act, at a table with clocks."""
    if table.clock is None or not table.clock.since or table.status != "running":
        return []
    humans = table.humans
    return [p for p in players_to_act(game, table) if p in humans]


def deadline(game: Game[Any, Any], table: Table) -> str | None:
    """When the first running clock runs out (UTC), None when no clock runs."""
    seats = running(game, table)
    if table.clock is None or not seats:
        return None
    return later(table.clock.since, min(table.clock.remaining_ms[p] for p in seats))


def out_of_time(game: Game[Any, Any], table: Table, now: str) -> list[PlayerId]:
    """The running seats whose clocks have run out at `now`."""
    clock = table.clock
    if clock is None or not now:
        return []
    elapsed = ms_between(clock.since, now)
    return [p for p in running(game, table) if clock.remaining_ms[p] <= elapsed]


def charge(table: Table, now: str, mover: PlayerId = "") -> list[Event]:
    """The `clock_charged` event a batch starts with, at a table with clocks."""
    if table.clock is None:
        return []
    return [ClockCharged(at=now or table.clock.since, player=mover)]


def charged(game: Game[Any, Any], table: Table, event: ClockCharged) -> Table:
    """The clocks that ran until `event.at` lose the time since the last charge; the mover
    gets the increment. The first charge, at the start, gives every clock its bank."""
    clock = table.clock
    if clock is None:
        return table
    if not clock.since:
        remaining = {p: clock.setting.bank_ms for p in table.players}
    else:
        elapsed = ms_between(clock.since, event.at)
        seats = running(game, table)
        remaining = {p: max(0, ms - elapsed) if p in seats else ms for p, ms in clock.remaining_ms.items()}
        if event.player in seats:
            remaining[event.player] += clock.setting.increment_ms
    return msgspec.structs.replace(
        table, clock=msgspec.structs.replace(clock, remaining_ms=remaining, since=event.at)
    )


def clock_expired(table: Table, event: ClockExpired) -> Table:
    return msgspec.structs.replace(table, timed_out=(*table.timed_out, event.player))
