"""Commands for a game that no worker serves, answered `unknown_game` rather than left to
the client's "no responders" or timeout.

Every worker replica, of every game, also joins one queue group on commands as they are sent
(`tabletop.cmd.<game>.<table>.<player>`). The account maps the commands of every game offered
where the server's config was made to their partitions (`subjects.cmd_mappings`), so this
group sees only the commands of the games it does not map: unknown ones, and any game added
since. The group's replica answers only a command whose game is neither one its process offers
nor one whose workers spoke lately (`tabletop.workers.<game>`, which only workers may publish),
so it never answers a command its game's workers answer, even for a game its own process does
not know. It keeps nothing a client sends: only when each game's workers last spoke.

Under an older config, with one mapping for every game's commands, every command reaches a
partition and none this group: a command for an unknown game then gets "no responders" (run
`tabletop credentials` again, docs/operations.md).
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Collection
from typing import Any

from shared.background import Background
from shared.bus.connection import Bus, Incoming
from shared.messages import subjects
from shared.messages.envelopes import unknown_game_body

QUEUE = "tabletop-unknown-games"


class UnknownGames:
    """Which games are served, as far as this replica knows: the ones its process offers and
    the ones whose workers spoke within `silence` seconds."""

    def __init__(self, offered: Collection[str], *, silence: float) -> None:
        self.offered = frozenset(offered)
        self.silence = silence
        self.heard: dict[str, float] = {}  # game -> when one of its workers last spoke
        self.answering = Background()  # answers on their way

    def served(self, game: str) -> bool:
        if game in self.offered:
            return True
        spoke = self.heard.get(game)
        return spoke is not None and time.monotonic() - spoke < self.silence

    def on_word(self, message: Incoming) -> None:
        """A worker replica says it is alive (or leaving: it still counts until `silence`,
        the safe side). Taken as the connection reads it, as the commands are: a word read
        before a command is known when that command is looked at."""
        self.heard[message.subject.rsplit(".", 1)[-1]] = time.monotonic()

    def on_command(self, message: Incoming) -> None:
        """Taken as the connection reads it (`Bus.take`)."""
        parsed = subjects.parse_cmd(message.subject)
        if parsed is not None and not self.served(parsed[0]):
            self.answering.start(message.respond(unknown_game_body(message.subject, parsed[0])))


async def answer_unknown_games(
    bus: Bus,
    offered: Collection[str],
    stop: asyncio.Event,
    *,
    listen_first: float,
    silence: float,
) -> None:
    """Answer commands for games nobody serves until `stop` is set. Listens to the workers'
    words for `listen_first` seconds (every live replica speaks within it) before it takes
    commands: until then a command for an unknown game gets "no responders" as before."""
    games = UnknownGames(offered, silence=silence)
    subscriptions: list[Any] = [await bus.take(subjects.workers("*"), games.on_word)]
    try:
        try:
            await asyncio.wait_for(stop.wait(), listen_first)
        except TimeoutError:
            subscriptions.append(await bus.take(subjects.CMD_UNMAPPED, games.on_command, queue=QUEUE))
            await stop.wait()
    finally:
        for subscription in subscriptions:
            with contextlib.suppress(Exception):  # the connection may be gone already
                await subscription.unsubscribe()
