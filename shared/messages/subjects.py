"""Every NATS subject of the protocol, built and parsed in one place."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

# ids are the games' as much as the subjects': defined with the games, named here too
from shared.games.decider import ID_PATTERN as ID_PATTERN
from shared.games.decider import is_id as is_id

STREAM = "TABLETOP_EVENTS"
VIEWS_BUCKET = "TABLETOP_VIEWS"
# The workers' snapshots of folded tables, by `<game>.<table>`: a cache the log can rebuild.
SNAPSHOTS_BUCKET = "TABLETOP_SNAPSHOTS"
SPECTATOR = "spectator"
PREFIX = "tabletop"


def cmd(game: str, table: str, player: str) -> str:
    return f"{PREFIX}.cmd.{game}.{table}.{player}"


def cmd_all(game: str) -> str:
    return f"{PREFIX}.cmd.{game}.>"


# Commands are cut into partitions by table too, so that each table's commands reach one worker
# replica: the account maps what clients send for each game it knows,
# `tabletop.cmd.<game>.<table>.<player>`, to `tabletop.cmdp.<game>.<partition>.<table>.<player>`
# (the server's `partition` function of the table id), and each replica answers the partitions
# it owns (services/game_worker/app.py). One mapping a game, never a catch-all beside them: the
# server takes the first of two wildcard mappings that match, in an order its config does not
# keep. A game the account does not map keeps the subject it was sent on: that is how the
# commands of unknown games reach the group that answers them, and only them
# (services/game_worker/unknown_games.py).
CMD_PARTITIONS = 16


def cmd_mappings(games: Iterable[str]) -> dict[str, str]:
    """The account's subject mappings of the commands of `games` to their partitions."""
    mappings = {}
    for game in sorted(set(games)):
        if not is_id(game):  # as `parse` reads every token of a subject
            raise ValueError(f"{game!r} is not a game name a subject can carry")
        mappings[f"{PREFIX}.cmd.{game}.*.*"] = (
            f"{PREFIX}.cmdp.{game}.{{{{partition({CMD_PARTITIONS},1)}}}}.{{{{wildcard(1)}}}}.{{{{wildcard(2)}}}}"
        )
    return mappings


def cmd_mapped(game: str, index: str, table: str, player: str) -> str:
    """A command as the account's mapping delivers it (a client's publish permission is
    checked on this subject: the server maps first)."""
    return f"{PREFIX}.cmdp.{game}.{index}.{table}.{player}"


def cmd_partition_of(table: str) -> int:
    """The partition of a table's commands, as the account's mapping computes it."""
    return fnv1a(table) % CMD_PARTITIONS


def as_mapped(subject: str) -> str:
    """A command subject as the account's mapping turns it, its game being mapped (any other
    subject unchanged)."""
    tokens = parse(subject, "cmd")
    if tokens is None or len(tokens) != 3:
        return subject
    game, table, player = tokens
    return cmd_mapped(game, str(cmd_partition_of(table)), table, player)


# Every command as sent: for a game the account maps, none arrives so
CMD_UNMAPPED = f"{PREFIX}.cmd.*.*.*"


def cmd_partition(game: str, index: int) -> str:
    """Every command of one partition of a game, as the account's mapping delivers it."""
    return f"{PREFIX}.cmdp.{game}.{index}.*.*"


def parse_cmd(subject: str) -> tuple[str, str, str] | None:
    """(game, table, player) of a command subject, as sent or as mapped to its partition."""
    tokens = parse(subject, "cmd")
    if tokens is None:
        mapped = parse(subject, "cmdp")
        if mapped is None or len(mapped) != 4 or not mapped[1].isdigit():
            return None
        tokens = (mapped[0], *mapped[2:])
    if len(tokens) != 3:
        return None
    return tokens[0], tokens[1], tokens[2]


def workers(game: str) -> str:
    """Where a game's worker replicas say they are alive (and when they leave)."""
    return f"{PREFIX}.workers.{game}"


# The log is cut into a fixed number of partitions by table, so that table-projector replicas
# can each own some. Fixed for good: a table's partition is part of its stored subject,
# `tabletop.evt.<partition>.<game>.<table>` (`evt`), where its worker appends its messages.
PARTITIONS = 16
EVT_ALL = f"{PREFIX}.evt.>"
EVT_STORED_ANY = f"{PREFIX}.evt.*.*.*"
# Before the log could span several streams, workers appended to `tabletop.evt.<game>.<table>`
# and the stream placed each message in its partition by a subject transform.
EVT_FORMER_APPEND = f"{PREFIX}.evt.*.*"
# The partitions are spread over 1, 2, 4, 8 or 16 streams (`TABLETOP_LOG_STREAMS`, fixed when the
# log is made): partition p in stream p mod n, so that on a cluster the appends of different
# tables go to different stream leaders. The first stream is `TABLETOP_EVENTS` whatever n.
LOG_STREAM_COUNTS = (1, 2, 4, 8, 16)


def log_stream(index: int) -> str:
    """The name of the log's `index`th stream."""
    return STREAM if index == 0 else f"{STREAM}_{index}"


# Every name a log stream may have (what the services' grants name).
LOG_STREAMS_ANY = tuple(log_stream(i) for i in range(PARTITIONS))


@dataclass(frozen=True, slots=True)
class LogLayout:
    """How the log's partitions are spread over its `count` streams."""

    count: int = 1

    def __post_init__(self) -> None:
        if self.count not in LOG_STREAM_COUNTS:
            counts = ", ".join(map(str, LOG_STREAM_COUNTS))
            raise ValueError(f"the log spans {counts} streams, not {self.count}")

    @property
    def streams(self) -> tuple[str, ...]:
        return tuple(log_stream(i) for i in range(self.count))

    def stream_of_partition(self, index: int) -> str:
        return log_stream(index % self.count)

    def stream_of(self, game: str, table: str) -> str:
        """The stream that holds a table's messages."""
        return self.stream_of_partition(partition(game, table))

    def partitions(self, stream: str) -> tuple[int, ...]:
        """The partitions a stream of the layout holds."""
        index = self.streams.index(stream)
        return tuple(p for p in range(PARTITIONS) if p % self.count == index)

    def stored_subjects(self, stream: str) -> list[str]:
        """What a stream of the layout captures: its partitions' subjects."""
        if self.count == 1:
            return [EVT_STORED_ANY]
        return [f"{PREFIX}.evt.{p}.*.*" for p in self.partitions(stream)]

    @classmethod
    def of_first_stream(cls, stored: list[str]) -> LogLayout:
        """The layout a log was made with, from what its first stream captures (one subject:
        the whole log, or the former append subject; else its partitions)."""
        if stored in ([EVT_STORED_ANY], [EVT_FORMER_APPEND]):
            return cls(1)
        if not stored or PARTITIONS % len(stored):
            raise ValueError(f"{STREAM} captures {stored}: not a layout of the log")
        return cls(PARTITIONS // len(stored))


def fnv1a(text: str) -> int:
    """FNV-1a (32 bits) of `text`: the hash of nats-server's `partition` mapping function, of
    its wildcards' tokens one after the other."""
    h = 0x811C9DC5
    for byte in text.encode():
        h = ((h ^ byte) * 0x01000193) & 0xFFFFFFFF
    return h


def partition(game: str, table: str, count: int = PARTITIONS) -> int:
    """The table's partition of the log: FNV-1a of the game and table ids, as nats-server's
    `partition(n, 1, 2)` mapping computes it."""
    return fnv1a(game + table) % count


def evt(game: str, table: str) -> str:
    """The subject a table's messages are stored under."""
    return f"{PREFIX}.evt.{partition(game, table)}.{game}.{table}"


def writer(game: str) -> str:
    """Who appends a game's messages (a header of every log message): its worker."""
    return f"{PREFIX}-worker-{game}"


def evt_partition(index: int) -> str:
    """Every message of one partition."""
    return f"{PREFIX}.evt.{index}.>"


def parse_evt(subject: str) -> tuple[int, str, str] | None:
    """(partition, game, table) of a stored message's subject, None if it is not one."""
    head = f"{PREFIX}.evt."
    if not subject.startswith(head):
        return None
    tokens = subject[len(head) :].split(".")
    if len(tokens) != 3 or not tokens[0].isdigit() or not all(is_id(t) for t in tokens[1:]):
        return None
    return int(tokens[0]), tokens[1], tokens[2]


# Deadlines of tables with clocks: a worker schedules one on `deadline_set` (a JetStream
# scheduled message, one per table version), and the server publishes it on `deadline_due`
# when its time comes, in the same stream, for the game's workers to consume.
TIMERS_STREAM = "TABLETOP_TIMERS"
TIMERS_ALL = f"{PREFIX}.timer.>"


def deadline_set(game: str, table: str, version: int) -> str:
    return f"{PREFIX}.timer.set.{game}.{table}.{version}"


def deadline_due(game: str, table: str) -> str:
    return f"{PREFIX}.timer.due.{game}.{table}"


def deadline_due_all(game: str) -> str:
    return f"{PREFIX}.timer.due.{game}.*"


def parse_deadline_due(subject: str) -> tuple[str, str] | None:
    """(game, table) of a due deadline's subject, None if it is not one."""
    tokens = parse(subject, "timer.due")
    return (tokens[0], tokens[1]) if tokens is not None and len(tokens) == 2 else None


def view(game: str, table: str, viewer: str) -> str:
    return f"{PREFIX}.view.{game}.{table}.{viewer}"


def update(game: str, table: str, viewer: str) -> str:
    return f"{PREFIX}.update.{game}.{table}.{viewer}"


def replay(game: str, table: str, viewer: str) -> str:
    return f"{PREFIX}.replay.{game}.{table}.{viewer}"


UPDATES_ALL = f"{PREFIX}.update.>"


# Chat: a room per game lobby and per table. A player posts with a request on
# `tabletop.say.<game>.lobby.<player>` or `tabletop.say.<game>.table.<table>.<player>` (the
# broker lets a player name itself only); the chat service stores each accepted line in the
# chat stream (never the game log) and publishes it on the room's `tabletop.chat...` subject,
# which every player and guest may follow; `tabletop.chatlog...` answers a room's last lines.
CHAT_STREAM = "TABLETOP_CHAT"
LOBBY_ROOM = "lobby"
TABLE_ROOM = "table"
CHAT_ALL = f"{PREFIX}.chat.>"
CHAT_STORED_ALL = f"{PREFIX}.chatstore.>"
SAY_ALL = f"{PREFIX}.say.>"
CHATLOG_ALL = f"{PREFIX}.chatlog.>"


def room(game: str, table: str | None = None) -> str:
    """A chat room's tokens: a game's lobby (`table` None) or one table."""
    return f"{game}.{LOBBY_ROOM}" if table is None else f"{game}.{TABLE_ROOM}.{table}"


def chat(game: str, table: str | None = None) -> str:
    """Where a room's new lines are published."""
    return f"{PREFIX}.chat.{room(game, table)}"


def chat_stored(game: str, table: str | None = None) -> str:
    """Where the chat stream keeps a room's lines."""
    return f"{PREFIX}.chatstore.{room(game, table)}"


def say(game: str, player: str, table: str | None = None) -> str:
    """Where `player` posts a line to a room."""
    return f"{PREFIX}.say.{room(game, table)}.{player}"


def chatlog(game: str, table: str | None = None) -> str:
    """Where a room's last lines are asked for."""
    return f"{PREFIX}.chatlog.{room(game, table)}"


# Who is at a table: a table page says `tabletop.here.<game>.<table>.<player>` every few
# seconds (a request), kept in the presence bucket for a while; the answer names the table's
# seated players not here lately (away).
PRESENCE_BUCKET = "TABLETOP_PRESENCE"
HERE_ALL = f"{PREFIX}.here.>"


def here(game: str, table: str, player: str) -> str:
    return f"{PREFIX}.here.{game}.{table}.{player}"


def presence_key(game: str, table: str, player: str) -> str:
    return f"{game}.{table}.{player}"


def parse_room(subject: str, kind: str, *, sender: bool = False) -> tuple[str, str | None, str | None] | None:
    """(game, table or None for the lobby, sender or None) of a `say` (`sender`) or `chatlog`
    subject; None when it is neither shape."""
    tokens = parse(subject, kind)
    if tokens is None or (sender and len(tokens) < 2):
        return None
    room, who = (tokens[:-1], tokens[-1]) if sender else (tokens, None)
    match room:
        case (game, "lobby"):
            return game, None, who
        case (game, "table", table):
            return game, table, who
    return None


# What players and guests may ask the services, each answered by a service of the services'
# account that the players' account imports (and where nothing else of that account is seen).
CLIENT_REQUESTS = (
    f"{PREFIX}.cmd.>",
    f"{PREFIX}.view.>",
    f"{PREFIX}.replay.>",
    f"{PREFIX}.lobby.>",
    f"{PREFIX}.profile.*",
    f"{PREFIX}.history.*",
    f"{PREFIX}.rankings.*",
    SAY_ALL,
    CHATLOG_ALL,
    HERE_ALL,
)
# What the services' account sends players and guests as streams: table updates and chat lines.
CLIENT_STREAMS = (UPDATES_ALL, CHAT_ALL)
# In the players' account, what is published on those subjects is moved out of the way: only a
# service's answer can be (its reply subject aimed there by a client); the updates and chat
# lines themselves come through the stream imports, which no mapping touches.
MISDIRECTED = {
    UPDATES_ALL: f"{PREFIX}.misdirected.update.>",
    CHAT_ALL: f"{PREFIX}.misdirected.chat.>",
}


# Table projectors forget a table named here (`[game, table]`): an operator rebuilt its views.
FORGET = f"{PREFIX}.projector.forget"


def lobby(game: str) -> str:
    return f"{PREFIX}.lobby.{game}"


# Players as the results projector knows them: public to every player and guest.
def profile(player: str) -> str:
    return f"{PREFIX}.profile.{player}"


def history(player: str) -> str:
    return f"{PREFIX}.history.{player}"


def rankings(game: str) -> str:
    return f"{PREFIX}.rankings.{game}"


# A player's session tokens (services/auth/sessions.py): asked for, revoked, and the password
# changed, on `tabletop.session.<player>`; the auth service's account answers them.
SESSION_ALL = f"{PREFIX}.session.*"


def session(player: str) -> str:
    return f"{PREFIX}.session.{player}"


def parse(subject: str, kind: str) -> tuple[str, ...] | None:
    """The id tokens after `tabletop.<kind>.`, or None when any is not a valid id."""
    head = f"{PREFIX}.{kind}."
    if not subject.startswith(head):
        return None
    tokens = tuple(subject[len(head) :].split("."))
    return tokens if all(is_id(t) for t in tokens) else None


def views_key(game: str, table: str) -> str:
    """The key of a table's views (every viewer's, `envelopes.TableViews`) in the views bucket."""
    return f"views.{game}.{table}"


def former_view_key(game: str, table: str, viewer: str) -> str:
    """Where the views bucket kept one viewer's view of a table before a table's views were
    one key (`views_key`): read once, to carry them over (`Views.carry_over_former_views`)."""
    return f"view.{game}.{table}.{viewer}"


def lobby_key(game: str, table: str) -> str:
    return f"lobby.{game}.{table}"
