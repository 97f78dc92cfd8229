"""Check a finished table's draws from what one viewer's replay shows (docs/fairness.md): the
revealed secret against the commitment, the seed from the secret and the seats' entropy, every
command's draws made again from the seed, the setup run again and compared with its logged
events, and every later draw compared with the events that show it. Pure: the replay's steps
in, a report out (`tabletop verify-fairness` and the tests print it)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import msgspec

from shared.games.draws import Draws, commitment, redraw, table_seed
from shared.games.table import (
    TABLE_EVENTS,
    DrawsMade,
    PlayerJoined,
    SeedCommitted,
    SeedRevealed,
    TableCreated,
    TableDecider,
    TableStarted,
)
from shared.games.table_state import game_options_of


@dataclass
class Report:
    """What was checked (`checked`), what failed (`problems`), and `unverifiable`: why the
    table cannot be checked at all (no seed, not ended)."""

    checked: list[str] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)
    unverifiable: str = ""

    @property
    def passed(self) -> bool:
        return not self.problems and not self.unverifiable


@dataclass
class _Log:
    """The replay's events that matter here, by step."""

    commitment: str = ""
    secret: str = ""
    revealed: dict[int, list[Any]] = field(default_factory=dict)
    entropy: dict[str, str] = field(default_factory=dict)
    options: dict[str, Any] = field(default_factory=dict)
    players: list[str] = field(default_factory=list)
    start_step: int = -1
    draws: list[tuple[int, DrawsMade]] = field(default_factory=list)  # (step index, event)


def _decoded(decider: TableDecider, steps: Sequence[dict[str, Any]]) -> list[list[Any]]:
    kind = list[decider.event_type]  # type: ignore[name-defined]
    return [msgspec.json.decode(msgspec.json.encode(s["events"]), type=kind) for s in steps]


def _read(events_by_step: list[list[Any]]) -> _Log:
    log = _Log()
    for index, events in enumerate(events_by_step):
        for event in events:
            match event:
                case SeedCommitted():
                    log.commitment = event.commitment
                case PlayerJoined():
                    log.entropy[event.player] = event.entropy
                case TableCreated():
                    log.options = event.options
                case TableStarted():
                    log.players, log.start_step = list(event.players), index
                case DrawsMade():
                    log.draws.append((index, event))
                case SeedRevealed():
                    log.secret, log.revealed = event.secret, dict(event.draws)
    return log


def check(decider: TableDecider, steps: Sequence[dict[str, Any]], viewer: str | None = None) -> Report:
    """The fairness of a finished table from `viewer`'s replay steps (None: a spectator's)."""
    report = Report()
    events_by_step = _decoded(decider, steps)
    log = _read(events_by_step)
    if not log.commitment:
        report.unverifiable = "this table was created before tables committed to their draws"
        return report
    if not log.secret:
        report.unverifiable = "the table has not ended: its secret is kept until it does"
        return report
    try:
        secret = bytes.fromhex(log.secret)
    except ValueError:
        report.problems.append("the revealed secret is not hex")
        return report
    if commitment(secret) != log.commitment:
        report.problems.append(
            f"the revealed secret does not match the commitment: SHA-256 {commitment(secret)[:16]}…, "
            f"committed {log.commitment[:16]}…"
        )
        return report
    report.checked.append(f"the revealed secret matches the commitment {log.commitment[:16]}…")
    if log.start_step < 0:
        report.checked.append("the game never started: nothing was drawn")
        return report
    seed = table_seed(secret, [log.entropy.get(p, "") for p in log.players])
    given = sum(1 for p in log.players if log.entropy.get(p))
    report.checked.append(
        f"the seed is SHA-256 of the secret and the entropy of {len(log.players)} seats "
        f"({given} gave their own)"
    )
    _check_blocks(log, seed, report)
    _check_setup(decider, log, events_by_step[log.start_step], seed, viewer, report)
    _check_moves(decider, log, events_by_step, seed, report)
    return report


def _check_blocks(log: _Log, seed: bytes, report: Report) -> None:
    """Every command's draws, from the block the one before stopped at, made again."""
    expected, made = 0, 0
    for _, event in log.draws:
        if event.first != expected:
            report.problems.append(f"draws start at block {event.first}, where block {expected} was next")
        receipts = log.revealed.get(event.first)
        if receipts is None:
            report.problems.append(f"the draws from block {event.first} are not among the revealed ones")
            expected = event.first + event.blocks
            continue
        _, after = redraw(seed, event.first, receipts)
        if after - event.first != event.blocks:
            report.problems.append(
                f"the draws from block {event.first} take {after - event.first} blocks, "
                f"not the {event.blocks} logged"
            )
        expected, made = event.first + event.blocks, made + len(receipts)
    if set(log.revealed) != {e.first for _, e in log.draws}:
        report.problems.append("the revealed draws are not those the log recorded")
    report.checked.append(f"{made} draws of {len(log.draws)} commands made again from the seed")


def _check_setup(
    decider: TableDecider, log: _Log, logged: list[Any], seed: bytes, viewer: str | None, report: Report
) -> None:
    """The game's setup, run again with the seed, deals what the log shows this viewer."""
    game = decider.game
    options = msgspec.convert(game_options_of(log.options), game.options)
    draws = Draws(seed, 0)
    setup = game.setup(options, tuple(log.players), draws)
    if not isinstance(setup, list | tuple):
        report.problems.append(f"the setup, run again, refuses the table: {setup}")
        return
    again = [seen for e in setup if (seen := game.redact(e, viewer)) is not None]
    shown = [e for e in logged if not isinstance(e, TABLE_EVENTS)]
    if msgspec.to_builtins(again) != msgspec.to_builtins(shown):
        report.problems.append("the setup, run again with the seed, does not deal what the log shows")
    elif draws.receipts != log.revealed.get(0, []):
        report.problems.append("the setup's revealed draws are not those it makes")
    else:
        count = f"{len(shown)} event{'s' if len(shown) != 1 else ''}"
        report.checked.append(f"the setup run again with the seed deals what the log shows ({count})")


def _check_moves(
    decider: TableDecider, log: _Log, events_by_step: list[list[Any]], seed: bytes, report: Report
) -> None:
    """Each later command's draws equal the results its events show."""
    game = decider.game
    recorded = {index: event for index, event in log.draws if index != log.start_step}
    seen, hidden = 0, 0
    for index, events in enumerate(events_by_step):
        if index == log.start_step:
            continue
        shown = [v for e in events if not isinstance(e, TABLE_EVENTS) for v in game.drawn(e)]
        draws_made = recorded.get(index)
        if draws_made is None:
            if shown:
                report.problems.append(f"step {index + 1} shows draws that no draws_made records")
            continue
        results, _ = redraw(seed, draws_made.first, log.revealed.get(draws_made.first, []))
        if len(shown) != len(results):
            report.problems.append(f"step {index + 1} shows {len(shown)} draws; the seed made {len(results)}")
            continue
        for value, result in zip(shown, results, strict=True):
            compared, unseen = _compare(value, msgspec.to_builtins(result))
            if compared is None:
                report.problems.append(f"step {index + 1}: the log shows {value!r}; the seed drew {result!r}")
            else:
                seen, hidden = seen + compared, hidden + unseen
    report.checked.append(
        f"the later draws equal what the events show: {seen} values compared, "
        f"{hidden} hidden from this viewer"
    )


def _compare(shown: Any, drawn: Any) -> tuple[int | None, int]:
    """(values equal, values hidden) of one draw's result as shown against as drawn; (None, _)
    when a shown value differs."""
    if shown is None:
        return 0, 1
    shown = msgspec.to_builtins(shown)
    if isinstance(shown, list) and isinstance(drawn, list) and len(shown) == len(drawn):
        equal, hidden = 0, 0
        for s, d in zip(shown, drawn, strict=True):
            if s is None:
                hidden += 1
            elif s == d:
                equal += 1
            else:
                return None, hidden
        return equal, hidden
    return (1, 0) if shown == drawn else (None, 0)
