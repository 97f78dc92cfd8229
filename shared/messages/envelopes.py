"""JSON bodies of the protocol: command, reply, event batch, view, lobby, replay.

Commands are decoded strictly (an unknown field is refused), events leniently (fields added
later are ignored, so old services can read new logs and new services old ones).
"""

from __future__ import annotations

import hashlib
import json
import typing
from datetime import datetime
from functools import cache
from typing import TYPE_CHECKING, Annotated, Any, Generic, Literal, TypeVar

import msgspec

from shared.games.decider import Rejection
from shared.messages import subjects
from shared.messages.subjects import is_id

if TYPE_CHECKING:
    from shared.games.table import TableDecider

MAX_COMMAND_BYTES = 64 * 1024
MAX_REQUEST_BYTES = 4 * 1024  # view, lobby and replay requests are a few fields at most
E = TypeVar("E")
T = TypeVar("T")

encoder = msgspec.json.Encoder()
_canonical = msgspec.json.Encoder(order="deterministic")  # dict keys sorted: one body, one text
_decode_json = msgspec.json.Decoder().decode


class ErrorBody(msgspec.Struct, frozen=True, omit_defaults=True):
    code: str
    message: str
    retry_after_ms: int | None = None  # when to ask again (`not_ready`)


class Reply(msgspec.Struct, frozen=True, kw_only=True, omit_defaults=True):
    """The answer to a command: `{"ok": true, "version": N}` or `{"ok": false, "error": ...}`."""

    ok: bool
    version: int | None = None
    error: ErrorBody | None = None

    @classmethod
    def accepted(cls, version: int) -> Reply:
        return cls(ok=True, version=version)

    @classmethod
    def rejected(cls, code: str, message: str) -> Reply:
        return cls(ok=False, error=ErrorBody(code, message))

    @classmethod
    def of(cls, rejection: Rejection) -> Reply:
        return cls.rejected(rejection.code, rejection.message)


# A refused command's code says whether it was applied (docs/protocol.md, "Replies"): every
# code means "not applied" but this one, "unknown: the log could not say; send it again with
# the same id".
OUTCOME_UNKNOWN = "outcome_unknown"
# Not applied: the log's storage limit is reached; writes resume once it is under it again.
STORAGE_FULL = "storage_full"
# The codes after which a client sends the same command (the same id) again, a few times.
SEND_AGAIN = frozenset({"unavailable", OUTCOME_UNKNOWN})


class BadCommand(Exception):
    """A command body that is not a well-formed command: answered `bad_command`."""


class BadRequest(Exception):
    """A view, lobby or replay request body that cannot be read: answered `bad_request`."""


def _unreadable(err: Exception) -> str:
    """Why a body could not be decoded, for a person. Anything raised while decoding lands
    here: whatever a client sends is answered, never left to crash the handler."""
    if isinstance(err, RecursionError):
        return "it is nested too deeply"
    if isinstance(err, msgspec.ValidationError):
        return str(err)
    if isinstance(err, msgspec.DecodeError):
        return f"it is not valid JSON ({err})"
    return f"it cannot be read ({type(err).__name__})"


class CommandEnvelope(msgspec.Struct, frozen=True, kw_only=True):
    id: str
    command: Any  # the game's or the table's Command struct
    expect: int | None = None


_Expect = Annotated[int, msgspec.Meta(ge=0)] | None


@cache
def _command_decoder(command_type: Any) -> tuple[msgspec.json.Decoder[Any], dict[type, Any]]:
    """A decoder of whole command bodies for one game's commands, made once: each command
    struct extended with `id` and `expect` (the same tag), and the base struct of each."""
    bases: dict[type, Any] = {}
    for base in typing.get_args(command_type):
        envelope = msgspec.defstruct(
            f"{base.__name__}Envelope",
            [("id", str), ("expect", _Expect, None)],
            bases=(base,),
            tag=base.__struct_config__.tag,
            kw_only=True,
        )
        bases[envelope] = base
    return msgspec.json.Decoder(typing.Union[tuple(bases)]), bases  # noqa: UP007


class _DuplicateKey(Exception):
    pass


def _no_duplicates(pairs: list[tuple[str, Any]]) -> None:
    seen: set[str] = set()
    for key, _ in pairs:
        if key in seen:
            raise _DuplicateKey(key)
        seen.add(key)


def _key_count(value: Any) -> int:
    if isinstance(value, dict):
        return len(value) + sum(_key_count(v) for v in value.values())
    if isinstance(value, list):
        return sum(_key_count(v) for v in value)
    return 0


def duplicate_key(body: bytes) -> str | None:
    """A key that one object of the JSON `body` gives twice, else None. JSON decoders differ
    on which of the two counts (msgspec keeps the last), so a body that gives one is refused
    rather than read one way here and another way by its sender. Only asked of a body that
    decoded already (valid JSON, not nested too deeply)."""
    try:
        # Cheap first: every key of the text is followed by a ":" of its own, so a text with
        # no more ":" than its decoded objects have keys gives none twice (most bodies: a
        # microsecond or two, where the exact reading below takes tens).
        if body.count(b":") <= _key_count(_decode_json(body or b"{}")):
            return None
        json.loads(body, object_pairs_hook=_no_duplicates)
    except _DuplicateKey as err:
        return str(err)
    except Exception:  # noqa: BLE001 - not JSON, too deep: refused by the decoding, if at all
        return None
    return None


def decode_command(body: bytes, command_type: Any) -> CommandEnvelope:
    """`{"id", "type", ...fields, "expect"?}` -> envelope; BadCommand says what is wrong."""
    envelope = _decode_command(body, command_type)
    if (twice := duplicate_key(body)) is not None:
        raise BadCommand(f'The command gives the key "{twice}" twice; give each key once.')
    return envelope


def _decode_command(body: bytes, command_type: Any) -> CommandEnvelope:
    """A well-formed command is decoded in one pass by a typed decoder; anything else is read
    again step by step, to say what is wrong."""
    if len(body) > MAX_COMMAND_BYTES:
        raise BadCommand(f"The command is {len(body)} bytes; at most {MAX_COMMAND_BYTES}.")
    decoder, bases = _command_decoder(command_type)
    try:
        whole = decoder.decode(body)
    except Exception:  # noqa: BLE001 - told below, field by field
        return _decode_command_slowly(body, command_type)
    if not is_id(whole.id):
        return _decode_command_slowly(body, command_type)
    base = bases[type(whole)]
    command = base(**{name: getattr(whole, name) for name in base.__struct_fields__})
    return CommandEnvelope(id=whole.id, command=command, expect=whole.expect)


def _decode_command_slowly(body: bytes, command_type: Any) -> CommandEnvelope:
    """The command read as a JSON object first, then its fields: BadCommand says what is
    wrong, in the words of the field at fault."""
    try:
        raw = _decode_json(body)
    except Exception as err:  # noqa: BLE001 - RecursionError, bad UTF-8, ...: all refused
        raise BadCommand(f"The command cannot be decoded: {_unreadable(err)}.") from None
    if not isinstance(raw, dict):
        raise BadCommand("The command must be a JSON object.")
    command_id = raw.pop("id", None)
    if not is_id(command_id):
        raise BadCommand('The command needs an "id" of 1 to 64 letters, digits, "_" or "-".')
    expect = raw.pop("expect", None)
    if expect is not None and (type(expect) is not int or expect < 0):
        raise BadCommand('"expect" must be a table version (an integer, 0 or more).')
    if "type" not in raw:
        raise BadCommand('The command needs a "type".')
    try:
        command = msgspec.convert(raw, command_type, strict=True)
    except Exception as err:  # noqa: BLE001 - a ValidationError, or deep nesting
        raise BadCommand(f"Bad command: {_unreadable(err)}.") from None
    return CommandEnvelope(id=command_id, command=command, expect=expect)


def command_digest(envelope: CommandEnvelope) -> str:
    """A short hash of what a command asks (its decoded fields and `expect`): a command sent
    again under its id is a retry only if it hashes the same."""
    canonical = _canonical.encode([envelope.command, envelope.expect])
    return hashlib.blake2b(canonical, digest_size=8).hexdigest()


class EventBatch(msgspec.Struct, Generic[E], frozen=True, kw_only=True):
    """One log message: all the events of one accepted command."""

    game: str
    table: str
    version: int  # 1 for the table's first command, then +1 per accepted command
    command_id: str
    player: str
    digest: str = ""  # command_digest of the command; "" in messages written before digests
    at: str  # ISO 8601 UTC, when the worker appended it
    events: list[E]


class ViewReply(msgspec.Struct, frozen=True, kw_only=True):
    version: int
    view: dict[str, Any]


class TableViews(msgspec.Struct, frozen=True):
    """Every view of one table at one version, as the views bucket keeps them under the
    table's one key (`subjects.views_key`): each viewer's view reply as it is sent (seats by
    player id, and `spectator`). One put stores them all, so a reader never finds one viewer's
    view at another version than the others'."""

    version: int
    views: dict[str, msgspec.Raw]

    def of(self, viewer: str) -> bytes | None:
        """The view reply of `viewer`, None when it has no seat here (nor is `spectator`)."""
        found = self.views.get(viewer)
        return None if found is None else bytes(found)


def table_views_body(version: int, bodies: dict[str, bytes]) -> bytes:
    """What the views bucket stores for a table: its view replies (`bodies`, by viewer), at
    `version`, written as they are (not encoded again)."""
    return encoder.encode(TableViews(version, {viewer: msgspec.Raw(body) for viewer, body in bodies.items()}))


_table_views = msgspec.json.Decoder(TableViews)


class _Versioned(msgspec.Struct):
    version: int


_versioned = msgspec.json.Decoder(_Versioned)


def version_said(body: bytes) -> int | None:
    """The `version` a JSON body says (a log message's batch, a view reply, a table's stored
    views, a lobby entry), None when it says none."""
    try:
        return _versioned.decode(body).version
    except (msgspec.DecodeError, msgspec.ValidationError):
        return None


def read_table_views(stored: bytes) -> TableViews | None:
    """A table's stored views, None when the value is not such a record."""
    try:
        return _table_views.decode(stored)
    except (msgspec.DecodeError, msgspec.ValidationError):
        return None


class ViewRequest(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """A view request: `{}` (or an empty body), nothing more."""

    shape: typing.ClassVar[str] = "A view request is {} (or an empty body)."


LOBBY_PAGE_MAX = 100
LOBBY_PAGE_DEFAULT = 50


def lobby_cursor(created_at: str, table: str) -> str:
    """Where a lobby page ends (its `next`, the next page's `after`): the creation instant and
    id of its last table."""
    return f"{created_at}|{table}"


def is_lobby_cursor(text: str) -> bool:
    """Whether `text` is a cursor as `lobby_cursor` makes them (the instant may be empty, for
    a table that did not say when it was created)."""
    instant, bar, table = text.partition("|")
    if not bar or not is_id(table):
        return False
    if not instant:
        return True
    try:
        datetime.fromisoformat(instant.replace("Z", "+00:00"))
    except ValueError:
        return False
    return True


def check_page_limit(limit: int | None, most: int, of: str) -> None:
    """A paged request's `limit`: null for the default page, else 1 to `most` (`of` what)."""
    if limit is not None and not 1 <= limit <= most:
        raise ValueError(f'"limit" is {limit}: a page holds 1 to {most} {of}')


class LobbyRequest(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """A lobby page: newest first, `limit` tables (at most 100) after the `after` cursor (the
    previous page's `next`), of one status if given."""

    shape: typing.ClassVar[str] = (
        'A lobby request is {"after": the "next" of the previous page or null, "limit": 1 to '
        f'{LOBBY_PAGE_MAX} or null (for {LOBBY_PAGE_DEFAULT}), "status": "open", "running" or null}}, '
        "every field optional."
    )

    after: str | None = None
    limit: int | None = None
    status: Literal["open", "running"] | None = None

    def __post_init__(self) -> None:
        check_page_limit(self.limit, LOBBY_PAGE_MAX, "tables")
        if self.after is not None and not is_lobby_cursor(self.after):
            raise ValueError(
                f'"after" is {self.after[:80]!r}: give the "next" of the page before '
                '(a creation instant, "|" and a table id), or null for the first page'
            )


class LobbyPage(msgspec.Struct, frozen=True, kw_only=True):
    game: str
    tables: list[dict[str, Any]]
    next: str | None  # the cursor of the next page, None (sent as null) on the last


class ReplayRequest(
    msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True, rename={"from_": "from"}
):
    """Steps `from`..`to` of a table; `views` says which carry the viewer's view after them:
    `every` step, the `last` of the page (the default), or `none`."""

    shape: typing.ClassVar[str] = (
        'A replay request is {"from": a version, 0 or more, "to": a version not before "from" '
        'or null (for the last), "views": "every", "last" or "none"}, every field optional.'
    )

    from_: int = 0
    to: int | None = None
    views: Literal["every", "last", "none"] = "last"

    def __post_init__(self) -> None:
        if self.from_ < 0:
            raise ValueError(f'"from" is {self.from_}: versions start at 1 (0 also means the first)')
        if self.to is not None and self.to < self.from_:
            raise ValueError(f'"to" is {self.to}, before "from" ({self.from_})')


class ReplayStep(msgspec.Struct, frozen=True, kw_only=True, omit_defaults=True):
    """One accepted command as one viewer may see it, in replays and pushes alike: its events
    redacted for that viewer, and what they say in words (the game log)."""

    version: int
    player: str
    at: str
    events: list[Any]  # redacted for the viewer
    log: list[str]  # the events in words
    log_fr: list[str] = msgspec.field(default_factory=list)  # the same in French
    view: dict[str, Any] | None = None  # replays only, as the request's `views` asks


# what a table's own event is to every viewer alike: the event as shown and its log lines
Alike = dict[int, tuple[Any, str | None, str | None]]


def seen_events(
    decider: TableDecider,
    events: list[Any],
    viewer: str | None,
    alike: Alike | None = None,
) -> tuple[list[Any], list[str], list[str]]:
    """`events` as `viewer` (a player, or None for a spectator) may see them, and the log
    lines they make in English and in French: each text is said from the redacted event, so
    it tells no secret. `alike`, shared by the viewers of one message, keeps what every
    viewer sees alike (`TableDecider.seen_alike`), so that it is said once."""
    shown: list[Any] = []
    log: list[str] = []
    log_fr: list[str] = []
    for event in events:  # a loop, not nested generators: this runs per viewer per message
        known = None if alike is None else alike.get(id(event))
        if known is not None:
            seen, text, text_fr = known
        else:
            seen = decider.redact(event, viewer)
            text = text_fr = None
            if seen is not None:
                text = decider.describe(seen, viewer)
                if text:
                    text_fr = decider.describe(seen, viewer, "fr") or text
            if alike is not None and decider.seen_alike(event):
                alike[id(event)] = seen, text, text_fr
        if seen is not None:
            shown.append(seen)
            if text:
                log.append(text)
                log_fr.append(text_fr or text)
    return shown, log, log_fr


def step_of(
    decider: TableDecider, batch: EventBatch[Any], viewer: str | None, alike: Alike | None = None
) -> ReplayStep:
    """One log message as a step of `viewer`'s pushes and replays (without the view); `alike`
    as for `seen_events`, shared by the viewers of `batch`."""
    events, log, log_fr = seen_events(decider, batch.events, viewer, alike)
    return ReplayStep(
        version=batch.version, player=batch.player, at=batch.at, events=events, log=log, log_fr=log_fr
    )


def push_body(view_reply: bytes, steps: bytes) -> bytes:
    """A push on `tabletop.update.<game>.<table>.<viewer>`: the viewer's view reply as stored
    (`{"version", "view"}`) and the steps since that viewer's previous push (a list of
    `ReplayStep`, encoded: viewers who see them alike share one encoding). The stored reply is
    extended, not encoded again: the view is the largest part of the body."""
    assert view_reply.endswith(b"}"), "a view reply is a JSON object"
    return b'%s,"steps":%s}' % (view_reply[:-1], steps)


def decode_request(body: bytes, request_type: type[T]) -> T:
    """A view, lobby or replay request body (empty reads as `{}`); BadRequest says what is
    wrong, and what the request looks like."""
    shape = getattr(request_type, "shape", "")
    if len(body) > MAX_REQUEST_BYTES:
        raise BadRequest(f"The request is {len(body)} bytes; at most {MAX_REQUEST_BYTES}. {shape}".strip())
    try:
        request = msgspec.json.decode(body or b"{}", type=request_type)
    except Exception as err:  # noqa: BLE001 - anything a client can make the decoder raise
        raise BadRequest(f"The request cannot be read: {_unreadable(err)}. {shape}".strip()) from None
    if (twice := duplicate_key(body)) is not None:
        raise BadRequest(f'The request gives the key "{twice}" twice; give each key once.')
    return request


def error_body(code: str, message: str, *, retry_after_ms: int | None = None) -> bytes:
    """The body of a refused view, lobby or replay request."""
    return encoder.encode({"error": ErrorBody(code, message, retry_after_ms)})


def unknown_game_body(subject: str, game: str) -> bytes:
    """The answer to a command or request for a game that no service offers."""
    return failure_body(subject, "unknown_game", f"No game is called {game}.")


def failure_body(subject: str, code: str, message: str) -> bytes:
    """A refusal shaped as the asker expects it: a command reply on a command subject, else
    the error body of a request."""
    if subjects.parse_cmd(subject) is not None:
        return encoder.encode(Reply.rejected(code, message))
    return error_body(code, message)


def normalize(value: Any) -> Any:
    """`value` as it reads after a trip through JSON (tuples become lists, and so on)."""
    return _decode_json(encoder.encode(value))
