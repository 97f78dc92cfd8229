"""A table folded from its log: the state after its last batch, and what the shell needs
around it (version, stream sequence, the command ids already applied and by whom)."""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cache
from typing import Any, NamedTuple

import msgspec

from shared.games.decider import fold
from shared.games.table import Table, TableDecider
from shared.messages.envelopes import EventBatch


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
        )


def empty(decider: TableDecider) -> Folded:
    return Folded(state=decider.initial_state)


@cache
def batch_decoder(decider: TableDecider) -> msgspec.json.Decoder[EventBatch[Any]]:
    return msgspec.json.Decoder(EventBatch[decider.event_type])  # type: ignore[name-defined]


def decode_batch(decider: TableDecider, data: bytes) -> EventBatch[Any]:
    return batch_decoder(decider).decode(data)
