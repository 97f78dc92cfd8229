"""Dozito's state and the pure queries on it (targets, groups, scores)."""

from __future__ import annotations

from typing import Literal

import msgspec

from shared.games.decider import (
    Event,
    PlayerId,
    logged,
)
from shared.games.dozito.cards import (
    GROUP_POINTS,
    NEIGHBOURS,
    SLOTS,
    Card,
)
from shared.games.dozito.messages import (
    CardDiscarded,
    CardDrawn,
    CardPlaced,
    DiscardTaken,
    DrawPileRebuilt,
    GameSetUp,
    HandFrom,
    OneColourGridCompleted,
    RoundDealt,
    RoundEndTriggered,
    RoundScore,
    RoundScored,
    TurnStarted,
)

# turn_start: choose A or B; place_or_discard: a drawn or flipped card in hand;
# must_place: a card taken from a discard pile; must_discard: a replaced card that must go;
# turn_over: between the last discard and the next TurnStarted (inside one command only);
# round_over: between RoundScored and the next RoundDealt; game_over: the end.
Phase = Literal[
    "setup",
    "turn_start",
    "place_or_discard",
    "must_place",
    "must_discard",
    "turn_over",
    "round_over",
    "game_over",
]


class State(msgspec.Struct, frozen=True, kw_only=True):
    players: tuple[PlayerId, ...] = ()
    rounds: int = 0
    cards: dict[str, Card] = {}
    round: int = 0
    first_player: PlayerId = ""
    grids: dict[PlayerId, tuple[str, ...]] = {}  # slot s at index s-1
    face_up: dict[PlayerId, tuple[bool, ...]] = {}
    draw: tuple[str, ...] = ()  # top first
    discards: tuple[tuple[str, ...], ...] = ()  # each bottom to top
    current: PlayerId = ""
    phase: Phase = "setup"
    hand: str | None = None
    hand_from: HandFrom | None = None
    extra_turn: bool = False  # a Replay was discarded this turn (Dozito 8)
    in_extra_turn: bool = False  # the current turn is the extra turn a Replay gave
    ending_by: PlayerId | None = None  # Dozito 10
    last_turns: tuple[PlayerId, ...] = ()
    round_scores: tuple[dict[PlayerId, RoundScore], ...] = ()
    one_colour_winner: PlayerId | None = None

    def card(self, card_id: str) -> Card:
        return self.cards[card_id]

    def all_face_up(self, player: PlayerId) -> bool:
        return all(self.face_up[player])

    def can_rebuild_draw(self) -> bool:
        """Dozito 2.3-4: are there cards under the discard piles' tops?"""
        return any(len(pile) > 1 for pile in self.discards)

    def can_draw(self) -> bool:
        return bool(self.draw) or self.can_rebuild_draw()

    def totals(self) -> dict[PlayerId, int]:
        return {p: sum(r[p].total for r in self.round_scores) for p in self.players}


def targets(card: Card) -> tuple[int, ...]:
    """The slots a card may go to: its number's slot; any slot for a Joker (Dozito 2.1)."""
    return SLOTS if card.number is None else (card.number,)


def stop_triggers(card: Card, hand_from: HandFrom | None) -> bool:
    """Dozito 7 and 2.3-2 (ruling 2026-11-30): only a STOP drawn from the draw pile ends the
    turn when placed; one flipped from the grid or taken from a discard pile is an ordinary
    card of the chain."""
    return card.kind == "stop" and hand_from == "draw"


def groups(grid: tuple[Card | None, ...]) -> list[list[int]]:
    """Maximal same-colour groups of face-up cards, orthogonally connected (Dozito 11).
    `grid` holds the card in slot s at index s-1, None where the card is face down."""
    seen: set[int] = set()
    found: list[list[int]] = []
    for start in SLOTS:
        card = grid[start - 1]
        if card is None or start in seen:
            continue
        group, stack = [], [start]
        seen.add(start)
        while stack:
            slot = stack.pop()
            group.append(slot)
            for n in NEIGHBOURS[slot]:
                other = grid[n - 1]
                if n not in seen and other is not None and other.colour == card.colour:
                    seen.add(n)
                    stack.append(n)
        found.append(sorted(group))
    return found


def score_grid(grid: tuple[Card | None, ...]) -> RoundScore:
    """Dozito 11: group points by size, plus 1 per sun, face-up cards only. A group of 12
    wins the game instead of scoring (it has no entry in the points table: 0 here)."""
    sizes = sorted((len(g) for g in groups(grid)), reverse=True)
    group_points = sum(GROUP_POINTS.get(size, 0) for size in sizes)
    suns = sum(card.suns for card in grid if card is not None)
    return RoundScore(groups=sizes, group_points=group_points, suns=suns, total=group_points + suns)


def visible_grid(state: State, player: PlayerId) -> tuple[Card | None, ...]:
    """`player`'s grid as anyone sees it: face-down cards as None."""
    return tuple(
        state.cards[c] if up else None
        for c, up in zip(state.grids[player], state.face_up[player], strict=True)
    )


def is_one_colour_grid(state: State, player: PlayerId) -> bool:
    """Dozito 11 / 2.3-8-9: all 12 face up and one colour (Jokers count with their colour)."""
    if not state.all_face_up(player):
        return False
    return len({state.cards[c].colour for c in state.grids[player]}) == 1


replace = msgspec.structs.replace


# --- evolve ---------------------------------------------------------------------------------


def evolve(state: State, event: Event) -> State:
    match event:
        case GameSetUp():
            return State(
                players=tuple(event.players),
                rounds=event.rounds,
                cards={c.id: c for c in event.deck},
            )
        case RoundDealt():
            return replace(
                state,
                round=event.round,
                first_player=event.first_player,
                grids={p: logged(g) for p, g in event.grids.items()},
                face_up={p: (False,) * len(g) for p, g in event.grids.items()},
                draw=logged(event.draw),
                discards=tuple(tuple(d) for d in event.discards),
                current=event.first_player,
                phase="turn_start",
                hand=None,
                hand_from=None,
                extra_turn=False,
                in_extra_turn=False,
                ending_by=None,
                last_turns=(),
            )
        case DiscardTaken(pile=pile, card=card):
            discards = list(state.discards)
            discards[pile] = discards[pile][:-1]
            return replace(
                state,
                discards=tuple(discards),
                hand=card,
                hand_from="discard",
                phase="must_place",
            )
        case DrawPileRebuilt(draw=draw):
            return replace(
                state,
                draw=logged(draw),
                discards=tuple(pile[-1:] for pile in state.discards),
            )
        case CardDrawn(card=card):
            return replace(
                state,
                draw=state.draw[1:],
                hand=card,
                hand_from="draw",
                phase="place_or_discard",
            )
        case CardPlaced():
            return _card_placed(state, event)
        case CardDiscarded(pile=pile, card=card, extra_turn=extra):
            discards = list(state.discards)
            discards[pile] = (*discards[pile], card)
            return replace(
                state,
                discards=tuple(discards),
                hand=None,
                hand_from=None,
                extra_turn=extra,
                phase="turn_over",
            )
        case OneColourGridCompleted(player=p):
            return replace(state, one_colour_winner=p)
        case RoundEndTriggered(player=p, last_turns=last):
            return replace(state, ending_by=p, last_turns=tuple(last))
        case TurnStarted():
            return _turn_started(state, event)
        case RoundScored(round=round_, scores=scores):
            over = state.one_colour_winner is not None or round_ >= state.rounds
            return replace(
                state,
                round_scores=(*state.round_scores, dict(scores)),
                phase="game_over" if over else "round_over",
            )
    return state


def _card_placed(state: State, event: CardPlaced) -> State:
    """Dozito 4-7 and 9: the card goes face up into its slot; the slot's card comes into hand."""
    p, slot, card, replaced = event.player, event.slot, event.card, event.replaced
    i = slot - 1
    grid = list(state.grids[p])
    up = list(state.face_up[p])
    grid[i], up[i] = card, True
    ends = event.replaced_was_face_up or stop_triggers(state.card(card), state.hand_from)
    return replace(
        state,
        grids={**state.grids, p: tuple(grid)},
        face_up={**state.face_up, p: tuple(up)},
        hand=replaced,
        hand_from="grid",
        phase="must_discard" if ends else "place_or_discard",
    )


def _turn_started(state: State, event: TurnStarted) -> State:
    """A turn starts; a last turn (Dozito 10) is used up unless it is an extra one (8)."""
    p, extra = event.player, event.extra_turn
    remaining = state.last_turns
    if not extra and p in remaining:
        remaining = tuple(x for x in remaining if x != p)
    return replace(
        state,
        current=p,
        phase="turn_start",
        extra_turn=False,
        in_extra_turn=extra,
        last_turns=remaining,
    )
