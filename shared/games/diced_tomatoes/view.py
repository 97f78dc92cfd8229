"""What a viewer sees of a Diced Tomatoes game, replays, and the bot.

Nothing is hidden: every die is on the table for all to see. Only the future is unknown, and
it lives in no state or event before it is rolled.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from shared.games.decider import Event, PlayerId, View, describe_with, spoken_list
from shared.games.diced_tomatoes import data
from shared.games.diced_tomatoes.messages import (
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
            phase=state.phase,
            round=round_of_turn(state.turn, len(state.players)),
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


# --- the game log ---------------------------------------------------------------------------

_CHANGES = {  # effect -> what was done to the die
    "reroll": "re-roll a die",
    "adjust": "move a die by one",
    "invert": "turn a die over",
    "set": "set a die",
}
_ENDS = {
    "final_round": "the final round is over",
    "empty_bushel": "the bushel is empty",
    "out_of_dice": "no die left to play",
}


def _tomato(owner: PlayerId, token: int) -> str:
    """A tomato token as the board numbers it, from 1 (the events count from 0)."""
    return f"{owner}'s tomato {token + 1}"


def _set_up(event: GameSetUp, viewer: PlayerId | None) -> str:
    said = "; then ".join(", ".join(f"{p} {f}" for p, f in r.items()) for r in event.start_rolls)
    first, last = event.first_player, event.last_player
    return f"Starting rolls: {said}. {first} plays first; {last} holds the last-player marker"


def _count(dice: Sequence[int]) -> str:
    return "1 die" if len(dice) == 1 else f"{len(dice)} dice"


def _dice_rolled(event: DiceRolled, viewer: PlayerId | None) -> str:
    rolled = spoken_list(str(face) for face in event.faces)  # dice by face: ids are bookkeeping
    took = f"took {_count(event.taken)} from the bushel and " if event.taken else ""
    return f"{event.player} {took}rolled {rolled}"


def _die_placed(event: DiePlaced, viewer: PlayerId | None) -> str:
    return f"{event.player} placed a {event.face} on {_tomato(event.owner, event.token)}"


def _plant_harvested(event: PlantHarvested, viewer: PlayerId | None) -> str:
    bonus = f", with a golden star worth {event.star}" if event.star else ""
    return (
        f"{event.completer} harvested {_tomato(event.owner, event.token)}: value {event.value} in slot "
        f"{event.slot} of {event.owner}'s score track{bonus}"
    )


def _plant_uprooted(event: PlantUprooted, viewer: PlayerId | None) -> str:
    tomato = _tomato(event.owner, event.token)
    if event.cause == "karma":
        return f"{event.player} spent {event.cost} karma to uproot {tomato}"
    why = "rotten (value 0 or less)" if event.cause == "rotten" else "overripe (value 7 or more)"
    return f"{tomato} was {why} and uprooted"


def _die_changed(event: DieChanged, viewer: PlayerId | None) -> str:
    done = _CHANGES.get(event.effect, f"{event.effect} a die")
    return f"{event.player} spent {event.cost} karma to {done}: now a {event.face}"


def _seed_flipped(event: SeedFlipped, viewer: PlayerId | None) -> str:
    tomato = _tomato(event.owner, event.token)
    return f"{event.player} spent {event.cost} karma to flip the seed of {tomato}: now a {event.face}"


def _karma_gained(event: KarmaGained, viewer: PlayerId | None) -> str:
    why = "for a harvest" if event.reason == "harvest" else "from karma thirds"
    return f"{event.player} gained {event.amount} karma {why} (now {event.karma})"


def _final_round_triggered(event: FinalRoundTriggered, viewer: PlayerId | None) -> str:
    return f"{event.player} harvested a 6th plant first (+2 points): this is the final round"


def _turn_ended(event: TurnEnded, viewer: PlayerId | None) -> str:
    nxt = event.next_player
    given = f", passing {_count(event.passed)} to {nxt}" if event.passed else ""
    return f"{event.player} ended the turn{given} (karma {event.karma}); {nxt} to play"


def _play_ended(event: PlayEnded, viewer: PlayerId | None) -> str:
    return f"Play is over: {_ENDS.get(event.reason, event.reason)}"


# One event in words, as a player at the table would say it (docs/games/diced_tomatoes.md).
describe = describe_with(
    {
        GameSetUp: _set_up,
        DiceRolled: _dice_rolled,
        DiePlaced: _die_placed,
        PlantHarvested: _plant_harvested,
        PlantUprooted: _plant_uprooted,
        DieChanged: _die_changed,
        SeedFlipped: _seed_flipped,
        KarmaGained: _karma_gained,
        FinalRoundTriggered: _final_round_triggered,
        TurnEnded: _turn_ended,
        PlayEnded: _play_ended,
    }
)


def secrets(state: State, viewer: PlayerId | None) -> frozenset[str]:
    """Nothing: every die is public, and the next roll is in no state."""
    return frozenset()
