"""The chat service (`tabletop chat-service`): a room per game lobby and per table, and who is
at a table.

A player posts a line on `tabletop.say.<game>.lobby.<player>` or
`tabletop.say.<game>.table.<table>.<player>` (the broker lets a connection name itself only,
and lets guests read but not post). The service cleans the text (no control or reordering
characters), caps its length, holds each player to `RATE_BURST` lines at once and one more
every `RATE_EVERY` seconds, marks a table's line from someone not seated there as a
spectator's, keeps it in the chat stream (never the game log) and then publishes it on the
room's `tabletop.chat...` subject; `tabletop.chatlog...` answers a room's last lines.

A table page says `tabletop.here.<game>.<table>.<player>` every `HERE_EVERY` seconds; a seated
player's word is kept in the presence bucket (shared by the replicas, each entry dropped after
`PRESENCE_TTL`), and the answer names the seated players not heard from for `AWAY_AFTER`
seconds: away. Any number of replicas share the requests (each holds its own rate counts).
"""

from __future__ import annotations

import asyncio
import math
import time
import uuid
from collections.abc import Callable

import msgspec
import structlog

from services import VERSION
from services.game_worker.handler import utc_now
from services.registry import games
from shared.bus.connection import Bucket, Bus, Incoming
from shared.bus.errors import OutcomeUnknown, StorageFull, Unavailable
from shared.games.table import BOT_SEAT_PREFIX
from shared.messages import subjects
from shared.messages.chat import (
    CHATLOG_DEFAULT,
    ChatLogRequest,
    HereRequest,
    Line,
    Post,
    cleaned,
    text_problem,
)
from shared.messages.envelopes import (
    OUTCOME_UNKNOWN,
    STORAGE_FULL,
    BadRequest,
    ViewReply,
    decode_request,
    encoder,
    error_body,
    unknown_game_body,
)

log = structlog.get_logger("tabletop.chat")
SERVICE_NAME = "tabletop-chat"
QUEUE = "tabletop-chat"
RATE_BURST = 5  # lines a player may say at once
RATE_EVERY = 2.0  # seconds for each further line
AWAY_AFTER = 45.0  # seconds without a word from a seated player's table page: away
HERE_EVERY = 15.0  # seconds between two words of a table page
PRESENCE_TTL = 600.0  # seconds a word is kept
RETRY_MS = 1000  # when to send again after `unavailable`
RATE_FORGET = 10_000  # players held before those with a full allowance are forgotten


class RateLimit:
    """A token bucket per player: `burst` lines at once, then one every `every` seconds."""

    def __init__(self, burst: int = RATE_BURST, every: float = RATE_EVERY) -> None:
        self.burst = burst
        self.every = every
        self.allowance: dict[str, tuple[float, float]] = {}  # player -> (lines left, at)

    def take(self, player: str, now: float) -> float:
        """Take one line of `player`'s allowance at `now`: 0 when it may say it, else the
        seconds until it may."""
        left, at = self.allowance.get(player, (float(self.burst), now))
        left = min(float(self.burst), left + (now - at) / self.every)
        if left < 1.0:
            self.allowance[player] = (left, now)
            return (1.0 - left) * self.every
        self.allowance[player] = (left - 1.0, now)
        if len(self.allowance) > RATE_FORGET:
            self.forget_rested(now)
        return 0.0

    def forget_rested(self, now: float) -> None:
        """Drop the players whose allowance is whole again: they start afresh anyway."""
        for player, (left, at) in list(self.allowance.items()):
            if left + (now - at) / self.every >= self.burst:
                del self.allowance[player]


class Chat:
    def __init__(
        self,
        bus: Bus,
        presence: Bucket,
        *,
        clock: Callable[[], float] = time.monotonic,
        now: Callable[[], str] = utc_now,
        wall: Callable[[], float] = time.time,
    ) -> None:
        self.bus = bus
        self.presence = presence
        self.games = games()
        self.limit = RateLimit()
        self.clock = clock  # the rate's
        self.now = now  # a line's time
        self.wall = wall  # presence, shared by the replicas: the machines' clocks
        self.counts = {"said": 0, "refused": 0, "rate_limited": 0, "here": 0}

    async def on_say(self, message: Incoming) -> None:
        body = await self.say(message.subject, message.data)
        self.counts["said" if body.startswith(b'{"ok":true') else "refused"] += 1
        await message.respond(body)

    async def say(self, subject: str, data: bytes) -> bytes:
        game, table, player = subjects.parse_room(subject, "say", sender=True) or ("", None, None)
        if player is None:
            return error_body(
                "bad_request",
                "Post to tabletop.say.<game>.lobby.<you> or tabletop.say.<game>.table.<table>.<you>.",
            )
        if game not in self.games:
            return unknown_game_body("", game)
        try:
            post = decode_request(data, Post)
        except BadRequest as err:
            return error_body("bad_request", str(err))
        text = cleaned(post.text)
        if (problem := text_problem(text)) is not None:
            return error_body("bad_request", problem)
        wait = self.limit.take(player, self.clock())
        if wait:
            self.counts["rate_limited"] += 1
            return error_body(
                "rate_limited",
                f"You are saying a lot: wait {math.ceil(wait)} s before your next line.",
                retry_after_ms=int(wait * 1000) + 1,
            )
        spectator = False
        if table is not None:
            seats = await self.seats(game, table)
            if isinstance(seats, bytes):
                return seats
            spectator = player not in seats
        line_id = f"{player}-{post.id or uuid.uuid4().hex}"
        line = encoder.encode(Line(id=line_id, player=player, text=text, at=self.now(), spectator=spectator))
        try:
            appended = await self.bus.chat.append(game, table, line, line_id=line_id)
        except StorageFull:
            return error_body(STORAGE_FULL, "The chat's storage is full; nothing was said.")
        except OutcomeUnknown:
            return error_body(
                OUTCOME_UNKNOWN, "The chat did not say whether it kept the line: send it again with its id."
            )
        except Unavailable:
            return error_body(
                "unavailable", "The chat is unavailable; nothing was said.", retry_after_ms=RETRY_MS
            )
        if not appended.duplicate:  # a line sent again was published the first time
            await self.bus.publish(subjects.chat(game, table), line)
        return encoder.encode({"ok": True, "id": line_id})

    async def seats(self, game: str, table: str) -> list[str] | bytes:
        """Who is seated at the table, from its spectator view; or the error body to answer."""
        try:
            stored = await self.bus.table_views(game, table)
            spectator = None if stored is None else stored.of(subjects.SPECTATOR)
            if spectator is not None:
                seats = msgspec.json.decode(spectator, type=ViewReply).view.get("seats", [])
                return [s for s in seats if isinstance(s, str)]
            known = await self.bus.events.last(game, table) is not None
        except Unavailable:
            return error_body(
                "unavailable", "The table could not be read; nothing said.", retry_after_ms=RETRY_MS
            )
        if known:  # its views are being stored
            return error_body("not_ready", "The table is being set up; say it again.", retry_after_ms=250)
        return error_body("unknown_table", f"There is no {game} table {table}.")

    async def on_here(self, message: Incoming) -> None:
        self.counts["here"] += 1
        await message.respond(await self.here(message.subject, message.data))

    async def here(self, subject: str, data: bytes) -> bytes:
        tokens = subjects.parse(subject, "here")
        if tokens is None or len(tokens) != 3:
            return error_body("bad_request", "Say tabletop.here.<game>.<table>.<you>.")
        game, table, player = tokens
        if game not in self.games:
            return unknown_game_body("", game)
        try:
            decode_request(data, HereRequest)
        except BadRequest as err:
            return error_body("bad_request", str(err))
        seats = await self.seats(game, table)
        if isinstance(seats, bytes):
            return seats
        now = self.wall()
        away = []
        try:
            if player in seats:  # a spectator's word is not kept: nobody asks whether it is away
                await self.presence.put(subjects.presence_key(game, table, player), b"%.3f" % now)
            for seat in seats:
                if seat == player or seat.startswith(BOT_SEAT_PREFIX):
                    continue
                seen = await self.presence.get(subjects.presence_key(game, table, seat))
                if seen is None or now - float(seen) > AWAY_AFTER:
                    away.append(seat)
        except Unavailable:
            return error_body("unavailable", "Who is here could not be told.", retry_after_ms=RETRY_MS)
        return encoder.encode({"away": away, "every_ms": int(HERE_EVERY * 1000)})

    async def on_chatlog(self, message: Incoming) -> None:
        await message.respond(await self.chatlog(message.subject, message.data))

    async def chatlog(self, subject: str, data: bytes) -> bytes:
        room = subjects.parse_room(subject, "chatlog")
        if room is None:
            return error_body(
                "bad_request", "Ask tabletop.chatlog.<game>.lobby or tabletop.chatlog.<game>.table.<table>."
            )
        game, table, _ = room
        if game not in self.games:
            return unknown_game_body("", game)
        try:
            request = decode_request(data, ChatLogRequest)
        except BadRequest as err:
            return error_body("bad_request", str(err))
        try:
            lines = await self.bus.chat.lines(game, table)
        except Unavailable:
            return error_body("unavailable", "The chat could not be read.", retry_after_ms=RETRY_MS)
        return b'{"lines":[%s]}' % b",".join(lines[-(request.limit or CHATLOG_DEFAULT) :])


async def presence_bucket(bus: Bus) -> Bucket:
    """Who is at each table, lately (made if missing)."""
    return await bus.bucket(
        subjects.PRESENCE_BUCKET, description="tabletop: who is at each table, lately", ttl=PRESENCE_TTL
    )


async def serve_chat(bus: Bus, stop: asyncio.Event) -> None:
    await bus.ensure_chat()
    chat = Chat(bus, await presence_bucket(bus))
    await bus.add_service(
        name=SERVICE_NAME,
        version=VERSION,
        description="tabletop chat: a room per game lobby and per table, and who is at a table",
        endpoints=[
            ("say", subjects.SAY_ALL, QUEUE, chat.on_say),
            ("chatlog", subjects.CHATLOG_ALL, QUEUE, chat.on_chatlog),
            ("here", subjects.HERE_ALL, QUEUE, chat.on_here),
        ],
        stats=lambda: dict(chat.counts),
    )
    log.info("chat_started")
    await stop.wait()
