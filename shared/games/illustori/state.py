"""Illustori's state: frozen, replaced by `evolve`, never mutated."""

from __future__ import annotations

from typing import Any, Literal

import msgspec

from shared.games.decider import (
    Event,
    PlayerId,
    logged,
)
from shared.games.illustori.chaining import (
    Rules,
    ends,
)
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

# "setup" (before the deal), "naming" (the first player names the starting card), "voting"
# (the others vote on a proposed text), "turn" (the active player chains, swaps or passes),
# "over".
Phase = Literal["setup", "naming", "voting", "turn", "over"]


class Placed(msgspec.Struct, frozen=True, kw_only=True):
    """A card with its text: on the table, or proposed and under vote."""

    player: PlayerId
    card: str
    text: str


class State(msgspec.Struct, frozen=True, kw_only=True):
    players: tuple[PlayerId, ...] = ()
    rules: Rules = Rules()
    phase: Phase = "setup"
    active: PlayerId = ""  # whose turn it is (the proposer, while the others vote)
    hands: dict[PlayerId, tuple[str, ...]] = {}
    stack: tuple[str, ...] = ()  # top first
    discard: tuple[str, ...] = ()
    start_card: str = ""
    chain: tuple[Placed, ...] = ()  # accepted texts, the starting one first
    pending: Placed | None = None  # the text under vote
    votes: dict[PlayerId, bool] = {}
    used: tuple[str, ...] = ()  # U, sorted (Illustori 14)
    failed_turns: int = 0  # consecutive turns without an accepted chain (Illustori 15a)
    last_round: bool = False  # Illustori 16
    turns: int = 0  # turns ended so far
    last_outcome: dict[str, Any] | None = None  # what just happened, for the views

    @property
    def first_player(self) -> PlayerId:
        return self.players[0]

    @property
    def current_text(self) -> str | None:
        return self.chain[-1].text if self.chain else None

    def next_player(self, player: PlayerId) -> PlayerId:
        return self.players[(self.players.index(player) + 1) % len(self.players)]

    def cards_on_table(self) -> list[str]:
        """The chain, the starting card before it is named, and a card under vote."""
        cards = [p.card for p in self.chain]
        if not self.chain:
            if self.start_card:
                cards.append(self.start_card)
        elif self.pending is not None:
            cards.append(self.pending.card)
        return cards


replace = msgspec.structs.replace


# --- evolve ---------------------------------------------------------------------------------


def _without(cards: tuple[str, ...], gone: list[str] | list[str | None]) -> tuple[str, ...]:
    rest = list(cards)
    for card in gone:
        rest.remove(card)  # type: ignore[arg-type]
    return tuple(rest)


def evolve(state: State, event: Event) -> State:
    """The setup, the texts proposed and the votes on them; the rest: `_evolve_turn`."""
    match event:
        case GameSetUp():
            return State(
                players=tuple(event.players),
                rules=event.rules,
                phase="naming",
                active=event.players[0],
                hands={p: logged(h) for p, h in event.hands.items()},
                stack=logged(event.stack),
                start_card=event.start_card,
            )
        case StartProposed(player=p, text=text):
            return replace(
                state,
                phase="voting",
                votes={},
                pending=Placed(player=p, card=state.start_card, text=text),
            )
        case StartPenalised(player=p, text=text, reasons=reasons):
            return replace(
                state,
                last_outcome={
                    "kind": "start_penalised",
                    "player": p,
                    "text": text,
                    "reasons": list(reasons),
                },
            )
        case CardPlayed(player=p, card=card, text=text):
            return replace(
                state,
                phase="voting",
                votes={},
                hands={**state.hands, p: _without(state.hands[p], [card])},
                pending=Placed(player=p, card=card, text=text),
            )
        case CardPenalised(player=p, card=card, text=text, reasons=reasons):
            return replace(
                state,
                hands={**state.hands, p: _without(state.hands[p], [card])},
                discard=(*state.discard, card),
                last_outcome={
                    "kind": "penalised",
                    "player": p,
                    "card": card,
                    "text": text,
                    "reasons": list(reasons),
                },
            )
        case VoteCast(player=p, yes=yes):
            return replace(state, votes={**state.votes, p: bool(yes)})
        case VoteClosed(votes=votes, accepted=accepted):
            return _close_vote(state, votes, accepted)
    return _evolve_turn(state, event)


def _evolve_turn(state: State, event: Event) -> State:
    """The events of cards changing hands and of turns passing."""
    match event:
        case CardsSwapped(player=p, cards=cards):
            return replace(
                state,
                hands={**state.hands, p: _without(state.hands[p], cards)},
                discard=(*state.discard, *cards),
                last_outcome={"kind": "swapped", "player": p, "cards": list(cards)},
            )
        case StackReshuffled(stack=stack):
            return replace(state, stack=logged(stack), discard=())
        case CardsDrawn(player=p, cards=cards):
            return replace(
                state,
                stack=_without(state.stack, cards),
                hands={**state.hands, p: (*state.hands[p], *logged(cards))},
            )
        case TurnPassed(player=p):
            return replace(state, last_outcome={"kind": "passed", "player": p})
        case LastRoundStarted():
            return replace(state, last_round=True)
        case TurnEnded(accepted=accepted, next_player=nxt):
            return replace(
                state,
                phase="turn" if nxt is not None else "over",
                active=nxt or "",
                failed_turns=0 if accepted else state.failed_turns + 1,
                turns=state.turns + 1,
            )
        case UsedLettersCleared():
            return replace(state, used=(), failed_turns=0)
    return state


def _close_vote(state: State, votes: dict[PlayerId, bool], accepted: bool) -> State:
    pending = state.pending
    assert pending is not None
    starting = not state.chain
    outcome: dict[str, Any] = {
        "kind": ("start_" if starting else "") + ("accepted" if accepted else "rejected"),
        "player": pending.player,
        "card": pending.card,
        "text": pending.text,
        "votes": dict(votes),
    }
    changes: dict[str, Any] = {"pending": None, "votes": {}, "last_outcome": outcome}
    if accepted:
        changes["chain"] = (*state.chain, pending)
        if state.rules.no_used_letters:
            changes["used"] = tuple(sorted({*state.used, *ends(pending.text, state.rules.mode)}))
        changes["phase"] = "turn"
    elif starting:
        changes["phase"] = "naming"
    else:
        changes["discard"] = (*state.discard, pending.card)
        changes["phase"] = "turn"
    return replace(state, **changes)
