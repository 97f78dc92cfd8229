"""Diced Tomatoes components and rule tables (RULES.md 3.1, 3.2), kept as data.

Every number of the rules lives here, so that a better source can be dropped in without
touching the rules code. Values RULES.md marks ASSUMED are flagged below; the behaviour ones
that a table may want to change are table options instead (see `messages.DicedTomatoesOptions`).
"""

from __future__ import annotations

from typing import Literal

# --- components (3.2) ------------------------------------------------------------------------

RED = "red"
BLACK = "black"
GOLDEN = "golden"
COLOURS = (RED, BLACK, GOLDEN)

RED_DICE_PER_PLAYER = 11
BLACK_DICE_PER_PLAYER = 2
GOLDEN_DICE_PER_PLAYER = 1  # only with the Golden Sun Hybrid option
TOKENS_PER_PLAYER = 3
DICE_PER_PLANT = 4  # the seed and 3 more; the 4th die harvests the plant
TRACK_SLOTS = 6
KARMA_START = 3
KARMA_MAX = 6  # outside one's own turn
KARMA_TURN_MAX = 12  # transient, during one's own turn (3.1-7)
FACES = (1, 2, 3, 4, 5, 6)

# --- turn (3.1-3) ----------------------------------------------------------------------------

DICE_TAKEN_PER_TURN = 3  # fewer left in the bushel: take them all (ASSUMED)

# Seed colours: only red dice can be sown (3.1-4).
SEED_COLOURS = frozenset({RED})

# Effect of each colour on a plant's value: seed face - black + golden (3.1-6).
VALUE_MODIFIER = {RED: 0, BLACK: -1, GOLDEN: +1}

# ASSUMED (3.3-2): the face values of black and golden dice count for the set/straight pattern.
COLOURED_DICE_COUNT_IN_PATTERN = True

# Plant values that survive: outside this range a plant is uprooted at the end of the turn
# (3.1-9), and a 4th die giving such a value uproots instead of harvesting (3.3-4, ASSUMED).
PLANT_VALUE_MIN = 1
PLANT_VALUE_MAX = 6

# --- karma (3.1-5, 3.1-6, 3.1-16) ------------------------------------------------------------

# Cost of each karma effect (3.1-5), by the `effect` name used in events.
KARMA_COSTS = {
    "reroll": 1,  # re-roll one rolled die
    "adjust": 2,  # +1 or -1 on a rolled die, no wrap
    "uproot": 3,  # uproot any plant
    "invert": 4,  # a rolled die from 6 to 1 or from 1 to 6
    "flip_seed": 5,  # a planted seed to its opposite face
    "set": 6,  # a rolled die to any value
}
ADJUST_STEPS = (-1, +1)
INVERT_PAIRS = {6: 1, 1: 6}
OPPOSITE_FACE = {1: 6, 2: 5, 3: 4, 4: 3, 5: 2, 6: 1}

# Karma for completing an opponent's plant, by harvested value (3.1-6, default rule).
HARVEST_KARMA = {1: 1, 2: 1, 3: 2, 4: 2, 5: 3, 6: 3}

# Karma Overdose (3.1-16): karma = harvested value; 1 third per die placed on an opponent.
THIRDS_PER_KARMA = 3

# --- scoring (3.1-13, 3.1-15, 3.1-18) --------------------------------------------------------

KARMA_PER_POINT = 2  # 1 point per unused pair of karma
DICE_PER_BONUS_POINT = 3  # 1 point per 3 dice on unfinished plants (pooled, 3.3-3)
PLANT_SIZE_FOR_BONUS = 3  # the per-plant alternative of 3.3-3: +1 per plant of exactly 3 dice
FIRST_FULL_TRACK_BONUS = 2  # to the first player to complete a 6th plant
STAR_SLOT_TOTAL = 7  # Tomato Dice rules: value == slot number -> star worth 7 - slot
SOLO_POINT_PER_MATCH = 1  # solo: 1 VP per harvest whose value equals its slot number

DiceBonus = Literal["pooled", "per_plant"]
