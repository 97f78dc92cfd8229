"""Diced Tomatoes rules (RULES.md section 3): setup, decide, evolve and the queries on a state.

Pure: the only randomness is the rng handed in, and every face it gives is written in an event.
"""

from __future__ import annotations

from itertools import product

from shared.games.decider import (
    Batch,
    Command,
    Context,
    Event,
    PlayerId,
    Randomness,
    Rejection,
    Result,
    Standing,
    rank_players,
)
from shared.games.diced_tomatoes import data
from shared.games.diced_tomatoes.messages import (
    AdjustDie,
    DicedTomatoesOptions,
    DiceRolled,
    DieChanged,
    DiePlaced,
    EndTurn,
    FinalRoundTriggered,
    FlipSeed,
    GameSetUp,
    InvertDie,
    KarmaGained,
    PlaceDie,
    PlantHarvested,
    PlantUprooted,
    PlayEnded,
    RerollDie,
    SeedFlipped,
    SetDie,
    TakeDice,
    TurnEnded,
    UprootPlant,
)
from shared.games.diced_tomatoes.state import (
    Die,
    State,
    evolve,
    harvest_karma,
    is_pattern,
    plant_value,
    score_breakdown,
    star_for,
    uproot_cause,
    value_survives,
)
from shared.games.turns import DecideByTurns, in_phase

# --- options and setup -----------------------------------------------------------------------


def roll(rng: Randomness) -> int:
    return rng.choice(data.FACES)


def setup(
    options: DicedTomatoesOptions,
    players: tuple[PlayerId, ...],
    rng: Randomness,
) -> list[Event] | Rejection:
    """The bushel of every player's dice, and the starting roll (Diced Tomatoes 1-2)."""
    per_player = [(data.RED, data.RED_DICE_PER_PLAYER), (data.BLACK, data.BLACK_DICE_PER_PLAYER)]
    if options.golden_sun:
        per_player.append((data.GOLDEN, data.GOLDEN_DICE_PER_PLAYER))
    dice = [colour for colour, count in per_player for _ in range(count * len(players))]
    # Lowest roll takes the last-player marker; ties among the lowest roll again (3.3-8).
    rolls: list[dict[PlayerId, int]] = []
    rolling = list(players)
    while True:
        faces = {p: roll(rng) for p in rolling}
        rolls.append(faces)
        low = min(faces.values())
        rolling = [p for p in rolling if faces[p] == low]
        if len(rolling) == 1:
            break
    last = rolling[0]
    first = players[(players.index(last) + 1) % len(players)]
    return [
        GameSetUp(
            players=list(players),
            options=options,
            dice=dice,
            start_rolls=rolls,
            last_player=last,
            first_player=first,
        )
    ]


# --- placement -------------------------------------------------------------------------------


def placement_problem(
    state: State,
    die: Die,
    owner: PlayerId,
    token: int,
) -> Rejection | None:
    """Why `die` may not go on `owner`'s token `token`, or None when it may (3.1-4, 3.3-5)."""
    if owner not in state.plants:
        return Rejection("no_such_player", f"{owner!r} has no seat at this table.")
    if not 0 <= token < data.TOKENS_PER_PLAYER:
        return Rejection(
            "no_such_token",
            f"Tomato tokens are numbered 0 to {data.TOKENS_PER_PLAYER - 1}.",
        )
    if state.track_full(owner):
        return Rejection(
            "track_full",
            f"{owner}'s score track is full: their plants accept no more dice.",
        )
    plant = state.plants[owner][token]
    colour = state.colours[die.id]
    if not plant:
        if colour not in data.SEED_COLOURS:
            return Rejection(
                "seed_must_be_red",
                f"A {colour} die cannot be a seed; only red dice are sown.",
            )
        return None
    if not is_pattern((*plant, die), state.colours):
        faces = sorted(d.face for d in plant)
        return Rejection(
            "breaks_pattern",
            f"A {die.face} does not fit plant {faces}: a plant is all one value or a run of "
            "distinct consecutive values.",
        )
    return None


def placements(state: State, die: Die) -> list[tuple[PlayerId, int]]:
    """Every (owner, token) where `die` may be placed: the fast twin of `placement_problem`."""
    colours = state.colours
    seedable = colours[die.id] in data.SEED_COLOURS
    found = []
    for owner in state.players:
        if len(state.tracks[owner]) >= data.TRACK_SLOTS:
            continue
        for token, plant in enumerate(state.plants[owner]):
            if seedable if not plant else is_pattern((*plant, die), colours):
                found.append((owner, token))
    return found


def can_place_any(state: State) -> bool:
    """Some rolled die has a legal placement (the placement obligation, 3.1-4)."""
    return any(placements(state, d) for d in state.hand)


# --- decide ----------------------------------------------------------------------------------


def _dice_not_rolled(state: State) -> Rejection:
    """A command on the rolled dice before they are taken and rolled (Diced Tomatoes 3)."""
    return Rejection("dice_not_rolled", "Take and roll your dice first (take_dice).")


def _reroll(state: State, command: RerollDie, ctx: Context) -> list[Event] | Rejection:
    return _change_die(state, ctx.actor, command.die, "reroll", roll(ctx.rng))


def _adjust(state: State, command: AdjustDie, ctx: Context) -> list[Event] | Rejection:
    die = state.hand_die(command.die)
    if die is None:
        return _not_rolled(command.die)
    if command.by not in data.ADJUST_STEPS:
        return Rejection("bad_adjustment", "A die can be adjusted by +1 or -1 only.")
    if die.face + command.by not in data.FACES:
        return Rejection(
            "no_wrap",
            f"A {die.face} cannot become {die.face + command.by}: no wrapping 6<->1.",
        )
    return _change_die(state, ctx.actor, command.die, "adjust", die.face + command.by)


def _invert(state: State, command: InvertDie, ctx: Context) -> list[Event] | Rejection:
    die = state.hand_die(command.die)
    if die is None:
        return _not_rolled(command.die)
    if die.face not in data.INVERT_PAIRS:
        return Rejection(
            "not_one_or_six",
            f"Only a 1 or a 6 can be inverted; this die shows {die.face}.",
        )
    return _change_die(state, ctx.actor, command.die, "invert", data.INVERT_PAIRS[die.face])


def _set(state: State, command: SetDie, ctx: Context) -> list[Event] | Rejection:
    value = command.value
    if value not in data.FACES:
        return Rejection("bad_value", f"A die shows 1 to 6, not {value}.")
    die = state.hand_die(command.die)
    if die is not None and die.face == value:
        return Rejection(
            "no_change",
            f"This die already shows {value}: setting it changes nothing.",
        )
    return _change_die(state, ctx.actor, command.die, "set", value)


def _not_rolled(die_id: int) -> Rejection:
    return Rejection("die_not_rolled", f"Die {die_id} is not among your rolled, unplaced dice.")


def _take(state: State, command: TakeDice, ctx: Context) -> list[Event] | Rejection:
    """Take dice of the chosen colours, add the passed ones and roll (Diced Tomatoes 3)."""
    if state.phase != "take":
        return Rejection("dice_already_rolled", "You have already taken and rolled your dice.")
    wanted = {data.RED: command.red, data.BLACK: command.black, data.GOLDEN: command.golden}
    available = state.bushel_counts()
    count = min(data.DICE_TAKEN_PER_TURN, len(state.bushel))
    if any(n < 0 for n in wanted.values()) or sum(wanted.values()) != count:
        return Rejection(
            "bad_dice_choice",
            f"Take exactly {count} dice from the bushel (red, black, golden).",
        )
    for colour, n in wanted.items():
        if n > available[colour]:
            return Rejection(
                "bad_dice_choice",
                f"The bushel holds only {available[colour]} {colour} dice.",
            )
    taken = [
        d
        for colour, n in wanted.items()
        if n
        for d in [d for d in state.bushel if state.colours[d] == colour][:n]
    ]
    rolled = taken + ([d.id for d in state.passed] if state.options.reroll_passed_dice else [])
    faces = [roll(ctx.rng) for _ in rolled]
    return [DiceRolled(player=ctx.actor, taken=taken, dice=rolled, faces=faces)]


def _place(state: State, command: PlaceDie, ctx: Context) -> list[Event] | Rejection:
    """Sow or grow (Diced Tomatoes 4); a 4th die harvests (6); overdose thirds (16)."""
    actor, die_id, owner, token = ctx.actor, command.die, command.owner, command.token
    die = state.hand_die(die_id)
    if die is None:
        return _not_rolled(die_id)
    problem = placement_problem(state, die, owner, token)
    if problem:
        return problem
    events: list[Event] = [
        DiePlaced(player=actor, die=die_id, face=die.face, owner=owner, token=token),
    ]
    karma = state.karma[actor]
    thirds = state.thirds[actor]
    harvested = 0  # the value harvested, if this die completes a plant
    plant = (*state.plants[owner][token], die)
    if len(plant) == data.DICE_PER_PLANT:  # the plant resolves at once (3.1-6)
        value = plant_value(plant, state.colours)
        if value_survives(value):
            slot = len(state.tracks[owner]) + 1
            events.append(
                PlantHarvested(
                    owner=owner,
                    token=token,
                    seed=plant[0].id,
                    value=value,
                    slot=slot,
                    star=star_for(value, slot, state.options),
                    returned=[d.id for d in plant[1:]],
                    completer=actor,
                )
            )
            harvested = value
        else:  # 3.3-4: uprooted instead of harvested
            events.append(
                PlantUprooted(
                    owner=owner,
                    token=token,
                    dice=[d.id for d in plant],
                    cause=uproot_cause(value),
                    player=actor,
                )
            )
    if state.options.karma_overdose and owner != actor:  # 3.1-16: a third per die given
        thirds += 1
        gained = 0
        if thirds >= data.THIRDS_PER_KARMA:
            thirds -= data.THIRDS_PER_KARMA
            gained = min(1, data.KARMA_TURN_MAX - karma)
            karma += gained
        events.append(
            KarmaGained(
                player=actor,
                amount=gained,
                karma=karma,
                thirds=thirds,
                reason="thirds",
            )
        )
    if harvested and (owner != actor or state.solo):
        gained = min(harvest_karma(harvested, state.options), data.KARMA_TURN_MAX - karma)
        karma += gained
        events.append(
            KarmaGained(
                player=actor,
                amount=gained,
                karma=karma,
                thirds=thirds,
                reason="harvest",
            )
        )
    if harvested and len(state.tracks[owner]) + 1 == data.TRACK_SLOTS and state.first_full is None:
        events.append(FinalRoundTriggered(player=owner))
    return events


def _spend(state: State, actor: PlayerId, effect: str) -> tuple[int, Rejection | None]:
    cost = data.KARMA_COSTS[effect]
    if state.karma[actor] < cost:
        return cost, Rejection(
            "not_enough_karma",
            f"This costs {cost} karma and you have {state.karma[actor]}.",
        )
    return cost, None


def _change_die(
    state: State,
    actor: PlayerId,
    die_id: int,
    effect: str,
    face: int,
) -> list[Event] | Rejection:
    """Karma on a rolled, unplaced die: re-roll, +/-1, 6<->1, set (Diced Tomatoes 5)."""
    if state.hand_die(die_id) is None:
        return _not_rolled(die_id)
    cost, problem = _spend(state, actor, effect)
    if problem:
        return problem
    return [DieChanged(player=actor, die=die_id, face=face, effect=effect, cost=cost)]


def _plant_target(state: State, owner: PlayerId, token: int) -> Rejection | None:
    if owner not in state.plants:
        return Rejection("no_such_player", f"{owner!r} has no seat at this table.")
    if not 0 <= token < data.TOKENS_PER_PLAYER:
        return Rejection(
            "no_such_token",
            f"Tomato tokens are numbered 0 to {data.TOKENS_PER_PLAYER - 1}.",
        )
    if not state.plants[owner][token]:
        return Rejection("no_plant", f"{owner}'s tomato token {token} holds no plant.")
    return None


def _uproot(state: State, command: UprootPlant, ctx: Context) -> list[Event] | Rejection:
    """3 karma: uproot any plant, own or an opponent's (Diced Tomatoes 5, 3.3-7)."""
    actor, owner, token = ctx.actor, command.owner, command.token
    problem = _plant_target(state, owner, token)
    if problem:
        return problem
    cost, problem = _spend(state, actor, "uproot")
    if problem:
        return problem
    dice = [d.id for d in state.plants[owner][token]]
    return [
        PlantUprooted(
            owner=owner,
            token=token,
            dice=dice,
            cause="karma",
            player=actor,
            cost=cost,
        )
    ]


def flipped(state: State, owner: PlayerId, token: int) -> tuple[Die, ...]:
    plant = state.plants[owner][token]
    seed = plant[0]
    return (Die(seed.id, data.OPPOSITE_FACE[seed.face]), *plant[1:])


def _flip_seed(state: State, command: FlipSeed, ctx: Context) -> list[Event] | Rejection:
    """5 karma: a planted seed to its opposite face (Diced Tomatoes 5); the plant must stay a
    set or a straight."""
    actor, owner, token = ctx.actor, command.owner, command.token
    problem = _plant_target(state, owner, token)
    if problem:
        return problem
    plant = flipped(state, owner, token)
    if not is_pattern(plant, state.colours):
        return Rejection(
            "breaks_pattern",
            f"Flipping this seed to {plant[0].face} would leave a plant that is neither a set "
            "nor a straight.",
        )
    cost, problem = _spend(state, actor, "flip_seed")
    if problem:
        return problem
    return [SeedFlipped(player=actor, owner=owner, token=token, face=plant[0].face, cost=cost)]


def _end_turn(state: State, command: EndTurn, ctx: Context) -> list[Event] | Rejection:
    """Pass unplaceable dice (8), uproot rotten/overripe plants (9), cap karma (7), pass the
    turn (10), and end the game when it is over (11, 12, 18)."""
    actor = ctx.actor
    if can_place_any(state):
        return Rejection(
            "must_place",
            "A rolled die can still be placed: you must place it before ending.",
        )
    batch = Batch(evolve, state)
    for owner in state.players:
        for token, plant in enumerate(state.plants[owner]):
            if plant:
                value = plant_value(plant, state.colours)
                if not value_survives(value):
                    batch.add(
                        PlantUprooted(
                            owner=owner,
                            token=token,
                            dice=[d.id for d in plant],
                            cause=uproot_cause(value),
                            player=actor,
                        )
                    )
    nxt = state.next_player(actor)
    batch.add(
        TurnEnded(
            player=actor,
            passed=[d.id for d in state.hand],
            karma=min(state.karma[actor], data.KARMA_MAX),
            next_player=nxt,
        )
    )
    reason = _end_reason(state, batch.state, actor)
    if reason:
        batch.add(PlayEnded(reason=reason))
    return batch.events


def _end_reason(before: State, after: State, actor: PlayerId) -> str | None:
    if after.final_round and actor == after.last_player:
        return "final_round"  # 3.1-11
    if after.bushel:
        return None
    if not after.solo:
        return "empty_bushel"  # 3.1-12
    # Solo (3.1-18, ruling 2026-11-30): no end on an empty bushel while you still hold dice
    # that a roll to come could place; dice that are not re-rolled keep their faces, so a turn
    # that took and placed nothing with them shows they never will be placed.
    if not after.passed or not could_ever_place(after, after.passed):
        return "out_of_dice"
    if not after.options.reroll_passed_dice and before.taken == 0 and before.placed == 0:
        return "out_of_dice"
    return None


def could_ever_place(state: State, dice: tuple[Die, ...]) -> bool:
    """Some of `dice` has a placement with a face it may show next turn: any face when passed
    dice are re-rolled (3.1-3), else the face it shows."""
    reroll = state.options.reroll_passed_dice
    return any(
        placements(state, Die(d.id, face)) for d in dice for face in (data.FACES if reroll else (d.face,))
    )


# --- queries ---------------------------------------------------------------------------------


def is_terminal(state: State) -> bool:
    return state.phase == "over"


def players_to_act(state: State) -> list[PlayerId]:
    if state.phase in ("take", "place"):
        return [state.active]
    return []


def take_choices(state: State) -> list[TakeDice]:
    """Every colour mix of dice the active player may take (3.3-6)."""
    count = min(data.DICE_TAKEN_PER_TURN, len(state.bushel))
    available = state.bushel_counts()
    return [
        TakeDice(red=r, black=b, golden=g)
        for r, b, g in product(*(range(available[c] + 1) for c in data.COLOURS))
        if r + b + g == count
    ]


def legal_commands(state: State, player: PlayerId) -> list[Command]:
    if player not in players_to_act(state):
        return []
    karma = state.karma[player]
    commands: list[Command] = []
    if state.phase == "take":
        commands += take_choices(state)
    else:
        for die in state.hand:
            commands += [PlaceDie(die=die.id, owner=o, token=t) for o, t in placements(state, die)]
        if not commands:
            commands.append(EndTurn())
        for die in state.hand:
            commands += _karma_on_die(die, karma)
    return commands + _karma_on_plants(state, karma)


def _karma_on_die(die: Die, karma: int) -> list[Command]:
    """What `karma` buys on a rolled die (Diced Tomatoes 5)."""
    costs = data.KARMA_COSTS
    commands: list[Command] = []
    if karma >= costs["reroll"]:
        commands.append(RerollDie(die=die.id))
    if karma >= costs["adjust"]:
        commands += [AdjustDie(die=die.id, by=by) for by in data.ADJUST_STEPS if die.face + by in data.FACES]
    if karma >= costs["invert"] and die.face in data.INVERT_PAIRS:
        commands.append(InvertDie(die=die.id))
    if karma >= costs["set"]:
        commands += [SetDie(die=die.id, value=v) for v in data.FACES if v != die.face]
    return commands


def _karma_on_plants(state: State, karma: int) -> list[Command]:
    """What `karma` buys on the plants of every player (Diced Tomatoes 5)."""
    costs = data.KARMA_COSTS
    commands: list[Command] = []
    for owner in state.players:
        for token, plant in enumerate(state.plants[owner]):
            if not plant:
                continue
            if karma >= costs["uproot"]:
                commands.append(UprootPlant(owner=owner, token=token))
            if karma >= costs["flip_seed"] and is_pattern(
                flipped(state, owner, token),
                state.colours,
            ):
                commands.append(FlipSeed(owner=owner, token=token))
    return commands


def result(state: State) -> Result:
    """Highest total wins, ties shared (3.1-13, 3.1-14); solo: matches, lost short of 6 (18)."""
    breakdown = {p: score_breakdown(state, p) for p in state.players}
    details = {"breakdown": breakdown, "end_reason": state.end_reason}
    if state.solo:
        (p,) = state.players
        total = breakdown[p]["total"]
        won = breakdown[p]["won"]
        return Result(
            scores={p: total},
            ranking=[Standing(player=p, rank=1, score=total)],
            winners=[p] if won else [],
            details={**details, "solo": True, "won": won},
        )
    return rank_players(state.players, lambda p: breakdown[p]["total"], details=details)


# --- decide ----------------------------------------------------------------------------------

decide = DecideByTurns(
    "Diced Tomatoes",
    {
        TakeDice: _take,
        UprootPlant: _uproot,
        FlipSeed: _flip_seed,
        PlaceDie: in_phase("place", _dice_not_rolled, _place),
        RerollDie: in_phase("place", _dice_not_rolled, _reroll),
        AdjustDie: in_phase("place", _dice_not_rolled, _adjust),
        InvertDie: in_phase("place", _dice_not_rolled, _invert),
        SetDie: in_phase("place", _dice_not_rolled, _set),
        EndTurn: in_phase("place", _dice_not_rolled, _end_turn),
    },
    players_to_act=players_to_act,
    is_terminal=is_terminal,
)
