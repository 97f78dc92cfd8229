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

from shared.games.decider import Event, PlayerId, View, describe_with
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


def _set_up(event: GameSetUp, viewer: PlayerId | None) -> str:
    tops = ", ".join(_said(pile[0]) if pile else "empty" for pile in event.river)
    text = f"The cards were dealt; River tops: {tops}; {event.first_player} plays first"
    own = [c for c in event.hands.get(viewer or "", []) if c is not None and kind_of(c) != MOUNTAIN]
    if own:
        text += f"; {viewer} was dealt {' and '.join(_said(c) for c in sorted(own))}"
    return text


def _card_given(event: CardGiven, viewer: PlayerId | None) -> str:
    if event.card is None:
        return f"{event.player} chose a card to give"
    return f"{event.player} gave the {_said(event.card)}"


def _hands_shuffled(event: HandsShuffled, viewer: PlayerId | None) -> str:
    own_hand = event.hands.get(viewer or "")
    text = "Both cards were given and each Hand shuffled into its positions"
    if own_hand and all(c is not None for c in own_hand):
        text += f"; {viewer}'s Hand: {_hand(own_hand)}"
    return text


def _developed(event: Developed, viewer: PlayerId | None) -> str:
    n, shown = event.position, event.revealed
    after = f"a {_said(shown)} shows on pile {n}" if shown else f"River pile {n} is empty"
    return (
        f"{event.player} developed {_cell(event.row, n)}: took the {_said(event.taken)} from "
        f"River pile {n} and discarded the {_said(event.discarded)}; {after}"
    )


def _cards_swapped(event: CardsSwapped, viewer: PlayerId | None) -> str:
    a, b = event.first, event.second
    swapped = {
        "river": f"the top cards of River piles {a} and {b}",
        "line": f"Line {a} and Line {b}",
        "hand": f"Hand {a} and Hand {b}",
        "hand_line": f"Hand {a} and Line {a}",
    }.get(event.kind, f"{event.kind} {a} and {b}")
    return f"{event.player} sent an Emissary to swap {swapped}"


def _river_cards_discarded(event: RiverCardsDiscarded, viewer: PlayerId | None) -> str:
    piles = event.piles
    gone = " and ".join(f"the {_said(c)} of pile {n}" for c, n in zip(event.discarded, piles))
    now = "; ".join(
        f"a {_said(c)} shows on pile {n}" if c else f"pile {n} is empty"
        for c, n in zip(event.revealed, piles)
    )
    return f"{event.player} sent an Emissary to discard {gone}; {now}"


def _decree_imposed(event: DecreeImposed, viewer: PlayerId | None) -> str:
    p, cell = event.player, _cell(event.row, event.position)
    return f"{p} imposed the Decree: {p}'s {cell} and the opponent's are exchanged"


def _emissaries_recalled(event: EmissariesRecalled, viewer: PlayerId | None) -> str:
    count = len(event.spots)
    return f"{event.player} recalled {count} Emissar{'y' if count == 1 else 'ies'}"


def _end_triggered(event: EndTriggered, viewer: PlayerId | None) -> str:
    why = f"{event.player} declared the end" if event.reason == "declared" else "Two River piles are empty"
    last = event.final_player
    then = f"{last} plays the last turn" if last else "the turns are over"
    return f"{why}: {then}"


def _turn_passed(event: TurnPassed, viewer: PlayerId | None) -> str:
    return f"{event.player} had no main action and passed"


def _turn_ended(event: TurnEnded, viewer: PlayerId | None) -> str:
    nxt = event.next_player
    return f"{event.player} ended the turn" + (f"; {nxt} to play" if nxt else "; the turns are over")


def _hands_revealed(event: HandsRevealed, viewer: PlayerId | None) -> str:
    revealed = "; ".join(f"{p}: {_hand(h)}" for p, h in event.hands.items())
    return f"The Hands are revealed under the Lines. {revealed}"


def _ninja_copied(event: NinjaCopied, viewer: PlayerId | None) -> str:
    kind = event.copies
    copied = f"copies a {_said(kind)}" if kind else "has nothing to copy"
    only = " (the only choice)" if event.automatic and kind else ""
    return f"{event.player}'s Ninja at {_cell(event.row, event.position)} {copied}{only}"


# One event in words, as a player at the table would say it (docs/games/naishi.md).
describe = describe_with(
    {
        GameSetUp: _set_up,
        CardGiven: _card_given,
        HandsShuffled: _hands_shuffled,
        Developed: _developed,
        CardsSwapped: _cards_swapped,
        RiverCardsDiscarded: _river_cards_discarded,
        DecreeImposed: _decree_imposed,
        EmissariesRecalled: _emissaries_recalled,
        EndTriggered: _end_triggered,
        TurnPassed: _turn_passed,
        TurnEnded: _turn_ended,
        HandsRevealed: _hands_revealed,
        NinjaCopied: _ninja_copied,
    }
)


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
