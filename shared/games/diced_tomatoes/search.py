"""Diced Tomatoes' part of the search bot (`shared.games.search`): a state from a seat's view,
a cheap estimate of who wins, and a greedy move for the playouts.

Every die is public (see `view`), so a seat's view gives back the whole state: the only
unknown is the future rolls, which no state holds. Two counters of the turn in progress are
not shown (`taken`, `placed`); they matter only to the solo end of 3.1-18 and are guessed.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from typing import Any

import msgspec

from shared.games.decider import Command, PlayerId, Search, View
from shared.games.diced_tomatoes import data
from shared.games.diced_tomatoes.messages import (
    AdjustDie,
    DicedTomatoesOptions,
    EndTurn,
    InvertDie,
    PlaceDie,
    RerollDie,
    SetDie,
    TakeDice,
    UprootPlant,
)
from shared.games.diced_tomatoes.state import Die, Plant, Slot, State, is_set_or_straight, score_breakdown
from shared.games.table_state import game_options_of

# --- determinize -----------------------------------------------------------------------------


def _options(view: View) -> DicedTomatoesOptions:
    """The game's options out of the table's (unset ones take their defaults)."""
    given = view.get("options") or {}
    return msgspec.convert(game_options_of(given), DicedTomatoesOptions) if given else DicedTomatoesOptions()


def _dice(shown: list[dict[str, Any]], colours: dict[int, str]) -> tuple[Die, ...]:
    """Dice as the view lists them, noting each one's colour on the way."""
    out = []
    for d in shown:
        colours[d["die"]] = d["colour"]
        out.append(Die(d["die"], d["face"]))
    return tuple(out)


def _colours_and_bushel(view: View, known: dict[int, str]) -> tuple[tuple[str, ...], tuple[int, ...]]:
    """Every die's colour and the bushel's ids. The dice out of the bushel show their colours
    (seeds on a track are red); the bushel's ids are the others, and its colours are coloured
    in id order, red then black then golden, as the setup lays the dice out (which colour a
    die in the bushel has changes nothing but which id a `take_dice` picks)."""
    counts: dict[str, int] = view["bushel"]
    total = len(known) + sum(counts.values())
    bushel = tuple(i for i in range(total) if i not in known)
    fill = [colour for colour in data.COLOURS for _ in range(counts.get(colour, 0))]
    colours = dict(known)
    colours.update(zip(bushel, fill))
    return tuple(colours[i] for i in range(total)), bushel


def determinize(view: View, rng: random.Random) -> State:
    """The state behind a seat's view. Nothing is hidden, so it needs no draw from `rng`: the
    future rolls are drawn by the playouts themselves."""
    if not view.get("players"):
        return State()
    players: tuple[PlayerId, ...] = tuple(view["players"])
    known: dict[int, str] = {}
    hand = _dice(view["hand"], known)
    passed = _dice(view["passed"], known)
    plants: dict[PlayerId, tuple[Plant, ...]] = {
        p: tuple(_dice(plant["dice"], known) for plant in view["plants"][p]) for p in players
    }
    tracks: dict[PlayerId, tuple[Slot, ...]] = {}
    for p in players:
        tracks[p] = tuple(Slot(s["die"], s["value"], s["star"]) for s in view["tracks"][p])
        known.update((s["die"], data.RED) for s in view["tracks"][p])
    colours, bushel = _colours_and_bushel(view, known)
    phase = view["phase"]
    # the view names no active player once play is over: turns pass clockwise from the first
    active = (
        view["active_player"]
        or players[(players.index(view["first_player"]) + view["turn"] - 1) % len(players)]
    )
    # Not shown: what this turn took and placed. Only the solo end asks, and only whether both
    # are 0 (a turn that did nothing); guess that the turn took dice, so play goes on.
    taken = min(data.DICE_TAKEN_PER_TURN, len(bushel) or len(hand)) if phase == "place" else 0
    return State(
        players=players,
        options=_options(view),
        colours=colours,
        bushel=bushel,
        hand=hand,
        passed=passed,
        plants=plants,
        tracks=tracks,
        karma=dict(view["karma"]),
        thirds=dict(view["karma_thirds"]),
        active=active,
        phase=phase,
        first_player=view["first_player"],
        last_player=view["last_player"],
        start_rolls=tuple(dict(r) for r in view["start_rolls"]),
        final_round=view["final_round"],
        first_full=view["first_full_track"],
        turn=view["turn"],
        taken=taken,
        placed=0,
        end_reason=view["end_reason"],
    )


# --- evaluate --------------------------------------------------------------------------------

# Points a plant is worth now by its dice (1 to 3; 4 only between a placing and its harvest),
# per point of its value: the chance it is harvested for its owner. These weights, karma's and
# a harvest's, and the spread are fitted (logistic regression) on states of 2-player games
# between greedy bots, labelled with who won.
_PLANT_WORTH = (0.0, 0.165, 0.33, 0.8, 1.0)
_KARMA_WORTH = 0.37  # half a point at the end, and effects before; what exceeds 6 is lost
_HARVEST_WORTH = 0.48  # a harvest banked frees a token and brings the end nearer
_DICE_BONUS_WORTH = -0.43  # the 3-dice bonus is already in the plants' worth, and overcounted
_SPREAD, _SPREAD_PER_HARVEST_LEFT = 1.7, 0.56


def _estimate(state: State, player: PlayerId) -> float:
    """A player's points if the game ended now, plus what their growing plants promise."""
    total = 0.0
    dice = 0
    colours = state.colours
    modifier = data.VALUE_MODIFIER
    for plant in state.plants[player]:
        if plant:
            dice += len(plant)
            value = plant[0].face
            for d in plant[1:]:
                value += modifier[colours[d.id]]
            if data.PLANT_VALUE_MIN <= value <= data.PLANT_VALUE_MAX:
                total += _PLANT_WORTH[len(plant)] * value
    track = state.tracks[player]
    for s in track:
        total += s.value + s.star
    total += _HARVEST_WORTH * len(track) + _DICE_BONUS_WORTH * (dice // data.DICE_PER_BONUS_POINT)
    total += _KARMA_WORTH * min(state.karma[player], data.KARMA_MAX)
    if state.first_full == player and not state.options.tomato_dice:
        total += data.FIRST_FULL_TRACK_BONUS
    return total


def _spread(state: State) -> float:
    """How far apart estimates may still drift: wide early, narrow near the end."""
    done = max(len(t) for t in state.tracks.values())
    return _SPREAD + _SPREAD_PER_HARVEST_LEFT * (data.TRACK_SLOTS - done)


def _solo_chance(state: State, player: PlayerId) -> float:
    """Solo (3.1-18) is won by filling the track before the dice run out."""
    if state.phase == "over":
        return 1.0 if len(state.tracks[player]) >= data.TRACK_SLOTS else 0.0
    progress = len(state.tracks[player]) + sum(len(p) for p in state.plants[player]) / 4
    supply = len(state.bushel) + len(state.hand) + len(state.passed)
    return 1.0 / (1.0 + math.exp(-(progress + supply / 3 - data.TRACK_SLOTS)))


def evaluate(state: State) -> dict[PlayerId, float]:
    """Each player's chance to win: a softmax of estimated scores, sharper as the end nears;
    the result itself once the game is over."""
    players = state.players
    if len(players) == 1:
        return {players[0]: _solo_chance(state, players[0])}
    if state.phase == "over":
        totals = {p: score_breakdown(state, p)["total"] for p in players}
        best = max(totals.values())
        return {p: 1.0 if totals[p] == best else 0.0 for p in players}
    spread = _spread(state)
    scores = {p: _estimate(state, p) / spread for p in players}
    top = max(scores.values())
    weights = {p: math.exp(s - top) for p, s in scores.items()}
    norm = sum(weights.values())
    return {p: w / norm for p, w in weights.items()}


# --- policy ----------------------------------------------------------------------------------


_UPROOT_KARMA_WEIGHT = 1.0  # karma against the points of an opponent's plant (tuned in play)
_FIX_KARMA_WEIGHT = 0.7  # karma against the points of one's own harvest (tuned in play)
_HARVEST_SCORE = 6.0  # the least a placing that harvests one's own plant scores


def _seed_score(state: State, me: PlayerId, face: int, mine: bool) -> float:
    """High seeds for oneself, low ones for the others; solo, the face of the next slot."""
    if state.solo:
        return 3.0 - abs(face - (len(state.tracks[me]) + 1))
    return 1.0 + face / 2 if mine else -1.0 - face / 3


def _harvest_score(state: State, me: PlayerId, value: int, mine: bool) -> float:
    """A 4th die: harvest (or uproot, out of 1..6) the plant."""
    if not data.PLANT_VALUE_MIN <= value <= data.PLANT_VALUE_MAX:
        return -4.0 if mine else 4.0
    slot = len(state.tracks[me]) + 1
    if state.solo:
        return 10.0 if value == slot else 2.0
    if mine:
        star = data.STAR_SLOT_TOTAL - slot if state.options.tomato_dice and value == slot else 0
        return _HARVEST_SCORE + value + star
    return 1.0 + data.HARVEST_KARMA[value] - value / 2


def _placement_score(state: State, me: PlayerId, cmd: PlaceDie) -> float:
    """How much a greedy gardener likes placing this die there (as the `easy` bot)."""
    die = state.hand_die(cmd.die)
    assert die is not None
    plant = state.plants[cmd.owner][cmd.token]
    mine = cmd.owner == me
    if not plant:
        return _seed_score(state, me, die.face, mine)
    colours = state.colours
    delta = data.VALUE_MODIFIER[colours[die.id]]
    if len(plant) + 1 == data.DICE_PER_PLANT:
        value = plant[0].face + delta + sum([data.VALUE_MODIFIER[colours[d.id]] for d in plant[1:]])
        return _harvest_score(state, me, value, mine)
    return (1.5 + 2 * delta) if mine else (0.5 - 2 * delta)


def _take_score(state: State, cmd: TakeDice) -> float:
    """Red dice sow and grow; black ones only spoil (taking them lost most games in play)."""
    black_worth = -1.0 if state.solo else 0.5
    return cmd.red + cmd.black * black_worth + cmd.golden * 1.2


def _karma_loss(state: State, player: PlayerId, cost: int) -> int:
    """The karma a spending really costs: what exceeds 6 is lost at the end of the turn anyway."""
    karma = state.karma[player]
    return min(karma, data.KARMA_MAX) - min(karma - cost, data.KARMA_MAX)


def _value(plant: Plant, colours: tuple[str, ...]) -> int:
    """Seed face - black dice + golden dice (3.1-6), without building lists."""
    value = plant[0].face
    for d in plant[1:]:
        value += data.VALUE_MODIFIER[colours[d.id]]
    return value


def _best_uproot(state: State, me: PlayerId, karma: Sequence[Command]) -> Command | None:
    """3 karma to uproot the opponent's plant that promises them most, when it promises more
    than the karma is worth."""
    best, gain = None, 0.0
    for cmd in karma:
        # a full track's plants take no more dice: they promise no harvest
        if isinstance(cmd, UprootPlant) and cmd.owner != me and not state.track_full(cmd.owner):
            plant = state.plants[cmd.owner][cmd.token]
            value = _value(plant, state.colours)
            if data.PLANT_VALUE_MIN <= value <= data.PLANT_VALUE_MAX:
                worth = _PLANT_WORTH[len(plant)] * value - _UPROOT_KARMA_WEIGHT * _karma_loss(state, me, 3)
                if worth > gain:
                    best, gain = cmd, worth
    return best


def _changed_face(cmd: Command, face: int) -> tuple[int, int] | None:
    """The face a karma change gives a rolled die, and its cost; None for other commands."""
    if isinstance(cmd, AdjustDie):
        return face + cmd.by, data.KARMA_COSTS["adjust"]
    if isinstance(cmd, InvertDie):
        return data.INVERT_PAIRS[face], data.KARMA_COSTS["invert"]
    if isinstance(cmd, SetDie):
        return cmd.value, data.KARMA_COSTS["set"]
    return None


def _best_fix(state: State, me: PlayerId, karma: Sequence[Command]) -> Command | None:
    """A karma change on a rolled die that makes it harvest one of the player's own 3-dice
    plants, when the harvest is worth more than the karma."""
    ripe = [plant for plant in state.plants[me] if len(plant) == data.DICE_PER_PLANT - 1]
    if not ripe or state.track_full(me):
        return None
    colours = state.colours
    best, gain = None, 0.0
    for cmd in karma:
        die = state.hand_die(getattr(cmd, "die", -1))
        change = None if die is None else _changed_face(cmd, die.face)
        if die is None or change is None:
            continue
        face, cost = change
        for plant in ripe:
            value = _value(plant, colours) + data.VALUE_MODIFIER[colours[die.id]]
            if data.PLANT_VALUE_MIN <= value <= data.PLANT_VALUE_MAX and is_set_or_straight(
                [*(d.face for d in plant), face]
            ):
                worth = value - _FIX_KARMA_WEIGHT * _karma_loss(state, me, cost)
                if worth > gain:
                    best, gain = cmd, worth
    return best


def policy(state: State, player: PlayerId, legal: Sequence[Command], rng: random.Random) -> Command:
    """The greedy choice of the `easy` bot, on the state (good own harvests, black dice on
    opponents' plants, the dice it prefers), with karma where it pays: uproot an opponent's
    promising plant, change a die to harvest one's own, re-roll what would be lost."""
    scored: list[tuple[float, Command]] = []
    reroll: Command | None = None
    karma: list[Command] = []
    for cmd in legal:
        if isinstance(cmd, PlaceDie):
            scored.append((_placement_score(state, player, cmd), cmd))
        elif isinstance(cmd, TakeDice):
            scored.append((_take_score(state, cmd), cmd))
        elif isinstance(cmd, EndTurn):
            scored.append((0.0, cmd))
        elif isinstance(cmd, RerollDie):
            reroll = reroll or cmd
        else:
            karma.append(cmd)
    if not scored:
        return rng.choice(list(legal))
    top = max(s for s, _ in scored)
    if karma and not state.solo:
        spend = _best_uproot(state, player, karma)
        if spend is None and top < _HARVEST_SCORE:
            spend = _best_fix(state, player, karma)
        if spend is not None:
            return spend
    # Karma above the cap is lost at the end of the turn: spend it on another try first.
    if reroll is not None and top <= 0.0 and state.karma[player] > data.KARMA_MAX:
        return reroll
    best = [c for s, c in scored if s >= top - 0.25]
    return best[0] if len(best) == 1 else rng.choice(best)


SEARCH: Search[State] = Search(determinize=determinize, evaluate=evaluate, policy=policy)
