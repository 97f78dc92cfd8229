"""Scoring of one territory (RULES.md 1.1 scoring table, Naishi 14-16), pure and table-driven.

A territory is the 2x5 grid of a Line (row 0) over a Hand (row 1). Cells are adjacent in the
same row at neighbouring columns, or in the same column across the rows; never diagonally.
A Ninja counts as the kind it copies for its own score, for the other cards' conditions and
for the colours, but never as a new kind for the Ronin.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from itertools import product
from typing import Final, TypedDict

from shared.games.naishi.components import (
    COPIABLE,
    LINE_SIZE,
    MOUNTAIN,
    NINJA,
    RONIN_KINDS,
    colour_of,
    is_character,
    kind_of,
)

Cell = tuple[int, int]  # (row, column): row 0 = Line, 1 = Hand; column 0..4
ROW_NAMES: Final = ("line", "hand")

# --- the scoring table as data (RULES.md 1.1) -----------------------------------------------
# Count tables: (at least this many, points for the whole territory), first match wins.
MOUNTAIN_POINTS: Final = ((2, -5), (1, 5), (0, 0))
TORII_POINTS: Final = ((3, 30), (2, 0), (1, -5), (0, 0))
BANNER_LINE_POINTS: Final = ((2, 8), (1, 3), (0, 0))  # Banners of the Line only
RICE_GROUP_POINTS: Final = ((4, 30), (3, 20), (2, 10), (1, 0))  # per connected group
RONIN_POINTS: Final = ((10, 45), (9, 15), (8, 8), (0, 0))  # per Ronin, by distinct kinds
NAISHI_POINTS: Final = {(0, 2): 12, (1, 2): 8}  # only in the middle column
COUNCILLOR_COLUMN: Final = (2, 4, 3, 4, 2)
COUNCILLOR_PER_NAISHI: Final = 4
FORT_EDGE: Final = 6
FORT_COLUMNS: Final = (0, LINE_SIZE - 1)
SENTINEL_ALONE: Final = 3
SENTINEL_PER_FORT: Final = 4
MONK_IN_HAND: Final = 5
MONK_PER_TORII: Final = 2
KNIGHT_IN_HAND: Final = 3
KNIGHT_UNDER_BANNER: Final = 10


def _tier(table: tuple[tuple[int, int], ...], count: int) -> int:
    for least, points in table:
        if count >= least:
            return points
    return 0


def neighbours(cell: Cell) -> list[Cell]:
    row, col = cell
    out = [(1 - row, col)]
    if col > 0:
        out.append((row, col - 1))
    if col < LINE_SIZE - 1:
        out.append((row, col + 1))
    return out


def cell_key(cell: Cell) -> str:
    """`(1, 2)` -> `"hand:3"`: how a cell is named on the wire (positions are 1..5)."""
    return f"{ROW_NAMES[cell[0]]}:{cell[1] + 1}"


def parse_cell_key(key: str) -> Cell:
    row, _, pos = key.partition(":")
    return (ROW_NAMES.index(row), int(pos) - 1)


def grid_of(line: Sequence[str], hand: Sequence[str]) -> dict[Cell, str]:
    """The kinds on a territory's 2x5 grid, from card ids."""
    grid = {(0, c): kind_of(card) for c, card in enumerate(line)}
    grid.update({(1, c): kind_of(card) for c, card in enumerate(hand)})
    return grid


def ninja_cells(grid: Mapping[Cell, str]) -> list[Cell]:
    return sorted(cell for cell, kind in grid.items() if kind == NINJA)


def copy_candidates(grid: Mapping[Cell, str]) -> list[str]:
    """The kinds a Ninja of this territory may copy (Naishi 16): its real characters."""
    present = set(grid.values())
    return [k for k in COPIABLE if k in present]


class GridScore(TypedDict):
    """One territory's score: the total, its colours (the tie-break), points by kind and by
    cell ("row,position")."""

    total: int
    colours: int
    by_kind: dict[str, int]
    by_cell: dict[str, int]


def score_grid(
    grid: Mapping[Cell, str],
    copies: Mapping[Cell, str | None] | None = None,
) -> GridScore:
    """Score one territory. `copies` maps each Ninja cell to the kind it copies (None or
    missing: it copies nothing). Returns `{"total", "colours", "by_kind", "by_cell"}`."""
    copies = dict(copies or {})
    # What each cell counts as: a Ninja takes its copy's kind, or None with no copy.
    eff: dict[Cell, str | None] = {
        cell: (copies.get(cell) if kind == NINJA else kind) for cell, kind in grid.items()
    }

    counts = Counter(eff.values())

    def count(kind: str) -> int:
        return counts[kind]

    by_cell: dict[Cell, int] = {}
    by_kind: dict[str, int] = {}

    def add(kind: str, points: int) -> None:
        by_kind[kind] = by_kind.get(kind, 0) + points

    # Cards scoring on their own.
    distinct = len({k for k in grid.values() if k in RONIN_KINDS})  # real cards only
    for cell, kind in sorted(eff.items()):
        points = _own_points(eff, cell, kind, distinct)
        if points is None:
            continue
        by_cell[cell] = points
        add(NINJA if grid[cell] == NINJA or kind is None else kind, points)
    # Cards scoring as a set.
    add(MOUNTAIN, _tier(MOUNTAIN_POINTS, count(MOUNTAIN)))
    add("torii", _tier(TORII_POINTS, count("torii")))
    banners = sum(1 for (row, _), k in eff.items() if row == 0 and k == "banner")
    add("banner", _tier(BANNER_LINE_POINTS, banners))
    add("rice", sum(_tier(RICE_GROUP_POINTS, len(g)) for g in _groups(eff, "rice")))
    for kind in (MOUNTAIN, "torii", "banner", "rice"):
        if not count(kind):
            by_kind.pop(kind, None)
    colours = {colour_of(k) for k in eff.values() if k is not None}
    return {
        "total": sum(by_kind.values()),
        "colours": len(colours),
        "by_kind": dict(sorted(by_kind.items())),
        "by_cell": {cell_key(c): p for c, p in sorted(by_cell.items())},
    }


def _own_points(eff: Mapping[Cell, str | None], cell: Cell, kind: str | None, distinct: int) -> int | None:
    """The points of the card at `cell`, counting as `kind`, on its own (None: a kind that
    scores as a set); `distinct`: the kinds of real cards in the territory, for Ronins."""
    row, col = cell
    if kind is None:  # a Ninja with nothing to copy
        return 0
    if kind == "naishi":
        return NAISHI_POINTS.get(cell, 0)
    if kind == "councillor":
        return COUNCILLOR_COLUMN[col] + COUNCILLOR_PER_NAISHI * _adjacent(eff, cell, "naishi")
    if kind == "fort":
        return FORT_EDGE if col in FORT_COLUMNS else 0
    if kind == "sentinel":
        alone = SENTINEL_ALONE if not _adjacent(eff, cell, "sentinel") else 0
        return alone + SENTINEL_PER_FORT * _adjacent(eff, cell, "fort")
    if kind == "monk":
        return (MONK_IN_HAND if row == 1 else 0) + MONK_PER_TORII * _adjacent(eff, cell, "torii")
    if kind == "knight":
        if row != 1:
            return 0
        return KNIGHT_IN_HAND + (KNIGHT_UNDER_BANNER if eff.get((0, col)) == "banner" else 0)
    if kind == "ronin":
        return _tier(RONIN_POINTS, distinct)
    return None


def _adjacent(eff: Mapping[Cell, str | None], cell: Cell, kind: str) -> int:
    return sum(1 for n in neighbours(cell) if eff.get(n) == kind)


def _groups(eff: Mapping[Cell, str | None], kind: str) -> list[set[Cell]]:
    """The maximal connected groups of cells counting as `kind`."""
    left = {c for c, k in eff.items() if k == kind}
    groups = []
    while left:
        stack = [left.pop()]
        group = set(stack)
        while stack:
            for n in neighbours(stack.pop()):
                if n in left:
                    left.remove(n)
                    group.add(n)
                    stack.append(n)
        groups.append(group)
    return groups


def best_copies(grid: Mapping[Cell, str]) -> dict[Cell, str | None]:
    """The Ninja copies giving the highest total (then the most colours): for bots and AI."""
    cells = ninja_cells(grid)
    options: list[str | None] = [*copy_candidates(grid)] or [None]
    best: tuple[int, int] | None = None
    chosen: dict[Cell, str | None] = {}
    for combo in product(options, repeat=len(cells)):
        copies = dict(zip(cells, combo, strict=True))
        s = score_grid(grid, copies)
        key = (s["total"], s["colours"])
        if best is None or key > best:
            best, chosen = key, copies
    return chosen


__all__ = [
    "Cell",
    "best_copies",
    "cell_key",
    "copy_candidates",
    "grid_of",
    "is_character",
    "neighbours",
    "ninja_cells",
    "parse_cell_key",
    "score_grid",
]
