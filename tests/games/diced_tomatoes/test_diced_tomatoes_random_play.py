"""Diced Tomatoes random play: 1,020 seeded whole games by bots, every player count (1-6) with
every combination of the options, with the game's invariants checked after every
event, the folded log equal to the final state, every event round-tripping through JSON, the
result's scores recomputed, and a leak test of every view and redacted event.

Diced Tomatoes 1-18: the bots play whole games through every rule, so this test cites them all.
"""

from __future__ import annotations

import random
from collections import Counter
from itertools import product

import msgspec

from shared.games.decider import Context, Rejection, fold
from shared.games.diced_tomatoes import GAME
from shared.games.diced_tomatoes.messages import (
    DicedTomatoesOptions, DiceRolled, DieChanged, DiePlaced, GameSetUp, KarmaGained,
    PlantUprooted, PlayEnded, TurnEnded,
)
from shared.games.diced_tomatoes.state import State
from shared.games.simulate import simulate
from shared.games.table import GameEnded, Table, TableDecider

DECIDER = TableDecider(GAME)
GAMES = 1020
PLAYERS = ("ann", "bob", "cy", "dee", "eve", "fay")
OPTION_SETS = [
    {"tomato_dice": t, "karma_overdose": k, "golden_sun": g, "dice_bonus": b,
     "reroll_passed_dice": r}
    for t, k, g, b, r in product(
        (False, True), (False, True), (False, True), ("pooled", "per_plant"), (True, False),
    )
]


EVERY_PAIR = 6 * len(OPTION_SETS)


def game_setting(index: int) -> tuple[int, dict]:
    """The player count (1..6) and options of game `index`: first every player count with every
    option set, twice; then the cheaper 1-3 player tables, cycling through the option sets (a
    6-player game costs as much as six solo games)."""
    if index < 2 * EVERY_PAIR:
        pair = index % EVERY_PAIR
        return pair % 6 + 1, OPTION_SETS[pair // 6]
    return index % 3 + 1, OPTION_SETS[(index // 3) % len(OPTION_SETS)]


# --- invariants, written independently of the rules module ------------------------


def is_set_or_straight(faces: list[int]) -> bool:
    if len(set(faces)) == 1:
        return True
    return sorted(faces) == list(range(min(faces), min(faces) + len(faces)))


def check_invariants(table: Table, event) -> None:
    state: State = table.game
    if state is None or not state.players:
        return
    n = len(state.players)
    per_player = 14 if state.options.golden_sun else 13
    if isinstance(event, GameSetUp):  # colours never change afterwards
        assert Counter(state.colours) == Counter(
            {"red": 11 * n, "black": 2 * n, **({"golden": n} if state.options.golden_sun else {})},
        )
    # Every die exactly once across bushel, hand (rolled or passed), plants and score tracks.
    where = list(state.bushel) + [d.id for d in state.hand] + [d.id for d in state.passed]
    for p in state.players:
        where += [d.id for plant in state.plants[p] for d in plant]
        where += [s.die for s in state.tracks[p]]
    assert sorted(where) == list(range(per_player * n)), "a die is lost or doubled"
    assert state.phase != "take" or not state.hand
    for p in state.players:
        karma = state.karma[p]
        assert 0 <= karma <= 12
        if p != state.active or state.phase == "over":
            assert karma <= 6, f"{p} holds {karma} karma outside their turn"
        assert 0 <= state.thirds[p] < 3
        assert len(state.tracks[p]) <= 6
        for slot in state.tracks[p]:
            assert 1 <= slot.value <= 6
            assert state.colours[slot.die] == "red"
        assert len(state.plants[p]) == 3
        for plant in state.plants[p]:
            # A 4th die stands on its plant only between `die_placed` and the harvest (or
            # uproot) that follows in the same command.
            assert len(plant) <= (4 if isinstance(event, DiePlaced) else 3)
            if plant:
                assert state.colours[plant[0].id] == "red", "a seed is red"
                assert is_set_or_straight([d.face for d in plant]), plant
    if isinstance(event, TurnEnded) and state.phase != "over":
        # Outside a turn, plants are neither rotten nor overripe (3.1-9).
        for p in state.players:
            for plant in state.plants[p]:
                if plant:
                    value = plant[0].face + sum(
                        {"red": 0, "black": -1, "golden": 1}[state.colours[d.id]]
                        for d in plant[1:]
                    )
                    assert 1 <= value <= 6


def recomputed_scores(state: State) -> dict[str, int]:
    """The scores of 3.1-13 / 3.1-18, computed again from the final state."""
    scores = {}
    for p in state.players:
        track = state.tracks[p]
        if len(state.players) == 1:
            scores[p] = sum(1 for i, s in enumerate(track) if s.value == i + 1)
            continue
        stars = sum(7 - (i + 1) for i, s in enumerate(track)
                    if state.options.tomato_dice and s.value == i + 1)
        sizes = [len(plant) for plant in state.plants[p] if plant]
        if state.options.dice_bonus == "pooled":
            bonus = sum(sizes) // 3
        else:
            bonus = sizes.count(3)
        first = 2 if state.first_full == p and not state.options.tomato_dice else 0  # 3.1-13
        scores[p] = sum(s.value for s in track) + stars + state.karma[p] // 2 + bonus + first
    return scores


# --- leak test -------------------------------------------------------------------------------

PRIVATE_KEYS = {"you", "legal"}
# Every key a view may have: the platform's and the game's (docs/games/diced_tomatoes.md, View).
VIEW_KEYS = {
    "game", "status", "seats", "seat_count", "creator", "options", "to_act", "legal", "result",
    "you", "players", "solo", "phase", "round", "turn", "active_player", "first_player",
    "last_player",
    "start_rolls", "bushel", "dice_to_take", "hand", "passed", "plants", "tracks", "karma",
    "karma_thirds", "karma_costs", "final_round", "first_full_track", "scores", "end_reason",
}


def faces_shown(value) -> set[int]:
    """The dice to which any part of a view or event (at any depth) gives a face."""
    found: set[int] = set()
    if isinstance(value, dict):
        if "die" in value and "face" in value:
            found.add(value["die"])
        if "dice" in value and "faces" in value:
            found.update(value["dice"])
        for v in value.values():
            found |= faces_shown(v)
    elif isinstance(value, (list, tuple)):
        for v in value:
            found |= faces_shown(v)
    return found


def check_views(table: Table) -> None:
    """All dice are public, only the future is hidden: every seat sees what a spectator sees
    (plus its own seat name and, when acting, its legal commands), no view has a key beyond the
    documented ones, and no part of any view shows a face for a die in the bushel (its next
    roll is the only unknown)."""
    spectator = DECIDER.player_view(table, None)
    assert "legal" not in spectator and spectator["you"] is None
    public = {k: v for k, v in spectator.items() if k not in PRIVATE_KEYS}
    state: State = table.game
    bushel = set(state.bushel)
    assert sum(spectator["bushel"].values()) == len(bushel)
    to_act = set(DECIDER.players_to_act(table))
    assert set(spectator) <= VIEW_KEYS, set(spectator) - VIEW_KEYS
    assert not bushel & faces_shown(spectator), "a view shows a face of a die in the bushel"
    for seat in table.players:
        view = DECIDER.player_view(table, seat)
        assert view["you"] == seat
        assert ("legal" in view) == (seat in to_act)
        # The rest of a seat's view is the spectator's, checked above.
        assert {k: v for k, v in view.items() if k not in PRIVATE_KEYS} == public
        assert set(view) <= VIEW_KEYS, set(view) - VIEW_KEYS
        assert not bushel & faces_shown(view.get("legal", [])), "legal shows a bushel face"


def check_event_faces(table: Table, event) -> None:
    """No event (all are public, `redact` keeps them whole) gives a face to a die that is in the
    bushel once it applies: faces are written only for dice just rolled or on the table."""
    state: State = table.game
    if state is None or not state.players:
        return
    shown = faces_shown(msgspec.to_builtins(event))
    assert not set(state.bushel) & shown, f"{event} shows a face of a die in the bushel"


def check_all_legal_accepted(table: Table) -> None:
    """Every command of `legal` is accepted, not only the ones the bots pick."""
    for player in DECIDER.players_to_act(table):
        for command in DECIDER.legal_commands(table, player):
            outcome = DECIDER.decide(table, command, Context(actor=player, rng=random.Random(0)))
            assert not isinstance(outcome, Rejection), (command, outcome)


def test_random_play_of_1020_games_keeps_every_invariant_diced_tomatoes_1_to_18():
    ends = Counter()
    seen = Counter()
    played = Counter()
    for index in range(GAMES):
        n, options = game_setting(index)
        players = PLAYERS[:n]
        rng = random.Random(index)
        # Views: after every event in one game of twenty, else after every 4th turn and at the
        # end (a view costs as much as a move: every event of every game would take minutes).
        every_event = index % 20 == 0

        def after_event(table: Table, event, every_event=every_event) -> None:
            check_invariants(table, event)
            check_event_faces(table, event)
            if table.game is None or not table.game.players:
                return
            if every_event or isinstance(event, GameEnded) or (
                isinstance(event, TurnEnded) and table.game.turn % 4 == 0
            ):
                check_views(table)
            if every_event and isinstance(event, (DiceRolled, TurnEnded)):
                check_all_legal_accepted(table)

        sim = simulate(DECIDER, players, rng, options=options, after_event=after_event)
        table = sim.table
        assert table.status == "ended" and table.result is not None
        assert fold(DECIDER.evolve, sim.events, DECIDER.initial_state) == table
        events = sim.events
        encoded = msgspec.json.encode(events)
        assert msgspec.json.decode(encoded, type=list[DECIDER.event_type]) == events
        for event in events:
            for viewer in (None, *players):
                assert DECIDER.redact(event, viewer) == event  # nothing is secret
        state: State = table.game
        assert table.result.scores == recomputed_scores(state)
        assert isinstance(events[-1], GameEnded) and isinstance(events[-2], PlayEnded)
        rolled = [e for e in events if isinstance(e, DiceRolled)]
        assert all(len(e.dice) == len(e.faces) for e in rolled)
        assert sum(isinstance(e, GameSetUp) for e in events) == 1
        assert msgspec.convert(table.options, DicedTomatoesOptions) == DicedTomatoesOptions(
            **options,
        )
        ends[state.end_reason] += 1
        seen.update(type(e).__name__ for e in events)
        seen.update(f"{type(e).__name__}:{e.cause}" for e in events if isinstance(e, PlantUprooted))
        seen.update(f"{type(e).__name__}:{e.effect}" for e in events if isinstance(e, DieChanged))
        seen.update("karma_above_6" for e in events if isinstance(e, KarmaGained) and e.karma > 6)
        played[(n, tuple(sorted(options.items())))] += 1
    assert sum(played.values()) == GAMES
    assert {n for n, _ in played} == {1, 2, 3, 4, 5, 6}
    assert len(played) == 6 * 32, "every option combination with every player count"
    assert ends["final_round"] and ends["empty_bushel"] and ends["out_of_dice"], ends
    # The bots went through every event, uproot cause and karma effect.
    wanted = {e.__name__ for e in GAME.events} | {"karma_above_6"}
    wanted |= {f"PlantUprooted:{c}" for c in ("karma", "rotten", "overripe")}
    wanted |= {f"DieChanged:{e}" for e in ("reroll", "adjust", "invert", "set")}
    assert wanted <= set(seen), wanted - set(seen)
