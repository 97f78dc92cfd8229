"""Dozito's part of the search bot (`shared.games.search`): a whole state drawn from a seat's
view, a quick estimate of who wins, and a greedy move for the playouts.

Dozito hides nothing from one seat only: every seat sees the same public table, and what it
does not see (the face-down grid cards, the draw pile, the discard piles under their tops) is
hidden from everyone. A determinization keeps the public table and deals those hidden places
again at random from the cards the view does not show.
"""

from __future__ import annotations

import math
import random
from collections.abc import Mapping, Sequence
from typing import Any

from shared.games.decider import Command, PlayerId, Search, View
from shared.games.dozito.cards import DECKS, DEFAULT_DECK, GROUP_POINTS, NEIGHBOURS, SLOTS, Card
from shared.games.dozito.messages import (
    DiscardCard,
    HandFrom,
    PlaceCard,
    RoundScore,
    TakeDiscard,
)
from shared.games.dozito.state import Phase, State

# --- determinize ------------------------------------------------------------------------------

# Each deck's cards by id, and its ids sorted (the same draws from the same rng every time).
_CARDS: dict[str, dict[str, Card]] = {name: {c.id: c for c in deck} for name, deck in DECKS.items()}
_IDS: dict[str, tuple[str, ...]] = {name: tuple(sorted(cards)) for name, cards in _CARDS.items()}


def _round_scores(view: View, players: Sequence[PlayerId]) -> tuple[dict[PlayerId, RoundScore], ...]:
    """The past rounds as the view gives them: totals only, the view shows nothing more (and
    the rules read nothing more of a past round: totals, best round, next first player)."""
    shown: Mapping[PlayerId, list[int]] = view.get("round_scores") or {}
    rounds = max((len(v) for v in shown.values()), default=0)
    out: list[dict[PlayerId, RoundScore]] = []
    for r in range(rounds):
        totals = {p: shown[p][r] for p in players}
        out.append({p: RoundScore(groups=[], group_points=t, suns=0, total=t) for p, t in totals.items()})
    return tuple(out)


def determinize(view: View, rng: random.Random) -> State:
    """A whole state the seat's view could come from: the public table as shown; the
    face-down grid cards, the draw pile and the discard piles under their tops dealt again,
    shuffled, from the cards the view does not show."""
    deck = (view.get("options") or {}).get("deck", DEFAULT_DECK)
    cards = _CARDS[deck]
    shown_grids: Mapping[PlayerId, list[dict[str, Any] | None]] = view["grids"]
    players = tuple(view.get("seats") or shown_grids)
    hand = view.get("hand")
    piles: list[dict[str, Any]] = view["discards"]
    seen = {c["id"] for g in shown_grids.values() for c in g if c is not None}
    seen.update(p["top"]["id"] for p in piles if p["top"] is not None)
    if hand is not None:
        seen.add(hand["id"])
    pool = [c for c in _IDS[deck] if c not in seen]
    draw_from = rng.random
    pool.sort(key=lambda _: draw_from())  # a uniform shuffle, twice as fast as rng.shuffle
    draw_size: int = view["draw_size"]
    unknown = sum(c is None for g in shown_grids.values() for c in g)
    unknown += sum(max(p["size"] - 1, 0) for p in piles) + draw_size
    if unknown != len(pool):
        raise ValueError(f"the view hides {unknown} cards but {len(pool)} are unseen")
    it = iter(pool)
    grids: dict[PlayerId, tuple[str, ...]] = {}
    face_up: dict[PlayerId, tuple[bool, ...]] = {}
    for p in players:
        shown = shown_grids[p]
        grids[p] = tuple([next(it) if c is None else c["id"] for c in shown])
        face_up[p] = tuple([c is not None for c in shown])
    discards = tuple(
        (*[next(it) for _ in range(p["size"] - 1)], p["top"]["id"]) if p["size"] else () for p in piles
    )
    draw = tuple(it)
    phase: Phase = view["phase"]
    hand_from: HandFrom | None = view.get("hand_from")
    return State(
        players=players,
        rounds=view["rounds"],
        cards=cards,
        round=view["round"],
        first_player=view["first_player"],
        grids=grids,
        face_up=face_up,
        draw=draw,
        discards=discards,
        current=view.get("active_player") or view["first_player"],
        phase=phase,
        hand=None if hand is None else hand["id"],
        hand_from=hand_from,
        extra_turn=view["extra_turn_earned"],
        in_extra_turn=view["extra_turn"],
        ending_by=view.get("round_end_triggered_by"),
        last_turns=tuple(view.get("last_turns") or ()),
        round_scores=_round_scores(view, players),
        one_colour_winner=view.get("one_colour_winner"),
    )


# --- the grid, quickly ------------------------------------------------------------------------

_NEIGHBOURS: tuple[tuple[int, ...], ...] = tuple(tuple(n - 1 for n in NEIGHBOURS[s]) for s in SLOTS)
_POINTS: tuple[int, ...] = tuple(GROUP_POINTS.get(n, 0) for n in range(len(SLOTS) + 1))


def _colours(state: State, player: PlayerId) -> list[str | None]:
    """The colour in each slot (index s-1) of `player`'s grid; None where face down."""
    cards = state.cards
    return [cards[c].colour if up else None for c, up in zip(state.grids[player], state.face_up[player])]


def _flood(colours: Sequence[str | None], start: int, colour: str, seen: set[int]) -> int:
    """The size of the group of `colour` around slot index `start`, not crossing `seen`
    (which it fills)."""
    seen.add(start)
    stack, size = [start], 0
    while stack:
        i = stack.pop()
        size += 1
        for n in _NEIGHBOURS[i]:
            if n not in seen and colours[n] == colour:
                seen.add(n)
                stack.append(n)
    return size


def _gain(colours: Sequence[str | None], i: int, colour: str) -> int:
    """The group points a card of `colour` in slot index i adds to the groups around it
    (whatever slot i holds now: it is left out)."""
    seen = {i}
    merged, before = 1, 0
    for n in _NEIGHBOURS[i]:
        if n not in seen and colours[n] == colour:
            size = _flood(colours, n, colour, seen)
            merged += size
            before += _POINTS[size]
    return _POINTS[merged] - before


def _visible_score(state: State, player: PlayerId) -> int:
    """Dozito 11 on the face-up cards: group points plus suns (a flood fill by hand: this is
    the hot part of `evaluate`)."""
    cards = state.cards
    colours: list[str | None] = [None] * len(SLOTS)
    suns = 0
    for i, (c, up) in enumerate(zip(state.grids[player], state.face_up[player])):
        if up:
            card = cards[c]
            colours[i] = card.colour
            suns += card.suns
    label = [False] * len(SLOTS)
    points = 0
    for i, colour in enumerate(colours):
        if colour is None or label[i]:
            continue
        label[i] = True
        stack, size = [i], 0
        while stack:
            j = stack.pop()
            size += 1
            for n in _NEIGHBOURS[j]:
                if not label[n] and colours[n] == colour:
                    label[n] = True
                    stack.append(n)
        points += _POINTS[size]
    return points + suns


# --- evaluate ---------------------------------------------------------------------------------

# A face-up card is worth more than what it scores now: a face-down card scores nothing when
# the round ends, and a face-up one grows groups as its neighbours turn up (a face-up card ends
# a round worth 2.1 points on average in whole games of `policy`, part of which it scores
# already). Without this the search sees no gain in turning a card up and throws cards away.
# The spread sets how sure the estimate is: wide with much still hidden and rounds to come.
FACE_UP_WORTH = 1.5
SPREAD_BASE = 3.0
SPREAD_PER_FACE_DOWN = 0.2
SPREAD_PER_ROUND_LEFT = 3.0


def evaluate(state: State) -> dict[PlayerId, float]:
    """Each player's chance of winning: the result once the game is over; before, a softmax
    of estimated final scores: past rounds, this round's face-up cards as they score, plus
    what each face-up card may still bring (turning cards up fast is worth as much as scoring:
    the round ends when the first grid is all face up, and a face-down card scores nothing)."""
    players = state.players
    if state.phase == "game_over" or state.one_colour_winner is not None:
        return _final(state)
    totals = state.totals()
    estimate: dict[PlayerId, float] = {p: float(totals[p]) for p in players}
    hidden = 0
    if state.phase not in ("round_over", "setup"):
        for p in players:
            down = state.face_up[p].count(False)
            hidden += down
            estimate[p] += _visible_score(state, p) + FACE_UP_WORTH * (len(SLOTS) - down)
    rounds_left = max(state.rounds - state.round, 0)
    spread = SPREAD_BASE + SPREAD_PER_FACE_DOWN * hidden / len(players) + SPREAD_PER_ROUND_LEFT * rounds_left
    top = max(estimate.values())
    weights = {p: math.exp((s - top) / spread) for p, s in estimate.items()}
    total = sum(weights.values())
    return {p: w / total for p, w in weights.items()}


def _final(state: State) -> dict[PlayerId, float]:
    """The result: a winner's share is 1, or 1/k of a k-way shared victory."""
    if state.one_colour_winner is not None:
        return {p: float(p == state.one_colour_winner) for p in state.players}
    totals = state.totals()
    best = {p: max((r[p].total for r in state.round_scores), default=0) for p in state.players}
    top = max((totals[p], best[p]) for p in state.players)
    winners = [p for p in state.players if (totals[p], best[p]) == top]
    return {p: (1.0 / len(winners) if p in winners else 0.0) for p in state.players}


# --- policy -----------------------------------------------------------------------------------

# The policy's weights, tuned by playing it against itself in thousands of whole games.
REVEAL = 3.0  # turning a face-down card up: progress, and the chain goes on
# replacing a face-up card for no points: measured in whole games, it does a little better than
# discarding the card in hand (each ends the turn; the old card goes to a pile instead)
REPLACE_COST = -0.5
DRAW_WORTH = 1.5  # a card from the draw pile, unseen
REPLAY_DISCARD = 4.0  # discarding a Replay from the draw or the grid: another turn
WRONG_COLOUR = 0.2  # share of a bigger group a face-down slot could still join that is lost


class _Grid:
    """One player's grid as the policy weighs it: colours by slot index (None: face down)."""

    __slots__ = ("cards", "colours", "grid")

    def __init__(self, state: State, player: PlayerId) -> None:
        self.cards = state.cards
        self.grid = state.grids[player]
        self.colours = _colours(state, player)

    def place(self, card: Card, slot: int) -> float:
        """Roughly what putting `card` into `slot` gains: revealing is progress, groups and
        suns are points; what a face-up card there was worth is lost."""
        i = slot - 1
        colours = self.colours
        here = colours[i]
        if here is None:
            gain = _gain(colours, i, card.colour)
            # the slot could join a bigger group in another colour: a card of the wrong colour
            # here shuts that out (only a numbered card for this slot or a Joker can undo it)
            best = max((_gain(colours, i, c) for n in _NEIGHBOURS[i] if (c := colours[n])), default=0)
            return REVEAL + gain + card.suns - WRONG_COLOUR * (best - gain)
        suns_here = self.cards[self.grid[i]].suns
        if here == card.colour:
            return float(card.suns - suns_here) - REPLACE_COST
        lost = _gain(self.colours, i, here) + suns_here
        return _gain(self.colours, i, card.colour) + card.suns - lost - REPLACE_COST

    def best(self, card: Card) -> float:
        if card.number is not None:
            return self.place(card, card.number)
        return max(self.place(card, s) for s in SLOTS)


def policy(state: State, player: PlayerId, legal: Sequence[Command], rng: random.Random) -> Command:
    """Greedy (the easy bot's weighing, on the state, without its random moves): the best
    placement, a discard taken when it beats an unseen draw, a Replay discarded for another
    turn; a discard goes onto the pile whose top the next player wants more."""
    if len(legal) == 1:
        return legal[0]
    cards = state.cards
    if state.phase == "turn_start":
        return _start(state, player, legal)
    assert state.hand is not None
    hand = cards[state.hand]
    if state.phase == "must_discard":
        return _discard(state, player, hand, legal)
    grid = _Grid(state, player)
    best: Command | None = None
    best_value = _discard_worth(state, hand) if state.phase == "place_or_discard" else -math.inf
    for command in legal:
        if isinstance(command, PlaceCard):
            value = grid.place(hand, command.slot) + rng.random() * 0.01
            if value > best_value:
                best, best_value = command, value
    return best if best is not None else _discard(state, player, hand, legal)


def _start(state: State, player: PlayerId, legal: Sequence[Command]) -> Command:
    """A discard pile's top when placing it beats an unseen card from the draw pile."""
    grid = _Grid(state, player)
    cards = state.cards
    best, best_value = legal[-1], -math.inf
    for command in legal:
        if isinstance(command, TakeDiscard):
            value = grid.best(cards[state.discards[command.pile][-1]]) - 1
        else:
            value = DRAW_WORTH
        if value > best_value:
            best, best_value = command, value
    return best


def _discard_worth(state: State, hand: Card) -> float:
    """Discarding ends the turn, unless it is a Replay from the draw or the grid (Dozito 8)."""
    if hand.kind == "replay" and state.hand_from in ("draw", "grid"):
        return REPLAY_DISCARD
    return 0.0


def _discard(state: State, player: PlayerId, hand: Card, legal: Sequence[Command]) -> Command:
    """Where the card in hand goes: cover the top the next player wants more (keep it if that
    player is this one, after a Replay)."""
    again = hand.kind == "replay" and state.hand_from in ("draw", "grid")
    players = state.players
    after = player if again else players[(players.index(player) + 1) % len(players)]
    grid = _Grid(state, after)
    cards = state.cards
    worth = [grid.best(cards[pile[-1]]) if pile else -math.inf for pile in state.discards]
    pile = worth.index(min(worth) if after == player else max(worth))
    return next((c for c in legal if isinstance(c, DiscardCard) and c.pile == pile), legal[-1])


SEARCH: Search[State] = Search(determinize=determinize, evaluate=evaluate, policy=policy)
