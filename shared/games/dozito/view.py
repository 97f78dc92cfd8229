"""What each viewer sees of Dozito, the replay cut, and the bot.

Hidden from everyone, the owner included: every face-down grid card and the draw pile's
order. Public: face-up cards, the card in hand (it was revealed when taken, drawn or
flipped), the top card of each discard pile and the size of every pile.
"""

from __future__ import annotations

from typing import Any

import msgspec

from shared.games.decider import Event, PlayerId, View
from shared.games.dozito.cards import GRID_COLUMNS, GRID_ROWS, Card
from shared.games.dozito.messages import DrawPileRebuilt, RoundDealt
from shared.games.dozito.state import State
from shared.games.view_terms import common_terms

_as_dict = msgspec.structs.asdict


def _card(card: Card | None) -> dict[str, Any] | None:
    """A card as a view shows it (a fresh dict: views are the caller's to keep)."""
    return None if card is None else _as_dict(card)


def _grid(state: State, player: PlayerId) -> list[dict[str, Any] | None]:
    """`player`'s grid as anyone sees it (`visible_grid`): face-down cards as None."""
    cards = state.cards
    return [
        _as_dict(cards[c]) if up else None
        for c, up in zip(state.grids[player], state.face_up[player], strict=True)
    ]


IDLE_PHASES = ("setup", "round_over", "game_over")  # nobody's turn


def player_view(state: State, viewer: PlayerId | None) -> View:
    """The same for every seat and spectators: Dozito hides nothing from one player only."""
    hand = state.cards[state.hand] if state.hand is not None else None
    return {
        **common_terms(
            active_player=None if state.phase in IDLE_PHASES else state.current,
            phase=state.phase, round=state.round,
        ),
        "you": viewer,
        "rounds": state.rounds,
        "first_player": state.first_player,
        # Dozito 8: this turn is the extra turn a Replay gave; a Replay discarded this turn
        # gives the next one.
        "extra_turn": state.in_extra_turn,
        "extra_turn_earned": state.extra_turn,
        "hand": _card(hand),
        "hand_from": state.hand_from,
        "grid_size": {"columns": GRID_COLUMNS, "rows": GRID_ROWS},
        "grids": {p: _grid(state, p) for p in state.players},
        "draw_size": len(state.draw),
        "discards": [
            {"top": _card(state.cards[pile[-1]]) if pile else None, "size": len(pile)}
            for pile in state.discards
        ],
        "round_end_triggered_by": state.ending_by,  # Dozito 10: whose full grid, or null
        "last_turns": list(state.last_turns),
        "round_scores": {
            p: [r[p].total for r in state.round_scores] for p in state.players
        },
        "totals": state.totals() if state.players else {},
        "one_colour_winner": state.one_colour_winner,
    }


def redact(event: Event, viewer: PlayerId | None) -> Event | None:
    """Blank the face-down deal and the draw pile's order; the rest happens face up."""
    match event:
        case RoundDealt():
            return msgspec.structs.replace(
                event,
                grids={p: [None] * len(g) for p, g in event.grids.items()},
                draw=[None] * len(event.draw),
            )
        case DrawPileRebuilt():
            return msgspec.structs.replace(event, draw=[None] * len(event.draw))
    return event


def secrets(state: State, viewer: PlayerId | None) -> set[str]:
    """Every face-down grid card and every card of the draw pile, from everyone."""
    hidden = set(state.draw)
    for player, grid in state.grids.items():
        hidden |= {c for c, up in zip(grid, state.face_up[player], strict=True) if not up}
    return hidden
