"""What a load under faults is judged by: every acknowledged command in the log once, every
table's log a single line of versions, and every view in the bucket equal to a fold of the log.

The expected views are computed with the project's own fold (`shared/messages/folding.py`) and
the games' `player_view`, wrapped in the reply the table projector stores, and compared as
decoded JSON: equal bodies, whatever the key order.
"""

from __future__ import annotations

import asyncio
import time
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from typing import Any

import msgspec
import nats.js.errors

from services.client import Client, new_id
from services.registry import games
from shared.bus.connection import Bus
from shared.bus.errors import Unavailable
from shared.bus.event_store import TRANSIENT
from shared.messages import subjects
from shared.messages.envelopes import OUTCOME_UNKNOWN, EventBatch, ViewReply, normalize, read_table_views
from shared.messages.folding import CorruptLog, Folded, decode_batch, empty

TableKey = tuple[str, str]  # (game, table)
_header = msgspec.json.Decoder(EventBatch[msgspec.Raw])


class Acknowledged:
    """The commands the service said yes to: (game, table) -> {command id: version}."""

    def __init__(self) -> None:
        self.commands: dict[TableKey, dict[str, int]] = defaultdict(dict)
        self.count = 0  # acknowledgements, a retried command counted each time it was said yes
        self._changed = asyncio.Event()

    def record(self, game: str, table: str, command_id: str, version: int) -> None:
        self.commands[(game, table)][command_id] = version
        self.count += 1
        self._changed.set()

    @property
    def distinct(self) -> int:
        return sum(len(ids) for ids in self.commands.values())

    async def wait_for(self, count: int, timeout: float) -> None:
        """Until `count` acknowledgements in all were received (the load is moving)."""
        deadline = time.monotonic() + timeout
        while self.count < count:
            self._changed.clear()
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise TimeoutError(f"{self.count} commands acknowledged, not {count}")
            try:
                await asyncio.wait_for(self._changed.wait(), remaining)
            except TimeoutError:
                pass


class Answers:
    """Every answer to every attempt of every command: (game, table, command id) -> the error
    codes it was answered with (`timeout` for an attempt nobody answered in time)."""

    def __init__(self) -> None:
        self.codes: dict[tuple[str, str, str], list[str]] = defaultdict(list)
        # what views and replays were answered when not with what was asked: "view: not_ready"...
        self.requests_refused: Counter[str] = Counter()

    def record(self, subject: str, body: bytes, reply: dict[str, Any] | None, started: float) -> None:
        """One attempt's answer (None: nothing came in time); `started`: when it was sent."""
        parsed = subjects.parse_cmd(subject)
        if parsed is None:
            if reply is not None and reply.get("ok") is False:
                kind = subject.split(".", 2)[1]  # tabletop.<view|replay|lobby>...
                self.requests_refused[f"{kind}: {reply['error']['code']}"] += 1
            return
        game, table, _ = parsed
        command_id = msgspec.json.decode(body)["id"]
        if reply is None:
            self.codes[(game, table, command_id)].append("timeout")
        elif not reply.get("ok"):
            self.codes[(game, table, command_id)].append(reply["error"]["code"])

    def said_not_applied(self, log: dict[TableKey, list[Logged]]) -> list[tuple[str, str, str, str]]:
        """(game, table, command id, code) for each answer that said "not applied" (any code
        but the unknown outcome, or a timeout) of a command that is in the log."""
        in_log = {(game, table, m.command_id) for (game, table), messages in log.items() for m in messages}
        return [
            (*key, code)
            for key, codes in self.codes.items()
            if key in in_log
            for code in codes
            if code not in ("timeout", OUTCOME_UNKNOWN)
        ]

    def count(self, code: str) -> int:
        return sum(codes.count(code) for codes in self.codes.values())


class RecordingClient(Client):
    """A client that notes every acknowledged command (and the version it was given), and
    every answer to every attempt of a command."""

    def __init__(
        self, bus: Bus, acknowledged: Acknowledged, answers: Answers | None = None, **options: Any
    ) -> None:
        super().__init__(bus, **options)
        self.acknowledged = acknowledged
        self.answers = answers or Answers()

    async def _ask_once(self, subject: str, body: bytes) -> dict[str, Any]:
        started = time.monotonic()
        try:
            reply = await super()._ask_once(subject, body)
        except Unavailable:
            self.answers.record(subject, body, None, started)
            raise
        self.answers.record(subject, body, reply, started)
        return reply

    async def command(
        self,
        game: str,
        table: str,
        player: str,
        command: dict[str, Any],
    ) -> dict[str, Any]:
        command = {"id": new_id(), **command}
        reply = await super().command(game, table, player, command)
        if isinstance(reply, dict) and reply.get("ok"):
            self.acknowledged.record(game, table, command["id"], reply["version"])
        return reply


@dataclass(frozen=True, slots=True)
class Logged:
    """One log message as these checks need it."""

    seq: int
    version: int
    command_id: str
    player: str
    data: bytes


async def read_log(bus: Bus) -> dict[TableKey, list[Logged]]:
    """Every message of the log, by table, in stream order (whatever subjects the streams file
    them under)."""
    tables: dict[TableKey, list[Logged]] = defaultdict(list)
    for stream in (await bus.events.layout()).streams:  # a table's messages are in one stream
        async for message in bus.events.iterate(stream, ">"):
            header = _header.decode(message.data)
            tables[(header.game, header.table)].append(
                Logged(message.seq, header.version, header.command_id, header.player, message.data)
            )
    return dict(tables)


@dataclass(frozen=True, slots=True)
class LogFigures:
    acknowledged: int  # distinct acknowledged commands
    lost: int  # acknowledged, not in the log
    misplaced: int  # in the log at another version than the one acknowledged
    doubled: int  # extra copies of a command id in a table's log
    forked: int  # tables whose versions are not 1, 2, 3, ... (a gap or a version twice)
    messages: int  # in the log, over every table


def check_log(log: dict[TableKey, list[Logged]], acknowledged: Acknowledged) -> LogFigures:
    lost = misplaced = doubled = forked = 0
    for messages in log.values():
        if [m.version for m in messages] != list(range(1, len(messages) + 1)):
            forked += 1
        ids = [m.command_id for m in messages]
        doubled += len(ids) - len(set(ids))
    for key, commands in acknowledged.commands.items():
        version_of = {m.command_id: m.version for m in log.get(key, [])}
        for command_id, version in commands.items():
            if command_id not in version_of:
                lost += 1
            elif version_of[command_id] != version:
                misplaced += 1
    return LogFigures(
        acknowledged=acknowledged.distinct,
        lost=lost,
        misplaced=misplaced,
        doubled=doubled,
        forked=forked,
        messages=sum(len(m) for m in log.values()),
    )


def fold_versions(game: str, messages: list[Logged]) -> list[Folded]:
    """The table after each of its messages (index 0: version 1). CorruptLog on a fork."""
    decider = games()[game]
    folded, versions = empty(decider), []
    for message in messages:
        folded = folded.then(decider, message.seq, decode_batch(decider, message.data))
        versions.append(folded)
    return versions


def expected_view(game: str, folded: Folded, viewer: str) -> Any:
    """The body the table projector stores for `viewer` at this version, decoded."""
    decider = games()[game]
    seat = None if viewer == subjects.SPECTATOR else viewer
    return normalize(ViewReply(version=folded.version, view=decider.player_view(folded.state, seat)))


def expected_lobby(game: str, table: str, folded: Folded) -> Any:
    """What the table's lobby entry holds (it may hold more), or None when the lobby must not
    list it."""
    if folded.state.status not in ("open", "running"):
        return None
    decider = games()[game]
    return normalize({"table": table, "version": folded.version, **decider.lobby_entry(folded.state)})


def _split_key(key: str) -> tuple[str, str, str] | None:
    """`views.<game>.<table>` or `lobby.<game>.<table>` as (kind, game, table)."""
    parts = key.split(".")
    if parts[0] in ("views", "lobby") and len(parts) == 3:
        return parts[0], parts[1], parts[2]
    return None


@dataclass(frozen=True, slots=True)
class ViewDifference:
    key: str
    why: str


@dataclass
class ViewFigures:
    keys: int = 0  # keys compared (views and lobby keys in the bucket, plus the missing ones)
    different: list[ViewDifference] = field(default_factory=list)

    @property
    def tables(self) -> set[TableKey]:
        found = set()
        for d in self.different:
            split = _split_key(d.key)
            if split:
                found.add((split[1], split[2]))
        return found


def compare_views(log: dict[TableKey, list[Logged]], bucket: dict[str, bytes]) -> ViewFigures:
    """Every table's views and lobby entry against the fold of its log: the views of every
    seat and of spectators at the newest version, none of a player without a seat."""
    figures = ViewFigures()
    differ = figures.different.append
    keys_of: dict[TableKey, dict[str, bytes]] = defaultdict(dict)
    for key, value in bucket.items():
        split = _split_key(key)
        if split is not None:
            keys_of[split[1:]][key] = value
    for (game, table), messages in log.items():
        if game not in games():
            continue
        stored = keys_of.pop((game, table), {})
        views_key = subjects.views_key(game, table)
        try:
            versions = fold_versions(game, messages)
        except CorruptLog as err:
            differ(ViewDifference(views_key, f"log does not fold: {err}"))
            continue
        newest = versions[-1]
        figures.keys += 1
        views = read_table_views(stored[views_key]) if views_key in stored else None
        viewers = {*newest.state.players, subjects.SPECTATOR}
        if views is None:
            differ(ViewDifference(views_key, f"missing or unreadable (log at v{newest.version})"))
        elif views.version != newest.version:
            differ(ViewDifference(views_key, f"holds v{views.version}, log at v{newest.version}"))
        elif set(views.views) != viewers:
            differ(ViewDifference(views_key, f"views of {sorted(views.views)}, not of {sorted(viewers)}"))
        else:
            for viewer in sorted(viewers):
                if msgspec.json.decode(views.of(viewer) or b"null") != expected_view(game, newest, viewer):
                    differ(ViewDifference(views_key, f"{viewer}'s view differs from the log's"))
        lobby_key = subjects.lobby_key(game, table)
        expected = expected_lobby(game, table, newest)
        if lobby_key in stored:
            figures.keys += 1
            body = msgspec.json.decode(stored[lobby_key])
            if (
                expected is None
                or not isinstance(body, dict)
                or any(body.get(name) != value for name, value in expected.items())
            ):
                differ(
                    ViewDifference(
                        lobby_key,
                        f"lobby entry at v{body.get('version')}, log at "
                        f"v{newest.version} ({newest.state.status})",
                    )
                )
        elif expected is not None:
            figures.keys += 1
            differ(ViewDifference(lobby_key, f"missing from the lobby ({newest.state.status})"))
    for table_keys in keys_of.values():  # views of tables the log does not have
        for key in table_keys:
            figures.keys += 1
            differ(ViewDifference(key, "no such table in the log"))
    return figures


def keys_to_read(log: dict[TableKey, list[Logged]]) -> set[str]:
    """Every key a table may have in the views bucket: its views and its lobby entry."""
    keys = set()
    for game, table in log:
        keys.add(subjects.views_key(game, table))
        keys.add(subjects.lobby_key(game, table))
    return keys


async def listed_keys(bus: Bus) -> set[str]:
    """The bucket's keys as a watcher lists them. Only to find keys the log does not explain:
    while a node is down, nats-py's watcher may report an empty bucket."""
    watcher = await (await bus.views()).watch(">", ignore_deletes=True, meta_only=True, inactive_threshold=10)
    keys = set()
    try:
        async for entry in watcher:
            if entry is None:  # the end of the present keys
                break
            keys.add(entry.key)
    finally:
        await watcher.stop()
    return keys


async def read_views(bus: Bus, keys: set[str], *, concurrency: int = 64) -> dict[str, bytes]:
    """The value of each key as the bucket's stream leader has it (a direct get may be
    answered by a replica that is behind); deleted and absent keys are left out."""
    stream = f"KV_{subjects.VIEWS_BUCKET}"
    limit = asyncio.Semaphore(concurrency)
    found: dict[str, bytes] = {}

    async def read(key: str) -> None:
        async with limit:
            try:
                msg = await bus.js.get_last_msg(stream, f"$KV.{subjects.VIEWS_BUCKET}.{key}")
            except nats.js.errors.NotFoundError:
                return
        if (msg.headers or {}).get("KV-Operation") in ("DEL", "PURGE"):
            return
        found[key] = msg.data or b""

    await asyncio.gather(*(read(key) for key in keys))
    return found


async def views_against_log(bus: Bus, log: dict[TableKey, list[Logged]]) -> ViewFigures:
    keys = keys_to_read(log) | await listed_keys(bus)
    return compare_views(log, await read_views(bus, keys))


async def settled_views(
    bus: Bus,
    log: dict[TableKey, list[Logged]],
    *,
    timeout: float,
    poll: float = 1.0,
) -> ViewFigures:
    """The comparison once every view equals the fold, or the last one at the deadline
    (a projector still catching up gets until then)."""
    deadline = time.monotonic() + timeout
    while True:
        try:
            figures = await views_against_log(bus, log)
        except TRANSIENT:  # a node restarting: read again
            if time.monotonic() > deadline:
                raise
            await asyncio.sleep(poll)
            continue
        if not figures.different or time.monotonic() > deadline:
            return figures
        await asyncio.sleep(poll)
