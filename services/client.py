"""A client of the protocol, as any frontend would be: commands, views, lobby, replays.

Used by the CLI and the tests; it knows subjects and bodies, nothing of the services' insides.
"""

from __future__ import annotations

import asyncio
import json
import random
import secrets
import uuid
from collections.abc import AsyncGenerator, Callable, Collection
from typing import Any

import msgspec

from services.registry import get
from shared.bus.connection import Bus, Incoming
from shared.bus.errors import Unavailable
from shared.games.bot_levels import bot_move
from shared.games.table import BOTS_PLAYER
from shared.messages import subjects
from shared.messages.envelopes import SEND_AGAIN, encoder

_decode = msgspec.json.decode
# How long a whole game played here waits for the next view: the table moves on by the bot
# service or a clock, and views may lag the log while a server's failover elects new stream
# and consumer leaders (seconds under load, more than a lone view request's 10 s).
PLAY_WAIT = 60.0


def _says_send_again(reply: Any) -> bool:
    """An answer saying the log was away for a moment, or that the command's outcome is not
    known yet: the same request (a command with the same id) is worth sending again."""
    error = reply.get("error") if isinstance(reply, dict) else None
    return isinstance(error, dict) and error.get("code") in SEND_AGAIN


def backoff(attempt: int) -> float:
    """Seconds before asking again after `attempt` (0 first) failed: doubling from 0.2 s up to
    2 s, each drawn between half and all of it, so clients that failed together (a leader
    change) do not all ask again at once."""
    return random.uniform(0.5, 1.0) * min(0.2 * 2.0**attempt, 2.0)


class RequestFailed(Exception):
    def __init__(self, code: str, message: str) -> None:
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message


def new_id() -> str:
    return uuid.uuid4().hex


class Client:
    def __init__(self, bus: Bus, *, timeout: float = 5.0, attempts: int = 5) -> None:
        self.bus = bus
        self.timeout = timeout
        self.attempts = attempts

    async def _ask(self, subject: str, body: bytes) -> dict[str, Any]:
        """A request, sent again (the same body) after a jittered backoff when no answer comes
        or the answer says to (`SEND_AGAIN`), at most `attempts` times: commands carry their
        id, so a command sent again is applied once."""
        for attempt in range(self.attempts):
            last = attempt == self.attempts - 1
            try:
                reply = await self._ask_once(subject, body)
            except Unavailable:
                if last:
                    raise
            else:
                if last or not _says_send_again(reply):
                    return reply
            await asyncio.sleep(backoff(attempt))
        raise AssertionError("unreachable")

    async def _ask_once(self, subject: str, body: bytes) -> dict[str, Any]:
        """One request and its decoded answer; Unavailable when none comes in time."""
        reply: dict[str, Any] = _decode(await self.bus.request(subject, body, timeout=self.timeout))
        return reply

    async def command(
        self,
        game: str,
        table: str,
        player: str,
        command: dict[str, Any],
    ) -> dict[str, Any]:
        """Send a command (an `id` is added when it has none); the reply as a dict."""
        body = {"id": new_id(), **command}
        return await self._ask(subjects.cmd(game, table, player), encoder.encode(body))

    async def view(
        self, game: str, table: str, viewer: str = subjects.SPECTATOR, *, bot_seat: bool = False
    ) -> dict[str, Any]:
        """`viewer`'s view; `bot_seat`: the bot service asking for a seat one of its bots plays."""
        if bot_seat:
            body = json.dumps({"seat": viewer}).encode()
            return self._checked(await self._ask(subjects.view(game, table, BOTS_PLAYER), body))
        return self._checked(await self._ask(subjects.view(game, table, viewer), b"{}"))

    async def wait_view(
        self,
        game: str,
        table: str,
        viewer: str,
        version: int,
        *,
        timeout: float = 10.0,
        bot_seat: bool = False,
    ) -> dict[str, Any]:
        """The view once the projector has reached `version` (views follow the log closely):
        `not_ready` (views being stored) and `unknown_table` (a table being created) are
        waited through."""
        deadline = asyncio.get_running_loop().time() + timeout
        while True:
            try:
                reply = await self.view(game, table, viewer, bot_seat=bot_seat)
                if reply["version"] >= version:
                    return reply
            except RequestFailed as err:
                if err.code not in ("unknown_table", "not_ready"):
                    raise
            except Unavailable:  # the view service is (re)starting: it is waited for too
                if asyncio.get_running_loop().time() > deadline:
                    raise
            if asyncio.get_running_loop().time() > deadline:
                raise TimeoutError(f"the view of {table} did not reach version {version}")
            await asyncio.sleep(0.01)

    async def lobby(
        self,
        game: str,
        *,
        limit: int | None = None,
        status: str | None = None,
        after: str | None = None,
    ) -> dict[str, Any]:
        """One page of the lobby, newest first; its `next` is the `after` of the next page."""
        request = {k: v for k, v in (("limit", limit), ("status", status), ("after", after)) if v is not None}
        return self._checked(await self._ask(subjects.lobby(game), json.dumps(request).encode()))

    async def profile(self, player: str) -> dict[str, Any]:
        """A player's record: per game played, won and rating, and their latest tables."""
        return self._checked(await self._ask(subjects.profile(player), b"{}"))

    async def history(
        self, player: str, *, after: int | None = None, limit: int | None = None, game: str | None = None
    ) -> dict[str, Any]:
        """One page of a player's tables, newest first; its `next` is the `after` of the next."""
        request = {k: v for k, v in (("after", after), ("limit", limit), ("game", game)) if v is not None}
        return self._checked(await self._ask(subjects.history(player), json.dumps(request).encode()))

    async def rankings(
        self, game: str, *, after: int | None = None, limit: int | None = None
    ) -> dict[str, Any]:
        """One page of a game's leaderboard, best first; its `next` is the `after` of the next."""
        request = {k: v for k, v in (("after", after), ("limit", limit)) if v is not None}
        return self._checked(await self._ask(subjects.rankings(game), json.dumps(request).encode()))

    async def say(
        self, game: str, table: str | None, player: str, text: str, *, line_id: str | None = None
    ) -> dict[str, Any]:
        """Say `text` as `player` at a table (`table` None: the game's lobby); the answer as a
        dict (`{"ok": true, "id"}` or an error). Sent again with the same id when the chat asks."""
        body = {"id": line_id or new_id(), "text": text}
        return await self._ask(subjects.say(game, player, table), encoder.encode(body))

    async def chatlog(
        self, game: str, table: str | None, *, limit: int | None = None
    ) -> list[dict[str, Any]]:
        """A room's last lines, oldest first (`table` None: the game's lobby)."""
        request = {} if limit is None else {"limit": limit}
        reply = self._checked(await self._ask(subjects.chatlog(game, table), encoder.encode(request)))
        lines: list[dict[str, Any]] = reply["lines"]
        return lines

    async def replay(
        self,
        game: str,
        table: str,
        viewer: str = subjects.SPECTATOR,
        *,
        first: int = 0,
        last: int | None = None,
        views: str | None = None,
    ) -> list[dict[str, Any]]:
        """Every step from `first` to `last`, asking again while the answer says `next`;
        `views` says which steps carry their view (`every`, `last` of each page, `none`)."""
        steps: list[dict[str, Any]] = []
        while True:
            request: dict[str, Any] = {"from": first, "to": last}
            if views is not None:
                request["views"] = views
            body = encoder.encode(request)
            reply = self._checked(await self._ask(subjects.replay(game, table, viewer), body))
            steps += reply["steps"]
            if reply.get("next") is None:
                return steps
            first = reply["next"]

    async def updates(
        self,
        game: str,
        table: str,
        viewer: str,
        *,
        subscribed: asyncio.Event | None = None,
    ) -> AsyncGenerator[dict[str, Any], None]:
        """Every view pushed for `viewer` from now on (`subscribed` is set once the server
        knows of the subscription: nothing pushed after that is missed)."""
        queue: asyncio.Queue[bytes] = asyncio.Queue()

        async def on_update(message: Incoming) -> None:
            await queue.put(message.data)

        sub = await self.bus.subscribe(subjects.update(game, table, viewer), on_update)
        if subscribed is not None:
            subscribed.set()
        try:
            while True:
                yield _decode(await queue.get())
        finally:
            await sub.unsubscribe()

    async def session(self, player: str, body: dict[str, str]) -> dict[str, Any]:
        """A request about `player`'s session tokens (docs/protocol.md#sessions): `{}` for a new
        token, `{"revoke": token}`, or a password change. Asked once (a password change sent
        twice would be refused the second time); `RequestFailed` on a refusal."""
        data = await self.bus.request(subjects.session(player), encoder.encode(body), timeout=self.timeout)
        reply: dict[str, Any] = _decode(data)
        if not reply.get("ok"):
            raise RequestFailed(reply["error"]["code"], reply["error"]["message"])
        return reply

    @staticmethod
    def _checked(reply: dict[str, Any]) -> dict[str, Any]:
        if isinstance(reply, dict) and "error" in reply and "ok" not in reply:
            raise RequestFailed(reply["error"]["code"], reply["error"]["message"])
        return reply


async def play_with_bots(
    client: Client,
    game: str,
    table: str,
    bots: list[str],
    rng: random.Random,
    *,
    options: dict[str, Any] | None = None,
    on_move: Callable[[int, str, dict[str, Any]], None] = lambda version, bot, command: None,
    seat_clients: dict[str, Client] | None = None,
    silent: Collection[str] = (),
) -> dict[str, Any]:
    """Seat `bots` at a new table and let each play from its own view until the end; the
    final spectator view reply. Bots see only what a client sees: their view and its `legal`.
    A bot in `seat_clients` acts and looks through its own (signed-in) client, the others
    through `client`. The seats the bot service takes (the `bots` option) are played by it,
    and the `silent` bots are seated but never act (their clocks run out)."""
    rules = get(game).game

    def seat(bot: str) -> Client:
        return (seat_clients or {}).get(bot, client)

    async def send(bot: str, command: dict[str, Any]) -> dict[str, Any]:
        reply = await seat(bot).command(game, table, bot, command)
        if not reply.get("ok") and reply["error"]["code"] != "stale_version":
            raise RequestFailed(reply["error"]["code"], f"{bot} sent {command}: {reply['error']['message']}")
        return reply

    seats = len(bots) + int((options or {}).get("bots", 0))
    # each seat adds its own entropy to the table's seed (docs/fairness.md)
    create = {
        "type": "create",
        "options": dict(options or {}),
        "seats": seats,
        "entropy": secrets.token_hex(32),
    }
    await send(bots[0], create)
    for bot in bots[1:]:
        await send(bot, {"type": "join", "entropy": secrets.token_hex(32)})
    version = (await send(bots[0], {"type": "start"}))["version"]
    while True:
        spectator = await client.wait_view(game, table, subjects.SPECTATOR, version, timeout=PLAY_WAIT)
        version = spectator["version"]
        if spectator["view"]["status"] == "ended":
            return spectator
        zombies = spectator["view"].get("zombies", ())
        ours = [b for b in spectator["view"]["to_act"] if b in bots and b not in silent and b not in zombies]
        if not ours:  # the bot service, or a clock, moves the table on
            version += 1
            continue
        for bot in ours:
            own = await seat(bot).wait_view(game, table, bot, version, timeout=PLAY_WAIT)
            if own["version"] != version or "legal" not in own["view"]:
                continue
            command = bot_move(rules, own["view"], rng)
            # `expect`: refused if the table moved on meanwhile; the loop then looks again,
            # at a version past this one
            reply = await send(bot, {**command, "expect": version})
            if reply.get("ok"):
                version = reply["version"]
                on_move(version, bot, command)
            else:
                version += 1
            break
