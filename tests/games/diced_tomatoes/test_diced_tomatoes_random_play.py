"""Diced Tomatoes' own invariants in whole bot games, on top of the conformance suite (which
checks the folded log, JSON, legal commands, refusals and secrets for every game): every die
exactly once, karma and tracks in bounds, plants sets or straights and never rotten or overripe
between turns, the scores recomputed (3.1-13, 3.1-18); every view the spectator's but for the
seat's own words, no face shown for a die in the bushel. The quick run plays each option set
and player count once; the `slow` run `TABLETOP_TEST_GAMES` games, and insists that they met
every event, every end, every uproot cause and karma effect."""

from __future__ import annotations

from collections import Counter
from typing import Any

import msgspec
import pytest

from shared.games.diced_tomatoes import GAME
from shared.games.diced_tomatoes.messages import (
    DieChanged,
    DiePlaced,
    GameSetUp,
    GameStartedLogged,
    KarmaGained,
    PlantUprooted,
    PlayEnded,
    TurnEnded,
)
from shared.games.diced_tomatoes.state import State
from shared.games.table import RESERVED_VIEW_KEYS, GameEnded, SeedRevealed, Table, TableDecider
from tests.conformance.conformance import GAMES, cases, play, quick_cases

DECIDER = TableDecider(GAME)


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
                        {"red": 0, "black": -1, "golden": 1}[state.colours[d.id]] for d in plant[1:]
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
        stars = sum(
            7 - (i + 1) for i, s in enumerate(track) if state.options.tomato_dice and s.value == i + 1
        )
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
VIEW_KEYS = RESERVED_VIEW_KEYS | {
    "you",
    "players",
    "solo",
    "phase",
    "round",
    "turn",
    "active_player",
    "first_player",
    "last_player",
    "start_rolls",
    "bushel",
    "dice_to_take",
    "hand",
    "passed",
    "plants",
    "tracks",
    "karma",
    "karma_thirds",
    "karma_costs",
    "final_round",
    "first_full_track",
    "scores",
    "end_reason",
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


class Invariants:
    """The checks after every event, and what the games met."""

    def __init__(self) -> None:
        self.seen: Counter[str] = Counter()

    def __call__(self, table: Table, event: Any) -> None:
        check_invariants(table, event)
        check_event_faces(table, event)
        if table.game is not None and table.game.players and isinstance(event, TurnEnded):
            check_views(table)
        self.seen[type(event).__name__] += 1
        match event:
            case PlantUprooted(cause=cause):
                self.seen[f"PlantUprooted:{cause}"] += 1
            case DieChanged(effect=effect):
                self.seen[f"DieChanged:{effect}"] += 1
            case KarmaGained(karma=karma) if karma > 6:
                self.seen["karma_above_6"] += 1
            case PlayEnded(reason=reason):
                self.seen[f"end:{reason}"] += 1


def run(seed: int, options: dict[str, Any], seats: int, invariants: Invariants) -> None:
    played = play(DECIDER, seed, options, seats, invariants=invariants)
    assert played is not None and played.sim is not None
    table = played.sim.table
    assert table.result is not None and table.result.scores == recomputed_scores(table.game)
    events = played.sim.events
    assert isinstance(events[-1], SeedRevealed) and isinstance(events[-2], GameEnded)
    assert isinstance(events[-3], PlayEnded)
    assert msgspec.convert(table.options, type(GAME.options())) == GAME.options(**options)


def test_diced_tomatoes_invariants_in_every_option_set_and_player_count_1_to_18():
    invariants = Invariants()
    for seed, options, seats in quick_cases(DECIDER):
        run(seed, options, seats, invariants)
    assert invariants.seen[GameSetUp.__name__]


@pytest.mark.slow
def test_diced_tomatoes_invariants_in_many_games_meet_every_event_end_and_effect():
    invariants = Invariants()
    # 60 games meet every event, end and effect (the first 38 do, seeded): more is TABLETOP_TEST_GAMES
    for seed, options, seats in cases(DECIDER, max(GAMES, 60)):
        run(7000 + seed, options, seats, invariants)
    seen = invariants.seen
    assert seen["end:final_round"] and seen["end:empty_bushel"] and seen["end:out_of_dice"], seen
    wanted = {e.__name__ for e in GAME.events if e is not GameStartedLogged} | {"karma_above_6"}
    wanted |= {f"PlantUprooted:{c}" for c in ("karma", "rotten", "overripe")}
    wanted |= {f"DieChanged:{e}" for e in ("reroll", "adjust", "invert", "set")}
    assert wanted <= set(seen), wanted - set(seen)
