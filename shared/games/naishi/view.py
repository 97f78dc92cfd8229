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
from typing import Any, Final

import msgspec

from shared.games.decider import Event, Language, PlayerId, View, describe_with, spoken_list
from shared.games.naishi.components import CARD_KINDS, COURT_SPOTS, MOUNTAIN, kind_of
from shared.games.naishi.messages import (
    EVENTS,
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


# All but the events that show a seat its own cards (`redact`, and the deal's and the
# shuffle's words).
SEEN_ALIKE: frozenset[type[Event]] = frozenset(EVENTS) - {GameSetUp, CardGiven, HandsShuffled}


def drawn(event: Event) -> list[Any]:
    """Each Hand shuffled after the exchange (Naishi 5), in seat order."""
    match event:
        case HandsShuffled(hands=hands):
            return [list(h) for h in hands.values()]
    return []


# --- the game log ---------------------------------------------------------------------------

# How players name each kind of card, in each language of the log (the French are the BGA
# French rules' names: seed 002); the French gender gives the articles ("le Fortin", "une
# Sentinelle").
KIND_NAMES: dict[Language, dict[str, str]] = {
    "en": {kind: kind.replace("_", " ").title() for kind in (*CARD_KINDS, MOUNTAIN)},
    "fr": {
        "mountain": "Montagne",
        "naishi": "Naishi",
        "councillor": "Conseiller",
        "fort": "Fortin",
        "sentinel": "Sentinelle",
        "torii": "Torii",
        "monk": "Moine",
        "rice": "Champ de riz",
        "banner": "Bannière",
        "knight": "Cavalier",
        "ronin": "Ronin",
        "ninja": "Ninja",
    },
}
_FEMININE: Final = frozenset({"mountain", "naishi", "sentinel", "banner"})
# French articles, masculine then feminine (no card name starts with a vowel: no elision).
_ARTICLES: Final = {"le": ("le", "la"), "un": ("un", "une")}
_ROWS: Final[dict[Language, dict[str, str]]] = {
    "en": {"line": "Line", "hand": "Hand"},
    "fr": {"line": "Ligne", "hand": "Main"},
}


def _said(card: str | None, language: Language = "en") -> str:
    """A card as players name it: `rice_3` -> "Rice"; a card not seen -> "a card"."""
    if card is None:
        return {"en": "a card", "fr": "une carte"}[language]
    return KIND_NAMES[language][kind_of(card)]


def _fr(card: str | None, article: str) -> str:
    """A card in French with its article: `_fr("fort_1", "le")` -> "le Fortin"."""
    if card is None:
        return f"{_ARTICLES[article][1]} carte"
    return f"{_ARTICLES[article][int(kind_of(card) in _FEMININE)]} {_said(card, 'fr')}"


def _cell(row: str, position: int, language: Language = "en") -> str:
    return f"{_ROWS[language].get(row, row)} {position}"


def _hand(cards: Sequence[str | None], language: Language = "en") -> str:
    """A Hand position by position: "1 Mountain, 2 Rice", "Montagne en 1, Champ de riz en 2"."""
    item = {"en": "{i} {card}", "fr": "{card} en {i}"}[language]
    return ", ".join(item.format(i=i, card=_said(c, language)) for i, c in enumerate(cards, start=1))


def _dealt_to_viewer(event: GameSetUp, viewer: PlayerId | None) -> list[str]:
    """The Development cards the viewer was dealt (its own, the only ones it sees)."""
    cards = event.hands.get(viewer or "", [])
    return sorted(c for c in cards if c is not None and kind_of(c) != MOUNTAIN)


def _own_hand(event: HandsShuffled, viewer: PlayerId | None) -> Sequence[str | None]:
    """The viewer's own Hand after the shuffle, when it sees all of it (else empty)."""
    own_hand = event.hands.get(viewer or "")
    return own_hand if own_hand and all(c is not None for c in own_hand) else []


# What a Swap exchanged, by its kind ("other": a kind this log does not know).
_SWAPS: Final[dict[Language, dict[str, str]]] = {
    "en": {
        "river": "the top cards of River piles {a} and {b}",
        "line": "Line {a} and Line {b}",
        "hand": "Hand {a} and Hand {b}",
        "hand_line": "Hand {a} and Line {a}",
        "other": "{kind} {a} and {b}",
    },
    "fr": {
        "river": "les cartes visibles des piles {a} et {b} de la Rivière",
        "line": "ses cartes en Ligne {a} et en Ligne {b}",
        "hand": "ses cartes en Main {a} et en Main {b}",
        "hand_line": "ses cartes en Main {a} et en Ligne {a}",
        "other": "{kind} {a} et {b}",
    },
}


def _swapped(event: CardsSwapped, language: Language) -> str:
    words = _SWAPS[language]
    return words.get(event.kind, words["other"]).format(kind=event.kind, a=event.first, b=event.second)


# English


def _set_up(event: GameSetUp, viewer: PlayerId | None) -> str:
    tops = ", ".join(_said(pile[0]) if pile else "empty" for pile in event.river)
    text = f"The cards were dealt; River tops: {tops}; {event.first_player} plays first"
    if own := _dealt_to_viewer(event, viewer):
        text += f"; {viewer} was dealt {' and '.join(_said(c) for c in own)}"
    return text


def _card_given(event: CardGiven, viewer: PlayerId | None) -> str:
    if event.card is None:
        return f"{event.player} chose a card to give"
    return f"{event.player} gave the {_said(event.card)}"


def _hands_shuffled(event: HandsShuffled, viewer: PlayerId | None) -> str:
    text = "Both cards were given and each Hand shuffled into its positions"
    if own_hand := _own_hand(event, viewer):
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
    return f"{event.player} sent an Emissary to swap {_swapped(event, 'en')}"


def _river_cards_discarded(event: RiverCardsDiscarded, viewer: PlayerId | None) -> str:
    piles = event.piles
    gone = spoken_list(f"the {_said(c)} of pile {n}" for c, n in zip(event.discarded, piles))
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


# French: the same events from the same fields, in the words of the French rules (seed 002)


def _set_up_fr(event: GameSetUp, viewer: PlayerId | None) -> str:
    tops = ", ".join(_said(pile[0], "fr") if pile else "vide" for pile in event.river)
    text = (
        f"Les cartes ont été distribuées ; cartes visibles de la Rivière : {tops} ; "
        f"{event.first_player} joue en premier"
    )
    if own := _dealt_to_viewer(event, viewer):
        text += f" ; {viewer} a reçu {spoken_list((_fr(c, 'un') for c in own), 'et')}"
    return text


def _card_given_fr(event: CardGiven, viewer: PlayerId | None) -> str:
    if event.card is None:
        return f"{event.player} a choisi une carte à donner"
    return f"{event.player} a donné {_fr(event.card, 'le')}"


def _hands_shuffled_fr(event: HandsShuffled, viewer: PlayerId | None) -> str:
    text = "Les deux cartes ont été données et les cartes de chaque Main placées au hasard"
    if own_hand := _own_hand(event, viewer):
        text += f" ; Main de {viewer} : {_hand(own_hand, 'fr')}"
    return text


def _developed_fr(event: Developed, viewer: PlayerId | None) -> str:
    n, shown = event.position, event.revealed
    after = f"{_fr(shown, 'un')} apparaît sur la pile {n}" if shown else f"la pile {n} de la Rivière est vide"
    return (
        f"{event.player} a développé en {_cell(event.row, n, 'fr')} : a pris {_fr(event.taken, 'le')} "
        f"de la pile {n} de la Rivière et défaussé {_fr(event.discarded, 'le')} ; {after}"
    )


def _cards_swapped_fr(event: CardsSwapped, viewer: PlayerId | None) -> str:
    return f"{event.player} a envoyé un Émissaire pour échanger {_swapped(event, 'fr')}"


def _river_cards_discarded_fr(event: RiverCardsDiscarded, viewer: PlayerId | None) -> str:
    piles = event.piles
    gone = spoken_list((f"{_fr(c, 'le')} de la pile {n}" for c, n in zip(event.discarded, piles)), "et")
    now = " ; ".join(
        f"{_fr(c, 'un')} apparaît sur la pile {n}" if c else f"la pile {n} est vide"
        for c, n in zip(event.revealed, piles)
    )
    return f"{event.player} a envoyé un Émissaire pour défausser {gone} de la Rivière ; {now}"


def _decree_imposed_fr(event: DecreeImposed, viewer: PlayerId | None) -> str:
    p, cell = event.player, _cell(event.row, event.position, "fr")
    return (
        f"{p} a imposé le Décret impérial : la carte de {p} en {cell} et celle de l'adversaire sont échangées"
    )


def _emissaries_recalled_fr(event: EmissariesRecalled, viewer: PlayerId | None) -> str:
    count = len(event.spots)
    return f"{event.player} a rappelé {count} Émissaire{'' if count < 2 else 's'}"


def _end_triggered_fr(event: EndTriggered, viewer: PlayerId | None) -> str:
    why = (
        f"{event.player} a déclaré la fin de partie"
        if event.reason == "declared"
        else "Deux piles de la Rivière sont vides"
    )
    last = event.final_player
    then = f"{last} joue le dernier tour" if last else "les tours sont terminés"
    return f"{why} : {then}"


def _turn_passed_fr(event: TurnPassed, viewer: PlayerId | None) -> str:
    return f"{event.player} n'avait aucune action principale possible et a passé son tour"


def _turn_ended_fr(event: TurnEnded, viewer: PlayerId | None) -> str:
    nxt = event.next_player
    return f"{event.player} a terminé son tour" + (
        f" ; à {nxt} de jouer" if nxt else " ; les tours sont terminés"
    )


def _hands_revealed_fr(event: HandsRevealed, viewer: PlayerId | None) -> str:
    revealed = " ; ".join(f"{p} : {_hand(h, 'fr')}" for p, h in event.hands.items())
    return f"Les Mains sont révélées sous les Lignes. {revealed}"


def _ninja_copied_fr(event: NinjaCopied, viewer: PlayerId | None) -> str:
    kind = event.copies
    copied = f"copie {_fr(kind, 'un')}" if kind else "n'a rien à copier"
    only = " (seul choix possible)" if event.automatic and kind else ""
    return f"Le Ninja de {event.player} en {_cell(event.row, event.position, 'fr')} {copied}{only}"


describe_fr = describe_with(
    {
        GameSetUp: _set_up_fr,
        CardGiven: _card_given_fr,
        HandsShuffled: _hands_shuffled_fr,
        Developed: _developed_fr,
        CardsSwapped: _cards_swapped_fr,
        RiverCardsDiscarded: _river_cards_discarded_fr,
        DecreeImposed: _decree_imposed_fr,
        EmissariesRecalled: _emissaries_recalled_fr,
        EndTriggered: _end_triggered_fr,
        TurnPassed: _turn_passed_fr,
        TurnEnded: _turn_ended_fr,
        HandsRevealed: _hands_revealed_fr,
        NinjaCopied: _ninja_copied_fr,
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
