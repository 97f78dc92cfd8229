"""Chat bodies: a line as a player posts it, as the chat stream keeps it and the room's
followers receive it, the request for a room's last lines (docs/protocol.md, "Chat"), and the
presence request of a table page ("Presence")."""

from __future__ import annotations

import typing
import unicodedata

import msgspec

from shared.messages.envelopes import check_page_limit
from shared.messages.subjects import is_id

MAX_TEXT = 500  # characters of a line
ROOM_KEEPS = 100  # the lines of a room the chat stream keeps (older ones are dropped)
CHATLOG_DEFAULT = 50
# Characters that reorder the text shown around them (bidirectional embeddings, overrides and
# isolates): a line could make the next words on the screen read backwards.
_REORDERING = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")


class Post(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """What a player posts on `tabletop.say...`."""

    shape: typing.ClassVar[str] = (
        f'A chat line is {{"text": 1 to {MAX_TEXT} characters, "id": an id of yours (letters, '
        'digits, "_" or "-"; the same id when sending the line again) or null}.'
    )

    text: str
    id: str | None = None

    def __post_init__(self) -> None:
        if self.id is not None and not is_id(self.id):
            raise ValueError('"id" is 1 to 64 letters, digits, "_" or "-"')


class Line(msgspec.Struct, frozen=True, kw_only=True):
    """A chat line as kept and published: `spectator` marks a line said at a table by someone
    not seated there."""

    id: str
    player: str
    text: str
    at: str
    spectator: bool = False


class ChatLogRequest(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    shape: typing.ClassVar[str] = (
        f'A chat log request is {{"limit": 1 to {ROOM_KEEPS} or null (for {CHATLOG_DEFAULT})}}, '
        "every field optional."
    )

    limit: int | None = None

    def __post_init__(self) -> None:
        check_page_limit(self.limit, ROOM_KEEPS, "lines")


class HereRequest(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    shape: typing.ClassVar[str] = "A presence request is {} (or an empty body)."


def cleaned(text: str) -> str:
    """A line as shown: without control characters (a line break excepted) and without the
    characters that reorder the text around them, stripped of blanks at both ends."""
    kept = (c for c in text if c == "\n" or (c not in _REORDERING and unicodedata.category(c) != "Cc"))
    return "".join(kept).strip()


def text_problem(text: str) -> str | None:
    """Why `text` (cleaned) cannot be said, or None."""
    if not text:
        return "The line is empty: say something."
    if len(text) > MAX_TEXT:
        return f"The line is {len(text)} characters long; at most {MAX_TEXT}."
    return None
