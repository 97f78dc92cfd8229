"""A table folded from its log: the state after its last batch, and what the shell needs
around it (version, stream sequence, the command ids already applied and by whom); the one
way to fold a table from its log messages, and the one bounded cache of folded tables that
the worker and the projectors keep."""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable, Hashable, Iterable, Iterator
from functools import cache
from typing import Any, Generic, NamedTuple, Protocol, TypeVar

import msgspec
import structlog

from shared.games.decider import fold
from shared.games.table import Table, TableDecider
from shared.messages import subjects
from shared.messages.envelopes import EventBatch

log = structlog.get_logger("tabletop.log")
K = TypeVar("K", bound=Hashable)
V = TypeVar("V")


class CorruptLog(Exception):
    """A table's log does not follow on (a version gap): never expected, so never hidden."""


class Applied(NamedTuple):
    """What the log holds of one command id."""

    version: int  # the version its batch made
    player: str
    digest: str  # "" in messages written before digests

    def is_retry_of(self, player: str, digest: str) -> bool:
        """The same command sent again: the same player and the same body (for messages
        without a digest, the same player is all that can be told)."""
        return player == self.player and (not self.digest or digest == self.digest)


class Folded(msgspec.Struct, frozen=True, gc=False):
    """One table after its log's messages up to `last_seq` (a struct, not a dataclass: made
    for every message folded, in a tenth of the time; never in a reference cycle, so not
    tracked by the cyclic GC).

    `command_ids` belongs to the fold, not to one version: `then` adds the new batch's id to
    the same dict, so folding costs the same at the 10,000th command as at the first. A Folded
    is therefore followed by at most one successor (its table's next version); an older one
    keeps its state and version but sees the ids applied after it, which the log holds too.
    """

    state: Table
    version: int = 0  # batches folded
    last_seq: int = 0  # stream sequence of the last batch folded
    command_ids: dict[str, Applied] = msgspec.field(default_factory=dict)
    created_at: str = ""  # when the table's first batch was appended
    moved_at: str = ""  # when its last batch was appended

    def then(self, decider: TableDecider, seq: int, batch: EventBatch[Any]) -> Folded:
        """This table after one more batch."""
        if batch.version != self.version + 1:
            raise CorruptLog(f"{batch.game}/{batch.table}: batch {batch.version} after {self.version}")
        state = fold(decider.evolve, batch.events, self.state)  # raises before any change
        self.command_ids[batch.command_id] = Applied(batch.version, batch.player, batch.digest)
        return Folded(
            state=state,
            version=batch.version,
            last_seq=seq,
            command_ids=self.command_ids,
            created_at=self.created_at or batch.at,
            moved_at=batch.at,
        )

    def skip(self, seq: int) -> Folded:
        """This table after a message that does not fit it: unchanged, but the next append
        must follow that message."""
        return msgspec.structs.replace(self, last_seq=seq)


class Admitted(msgspec.Struct, frozen=True, gc=False):
    """The table after one more log message: `batch` is None when the message was skipped,
    and `skipped` says why."""

    folded: Folded
    batch: EventBatch[Any] | None = None
    skipped: str | None = None


def admit(
    decider: TableDecider,
    folded: Folded,
    game: str,
    table: str,
    seq: int,
    data: bytes,
    writer: str,
) -> Admitted:
    """Fold one message of the table's subject, or skip it if it does not fit: written by
    anyone but the game's worker, naming another game or table in its body, a version that
    does not follow on, or events that do not apply. The log is append-only and a message that
    reached it anyway must not stop the table: it is logged and the table goes on from the
    messages that fit."""
    reason = None
    batch = None
    if writer != subjects.writer(game):
        reason = "unknown_writer"
    else:
        try:
            batch = decode_batch(decider, data)
        except (msgspec.DecodeError, msgspec.ValidationError):
            reason = "undecodable"
        else:
            if (batch.game, batch.table) != (game, table):
                reason = "another_table"
            elif batch.version != folded.version + 1:
                reason = "version_gap"
    if reason is None:
        assert batch is not None
        try:
            return Admitted(folded.then(decider, seq, batch), batch)
        except Exception:  # noqa: BLE001 - a forged event the rules cannot apply
            reason = "does_not_apply"
    log.error("log_message_skipped", game=game, table=table, seq=seq, reason=reason, writer=writer)
    return Admitted(folded.skip(seq), None, reason)


def message_version(decider: TableDecider, game: str, message: LogMessage) -> int | None:
    """The version a message of a table's log says it makes; None when it is not a batch of
    the game's worker (folding skips it)."""
    if message.writer != subjects.writer(game):
        return None
    try:
        return decode_batch(decider, message.data).version
    except (msgspec.DecodeError, msgspec.ValidationError):
        return None


def follows_on(decider: TableDecider, folded: Folded, game: str, message: LogMessage) -> bool:
    """Whether `message` of the table's log fits a table folded from elsewhere (a snapshot):
    it is the message the fold ends on, with the fold's version, or the next, with the next
    version. A message that is not a batch of the game's worker says no: the caller then folds
    the whole log, which skips it."""
    version = message_version(decider, game, message)
    if message.seq == folded.last_seq:
        return version == folded.version
    return message.seq > folded.last_seq and version == folded.version + 1


class LogMessage(Protocol):
    """A table's log message as the event store or a durable consumer hands it over."""

    @property
    def seq(self) -> int: ...

    @property
    def data(self) -> bytes: ...

    @property
    def writer(self) -> str: ...


class TableLog(Protocol):
    """What folding needs of the event store (shared/bus/event_store.py)."""

    async def read(
        self,
        game: str,
        table: str,
        *,
        after: int = 0,
        upto: int | None = None,
        expect: int = ...,
    ) -> list[Any]: ...


def fold_messages(
    decider: TableDecider,
    folded: Folded,
    game: str,
    table: str,
    messages: Iterable[LogMessage],
    on_admitted: Callable[[Admitted], None] | None = None,
) -> Folded:
    """`folded` after `messages` (the ones that fit it); `on_admitted` sees each step."""
    for message in messages:
        admitted = admit(decider, folded, game, table, message.seq, message.data, message.writer)
        if on_admitted is not None:
            on_admitted(admitted)
        folded = admitted.folded
    return folded


async def fold_log(
    store: TableLog,
    decider: TableDecider,
    game: str,
    table: str,
    *,
    since: Folded | None = None,
    upto: int | None = None,
    version: int | None = None,
    on_admitted: Callable[[Admitted], None] | None = None,
) -> Folded:
    """The table as its log has it up to `upto` (all of it by default): `since` plus the
    messages after it, or the whole log. `version`: the version the message at `upto`
    says it makes, if known (the log is read in pages of about the size that needs)."""
    folded = since if since is not None else empty(decider)
    if upto is not None and upto <= folded.last_seq:
        return folded
    stored = await store.read(
        game,
        table,
        after=folded.last_seq,
        upto=upto,
        **({} if version is None or version <= folded.version else {"expect": version - folded.version}),
    )
    return fold_messages(decider, folded, game, table, stored, on_admitted)


class Bounded(Generic[K, V]):
    """At most `size` entries, and with `budget`, at most about that many bytes as `weigh`
    says (an entry alone over the budget is kept); the least recently used dropped first: what
    a service keeps of the tables it saw (folded tables, their replay steps), so that ids sent
    at random cannot grow its memory."""

    def __init__(
        self,
        size: int,
        on_evict: Callable[[K, V], None] | None = None,
        *,
        budget: int | None = None,
        weigh: Callable[[V], int] | None = None,
    ) -> None:
        self.size = size
        self.on_evict = on_evict  # told of each entry dropped to make room (not of `pop`)
        self.budget = budget
        self.weigh = weigh
        self.weight = 0  # the entries' bytes, as weighed
        self._entries: OrderedDict[K, V] = OrderedDict()
        self._weights: dict[K, int] = {}

    def get(self, key: K) -> V | None:
        value = self._entries.get(key)
        if value is not None:
            self._entries.move_to_end(key)
        return value

    def put(self, key: K, value: V, *, weighed: bool = True) -> V:
        """Keep `value` under `key`, the most recently used. `weighed=False` keeps the weight
        the key had (weighed only when new): for a value put again at once, weighed then (a
        table's steps within one batch)."""
        if self.weigh is not None and (weighed or key not in self._weights):
            weight = self.weigh(value)
            self.weight += weight - self._weights.get(key, 0)
            self._weights[key] = weight
        self._entries[key] = value
        self._entries.move_to_end(key)
        while len(self._entries) > self.size or (
            self.budget is not None and self.weight > self.budget and len(self._entries) > 1
        ):
            dropped = self._entries.popitem(last=False)
            self.weight -= self._weights.pop(dropped[0], 0)
            if self.on_evict is not None:
                self.on_evict(*dropped)
        return value

    def pop(self, key: K) -> V | None:
        self.weight -= self._weights.pop(key, 0)
        return self._entries.pop(key, None)

    def __getitem__(self, key: K) -> V:
        return self._entries[key]

    def __contains__(self, key: object) -> bool:
        return key in self._entries

    def __len__(self) -> int:
        return len(self._entries)

    def __iter__(self) -> Iterator[K]:
        return iter(self._entries)


# What a folded table takes in memory, about: its state's msgpack bytes times BYTES_PER_ENCODED
# (measured on whole games of the five games: 7 to 14), and BYTES_PER_ID per command id (its
# key, its record and the index's share). Within 0.6 to 1.7 times what a table takes, all game
# long, in each of the five games (tests/platform/test_caches.py).
BYTES_PER_ENCODED = 10
BYTES_PER_ID = 320
_state_encoder = msgspec.msgpack.Encoder()


def weigh_folded(folded: Folded) -> int:
    """About the bytes a cached folded table takes (a `Bounded`'s `weigh`): its state encoded,
    3 to 13 µs (measured again at each version: a state can grow or shrink by half in a few
    moves, and adding up in between strayed to 2.6 times the truth)."""
    state = len(_state_encoder.encode(folded.state))
    return BYTES_PER_ENCODED * state + BYTES_PER_ID * len(folded.command_ids)


def empty(decider: TableDecider) -> Folded:
    return Folded(state=decider.initial_state)


@cache
def batch_decoder(decider: TableDecider) -> msgspec.json.Decoder[EventBatch[Any]]:
    return msgspec.json.Decoder(EventBatch[decider.event_type])  # type: ignore[name-defined]


def decode_batch(decider: TableDecider, data: bytes) -> EventBatch[Any]:
    return batch_decoder(decider).decode(data)
