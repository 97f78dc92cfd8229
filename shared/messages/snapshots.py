"""A folded table written down (a snapshot), so that a table nobody held in memory is loaded
from its snapshot and the log's messages after it instead of from its whole log.

A snapshot is a cache, never a source of truth: it says which log sequence and version it
covers and which rules folded it, and `read_snapshot` gives it back only when all of that fits
the table asked for; the caller then folds the log's messages after it, and drops it (folding
the whole log) when those do not follow on from it. msgpack: a third smaller than JSON and
keeps the integer keys of a table's receipts.
"""

from __future__ import annotations

from typing import Any

import msgspec

from shared.games.table import TableDecider
from shared.games.table_state import Table, TakeBack
from shared.messages.folding import Applied, Folded

# Bumped when the snapshot's own layout changes: older snapshots are then ignored.
SNAPSHOT_FORMAT = 1


class Snapshot(msgspec.Struct, frozen=True, kw_only=True, gc=False):
    format: int
    rules: str  # the fingerprint of the rules that folded it (`fingerprint`)
    game: str
    table: str
    version: int
    last_seq: int
    created_at: str
    moved_at: str
    command_ids: dict[str, Applied]
    state: Table


_encoder = msgspec.msgpack.Encoder()
_decoder = msgspec.msgpack.Decoder(Snapshot)


def write_snapshot(folded: Folded, *, game: str, table: str, rules: str) -> bytes:
    """The snapshot of a folded table."""
    return _encoder.encode(
        Snapshot(
            format=SNAPSHOT_FORMAT,
            rules=rules,
            game=game,
            table=table,
            version=folded.version,
            last_seq=folded.last_seq,
            created_at=folded.created_at,
            moved_at=folded.moved_at,
            command_ids=folded.command_ids,
            state=folded.state,
        )
    )


def read_snapshot(decider: TableDecider, data: bytes, *, game: str, table: str, rules: str) -> Folded | None:
    """The folded table a snapshot holds, or None when it cannot be used: unreadable, of
    another layout, rules, game or table. Where it stands in the log (not past the table's
    last message, and followed on from by the messages after it) is for the caller to see."""
    try:
        snapshot = _decoder.decode(data)
        if (snapshot.format, snapshot.rules, snapshot.game, snapshot.table) != (
            SNAPSHOT_FORMAT,
            rules,
            game,
            table,
        ):
            return None
        if snapshot.last_seq < 1 or snapshot.version < 1:
            return None
        state = _typed(decider, snapshot.state)
    except (msgspec.DecodeError, msgspec.ValidationError):
        return None
    return Folded(
        state=state,
        version=snapshot.version,
        last_seq=snapshot.last_seq,
        command_ids=snapshot.command_ids,
        created_at=snapshot.created_at,
        moved_at=snapshot.moved_at,
    )


def _typed(decider: TableDecider, state: Table) -> Table:
    """The table with its game's state (and the states kept for take-backs) decoded as the
    game's own type: the table's struct leaves them untyped."""
    kind: Any = type(decider.game.initial_state)

    def game_state(value: Any) -> Any:
        return None if value is None else msgspec.convert(value, kind)

    return msgspec.structs.replace(
        state,
        game=game_state(state.game),
        take_backs=tuple(TakeBack(player=t.player, game=game_state(t.game)) for t in state.take_backs),
    )
