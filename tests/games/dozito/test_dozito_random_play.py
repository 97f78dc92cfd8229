"""Dozito random play: 1,000+ whole seeded games by the bots over every option and player
count, with the invariants of the issue after every event, the folded log equal to the final
state, every event round-tripping through JSON, and a leak test on those games (every
redacted event for every viewer; every viewer's view at every step of one game in three and at
the end of every game)."""

from __future__ import annotations

import re
from collections import Counter
from functools import cache
from random import Random

import msgspec

from shared.games.decider import fold
from shared.games.dozito import GAME
from shared.games.dozito.cards import DECKS, ROUND_CHOICES, cards_needed
from shared.games.dozito.messages import DrawPileRebuilt, GameSetUp, RoundDealt, RoundScored
from shared.games.dozito.state import State, score_grid, visible_grid
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
    """The issue's invariants: every card exactly once; a numbered card only in its slot."""
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


@cache
def played() -> tuple[tuple[tuple[int, int, str], Simulation], ...]:
    """Every game of the test, played once and shared by the tests below."""
    out = []
    seed = 0
    for n, rounds, deck in SETTINGS:
        for _ in range(GAMES_PER_SETTING):
            seed += 1
            last: dict[str, State] = {}

            def after(table: Table, event: object) -> None:
                if table.game is not None:
                    check_invariants(table.game)
                    prev = last.get("s")
                    # Within a round a face-up card never turns face down again.
                    if prev is not None and prev.round == table.game.round:
                        for p in prev.players:
                            assert all(
                                b or not a for a, b in zip(prev.face_up[p], table.game.face_up[p])
                            )
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
        assert fold(DECIDER.evolve, sim.events, DECIDER.initial_state) == table
        for event in sim.events:
            assert decode.decode(msgspec.json.encode(event)) == event
        res = table.result
        assert res == GAME.result(state) and res.winners
        played_rounds = len(state.round_scores)
        assert played_rounds == rounds or state.one_colour_winner is not None
        # The round score in the result equals a recomputation from the final grids.
        for p in state.players:
            assert res.details["round_scores"][p][-1] == score_grid(visible_grid(state, p)).total
            assert res.scores[p] == sum(res.details["round_scores"][p])
        assert sum(isinstance(e, RoundScored) for e in sim.events) == played_rounds
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
    ids = {c for p in state.players for c, up in zip(state.grids[p], state.face_up[p]) if up}
    ids |= {pile[-1] for pile in state.discards if pile}
    if state.hand is not None:
        ids.add(state.hand)
    return ids


def _check_views(table: Table, viewers: list[str | None]) -> None:
    state: State = table.game
    public = _public_ids(state)
    for viewer in viewers:
        view = DECIDER.player_view(table, viewer)
        shown = set(CARD_ID.findall(msgspec.json.encode(view).decode()))
        assert shown <= public, shown - public
        for p in state.players:
            hidden = [c is None for c in view["grids"][p]]
            assert hidden == [not up for up in state.face_up[p]]
        assert view["draw_size"] == len(state.draw)


def test_no_view_or_replay_leaks_a_hidden_card():
    """Face-down cards (to everyone, their owner included) and the draw pile stay hidden:
    every redacted event of every game for every viewer; the views of every viewer after
    every step of every third game, and at the end of every game (time budget)."""
    for index, ((n, _, _), sim) in enumerate(played()):
        viewers = [None, *[f"p{i}" for i in range(n)]]
        _check_views(sim.table, viewers)
        _check_replay(sim, viewers, every_step=index % 3 == 0)


def _check_replay(sim: Simulation, viewers: list[str | None], every_step: bool) -> None:
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
            _check_views(table, viewers)
