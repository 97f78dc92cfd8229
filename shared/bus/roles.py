"""What each service role may publish and subscribe to: the subjects it uses, nothing more
(docs/security.md has the table). The server enforces them on the services' static users; an
operator's `admin` alone has the whole services' account."""

from __future__ import annotations

from dataclasses import dataclass

from shared.games.table import BOTS_PLAYER, SERVICE_PLAYER
from shared.messages import subjects

# every stream the log may span (subjects.LogLayout)
EVENTS = subjects.LOG_STREAMS_ANY
TIMERS = subjects.TIMERS_STREAM
VIEWS = f"KV_{subjects.VIEWS_BUCKET}"
SNAPSHOTS = f"KV_{subjects.SNAPSHOTS_BUCKET}"
CHAT = subjects.CHAT_STREAM
PRESENCE = f"KV_{subjects.PRESENCE_BUCKET}"
# the auth service's buckets: accounts, sessions, addresses that signed in, registrations
AUTH_BUCKETS = ("TABLETOP_ACCOUNTS", "TABLETOP_SESSIONS", "TABLETOP_SIGNED_IN", "TABLETOP_REGISTRATIONS")
JS = "$JS.API"
ANY = "*"


@dataclass(frozen=True)
class Grant:
    """A role's allow lists; every role also answers requests it receives (the server lets it
    publish once to each reply subject it was sent) and takes answers in its own inbox."""

    publish: tuple[str, ...]
    subscribe: tuple[str, ...]


def _ensure(*streams: str) -> tuple[str, ...]:
    """Make or update `streams` and read their state: never delete or purge them."""
    return tuple(f"{JS}.STREAM.{op}.{s}" for s in streams for op in ("CREATE", "UPDATE", "INFO"))


def _read(*streams: str) -> tuple[str, ...]:
    """Read messages of `streams` by sequence or last per subject."""
    forms = ("DIRECT.GET.{}", "DIRECT.GET.{}.>", "STREAM.MSG.GET.{}")
    return tuple(f"{JS}.{form.format(s)}" for s in streams for form in forms)


def _consume(*streams: str) -> tuple[str, ...]:
    """Make, look at, pull from, acknowledge and drop consumers of `streams`."""
    forms = (
        f"{JS}.CONSUMER.CREATE.{{}}",
        f"{JS}.CONSUMER.CREATE.{{}}.>",
        f"{JS}.CONSUMER.DURABLE.CREATE.{{}}.*",
        f"{JS}.CONSUMER.INFO.{{}}.*",
        f"{JS}.CONSUMER.DELETE.{{}}.*",
        f"{JS}.CONSUMER.MSG.NEXT.{{}}.*",
        "$JS.ACK.{}.>",
        "$JS.FC.{}.>",
    )
    return tuple(form.format(s) for s in streams for form in forms)


# Every service: its micro endpoints' discovery requests, and answers in its own inbox. An
# answer to a request taken before a server restart goes to its asker's inbox after it (the
# restarted server no longer knows the reply subject was given): only the services' own
# connections have `_INBOX.` inboxes in this account, players' answers come through `_R_.`.
_EVERY_SERVICE_SUBSCRIBES = ("$SRV.>", "_INBOX.>")
_EVERY_SERVICE_PUBLISHES = ("_INBOX.>",)

_WORKER = Grant(
    publish=(
        subjects.EVT_STORED_ANY,
        subjects.TIMERS_ALL,
        f"{subjects.PREFIX}.workers.*",
        f"$KV.{subjects.SNAPSHOTS_BUCKET}.>",
        *_ensure(*EVENTS, TIMERS, VIEWS, SNAPSHOTS),
        *_read(*EVENTS, SNAPSHOTS),
        *_consume(TIMERS),
        *_EVERY_SERVICE_PUBLISHES,
    ),
    subscribe=(
        f"{subjects.PREFIX}.cmd.>",
        f"{subjects.PREFIX}.cmdp.>",
        f"{subjects.PREFIX}.workers.*",
        *_EVERY_SERVICE_SUBSCRIBES,
    ),
)
_PROJECTOR = Grant(
    publish=(
        subjects.UPDATES_ALL,
        f"$KV.{subjects.VIEWS_BUCKET}.>",
        # an open table nobody started expires (the account maps a command before checking it)
        subjects.cmd(ANY, ANY, SERVICE_PLAYER),
        subjects.cmd_mapped(ANY, ANY, ANY, SERVICE_PLAYER),
        *_ensure(*EVENTS, TIMERS, VIEWS),
        *_read(*EVENTS, VIEWS, SNAPSHOTS),  # the snapshots hold what the log holds
        f"{JS}.STREAM.INFO.{SNAPSHOTS}",  # opening the bucket asks its config
        *_consume(*EVENTS),
        *_consume(VIEWS),
        *_EVERY_SERVICE_PUBLISHES,
    ),
    subscribe=(
        f"{subjects.PREFIX}.view.>",
        f"{subjects.PREFIX}.lobby.>",
        subjects.FORGET,
        *_EVERY_SERVICE_SUBSCRIBES,
    ),
)
_HISTORY = Grant(
    publish=(
        *_ensure(*EVENTS, TIMERS, VIEWS),
        *_read(*EVENTS),
        *_consume(*EVENTS),
        *_EVERY_SERVICE_PUBLISHES,
    ),
    subscribe=(
        f"{subjects.PREFIX}.replay.>",
        # the results projector runs as `history` too: it reads the log and answers questions
        subjects.profile("*"),
        subjects.history("*"),
        subjects.rankings("*"),
        *_EVERY_SERVICE_SUBSCRIBES,
    ),
)
# The chat service: takes players' lines, stores them in the chat stream and publishes them to
# the room; keeps who is at a table in the presence bucket; reads a table's spectator view (who
# is seated) and, for a table without one yet, whether the log has it.
_CHAT = Grant(
    publish=(
        subjects.CHAT_STORED_ALL,
        subjects.CHAT_ALL,
        f"$KV.{subjects.PRESENCE_BUCKET}.>",
        *_ensure(CHAT, PRESENCE),
        f"{JS}.STREAM.INFO.{VIEWS}",  # the client opens the views bucket by asking its config
        f"{JS}.STREAM.INFO.{subjects.STREAM}",  # which stream holds a table: the log's layout
        *_read(CHAT, PRESENCE, VIEWS, *EVENTS),
        *_EVERY_SERVICE_PUBLISHES,
    ),
    subscribe=(subjects.SAY_ALL, subjects.CHATLOG_ALL, subjects.HERE_ALL, *_EVERY_SERVICE_SUBSCRIBES),
)
# The bot service looks on as a spectator, sees a seat's own view only through the bots' view
# request (answered for the seats it plays), and acts only as the bot service.
_BOTS = Grant(
    publish=(
        subjects.cmd(ANY, ANY, BOTS_PLAYER),
        subjects.cmd_mapped(ANY, ANY, ANY, BOTS_PLAYER),
        subjects.view(ANY, ANY, subjects.SPECTATOR),
        subjects.view(ANY, ANY, BOTS_PLAYER),
        subjects.lobby("*"),
        *_EVERY_SERVICE_PUBLISHES,
    ),
    subscribe=(subjects.update(ANY, ANY, subjects.SPECTATOR), *_EVERY_SERVICE_SUBSCRIBES),
)
# The callout service, alone in its account: the server's sign-in requests, the players'
# session requests (imported by the players' account), the accounts and the sessions.
_AUTH = Grant(
    publish=(
        *(f"$KV.{bucket}.>" for bucket in AUTH_BUCKETS),
        *_ensure(*(f"KV_{bucket}" for bucket in AUTH_BUCKETS)),
        *_read(*(f"KV_{bucket}" for bucket in AUTH_BUCKETS)),
        *(p for bucket in AUTH_BUCKETS for p in _consume(f"KV_{bucket}")),
        *_EVERY_SERVICE_PUBLISHES,
        # an operator reads the auth service's micro stats signed in as `auth`, the only user
        # of its account (`nats micro stats tabletop-auth`)
        "$SRV.>",
    ),
    subscribe=("$SYS.REQ.USER.AUTH", subjects.SESSION_ALL, *_EVERY_SERVICE_SUBSCRIBES),
)

GRANTS: dict[str, Grant] = {
    "worker": _WORKER,
    "projector": _PROJECTOR,
    "history": _HISTORY,
    "bots": _BOTS,
    "chat": _CHAT,
    "auth": _AUTH,
}
