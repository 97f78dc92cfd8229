"""A table's state, as the table's events build it: the platform's part, and the game's own
state once the game has started."""

from __future__ import annotations

from typing import Any, Literal

import msgspec

from shared.games.clock import TABLE_OPTION_NAMES, ClockSetting, TableOptions
from shared.games.decider import Game, PlayerId, Result
from shared.games.draws import Receipt
from shared.games.table_messages import BOT_SEAT_PREFIX

Status = Literal["new", "open", "running", "ended"]


class Clock(msgspec.Struct, frozen=True, kw_only=True):
    """The players' clocks: each one's remaining time as of `since` (the stamp of the last
    charge); they run for the human seats that must act (`table_clock.running`)."""

    setting: ClockSetting
    remaining_ms: dict[PlayerId, int] = {}
    since: str = ""  # "" until the game starts


class TakeBack(msgspec.Struct, frozen=True, kw_only=True):
    """A move `player` may still take back, and the game's state before it."""

    player: PlayerId
    game: Any


class Table(msgspec.Struct, frozen=True, kw_only=True):
    """A table's state: the platform's part, and `game` once the game has started."""

    status: Status = "new"
    creator: PlayerId = ""
    seat_count: int = 0
    options: dict[str, Any] = {}
    players: tuple[PlayerId, ...] = ()
    game: Any = None
    result: Result | None = None
    clock: Clock | None = None
    bots: tuple[PlayerId, ...] = ()  # seats a bot took at creation
    zombies: tuple[PlayerId, ...] = ()  # seats a bot plays since their player quit or timed out
    quitters: tuple[PlayerId, ...] = ()
    timed_out: tuple[PlayerId, ...] = ()
    rematch: str = ""  # the next table, once a player offered it after the end
    rematch_by: PlayerId = ""
    rematch_declined: tuple[PlayerId, ...] = ()
    take_backs: tuple[TakeBack, ...] = ()  # the moves that may be taken back, last last
    # the seed (shared.games.seeding): the secret (hex; "" for a table logged before seeds),
    # each player's entropy, the seed once started, the blocks drawn and each command's
    # receipts by first block, and whether the secret was revealed
    secret: str = ""
    entropy: dict[PlayerId, str] = {}
    seed: str = ""
    draws_used: int = 0
    receipts: dict[int, list[Receipt]] = {}
    revealed: bool = False

    @property
    def humans(self) -> tuple[PlayerId, ...]:
        """The seats still played by their person."""
        return tuple(p for p in self.players if p not in self.bots and p not in self.zombies)

    @property
    def table_options(self) -> TableOptions:
        return table_options_of(self.options)


def table_options_of(options: dict[str, Any], *, strict: bool = False) -> TableOptions:
    """The table's own options out of a table's options (`strict` for those a client gives;
    ValidationError when they are wrong)."""
    return msgspec.convert(
        {k: v for k, v in options.items() if k in TABLE_OPTION_NAMES}, TableOptions, strict=strict
    )


def game_options_of(options: dict[str, Any]) -> dict[str, Any]:
    """The game's options out of a table's options."""
    return {k: v for k, v in options.items() if k not in TABLE_OPTION_NAMES}


def bot_seat(index: int) -> PlayerId:
    return f"{BOT_SEAT_PREFIX}{index}"


def players_to_act(game: Game[Any, Any], table: Table) -> list[PlayerId]:
    """The seats the game waits for; none unless it is running."""
    if table.status != "running":
        return []
    return list(game.players_to_act(table.game))
