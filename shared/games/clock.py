"""Turn clocks as table options, and the time arithmetic they need: pure, no clock of its own.

Time comes from the `at` stamps the worker writes on each log message (ISO 8601 UTC, to the
millisecond), handed to the table in `Context.now` and recorded in its `clock_charged` event,
so that a replay of the log gives the same remaining times as the live table.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Annotated, Literal

import msgspec

from shared.games.decider import Options, explained

ClockSpeed = Literal["none", "fast", "normal", "slow", "custom"]
OnTimeout = Literal["zombie", "lose"]
BotLevel = Literal["easy", "normal", "hard"]  # shared.games.bot_levels
# The named speeds: (time bank, increment per move), in seconds, as on Board Game Arena's
# real-time tables.
SPEEDS: dict[str, tuple[float, float]] = {
    "fast": (180.0, 15.0),
    "normal": (360.0, 30.0),
    "slow": (720.0, 60.0),
}
MIN_BANK = 1.0  # seconds
MAX_BANK = 7 * 24 * 3600.0
MAX_INCREMENT = 24 * 3600.0


class TableOptions(Options, frozen=True, kw_only=True):
    """The options every table takes, whatever its game: given at `create` next to the game's
    own options."""

    clock: Annotated[
        ClockSpeed,
        explained("A time bank per player: fast 3 min +15 s a move, normal 6 min +30 s, slow 12 min +60 s."),
    ] = "none"
    clock_bank: Annotated[float | None, explained("Custom clock only: each player's bank, in seconds.")] = (
        None
    )
    clock_increment: Annotated[
        float | None, explained("Custom clock only: seconds added to a player's bank after each move.")
    ] = None
    on_timeout: Annotated[
        OnTimeout,
        explained("When a clock runs out: a bot plays the seat, or the player loses (two players: at once)."),
    ] = "zombie"
    bots: Annotated[int, explained("Seats taken by bots when the table is made.")] = 0
    bot_level: Annotated[
        BotLevel,
        explained(
            "How well the bots of this table play: easy moves at once on a rule of thumb; normal and "
            "hard think ahead from what their seat sees (hard longer). A player's seat left to a bot "
            "plays at normal.",
            {"easy": "Easy bots", "normal": "Normal bots", "hard": "Hard bots"},
        ),
    ] = "normal"
    start_when_full: Annotated[
        bool, explained("The game starts by itself as soon as every seat is taken (as a rematch does).")
    ] = False


TABLE_OPTION_NAMES = frozenset(TableOptions.__struct_fields__)


class ClockSetting(msgspec.Struct, frozen=True):
    bank_ms: int
    increment_ms: int


def clock_problem(options: TableOptions) -> str | None:
    """Why the clock options do not hold together, or None."""
    if options.clock != "custom":
        if options.clock_bank is not None or options.clock_increment is not None:
            return "clock_bank and clock_increment go with clock custom only."
        return None
    if options.clock_bank is None:
        return "A custom clock needs clock_bank (seconds)."
    if not MIN_BANK <= options.clock_bank <= MAX_BANK:
        return f"clock_bank must be {MIN_BANK:g} to {MAX_BANK:g} seconds."
    if not 0 <= (options.clock_increment or 0) <= MAX_INCREMENT:
        return f"clock_increment must be 0 to {MAX_INCREMENT:g} seconds."
    return None


def clock_setting(options: TableOptions) -> ClockSetting | None:
    """The bank and increment of a table's clocks, None for a table without clocks."""
    if options.clock == "none":
        return None
    if options.clock == "custom":
        bank, increment = options.clock_bank or MIN_BANK, options.clock_increment or 0.0
    else:
        bank, increment = SPEEDS[options.clock]
    return ClockSetting(round(bank * 1000), round(increment * 1000))


def instant(text: str) -> datetime:
    return datetime.fromisoformat(text.replace("Z", "+00:00")).astimezone(UTC)


def stamp(moment: datetime) -> str:
    """An instant as the worker writes `at`: ISO 8601 UTC to the millisecond."""
    return moment.astimezone(UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")


def ms_between(start: str, end: str) -> int:
    """Milliseconds from `start` to `end` (0 if `end` is not later)."""
    return max(0, round((instant(end) - instant(start)).total_seconds() * 1000))


def later(start: str, ms: int) -> str:
    return stamp(instant(start) + timedelta(milliseconds=ms))
