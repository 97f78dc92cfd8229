"""Exactly what a signed-in player, or a guest, may publish and subscribe to."""

from __future__ import annotations

from services.auth.claims import Rule
from shared.bus.credentials import inbox_prefix
from shared.games.table import BOTS_PLAYER, SERVICE_PLAYER
from shared.messages import subjects

# Never a client's, whatever the allow lists below say: the log, the JetStream and key-value
# APIs, the services' micro endpoints, the system account, the deadlines stream and its
# subjects, nor acting as the service itself or as the bot service (whose commands
# say a deadline came or play for bot and zombie seats).
ANY = "*"
FORBIDDEN = [
    "tabletop.evt.>",
    subjects.CHAT_STORED_ALL,
    subjects.TIMERS_ALL,
    subjects.cmd(ANY, ANY, SERVICE_PLAYER),
    subjects.cmd_mapped(ANY, ANY, ANY, SERVICE_PLAYER),
    subjects.cmd(ANY, ANY, BOTS_PLAYER),
    subjects.cmd_mapped(ANY, ANY, ANY, BOTS_PLAYER),
    "$JS.>",
    "$KV.>",
    "$O.>",
    "$SRV.>",
    "$SYS.>",
]


# What anyone signed in may ask, player or guest: the lobby, and players' profiles, their
# tables and the leaderboards (public, as on a game site; a past table's seat views stay private)
PUBLIC_ASKS = [
    subjects.lobby(">"),
    subjects.profile(ANY),
    subjects.history(ANY),
    subjects.rankings(ANY),
    subjects.CHATLOG_ALL,
]
# What anyone signed in may follow: the chat of every lobby and table (public, as the lobby).
PUBLIC_FOLLOWS = [subjects.CHAT_ALL]


def _saying(name: str) -> list[str]:
    """Posting to chat rooms as `name`: any lobby's and any table's (the chat service marks
    a line from someone not seated at the table as a spectator's)."""
    return [subjects.say(ANY, name), subjects.say(ANY, name, table=ANY)]


def _watching(viewer: str) -> tuple[list[str], list[str]]:
    """The requests and subscriptions of someone looking on as `viewer`."""
    asks = [subjects.view(ANY, ANY, viewer), subjects.replay(ANY, ANY, viewer)]
    follows = [subjects.update(ANY, ANY, viewer)]
    return asks, follows


def player_permissions(name: str) -> tuple[Rule, Rule]:
    """(publish, subscribe) of player `name`: its own commands, chat lines and presence, its
    own and the spectators' views, replays and updates, the public asks and follows, its own
    session requests, and replies in its own inbox."""
    own_asks, own_follows = _watching(name)
    spectator_asks, spectator_follows = _watching(subjects.SPECTATOR)
    # its commands as sent: the players' account imports them, and the services' account maps
    # them to their table's partition after the import
    commands = [subjects.cmd(ANY, ANY, name)]
    publish = [
        *commands,
        *_saying(name),
        subjects.here(ANY, ANY, name),
        *own_asks,
        *spectator_asks,
        *PUBLIC_ASKS,
        subjects.session(name),
    ]
    subscribe = [*own_follows, *spectator_follows, *PUBLIC_FOLLOWS, f"{inbox_prefix(name)}.>"]
    return Rule(allow=publish, deny=FORBIDDEN), Rule(allow=subscribe, deny=FORBIDDEN)


def guest_permissions(name: str) -> tuple[Rule, Rule]:
    """(publish, subscribe) of a guest: what a spectator sees, the public asks and follows
    (it reads the chat; posting takes an account), who is at a table (asked as itself), and
    replies in its own inbox."""
    asks, follows = _watching(subjects.SPECTATOR)
    return (
        Rule(allow=[*asks, *PUBLIC_ASKS, subjects.here(ANY, ANY, name)], deny=FORBIDDEN),
        Rule(allow=[*follows, *PUBLIC_FOLLOWS, f"{inbox_prefix(name)}.>"], deny=FORBIDDEN),
    )
