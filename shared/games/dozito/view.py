"""What each viewer sees of Dozito, the replay cut, and the bot.

Hidden from everyone, the owner included: every face-down grid card and the draw pile's
order. Public: face-up cards, the card in hand (it was revealed when taken, drawn or
flipped), the top card of each discard pile and the size of every pile.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import msgspec

from shared.games.decider import Event, Language, PlayerId, View, describe_with, spoken_list
from shared.games.dozito.cards import DECKS, GRID_COLUMNS, GRID_ROWS, Card
from shared.games.dozito.messages import (
    EVENTS,
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


def player_views(state: State, viewers: Sequence[PlayerId | None]) -> list[View]:
    """Every viewer's `player_view` at once: made once, as it differs only in `you`."""
    public = player_view(state, None)
    return [{**public, "you": viewer} for viewer in viewers]


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


# Every event: `redact` hides the same of a deal from every viewer, and the log names none.
SEEN_ALIKE: frozenset[type[Event]] = frozenset(EVENTS)


def drawn(event: Event) -> list[Any]:
    """A later round's shuffled deck, as dealt (grids slot by slot in seat order, the discard
    piles, the draw pile), and a rebuilt draw pile."""
    match event:
        case RoundDealt(grids=grids, discards=discards, draw=draw) if event.round > 1:
            dealt = [c for grid in grids.values() for c in grid]
            return [dealt + [c for pile in discards for c in pile] + list(draw)]
        case DrawPileRebuilt(draw=draw):
            return [list(draw)]
    return []


# --- the game log ---------------------------------------------------------------------------

# Every deck's cards by id (an id names the same card in every deck file).
_CARDS: dict[str, Card] = {c.id: c for deck in reversed(DECKS.values()) for c in deck}


class Words(msgspec.Struct, frozen=True, kw_only=True):
    """The words of the log in one language (each phrase below is one piece of code for both)."""

    colours: dict[str, str]  # the deck tables' colour names in this language
    card: str
    joker: str
    special: dict[str, str]  # by card kind
    the: str
    unknown_card: str
    and_: str
    set_up: str
    rounds: tuple[str, str]  # (one, many)
    dealt: str
    taken: str
    rebuilt: str
    cards: tuple[str, str]
    drawn: str
    placed: str
    replacing: str
    turning_up: str
    discarded: str
    again: str
    one_colour: str
    all_up: str
    last_turns: str
    round_ends: str
    turn: str
    extra_turn: str
    scored: str
    score: str
    suns: tuple[str, str]
    scores_joined: str


# The words of the log, by language.
WORDS: dict[Language, Words] = {
    "en": Words(
        colours={},  # as the deck tables name them
        card="{colour} {number}",
        joker="Joker",
        special={"stop": " (STOP)", "replay": " (Replay)"},
        the="the {}",
        unknown_card="the card {}",
        and_="and",
        set_up="Dozito in {rounds}, with {cards} cards",
        rounds=("{} round", "{} rounds"),
        dealt=(
            "Round {round}: 12 face-down cards dealt to each grid; the discard piles show {tops}; "
            "{draw} cards in the draw pile; {first} plays first"
        ),
        taken="{player} took {card} from discard pile {pile}",
        rebuilt="The discard piles but their top cards were shuffled into a new draw pile of {cards}",
        cards=("{} cards", "{} cards"),
        drawn="{player} drew {card}",
        placed="{player} placed {card} in slot {slot}{then}",
        replacing=", replacing {card}, face up",
        turning_up=" and turned up {card}",
        discarded="{player} discarded {card} onto pile {pile}{again}",
        again="; a Replay: {player} plays again",
        one_colour="{player} completed a one-colour grid and wins at once",
        all_up="{player}'s grid is all face up: {then}",
        last_turns="one last turn for {players}",
        round_ends="the round ends",
        turn="{player}'s turn",
        extra_turn="{player}'s extra turn",
        scored="Round {round} scores: {scores}",
        score="{player} {total} ({group_points} for groups of {groups}, {suns})",
        suns=("{} sun", "{} suns"),
        scores_joined="; ",
    ),
    "fr": Words(
        colours={"red": "rouge", "blue": "bleu", "green": "vert", "yellow": "jaune", "purple": "violet"},
        card="{number} {colour}",
        joker="Joker",
        special={"stop": " (STOP)", "replay": " (Rejouer)"},
        the="le {}",
        unknown_card="la carte {}",
        and_="et",
        set_up="Dozito en {rounds}, avec {cards} cartes",
        rounds=("{} manche", "{} manches"),
        dealt=(
            "Manche {round} : 12 cartes face cachée distribuées dans chaque grille ; sur les piles de "
            "défausse : {tops} ; {draw} cartes dans la pioche ; {first} commence"
        ),
        taken="{player} prend {card} sur la pile de défausse {pile}",
        rebuilt=(
            "Les piles de défausse, sauf leurs cartes du dessus, sont mélangées pour former une "
            "nouvelle pioche de {cards}"
        ),
        cards=("{} carte", "{} cartes"),
        drawn="{player} pioche {card}",
        placed="{player} place {card} à l'emplacement {slot}{then}",
        replacing=" et remplace {card}, déjà face visible",
        turning_up=" et retourne {card}",
        discarded="{player} défausse {card} sur la pile {pile}{again}",
        again=" ; carte Rejouer : {player} joue un nouveau tour",
        one_colour="{player} complète une grille d'une seule couleur et gagne immédiatement la partie",
        all_up="{player} a toute sa grille face visible : {then}",
        last_turns="un dernier tour pour {players}",
        round_ends="la manche se termine",
        turn="À {player} de jouer",
        extra_turn="{player} joue un tour supplémentaire",
        scored="Scores de la manche {round} : {scores}",
        score="{player} {total} ({group_points} pour les groupes de {groups}, {suns})",
        suns=("{} soleil", "{} soleils"),
        scores_joined=" ; ",
    ),
}


def _count(language: Language, forms: tuple[str, str], n: int) -> str:
    """`n` things in words: English says 0 in the plural, French in the singular."""
    one = n == 1 if language == "en" else abs(n) < 2
    return forms[0 if one else 1].format(n)


def card_name(card_id: str, language: Language = "en") -> str | None:
    """A card by colour and number, as players name it: "red 7", "blue Joker"; in French
    "7 rouge", "Joker bleu" (None for an id no deck holds)."""
    card = _CARDS.get(card_id)
    if card is None:
        return None
    words = WORDS[language]
    number = words.joker if card.number is None else str(card.number)
    colour = words.colours.get(card.colour, card.colour)
    return words.card.format(colour=colour, number=number)


def _said(card_id: str, language: Language) -> str:
    """A card in a sentence: "the red 7", "the blue Joker", "the red 3 (STOP)"; in French
    "le 7 rouge", "le Joker bleu", "le 3 rouge (STOP)"."""
    words = WORDS[language]
    name = card_name(card_id, language)
    if name is None:
        return words.unknown_card.format(card_id)
    special = words.special.get(_CARDS[card_id].kind, "")
    return words.the.format(name) + special


def _set_up(event: GameSetUp, language: Language) -> str:
    words = WORDS[language]
    rounds = _count(language, words.rounds, event.rounds)
    return words.set_up.format(rounds=rounds, cards=len(event.deck))


def _round_dealt(event: RoundDealt, language: Language) -> str:
    words = WORDS[language]
    tops = f" {words.and_} ".join(_said(pile[-1], language) for pile in event.discards if pile)
    return words.dealt.format(round=event.round, tops=tops, draw=len(event.draw), first=event.first_player)


def _discard_taken(event: DiscardTaken, language: Language) -> str:
    words = WORDS[language]
    return words.taken.format(player=event.player, card=_said(event.card, language), pile=event.pile)


def _draw_pile_rebuilt(event: DrawPileRebuilt, language: Language) -> str:
    words = WORDS[language]
    return words.rebuilt.format(cards=_count(language, words.cards, len(event.draw)))


def _card_drawn(event: CardDrawn, language: Language) -> str:
    words = WORDS[language]
    return words.drawn.format(player=event.player, card=_said(event.card, language))


def _card_placed(event: CardPlaced, language: Language) -> str:
    words = WORDS[language]
    out = _said(event.replaced, language)
    then = (words.replacing if event.replaced_was_face_up else words.turning_up).format(card=out)
    card = _said(event.card, language)
    return words.placed.format(player=event.player, card=card, slot=event.slot, then=then)


def _card_discarded(event: CardDiscarded, language: Language) -> str:
    words = WORDS[language]
    p = event.player
    again = words.again.format(player=p) if event.extra_turn else ""
    card = _said(event.card, language)
    return words.discarded.format(player=p, card=card, pile=event.pile, again=again)


def _one_colour_grid_completed(event: OneColourGridCompleted, language: Language) -> str:
    words = WORDS[language]
    return words.one_colour.format(player=event.player)


def _round_end_triggered(event: RoundEndTriggered, language: Language) -> str:
    words = WORDS[language]
    last = event.last_turns
    then = words.last_turns.format(players=spoken_list(last, words.and_)) if last else words.round_ends
    return words.all_up.format(player=event.player, then=then)


def _turn_started(event: TurnStarted, language: Language) -> str:
    words = WORDS[language]
    return (words.extra_turn if event.extra_turn else words.turn).format(player=event.player)


def _round_scored(event: RoundScored, language: Language) -> str:
    words = WORDS[language]
    said = words.scores_joined.join(
        words.score.format(
            player=p,
            total=s.total,
            group_points=s.group_points,
            groups="+".join(map(str, s.groups)),
            suns=_count(language, words.suns, s.suns),
        )
        for p, s in event.scores.items()
    )
    return words.scored.format(round=event.round, scores=said)


_PHRASES: dict[type[Event], Callable[[Any, Language], str]] = {
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


def _describe_in(language: Language) -> Callable[[Event, PlayerId | None], str | None]:
    """The log in one language: every event type's phrase with that language's words."""

    def phrase(said: Callable[[Any, Language], str]) -> Callable[[Any, PlayerId | None], str]:
        return lambda event, viewer: said(event, language)

    return describe_with({event_type: phrase(said) for event_type, said in _PHRASES.items()})


# One event in words, as a player at the table would say it (docs/games/dozito.md), in English
# and in French.
describe = _describe_in("en")
describe_fr = _describe_in("fr")


def secrets(state: State, viewer: PlayerId | None) -> set[str]:
    """Every face-down grid card and every card of the draw pile, from everyone."""
    hidden = set(state.draw)
    for player, grid in state.grids.items():
        hidden |= {c for c, up in zip(grid, state.face_up[player], strict=True) if not up}
    return hidden
