"""Illustori's rules (RULES.md section 5): setup, decide, evolve and the queries on a state."""

from __future__ import annotations

import random
from typing import Any

import msgspec

from shared.games.decider import (
    Command, Context, Event, PlayerId, Rejection, Result, View, rank_players,
)
from shared.games.illustori.chaining import (
    Rules, chain_problem, clean, ends, penalties, text_problem,
)
from shared.games.illustori.data import (
    ALPHABET, CARD_IDS, HAND_SIZE, LANGUAGES, MODES, REVERSE_DIRECTIONS,
)
from shared.games.illustori.examples import chain_examples, penalised_example, start_examples
from shared.games.illustori.messages import (
    CardPenalised, CardPlayed, CardsDrawn, CardsSwapped, GameSetUp, IllustoriOptions,
    LastRoundStarted, PassTurn, PlayCard, ProposeStart, StackReshuffled, StartPenalised,
    StartProposed, SwapCards, TurnEnded, TurnPassed, UsedLettersCleared, Vote, VoteCast,
    VoteClosed,
)
from shared.games.illustori.state import Placed, State

replace = msgspec.structs.replace


# --- options and setup ----------------------------------------------------------------------

def check_options(options: IllustoriOptions, seats: int) -> str | None:
    """A clear message for a bad option, else None."""
    if options.mode not in MODES:
        return f"mode must be one of {', '.join(MODES)}; not {options.mode!r}."
    if options.reverse_direction not in REVERSE_DIRECTIONS:
        return (
            f"reverse_direction must be one of {', '.join(REVERSE_DIRECTIONS)}; "
            f"not {options.reverse_direction!r}."
        )
    if options.language not in LANGUAGES:
        return f"language must be one of {', '.join(LANGUAGES)}; not {options.language!r}."
    least = seats * HAND_SIZE + 1
    if not least <= options.deck_size <= len(CARD_IDS):
        return (
            f"deck_size must be between {least} ({HAND_SIZE} cards for each of {seats} players "
            f"and the starting card) and {len(CARD_IDS)}; not {options.deck_size}."
        )
    return None


def rules_of(options: IllustoriOptions) -> Rules:
    return Rules(
        mode=options.mode,
        reverse_direction=options.reverse_direction,
        no_repeated_letter=options.no_repeated_letter,
        no_used_letters=options.no_used_letters,
        language=options.language,
    )


def setup(
    options: IllustoriOptions, players: tuple[PlayerId, ...], rng: random.Random,
) -> list[Event] | Rejection:
    """Illustori 1-2: shuffle, deal 5 each, reveal the top card of the stack."""
    deck = list(CARD_IDS[:options.deck_size])
    rng.shuffle(deck)
    hands: dict[PlayerId, list[str | None]] = {
        p: list(deck[i * HAND_SIZE:(i + 1) * HAND_SIZE]) for i, p in enumerate(players)
    }
    rest = deck[len(players) * HAND_SIZE:]
    return [GameSetUp(
        players=list(players), rules=rules_of(options), hands=hands,
        stack=list(rest[1:]), start_card=rest[0],
    )]


# --- decide ---------------------------------------------------------------------------------

class _Batch:
    """The events of one command, with the state they lead to (so later ones can build on it)."""

    def __init__(self, state: State) -> None:
        self.state = state
        self.events: list[Event] = []

    def add(self, event: Event) -> None:
        self.events.append(event)
        self.state = evolve(self.state, event)


def decide(state: State, command: Command, ctx: Context) -> list[Event] | Rejection:
    actor = ctx.actor
    if actor not in players_to_act(state):
        if state.phase == "voting" and actor in state.votes:
            return Rejection("already_voted", "You have already voted on this text.")
        if state.phase == "voting" and state.pending and actor == state.pending.player:
            return Rejection("not_your_turn", "The others are voting on your text; wait.")
        return Rejection("not_your_turn", f"It is not your turn; waiting for {_waiting(state)}.")
    match command:
        case ProposeStart(text=text):
            if state.phase != "naming":
                return _wrong_phase(state)
            return _propose_start(state, actor, clean(text))
        case PlayCard(card=card, text=text):
            if state.phase != "turn":
                return _wrong_phase(state)
            if card not in state.hands[actor]:
                return Rejection("card_not_in_hand", f"Card {card} is not in your hand.")
            return _play_card(state, actor, card, clean(text), ctx.rng)
        case SwapCards(cards=cards):
            if state.phase != "turn":
                return _wrong_phase(state)
            return _swap(state, actor, cards, ctx.rng)
        case PassTurn():
            if state.phase != "turn":
                return _wrong_phase(state)
            if state.stack or state.discard:
                return Rejection(
                    "pass_not_allowed",
                    "You may pass only when the stack and the discard pile are both empty; "
                    "play a card or swap.",
                )
            batch = _Batch(state)
            batch.add(TurnPassed(player=actor))
            _end_turn(batch, actor, accepted=False)
            return batch.events
        case Vote(yes=yes):
            if state.phase != "voting":
                return _wrong_phase(state)
            return _vote(state, actor, yes, ctx.rng)
    return Rejection("bad_command", f"Illustori has no command {type(command).__name__}.")


def _waiting(state: State) -> str:
    return ", ".join(players_to_act(state)) or "nobody (the game is over)"


def _wrong_phase(state: State) -> Rejection:
    needed = {
        "naming": "the first player must name the starting card (propose_start)",
        "voting": "the vote is on (vote)",
        "turn": "it is time to play a card, swap or pass",
    }.get(state.phase, "the game is not in play")
    return Rejection("wrong_phase", f"Not now: {needed}.")


def _propose_start(state: State, actor: PlayerId, text: str) -> list[Event] | Rejection:
    """Illustori 2: any text with letters at both ends (8, 5.3-5); a penalty rejects it."""
    problem = text_problem(text, state.rules.mode, start=True)
    if problem:
        return Rejection(*problem)
    reasons = penalties(state.rules, text, state.used, start=True)
    if reasons:
        return [StartPenalised(player=actor, text=text, reasons=reasons)]
    return [StartProposed(player=actor, text=text)]


def _play_card(
    state: State, actor: PlayerId, card: str, text: str, rng: random.Random,
) -> list[Event] | Rejection:
    """Illustori 4, 7, 8: refused (nothing changes), penalised (no vote) or put to the vote."""
    rules = state.rules
    problem = text_problem(text, rules.mode)
    if problem is None:
        problem = chain_problem(rules, state.current_text or "", text)
    if problem:
        return Rejection(*problem)
    reasons = penalties(rules, text, state.used)
    if not reasons:
        return [CardPlayed(player=actor, card=card, text=text)]
    batch = _Batch(state)
    batch.add(CardPenalised(player=actor, card=card, text=text, reasons=reasons))
    _draw(batch, actor, 1, rng)
    _end_turn(batch, actor, accepted=False)
    return batch.events


def _swap(
    state: State, actor: PlayerId, cards: list[str], rng: random.Random,
) -> list[Event] | Rejection:
    """Illustori 5: discard one or more cards, draw as many."""
    if not cards:
        return Rejection("no_cards", "Choose at least one card to swap.")
    if len(set(cards)) != len(cards):
        return Rejection("duplicate_card", "Each card can be swapped once.")
    missing = [c for c in cards if c not in state.hands[actor]]
    if missing:
        return Rejection("card_not_in_hand", f"Card {missing[0]} is not in your hand.")
    if not state.stack and not state.discard:
        return Rejection(
            "stack_empty", "The stack and the discard pile are empty: play a card or pass.",
        )
    batch = _Batch(state)
    batch.add(CardsSwapped(player=actor, cards=list(cards)))
    _draw(batch, actor, len(cards), rng)
    _end_turn(batch, actor, accepted=False)
    return batch.events


def _vote(state: State, actor: PlayerId, yes: bool, rng: random.Random) -> list[Event]:
    """Illustori 6: votes are secret until the last is in; accepted iff yes x 2 >= voters."""
    batch = _Batch(state)
    batch.add(VoteCast(player=actor, yes=yes))
    pending = state.pending
    assert pending is not None  # the voting phase always has a text under vote
    voters = [p for p in state.players if p != pending.player]
    votes = batch.state.votes
    if len(votes) < len(voters):
        return batch.events
    accepted = sum(votes.values()) * 2 >= len(voters)
    starting = not state.chain
    batch.add(VoteClosed(votes={p: votes[p] for p in voters}, accepted=accepted))
    if starting:
        if accepted:  # a rejected starting text is named again by the same player (5.3-8)
            _end_turn(batch, pending.player, accepted=True)
        return batch.events
    if not accepted:
        _draw(batch, pending.player, 1, rng)
    _end_turn(batch, pending.player, accepted=accepted)
    return batch.events


def _draw(batch: _Batch, player: PlayerId, count: int, rng: random.Random) -> None:
    """Draw `count` cards from the top; an empty stack takes the shuffled discard (18)."""
    while count > 0:
        state = batch.state
        if not state.stack:
            if not state.discard:
                return  # Illustori 18: still empty, the draw is skipped
            pile = list(state.discard)
            rng.shuffle(pile)
            batch.add(StackReshuffled(stack=list(pile)))
            continue
        cards = list(state.stack[:count])
        batch.add(CardsDrawn(player=player, cards=list(cards)))
        count -= len(cards)


def _end_turn(batch: _Batch, player: PlayerId, *, accepted: bool) -> None:
    """Illustori 3, 15, 16: the next player, the last round, the clearing of U."""
    state = batch.state
    if accepted and not state.hands[player] and not state.last_round:
        batch.add(LastRoundStarted(player=player))
    state = batch.state
    done = state.last_round and player == state.first_player
    batch.add(TurnEnded(
        player=player, accepted=accepted, next_player=None if done else state.next_player(player),
    ))
    state = batch.state
    if done or not state.rules.no_used_letters:
        return
    if not accepted and state.failed_turns >= len(state.players):
        batch.add(UsedLettersCleared(reason="all_failed"))
    elif accepted and set(ALPHABET) <= set(state.used):
        batch.add(UsedLettersCleared(reason="alphabet_full"))


# --- evolve ---------------------------------------------------------------------------------

def _without(cards: tuple[str, ...], gone: list[str] | list[str | None]) -> tuple[str, ...]:
    rest = list(cards)
    for card in gone:
        rest.remove(card)  # type: ignore[arg-type]
    return tuple(rest)


def evolve(state: State, event: Event) -> State:
    match event:
        case GameSetUp():
            return State(
                players=tuple(event.players),
                rules=event.rules,
                phase="naming",
                active=event.players[0],
                hands={p: tuple(h) for p, h in event.hands.items()},  # type: ignore[misc]
                stack=tuple(event.stack),  # type: ignore[arg-type]
                start_card=event.start_card,
            )
        case StartProposed(player=p, text=text):
            return replace(
                state, phase="voting", votes={},
                pending=Placed(player=p, card=state.start_card, text=text),
            )
        case StartPenalised(player=p, text=text, reasons=reasons):
            return replace(state, last_outcome={
                "kind": "start_penalised", "player": p, "text": text, "reasons": list(reasons),
            })
        case CardPlayed(player=p, card=card, text=text):
            return replace(
                state, phase="voting", votes={},
                hands={**state.hands, p: _without(state.hands[p], [card])},
                pending=Placed(player=p, card=card, text=text),
            )
        case CardPenalised(player=p, card=card, text=text, reasons=reasons):
            return replace(
                state,
                hands={**state.hands, p: _without(state.hands[p], [card])},
                discard=(*state.discard, card),
                last_outcome={
                    "kind": "penalised", "player": p, "card": card, "text": text,
                    "reasons": list(reasons),
                },
            )
        case VoteCast(player=p, yes=yes):
            return replace(state, votes={**state.votes, p: bool(yes)})
        case VoteClosed(votes=votes, accepted=accepted):
            return _close_vote(state, votes, accepted)
        case CardsSwapped(player=p, cards=cards):
            return replace(
                state,
                hands={**state.hands, p: _without(state.hands[p], cards)},
                discard=(*state.discard, *cards),
                last_outcome={"kind": "swapped", "player": p, "cards": list(cards)},
            )
        case StackReshuffled(stack=stack):
            return replace(state, stack=tuple(stack), discard=())  # type: ignore[arg-type]
        case CardsDrawn(player=p, cards=cards):
            return replace(
                state,
                stack=_without(state.stack, cards),
                hands={**state.hands, p: (*state.hands[p], *cards)},  # type: ignore[misc]
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
        "player": pending.player, "card": pending.card, "text": pending.text,
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


# --- queries --------------------------------------------------------------------------------

def is_terminal(state: State) -> bool:
    return state.phase == "over"


def players_to_act(state: State) -> list[PlayerId]:
    if state.phase in ("naming", "turn"):
        return [state.active]
    if state.phase == "voting" and state.pending is not None:
        return [p for p in state.players if p != state.pending.player and p not in state.votes]
    return []


def example_seed(state: State) -> int:
    """Rotates the example texts from one decision to the next."""
    return state.turns * 5 + len(state.discard) + len(state.chain)


def legal_commands(state: State, player: PlayerId) -> list[Command]:
    """Complete commands; texts are examples from the word list of the table's language, none
    of them one the rules penalise (issue 12 point 8); the view's `free_text` marks them."""
    if player not in players_to_act(state):
        return []
    k = example_seed(state)
    if state.phase == "voting":
        return [Vote(yes=True), Vote(yes=False)]
    if state.phase == "naming":
        return [ProposeStart(text=t) for t in start_examples(state.rules, k)]
    hand = state.hands[player]
    current = state.current_text or ""
    texts = chain_examples(state.rules, current, state.used, k)
    commands: list[Command] = [PlayCard(card=card, text=text) for card in hand for text in texts]
    if state.stack or state.discard:
        commands += [SwapCards(cards=[card]) for card in hand]
        if len(hand) > 1:
            commands.append(SwapCards(cards=list(hand)))
    else:
        commands.append(PassTurn())
    return commands


def result(state: State) -> Result:
    """Illustori 17: every player with an empty hand wins (shared); the others are ranked by
    the cards left in hand. Nobody with an empty hand: no winner."""
    left = {p: len(state.hands[p]) for p in state.players}
    placed = {p: sum(1 for c in state.chain[1:] if c.player == p) for p in state.players}
    res = rank_players(
        state.players, lambda p: left[p], lower_is_better=True,
        details={"cards_left": left, "cards_placed": placed, "chain_length": len(state.chain)},
    )
    winners = [p for p in res.winners if left[p] == 0]
    return replace(res, winners=winners)


# --- bot ------------------------------------------------------------------------------------

def bot(view: View, rng: random.Random) -> dict[str, Any]:
    """Votes at random; names and chains with the examples of `legal`, now and then swapping,
    playing any legal command, or writing a text of its own that the rules penalise (so
    penalties happen too)."""
    legal = view["legal"]
    rules = Rules(**view["rules"])
    roll = rng.random()
    plays = [c for c in legal if c["type"] in ("play_card", "propose_start")]
    if plays and plays[0]["type"] == "play_card" and roll < 0.08:
        used = view["used_letters"]
        bad = penalised_example(rules, view["current_text"] or "", used, rng.randrange(1000))
        if bad is not None:
            return {"type": "play_card", "card": plays[0]["card"], "text": bad}
    if roll < 0.15:
        return dict(rng.choice(legal))
    swaps = [c for c in legal if c["type"] == "swap_cards"]
    if swaps and roll < 0.25:
        return dict(rng.choice(swaps))
    return dict(rng.choice(plays or legal))
