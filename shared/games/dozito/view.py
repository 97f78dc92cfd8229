"""What each viewer sees of Dozito, the replay cut, and the bot.

Hidden from everyone, the owner included: every face-down grid card and the draw pile's
order. Public: face-up cards, the card in hand (it was revealed when taken, drawn or
flipped), the top card of each discard pile and the size of every pile.
"""

from __future__ import annotations

from typing import Any

import msgspec

from shared.games.decider import Event, PlayerId, View, spoken_list
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


def describe(event: Event, viewer: PlayerId | None) -> str | None:
    """One event in words, as a player at the table would say it (docs/games/dozito.md)."""
    match event:
        case GameSetUp(rounds=rounds, deck=deck):
            return f"Dozito in {rounds} round{'s' if rounds != 1 else ''}, with {len(deck)} cards"
        case RoundDealt(round=n, first_player=first, discards=discards, draw=draw):
            tops = " and ".join(_said(pile[-1]) for pile in discards if pile)
            return (
                f"Round {n}: 12 face-down cards dealt to each grid; the discard piles show "
                f"{tops}; {len(draw)} cards in the draw pile; {first} plays first"
            )
        case DiscardTaken(player=p, pile=pile, card=card):
            return f"{p} took {_said(card)} from discard pile {pile}"
        case DrawPileRebuilt(draw=draw):
            return (
                f"The discard piles but their top cards were shuffled into a new draw pile "
                f"of {len(draw)} cards"
            )
        case CardDrawn(player=p, card=card):
            return f"{p} drew {_said(card)}"
        case CardPlaced(player=p, slot=slot, card=card, replaced=out, replaced_was_face_up=up):
            then = f", replacing {_said(out)}, face up" if up else f" and turned up {_said(out)}"
            return f"{p} placed {_said(card)} in slot {slot}{then}"
        case CardDiscarded(player=p, pile=pile, card=card, extra_turn=extra):
            again = f"; a Replay: {p} plays again" if extra else ""
            return f"{p} discarded {_said(card)} onto pile {pile}{again}"
        case OneColourGridCompleted(player=p):
            return f"{p} completed a one-colour grid and wins at once"
        case RoundEndTriggered(player=p, last_turns=last):
            who = f"one last turn for {spoken_list(last)}" if last else "the round ends"
            return f"{p}'s grid is all face up: {who}"
        case TurnStarted(player=p, extra_turn=extra):
            return f"{p}'s extra turn" if extra else f"{p}'s turn"
        case RoundScored(round=n, scores=scores):
            said = "; ".join(
                f"{p} {s.total} ({s.group_points} for groups of {'+'.join(map(str, s.groups))}, "
                f"{s.suns} sun{'s' if s.suns != 1 else ''})"
                for p, s in scores.items()
            )
            return f"Round {n} scores: {said}"
    return None


def secrets(state: State, viewer: PlayerId | None) -> set[str]:
    """Every face-down grid card and every card of the draw pile, from everyone."""
    hidden = set(state.draw)
    for player, grid in state.grids.items():
        hidden |= {c for c, up in zip(grid, state.face_up[player], strict=True) if not up}
    return hidden
