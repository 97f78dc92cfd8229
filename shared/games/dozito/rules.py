"""Dozito's rules (RULES.md section 2): options, setup, decide, evolve and the queries."""

from __future__ import annotations

from collections.abc import Sequence

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
from shared.games.dozito.cards import (
    CARDS_PER_DISCARD_PILE_AT_SETUP,
    DECKS,
    DISCARD_PILES,
    SLOTS,
    cards_needed,
)
from shared.games.dozito.messages import (
    CardDiscarded,
    CardDrawn,
    CardPlaced,
    DiscardCard,
    DiscardTaken,
    DozitoOptions,
    DrawCard,
    DrawPileRebuilt,
    GameSetUp,
    OneColourGridCompleted,
    PlaceCard,
    RoundDealt,
    RoundEndTriggered,
    RoundScored,
    TakeDiscard,
    TurnStarted,
)
from shared.games.dozito.state import (
    State,
    evolve,
    is_one_colour_grid,
    score_grid,
    targets,
    visible_grid,
)
from shared.games.turns import DecideByTurns

replace = msgspec.structs.replace

ACTING_PHASES = frozenset({"turn_start", "place_or_discard", "must_place", "must_discard"})


def check_options(options: DozitoOptions, seats: int) -> str | None:
    if options.deck not in DECKS:
        return f"Unknown deck {options.deck!r}; the decks are: {', '.join(sorted(DECKS))}."
    needed = cards_needed(seats)
    if len(DECKS[options.deck]) < needed:
        return (
            f"The {options.deck} deck has {len(DECKS[options.deck])} cards; "
            f"{seats} players need at least {needed}."
        )
    return None


# --- setup ----------------------------------------------------------------------------------


def setup(
    options: DozitoOptions,
    players: tuple[PlayerId, ...],
    rng: Randomness,
) -> list[Event] | Rejection:
    """Dozito 1-3 for round 1: the deck table, a shuffled deal, a random first player."""
    deck = list(DECKS[options.deck])
    started = GameSetUp(players=list(players), rounds=options.rounds, deck=deck)
    first = rng.choice(players)  # Dozito 3: round 1 at random (ASSUMED)
    return [started, _deal(players, [c.id for c in deck], 1, first, rng)]


def _deal(
    players: Sequence[PlayerId],
    card_ids: list[str],
    round_: int,
    first: PlayerId,
    rng: Randomness,
) -> RoundDealt:
    """Dozito 1-2: shuffle all cards, 12 face down per player (slot by slot), one card face up
    onto each discard pile, the rest is the draw pile."""
    order = sorted(card_ids)
    rng.shuffle(order)
    n = len(SLOTS)
    grids: dict[PlayerId, list[str | None]] = {
        p: list(order[i * n : (i + 1) * n]) for i, p in enumerate(players)
    }
    rest = order[len(players) * n :]
    k = CARDS_PER_DISCARD_PILE_AT_SETUP
    discards = [rest[i * k : (i + 1) * k] for i in range(DISCARD_PILES)]
    draw: list[str | None] = list(rest[DISCARD_PILES * k :])
    return RoundDealt(round=round_, first_player=first, grids=grids, discards=discards, draw=draw)


# --- the moves (decided after the platform's turn guard: `decide`, at the end) -------------


def _holding(state: State) -> Rejection:
    """A card is in hand: say what may be done with it (Dozito 4-7)."""
    match state.phase:
        case "must_place":
            todo = "it was taken from a discard pile: place it in your grid"
        case "must_discard":
            todo = "it was replaced: put it onto a discard pile"
        case _:
            todo = "place it or discard it"
    return Rejection(
        "card_in_hand",
        f"You already hold {state.hand}; {todo} before anything else.",
    )


def _bad_pile(pile: int) -> Rejection | None:
    if 0 <= pile < DISCARD_PILES:
        return None
    return Rejection(
        "bad_pile",
        f"There is no discard pile {pile}; the piles are 0 to {DISCARD_PILES - 1}.",
    )


def _take_discard(state: State, command: TakeDiscard, ctx: Context) -> list[Event] | Rejection:
    """Dozito 4 (choice A)."""
    pile = command.pile
    if state.phase != "turn_start":
        return _holding(state)
    if bad := _bad_pile(pile):
        return bad
    if not state.discards[pile]:
        return Rejection("empty_pile", f"Discard pile {pile} is empty; take from the other one.")
    return [DiscardTaken(player=ctx.actor, pile=pile, card=state.discards[pile][-1])]


def _draw(state: State, command: DrawCard, ctx: Context) -> list[Event] | Rejection:
    """Dozito 5 (choice B), with 2.3-4 when the draw pile has run out."""
    actor = ctx.actor
    if state.phase != "turn_start":
        return _holding(state)
    if state.draw:
        return [CardDrawn(player=actor, card=state.draw[0])]
    if not state.can_rebuild_draw():
        return Rejection(
            "draw_pile_empty",
            "The draw pile is empty and the discard piles hold only their top cards; take a discard instead.",
        )
    under = sorted(c for pile in state.discards for c in pile[:-1])
    ctx.rng.shuffle(under)
    return [DrawPileRebuilt(draw=list(under)), CardDrawn(player=actor, card=under[0])]


def _place(state: State, command: PlaceCard, ctx: Context) -> list[Event] | Rejection:
    """Dozito 4-7 and 9: put the card in hand into a slot; the slot's card is replaced."""
    actor, slot = ctx.actor, command.slot
    if state.phase == "turn_start":
        return Rejection("no_card_in_hand", "Take a discard or draw a card first.")
    if state.phase == "must_discard":
        return Rejection(
            "must_discard",
            f"{state.hand} was replaced and must go onto a discard pile.",
        )
    if slot not in SLOTS:
        return Rejection("bad_slot", f"There is no slot {slot}; the slots are 1 to {len(SLOTS)}.")
    assert state.hand is not None
    card = state.card(state.hand)
    if slot not in targets(card):
        return Rejection(
            "wrong_slot",
            f"{card.id} can only go into slot {card.number}, not slot {slot}.",
        )
    return [
        CardPlaced(
            player=actor,
            slot=slot,
            card=card.id,
            replaced=state.grids[actor][slot - 1],
            replaced_was_face_up=state.face_up[actor][slot - 1],
        )
    ]


def _discard(state: State, command: DiscardCard, ctx: Context) -> list[Event] | Rejection:
    """Put the card in hand onto a discard pile (2.3-5: the player's choice); the turn ends."""
    actor, pile = ctx.actor, command.pile
    if state.phase == "turn_start":
        return Rejection("no_card_in_hand", "You hold no card to discard; take or draw first.")
    if state.phase == "must_place":
        return Rejection(
            "must_place",
            f"{state.hand} was taken from a discard pile and must be placed in your grid.",
        )
    if bad := _bad_pile(pile):
        return bad
    assert state.hand is not None
    card = state.card(state.hand)
    # Dozito 8: a Replay discarded from the grid or from the draw gives a new turn (2.3-3:
    # one taken from a discard pile cannot be discarded, it must be placed).
    extra = card.kind == "replay" and state.hand_from in ("draw", "grid")
    batch = Batch(evolve, state)
    batch.add(CardDiscarded(player=actor, pile=pile, card=card.id, extra_turn=extra))
    _end_turn(batch, ctx.rng)
    return batch.events


def _seats_after(players: Sequence[PlayerId], player: PlayerId) -> list[PlayerId]:
    """The other players in seating order, starting after `player`."""
    i = players.index(player)
    return [players[(i + k) % len(players)] for k in range(1, len(players))]


def _end_turn(batch: Batch[State], rng: Randomness) -> None:
    """What follows a turn's end: an instant win, the round end trigger, the next turn, the
    round's scoring and the next deal."""
    state = batch.state
    player = state.current
    if is_one_colour_grid(state, player):  # 2.3-9: checked at the end of every turn
        batch.add(OneColourGridCompleted(player=player), _scored(state))
        return
    if state.ending_by is None and state.all_face_up(player):  # Dozito 10
        state = batch.add(RoundEndTriggered(player=player, last_turns=_seats_after(state.players, player)))
    if state.extra_turn:  # Dozito 8, also during the last turns (2.3-7)
        batch.add(TurnStarted(player=player, extra_turn=True))
    elif state.ending_by is None:
        batch.add(TurnStarted(player=_seats_after(state.players, player)[0]))
    elif state.last_turns:
        batch.add(TurnStarted(player=state.last_turns[0]))
    elif batch.add(_scored(state)).phase == "round_over":
        state = batch.state
        batch.add(
            _deal(
                state.players,
                list(state.cards),
                state.round + 1,
                _next_first_player(state),
                rng,
            )
        )


def _scored(state: State) -> RoundScored:
    """Dozito 11: every player's round score from the face-up cards."""
    return RoundScored(
        round=state.round,
        scores={p: score_grid(visible_grid(state, p)) for p in state.players},
    )


def _next_first_player(state: State) -> PlayerId:
    """Dozito 3: the lowest total score; a tie goes to the earliest in seating order starting
    from the previous first player (ASSUMED)."""
    totals = state.totals()
    order = [state.first_player, *_seats_after(state.players, state.first_player)]
    return min(order, key=lambda p: totals[p])  # min keeps the first of equals


# --- queries --------------------------------------------------------------------------------


def is_terminal(state: State) -> bool:
    return state.phase == "game_over"


def players_to_act(state: State) -> list[PlayerId]:
    return [state.current] if state.phase in ACTING_PHASES else []


def legal_commands(state: State, player: PlayerId) -> list[Command]:
    if player not in players_to_act(state):
        return []
    piles = range(DISCARD_PILES)
    match state.phase:
        case "turn_start":
            out: list[Command] = [TakeDiscard(pile=i) for i in piles if state.discards[i]]
            if state.can_draw():
                out.append(DrawCard())
            return out
        case "must_discard":
            return [DiscardCard(pile=i) for i in piles]
    assert state.hand is not None
    out = [PlaceCard(slot=s) for s in targets(state.card(state.hand))]
    if state.phase == "place_or_discard":
        out += [DiscardCard(pile=i) for i in piles]
    return out


def result(state: State) -> Result:
    """Dozito 12: highest total; tie -> highest single-round score; still tied -> shared.
    A one-colour grid (Dozito 11) wins outright, the others ranked after it as usual."""
    totals = state.totals()
    best = {p: max((r[p].total for r in state.round_scores), default=0) for p in state.players}
    winner = state.one_colour_winner

    details = {
        "round_scores": {p: [r[p].total for r in state.round_scores] for p in state.players},
        "best_round": best,
        "rounds": [msgspec.to_builtins(r) for r in state.round_scores],
        "one_colour_grid": winner,
    }
    return rank_players(
        state.players,
        lambda p: totals[p],
        lambda p: best[p],
        details=details,
        outright=lambda p: p == winner,
    )


# --- decide ---------------------------------------------------------------------------------

decide = DecideByTurns(
    "Dozito",
    {
        TakeDiscard: _take_discard,
        DrawCard: _draw,
        PlaceCard: _place,
        DiscardCard: _discard,
    },
    players_to_act=players_to_act,
    is_terminal=is_terminal,
)
