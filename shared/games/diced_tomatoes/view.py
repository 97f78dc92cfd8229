"""What a viewer sees of a Diced Tomatoes game, replays, and the bot.

Nothing is hidden: every die is on the table for all to see. Only the future is unknown, and
it lives in no state or event before it is rolled.
"""

from __future__ import annotations

from typing import Any

from shared.games.decider import Event, PlayerId, View
from shared.games.diced_tomatoes import data
from shared.games.diced_tomatoes.state import (
    Die,
    State,
    plant_value,
    score_breakdown,
)
from shared.games.view_terms import common_terms, round_of_turn


def player_view(state: State, viewer: PlayerId | None) -> View:
    """The whole table (all dice are public), with `you` naming the viewer's seat."""
    if not state.players:
        return {"you": viewer}
    colours = state.colours

    def dice(group: tuple[Die, ...]) -> list[dict[str, Any]]:
        return [{"die": d.id, "colour": colours[d.id], "face": d.face} for d in group]

    return {
        "you": viewer if viewer in state.players else None,
        "players": list(state.players),
        "solo": state.solo,
        **common_terms(
            active_player=None if state.phase in ("setup", "over") else state.active,
            phase=state.phase, round=round_of_turn(state.turn, len(state.players)),
            turn=state.turn,
        ),
        "first_player": state.first_player,
        "last_player": state.last_player,
        "start_rolls": [dict(r) for r in state.start_rolls],
        "bushel": state.bushel_counts(),
        "dice_to_take": min(data.DICE_TAKEN_PER_TURN, len(state.bushel)),
        "hand": dice(state.hand),
        "passed": dice(state.passed),
        "plants": {
            p: [
                {"dice": dice(plant), "value": plant_value(plant, colours) if plant else None}
                for plant in state.plants[p]
            ]
            for p in state.players
        },
        "tracks": {
            p: [
                {"slot": i, "die": s.die, "value": s.value, "star": s.star}
                for i, s in enumerate(state.tracks[p], start=1)
            ]
            for p in state.players
        },
        "karma": dict(state.karma),
        "karma_thirds": dict(state.thirds),
        "karma_costs": dict(data.KARMA_COSTS),
        "final_round": state.final_round,
        "first_full_track": state.first_full,
        "scores": {p: score_breakdown(state, p) for p in state.players},
        "end_reason": state.end_reason,
    }


def redact(event: Event, viewer: PlayerId | None) -> Event | None:
    """Every event is public."""
    return event


def secrets(state: State, viewer: PlayerId | None) -> frozenset[str]:
    """Nothing: every die is public, and the next roll is in no state."""
    return frozenset()
