"""What each viewer sees of a Naishi table, the replay redaction, and the bot.

Hidden until the end of the game: the opponent's Hand (its cards and their positions), except
the cards the seat saw go into it (from the River, the Line, a Decree of either player; its own gift,
at an unknown position after the shuffle), which a player with perfect memory knows (issue
12); the River's face-down cards (only each pile's top card and size show); and the card given
in the opening exchange (only its giver sees it; the receiver finds it in its Hand once both
have given).
"""

from __future__ import annotations

from collections.abc import Sequence

import msgspec

from shared.games.decider import Event, PlayerId, View
from shared.games.naishi.components import COURT_SPOTS, MOUNTAIN, kind_of
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
from shared.games.naishi.rules import scores
from shared.games.naishi.scoring import cell_key
from shared.games.naishi.state import State
from shared.games.view_terms import common_terms, round_of_turn


def player_view(state: State, viewer: PlayerId | None) -> View:
    if state.phase == "setup":
        return {"phase": "setup"}
    revealed = state.phase == "end"
    seat = viewer if viewer in state.players else None

    def hand(p: PlayerId) -> list[str | None]:
        if state.phase == "exchange":
            return [None] * len(state.hands[p])
        if revealed or p == seat:
            return list(state.hands[p])
        if seat is not None:  # the opponent's: what the seat saw enter it face up
            return list(state.known[seat])
        return [None] * len(state.hands[p])

    def known_unplaced(p: PlayerId) -> list[str]:
        """Cards the seat knows are in the opponent's Hand, position unknown (its gift)."""
        if seat is None or p == seat or revealed or state.phase == "exchange":
            return []
        return list(state.known_unplaced[seat])

    view: View = {
        **common_terms(
            active_player=state.active,
            phase=state.phase,
            round=round_of_turn(state.turn, len(state.players)),
            turn=state.turn,
        ),
        "you": seat,
        "players": list(state.players),
        "first_player": state.first_player,
        "developed": state.developed,
        "bonus_used": state.bonus_used,
        "territories": {
            p: {
                "line": list(state.lines[p]),
                "hand": hand(p),
                "hand_known_unplaced": known_unplaced(p),
                "reserve": state.reserve[p],
            }
            for p in state.players
        },
        "river": [{"top": pile[0] if pile else None, "size": len(pile)} for pile in state.river],
        "discard": list(state.discard),
        "court": {spot: state.court[spot] for spot in COURT_SPOTS},
        "end_triggered": state.end_reason is not None,
        "end_reason": state.end_reason,
        "final_player": state.final_player,
    }
    if state.phase == "exchange":
        view["exchange_given"] = [p for p in state.players if p in state.given]
        if seat is not None:
            view["my_cards"] = sorted(state.hands[seat])
            view["my_gift"] = state.given.get(seat)
    if revealed:
        view["ninja_copies"] = {p: dict(state.copies.get(p, {})) for p in state.players}
        if seat is not None and state.pending_ninjas(seat):
            view["ninja_choices"] = {
                cell_key(c): state.ninja_choices(seat) for c in state.pending_ninjas(seat)
            }
        view["scores"] = scores(state)
    return view


def redact(event: Event, viewer: PlayerId | None) -> Event | None:
    replace = msgspec.structs.replace
    match event:
        case GameSetUp(hands=hands, river=river):
            return replace(
                event,
                hands={p: (h if p == viewer else [None] * len(h)) for p, h in hands.items()},
                river=[[c if i == 0 else None for i, c in enumerate(pile)] for pile in river],
            )
        case CardGiven(player=p) if p != viewer:
            return replace(event, card=None)
        case HandsShuffled(hands=hands):
            return replace(
                event,
                hands={p: (h if p == viewer else [None] * len(h)) for p, h in hands.items()},
            )
    return event


# --- the game log ---------------------------------------------------------------------------


def _said(card: str | None) -> str:
    """A card as players name it: `rice_3` -> "Rice"; a card not seen -> "a card"."""
    return "a card" if card is None else kind_of(card).replace("_", " ").title()


def _cell(row: str, position: int) -> str:
    return f"{row.title()} {position}"


def _hand(cards: Sequence[str | None]) -> str:
    return ", ".join(f"{i} {_said(c)}" for i, c in enumerate(cards, start=1))


def describe(event: Event, viewer: PlayerId | None) -> str | None:
    """One event in words, as a player at the table would say it (docs/games/naishi.md)."""
    match event:
        case GameSetUp(first_player=first, hands=hands, river=river):
            tops = ", ".join(_said(pile[0]) if pile else "empty" for pile in river)
            text = f"The cards were dealt; River tops: {tops}; {first} plays first"
            own = [c for c in hands.get(viewer or "", []) if c is not None and kind_of(c) != MOUNTAIN]
            if own:
                text += f"; {viewer} was dealt {' and '.join(_said(c) for c in sorted(own))}"
            return text
        case CardGiven(player=p, card=card):
            if card is None:
                return f"{p} chose a card to give"
            return f"{p} gave the {_said(card)}"
        case HandsShuffled(hands=hands):
            own_hand = hands.get(viewer or "")
            text = "Both cards were given and each Hand shuffled into its positions"
            if own_hand and all(c is not None for c in own_hand):
                text += f"; {viewer}'s Hand: {_hand(own_hand)}"
            return text
        case Developed(player=p, row=row, position=n, discarded=out, taken=taken, revealed=next_):
            after = f"a {_said(next_)} shows on pile {n}" if next_ else f"River pile {n} is empty"
            return (
                f"{p} developed {_cell(row, n)}: took the {_said(taken)} from River pile {n} "
                f"and discarded the {_said(out)}; {after}"
            )
        case CardsSwapped(player=p, kind=kind, first=a, second=b):
            swapped = {
                "river": f"the top cards of River piles {a} and {b}",
                "line": f"Line {a} and Line {b}",
                "hand": f"Hand {a} and Hand {b}",
                "hand_line": f"Hand {a} and Line {a}",
            }.get(kind, f"{kind} {a} and {b}")
            return f"{p} sent an Emissary to swap {swapped}"
        case RiverCardsDiscarded(player=p, piles=piles, discarded=cards, revealed=shown):
            gone = " and ".join(f"the {_said(c)} of pile {n}" for c, n in zip(cards, piles))
            now = "; ".join(
                f"a {_said(c)} shows on pile {n}" if c else f"pile {n} is empty" for c, n in zip(shown, piles)
            )
            return f"{p} sent an Emissary to discard {gone}; {now}"
        case DecreeImposed(player=p, row=row, position=n):
            return f"{p} imposed the Decree: {p}'s {_cell(row, n)} and the opponent's are exchanged"
        case EmissariesRecalled(player=p, spots=spots):
            return f"{p} recalled {len(spots)} Emissar{'y' if len(spots) == 1 else 'ies'}"
        case EndTriggered(player=p, reason=reason, final_player=last):
            why = f"{p} declared the end" if reason == "declared" else "Two River piles are empty"
            then = f"{last} plays the last turn" if last else "the turns are over"
            return f"{why}: {then}"
        case TurnPassed(player=p):
            return f"{p} had no main action and passed"
        case TurnEnded(player=p, next_player=nxt):
            return f"{p} ended the turn" + (f"; {nxt} to play" if nxt else "; the turns are over")
        case HandsRevealed(hands=hands):
            revealed = "; ".join(f"{p}: {_hand(h)}" for p, h in hands.items())
            return f"The Hands are revealed under the Lines. {revealed}"
        case NinjaCopied(player=p, row=row, position=n, copies=kind, automatic=auto):
            copied = f"copies a {_said(kind)}" if kind else "has nothing to copy"
            only = " (the only choice)" if auto and kind else ""
            return f"{p}'s Ninja at {_cell(row, n)} {copied}{only}"
    return None


def secrets(state: State, viewer: PlayerId | None) -> set[str]:
    """Every card id in play that `viewer` may not see: the opponent's Hand but the cards it
    saw enter it, the River's face-down cards, the gift it has not received yet; everything
    is revealed at the end."""
    if state.phase in ("setup", "end"):
        return set()
    cards = {c for p in state.players for c in (*state.lines[p], *state.hands[p])}
    cards |= {c for pile in state.river for c in pile} | set(state.discard)
    cards |= set(state.given.values())
    seen = {c for p in state.players for c in state.lines[p]}
    seen |= set(state.discard) | {pile[0] for pile in state.river if pile}
    if viewer in state.players:
        seen |= set(state.hands[viewer]) | set(state.known_unplaced.get(viewer, ()))
        seen |= {c for c in state.known.get(viewer, ()) if c is not None}
        if viewer in state.given:
            seen.add(state.given[viewer])
    return cards - seen
