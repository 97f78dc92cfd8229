"""A table folded from its log: the state after its last batch, and what the shell needs
around it (version, stream sequence, the command ids already applied and by whom)."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from functools import cache
from typing import Any, NamedTuple

import msgspec
import structlog

from shared.games.decider import fold
from shared.games.table import Table, TableDecider
from shared.messages import subjects
from shared.messages.envelopes import EventBatch

log = structlog.get_logger("tabletop.log")


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


@dataclass(frozen=True, slots=True)
class Folded:
    state: Table
    version: int = 0  # batches folded
    last_seq: int = 0  # stream sequence of the last batch folded
    command_ids: dict[str, Applied] = field(default_factory=dict)
    created_at: str = ""  # when the table's first batch was appended

    def then(self, decider: TableDecider, seq: int, batch: EventBatch[Any]) -> Folded:
        """This table after one more batch."""
        if batch.version != self.version + 1:
            raise CorruptLog(
                f"{batch.game}/{batch.table}: batch {batch.version} after {self.version}")
        return Folded(
            state=fold(decider.evolve, batch.events, self.state),
            version=batch.version,
            last_seq=seq,
            command_ids={
                **self.command_ids,
                batch.command_id: Applied(batch.version, batch.player, batch.digest),
            },
            created_at=self.created_at or batch.at,
        )

    def skip(self, seq: int) -> Folded:
        """This table after a message that does not fit it: unchanged, but the next append
        must follow that message."""
        return replace(self, last_seq=seq)


@dataclass(frozen=True, slots=True)
class Admitted:
    """The table after one more log message: `batch` is None when the message was skipped,
    and `skipped` says why."""

    folded: Folded
    batch: EventBatch[Any] | None = None
    skipped: str | None = None


def admit(
    decider: TableDecider, folded: Folded, game: str, table: str, seq: int, data: bytes,
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
    log.error("log_message_skipped", game=game, table=table, seq=seq, reason=reason,
              writer=writer)
    return Admitted(folded.skip(seq), None, reason)


def empty(decider: TableDecider) -> Folded:
    return Folded(state=decider.initial_state)


@cache
def batch_decoder(decider: TableDecider) -> msgspec.json.Decoder[EventBatch[Any]]:
    return msgspec.json.Decoder(EventBatch[decider.event_type])  # type: ignore[name-defined]


def decode_batch(decider: TableDecider, data: bytes) -> EventBatch[Any]:
    return batch_decoder(decider).decode(data)
