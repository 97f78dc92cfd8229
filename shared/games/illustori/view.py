"""What each viewer may see of Illustori: hands (each seat its own), the draw stack and the
votes (until the vote closes) are hidden; the table, the discard pile and U are public."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import msgspec

from shared.games.decider import Event, PlayerId, View, describe_with
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
    """A card as players know it: by its picture (the id is the protocol's)."""
    return CARDS.get(card, "a card")


def _why(reasons: list[str]) -> str:
    return "; ".join(_PENALTIES.get(r, r) for r in reasons)


def _cards(cards: Sequence[str | None]) -> str:
    return "1 card" if len(cards) == 1 else f"{len(cards)} cards"


def _set_up(event: GameSetUp, viewer: PlayerId | None) -> str:
    own = event.hands.get(viewer or "")
    held = ""
    if own and all(c is not None for c in own):
        held = f"; {viewer}'s hand: " + ", ".join(_said(c) for c in own if c)
    start, first = _said(event.start_card), event.players[0]
    return f"The cards were dealt; the starting card is {start}, for {first} to name{held}"


def _start_proposed(event: StartProposed, viewer: PlayerId | None) -> str:
    return f"{event.player} named the starting card “{event.text}”; the others vote"


def _start_penalised(event: StartPenalised, viewer: PlayerId | None) -> str:
    why = _why(event.reasons)
    return f"{event.player}'s starting text “{event.text}” is penalised ({why}): name it again"


def _card_played(event: CardPlayed, viewer: PlayerId | None) -> str:
    return f"{event.player} played {_said(event.card)} as “{event.text}”; the others vote"


def _card_penalised(event: CardPenalised, viewer: PlayerId | None) -> str:
    what = f"{event.player}'s “{event.text}” on {_said(event.card)}"
    return f"{what} is penalised ({_why(event.reasons)}): the card is discarded"


def _vote_cast(event: VoteCast, viewer: PlayerId | None) -> str:
    yes = event.yes
    return f"{event.player} voted" + ("" if yes is None else (" yes" if yes else " no"))


def _vote_closed(event: VoteClosed, viewer: PlayerId | None) -> str:
    ayes = [p for p, v in event.votes.items() if v]
    noes = [p for p, v in event.votes.items() if not v]
    return (
        f"The text is {'accepted' if event.accepted else 'rejected'} (yes: "
        f"{', '.join(ayes) or 'nobody'}; no: {', '.join(noes) or 'nobody'})"
    )


def _cards_swapped(event: CardsSwapped, viewer: PlayerId | None) -> str:
    cards = event.cards
    return f"{event.player} discarded {_cards(cards)} to swap: " + ", ".join(map(_said, cards))


def _stack_reshuffled(event: StackReshuffled, viewer: PlayerId | None) -> str:
    return f"The discard pile was shuffled into a new stack of {_cards(event.stack)}"


def _cards_drawn(event: CardsDrawn, viewer: PlayerId | None) -> str:
    cards = event.cards
    if any(c is None for c in cards):
        return f"{event.player} drew {_cards(cards)}"
    return f"{event.player} drew " + ", ".join(_said(c) for c in cards if c)


def _turn_passed(event: TurnPassed, viewer: PlayerId | None) -> str:
    return f"{event.player} passed: the stack and the discard pile are empty"


def _last_round_started(event: LastRoundStarted, viewer: PlayerId | None) -> str:
    return f"{event.player}'s hand is empty: the last round starts"


def _turn_ended(event: TurnEnded, viewer: PlayerId | None) -> str:
    nxt = event.next_player
    return f"{event.player}'s turn is over" + (f"; {nxt} to play" if nxt else "; the game is over")


def _used_letters_cleared(event: UsedLettersCleared, viewer: PlayerId | None) -> str:
    return f"The used letters are cleared: {_CLEARED.get(event.reason, event.reason)}"


# One event in words, as a player at the table would say it (docs/games/illustori.md).
describe = describe_with(
    {
        GameSetUp: _set_up,
        StartProposed: _start_proposed,
        StartPenalised: _start_penalised,
        CardPlayed: _card_played,
        CardPenalised: _card_penalised,
        VoteCast: _vote_cast,
        VoteClosed: _vote_closed,
        CardsSwapped: _cards_swapped,
        StackReshuffled: _stack_reshuffled,
        CardsDrawn: _cards_drawn,
        TurnPassed: _turn_passed,
        LastRoundStarted: _last_round_started,
        TurnEnded: _turn_ended,
        UsedLettersCleared: _used_letters_cleared,
    }
)


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
