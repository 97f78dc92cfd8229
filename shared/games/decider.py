"""The pure core every game is written against: no I/O, no clock, no global random.

A game is one `Game` value: its rules as plain functions (the Decider shape: `decide` turns a
command into events or a `Rejection`, `evolve` folds an event into the state) plus what the
platform needs around them (player range, options, views, result, bot). The table life common
to every game (create, join, leave, start, game ended) wraps a `Game` in `shared.games.table`.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from collections.abc import Set as AbstractSet
from dataclasses import dataclass, field
from functools import reduce
from typing import Any, Generic, Literal, Protocol, TypeVar, cast

import msgspec

PlayerId = str
# Every id of the protocol (game, table, player) and so of a subject's tokens.
ID_PATTERN = re.compile(r"[A-Za-z0-9_-]{1,64}")


def is_id(value: object) -> bool:
    return isinstance(value, str) and ID_PATTERN.fullmatch(value) is not None


S = TypeVar("S")
T = TypeVar("T")
Opts = TypeVar("Opts")

# Views are plain JSON-ready mappings; a viewer of None is a spectator.
View = dict[str, Any]


def snake_case(name: str) -> str:
    """`PlayCard` -> `play_card`: the wire `type` tag of a command or event class."""
    return re.sub(r"(?<!^)(?=[A-Z])", "_", name).lower()


def type_tag(cls: type[msgspec.Struct]) -> str:
    """The wire `type` of a command or event class."""
    info = msgspec.inspect.type_info(cls)
    assert isinstance(info, msgspec.inspect.StructType) and isinstance(info.tag, str)
    return info.tag


class Command(
    msgspec.Struct,
    tag_field="type",
    tag=snake_case,
    frozen=True,
    kw_only=True,
    forbid_unknown_fields=True,
):
    """Base of every command: strict, because commands come from untrusted clients."""


class Event(msgspec.Struct, tag_field="type", tag=snake_case, frozen=True, kw_only=True):
    """Base of every event: lenient, so that events written long ago still decode."""


class Options(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """Base of a game's table options: every field has a default, unknown names are refused,
    and each is `explained` for the person who creates a table."""


# the names of the languages a game's `language` option may name, for its choices' labels
LANGUAGE_NAMES: Mapping[str, str] = {"en": "English", "fr": "Français"}


def explained(text: str, choices: Mapping[str, str] | None = None) -> msgspec.Meta:
    """An option's meaning in a sentence (its JSON schema's `description`: the web client's
    create form shows it under the field), as `Annotated[type, explained("...")]`; `choices`
    names an option's values for a person (the schema's `x-choice-names`)."""
    if choices is None:
        return msgspec.Meta(description=text)
    return msgspec.Meta(description=text, extra_json_schema={"x-choice-names": dict(choices)})


class Rejection(msgspec.Struct, frozen=True):
    """A refused command: normal play, so a value, not an exception."""

    code: str  # stable snake_case, listed in docs/protocol.md or docs/games/<game>.md
    message: str  # for a person: what was wrong and, where it helps, what is allowed


class Randomness(Protocol):
    """Where a game's draws come from: a table's seeded generator (`shared.games.draws`), or a
    `random.Random` in tests and for tables logged before seeds."""

    def choice(self, seq: Sequence[T], /) -> T: ...
    def shuffle(self, x: list[Any], /) -> None: ...
    def sample(self, population: Sequence[T], /, k: int) -> list[T]: ...
    def randbytes(self, n: int, /) -> bytes: ...


@dataclass(frozen=True, kw_only=True)
class Context:
    """What `decide` may know about the outside world, handed in by the shell."""

    actor: PlayerId
    rng: Randomness
    now: str = ""  # the `at` the worker will write on this command's log message


class Standing(msgspec.Struct, frozen=True):
    player: PlayerId
    rank: int  # 1 is first; tied players share a rank
    score: float | int


class Result(msgspec.Struct, frozen=True, kw_only=True):
    """How a game ended: the scores, the ranking with shared ranks, and the winners."""

    scores: dict[PlayerId, float | int]
    ranking: list[Standing]
    winners: list[PlayerId]
    details: dict[str, Any] = {}


def rank_players(
    players: Sequence[PlayerId],
    score: Callable[[PlayerId], float | int],
    tiebreak: Callable[[PlayerId], Any] = lambda _: 0,
    *,
    details: Mapping[str, Any] | None = None,
    lower_is_better: bool = False,
    outright: Callable[[PlayerId], bool] = lambda _: False,
    dense: bool = False,
) -> Result:
    """A `Result` ranking players by score, then by `tiebreak` (higher first unless
    `lower_is_better`); players equal on both share a rank, and every first is a winner.
    An `outright` winner ranks before everyone whatever the score (a game won at once).
    Ranks are 1, 1, 3 after a tie, or 1, 1, 2 when `dense`."""

    def key(p: PlayerId) -> tuple[bool, Any, Any]:
        s = score(p)
        return (not outright(p), (s if lower_is_better else -s), _neg(tiebreak(p)))

    ordered = sorted(players, key=key)
    ranking: list[Standing] = []
    for index, p in enumerate(ordered):
        if index and key(p) == key(ordered[index - 1]):
            rank = ranking[-1].rank
        else:
            rank = ranking[-1].rank + 1 if dense and ranking else index + 1
        ranking.append(Standing(player=p, rank=rank, score=score(p)))
    return Result(
        scores={p: score(p) for p in players},
        ranking=ranking,
        winners=[s.player for s in ranking if s.rank == 1],
        details=dict(details or {}),
    )


def _neg(value: Any) -> Any:
    if isinstance(value, tuple):
        return tuple(_neg(v) for v in value)
    return -value


def describe_by_type(event: Event, viewer: PlayerId | None) -> str | None:
    """The plain log line of a game that says nothing of its own: who, and the event's type
    tag in words ("ann: play card")."""
    what = str(event.__struct_config__.tag).replace("_", " ")
    player = getattr(event, "player", None)
    return f"{player}: {what}" if isinstance(player, str) else what


Phrase = Callable[[Any, PlayerId | None], str]
Language = Literal["en", "fr"]  # the languages of the game logs and the client


def describe_with(phrases: Mapping[type[Event], Phrase]) -> Callable[[Event, PlayerId | None], str | None]:
    """A game's `describe` from one small function per event type (an event logged under an
    old tag is a subclass, so it is said as the event it renames); None for any other event."""

    def describe(event: Event, viewer: PlayerId | None) -> str | None:
        phrase = next((phrases[t] for t in type(event).__mro__ if t in phrases), None)
        return None if phrase is None else phrase(event, viewer)

    return describe


def spoken_list(items: Iterable[Any], last: str = "and") -> str:
    """Items as a sentence lists them: "ann", "ann and bob", "ann, bob and cat" (in French,
    `last="et"`)."""
    words = [str(i) for i in items]
    if len(words) < 2:
        return "".join(words)
    return f"{', '.join(words[:-1])} {last} {words[-1]}"


def random_legal_bot(view: View, rng: random.Random) -> dict[str, Any]:
    """The simplest bot: any command from the `legal` list of its own seat's view."""
    return dict(rng.choice(view["legal"]))


@dataclass(frozen=True, kw_only=True, eq=False)
class Search(Generic[S]):
    """What a game gives the search bot (`shared.games.search`) to play a seat well from that
    seat's view alone."""

    # A whole state the seat's view could come from: what it shows, as it shows it; what it
    # hides (other hands, face-down piles, the order of a deck) drawn at random among what the
    # seat cannot rule out. Reads the view only.
    determinize: Callable[[View, random.Random], S]
    # How likely each player is to win from here, each in [0, 1]: where a playout stops short.
    evaluate: Callable[[S], Mapping[PlayerId, float]]
    # A quick, sensible move among `legal` for `player`: the playouts of the `hard` level.
    policy: Callable[[S, PlayerId, Sequence[Command], random.Random], Command]


@dataclass(frozen=True, kw_only=True, eq=False)
class Game(Generic[S, Opts]):
    """One game's rules, declared as a single value (boardgame.io's game object).

    `setup` runs when the table starts: it draws everything random from the rng and returns
    the events recording it (or a `Rejection`, when the seated players do not suit the
    options). From then on `decide` and `evolve` carry the game; the platform appends the
    `game_ended` event with `result(state)` as soon as `is_terminal(state)`.
    """

    name: str  # snake_case id used in subjects: "naishi"
    title: str  # for people: "Naishi"
    min_players: int
    max_players: int
    options: type[Opts]  # a subclass of `Options`; decoded strictly at `create`
    commands: tuple[type[Command], ...]
    events: tuple[type[Event], ...]
    initial_state: S
    setup: Callable[[Opts, tuple[PlayerId, ...], Randomness], Sequence[Event] | Rejection]
    decide: Callable[[S, Command, Context], Sequence[Event] | Rejection]
    evolve: Callable[[S, Event], S]  # total over logged events; never mutates its input
    is_terminal: Callable[[S], bool]
    players_to_act: Callable[[S], Sequence[PlayerId]]
    legal_commands: Callable[[S, PlayerId], Sequence[Command]]
    player_view: Callable[[S, PlayerId | None], View]
    # Several viewers' views at once, each exactly `player_view`'s (the conformance suite
    # checks it): for a game whose views share most of their parts, made once. None:
    # `player_view` for each.
    player_views: Callable[[S, Sequence[PlayerId | None]], Sequence[View]] | None = None
    redact: Callable[[Event, PlayerId | None], Event | None]
    result: Callable[[S], Result]
    # Checks that depend on the seat count (a bad option -> its message, else None).
    check_options: Callable[[Opts, int], str | None] = lambda options, seats: None
    bot: Callable[[View, random.Random], dict[str, Any]] = random_legal_bot  # the `easy` level
    # The search bot's parts (the `normal` and `hard` levels); None: those levels play
    # `strong_bot` if the game has one, else `bot`.
    search: Search[S] | None = None
    strong_bot: Callable[[View, random.Random], dict[str, Any]] | None = None
    # One event in English for one viewer, for the game log (None: nothing to say). Always
    # called on the event as `redact` left it for that viewer, so it cannot tell a secret.
    describe: Callable[[Event, PlayerId | None], str | None] = describe_by_type
    # The same in French (the log's `log_fr`); None: the French log repeats the English.
    describe_fr: Callable[[Event, PlayerId | None], str | None] | None = None
    # The event types every viewer sees and is told alike: `redact` leaves them the same for
    # every seat and for spectators, and `describe` names no viewer (the conformance suite
    # checks both). Each such event of a message is redacted and said once for all viewers.
    seen_alike: frozenset[type[Event]] = frozenset()
    # The game events a seat's move may consist of and still be taken back (`undo`) until
    # someone else acts: those that reveal nothing to anyone and draw nothing at random.
    take_back: frozenset[type[Event]] = frozenset()
    # The results of the draws one event of a move records, in the order drawn, as the event
    # shows them to its viewer (None where hidden): what `tabletop verify-fairness` compares with
    # the draws made again from the revealed seed. The setup's draws are checked by running
    # `setup` again, so its events need not be said here.
    drawn: Callable[[Event], Sequence[Any]] = lambda event: ()
    # What `viewer` must not see in this state: values (card ids, words, numbers) that no
    # part of its view nor any event redacted for it may hold. The conformance suite checks
    # every view and redacted event against it; a game with nothing hidden keeps the default.
    secrets: Callable[[S, PlayerId | None], AbstractSet[Hashable]] = lambda state, viewer: frozenset()
    description: str = ""
    extra: Mapping[str, Any] = field(default_factory=dict)


def logged(values: Iterable[T | None]) -> tuple[T, ...]:
    """The values of an event field typed `... | None` only so that `redact` can blank them:
    the log itself holds them all."""
    out = tuple(values)
    assert None not in out, "a redacted event cannot be folded"
    return cast("tuple[T, ...]", out)


def fold(evolve: Callable[[S, Any], S], events: Iterable[Any], state: S) -> S:
    """The state after `events`, starting from `state`."""
    return reduce(evolve, events, state)


class Batch(Generic[S]):
    """The events one command decides, each folded in as it is added, so that the next
    decision reads the state the earlier ones lead to (a turn that ends a round that ends the
    game). `decide` returns `batch.events`."""

    def __init__(self, evolve: Callable[[S, Any], S], state: S) -> None:
        self._evolve = evolve
        self.state = state
        self.events: list[Event] = []

    def add(self, *events: Event) -> S:
        """Append `events` in order; the state after them."""
        for event in events:
            self.events.append(event)
            self.state = self._evolve(self.state, event)
        return self.state
