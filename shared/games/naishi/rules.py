"""Naishi's rules: setup, decide, evolve and the queries (RULES.md section 1, "Naishi N").

How a turn maps to commands: a turn is one main action (`develop`, `impose_decree`,
`recall_emissaries`, `declare_end`). A bonus action (`swap_cards`, `discard_river_cards`) may
come before a `develop` (the player then must develop, and sees what the bonus revealed before
choosing) or after it. The turn ends by itself after any main action but `develop`, and after a
`develop` once no bonus is left to take; otherwise `end_turn` gives the bonus up. A bonus before
the Develop is only offered when a Develop can follow, so a turn can never get stuck.
"""

from __future__ import annotations

from itertools import combinations

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
from shared.games.naishi.components import (
    DEALT_PER_PLAYER,
    HAND_MOUNTAINS,
    LINE_MOUNTAINS,
    LINE_SIZE,
    MOUNTAIN,
    PILE_SIZE,
    RIVER_PILES,
    ROWS,
    SWAP_KINDS,
    TIE_BREAKS,
    development_deck,
    kind_of,
    mountain_ids,
)
from shared.games.naishi.messages import (
    CardGiven,
    CardsSwapped,
    ChooseNinjaCopy,
    DeclareEnd,
    DecreeImposed,
    Develop,
    Developed,
    DiscardRiverCards,
    EmissariesRecalled,
    EndTriggered,
    EndTurn,
    GameSetUp,
    GiveCard,
    HandsRevealed,
    HandsShuffled,
    ImposeDecree,
    NaishiOptions,
    NinjaCopied,
    RecallEmissaries,
    RiverCardsDiscarded,
    SwapCards,
    TurnEnded,
    TurnPassed,
)
from shared.games.naishi.scoring import GridScore, ninja_cells, parse_cell_key, score_grid
from shared.games.naishi.state import State, evolve
from shared.games.turns import DecideByTurns, in_phase

replace = msgspec.structs.replace

POSITIONS = range(1, LINE_SIZE + 1)


# --- options and setup (Naishi 1-4) ---------------------------------------------------------


def check_options(options: NaishiOptions, seats: int) -> str | None:
    if seats != 2:
        return f"Naishi is played by exactly 2 players, not {seats}."
    return None


def setup(
    options: NaishiOptions,
    players: tuple[PlayerId, ...],
    rng: Randomness,
) -> list[Event] | Rejection:
    if len(players) != 2:
        return Rejection("bad_player_count", "Naishi is played by exactly 2 players.")
    if options.first_player == "random":
        first = rng.choice(players)
    else:
        first = players[0] if options.first_player == "first_seat" else players[1]
    deck = development_deck()
    rng.shuffle(deck)
    mountains = mountain_ids()
    per_player = LINE_MOUNTAINS + HAND_MOUNTAINS
    lines: dict[PlayerId, list[str]] = {}
    hands: dict[PlayerId, list[str | None]] = {}
    for i, p in enumerate(players):
        own = mountains[i * per_player : (i + 1) * per_player]
        lines[p] = own[:LINE_MOUNTAINS]
        dealt = deck[i * DEALT_PER_PLAYER : (i + 1) * DEALT_PER_PLAYER]
        hands[p] = [*own[LINE_MOUNTAINS:], *dealt]
    rest = deck[len(players) * DEALT_PER_PLAYER :]
    river: list[list[str | None]] = [
        list(rest[i * PILE_SIZE : (i + 1) * PILE_SIZE]) for i in range(RIVER_PILES)
    ]
    return [GameSetUp(players=list(players), first_player=first, lines=lines, hands=hands, river=river)]


# --- the moves (decided after the platform's turn guard: `decide`, at the end) -------------


def _give(state: State, command: GiveCard, ctx: Context) -> list[Event] | Rejection:
    actor = ctx.actor
    offer = _giveable(state, actor)
    if command.card not in offer:
        return Rejection(
            "card_not_in_hand",
            f"You can give one of your Development cards: {' or '.join(offer)}.",
        )
    events: list[Event] = [CardGiven(player=actor, card=command.card)]
    given = {**state.given, actor: command.card}
    if len(given) == len(state.players):
        hands: dict[PlayerId, list[str | None]] = {}
        for p in state.players:  # Naishi 5: the Hand goes into random positions
            cards = [c for c in state.hands[p] if c != given[p]]
            cards.append(given[state.opponent(p)])
            cards.sort()
            ctx.rng.shuffle(cards)
            hands[p] = list(cards)
        events.append(HandsShuffled(hands=hands))
    return events


def _giveable(state: State, player: PlayerId) -> list[str]:
    return sorted(c for c in state.hands[player] if kind_of(c) != MOUNTAIN)


def _bad_place(row: str | None, position: int) -> Rejection | None:
    if row is not None and row not in ROWS:
        return Rejection("bad_row", f'The row must be "line" or "hand", not {row!r}.')
    if not isinstance(position, int) or not 1 <= position <= LINE_SIZE:
        return Rejection("bad_position", f"Positions go from 1 to {LINE_SIZE}, not {position}.")
    return None


def _whole_turn_refused(state: State) -> Rejection | None:
    """Decree, recall and declaring the end are a whole turn: not after a Develop nor a bonus."""
    if state.developed:
        return Rejection("main_action_taken", "You have already developed this turn.")
    if state.bonus_used:
        return Rejection("must_develop", "You took a bonus action before developing: develop now.")
    return None


def _end_turn(state: State, command: EndTurn, ctx: Context) -> list[Event] | Rejection:
    if state.bonus_used and not state.developed:  # Naishi 8: the Develop is owed
        return Rejection("must_develop", "You took a bonus action before developing: develop now.")
    if not state.developed:
        return Rejection(
            "no_main_action_yet",
            "Take a main action first (develop, impose a decree, recall your emissaries or declare the end).",
        )
    return _finish_turn(state, ctx.actor)


def _recall(state: State, command: RecallEmissaries, ctx: Context) -> list[Event] | Rejection:
    actor = ctx.actor
    if refused := _whole_turn_refused(state):
        return refused
    spots = state.recallable(actor)
    if not spots:
        return Rejection("nothing_to_recall", "You have no Emissary on a Swap or Discard spot.")
    return _then_finish(state, actor, EmissariesRecalled(player=actor, spots=spots))


def _declare_end(state: State, command: DeclareEnd, ctx: Context) -> list[Event] | Rejection:
    actor = ctx.actor
    if refused := _whole_turn_refused(state):
        return refused
    if state.end_reason is not None:
        return Rejection("end_already_triggered", "The end of the game is already set.")
    if not state.empty_piles():
        return Rejection(
            "no_empty_pile",
            "You may declare the end only once a River pile is empty.",
        )
    ended = EndTriggered(player=actor, reason="declared", final_player=state.opponent(actor))
    return _then_finish(state, actor, ended)


def _develop(state: State, command: Develop, ctx: Context) -> list[Event] | Rejection:
    actor, row, position = ctx.actor, command.row, command.position
    bad = _bad_place(row, position)
    if bad:
        return bad
    if state.developed:
        return Rejection("already_developed", "You have already developed this turn.")
    pile = state.river[position - 1]
    if not pile:
        return Rejection("pile_empty", f"River pile {position} is empty.")
    event = Developed(
        player=actor,
        row=row,
        position=position,
        discarded=state.row(actor, row)[position - 1],
        taken=pile[0],
        revealed=pile[1] if len(pile) > 1 else None,
    )
    batch = Batch(evolve, state)
    if _bonus_open(batch.add(event), actor):
        return batch.events
    _close_turn(batch, actor)
    return batch.events


def _bonus_check(state: State, actor: PlayerId, action: str) -> Rejection | None:
    if state.bonus_used:
        return Rejection("bonus_already_used", "You have already taken a bonus action this turn.")
    if state.reserve[actor] < 1:
        return Rejection("no_emissary", "You have no Emissary left in your reserve.")
    if state.free_spot(action) is None:
        return Rejection("court_spot_taken", f"Every {action.title()} spot of the Court is taken.")
    return None


def _swap_positions(command: SwapCards) -> tuple[int, int] | Rejection:
    """The two positions a swap names (a Hand-Line swap may name one), or why they are wrong."""
    kind, first, second = command.kind, command.first, command.second
    if kind not in SWAP_KINDS:
        return Rejection(
            "bad_swap_kind",
            f"A swap is one of {', '.join(SWAP_KINDS)}, not {kind!r}.",
        )
    if kind == "hand_line":
        if second is None:
            second = first
        elif second != first:
            return Rejection(
                "bad_position",
                "A Hand card can only be swapped with the Line card at the same position.",
            )
    elif second is None:
        return Rejection("bad_position", "Name the second position of the swap.")
    for p in (first, second):
        bad = _bad_place(None, p)
        if bad:
            return bad
    if kind != "hand_line" and first == second:
        return Rejection("same_position", "Swap two different positions.")
    return first, second


def _swap(state: State, command: SwapCards, ctx: Context) -> list[Event] | Rejection:
    actor, kind = ctx.actor, command.kind
    positions = _swap_positions(command)
    if isinstance(positions, Rejection):
        return positions
    first, second = positions
    bad = _bonus_check(state, actor, "swap")
    if bad:
        return bad
    if kind == "river":
        for p in (first, second):
            if not state.river[p - 1]:
                return Rejection("pile_empty", f"River pile {p} is empty.")
    if not state.developed and not state.river_size():
        return Rejection("nothing_to_develop", "The River is empty: you could not develop.")
    spot = state.free_spot("swap")
    assert spot is not None
    event = CardsSwapped(player=actor, spot=spot, kind=kind, first=first, second=second)
    return _after_bonus(state, actor, event)


def _discard_river(state: State, command: DiscardRiverCards, ctx: Context) -> list[Event] | Rejection:
    actor, first, second = ctx.actor, command.first, command.second
    for p in (first, second):
        bad = _bad_place(None, p)
        if bad:
            return bad
    if first == second:
        return Rejection("same_position", "Discard the cards of two different piles.")
    bad = _bonus_check(state, actor, "discard")
    if bad:
        return bad
    for p in (first, second):
        if not state.river[p - 1]:
            return Rejection("pile_empty", f"River pile {p} is empty.")
    if not state.developed and state.river_size() <= 2:
        return Rejection(
            "nothing_to_develop",
            "Discarding these cards would leave no River card to develop afterwards.",
        )
    spot = state.free_spot("discard")
    assert spot is not None
    piles = [first, second]
    event = RiverCardsDiscarded(
        player=actor,
        spot=spot,
        piles=piles,
        discarded=[state.river[p - 1][0] for p in piles],
        revealed=[state.river[p - 1][1] if len(state.river[p - 1]) > 1 else None for p in piles],
    )
    return _after_bonus(state, actor, event)


def _after_bonus(state: State, actor: PlayerId, event: Event) -> list[Event]:
    if state.developed:  # the bonus after the Develop closes the turn
        return _then_finish(state, actor, event)
    return [event]


def _decree(state: State, command: ImposeDecree, ctx: Context) -> list[Event] | Rejection:
    actor, row, position = ctx.actor, command.row, command.position
    if refused := _whole_turn_refused(state):
        return refused
    bad = _bad_place(row, position)
    if bad:
        return bad
    if state.reserve[actor] < 1:
        return Rejection("no_emissary", "You have no Emissary left in your reserve.")
    if state.free_spot("decree") is None:
        return Rejection("court_spot_taken", "The Imperial Decree has already been imposed.")
    return _then_finish(state, actor, DecreeImposed(player=actor, row=row, position=position))


def _then_finish(state: State, actor: PlayerId, event: Event) -> list[Event]:
    """`event`, then the close of `actor`'s turn as it leaves the state."""
    batch = Batch(evolve, state)
    batch.add(event)
    _close_turn(batch, actor)
    return batch.events


def _bonus_open(state: State, player: PlayerId) -> bool:
    """After the Develop: may the player still take a bonus action (Naishi 8)?"""
    if state.bonus_used or state.reserve[player] < 1:
        return False
    return state.free_spot("swap") is not None or (
        state.free_spot("discard") is not None and len(state.open_piles()) >= 2
    )


def has_main_action(state: State, player: PlayerId) -> bool:
    """Naishi 13: may the player take any main action at the start of a turn?"""
    return bool(
        state.river_size()
        or (state.reserve[player] > 0 and state.free_spot("decree") is not None)
        or state.recallable(player)
        or (state.end_reason is None and state.empty_piles())
    )


def _finish_turn(state: State, player: PlayerId) -> list[Event]:
    """The events that close `player`'s turn (see `_close_turn`)."""
    batch = Batch(evolve, state)
    _close_turn(batch, player)
    return batch.events


def _close_turn(batch: Batch[State], player: PlayerId) -> None:
    """Close `player`'s turn: the end checks (Naishi 11-12), the next turn or the end of the
    game (Naishi 14), and the passes of a player with no action (Naishi 13)."""
    state = batch.state
    over = state.end_reason is not None and state.final_player == player
    if state.end_reason is None and state.empty_piles() >= 2:
        final = None if player == state.second_player else state.second_player
        batch.add(EndTriggered(player=player, reason="two_piles_empty", final_player=final))
        over = final is None
    if over:
        batch.add(*_end_of_game(batch.state, player))
        return
    following = state.opponent(player)
    batch.add(TurnEnded(player=player, next_player=following))
    if not has_main_action(batch.state, following):
        batch.add(TurnPassed(player=following))
        _close_turn(batch, following)


def _end_of_game(state: State, player: PlayerId) -> list[Event]:
    events: list[Event] = [
        TurnEnded(player=player, next_player=None),
        HandsRevealed(hands={p: list(state.hands[p]) for p in state.players}),
    ]
    for p in state.players:  # Naishi 16: automatic when there is at most one candidate
        choices = state.ninja_choices(p)
        if len(choices) > 1:
            continue
        for row, col in ninja_cells(state.grid(p)):
            events.append(
                NinjaCopied(
                    player=p,
                    row=ROWS[row],
                    position=col + 1,
                    copies=choices[0] if choices else None,
                    automatic=True,
                )
            )
    return events


def _choose_ninja(state: State, command: ChooseNinjaCopy, ctx: Context) -> list[Event] | Rejection:
    actor = ctx.actor
    bad = _bad_place(command.row, command.position)
    if bad:
        return bad
    cell = (ROWS.index(command.row), command.position - 1)
    if state.grid(actor)[cell] != "ninja":
        return Rejection("not_a_ninja", f"Your {command.row} {command.position} is not a Ninja.")
    if cell not in state.pending_ninjas(actor):
        return Rejection("already_chosen", "This Ninja has already chosen what it copies.")
    choices = state.ninja_choices(actor)
    if command.copies not in choices:
        return Rejection(
            "cannot_copy",
            f"This Ninja can copy a character of your territory: {', '.join(choices)}.",
        )
    return [
        NinjaCopied(
            player=actor, row=command.row, position=command.position, copies=command.copies, automatic=False
        )
    ]


# --- queries --------------------------------------------------------------------------------


def is_terminal(state: State) -> bool:
    return state.phase == "end" and not any(state.pending_ninjas(p) for p in state.players)


def players_to_act(state: State) -> list[PlayerId]:
    if state.phase == "exchange":
        return [p for p in state.players if p not in state.given]
    if state.phase == "turns" and state.active is not None:
        return [state.active]
    if state.phase == "end":
        return [p for p in state.players if state.pending_ninjas(p)]
    return []


def legal_commands(state: State, player: PlayerId) -> list[Command]:
    if player not in players_to_act(state):
        return []
    match state.phase:
        case "exchange":
            return [GiveCard(card=c) for c in _giveable(state, player)]
        case "end":
            return _ninja_copies(state, player)
    developments: list[Command] = (
        [] if state.developed else [Develop(row=row, position=p) for p in state.open_piles() for row in ROWS]
    )
    closing = [EndTurn()] if state.developed else _whole_turns(state, player)
    return [*developments, *_bonus_actions(state, player), *closing]


def _ninja_copies(state: State, player: PlayerId) -> list[Command]:
    """Naishi 16: every pending Ninja, every character it may copy."""
    choices = state.ninja_choices(player)
    return [
        ChooseNinjaCopy(row=ROWS[row], position=col + 1, copies=kind)
        for row, col in state.pending_ninjas(player)
        for kind in choices
    ]


def _whole_turns(state: State, player: PlayerId) -> list[Command]:
    """Naishi 7: the main actions that are a whole turn, open before any other action."""
    if state.bonus_used:  # Naishi 8: the Develop is owed
        return []
    out: list[Command] = []
    if state.reserve[player] > 0 and state.free_spot("decree"):
        out += [ImposeDecree(row=row, position=p) for row in ROWS for p in POSITIONS]
    if state.recallable(player):
        out.append(RecallEmissaries())
    if state.end_reason is None and state.empty_piles():
        out.append(DeclareEnd())
    return out


def _bonus_actions(state: State, player: PlayerId) -> list[Command]:
    """Naishi 8: one swap or discard a turn, with an Emissary, when a Develop can still follow."""
    if state.bonus_used or state.reserve[player] < 1:
        return []
    piles = state.open_piles()
    out: list[Command] = []
    if state.free_spot("swap") and (state.developed or state.river_size() > 0):
        out += [SwapCards(kind="river", first=a, second=b) for a, b in combinations(piles, 2)]
        out += [SwapCards(kind=row, first=a, second=b) for row in ROWS for a, b in combinations(POSITIONS, 2)]
        out += [SwapCards(kind="hand_line", first=p) for p in POSITIONS]
    if state.free_spot("discard") and (state.developed or state.river_size() > 2):
        out += [DiscardRiverCards(first=a, second=b) for a, b in combinations(piles, 2)]
    return out


def copies_of(state: State, player: PlayerId) -> dict[tuple[int, int], str | None]:
    return {parse_cell_key(k): v for k, v in state.copies.get(player, {}).items()}


def scores(state: State) -> dict[PlayerId, GridScore]:
    """Each territory's score breakdown (Naishi 14-16)."""
    return {p: score_grid(state.grid(p), copies_of(state, p)) for p in state.players}


def result(state: State) -> Result:
    table = scores(state)

    def tiebreak(p: PlayerId) -> tuple[int, ...]:
        return (table[p]["colours"],)  # TIE_BREAKS

    return rank_players(
        state.players,
        lambda p: table[p]["total"],
        tiebreak,
        details={
            "tie_breaks": list(TIE_BREAKS),
            "scores": table,
            "territories": {
                p: {"line": list(state.lines[p]), "hand": list(state.hands[p])} for p in state.players
            },
            "ninja_copies": {p: dict(state.copies.get(p, {})) for p in state.players},
        },
    )


# --- decide ---------------------------------------------------------------------------------


def _turns_only(state: State) -> Rejection:
    what = "the opening exchange" if state.phase == "exchange" else "the end of the game"
    return Rejection("wrong_phase", f"No turns are played during {what}.")


def _ninjas_only(state: State) -> Rejection:
    return Rejection("wrong_phase", "Ninjas choose what they copy at the end of the game.")


def _exchange_only(state: State) -> Rejection:
    return Rejection("wrong_phase", "The opening exchange is over.")


decide = DecideByTurns(
    "Naishi",
    {
        GiveCard: in_phase("exchange", _exchange_only, _give),
        ChooseNinjaCopy: in_phase("end", _ninjas_only, _choose_ninja),
        Develop: in_phase("turns", _turns_only, _develop),
        SwapCards: in_phase("turns", _turns_only, _swap),
        DiscardRiverCards: in_phase("turns", _turns_only, _discard_river),
        EndTurn: in_phase("turns", _turns_only, _end_turn),
        ImposeDecree: in_phase("turns", _turns_only, _decree),
        RecallEmissaries: in_phase("turns", _turns_only, _recall),
        DeclareEnd: in_phase("turns", _turns_only, _declare_end),
    },
    players_to_act=players_to_act,
    is_terminal=is_terminal,
)
