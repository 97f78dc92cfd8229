"""Dozito random play: 1,000+ whole seeded games by the bots over every option and player
count, with the game's invariants after every event (every card once; a face-up numbered
card in its slot; every round score equal to a recomputation from the grids), the folded log
equal to the final state, no turn ever stuck, every event round-tripping through JSON; a leak
test on those games (every redacted event for every viewer; every viewer's view at every step
of one game in eight and at the end of every game, also compared with the view of the same
game with its hidden cards dealt otherwise); and every command of every seat in the states of
one game in 36: accepted exactly when `legal` offers it, else refused with a code."""

from __future__ import annotations

import re
from collections import Counter
from functools import cache
from random import Random

import msgspec

from shared.games.decider import Context, Rejection, fold
from shared.games.dozito import GAME
from shared.games.dozito.cards import DECKS, DISCARD_PILES, ROUND_CHOICES, SLOTS, cards_needed
from shared.games.dozito.messages import (
    DiscardCard, DrawCard, DrawPileRebuilt, GameSetUp, OneColourGridCompleted, PlaceCard,
    RoundDealt, RoundEndTriggered, RoundScored, TakeDiscard,
)
from shared.games.dozito.rules import decide, legal_commands, players_to_act
from shared.games.dozito.state import State, is_one_colour_grid, score_grid, visible_grid
from shared.games.simulate import Simulation, simulate
from shared.games.table import Table, TableDecider

DECIDER = TableDecider(GAME)
GAMES_PER_SETTING = 72  # 14 settings: 1,008 games
SETTINGS = [
    (n, rounds, deck)
    for deck in sorted(DECKS)
    for rounds in ROUND_CHOICES
    for n in range(GAME.min_players, GAME.max_players + 1)
    if len(DECKS[deck]) >= cards_needed(n)
]
CARD_ID = re.compile(r'"([a-z]+-(?:\d+|joker-\d+))"')


def check_invariants(state: State) -> None:
    """The invariants: every card exactly once; a numbered card only in its slot."""
    if state.round == 0:
        return
    where = [c for g in state.grids.values() for c in g] + list(state.draw)
    where += [c for pile in state.discards for c in pile]
    if state.hand is not None:
        where.append(state.hand)
    assert len(where) == len(state.cards) and set(where) == state.cards.keys(), Counter(where)
    for p in state.players:
        for slot, (c, up) in enumerate(zip(state.grids[p], state.face_up[p], strict=True), 1):
            number = state.cards[c].number
            # Dealt cards lie face down anywhere (Dozito 1); placed ones only in their slot.
            assert not up or number is None or number == slot, (p, slot, c)


def check_event(state: State, event: object) -> None:
    """What an event claims holds in the state after it: every round score equals a
    recomputation from the grids as they stand (Dozito 11); the round end is triggered by a
    full grid (Dozito 10); a one-colour grid is one (2.3-9)."""
    match event:
        case RoundScored(scores=scores):
            assert set(scores) == set(state.players)
            for p in state.players:
                assert scores[p] == score_grid(visible_grid(state, p)), (p, scores[p])
        case RoundEndTriggered(player=p):
            assert state.all_face_up(p) and state.current == p
        case OneColourGridCompleted(player=p):
            assert is_one_colour_grid(state, p) and state.current == p


@cache
def played() -> tuple[tuple[tuple[int, int, str], Simulation], ...]:
    """Every game of the test, played once and shared by the tests below."""
    out = []
    seed = 0
    for n, rounds, deck in SETTINGS:
        for _ in range(GAMES_PER_SETTING):
            seed += 1
            last: dict[str, State] = {}

            def after(table: Table, event: object, last: dict[str, State] = last) -> None:
                if table.game is not None:
                    check_invariants(table.game)
                    check_event(table.game, event)
                    prev = last.get("s")
                    # Within a round a face-up card never turns face down again.
                    if prev is not None and prev.round == table.game.round:
                        for p in prev.players:
                            now = table.game.face_up[p]
                            assert all(b or not a for a, b in zip(prev.face_up[p], now, strict=True))
                    last["s"] = table.game

            sim = simulate(
                DECIDER, [f"p{i}" for i in range(n)], Random(seed),
                options={"rounds": rounds, "deck": deck}, after_event=after,
            )
            out.append(((n, rounds, deck), sim))
    return tuple(out)


def test_random_games_keep_the_invariants_and_end_with_a_result_dozito_1_to_12():
    games = played()
    assert len(games) >= 1000
    assert {setting for setting, _ in games} == set(SETTINGS)
    decode = msgspec.json.Decoder(DECIDER.event_type)
    for (n, rounds, deck), sim in games:
        table = sim.table
        assert table.status == "ended" and table.result is not None
        state: State = table.game
        # The folded log equals the incremental state; after every command of a running
        # game some seat must act and has a legal command (no turn is ever stuck).
        folded = DECIDER.initial_state
        for _, batch in sim.log:
            folded = fold(DECIDER.evolve, batch, folded)
            if folded.status == "running" and folded.game is not None:
                to_act = players_to_act(folded.game)
                assert to_act and all(legal_commands(folded.game, p) for p in to_act)
        assert folded == table
        for event in sim.events:
            assert decode.decode(msgspec.json.encode(event)) == event
        res = table.result
        assert res == GAME.result(state) and res.winners
        played_rounds = len(state.round_scores)
        assert played_rounds == rounds or state.one_colour_winner is not None
        # The round score in the result equals a recomputation from the final grids.
        scored = [e for e in sim.events if isinstance(e, RoundScored)]
        assert [e.round for e in scored] == list(range(1, played_rounds + 1))
        for p in state.players:
            assert res.details["round_scores"][p][-1] == score_grid(visible_grid(state, p)).total
            assert res.details["round_scores"][p] == [e.scores[p].total for e in scored]
            assert res.scores[p] == sum(res.details["round_scores"][p])
        assert state.rounds == rounds and len(state.players) == n
        assert len(state.cards) == len(DECKS[deck])


def test_random_games_cover_the_special_cards_and_the_rebuilt_draw_pile():
    kinds = Counter()
    for _, sim in played():
        for e in sim.events:
            kinds[type(e).__name__] += 1
            if type(e).__name__ == "CardDiscarded" and e.extra_turn:
                kinds["extra_turn"] += 1
    assert kinds["DrawPileRebuilt"] and kinds["extra_turn"] and kinds["RoundEndTriggered"]


def _public_ids(state: State) -> set[str]:
    """What anyone may see: face-up grid cards, the card in hand, the discard piles' tops."""
    ids = {c for p in state.players for c, up in zip(state.grids[p], state.face_up[p], strict=True) if up}
    ids |= {pile[-1] for pile in state.discards if pile}
    if state.hand is not None:
        ids.add(state.hand)
    return ids


def shuffle_hidden(state: State, rng: Random) -> State | None:
    """The same game but for the hidden cards: the face-down grid cards of every player and
    the draw pile, dealt again among those places (None when fewer than two are hidden)."""
    places = [(p, i) for p in state.players for i, up in enumerate(state.face_up[p]) if not up]
    ids = [state.grids[p][i] for p, i in places] + list(state.draw)
    if len(ids) < 2:
        return None
    moved = list(ids)
    while moved == ids:
        rng.shuffle(moved)
    grids = {p: list(g) for p, g in state.grids.items()}
    for (p, i), c in zip(places, moved[:len(places)], strict=True):
        grids[p][i] = c
    return msgspec.structs.replace(
        state, grids={p: tuple(g) for p, g in grids.items()},
        draw=tuple(moved[len(places):]),
    )


def _check_views(table: Table, viewers: list[str | None], rng: Random | None = None) -> None:
    """No view names a card that is not public; face-down slots are null; and (with `rng`)
    every view, `legal` included, is the same when the hidden cards lie elsewhere: nothing
    in it depends on where a face-down or draw card is (colours, counts, order)."""
    state: State = table.game
    public = _public_ids(state)
    other = shuffle_hidden(state, rng) if rng is not None else None
    for viewer in viewers:
        view = DECIDER.player_view(table, viewer)
        shown = set(CARD_ID.findall(msgspec.json.encode(view).decode()))
        assert shown <= public, shown - public
        for p in state.players:
            hidden = [c is None for c in view["grids"][p]]
            assert hidden == [not up for up in state.face_up[p]]
        assert view["draw_size"] == len(state.draw)
        if other is not None:
            assert DECIDER.player_view(msgspec.structs.replace(table, game=other), viewer) == view


def test_no_view_or_replay_leaks_a_hidden_card():
    """Face-down cards (to everyone, their owner included) and the draw pile stay hidden:
    every redacted event of every game for every viewer; the views of every viewer after
    every step of one game in eight (each setting in turn), and at the end of every game
    (time budget), each view also compared with the view of the same game with its hidden
    cards dealt otherwise."""
    for index, ((n, _, _), sim) in enumerate(played()):
        viewers = [None, *[f"p{i}" for i in range(n)]]
        _check_views(sim.table, viewers, Random(index))
        _check_replay(sim, viewers, every_step=index % 8 == 0, rng=Random(index))


def _check_replay(
    sim: Simulation, viewers: list[str | None], every_step: bool, rng: Random,
) -> None:
    """Every event as each viewer's replay shows it names only cards face up at that point
    (the deck table of `game_set_up` is the public composition, not where the cards lie)."""
    table = DECIDER.initial_state
    for _, batch in sim.log:
        for event in batch:
            table = DECIDER.evolve(table, event)
            if isinstance(event, GameSetUp) or table.game is None or not table.game.round:
                continue
            public = _public_ids(table.game)
            checked: list[object] = []
            for viewer in viewers:
                seen = DECIDER.redact(event, viewer)
                if any(seen is c for c in checked):  # the same object for several viewers
                    continue
                checked.append(seen)
                if isinstance(seen, RoundDealt):
                    assert all(c is None for g in seen.grids.values() for c in g)
                    assert set(seen.draw) <= {None}
                if isinstance(seen, DrawPileRebuilt):
                    assert set(seen.draw) <= {None}
                shown = set(CARD_ID.findall(msgspec.json.encode(seen).decode()))
                assert shown <= public, (event, shown - public)
        if every_step and table.game is not None and table.game.round:
            _check_views(table, viewers, rng)


ALL_COMMANDS = [
    DrawCard(),
    *[TakeDiscard(pile=i) for i in range(-1, DISCARD_PILES + 1)],
    *[DiscardCard(pile=i) for i in range(-1, DISCARD_PILES + 1)],
    *[PlaceCard(slot=s) for s in range(0, len(SLOTS) + 2)],
]


def test_every_command_of_every_seat_is_legal_or_refused_with_a_code():
    """In states of the random games (every step of one game in 36), every command any
    seat could send is either accepted, and then in that seat's `legal`, or refused with a
    stable code and a message, never raised; a seat not to act gets `not_your_turn`."""
    checked = 0
    for index, (_, sim) in enumerate(played()):
        if index % 36:
            continue
        table = DECIDER.initial_state
        for _, batch in sim.log:
            table = fold(DECIDER.evolve, batch, table)
            state: State = table.game
            if state is None or not state.round:
                continue
            to_act = players_to_act(state)
            for seat in state.players:
                legal = legal_commands(state, seat)
                for command in ALL_COMMANDS:
                    out = decide(state, command, Context(actor=seat, rng=Random(0)))
                    checked += 1
                    if isinstance(out, Rejection):
                        assert command not in legal, (state.phase, command, out)
                        assert re.fullmatch(r"[a-z_]+", out.code) and out.message
                        if seat not in to_act and state.phase != "game_over":
                            assert out.code == "not_your_turn"
                    else:
                        assert command in legal, (state.phase, command)
    assert checked > 20_000
