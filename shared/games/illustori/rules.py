"""Illustori's rules (RULES.md section 5): setup, decide, evolve and the queries on a state."""

from __future__ import annotations

import msgspec

from shared.games.decider import (
    Batch,
    Command,
    Context,
    Event,
    PlayerId,
    Randomness,
    Rejection,
    Result,
    rank_players,
)
from shared.games.illustori.chaining import (
    Rules,
    chain_problem,
    clean,
    penalties,
    text_problem,
)
from shared.games.illustori.data import (
    ALPHABET,
    CARD_IDS,
    HAND_SIZE,
)
from shared.games.illustori.examples import chain_examples, start_examples
from shared.games.illustori.messages import (
    CardPenalised,
    CardPlayed,
    CardsDrawn,
    CardsSwapped,
    GameSetUp,
    IllustoriOptions,
    LastRoundStarted,
    PassTurn,
    PlayCard,
    ProposeStart,
    StackReshuffled,
    StartPenalised,
    StartProposed,
    SwapCards,
    TurnEnded,
    TurnPassed,
    UsedLettersCleared,
    Vote,
    VoteCast,
    VoteClosed,
)
from shared.games.illustori.state import State, evolve
from shared.games.turns import DecideByTurns, in_phase

replace = msgspec.structs.replace


# --- options and setup ----------------------------------------------------------------------


def check_options(options: IllustoriOptions, seats: int) -> str | None:
    """A clear message for a bad option, else None."""
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
    options: IllustoriOptions,
    players: tuple[PlayerId, ...],
    rng: Randomness,
) -> list[Event] | Rejection:
    """Illustori 1-2: shuffle, deal 5 each, reveal the top card of the stack."""
    deck = list(CARD_IDS[: options.deck_size])
    rng.shuffle(deck)
    hands: dict[PlayerId, list[str | None]] = {
        p: list(deck[i * HAND_SIZE : (i + 1) * HAND_SIZE]) for i, p in enumerate(players)
    }
    rest = deck[len(players) * HAND_SIZE :]
    return [
        GameSetUp(
            players=list(players),
            rules=rules_of(options),
            hands=hands,
            stack=list(rest[1:]),
            start_card=rest[0],
        )
    ]


# --- the moves (decided after the platform's turn guard: `decide`, at the end) -------------


def _wrong_phase(state: State) -> Rejection:
    needed = {
        "naming": "the first player must name the starting card (propose_start)",
        "voting": "the vote is on (vote)",
        "turn": "it is time to play a card, swap or pass",
    }.get(state.phase, "the game is not in play")
    return Rejection("wrong_phase", f"Not now: {needed}.")


def _propose_start(state: State, command: ProposeStart, ctx: Context) -> list[Event] | Rejection:
    """Illustori 2: any text with letters at both ends (8, 5.3-5); a penalty rejects it."""
    actor, text = ctx.actor, clean(command.text)
    problem = text_problem(text, state.rules.mode, start=True)
    if problem:
        return Rejection(*problem)
    reasons = penalties(state.rules, text, state.used, start=True)
    if reasons:
        return [StartPenalised(player=actor, text=text, reasons=reasons)]
    return [StartProposed(player=actor, text=text)]


def _play_card(state: State, command: PlayCard, ctx: Context) -> list[Event] | Rejection:
    """Illustori 4, 7, 8: refused (nothing changes), penalised (no vote) or put to the vote."""
    actor, card, text = ctx.actor, command.card, clean(command.text)
    if card not in state.hands[actor]:
        return Rejection("card_not_in_hand", f"Card {card} is not in your hand.")
    rules = state.rules
    problem = text_problem(text, rules.mode)
    if problem is None:
        problem = chain_problem(rules, state.current_text or "", text)
    if problem:
        return Rejection(*problem)
    reasons = penalties(rules, text, state.used)
    if not reasons:
        return [CardPlayed(player=actor, card=card, text=text)]
    batch = Batch(evolve, state)
    batch.add(CardPenalised(player=actor, card=card, text=text, reasons=reasons))
    _draw(batch, actor, 1, ctx.rng)
    _end_turn(batch, actor, accepted=False)
    return batch.events


def _swap(state: State, command: SwapCards, ctx: Context) -> list[Event] | Rejection:
    """Illustori 5: discard one or more cards, draw as many."""
    actor, cards = ctx.actor, command.cards
    if not cards:
        return Rejection("no_cards", "Choose at least one card to swap.")
    if len(set(cards)) != len(cards):
        return Rejection("duplicate_card", "Each card can be swapped once.")
    missing = [c for c in cards if c not in state.hands[actor]]
    if missing:
        return Rejection("card_not_in_hand", f"Card {missing[0]} is not in your hand.")
    if not state.stack and not state.discard:
        return Rejection(
            "stack_empty",
            "The stack and the discard pile are empty: play a card or pass.",
        )
    batch = Batch(evolve, state)
    batch.add(CardsSwapped(player=actor, cards=list(cards)))
    _draw(batch, actor, len(cards), ctx.rng)
    _end_turn(batch, actor, accepted=False)
    return batch.events


def _pass(state: State, command: PassTurn, ctx: Context) -> list[Event] | Rejection:
    """Illustori 5: pass, only when there is nothing to draw."""
    if state.stack or state.discard:
        return Rejection(
            "pass_not_allowed",
            "You may pass only when the stack and the discard pile are both empty; play a card or swap.",
        )
    batch = Batch(evolve, state)
    batch.add(TurnPassed(player=ctx.actor))
    _end_turn(batch, ctx.actor, accepted=False)
    return batch.events


def _vote(state: State, command: Vote, ctx: Context) -> list[Event]:
    """Illustori 6: votes are secret until the last is in; accepted iff yes x 2 >= voters."""
    batch = Batch(evolve, state)
    batch.add(VoteCast(player=ctx.actor, yes=command.yes))
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
        _draw(batch, pending.player, 1, ctx.rng)
    _end_turn(batch, pending.player, accepted=accepted)
    return batch.events


def _draw(batch: Batch[State], player: PlayerId, count: int, rng: Randomness) -> None:
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


def _end_turn(batch: Batch[State], player: PlayerId, *, accepted: bool) -> None:
    """Illustori 3, 15, 16: the next player, the last round, the clearing of U."""
    state = batch.state
    if accepted and not state.hands[player] and not state.last_round:
        batch.add(LastRoundStarted(player=player))
    state = batch.state
    done = state.last_round and player == state.first_player
    batch.add(
        TurnEnded(
            player=player,
            accepted=accepted,
            next_player=None if done else state.next_player(player),
        )
    )
    state = batch.state
    if done or not state.rules.no_used_letters:
        return
    if not accepted and state.failed_turns >= len(state.players):
        batch.add(UsedLettersCleared(reason="all_failed"))
    elif accepted and set(ALPHABET) <= set(state.used):
        batch.add(UsedLettersCleared(reason="alphabet_full"))


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
        state.players,
        lambda p: left[p],
        lower_is_better=True,
        details={"cards_left": left, "cards_placed": placed, "chain_length": len(state.chain)},
    )
    winners = [p for p in res.winners if left[p] == 0]
    return replace(res, winners=winners)


# --- decide ---------------------------------------------------------------------------------

decide = DecideByTurns(
    "Illustori",
    {
        ProposeStart: in_phase("naming", _wrong_phase, _propose_start),
        PlayCard: in_phase("turn", _wrong_phase, _play_card),
        SwapCards: in_phase("turn", _wrong_phase, _swap),
        PassTurn: in_phase("turn", _wrong_phase, _pass),
        Vote: in_phase("voting", _wrong_phase, _vote),
    },
    players_to_act=players_to_act,
    is_terminal=is_terminal,
)
