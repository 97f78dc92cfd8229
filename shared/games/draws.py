"""Draws nobody can load: the table's seed and the one generator every random draw comes from.

At `create` the service draws a secret and logs only its SHA-256 (`seed_committed`); each
player may add entropy of their own when they sit down; at the start the table's seed is the
SHA-256 of the secret followed by every seat's entropy. Every draw of the game then comes from
`Draws`: block `i` of the table is HMAC-SHA256(seed, i as 8 bytes big-endian), its first 8
bytes a number below 2**64, turned into a number below `n` by rejection sampling. The table
keeps counting blocks from one command to the next, so that a draw depends on how many came
before it and on nothing else. docs/fairness.md writes it out for a second implementation.
"""

from __future__ import annotations

import hashlib
import hmac
import re
from collections.abc import MutableSequence, Sequence
from typing import Any, TypeVar

import msgspec

T = TypeVar("T")

SECRET_BYTES = 32
# A player's entropy: up to 32 bytes, written in hex (two characters a byte).
ENTROPY_PATTERN = re.compile(r"(?:[0-9a-f]{2}){0,32}")
_SPAN = 1 << 64


class Receipt(msgspec.Struct, frozen=True, kw_only=True, omit_defaults=True):
    """One draw as the generator saw it: the operation and what it was drawn from (`k`: how
    many, for a sample); the result is not kept, anyone with the seed computes it again."""

    op: str  # "choice", "shuffle" or "sample"
    items: list[Any]  # as JSON writes them (tuples as lists), so that the log says the same
    k: int = 0


def commitment(secret: bytes) -> str:
    return hashlib.sha256(secret).hexdigest()


def table_seed(secret: bytes, entropies: Sequence[str]) -> bytes:
    """SHA-256 of the secret, then for each seat in seat order one byte (the length of its
    entropy in bytes) and the entropy's bytes: lengths written out, so that no two different
    lists of entropies hash the same bytes."""
    hashed = hashlib.sha256(secret)
    for entropy in entropies:
        raw = bytes.fromhex(entropy)
        hashed.update(bytes([len(raw)]) + raw)
    return hashed.digest()


def normal_entropy(entropy: str) -> str | None:
    """A player's entropy as the log keeps it (lowercase hex), or None when it is not up to 64
    hex characters of whole bytes."""
    lowered = entropy.lower()
    return lowered if ENTROPY_PATTERN.fullmatch(lowered) else None


class Draws:
    """The table's generator from block `first` on: `choice`, `shuffle` and `sample` as the
    rules modules call them, each one written down as a `Receipt`."""

    def __init__(self, seed: bytes, first: int = 0) -> None:
        self.seed = seed
        self.first = first
        self.next = first  # the block the next draw starts at
        self.receipts: list[Receipt] = []

    def below(self, n: int) -> int:
        """A uniform number in [0, n): a block's first 8 bytes, unless they fall in the last
        incomplete run of n numbers below 2**64, when the next block is taken instead."""
        if n < 1:
            raise ValueError("nothing to draw from")
        limit = _SPAN - _SPAN % n
        while True:
            block = hmac.digest(self.seed, self.next.to_bytes(8, "big"), "sha256")
            self.next += 1
            number = int.from_bytes(block[:8], "big")
            if number < limit:
                return number % n

    def choice(self, items: Sequence[T]) -> T:
        self.receipts.append(Receipt(op="choice", items=_as_logged(items)))
        return items[self.below(len(items))]

    def shuffle(self, items: MutableSequence[Any]) -> None:
        """Fisher-Yates, from the last place down: place i takes the item at a place drawn
        below i + 1."""
        self.receipts.append(Receipt(op="shuffle", items=_as_logged(items)))
        _shuffle(self, items)

    def sample(self, items: Sequence[T], k: int) -> list[T]:
        """k distinct items: Fisher-Yates from the first place up, stopped after k places."""
        if not 0 <= k <= len(items):
            raise ValueError("sample larger than its population")
        self.receipts.append(Receipt(op="sample", items=_as_logged(items), k=k))
        return _sample(self, items, k)

    def randbytes(self, n: int) -> bytes:
        raise TypeError("a table's draws make no secrets: its secret is drawn before its seed")


def _as_logged(items: Sequence[Any]) -> list[Any]:
    logged: list[Any] = msgspec.json.decode(msgspec.json.encode(list(items)))
    return logged


def _shuffle(draws: Draws, items: MutableSequence[Any]) -> None:
    for i in range(len(items) - 1, 0, -1):
        j = draws.below(i + 1)
        items[i], items[j] = items[j], items[i]


def _sample(draws: Draws, items: Sequence[T], k: int) -> list[T]:
    pool = list(items)
    for i in range(k):
        j = i + draws.below(len(pool) - i)
        pool[i], pool[j] = pool[j], pool[i]
    return pool[:k]


def redraw(seed: bytes, first: int, receipts: Sequence[Receipt]) -> tuple[list[Any], int]:
    """Each receipt's result drawn again from block `first`, and the block after the last:
    what a verifier computes from the revealed secret."""
    draws = Draws(seed, first)
    results: list[Any] = []
    for receipt in receipts:
        if receipt.op == "choice":
            results.append(receipt.items[draws.below(len(receipt.items))])
        elif receipt.op == "shuffle":
            shuffled = list(receipt.items)
            _shuffle(draws, shuffled)
            results.append(shuffled)
        elif receipt.op == "sample":
            results.append(_sample(draws, receipt.items, receipt.k))
        else:
            raise ValueError(f"unknown draw operation {receipt.op!r}")
    return results, draws.next
