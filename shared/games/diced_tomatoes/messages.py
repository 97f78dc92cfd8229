"""Diced Tomatoes table options, commands and events: the schema is the documentation.

Dice are named by an integer id fixed at setup (`GameSetUp.dice[id]` is its colour); a
tomato token is named by its owner and its index 0..2. Every die face that chance decides is
written in an event (`DiceRolled.faces`, `DieChanged.face` for a karma re-roll).
"""

from __future__ import annotations

from typing import Annotated

from shared.games.decider import Command, Event, Options, PlayerId, explained
from shared.games.diced_tomatoes.data import DiceBonus


class DicedTomatoesOptions(Options, frozen=True, kw_only=True):
    tomato_dice: Annotated[  # 3.1-15
        bool, explained("Tomato Dice rules: a harvest worth exactly its slot number earns a golden star.")
    ] = False
    karma_overdose: Annotated[  # 3.1-16
        bool,
        explained("Completing another's plant gives karma equal to its value; each die given, 1/3 karma."),
    ] = False
    golden_sun: Annotated[  # 3.1-17
        bool, explained("Each player gets one golden die: +1 to a plant, never a seed.")
    ] = False
    dice_bonus: Annotated[  # 3.3-3: "pooled" (dice // 3) or "per_plant" (+1 per 3-dice plant)
        DiceBonus,
        explained("End bonus: 1 point per 3 dice on your plants, or 1 per plant of exactly 3 dice."),
    ] = "pooled"
    reroll_passed_dice: Annotated[  # 3.1-3 ASSUMED
        bool, explained("The dice passed to you are rolled again with yours (off: they keep their faces).")
    ] = True


# --- commands --------------------------------------------------------------------------------


class TakeDice(Command, frozen=True, kw_only=True):
    """Take this many dice of each colour from the bushel and roll them with the passed dice."""

    red: int = 0
    black: int = 0
    golden: int = 0


class PlaceDie(Command, frozen=True, kw_only=True):
    """Place a rolled die on `owner`'s tomato token `token` (0..2): a seed, or a grown die."""

    die: int
    owner: PlayerId
    token: int


class RerollDie(Command, frozen=True, kw_only=True):
    """1 karma: roll a rolled, not yet placed die again."""

    die: int


class AdjustDie(Command, frozen=True, kw_only=True):
    """2 karma: add `by` (+1 or -1) to a rolled die, without wrapping."""

    die: int
    by: int


class UprootPlant(Command, frozen=True, kw_only=True):
    """3 karma: uproot any plant; its dice return to the bushel."""

    owner: PlayerId
    token: int


class InvertDie(Command, frozen=True, kw_only=True):
    """4 karma: turn a rolled die from 6 to 1 or from 1 to 6."""

    die: int


class FlipSeed(Command, frozen=True, kw_only=True):
    """5 karma: turn a planted seed die to its opposite face (1-6, 2-5, 3-4)."""

    owner: PlayerId
    token: int


class SetDie(Command, frozen=True, kw_only=True):
    """6 karma: set a rolled die to any value."""

    die: int
    value: int


class EndTurn(Command, frozen=True, kw_only=True):
    """End the turn when no rolled die can be placed; the rest pass to the next player."""


COMMANDS = (
    TakeDice,
    PlaceDie,
    RerollDie,
    AdjustDie,
    UprootPlant,
    InvertDie,
    FlipSeed,
    SetDie,
    EndTurn,
)


# --- events ----------------------------------------------------------------------------------


class GameSetUp(Event, frozen=True, kw_only=True):
    """Setup: the seats, the options, every die's colour and the starting roll."""

    players: list[PlayerId]  # seat order, clockwise
    options: DicedTomatoesOptions
    dice: list[str]  # colour of die i; all of them start in the bushel
    start_rolls: list[dict[PlayerId, int]]  # one entry per roll; ties among the lowest re-roll
    last_player: PlayerId  # holder of the last-player marker
    first_player: PlayerId


class GameStartedLogged(GameSetUp, frozen=True, kw_only=True, tag="game_started"):
    """`game_set_up` as logs written before the setup events had one name call it: still
    decoded, and folded like `game_set_up`."""


class DiceRolled(Event, frozen=True, kw_only=True):
    player: PlayerId
    taken: list[int]  # dice taken from the bushel
    dice: list[int]  # dice rolled: the taken ones (and the passed ones, when they are re-rolled)
    faces: list[int]  # faces[i] is the face rolled by dice[i]


class DiePlaced(Event, frozen=True, kw_only=True):
    player: PlayerId
    die: int
    face: int
    owner: PlayerId
    token: int


class PlantHarvested(Event, frozen=True, kw_only=True):
    owner: PlayerId
    token: int
    seed: int  # the seed die, moved onto the owner's score track
    value: int  # seed face - black dice + golden dice
    slot: int  # 1..6
    star: int  # Tomato Dice rules: the golden star's worth, else 0
    returned: list[int]  # the other dice, back to the bushel
    completer: PlayerId


class PlantUprooted(Event, frozen=True, kw_only=True):
    owner: PlayerId
    token: int
    dice: list[int]  # all back to the bushel
    cause: str  # "karma" (3 karma), "rotten" (value <= 0) or "overripe" (value >= 7)
    player: PlayerId  # the active player
    cost: int = 0  # karma spent


class DieChanged(Event, frozen=True, kw_only=True):
    """A karma effect on a rolled die: "reroll", "adjust", "invert" or "set"."""

    player: PlayerId
    die: int
    face: int  # the new face
    effect: str
    cost: int


class SeedFlipped(Event, frozen=True, kw_only=True):
    player: PlayerId
    owner: PlayerId
    token: int
    face: int  # the new face of the seed
    cost: int


class KarmaGained(Event, frozen=True, kw_only=True):
    player: PlayerId
    amount: int  # whole karma gained (after the in-turn cap)
    karma: int  # the new karma
    thirds: int  # the new count of karma thirds (Karma Overdose)
    reason: str  # "harvest" or "thirds"


class FinalRoundTriggered(Event, frozen=True, kw_only=True):
    """The first player to harvest a 6th plant (+2 points); play ends with the last player."""

    player: PlayerId


class TurnEnded(Event, frozen=True, kw_only=True):
    player: PlayerId
    passed: list[int]  # rolled dice left unplaced, given to the next player
    karma: int  # the player's karma after dropping what exceeds 6
    next_player: PlayerId


class PlayEnded(Event, frozen=True, kw_only=True):
    reason: str  # "final_round", "empty_bushel" or, solo, "out_of_dice"


EVENTS = (
    GameSetUp,
    GameStartedLogged,
    DiceRolled,
    DiePlaced,
    PlantHarvested,
    PlantUprooted,
    DieChanged,
    SeedFlipped,
    KarmaGained,
    FinalRoundTriggered,
    TurnEnded,
    PlayEnded,
)
