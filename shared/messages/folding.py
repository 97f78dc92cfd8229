"""A table folded from its log: the state after its last batch, and what the shell needs
around it (version, stream sequence, the command ids already applied)."""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cache
from typing import Any

import msgspec

from shared.games.decider import fold
from shared.games.table import Table, TableDecider
from shared.messages.envelopes import EventBatch


class CorruptLog(Exception):
    """A table's log does not follow on (a version gap): never expected, so never hidden."""


@dataclass(frozen=True, slots=True)
class Folded:
    state: Table
    version: int = 0  # batches folded
    last_seq: int = 0  # stream sequence of the last batch folded
    command_ids: dict[str, int] = field(default_factory=dict)  # command id -> its version

    def then(self, decider: TableDecider, seq: int, batch: EventBatch[Any]) -> Folded:
        """This table after one more batch."""
        if batch.version != self.version + 1:
            raise CorruptLog(
                f"{batch.game}/{batch.table}: batch {batch.version} after {self.version}")
        return Folded(
            state=fold(decider.evolve, batch.events, self.state),
            version=batch.version,
            last_seq=seq,
            command_ids={**self.command_ids, batch.command_id: batch.version},
        )


def empty(decider: TableDecider) -> Folded:
    return Folded(state=decider.initial_state)


@cache
def batch_decoder(decider: TableDecider) -> msgspec.json.Decoder[EventBatch[Any]]:
    return msgspec.json.Decoder(EventBatch[decider.event_type])  # type: ignore[name-defined]


def decode_batch(decider: TableDecider, data: bytes) -> EventBatch[Any]:
    return batch_decoder(decider).decode(data)
