"""What each viewer sees of Dozito, the replay cut, and the bot.

Hidden from everyone, the owner included: every face-down grid card and the draw pile's
order. Public: face-up cards, the card in hand (it was revealed when taken, drawn or
flipped), the top card of each discard pile and the size of every pile.
"""

from __future__ import annotations

from typing import Any

import msgspec

from shared.games.decider import Event, PlayerId, View, describe_with, spoken_list
from shared.games.dozito.cards import DECKS, GRID_COLUMNS, GRID_ROWS, Card
from shared.games.dozito.messages import (
    CardDiscarded,
    CardDrawn,
    CardPlaced,
    DiscardTaken,
    DrawPileRebuilt,
    GameSetUp,
    OneColourGridCompleted,
    RoundDealt,
    RoundEndTriggered,
    RoundScored,
    TurnStarted,
)
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
            phase=state.phase,
            round=state.round,
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
        "round_scores": {p: [r[p].total for r in state.round_scores] for p in state.players},
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


# --- the game log ---------------------------------------------------------------------------

# Every deck's cards by id (an id names the same card in every deck file).
_CARDS: dict[str, Card] = {c.id: c for deck in reversed(DECKS.values()) for c in deck}


def _said(card_id: str) -> str:
    """A card as players name it: "the red 7", "the blue Joker", "the red 3 (STOP)"."""
    card = _CARDS.get(card_id)
    if card is None:
        return f"the card {card_id}"
    number = "Joker" if card.number is None else str(card.number)
    special = {"stop": " (STOP)", "replay": " (Replay)"}.get(card.kind, "")
    return f"the {card.colour} {number}{special}"


def _set_up(event: GameSetUp, viewer: PlayerId | None) -> str:
    rounds = event.rounds
    return f"Dozito in {rounds} round{'s' if rounds != 1 else ''}, with {len(event.deck)} cards"


def _round_dealt(event: RoundDealt, viewer: PlayerId | None) -> str:
    tops = " and ".join(_said(pile[-1]) for pile in event.discards if pile)
    return (
        f"Round {event.round}: 12 face-down cards dealt to each grid; the discard piles show "
        f"{tops}; {len(event.draw)} cards in the draw pile; {event.first_player} plays first"
    )


def _discard_taken(event: DiscardTaken, viewer: PlayerId | None) -> str:
    return f"{event.player} took {_said(event.card)} from discard pile {event.pile}"


def _draw_pile_rebuilt(event: DrawPileRebuilt, viewer: PlayerId | None) -> str:
    return (
        f"The discard piles but their top cards were shuffled into a new draw pile of {len(event.draw)} cards"
    )


def _card_drawn(event: CardDrawn, viewer: PlayerId | None) -> str:
    return f"{event.player} drew {_said(event.card)}"


def _card_placed(event: CardPlaced, viewer: PlayerId | None) -> str:
    out = _said(event.replaced)
    then = f", replacing {out}, face up" if event.replaced_was_face_up else f" and turned up {out}"
    return f"{event.player} placed {_said(event.card)} in slot {event.slot}{then}"


def _card_discarded(event: CardDiscarded, viewer: PlayerId | None) -> str:
    p = event.player
    again = f"; a Replay: {p} plays again" if event.extra_turn else ""
    return f"{p} discarded {_said(event.card)} onto pile {event.pile}{again}"


def _one_colour_grid_completed(event: OneColourGridCompleted, viewer: PlayerId | None) -> str:
    return f"{event.player} completed a one-colour grid and wins at once"


def _round_end_triggered(event: RoundEndTriggered, viewer: PlayerId | None) -> str:
    last = event.last_turns
    who = f"one last turn for {spoken_list(last)}" if last else "the round ends"
    return f"{event.player}'s grid is all face up: {who}"


def _turn_started(event: TurnStarted, viewer: PlayerId | None) -> str:
    return f"{event.player}'s extra turn" if event.extra_turn else f"{event.player}'s turn"


def _round_scored(event: RoundScored, viewer: PlayerId | None) -> str:
    said = "; ".join(
        f"{p} {s.total} ({s.group_points} for groups of {'+'.join(map(str, s.groups))}, "
        f"{s.suns} sun{'s' if s.suns != 1 else ''})"
        for p, s in event.scores.items()
    )
    return f"Round {event.round} scores: {said}"


# One event in words, as a player at the table would say it (docs/games/dozito.md).
describe = describe_with(
    {
        GameSetUp: _set_up,
        RoundDealt: _round_dealt,
        DiscardTaken: _discard_taken,
        DrawPileRebuilt: _draw_pile_rebuilt,
        CardDrawn: _card_drawn,
        CardPlaced: _card_placed,
        CardDiscarded: _card_discarded,
        OneColourGridCompleted: _one_colour_grid_completed,
        RoundEndTriggered: _round_end_triggered,
        TurnStarted: _turn_started,
        RoundScored: _round_scored,
    }
)


def secrets(state: State, viewer: PlayerId | None) -> set[str]:
    """Every face-down grid card and every card of the draw pile, from everyone."""
    hidden = set(state.draw)
    for player, grid in state.grids.items():
        hidden |= {c for c, up in zip(grid, state.face_up[player], strict=True) if not up}
    return hidden
