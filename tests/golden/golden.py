"""Golden playthroughs: one seeded bot game per game and main option set, recorded as the
events of every step and every viewer's view after it, so that a change to a rule or a view
shows up as a diff against the file.

Views are stored as changes: after each step, for each viewer, the paths ("grids/p1/3") whose
value differs from that viewer's previous view, and under "(gone)" the paths it lost. That
keeps the files small, and equal changes from the same start are equal views. The changes
all viewers share are written once, under "(all)".

Regenerate on purpose (after a change meant to alter play or views):
    python -m tests.golden.regenerate
"""

from __future__ import annotations

import difflib
import json
import random
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import msgspec

from shared.games.decider import PlayerId
from shared.games.simulate import simulate
from shared.games.table import TableDecider

FOLDER = Path(__file__).resolve().parent
SPECTATOR = "(spectator)"
ALL = "(all)"
OPEN_LIST = 4


@dataclass(frozen=True)
class Golden:
    """One recorded playthrough: a game, its options, its seats and the seed of its bots."""

    game: str
    name: str  # the option set's name, in the file name
    options: dict[str, Any]
    seats: int
    seed: int

    @property
    def path(self) -> Path:
        return FOLDER / f"{self.game}-{self.name}.json"


# One per game and main option set, chosen to keep the files small (short games).
GOLDENS = (
    Golden("highcard", "default", {}, 3, 1),
    Golden("decrypto", "two_rounds", {"max_rounds": 2}, 4, 1),
    Golden("diced_tomatoes", "solo", {}, 1, 1),
    Golden("dozito", "one_round", {"rounds": 1}, 2, 1),
    Golden("illustori", "small_deck", {"deck_size": 16}, 3, 1),
    Golden("naishi", "default", {}, 2, 1),
)


def _plain(value: Any) -> Any:
    return msgspec.json.decode(msgspec.json.encode(value))


def flat(value: Any, prefix: str = "") -> dict[str, Any]:
    """A view as path -> value: dicts opened all the way down, lists of more than
    `OPEN_LIST` items opened one level ("legal/3"), anything else whole."""
    if isinstance(value, list) and len(value) > OPEN_LIST:
        return {f"{prefix}/{i}": item for i, item in enumerate(value)}
    if isinstance(value, dict) and value:
        out: dict[str, Any] = {}
        for key, item in value.items():
            out.update(flat(item, f"{prefix}/{key}" if prefix else str(key)))
        return out
    return {prefix: value}


def shared_part(views: dict[str, dict[str, Any]]) -> dict[str, dict[str, Any]]:
    """The changes every viewer has in common stored once, under ALL."""
    first, *others = views.values()
    common = {k: v for k, v in first.items() if all(k in other and other[k] == v for other in others)}
    return {
        ALL: common,
        **{viewer: {k: v for k, v in change.items() if k not in common} for viewer, change in views.items()},
    }


def play(decider: TableDecider, golden: Golden) -> list[dict[str, Any]]:
    """The playthrough's steps: who acted, the events, and each viewer's view changes."""
    players = [f"p{i}" for i in range(1, golden.seats + 1)]
    sim = simulate(decider, players, random.Random(golden.seed), options=golden.options)
    table = decider.initial_state
    viewers: list[PlayerId | None] = [*players, None]
    last: dict[str, dict[str, Any]] = {}
    steps = []
    for actor, events in sim.log:
        for event in events:
            table = decider.evolve(table, event)
        views = {}
        for viewer in viewers:
            key = SPECTATOR if viewer is None else viewer
            view = flat(_plain(decider.player_view(table, viewer)))
            before = last.get(key, {})
            change = {k: v for k, v in view.items() if before.get(k, ...) != v}
            gone = sorted(set(before) - set(view))
            if gone:
                change["(gone)"] = gone
            views[key] = change
            last[key] = view
        steps.append({"actor": actor, "events": _plain(events), "views": shared_part(views)})
    return steps


def record(decider: TableDecider, golden: Golden) -> dict[str, Any]:
    return {
        "game": golden.game,
        "options": golden.options,
        "seats": golden.seats,
        "seed": golden.seed,
        "steps": play(decider, golden),
    }


def write(decider: TableDecider, golden: Golden) -> None:
    body = json.dumps(record(decider, golden), ensure_ascii=False, separators=(",", ":"))
    # one step a line: small files whose diffs read step by step
    body = body.replace(',{"actor":', ',\n{"actor":')
    golden.path.write_text(body + "\n", encoding="utf-8")


def _pretty(value: Any) -> list[str]:
    return json.dumps(value, indent=1, sort_keys=True, ensure_ascii=False).splitlines()


def differences(decider: TableDecider, golden: Golden, limit: int = 60) -> str:
    """A readable diff between the recorded playthrough and today's, first step first; "" when
    they are the same."""
    recorded = json.loads(golden.path.read_text(encoding="utf-8"))["steps"]
    current = play(decider, golden)
    for index, (old, new) in enumerate(zip(recorded, current, strict=False)):
        for part in ("actor", "events", "views"):
            if old[part] != new[part]:
                diff = difflib.unified_diff(
                    _pretty(old[part]),
                    _pretty(new[part]),
                    f"recorded step {index} {part}",
                    f"today's step {index} {part}",
                    lineterm="",
                )
                return "\n".join(list(diff)[:limit])
    if len(recorded) != len(current):
        return f"the recorded game has {len(recorded)} steps, today's {len(current)}"
    return ""
