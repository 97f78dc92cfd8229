"""Naishi's parts of the search bot (`shared.games.search`): a whole state drawn from a seat's
view, a quick estimate of each player's chances, and a quick playout move.

What a seat cannot see (RULES.md 1.1; `view.py`): the opponent's Hand but the cards it saw
enter it (`known`, `known_unplaced`), the River's face-down cards (each pile shows only its top
card and its size), the opponent's two Development cards and its gift during the opening
exchange. Every card is somewhere exactly once, so what the seat cannot rule out is all the
cards minus what it sees; Mountains never enter the River, so an unseen Mountain is in the
opponent's Hand.
"""

from __future__ import annotations

import math
import random
from collections.abc import Iterator, Mapping, Sequence
from itertools import product
from typing import Final, TypeVar

from shared.games.decider import Command, PlayerId, Search, View
from shared.games.naishi.components import (
    CARD_KINDS,
    COPIABLE,
    HAND_MOUNTAINS,
    LINE_MOUNTAINS,
    LINE_SIZE,
    MOUNTAIN,
    RONIN_KINDS,
    all_cards,
    development_deck,
    kind_of,
    mountain_ids,
)
from shared.games.naishi.messages import (
    ChooseNinjaCopy,
    DeclareEnd,
    Develop,
    EndTurn,
    GiveCard,
    ImposeDecree,
    RecallEmissaries,
    SwapCards,
)
from shared.games.naishi.scoring import (
    BANNER_LINE_POINTS,
    COUNCILLOR_COLUMN,
    COUNCILLOR_PER_NAISHI,
    FORT_COLUMNS,
    FORT_EDGE,
    KNIGHT_IN_HAND,
    KNIGHT_UNDER_BANNER,
    MONK_IN_HAND,
    MONK_PER_TORII,
    MOUNTAIN_POINTS,
    NAISHI_POINTS,
    RICE_GROUP_POINTS,
    RONIN_POINTS,
    SENTINEL_ALONE,
    SENTINEL_PER_FORT,
    TORII_POINTS,
    neighbours,
)
from shared.games.naishi.state import State

_MOUNTAINS: Final = tuple(mountain_ids())
_DEVELOPMENT: Final = tuple(development_deck())
_KIND: Final[dict[str, str]] = {card: kind_of(card) for card in all_cards()}
_PER_SEAT: Final = LINE_MOUNTAINS + HAND_MOUNTAINS
# The Mountains setup deals into each seat's Hand (rules.py `setup`: 8 a seat, the Line's first).
_DEALT_HAND_MOUNTAINS: Final = tuple(
    frozenset(_MOUNTAINS[s * _PER_SEAT + LINE_MOUNTAINS : (s + 1) * _PER_SEAT]) for s in range(2)
)
_NO_KNOWLEDGE: Final[tuple[str | None, ...]] = (None,) * LINE_SIZE


# --- determinize ----------------------------------------------------------------------------


def determinize(view: View, rng: random.Random) -> State:
    """A whole `State` the seat's view could come from: what it shows as it shows it, what it
    hides drawn from `rng` among the cards the seat cannot rule out (a fresh draw each call,
    so that the search learns moves good whatever the hidden cards are)."""
    phase = view["phase"]
    if phase == "setup":  # nobody decides before the deal
        raise ValueError("a Naishi view before the deal cannot be determinized (no seat decides there)")
    seat = view["you"]
    players: tuple[PlayerId, ...] = tuple(view["players"])
    if seat not in players:
        raise ValueError("only a seated player's view can be determinized, not a spectator's")
    other = players[1] if players[0] == seat else players[0]
    territories = view["territories"]
    exchange = phase == "exchange"
    own_hand: tuple[str, ...] = tuple(view["my_cards"] if exchange else territories[seat]["hand"])
    their_hand, river = _hidden_cards(view, own_hand, other, rng)
    given: dict[PlayerId, str] = {}
    known = {p: _NO_KNOWLEDGE for p in players}
    known_unplaced: dict[PlayerId, tuple[str, ...]] = {p: () for p in players}
    if exchange:
        if view.get("my_gift") is not None:
            given[seat] = view["my_gift"]
        if other in view.get("exchange_given", ()):
            given[other] = rng.choice([c for c in their_hand if _KIND[c] != MOUNTAIN])
    elif phase == "turns":
        known[seat] = tuple(territories[other]["hand"])
        known_unplaced[seat] = tuple(territories[other]["hand_known_unplaced"])
        known[other], known_unplaced[other] = _what_they_saw(own_hand, players.index(seat), rng)
    ninja_copies = view.get("ninja_copies", {})
    return State(
        phase=phase,
        players=players,
        first_player=view["first_player"],
        lines={p: tuple(territories[p]["line"]) for p in players},
        hands={p: own_hand if p == seat else their_hand for p in players},
        given=given,
        river=river,
        discard=tuple(view["discard"]),
        reserve={p: territories[p]["reserve"] for p in players},
        court=dict(view["court"]),
        turn=view["turn"],
        active=view["active_player"],
        developed=view["developed"],
        bonus_used=view["bonus_used"],
        end_reason=view["end_reason"],
        final_player=view["final_player"],
        copies={p: dict(ninja_copies.get(p, {})) for p in players},
        known=known,
        known_unplaced=known_unplaced,
    )


def _hidden_cards(
    view: View, own_hand: tuple[str, ...], other: PlayerId, rng: random.Random
) -> tuple[tuple[str, ...], tuple[tuple[str, ...], ...]]:
    """The opponent's Hand and the River, what the view hides of them drawn at random: the
    Hand's unseen positions take the cards known to be somewhere in it, every unseen Mountain
    (a Mountain never enters the River), then unseen Development cards; the River's face-down
    cards are the Development cards left."""
    territories = view["territories"]
    piles = view["river"]
    exchange = view["phase"] == "exchange"
    shown: list[str | None] = [None] * len(own_hand) if exchange else list(territories[other]["hand"])
    unplaced: list[str] = [] if exchange else territories[other]["hand_known_unplaced"]
    seen = {*own_hand, *shown, *unplaced, *view["discard"], *(pile["top"] for pile in piles)}
    for territory in territories.values():
        seen.update(territory["line"])
    mountains = [m for m in _MOUNTAINS if m not in seen]
    # shuffled: sorted by a random key each, quicker than `rng.shuffle`
    cards = sorted((d for d in _DEVELOPMENT if d not in seen), key=lambda _: rng.random())
    slots = [i for i, card in enumerate(shown) if card is None]
    wanted = len(slots) - len(unplaced) - len(mountains)
    if wanted < 0:
        raise ValueError("the view shows more cards in the opponent's Hand than it has positions")
    hidden = [*unplaced, *mountains, *cards[:wanted]]
    if not exchange:  # before the exchange a Hand is unordered: no positions to draw
        hidden.sort(key=lambda _: rng.random())
    for i, card in zip(slots, hidden, strict=True):
        shown[i] = card
    river: list[tuple[str, ...]] = []
    at = wanted
    for pile in piles:
        size = pile["size"]
        river.append((pile["top"], *cards[at : at + size - 1]) if size else ())
        at += max(size - 1, 0)
    if at != len(cards):
        raise ValueError(f"{len(cards) - at} unseen cards have no place in the view's state")
    return tuple(c for c in shown if c is not None), tuple(river)


def _what_they_saw(
    hand: Sequence[str], seat_index: int, rng: random.Random
) -> tuple[tuple[str | None, ...], tuple[str, ...]]:
    """A plausible guess at what the opponent knows of the seat's Hand (its view does not
    say): the Hand Mountains the seat was dealt and up to two Development cards (the one kept
    at the exchange and the gift received, which the opponent knows is there) entered unseen;
    every other card entered face up."""
    dealt = _DEALT_HAND_MOUNTAINS[seat_index]
    development = [i for i, c in enumerate(hand) if _KIND[c] != MOUNTAIN]
    original = sorted(development, key=lambda _: rng.random())[:2]
    known: list[str | None] = [None if c in dealt else c for c in hand]
    for i in original:
        known[i] = None
    gift = (hand[original[0]],) if original and (len(original) == 2 or rng.random() < 0.5) else ()
    return tuple(known), gift


# --- scoring, fast ----------------------------------------------------------------------------
# scoring.py's `score_grid` (with its breakdown) is far too slow for the thousands of scores a
# search wants: here a territory is 10 kind numbers (Line 0-4, Hand 5-9), and its total the
# points of each card alone where it lies, plus those of each pair of neighbours, plus the
# kinds scored as a set, all from tables built once from the rules' numbers.

_KINDS: Final[tuple[str | None, ...]] = (MOUNTAIN, *CARD_KINDS, None)  # None: a Ninja's nothing
_CODE: Final[dict[str | None, int]] = {kind: n for n, kind in enumerate(_KINDS)}
_N: Final = len(_KINDS)
_CARD_CODE: Final[dict[str, int]] = {card: _CODE[kind] for card, kind in _KIND.items()}
_M, _NAISHI, _COUNCILLOR, _FORT = _CODE[MOUNTAIN], _CODE["naishi"], _CODE["councillor"], _CODE["fort"]
_SENTINEL, _TORII, _MONK, _RICE = _CODE["sentinel"], _CODE["torii"], _CODE["monk"], _CODE["rice"]
_BANNER, _KNIGHT, _RONIN, _NINJA = _CODE["banner"], _CODE["knight"], _CODE["ronin"], _CODE["ninja"]
_CELLS: Final = 2 * LINE_SIZE
_NEIGHBOURS: Final = tuple(
    tuple(r * LINE_SIZE + c for r, c in neighbours((i // LINE_SIZE, i % LINE_SIZE))) for i in range(_CELLS)
)
_RONIN_KINDS: Final = frozenset(_CODE[k] for k in RONIN_KINDS)
_COPIABLE: Final = tuple(_CODE[k] for k in COPIABLE)


def _tiers(table: tuple[tuple[int, int], ...]) -> tuple[int, ...]:
    """A count table of scoring.py (first match of "at least") as points by count, 0..10."""
    return tuple(next((points for least, points in table if n >= least), 0) for n in range(_CELLS + 1))


_MOUNTAIN_TIERS: Final = _tiers(MOUNTAIN_POINTS)
_TORII_TIERS: Final = _tiers(TORII_POINTS)
_BANNER_TIERS: Final = _tiers(BANNER_LINE_POINTS)
_RICE_POINTS: Final = _tiers(RICE_GROUP_POINTS)  # by the size of a group
_RONIN_POINTS: Final = _tiers(RONIN_POINTS)  # by the kinds of real cards


def _alone(kind: int, cell: int) -> int:
    """The points of a card that depend only on where it lies (a Sentinel counted alone)."""
    row, col = divmod(cell, LINE_SIZE)
    if kind == _FORT:
        return FORT_EDGE if col in FORT_COLUMNS else 0
    if kind == _NAISHI:
        return NAISHI_POINTS.get((row, col), 0)
    if kind == _COUNCILLOR:
        return COUNCILLOR_COLUMN[col]
    if kind == _SENTINEL:
        return SENTINEL_ALONE
    if kind in (_MONK, _KNIGHT):
        return (MONK_IN_HAND if kind == _MONK else KNIGHT_IN_HAND) * row
    return 0


def _from_neighbour(kind: int, neighbour: int) -> int:
    """What a card earns from one neighbour (RULES.md 1.1)."""
    wants = {
        _COUNCILLOR: (_NAISHI, COUNCILLOR_PER_NAISHI),
        _SENTINEL: (_FORT, SENTINEL_PER_FORT),
        _MONK: (_TORII, MONK_PER_TORII),
    }.get(kind)
    return wants[1] if wants is not None and wants[0] == neighbour else 0


_ALONE: Final = tuple(tuple(_alone(k, cell) for k in range(_N)) for cell in range(_CELLS))
# Two neighbours in a row, and a Line card over the Hand card below it (with the Knight under
# a Banner): what both earn from each other, by kind * _N + kind.
_ROW_PAIR: Final = tuple(_from_neighbour(a, b) + _from_neighbour(b, a) for a in range(_N) for b in range(_N))
_COLUMN_PAIR: Final = tuple(
    _ROW_PAIR[line * _N + hand] + (KNIGHT_UNDER_BANNER if line == _BANNER and hand == _KNIGHT else 0)
    for line in range(_N)
    for hand in range(_N)
)


def _points(k: Sequence[int], ronin_kinds: int) -> int:
    """The total of a territory whose Ninjas already count as what they copy."""
    a, r, c = _ALONE, _ROW_PAIR, _COLUMN_PAIR
    l0, l1, l2, l3, l4, h0, h1, h2, h3, h4 = k
    total = (
        a[0][l0] + a[1][l1] + a[2][l2] + a[3][l3] + a[4][l4]
        + a[5][h0] + a[6][h1] + a[7][h2] + a[8][h3] + a[9][h4]
        + r[l0 * _N + l1] + r[l1 * _N + l2] + r[l2 * _N + l3] + r[l3 * _N + l4]
        + r[h0 * _N + h1] + r[h1 * _N + h2] + r[h2 * _N + h3] + r[h3 * _N + h4]
        + c[l0 * _N + h0] + c[l1 * _N + h1] + c[l2 * _N + h2] + c[l3 * _N + h3] + c[l4 * _N + h4]
    )  # fmt: skip
    total += _MOUNTAIN_TIERS[k.count(_M)] + _TORII_TIERS[k.count(_TORII)]
    total += _BANNER_TIERS[
        (l0 == _BANNER) + (l1 == _BANNER) + (l2 == _BANNER) + (l3 == _BANNER) + (l4 == _BANNER)
    ]
    if ronin_kinds:
        total += _RONIN_POINTS[ronin_kinds] * k.count(_RONIN)
    if k.count(_SENTINEL) > 1:  # a Sentinel next to another is not alone
        total -= SENTINEL_ALONE * sum(
            1 for i in range(_CELLS) if k[i] == _SENTINEL and any(k[j] == _SENTINEL for j in _NEIGHBOURS[i])
        )
    return total + _rice_points(k)


def _rice_points(k: Sequence[int]) -> int:
    """Each connected group of Rice fields by its size."""
    if k.count(_RICE) < 2:
        return 0
    total = 0
    left = {i for i in range(_CELLS) if k[i] == _RICE}
    while left:
        stack = [left.pop()]
        size = 1
        while stack:
            for j in _NEIGHBOURS[stack.pop()]:
                if j in left:
                    left.remove(j)
                    stack.append(j)
                    size += 1
        total += _RICE_POINTS[size]
    return total


def _ronin_kinds(k: Sequence[int]) -> int:
    """The kinds of real cards the Ronins count (only where there is a Ronin)."""
    return len(_RONIN_KINDS.intersection(k)) if _RONIN in k else 0


def _total(k: Sequence[int]) -> int:
    """A territory's total, each Ninja copying the best it may (its owner's choice at the end)."""
    if _NINJA in k:
        return _best_copies(k)[0]
    return _points(k, _ronin_kinds(k))


# The playouts' memos, keyed by bytes and holding ints and bytes: nothing the cyclic garbage
# collector has to walk (an `lru_cache` keyed by tuples filled its youngest generation with tens
# of thousands of them, and collections of 15-45 ms landed in the middle of a move). Each is
# emptied when full, which keeps a long-running bot service's memory bounded.
MEMO_SIZE: Final = 1 << 15
_copies_memo: dict[bytes, tuple[int, bytes]] = {}
_gain_memo: dict[bytes, int] = {}
_Kept = TypeVar("_Kept")


def _remember(memo: dict[bytes, _Kept], key: bytes, value: _Kept) -> _Kept:
    """`value` kept in `memo` under `key`, the memo emptied first when it is full."""
    if len(memo) >= MEMO_SIZE:
        memo.clear()
    memo[key] = value
    return value


def _best_copies(k: Sequence[int]) -> tuple[int, bytes]:
    """The best total of a territory with Ninjas, and its kinds with each Ninja as the kind it
    copies for it. Memoized: trying every copy of every Ninja is many scores."""
    key = bytes(k)
    best = _copies_memo.get(key)
    return _remember(_copies_memo, key, _try_copies(k)) if best is None else best


def _try_copies(k: Sequence[int]) -> tuple[int, bytes]:
    ronin_kinds = _ronin_kinds(k)
    cells = [i for i, kind in enumerate(k) if kind == _NINJA]
    options = [kind for kind in _COPIABLE if kind in k] or [_CODE[None]]
    eff = list(k)
    best = (-1000, bytes(k))
    for combo in product(options, repeat=len(cells)):
        for i, kind in zip(cells, combo, strict=True):
            eff[i] = kind
        best = max(best, (_points(eff, ronin_kinds), bytes(eff)))
    return best


def _as_copied(k: list[int]) -> list[int]:
    """The kinds with each Ninja as what it best copies now: the policy scores its changes as
    if the copies stayed (a guess, much quicker than trying every copy after every change)."""
    return list(_best_copies(k)[1]) if _NINJA in k else k


def _gain(k: list[int], i: int, new: int, total: int) -> int:
    """What putting kind `new` at cell `i` adds to the territory `k` of total `total`: only
    what the cell, its neighbours and the counts it changes score (all of it with a Ninja,
    whose copies may all change)."""
    old = k[i]
    if old == new:
        return 0
    if new == _NINJA or _NINJA in k:
        k[i] = new
        after = _total(k)
        k[i] = old
        return after - total
    row, col = divmod(i, LINE_SIZE)
    alone, pair = _ALONE[i], _ROW_PAIR
    gain = alone[new] - alone[old]
    if col:
        j = k[i - 1]
        gain += pair[new * _N + j] - pair[old * _N + j]
    if col < LINE_SIZE - 1:
        j = k[i + 1]
        gain += pair[new * _N + j] - pair[old * _N + j]
    if row:
        j = k[i - LINE_SIZE] * _N
        gain += _COLUMN_PAIR[j + new] - _COLUMN_PAIR[j + old]
    else:
        j = k[i + LINE_SIZE]
        gain += _COLUMN_PAIR[new * _N + j] - _COLUMN_PAIR[old * _N + j]
    if old == _M or new == _M:
        n = k.count(_M)
        gain += _MOUNTAIN_TIERS[n - (old == _M) + (new == _M)] - _MOUNTAIN_TIERS[n]
    if old == _TORII or new == _TORII:
        n = k.count(_TORII)
        gain += _TORII_TIERS[n - (old == _TORII) + (new == _TORII)] - _TORII_TIERS[n]
    if not row and (old == _BANNER or new == _BANNER):
        n = k[:LINE_SIZE].count(_BANNER)
        gain += _BANNER_TIERS[n - (old == _BANNER) + (new == _BANNER)] - _BANNER_TIERS[n]
    if old == _SENTINEL or new == _SENTINEL:
        gain -= _lonely_sentinels(k, i)
        k[i] = new
        gain += _lonely_sentinels(k, i)
        k[i] = old
    if (old == _RICE or new == _RICE) and any(k[j] == _RICE for j in _NEIGHBOURS[i]):  # else alone
        gain -= _rice_points(k)
        k[i] = new
        gain += _rice_points(k)
        k[i] = old
    if (_RONIN in k or new == _RONIN) and (
        old == _RONIN or new == _RONIN or k.count(old) == 1 or new not in k  # the kinds change
    ):
        gain -= _ronin_points(k)
        k[i] = new
        gain += _ronin_points(k)
        k[i] = old
    return gain


def _lonely_sentinels(k: list[int], i: int) -> int:
    """What the Sentinels of cell `i` and its neighbours lose for not being alone."""
    points = 0
    for c in (i, *_NEIGHBOURS[i]):
        if k[c] == _SENTINEL and any(k[j] == _SENTINEL for j in _NEIGHBOURS[c]):
            points -= SENTINEL_ALONE
    return points


def _ronin_points(k: list[int]) -> int:
    return _RONIN_POINTS[_ronin_kinds(k)] * k.count(_RONIN)


def _gain_in(k: bytes, i: int, new: int) -> int:
    """`_gain` memoized: a playout asks again and again what the same River card would gain
    the same territory (only one pile and one territory change a turn)."""
    key = k + bytes((i, new))
    gain = _gain_memo.get(key)
    if gain is not None:
        return gain
    total = _total(k) if new == _NINJA or _NINJA in k else 0
    return _remember(_gain_memo, key, _gain(list(k), i, new, total))


def _swap_gain(k: list[int], i: int, j: int, total: int) -> int:
    """What swapping cells `i` and `j` adds to the territory `k` of total `total`."""
    a, b = k[i], k[j]
    first = _gain(k, i, b, total)
    k[i] = b
    second = _gain(k, j, a, total + first)
    k[i] = a
    return first + second


def territory_score(kinds: Sequence[str], copies: Mapping[int, str | None] | None = None) -> int:
    """The total of a territory of 10 kinds (Line then Hand); each Ninja copies what
    `copies` says (cell index -> kind), else the best it may."""
    codes = [_CODE[kind] for kind in kinds]
    return _copied_total(codes, {i: _CODE[kind] for i, kind in (copies or {}).items()})


def _copied_total(k: list[int], copies: Mapping[int, int]) -> int:
    if copies and _NINJA in k:
        ronin_kinds = _ronin_kinds(k)
        eff = list(k)
        for i, kind in copies.items():
            eff[i] = kind
        if _NINJA not in eff:
            return _points(eff, ronin_kinds)
    return _total(k)


def _kinds(state: State, player: PlayerId) -> list[int]:
    code = _CARD_CODE
    return [code[c] for c in state.lines[player]] + [code[c] for c in state.hands[player]]


def _copies(state: State, player: PlayerId) -> dict[int, int]:
    """The copies the player's Ninjas have chosen (end of game): cell -> kind number."""
    out: dict[int, int] = {}
    for key, kind in state.copies.get(player, {}).items():
        row, _, pos = key.partition(":")
        out[(0 if row == "line" else LINE_SIZE) + int(pos) - 1] = _CODE[kind]
    return out


def _score(state: State, player: PlayerId) -> int:
    kinds = _kinds(state, player)
    return _copied_total(kinds, _copies(state, player)) if state.phase == "end" else _total(kinds)


# --- evaluate -------------------------------------------------------------------------------

# How many points of lead make a win near certain: a lead counts for more as the River runs
# out (fewer turns left to change it).
_SCALE_EARLY: Final = 10.0
_SCALE_LATE: Final = 3.0
_RIVER_CARDS: Final = 30
# Points an Emissary in reserve is worth at the start, less as the River runs out: a Swap still
# to make. Without it a search sees no cost in a bonus action that gains nothing, and spends
# its Emissaries (then its turns recalling them) on whatever its few playouts liked by chance.
_EMISSARY: Final = 4.0


def evaluate(state: State) -> dict[PlayerId, float]:
    """Each player's chance of winning: a logistic of the score lead (Ninjas copying their
    best) and of the Emissaries in reserve, sharper as the River empties; 0.5 each before the
    Hands take their places."""
    players = state.players
    if state.phase in ("setup", "exchange") or len(players) != 2:
        return {p: 1.0 / max(1, len(players)) for p in players}
    first, second = players
    left = min(state.river_size(), _RIVER_CARDS) / _RIVER_CARDS
    lead: float = _score(state, first) - _score(state, second)
    lead += _EMISSARY * left * (state.reserve[first] - state.reserve[second])
    scale = _SCALE_LATE + (_SCALE_EARLY - _SCALE_LATE) * left
    chance = 1.0 / (1.0 + math.exp(-lead / scale))
    return {first: chance, second: 1.0 - chance}


# --- policy ---------------------------------------------------------------------------------

_EXPLORE: Final = 0.1  # a random Develop now and then, so that playouts vary
_SWAP_GAIN: Final = 6  # a Swap spends an Emissary: only for at least these points
_DECREE_GAIN: Final = 8  # the Decree is once a game
_DECLARE_LEAD: Final = 6  # ahead by more than this, end the game (the opponent has one turn left)
_MOUNTAIN_OUT: Final = 2.5  # Mountains cost points but for the last one: trade them away
_SWAPS_TRIED: Final = 6  # of the 35 a Swap may be, so that a playout move stays quick
_DECREES_TRIED: Final = 4  # of the 10 a Decree may be
_DENIAL: Final = 0.5  # how much of what a River card would gain the opponent taking it is worth


def policy(state: State, player: PlayerId, legal: Sequence[Command], rng: random.Random) -> Command:
    """A quick sensible move: at the end the best copy for a Ninja; in a turn the Develop
    that most improves the own territory, a Swap or the Decree when it gains enough, the end
    declared when ahead; the opening gift at random."""
    first = legal[0]
    if isinstance(first, ChooseNinjaCopy):
        return _ninja_copy(state, player, legal)
    if isinstance(first, GiveCard) or state.phase != "turns":
        return rng.choice(legal)
    kinds = _as_copied(_kinds(state, player))
    base = _total(kinds)
    if state.developed:
        return _after_develop(kinds, base, legal, rng)
    return _main_action(state, player, kinds, base, legal, rng)


def _cell(row: str, position: int) -> int:
    return position - 1 if row == "line" else position + LINE_SIZE - 1


def _main_action(
    state: State, player: PlayerId, kinds: list[int], base: int, legal: Sequence[Command], rng: random.Random
) -> Command:
    """Before the Develop: the best main action by the points it gains (a bonus action first
    only when nothing else is legal)."""
    developments = 0
    while developments < len(legal) and type(legal[developments]) is Develop:
        developments += 1
    if developments and rng.random() < _EXPLORE:
        return legal[rng.randrange(developments)]
    theirs = _as_copied(_kinds(state, state.opponent(player)))
    their_base = _total(theirs)
    values = _develop_values(state, kinds, theirs)
    best: Command | None = None
    best_gain = -math.inf
    for command in legal[:developments]:
        assert isinstance(command, Develop)
        gain = values[command.row, command.position]
        if gain > best_gain:
            best, best_gain = command, gain
    for command, gain in _whole_turn_gains(
        state, player, kinds, base, theirs, their_base, legal[developments:], rng
    ):
        if gain > best_gain:
            best, best_gain = command, gain
    if best is None:  # only bonus actions before a Develop: take any
        return rng.choice(legal)
    return best


def _develop_values(state: State, kinds: list[int], their_kinds: list[int]) -> dict[tuple[str, int], float]:
    """Each Develop (row, position) by what it gains the player, and what taking the card
    denies the opponent (its best gain from that card, weighted): a Mountain traded away
    counts a little more than its points say, as all of them but one cost points in the end."""
    out: dict[tuple[str, int], float] = {}
    mountain_out = _MOUNTAIN_OUT if kinds.count(_M) > 1 else 0.0
    mine, theirs = bytes(kinds), bytes(their_kinds)
    for p, pile in enumerate(state.river):
        if not pile:
            continue
        card = _CARD_CODE[pile[0]]
        denied = _DENIAL * max(0, _gain_in(theirs, p, card), _gain_in(theirs, p + LINE_SIZE, card))
        for row, i in (("line", p), ("hand", p + LINE_SIZE)):
            out[row, p + 1] = _gain_in(mine, i, card) + denied + (mountain_out if kinds[i] == _M else 0.0)
    return out


_WHOLE_TURNS: Final = frozenset({ImposeDecree, RecallEmissaries, DeclareEnd})


def _whole_turn_gains(
    state: State,
    player: PlayerId,
    kinds: list[int],
    base: int,
    theirs: list[int],
    their_base: int,
    commands: Sequence[Command],
    rng: random.Random,
) -> Iterator[tuple[Command, float]]:
    """What the main actions other than the Develop are worth, in points against one: the
    Decree (a few drawn at random) what it gains over the opponent, less its worth kept for
    later; declaring the end when ahead; the recall a poor pass."""
    closing: list[Command] = []  # rules.py lists the whole turns last
    for command in reversed(commands):
        if type(command) not in _WHOLE_TURNS:
            break
        closing.append(command)
    decrees = [c for c in closing if type(c) is ImposeDecree]
    if decrees:
        for decree in rng.sample(decrees, min(len(decrees), _DECREES_TRIED)):
            assert isinstance(decree, ImposeDecree)
            i = _cell(decree.row, decree.position)
            if kinds[i] == theirs[i]:
                continue
            gain = _gain(kinds, i, theirs[i], base) - _gain(theirs, i, kinds[i], their_base)
            yield decree, gain - _DECREE_GAIN
    for command in closing:
        cls = type(command)
        if cls is DeclareEnd:
            yield command, 0.0 if base - their_base > _DECLARE_LEAD else -math.inf
        elif cls is RecallEmissaries and state.reserve[player] == 0:
            yield command, -3.0


def _after_develop(kinds: list[int], base: int, legal: Sequence[Command], rng: random.Random) -> Command:
    """After the Develop: the Swap in the own territory that gains most among a few drawn at
    random (all would cost more than the rest of the playout move), if it gains enough; else
    end the turn."""
    swaps = [c for c in legal if type(c) is SwapCards and c.kind != "river"]
    best: Command | None = None
    best_gain = _SWAP_GAIN - 1
    for command in rng.sample(swaps, min(len(swaps), _SWAPS_TRIED)) if swaps else ():
        assert isinstance(command, SwapCards)
        i, j = _swap_cells(command)
        if kinds[i] == kinds[j]:
            continue
        gain = _swap_gain(kinds, i, j, base)
        if gain > best_gain:
            best, best_gain = command, gain
    if best is not None:
        return best
    return next((c for c in legal if type(c) is EndTurn), legal[-1])


def _swap_cells(command: SwapCards) -> tuple[int, int]:
    a = command.first - 1
    if command.kind == "hand_line":
        return a, a + LINE_SIZE
    b = (command.second or command.first) - 1
    offset = 0 if command.kind == "line" else LINE_SIZE
    return a + offset, b + offset


def _ninja_copy(state: State, player: PlayerId, legal: Sequence[Command]) -> Command:
    """The copy that scores most, the player's other pending Ninjas copying their best."""
    kinds = _kinds(state, player)
    ronin_kinds = _ronin_kinds(kinds)
    options = [kind for kind in _COPIABLE if kind in kinds] or [_CODE[None]]
    chosen = _copies(state, player)
    best, best_points = legal[0], -math.inf
    for command in legal:
        assert isinstance(command, ChooseNinjaCopy)
        eff = list(kinds)
        for i, kind in chosen.items():
            eff[i] = kind
        eff[_cell(command.row, command.position)] = _CODE[command.copies]
        pending = [i for i in range(_CELLS) if eff[i] == _NINJA]
        for combo in product(options, repeat=len(pending)):
            for i, kind in zip(pending, combo, strict=True):
                eff[i] = kind
            points = _points(eff, ronin_kinds)
            if points > best_points:
                best, best_points = command, points
    return best


SEARCH: Final[Search[State]] = Search(determinize=determinize, evaluate=evaluate, policy=policy)
