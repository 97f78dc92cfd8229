"""The given/when/then helper every game's rules tests are written with.

    given = Given(GAME, setup_events)            # given: these events happened
    events = given.then("ann", PlayCard(card=3))  # when ann plays 3, then these events (logged)
    assert given.refused("bob", PlayCard(card=99)) == "card_not_in_hand"   # or this refusal

`when` only asks (the log is unchanged); `then` requires acceptance and appends the events;
`refused` requires a refusal, with a message for a person, and returns its code. `accepts` and
`rejects` ask like `when` but require one outcome and return it typed as such; `accepted` and
`rejected` do the same for any `decide` outcome; `as_type` reads an event (or a command) as its
class, and `unredacted` a redactable field that must be whole.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from typing import Any, Generic, TypeVar

from shared.games.decider import Command, Context, Event, Game, PlayerId, Rejection, fold

S = TypeVar("S")
T = TypeVar("T")


def accepted(outcome: Sequence[Event] | Rejection) -> list[Event]:
    """The events of an outcome that must be an acceptance (else the test fails, naming the
    rejection)."""
    assert not isinstance(outcome, Rejection), outcome
    return list(outcome)


def rejected(outcome: Sequence[Event] | Rejection) -> Rejection:
    """The rejection of an outcome that must be a refusal (else the test fails, naming the
    events)."""
    assert isinstance(outcome, Rejection), outcome
    return outcome


def unredacted(values: Iterable[T | None]) -> list[T]:
    """A redactable field (cards, a code) as its writer saw it: no value may be hidden (None)."""
    seen = list(values)
    assert None not in seen, seen
    return [v for v in seen if v is not None]


def as_type(item: object, kind: type[T]) -> T:
    """`item` (an event, a command), which must be of `kind` (else the test fails, naming it)."""
    assert isinstance(item, kind), (kind.__name__, item)
    return item


class Given(Generic[S]):
    """A game's log so far (`events`, folded onto `start`, by default the game's initial
    state) and the commands tried on it."""

    def __init__(
        self,
        game: Game[S, Any],
        events: Iterable[Event] = (),
        *,
        start: S | None = None,
    ) -> None:
        self.game = game
        self.start: S = game.initial_state if start is None else start
        self.events: list[Event] = list(events)

    @property
    def state(self) -> S:
        return fold(self.game.evolve, self.events, self.start)

    def add(self, *events: Event) -> Given[S]:
        """More facts: events appended as they are, without deciding anything."""
        self.events += events
        return self

    def when(
        self,
        actor: PlayerId,
        command: Command,
        rng: random.Random | None = None,
    ) -> Sequence[Event] | Rejection:
        """What `command` from `actor` decides now (an rng seeded 0 unless given); the log is
        unchanged."""
        context = Context(actor=actor, rng=rng or random.Random(0))
        outcome = self.game.decide(self.state, command, context)
        return outcome if isinstance(outcome, Rejection) else list(outcome)

    def then(
        self,
        actor: PlayerId,
        command: Command,
        rng: random.Random | None = None,
    ) -> list[Event]:
        """`command` must be accepted: its events, appended to the log."""
        events = self.accepts(actor, command, rng)
        self.events += events
        return events

    def accepts(
        self,
        actor: PlayerId,
        command: Command,
        rng: random.Random | None = None,
    ) -> list[Event]:
        """`command` must be accepted: its events; the log is unchanged."""
        outcome = self.when(actor, command, rng)
        assert not isinstance(outcome, Rejection), (command, outcome)
        return list(outcome)

    def rejects(
        self,
        actor: PlayerId,
        command: Command,
        rng: random.Random | None = None,
    ) -> Rejection:
        """`command` must be refused: the rejection; the log is unchanged."""
        outcome = self.when(actor, command, rng)
        assert isinstance(outcome, Rejection), (command, outcome)
        return outcome

    def refused(
        self,
        actor: PlayerId,
        command: Command,
        rng: random.Random | None = None,
    ) -> str:
        """`command` must be refused, with a message for a person: the refusal's code."""
        outcome = self.rejects(actor, command, rng)
        assert outcome.message, outcome
        return outcome.code
