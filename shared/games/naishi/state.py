"""Naishi's state: the whole truth, secrets included (views cut it per viewer)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal, TypeVar

import msgspec

from shared.games.decider import (
    Event,
    PlayerId,
    logged,
)
from shared.games.naishi.components import (
    COURT_SPOTS,
    EMISSARIES_PER_PLAYER,
    LINE_SIZE,
    ROWS,
)
from shared.games.naishi.messages import (
    CardGiven,
    CardsSwapped,
    DecreeImposed,
    Developed,
    EmissariesRecalled,
    EndTriggered,
    GameSetUp,
    HandsRevealed,
    HandsShuffled,
    NinjaCopied,
    RiverCardsDiscarded,
    TurnEnded,
    TurnPassed,
)
from shared.games.naishi.scoring import Cell, cell_key, copy_candidates, grid_of, ninja_cells

Phase = Literal["setup", "exchange", "turns", "end"]


class State(msgspec.Struct, frozen=True, kw_only=True):
    phase: Phase = "setup"
    players: tuple[PlayerId, ...] = ()  # seat order
    first_player: PlayerId = ""
    lines: dict[PlayerId, tuple[str, ...]] = {}
    # Before the exchange: the 5 cards of each Hand, unordered; afterwards in positions 1..5.
    hands: dict[PlayerId, tuple[str, ...]] = {}
    given: dict[PlayerId, str] = {}  # opening exchange: the card each player gives
    river: tuple[tuple[str, ...], ...] = ()  # RIVER_PILES piles, top (revealed) card first
    discard: tuple[str, ...] = ()  # oldest first
    reserve: dict[PlayerId, int] = {}
    court: dict[str, PlayerId | None] = {}
    turn: int = 0  # 1 for the first turn of the game
    active: PlayerId | None = None
    developed: bool = False  # this turn
    bonus_used: bool = False  # this turn
    end_reason: str | None = None
    final_player: PlayerId | None = None
    copies: dict[PlayerId, dict[str, str | None]] = {}  # Ninja cell key -> copied kind
    # What each player saw enter the opponent's Hand face up (issue 12, views): by position
    # (None: unknown), and cards known to be in it at an unknown position (after a shuffle).
    known: dict[PlayerId, tuple[str | None, ...]] = {}
    known_unplaced: dict[PlayerId, tuple[str, ...]] = {}

    # --- queries ----------------------------------------------------------------------------

    @property
    def second_player(self) -> PlayerId:
        return next(p for p in self.players if p != self.first_player)

    def opponent(self, player: PlayerId) -> PlayerId:
        return next(p for p in self.players if p != player)

    def row(self, player: PlayerId, row: str) -> tuple[str, ...]:
        return self.lines[player] if row == ROWS[0] else self.hands[player]

    def empty_piles(self) -> int:
        return sum(1 for pile in self.river if not pile)

    def open_piles(self) -> list[int]:
        """The 1-based positions of the piles holding a card."""
        return [i + 1 for i, pile in enumerate(self.river) if pile]

    def river_size(self) -> int:
        return sum(len(pile) for pile in self.river)

    def free_spot(self, action: str) -> str | None:
        return next((s for s, a in COURT_SPOTS.items() if a == action and not self.court[s]), None)

    def recallable(self, player: PlayerId) -> list[str]:
        return [s for s, who in self.court.items() if who == player and COURT_SPOTS[s] != "decree"]

    def grid(self, player: PlayerId) -> dict[Cell, str]:
        return grid_of(self.lines[player], self.hands[player])

    def pending_ninjas(self, player: PlayerId) -> list[Cell]:
        """The player's Ninjas still waiting for their owner's choice (end phase)."""
        if self.phase != "end":
            return []
        done = self.copies.get(player, {})
        return [c for c in ninja_cells(self.grid(player)) if cell_key(c) not in done]

    def ninja_choices(self, player: PlayerId) -> list[str]:
        return copy_candidates(self.grid(player))


replace = msgspec.structs.replace


# --- evolve ---------------------------------------------------------------------------------

T = TypeVar("T")


def _set(row: Sequence[T], index: int, card: T) -> tuple[T, ...]:
    out = list(row)
    out[index] = card
    return tuple(out)


def _swapped(row: Sequence[T], i: int, j: int) -> tuple[T, ...]:
    out = list(row)
    out[i], out[j] = out[j], out[i]
    return tuple(out)


def _placed(state: State, player: PlayerId, row: str, cards: tuple[str, ...]) -> State:
    if row == ROWS[0]:
        return replace(state, lines={**state.lines, player: cards})
    return replace(state, hands={**state.hands, player: cards})


def _with_emissary(state: State, player: PlayerId, spot: str) -> State:
    return replace(
        state,
        court={**state.court, spot: player},
        reserve={**state.reserve, player: state.reserve[player] - 1},
    )


def _saw_enter(state: State, owner: PlayerId, position: int, card: str) -> State:
    """The opponent of `owner` saw `card` go, face up, into `owner`'s Hand at `position`."""
    viewer = state.opponent(owner)
    return replace(state, known={**state.known, viewer: _set(state.known[viewer], position - 1, card)})


def _saw_leave(state: State, owner: PlayerId, card: str) -> State:
    """`card` left `owner`'s Hand where its opponent saw it: no longer somewhere in that Hand."""
    viewer = state.opponent(owner)
    unplaced = list(state.known_unplaced[viewer])
    if card in unplaced:
        unplaced.remove(card)
    return replace(state, known_unplaced={**state.known_unplaced, viewer: tuple(unplaced)})


def _with_knowledge(state: State, event: Event) -> State:
    """What each player knows of the opponent's Hand after `event` (perfect memory of what it
    saw; issue 12): cards that entered that Hand face up, by position, until the shuffle."""
    match event:
        case HandsShuffled():
            # The positions are unknown now; each still knows the card it gave is there.
            return replace(
                state,
                known={p: (None,) * LINE_SIZE for p in state.players},
                known_unplaced={p: ((state.given[p],) if p in state.given else ()) for p in state.players},
            )
        case Developed(player=p, row="hand", position=pos, discarded=out, taken=card):
            return _saw_enter(_saw_leave(state, p, out), p, pos, card)
        case CardsSwapped(player=p, kind="hand", first=a, second=b):
            viewer = state.opponent(p)
            return replace(state, known={**state.known, viewer: _swapped(state.known[viewer], a - 1, b - 1)})
        case CardsSwapped(player=p, kind="hand_line", first=pos):
            out, card = state.hands[p][pos - 1], state.lines[p][pos - 1]
            return _saw_enter(_saw_leave(state, p, out), p, pos, card)
        case DecreeImposed(player=p, row="hand", position=pos):
            other = state.opponent(p)
            mine, theirs = state.hands[p][pos - 1], state.hands[other][pos - 1]
            # Each gave its own card and sees the one it receives.
            state = _saw_enter(_saw_leave(state, other, theirs), other, pos, mine)
            return _saw_enter(_saw_leave(state, p, mine), p, pos, theirs)
    return state


def evolve(state: State, event: Event) -> State:
    """The state after `event`, with each player's knowledge of the other's Hand first
    updated from the state before it."""
    return _evolve(_with_knowledge(state, event), event)


def _evolve(state: State, event: Event) -> State:
    """The setup, the opening exchange and the end; the turns: `_evolve_turn`."""
    match event:
        case GameSetUp():
            return State(
                phase="exchange",
                players=tuple(event.players),
                first_player=event.first_player,
                lines={p: tuple(c) for p, c in event.lines.items()},
                hands={p: logged(c) for p, c in event.hands.items()},
                river=tuple(logged(pile) for pile in event.river),
                reserve={p: EMISSARIES_PER_PLAYER for p in event.players},
                court={spot: None for spot in COURT_SPOTS},
                copies={p: {} for p in event.players},
                known={p: (None,) * LINE_SIZE for p in event.players},
                known_unplaced={p: () for p in event.players},
            )
        case CardGiven(player=p, card=card):
            return replace(state, given={**state.given, p: card})
        case HandsShuffled(hands=hands):
            return replace(
                state,
                phase="turns",
                given={},
                hands={p: logged(c) for p, c in hands.items()},
                turn=1,
                active=state.first_player,
                developed=False,
                bonus_used=False,
            )
        case HandsRevealed():
            return replace(state, phase="end", active=None)
        case NinjaCopied(player=p, row=row, position=pos, copies=copied):
            key = cell_key((ROWS.index(row), pos - 1))
            return replace(state, copies={**state.copies, p: {**state.copies[p], key: copied}})
    return _evolve_turn(state, event)


def _evolve_turn(state: State, event: Event) -> State:
    """The events of a turn (Naishi 7-13)."""
    match event:
        case Developed(player=p, row=row, position=pos, discarded=out, taken=card):
            river = list(state.river)
            river[pos - 1] = river[pos - 1][1:]
            state = _placed(state, p, row, _set(state.row(p, row), pos - 1, card))
            return replace(state, river=tuple(river), discard=(*state.discard, out), developed=True)
        case CardsSwapped():
            return _cards_swapped(state, event)
        case RiverCardsDiscarded(player=p, spot=spot, piles=piles, discarded=cards):
            state = replace(_with_emissary(state, p, spot), bonus_used=True)
            river = list(state.river)
            for pos in piles:
                river[pos - 1] = river[pos - 1][1:]
            return replace(state, river=tuple(river), discard=(*state.discard, *cards))
        case DecreeImposed():
            return _decree_imposed(state, event)
        case EmissariesRecalled(player=p, spots=spots):
            return replace(
                state,
                court={**state.court, **{s: None for s in spots}},
                reserve={**state.reserve, p: state.reserve[p] + len(spots)},
            )
        case EndTriggered(reason=reason, final_player=final):
            return replace(state, end_reason=reason, final_player=final)
        case TurnPassed():
            return state
        case TurnEnded(next_player=None):
            return replace(state, active=None, developed=False, bonus_used=False)
        case TurnEnded(next_player=following):
            return replace(state, active=following, turn=state.turn + 1, developed=False, bonus_used=False)
    return state


def _cards_swapped(state: State, event: CardsSwapped) -> State:
    """Naishi 8, a Swap: two River cards, two cards of a row, or a Hand card and the Line card
    at its position."""
    p, spot, kind, a, b = event.player, event.spot, event.kind, event.first, event.second
    state = replace(_with_emissary(state, p, spot), bonus_used=True)
    i, j = a - 1, b - 1
    if kind == "river":
        piles = [list(pile) for pile in state.river]
        piles[i][0], piles[j][0] = piles[j][0], piles[i][0]
        return replace(state, river=tuple(tuple(pile) for pile in piles))
    if kind in ROWS:
        return _placed(state, p, kind, _swapped(state.row(p, kind), i, j))
    line, hand = state.lines[p], state.hands[p]
    state = _placed(state, p, "line", _set(line, i, hand[i]))
    return _placed(state, p, "hand", _set(hand, i, line[i]))


def _decree_imposed(state: State, event: DecreeImposed) -> State:
    """Naishi 9: the Decree swaps the two players' cards at one position of a row."""
    p, row, pos = event.player, event.row, event.position
    state = _with_emissary(state, p, "decree")
    other = state.opponent(p)
    mine, theirs = state.row(p, row), state.row(other, row)
    i = pos - 1
    state = _placed(state, p, row, _set(mine, i, theirs[i]))
    return _placed(state, other, row, _set(theirs, i, mine[i]))
