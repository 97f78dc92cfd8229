"""The table's seed through its life (docs/fairness.md): committed at `create`, the players'
entropy taken as they sit, the seed fixed at the start, every command's draws counted and
receipted, and the secret revealed once the table has ended. The generator is
`shared.games.draws`."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import msgspec

from shared.games.decider import Context, Event, Rejection, fold
from shared.games.draws import SECRET_BYTES, Draws, commitment, normal_entropy, table_seed
from shared.games.table_messages import (
    DrawsMade,
    GameEnded,
    PlayerLeft,
    SeedCommitted,
    SeedRevealed,
    TableExpired,
)
from shared.games.table_state import Table

replace = msgspec.structs.replace

BAD_ENTROPY = Rejection(
    "bad_entropy", "Entropy is your own randomness for the table's seed: up to 64 hex characters, two a byte."
)
# The events after which a table may have ended (the last player leaving an open table too).
_ENDINGS = (GameEnded, TableExpired, PlayerLeft)


def entropy_of(sent: str) -> str | Rejection:
    entropy = normal_entropy(sent)
    return BAD_ENTROPY if entropy is None else entropy


def commit(ctx: Context) -> SeedCommitted:
    """A new table's secret, drawn by the service (the shell hands in a system random)."""
    secret = ctx.rng.randbytes(SECRET_BYTES)
    return SeedCommitted(commitment=commitment(secret), secret=secret.hex())


def seed_of(table: Table) -> bytes:
    """The seed of `table` as its players sit now: its secret, then each seat's entropy."""
    assert table.secret, "a table without a secret has no seed"
    return table_seed(bytes.fromhex(table.secret), [table.entropy.get(p, "") for p in table.players])


def draws_for(table: Table) -> Draws | None:
    """The generator of `table` from its next block; None for a table logged before seeds (its
    draws come from the shell's random, as they always did)."""
    if not table.secret:
        return None
    seed = bytes.fromhex(table.seed) if table.seed else seed_of(table)
    return Draws(seed, table.draws_used)


def drawn(draws: Draws | None) -> list[Event]:
    """The record of a command's draws, if it made any."""
    if draws is None or not draws.receipts:
        return []
    return [DrawsMade(first=draws.first, blocks=draws.next - draws.first, receipts=list(draws.receipts))]


def revealed_at_end(
    evolve: Callable[[Table, Any], Table], table: Table, events: Sequence[Event]
) -> list[Event]:
    """`events`, then `seed_revealed` when they end the table and its secret is still kept."""
    if not table.secret or table.revealed or not any(isinstance(e, _ENDINGS) for e in events):
        return list(events)
    after = fold(evolve, events, table)
    if after.status != "ended":
        return list(events)
    return [*events, SeedRevealed(secret=after.secret, draws=dict(after.receipts))]


def redacted(event: Event) -> Event:
    """A table event as every viewer sees it: the secret and the receipts are the log's only,
    until `seed_revealed` says them all."""
    match event:
        case SeedCommitted():
            return replace(event, secret=None)
        case DrawsMade():
            return replace(event, receipts=None)
    return event


# --- evolve ---------------------------------------------------------------------------------


def committed(table: Table, event: SeedCommitted) -> Table:
    return replace(table, secret=event.secret or "")


def draws_made(table: Table, event: DrawsMade) -> Table:
    receipts = {**table.receipts, event.first: list(event.receipts or ())}
    return replace(table, draws_used=event.first + event.blocks, receipts=receipts)


def seed_revealed(table: Table, event: SeedRevealed) -> Table:
    return replace(table, revealed=True)
