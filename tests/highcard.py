"""High Card, the platform's test game: small, but with everything the real games need of the
platform: a hidden hand, a random draw recorded in an event, and a simultaneous step.

Each player is dealt `hand_size` cards from a shuffled deck of 1..`deck_size`. Every trick, all
players choose a card at once, hidden until the last has chosen; the highest card takes the
trick and its player draws a random card from the deck (if any is left). The game ends when a
player's hand is empty; most tricks wins.

Registered for tests through `TABLETOP_GAMES=tests.highcard:GAME`.
"""

from __future__ import annotations

import dataclasses
import random

import msgspec

from shared.games.decider import (
    Command,
    Context,
    Event,
    Game,
    Options,
    PlayerId,
    Randomness,
    Rejection,
    Result,
    View,
    rank_players,
)
from shared.games.turns import DecideByTurns


class HighCardOptions(Options, frozen=True, kw_only=True):
    hand_size: int = 3
    deck_size: int = 30


class PlayCard(Command, frozen=True, kw_only=True):
    card: int


class HandsDealt(Event, frozen=True, kw_only=True):
    players: list[PlayerId]
    hands: dict[PlayerId, list[int]]
    deck: list[int]  # the undealt cards, in no particular order


class CardChosen(Event, frozen=True, kw_only=True):
    player: PlayerId
    card: int | None  # None in what other viewers see before the reveal


class TrickTaken(Event, frozen=True, kw_only=True):
    cards: dict[PlayerId, int]
    winner: PlayerId


class CardDrawn(Event, frozen=True, kw_only=True):
    player: PlayerId
    card: int | None  # None in what other viewers see


class State(msgspec.Struct, frozen=True, kw_only=True):
    players: tuple[PlayerId, ...] = ()
    hands: dict[PlayerId, tuple[int, ...]] = {}
    deck: tuple[int, ...] = ()
    chosen: dict[PlayerId, int] = {}
    tricks: dict[PlayerId, int] = {}
    last_trick: dict[PlayerId, int] = {}


def check_options(options: HighCardOptions, seats: int) -> str | None:
    if not 1 <= options.hand_size <= 10:
        return "hand_size must be between 1 and 10."
    if options.deck_size < seats * options.hand_size:
        return f"deck_size must be at least {seats * options.hand_size} for {seats} players."
    return None


def setup(options: HighCardOptions, players: tuple[PlayerId, ...], rng: Randomness):
    deck = list(range(1, options.deck_size + 1))
    rng.shuffle(deck)
    n = options.hand_size
    hands = {p: sorted(deck[i * n : (i + 1) * n]) for i, p in enumerate(players)}
    return [HandsDealt(players=list(players), hands=hands, deck=sorted(deck[len(players) * n :]))]


def play_card(state: State, command: PlayCard, ctx: Context):
    if command.card not in state.hands[ctx.actor]:
        return Rejection("card_not_in_hand", f"Card {command.card} is not in your hand.")
    events: list[Event] = [CardChosen(player=ctx.actor, card=command.card)]
    chosen = {**state.chosen, ctx.actor: command.card}
    if len(chosen) == len(state.players):
        winner = max(chosen, key=lambda p: chosen[p])
        events.append(TrickTaken(cards=chosen, winner=winner))
        if state.deck:
            events.append(CardDrawn(player=winner, card=ctx.rng.choice(state.deck)))
    return events


def evolve(state: State, event: Event) -> State:
    replace = msgspec.structs.replace
    match event:
        case HandsDealt():
            return State(
                players=tuple(event.players),
                hands={p: tuple(h) for p, h in event.hands.items()},
                deck=tuple(event.deck),
                tricks={p: 0 for p in event.players},
            )
        case CardChosen(player=p, card=card):
            assert card is not None  # the log holds every card; only views hide them
            hand = list(state.hands[p])
            hand.remove(card)
            return replace(
                state,
                hands={**state.hands, p: tuple(hand)},
                chosen={**state.chosen, p: card},
            )
        case TrickTaken(cards=cards, winner=winner):
            tricks = {**state.tricks, winner: state.tricks[winner] + 1}
            return replace(state, chosen={}, tricks=tricks, last_trick=cards)
        case CardDrawn(player=p, card=card):
            assert card is not None
            deck = list(state.deck)
            deck.remove(card)
            return replace(
                state,
                deck=tuple(deck),
                hands={**state.hands, p: (*state.hands[p], card)},
            )
    return state


def is_terminal(state: State) -> bool:
    return bool(state.players) and not state.chosen and any(not h for h in state.hands.values())


def players_to_act(state: State) -> list[PlayerId]:
    if is_terminal(state):
        return []
    return [p for p in state.players if p not in state.chosen]


# The platform's turn guard, then the move (a trick's card, once per player).
decide = DecideByTurns(
    "High Card", {PlayCard: play_card}, players_to_act=players_to_act, is_terminal=is_terminal
)


def legal_commands(state: State, player: PlayerId) -> list[Command]:
    if player not in players_to_act(state):
        return []
    return [PlayCard(card=c) for c in sorted(state.hands[player])]


def player_view(state: State, viewer: PlayerId | None) -> View:
    return {
        "hand": sorted(state.hands[viewer]) if viewer in state.hands else None,
        "hand_sizes": {p: len(h) for p, h in state.hands.items()},
        "deck_size": len(state.deck),
        "chosen": sorted(state.chosen),
        "my_choice": state.chosen.get(viewer) if viewer else None,
        "tricks": dict(state.tricks),
        "last_trick": dict(state.last_trick),
    }


def drawn(event: Event) -> list[int | None]:
    return [event.card] if isinstance(event, CardDrawn) else []


def redact(event: Event, viewer: PlayerId | None) -> Event | None:
    match event:
        case HandsDealt():
            hands = {p: (h if p == viewer else []) for p, h in event.hands.items()}
            return msgspec.structs.replace(event, hands=hands, deck=[])
        case CardChosen(player=p) | CardDrawn(player=p) if p != viewer:
            return msgspec.structs.replace(event, card=None)
    return event


def describe(event: Event, viewer: PlayerId | None) -> str | None:
    match event:
        case HandsDealt(hands=hands):
            own = hands.get(viewer) if viewer else None
            held = f"; {viewer} holds {', '.join(map(str, own))}" if own else ""
            return f"The cards were dealt{held}"
        case CardChosen(player=p, card=None):
            return f"{p} chose a card"
        case CardChosen(player=p, card=card):
            return f"{p} chose the {card}"
        case TrickTaken(cards=cards, winner=winner):
            played = ", ".join(f"{p} {c}" for p, c in cards.items())
            return f"{winner} took the trick ({played})"
        case CardDrawn(player=p, card=None):
            return f"{p} drew a card"
        case CardDrawn(player=p, card=card):
            return f"{p} drew the {card}"
    return None


def secrets(state: State, viewer: PlayerId | None) -> set[int]:
    """The cards `viewer` may not know: the other hands, the deck, the choices not yet
    revealed. Cards are small numbers, so a hidden card equal to a public count (a hand size,
    the deck's size, a trick count) cannot be told from that count and is left out."""
    hidden = set(state.deck)
    for player, hand in state.hands.items():
        if player != viewer:
            hidden |= set(hand)
    hidden |= {card for player, card in state.chosen.items() if player != viewer}
    counts = [
        len(state.deck),
        len(state.players),
        *state.tricks.values(),
        *(len(h) for h in state.hands.values()),
    ]
    return hidden - set(range(max(counts, default=0) + 1))


def result(state: State) -> Result:
    return rank_players(state.players, lambda p: state.tricks[p])


def greedy_bot(view: View, rng: random.Random) -> dict:
    """Plays its highest card half of the time, else any card."""
    legal = view["legal"]
    if rng.random() < 0.5:
        return max(legal, key=lambda c: c["card"])
    return rng.choice(legal)


GAME = Game(
    name="highcard",
    title="High Card",
    min_players=2,
    max_players=5,
    options=HighCardOptions,
    check_options=check_options,
    commands=(PlayCard,),
    events=(HandsDealt, CardChosen, TrickTaken, CardDrawn),
    initial_state=State(),
    setup=setup,
    decide=decide,
    evolve=evolve,
    is_terminal=is_terminal,
    players_to_act=players_to_act,
    legal_commands=legal_commands,
    player_view=player_view,
    redact=redact,
    drawn=drawn,
    result=result,
    bot=greedy_bot,
    describe=describe,
    secrets=secrets,
)


def _crashing_decide(state: State, command: Command, ctx: Context):
    if isinstance(command, PlayCard) and command.card == 13:
        raise RuntimeError("a bug in the rules, on purpose")
    return decide(state, command, ctx)


def _crashing_view(state: State, viewer: PlayerId | None) -> View:
    if len(state.players) == 4:
        raise RuntimeError("a bug in the views, on purpose")
    return player_view(state, viewer)


# The same game with bugs: deciding on card 13, viewing a 4-player game. The shell must log
# them, answer, and keep serving every other table.
CRASHY = dataclasses.replace(
    GAME, name="crashy", title="Crashy High Card", decide=_crashing_decide, player_view=_crashing_view
)
