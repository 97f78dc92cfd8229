"""What each viewer may see of Illustori: hands (each seat its own), the draw stack and the
votes (until the vote closes) are hidden; the table, the discard pile and U are public."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from functools import partial
from typing import Any

import msgspec

from shared.games.decider import Event, Language, PlayerId, View, describe_with
from shared.games.illustori.chaining import allowed_letters, forced_end
from shared.games.illustori.data import CARDS, CARDS_FR
from shared.games.illustori.messages import (
    EVENTS,
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


# All but the events that show a seat its own cards or vote (`redact`, and the deal's words).
SEEN_ALIKE: frozenset[type[Event]] = frozenset(EVENTS) - {GameSetUp, CardsDrawn, VoteCast}


def drawn(event: Event) -> list[Any]:
    """The discard shuffled into a new stack (Illustori 18)."""
    match event:
        case StackReshuffled(stack=stack):
            return [list(stack)]
    return []


# --- the game log ---------------------------------------------------------------------------

# The words of the log in each language: a line per event (its fields by name), then the
# pieces those lines are built from.
_WORDS: Mapping[Language, Mapping[str, str]] = {
    "en": {
        "set_up": "The cards were dealt; the starting card is {start}, for {first} to name{held}",
        "held": "; {viewer}'s hand: {cards}",
        "start_proposed": "{player} named the starting card “{text}”; the others vote",
        "start_penalised": "{player}'s starting text “{text}” is penalised ({why}): name it again",
        "card_played": "{player} played {card} as “{text}”; the others vote",
        "card_penalised": "{player}'s “{text}” on {card} is penalised ({why}): the card is discarded",
        "voted": "{player} voted",
        "voted_yes": "{player} voted yes",
        "voted_no": "{player} voted no",
        "accepted": "The text is accepted (yes: {ayes}; no: {noes})",
        "rejected": "The text is rejected (yes: {ayes}; no: {noes})",
        "nobody": "nobody",
        "cards_swapped": "{player} discarded {count} to swap: {cards}",
        "stack_reshuffled": "The discard pile was shuffled into a new stack of {count}",
        "drew": "{player} drew {cards}",
        "turn_passed": "{player} passed: the stack and the discard pile are empty",
        "last_round": "{player}'s hand is empty: the last round starts",
        "turn_ended": "{player}'s turn is over; {next} to play",
        "game_over": "{player}'s turn is over; the game is over",
        "cleared": "The used letters are cleared: {reason}",
        "one_card": "{n} card",
        "cards": "{n} cards",
        "a_card": "a card",
        "and_then": "; ",  # between penalty reasons
    },
    "fr": {
        "set_up": (
            "Les cartes sont distribuées ; la carte de démarrage est {start}, "
            "à {first} de lui trouver un texte{held}"
        ),
        "held": " ; main de {viewer} : {cards}",
        "start_proposed": "{player} a proposé « {text} » pour la carte de démarrage ; les autres votent",
        "start_penalised": (
            "Le texte de démarrage « {text} » de {player} est pénalisé ({why}) : il faut en proposer un autre"
        ),
        "card_played": "{player} a joué {card} avec le texte « {text} » ; les autres votent",
        "card_penalised": (
            "Le texte « {text} » de {player} sur {card} est pénalisé ({why}) : la carte est défaussée"
        ),
        "voted": "{player} a voté",
        "voted_yes": "{player} a voté pour",
        "voted_no": "{player} a voté contre",
        "accepted": "Le texte est adopté (pour : {ayes} ; contre : {noes})",
        "rejected": "Le texte est rejeté (pour : {ayes} ; contre : {noes})",
        "nobody": "personne",
        "cards_swapped": "{player} a défaussé {count} pour un échange : {cards}",
        "stack_reshuffled": "La défausse a été mélangée en un nouveau paquet de {count}",
        "drew": "{player} a pioché {cards}",
        "turn_passed": "{player} a passé son tour : le paquet et la défausse sont vides",
        "last_round": "{player} n'a plus de cartes en main : le dernier tour commence",
        "turn_ended": "Fin du tour de {player} ; à {next} de jouer",
        "game_over": "Fin du tour de {player} ; la partie est terminée",
        "cleared": "Les lettres déjà utilisées sont à nouveau autorisées : {reason}",
        "one_card": "{n} carte",
        "cards": "{n} cartes",
        "a_card": "une carte",
        "and_then": " ; ",
    },
}
_PENALTIES: Mapping[Language, Mapping[str, str]] = {
    "en": {
        "ends_with_xx": "it ends in xx",
        "starts_with_qxz": "it starts with q, x or z",
        "repeated_letter": "it repeats a letter",
        "used_letter": "it uses a used letter",
    },
    "fr": {
        "ends_with_xx": "il finit par xx",
        "starts_with_qxz": "il commence par q, x ou z",
        "repeated_letter": "il commence et finit par la même lettre",
        "used_letter": "il utilise une lettre ayant déjà servi",
    },
}
_CLEARED: Mapping[Language, Mapping[str, str]] = {
    "en": {
        "all_failed": "a round of turns without an accepted text",
        "alphabet_full": "every letter was used",
    },
    "fr": {
        "all_failed": "un tour de table sans texte adopté",
        "alphabet_full": "toutes les lettres ont servi",
    },
}
# the counts said in the singular ("1 card", and "0 carte" in French)
_SINGULAR: Mapping[Language, frozenset[int]] = {"en": frozenset({1}), "fr": frozenset({0, 1})}
# the cards as players know them: by their pictures (the ids are the protocol's)
_PICTURES: Mapping[Language, Mapping[str, str]] = {"en": CARDS, "fr": CARDS_FR}


class _Say:
    """The log's words in one language, and the ways of naming its things."""

    def __init__(self, language: Language) -> None:
        self.words = _WORDS[language]
        self.penalties = _PENALTIES[language]
        self.cleared = _CLEARED[language]
        self.pictures = _PICTURES[language]
        self.singular = _SINGULAR[language]

    def __call__(self, line: str, **fields: object) -> str:
        return self.words[line].format(**fields)

    def card(self, card: str | None) -> str:
        return self.pictures.get(card or "", self.words["a_card"])

    def cards(self, cards: Sequence[str | None]) -> str:
        return ", ".join(self.card(c) for c in cards)

    def count(self, cards: Sequence[object]) -> str:
        n = len(cards)
        return self.words["one_card" if n in self.singular else "cards"].format(n=n)

    def why(self, reasons: list[str]) -> str:
        return self.words["and_then"].join(self.penalties.get(r, r) for r in reasons)


def _set_up(say: _Say, event: GameSetUp, viewer: PlayerId | None) -> str:
    own = event.hands.get(viewer or "")
    held = ""
    if own and all(c is not None for c in own):
        held = say("held", viewer=viewer, cards=say.cards(own))
    return say("set_up", start=say.card(event.start_card), first=event.players[0], held=held)


def _start_proposed(say: _Say, event: StartProposed, viewer: PlayerId | None) -> str:
    return say("start_proposed", player=event.player, text=event.text)


def _start_penalised(say: _Say, event: StartPenalised, viewer: PlayerId | None) -> str:
    return say("start_penalised", player=event.player, text=event.text, why=say.why(event.reasons))


def _card_played(say: _Say, event: CardPlayed, viewer: PlayerId | None) -> str:
    return say("card_played", player=event.player, card=say.card(event.card), text=event.text)


def _card_penalised(say: _Say, event: CardPenalised, viewer: PlayerId | None) -> str:
    why = say.why(event.reasons)
    return say("card_penalised", player=event.player, text=event.text, card=say.card(event.card), why=why)


def _vote_cast(say: _Say, event: VoteCast, viewer: PlayerId | None) -> str:
    line = "voted" if event.yes is None else ("voted_yes" if event.yes else "voted_no")
    return say(line, player=event.player)


def _vote_closed(say: _Say, event: VoteClosed, viewer: PlayerId | None) -> str:
    ayes = ", ".join(p for p, v in event.votes.items() if v) or say.words["nobody"]
    noes = ", ".join(p for p, v in event.votes.items() if not v) or say.words["nobody"]
    return say("accepted" if event.accepted else "rejected", ayes=ayes, noes=noes)


def _cards_swapped(say: _Say, event: CardsSwapped, viewer: PlayerId | None) -> str:
    cards = event.cards
    return say("cards_swapped", player=event.player, count=say.count(cards), cards=say.cards(cards))


def _stack_reshuffled(say: _Say, event: StackReshuffled, viewer: PlayerId | None) -> str:
    return say("stack_reshuffled", count=say.count(event.stack))


def _cards_drawn(say: _Say, event: CardsDrawn, viewer: PlayerId | None) -> str:
    cards = event.cards
    hidden = any(c is None for c in cards)
    return say("drew", player=event.player, cards=say.count(cards) if hidden else say.cards(cards))


def _turn_passed(say: _Say, event: TurnPassed, viewer: PlayerId | None) -> str:
    return say("turn_passed", player=event.player)


def _last_round_started(say: _Say, event: LastRoundStarted, viewer: PlayerId | None) -> str:
    return say("last_round", player=event.player)


def _turn_ended(say: _Say, event: TurnEnded, viewer: PlayerId | None) -> str:
    nxt = event.next_player
    return say("turn_ended", player=event.player, next=nxt) if nxt else say("game_over", player=event.player)


def _used_letters_cleared(say: _Say, event: UsedLettersCleared, viewer: PlayerId | None) -> str:
    return say("cleared", reason=say.cleared.get(event.reason, event.reason))


_PHRASES: Mapping[type[Event], Callable[[_Say, Any, PlayerId | None], str]] = {
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


def _describe_in(language: Language) -> Callable[[Event, PlayerId | None], str | None]:
    say = _Say(language)
    return describe_with({kind: partial(phrase, say) for kind, phrase in _PHRASES.items()})


# One event in words, as a player at the table would say it (docs/games/illustori.md), in
# English and in French.
describe = _describe_in("en")
describe_fr = _describe_in("fr")


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
