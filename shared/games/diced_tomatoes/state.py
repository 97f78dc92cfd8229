"""Diced Tomatoes state and the pure questions asked of it (plant patterns, values, scores)."""

from __future__ import annotations

# --- options and setup -----------------------------------------------------------------------
from typing import Any, Literal

import msgspec

from shared.games.decider import (
    Event,
    PlayerId,
)
from shared.games.diced_tomatoes import data
from shared.games.diced_tomatoes.messages import (
    DicedTomatoesOptions,
    DiceRolled,
    DieChanged,
    DiePlaced,
    FinalRoundTriggered,
    GameSetUp,
    KarmaGained,
    PlantHarvested,
    PlantUprooted,
    PlayEnded,
    SeedFlipped,
    TurnEnded,
)


class Die(msgspec.Struct, frozen=True, array_like=True):
    """A die out of the bushel, with the face it shows."""

    id: int
    face: int


class Slot(msgspec.Struct, frozen=True, array_like=True):
    """A filled score-track slot: the seed die, the value it records, its golden star."""

    die: int
    value: int
    star: int = 0


Plant = tuple[Die, ...]  # seed first; () is an empty tomato token


# "setup" (before the first turn), "take" (the active player chooses dice), "place" (the dice
# are rolled and placed one by one), "over".
Phase = Literal["setup", "take", "place", "over"]


class State(msgspec.Struct, frozen=True, kw_only=True):
    players: tuple[PlayerId, ...] = ()
    options: DicedTomatoesOptions = DicedTomatoesOptions()
    colours: tuple[str, ...] = ()  # colours[die id]
    bushel: tuple[int, ...] = ()  # sorted die ids
    hand: tuple[Die, ...] = ()  # the active player's rolled dice, not yet placed
    passed: tuple[Die, ...] = ()  # dice waiting for the active player (before they take dice)
    plants: dict[PlayerId, tuple[Plant, ...]] = {}
    tracks: dict[PlayerId, tuple[Slot, ...]] = {}
    karma: dict[PlayerId, int] = {}
    thirds: dict[PlayerId, int] = {}
    active: PlayerId = ""
    phase: Phase = "setup"
    first_player: PlayerId = ""
    last_player: PlayerId = ""
    start_rolls: tuple[dict[PlayerId, int], ...] = ()
    final_round: bool = False
    first_full: PlayerId | None = None  # first to harvest a 6th plant
    turn: int = 0  # 1 for the first turn
    taken: int = 0  # dice taken from the bushel this turn
    placed: int = 0  # dice placed this turn
    end_reason: str | None = None

    @property
    def solo(self) -> bool:
        return len(self.players) == 1

    def next_player(self, player: PlayerId) -> PlayerId:
        """The next player clockwise (seat order)."""
        return self.players[(self.players.index(player) + 1) % len(self.players)]

    def hand_die(self, die: int) -> Die | None:
        for d in self.hand:
            if d.id == die:
                return d
        return None

    def bushel_counts(self) -> dict[str, int]:
        counts = {c: 0 for c in data.COLOURS}
        for d in self.bushel:
            counts[self.colours[d]] += 1
        return counts

    def track_full(self, player: PlayerId) -> bool:
        return len(self.tracks[player]) >= data.TRACK_SLOTS


# --- plants ----------------------------------------------------------------------------------


def is_set(faces: list[int]) -> bool:
    """All faces equal."""
    return len(set(faces)) <= 1


def is_set_or_straight(faces: list[int]) -> bool:
    distinct = len(set(faces))
    return distinct <= 1 or (distinct == len(faces) and max(faces) - min(faces) == distinct - 1)


def pattern_faces(dice: tuple[Die, ...], colours: tuple[str, ...]) -> list[int]:
    """The faces that must form the set or straight (3.3-1, 3.3-2)."""
    if data.COLOURED_DICE_COUNT_IN_PATTERN:
        return [d.face for d in dice]
    return [d.face for d in dice if colours[d.id] == data.RED]


def is_pattern(dice: tuple[Die, ...], colours: tuple[str, ...]) -> bool:
    """A plant is a set or a straight (3.1-4, evaluated on the whole plant, 3.3-1)."""
    return is_set_or_straight(pattern_faces(dice, colours))


def plant_value(dice: tuple[Die, ...], colours: tuple[str, ...]) -> int:
    """Seed face - black dice + golden dice (3.1-6)."""
    modifier = data.VALUE_MODIFIER
    return dice[0].face + sum([modifier[colours[d.id]] for d in dice[1:]])


def value_survives(value: int) -> bool:
    """A plant value between 1 and 6: neither rotten nor overripe (3.1-9)."""
    return data.PLANT_VALUE_MIN <= value <= data.PLANT_VALUE_MAX


def uproot_cause(value: int) -> str:
    return "rotten" if value < data.PLANT_VALUE_MIN else "overripe"


# --- karma -----------------------------------------------------------------------------------


def harvest_karma(value: int, options: DicedTomatoesOptions) -> int:
    """Karma for completing a plant of this value (3.1-6; Karma Overdose 3.1-16)."""
    if options.karma_overdose:
        return value
    return data.HARVEST_KARMA[value]


def star_for(value: int, slot: int, options: DicedTomatoesOptions) -> int:
    """Tomato Dice rules (3.1-15): value equal to the slot number -> star worth 7 - slot."""
    if options.tomato_dice and value == slot:
        return data.STAR_SLOT_TOTAL - slot
    return 0


# --- scoring ---------------------------------------------------------------------------------


def score_breakdown(state: State, player: PlayerId) -> dict[str, Any]:
    """The points of one player (3.1-13; solo 3.1-18), part by part, and the total."""
    track = state.tracks[player]
    if state.solo:
        matches = sum(1 for slot, s in enumerate(track, start=1) if s.value == slot)
        return {
            "harvests": len(track),
            "matches": matches,
            "won": len(track) >= data.TRACK_SLOTS,
            "total": matches * data.SOLO_POINT_PER_MATCH,
        }
    sizes = [len(p) for p in state.plants[player] if p]
    if state.options.dice_bonus == "per_plant":
        dice_bonus = sizes.count(data.PLANT_SIZE_FOR_BONUS)
    else:
        dice_bonus = sum(sizes) // data.DICE_PER_BONUS_POINT
    parts = {
        "track": sum([s.value for s in track]),
        "stars": sum([s.star for s in track]),
        "karma_pairs": state.karma[player] // data.KARMA_PER_POINT,
        "plant_dice": dice_bonus,
        # 3.1-13 (ruling 2026-11-30): base game only; the Tomato Dice variant has no +2.
        "first_full_track": (
            data.FIRST_FULL_TRACK_BONUS if state.first_full == player and not state.options.tomato_dice else 0
        ),
    }
    parts["total"] = sum(parts.values())
    return parts


replace = msgspec.structs.replace


# --- evolve ----------------------------------------------------------------------------------


def _set_plant(
    state: State,
    owner: PlayerId,
    token: int,
    plant: tuple[Die, ...],
) -> dict[PlayerId, tuple[Plant, ...]]:
    plants = list(state.plants[owner])
    plants[token] = plant
    return {**state.plants, owner: tuple(plants)}


def evolve(state: State, event: Event) -> State:
    replace = msgspec.structs.replace
    match event:
        case GameSetUp():
            players = tuple(event.players)
            return State(
                players=players,
                options=event.options,
                colours=tuple(event.dice),
                bushel=tuple(range(len(event.dice))),
                plants={p: ((),) * data.TOKENS_PER_PLAYER for p in players},
                tracks={p: () for p in players},
                karma={p: data.KARMA_START for p in players},
                thirds={p: 0 for p in players},
                active=event.first_player,
                phase="take",
                first_player=event.first_player,
                last_player=event.last_player,
                start_rolls=tuple(event.start_rolls),
                turn=1,
            )
        case DiceRolled(taken=taken, dice=dice, faces=faces):
            gone = set(taken)
            rolled = {d: f for d, f in zip(dice, faces)}
            kept = tuple(d for d in state.passed if d.id not in rolled)
            hand = kept + tuple(Die(d, f) for d, f in zip(dice, faces))
            return replace(
                state,
                bushel=tuple(d for d in state.bushel if d not in gone),
                hand=hand,
                passed=(),
                phase="place",
                taken=len(taken),
            )
        case DiePlaced(die=die_id, face=face, owner=owner, token=token):
            plant = (*state.plants[owner][token], Die(die_id, face))
            return replace(
                state,
                hand=tuple(d for d in state.hand if d.id != die_id),
                plants=_set_plant(state, owner, token, plant),
                placed=state.placed + 1,
            )
        case PlantHarvested(owner=owner, token=token, seed=seed, value=value, star=star):
            returned = tuple(event.returned)
            return replace(
                state,
                plants=_set_plant(state, owner, token, ()),
                tracks={**state.tracks, owner: (*state.tracks[owner], Slot(seed, value, star))},
                bushel=tuple(sorted(state.bushel + returned)),
            )
        case PlantUprooted(owner=owner, token=token, dice=dice, player=player, cost=cost):
            return replace(
                state,
                plants=_set_plant(state, owner, token, ()),
                bushel=tuple(sorted(state.bushel + tuple(dice))),
                karma={**state.karma, player: state.karma[player] - cost},
            )
        case DieChanged(player=player, die=die_id, face=face, cost=cost):
            hand = tuple(Die(d.id, face) if d.id == die_id else d for d in state.hand)
            karma = {**state.karma, player: state.karma[player] - cost}
            return replace(state, hand=hand, karma=karma)
        case SeedFlipped(player=player, owner=owner, token=token, face=face, cost=cost):
            plant = state.plants[owner][token]
            plant = (Die(plant[0].id, face), *plant[1:])
            return replace(
                state,
                plants=_set_plant(state, owner, token, plant),
                karma={**state.karma, player: state.karma[player] - cost},
            )
        case KarmaGained(player=player, karma=karma, thirds=thirds):
            return replace(
                state,
                karma={**state.karma, player: karma},
                thirds={**state.thirds, player: thirds},
            )
        case FinalRoundTriggered(player=player):
            return replace(state, final_round=True, first_full=player)
        case TurnEnded(player=player, passed=passed, karma=karma, next_player=nxt):
            keep = set(passed)
            return replace(
                state,
                passed=tuple(d for d in state.hand if d.id in keep),
                hand=(),
                karma={**state.karma, player: karma},
                active=nxt,
                phase="take",
                turn=state.turn + 1,
                taken=0,
                placed=0,
            )
        case PlayEnded(reason=reason):
            return replace(state, phase="over", end_reason=reason)
    return state
