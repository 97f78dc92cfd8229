"""What each viewer may see of Illustori: hands (each seat its own), the draw stack and the
votes (until the vote closes) are hidden; the table, the discard pile and U are public."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import msgspec

from shared.games.decider import Event, PlayerId, View
from shared.games.illustori.chaining import allowed_letters, forced_end
from shared.games.illustori.data import CARDS
from shared.games.illustori.messages import (
    CardPenalised,
    CardPlayed,
    CardsDrawn,
    CardsSwapped,
    GameSetUp,
    LastRoundStarted,
    StackReshuffled,
    StartPenalised,
    StartProposed,
    TurnEnded,
    TurnPassed,
    UsedLettersCleared,
    VoteCast,
    VoteClosed,
)
from shared.games.illustori.state import Placed, State
from shared.games.view_terms import common_terms, round_of_turn

replace = msgspec.structs.replace

# The fields whose values in `legal` are only examples: any text may be sent (issue 12).
FREE_TEXT = {"propose_start": ["text"], "play_card": ["text"]}


def _card(card: str) -> dict[str, str]:
    return {"card": card, "picture": CARDS[card]}


def _placed(placed: Placed) -> dict[str, str]:
    return {**_card(placed.card), "player": placed.player, "text": placed.text}


def player_view(state: State, viewer: PlayerId | None) -> View:
    if not state.players:
        return {"phase": state.phase}
    seated = viewer in state.hands
    current = state.current_text
    turn = state.turns if state.phase == "over" else state.turns + 1
    view: dict[str, Any] = {
        **common_terms(
            active_player=state.active,
            phase=state.phase,
            round=round_of_turn(turn, len(state.players)),
            turn=turn,
        ),
        "turn_order": list(state.players),
        "first_player": state.first_player,
        "rules": msgspec.to_builtins(state.rules),
        "start_card": _card(state.start_card),
        "current_text": current,
        "chain": [_placed(p) for p in state.chain],
        "pending": _placed(state.pending) if state.pending else None,
        "voted": [p for p in state.players if p in state.votes],
        "my_vote": state.votes.get(viewer) if seated and viewer else None,
        "hand": [_card(c) for c in state.hands[viewer]] if seated and viewer else None,
        "hand_sizes": {p: len(state.hands[p]) for p in state.players},
        "stack_size": len(state.stack),
        "discard": [_card(c) for c in state.discard],
        "used_letters": list(state.used),
        "must_chain": (
            {"end": forced_end(state.rules), "letters": list(allowed_letters(state.rules, current))}
            if current
            else None
        ),
        "failed_turns": state.failed_turns,
        "last_round": state.last_round,
        "last_outcome": state.last_outcome,
        "free_text": FREE_TEXT,
    }
    return view


def redact(event: Event, viewer: PlayerId | None) -> Event | None:
    """The event as `viewer` may see it in a replay."""
    match event:
        case GameSetUp(hands=hands, stack=stack):
            return replace(
                event,
                hands={p: (h if p == viewer else [None] * len(h)) for p, h in hands.items()},
                stack=[None] * len(stack),
            )
        case StackReshuffled(stack=stack):
            return replace(event, stack=[None] * len(stack))
        case CardsDrawn(player=p, cards=cards) if p != viewer:
            return replace(event, cards=[None] * len(cards))
        case VoteCast(player=p) if p != viewer:
            return replace(event, yes=None)
    return event


# --- the game log ---------------------------------------------------------------------------

_PENALTIES = {
    "ends_with_xx": "it ends in xx",
    "starts_with_qxz": "it starts with q, x or z",
    "repeated_letter": "it repeats a letter",
    "used_letter": "it uses a used letter",
}
_CLEARED = {
    "all_failed": "a round of turns without an accepted text",
    "alphabet_full": "every letter was used",
}


def _said(card: str) -> str:
    """A card as players know it: its id and its picture."""
    return f"{card} ({CARDS.get(card, 'a card')})"


def _why(reasons: list[str]) -> str:
    return "; ".join(_PENALTIES.get(r, r) for r in reasons)


def _cards(cards: Sequence[str | None]) -> str:
    return "1 card" if len(cards) == 1 else f"{len(cards)} cards"


def describe(event: Event, viewer: PlayerId | None) -> str | None:
    """One event in words, as a player at the table would say it (docs/games/illustori.md)."""
    match event:
        case GameSetUp(players=players, hands=hands, start_card=start):
            own = hands.get(viewer or "")
            held = ""
            if own and all(c is not None for c in own):
                held = f"; {viewer}'s hand: " + ", ".join(_said(c) for c in own if c)
            return (
                f"The cards were dealt; the starting card is {_said(start)}, for {players[0]} to name{held}"
            )
        case StartProposed(player=p, text=text):
            return f"{p} named the starting card “{text}”; the others vote"
        case StartPenalised(player=p, text=text, reasons=reasons):
            return f"{p}'s starting text “{text}” is penalised ({_why(reasons)}): name it again"
        case CardPlayed(player=p, card=card, text=text):
            return f"{p} played {_said(card)} as “{text}”; the others vote"
        case CardPenalised(player=p, card=card, text=text, reasons=reasons):
            return f"{p}'s “{text}” on {_said(card)} is penalised ({_why(reasons)}): the card is discarded"
        case VoteCast(player=p, yes=yes):
            return f"{p} voted" + ("" if yes is None else (" yes" if yes else " no"))
        case VoteClosed(votes=votes, accepted=accepted):
            ayes = [p for p, v in votes.items() if v]
            noes = [p for p, v in votes.items() if not v]
            return (
                f"The text is {'accepted' if accepted else 'rejected'} (yes: "
                f"{', '.join(ayes) or 'nobody'}; no: {', '.join(noes) or 'nobody'})"
            )
        case CardsSwapped(player=p, cards=cards):
            return f"{p} discarded {_cards(cards)} to swap: " + ", ".join(map(_said, cards))
        case StackReshuffled(stack=stack):
            return f"The discard pile was shuffled into a new stack of {_cards(stack)}"
        case CardsDrawn(player=p, cards=cards):
            if any(c is None for c in cards):
                return f"{p} drew {_cards(cards)}"
            return f"{p} drew " + ", ".join(_said(c) for c in cards if c)
        case TurnPassed(player=p):
            return f"{p} passed: the stack and the discard pile are empty"
        case LastRoundStarted(player=p):
            return f"{p}'s hand is empty: the last round starts"
        case TurnEnded(player=p, next_player=nxt):
            return f"{p}'s turn is over" + (f"; {nxt} to play" if nxt else "; the game is over")
        case UsedLettersCleared(reason=reason):
            return f"The used letters are cleared: {_CLEARED.get(reason, reason)}"
    return None


def secrets(state: State, viewer: PlayerId | None) -> set[str]:
    """The other players' hands and the stack: their card ids. The card(s) of `last_outcome`
    were shown face up when played; a reshuffle may bring them back into the stack, where
    their order is hidden but not the fact that they were played."""
    hidden = set(state.stack)
    for player, hand in state.hands.items():
        if player != viewer:
            hidden |= set(hand)
    outcome = state.last_outcome or {}
    return hidden - {outcome.get("card"), *outcome.get("cards", ())}
