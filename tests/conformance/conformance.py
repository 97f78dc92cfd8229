"""The conformance check every game gets: whole seeded games played by the game's bot through
the table life (`TableDecider`), every step checked against what the platform relies on.

After every event: the event round-trips through JSON and the log folded from the JSON equals
the live table. After every command, for every seat and a spectator: the view round-trips
through JSON, nobody's view or redacted event shows one of that viewer's `secrets`, a running
table has someone to act and each of them has `legal`, an ended table has no `legal`; every
`legal` command is accepted, and a sample of commands that are not in `legal` (a legal one with
a field changed, one sent by a seat not to act, a command the game does not know) is refused
with a code; a person's seat not to act gets the platform's `not_your_turn`, in every game.
"""

from __future__ import annotations

import itertools
import os
import random
import re
from collections.abc import Callable, Hashable, Iterator, Mapping
from collections.abc import Set as AbstractSet
from dataclasses import dataclass, field
from typing import Any, cast

import msgspec

from services.registry import games
from shared.games.decider import Command, Context, Event, PlayerId, Rejection
from shared.games.simulate import Simulation, simulate
from shared.games.table import TABLE_EVENTS, Table, TableCreated, TableDecider, Undo
from shared.games.turns import not_your_turn
from tests.highcard import GAME as HIGHCARD

# How many whole games the long (`slow`) runs play per game; the quick run plays each option
# set and player count once.
GAMES = int(os.environ.get("TABLETOP_TEST_GAMES", "60"))
CODE = re.compile(r"^[a-z][a-z0-9_]*$")
# Table constants fixed at `create`, before any game secret exists: not searched for secrets.
TABLE_CONSTANT_KEYS = frozenset({"options", "seat_count"})
MUTANTS_PER_STEP = 3


def deciders() -> dict[str, TableDecider]:
    """Every registered game (built-in, entry points, `TABLETOP_GAMES`) and the test game."""
    found = dict(games())
    found.setdefault(HIGHCARD.name, TableDecider(HIGHCARD))
    found.pop("crashy", None)  # the test game with bugs planted on purpose
    return found


# --- option sets ----------------------------------------------------------------------------


def _field_values(info: msgspec.inspect.Type) -> list[Any]:
    """The values an option field can take, when they are few: a `Literal` or a bool."""
    if isinstance(info, msgspec.inspect.Metadata):  # `Annotated[...]`: its sentence, its bounds
        return _field_values(info.type)
    if isinstance(info, msgspec.inspect.LiteralType):
        return list(info.values)
    if isinstance(info, msgspec.inspect.BoolType):
        return [False, True]
    if isinstance(info, msgspec.inspect.UnionType):
        return [v for t in info.types for v in _field_values(t)] + (
            [None] if any(isinstance(t, msgspec.inspect.NoneType) for t in info.types) else []
        )
    return []


def option_sets(decider: TableDecider) -> list[dict[str, Any]]:
    """The default options, then every enumerable option alone at each of its other values."""
    info = msgspec.inspect.type_info(decider.game.options)
    assert isinstance(info, msgspec.inspect.StructType)
    sets: list[dict[str, Any]] = [{}]
    defaults = msgspec.to_builtins(decider.game.options())
    for f in info.fields:
        for value in _field_values(f.type):
            if value != defaults[f.encode_name] and value is not None:
                sets.append({f.encode_name: value})
    return sets


def player_counts(decider: TableDecider) -> list[int]:
    return list(range(decider.game.min_players, decider.game.max_players + 1))


def cases(decider: TableDecider, count: int) -> Iterator[tuple[int, dict[str, Any], int]]:
    """`count` (seed, options, players) cases cycling through every option set and every
    player count (their product, in a coprime order, so both vary from one game to the next)."""
    product = list(itertools.product(option_sets(decider), player_counts(decider)))
    for seed in range(count):
        options, players = product[seed % len(product)]
        yield seed, options, players


def quick_cases(decider: TableDecider) -> list[tuple[int, dict[str, Any], int]]:
    """Each option set once and each player count once, for the default run."""
    sets, counts = option_sets(decider), player_counts(decider)
    return [(i, sets[i % len(sets)], counts[i % len(counts)]) for i in range(max(len(sets), len(counts)))]


# --- secrets ----------------------------------------------------------------------------------


def leaves(value: Any) -> list[Hashable]:
    """Every leaf value of a JSON-ready value. Dict keys are the view's own words and player
    ids, never a secret (a keyword may be spelt like a key); bools and None are left out (a
    secret is never one of those, and True would equal 1). A loop over a stack, not recursive
    generators: it runs on every view and event of thousands of whole games."""
    if isinstance(value, Mapping):
        stack = [item for key, item in value.items() if key not in TABLE_CONSTANT_KEYS]
    else:
        stack = [value]
    found: list[Hashable] = []
    while stack:
        item = stack.pop()
        kind = type(item)
        if kind is str or kind is int:
            found.append(item)
        elif kind is dict:
            stack.extend(item.values())
        elif kind is list:
            stack.extend(item)
        elif item is None or kind is bool:
            continue
        elif isinstance(item, Mapping):
            stack.extend(item.values())
        elif isinstance(item, (list, tuple)):
            stack.extend(item)
        else:
            found.append(item)
    return found


class Leak(AssertionError):
    """A view or a redacted event shows one of its viewer's secrets."""


def check_no_secret(value: Any, secrets: AbstractSet[Hashable], where: object) -> None:
    shown = {leaf for leaf in leaves(value) if leaf in secrets}
    if shown:
        raise Leak(f"{where}: shows {sorted(map(str, shown))}")


# --- one game ---------------------------------------------------------------------------------


@dataclass
class Tally:
    """What a run met, so a test can insist that its checks were not vacuous."""

    steps: int = 0
    events: int = 0
    accepted: int = 0
    refused: dict[str, int] = field(default_factory=dict)
    secrets: int = 0  # viewer-steps where the viewer had something to be kept from


class Probe(Command, frozen=True, kw_only=True):
    """A command no game knows."""


def _mutants(command: Command, rng: random.Random) -> Iterator[Command]:
    """`command` with one field changed (numbers, bools, literal words; never free text)."""
    data = msgspec.to_builtins(command)
    for name, value in data.items():
        if name == "type":
            continue
        changes: list[Any] = []
        if isinstance(value, bool):
            changes = [not value]
        elif isinstance(value, int):
            changes = [value + 1, value - 1, -1, 99]
        elif (
            isinstance(value, list)
            and value
            and all(isinstance(v, int) and not isinstance(v, bool) for v in value)
        ):
            changes = [[value[0] + 1, *value[1:]], value[:-1], [*value, value[-1]]]
        for change in changes:
            try:
                yield msgspec.convert({**data, name: change}, type(command))
            except msgspec.ValidationError:
                continue  # a value the command's schema itself refuses never reaches `decide`


class Run:
    """One seeded game, checked as it is played."""

    def __init__(
        self,
        decider: TableDecider,
        tally: Tally | None = None,
        invariants: Callable[[Table, Event], None] | None = None,
    ) -> None:
        self.decider = decider
        self.tally = tally or Tally()
        self.invariants = invariants
        self.sim: Simulation | None = None
        self.replayed: Table = decider.initial_state
        self.before: Table = decider.initial_state
        self.batch: list[Event] = []

    def secrets(self, table: Table, viewer: PlayerId | None) -> AbstractSet[Hashable]:
        if table.game is None:
            return frozenset()
        return self.decider.game.secrets(table.game, viewer)

    def viewers(self, table: Table) -> list[PlayerId | None]:
        return [*table.players, None]

    def after_event(self, table: Table, event: Event) -> None:
        decider = self.decider
        self.tally.events += 1
        wire = msgspec.json.encode(event)
        decoded = msgspec.json.decode(wire, type=decider.event_type)
        assert decoded == event, (event, decoded)
        self.replayed = decider.evolve(self.replayed, decoded)
        assert self.replayed == table, f"the log folded from JSON differs after {event}"
        if self.invariants is not None:
            self.invariants(table, event)
        if not isinstance(event, TABLE_EVENTS) or isinstance(event, TableCreated):
            self.batch.append(event)
        before, self.before = self.before, table
        if not isinstance(event, TABLE_EVENTS) and decider.seen_alike(event):
            self.check_seen_alike(event, self.viewers(table))
        for viewer in self.viewers(table):
            seen = decider.redact(event, viewer)
            if seen is None:
                continue
            body = msgspec.to_builtins(seen)
            again = msgspec.json.decode(msgspec.json.encode(seen), type=decider.event_type)
            assert again == seen, (seen, again)
            if isinstance(event, TABLE_EVENTS):
                continue
            # a card hidden before and after the event is the one it must not show; one
            # shown on the way in or out of sight is seen by this viewer
            hidden = set(self.secrets(before, viewer)) & set(self.secrets(table, viewer))
            check_no_secret(body, hidden, (type(event).__name__, viewer))

    def check_seen_alike(self, event: Event, viewers: list[PlayerId | None]) -> None:
        """An event the game says every viewer sees alike (`Game.seen_alike`) is redacted and
        said the same for each of them, in every language: the projector says it once."""
        decider = self.decider
        told = [
            (msgspec.json.encode(seen), *(decider.describe(seen, viewer, lang) for lang in ("en", "fr")))
            if (seen := decider.redact(event, viewer)) is not None
            else None
            for viewer in viewers
        ]
        for viewer, each in zip(viewers, told, strict=True):
            assert each == told[-1], ("an event said to be seen alike is not", type(event).__name__, viewer)

    def after_command(self, table: Table, rng: random.Random) -> None:
        decider = self.decider
        self.tally.steps += 1
        to_act = decider.players_to_act(table)
        if table.status == "running":
            assert to_act, "a running table with nobody to act"
        viewers = list(self.viewers(table))
        together = decider.player_views(table, viewers)  # as the table projector makes them
        for viewer, view in zip(viewers, together, strict=True):
            assert msgspec.json.encode(view) == msgspec.json.encode(decider.player_view(table, viewer)), (
                "the views made together differ from the viewer's own",
                viewer,
            )
            assert msgspec.json.decode(msgspec.json.encode(view)) == view, "view not JSON-native"
            secret = self.secrets(table, viewer)
            self.tally.secrets += bool(secret)
            check_no_secret(view, secret, ("view", viewer))
            if table.status == "ended":
                assert "legal" not in view, (viewer, view.get("legal"))
            elif table.status == "running" and viewer in to_act:
                assert view.get("legal"), f"{viewer} is to act and has no legal command"
        if table.status == "running":
            self.check_legal_accepted(table, to_act)
            self.check_others_refused(table, to_act, rng)

    def decide(self, table: Table, actor: PlayerId, command: Command) -> Any:
        return self.decider.decide(table, command, Context(actor=actor, rng=random.Random(0)))

    def check_legal_accepted(self, table: Table, to_act: list[PlayerId]) -> None:
        for player in to_act:
            for command in self.decider.legal_commands(table, player):
                outcome = self.decide(table, player, command)
                assert not isinstance(outcome, Rejection), (player, command, outcome)
                self.tally.accepted += 1

    def refused(self, table: Table, actor: PlayerId, command: Command) -> Rejection:
        outcome = self.decide(table, actor, command)
        assert isinstance(outcome, Rejection), f"{actor}: {command} is not legal, yet accepted"
        assert CODE.match(outcome.code), outcome
        self.tally.refused[outcome.code] = self.tally.refused.get(outcome.code, 0) + 1
        return outcome

    def check_others_refused(
        self,
        table: Table,
        to_act: list[PlayerId],
        rng: random.Random,
    ) -> None:
        player = rng.choice(to_act)
        legal = self.decider.legal_commands(table, player)
        mutants = [m for c in legal for m in _mutants(c, rng) if m not in legal]
        for command in rng.sample(mutants, min(MUTANTS_PER_STEP, len(mutants))):
            self.refused(table, player, command)
        waiting = [p for p in table.players if p not in to_act]
        moves = [c for c in legal if not isinstance(c, Undo)]  # a take-back is the mover's own
        if waiting and moves:
            actor = rng.choice(waiting)
            outcome = self.refused(table, actor, rng.choice(moves))
            if actor in table.humans:  # the platform's turn guard, the same in every game
                assert outcome == not_your_turn(to_act), outcome
        self.refused(table, player, Probe())
        assert self.decide(table, player, Probe()).code == "bad_command"


def play(
    decider: TableDecider,
    seed: int,
    options: Mapping[str, Any],
    seats: int,
    tally: Tally | None = None,
    invariants: Callable[[Table, Event], None] | None = None,
) -> Run | None:
    """Play and check one whole game; None when the options do not suit `seats` players.
    `invariants(table, event)`, a game's own checks, runs after every event."""
    players = [f"p{i}" for i in range(1, seats + 1)]
    created = decider.decide(
        decider.initial_state,
        msgspec.convert({"type": "create", "options": dict(options), "seats": seats}, decider.command_type),
        Context(actor=players[0], rng=random.Random(seed)),
    )
    if isinstance(created, Rejection):
        assert created.code == "bad_option", created
        return None
    run = Run(decider, tally, invariants)
    checks = random.Random(seed + 1)
    real_decide = decider.decide

    def checked(table: Table, command: Command, ctx: Context) -> Any:
        if table.status != "new":
            run.after_command(table, checks)
        return real_decide(table, command, ctx)

    # simulate() decides every command through `decider.decide`: checking just before each
    # command is checking after the previous one.
    shim = _Checked(decider, checked)
    sim = simulate(
        cast(TableDecider, shim),
        players,
        random.Random(seed),
        options=dict(options),
        after_event=run.after_event,
    )
    run.after_command(sim.table, checks)
    assert sim.table.status == "ended" and sim.table.result is not None
    run.sim = sim
    return run


@dataclass(frozen=True)
class _Checked:
    """A TableDecider whose `decide` checks the table first; everything else is the game's."""

    inner: TableDecider
    decide: Any

    def __getattr__(self, name: str) -> Any:
        return getattr(self.inner, name)


def conforms(decider: TableDecider) -> None:
    """The quick run of one game: each option set and each player count played once."""
    tally = Tally()
    played = [play(decider, seed, options, seats, tally) for seed, options, seats in quick_cases(decider)]
    assert any(played), "no option set suits any player count"
    assert tally.accepted and tally.steps and tally.events
    assert "bad_command" in tally.refused


def same_seed_same_log(decider: TableDecider) -> None:
    """The same seed gives the same log whatever the global `random` did before."""
    players = [f"p{i}" for i in range(1, decider.game.min_players + 1)]
    logs = []
    for noise in (1, 2):
        random.seed(noise)  # the global generator churned differently before each game
        for _ in range(noise * 10):
            random.random()
        logs.append(msgspec.json.encode(simulate(decider, players, random.Random(7)).events))
    assert logs[0] == logs[1]
