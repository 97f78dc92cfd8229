"""What a viewer sees of a Diced Tomatoes game, replays, and the bot.

Nothing is hidden: every die is on the table for all to see. Only the future is unknown, and
it lives in no state or event before it is rolled.
"""

from __future__ import annotations

from typing import Any

from shared.games.decider import Event, PlayerId, View, spoken_list
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

_CHANGES = {  # effect -> what was done to die {}
    "reroll": "re-roll die {}",
    "adjust": "move die {} by one",
    "invert": "turn die {} over",
    "set": "set die {}",
}
_ENDS = {
    "final_round": "the final round is over",
    "empty_bushel": "the bushel is empty",
    "out_of_dice": "no die left to play",
}


def _tomato(owner: PlayerId, token: int) -> str:
    return f"{owner}'s tomato {token}"


def describe(event: Event, viewer: PlayerId | None) -> str | None:
    """One event in words, as a player at the table would say it (docs/games/diced_tomatoes.md)."""
    match event:
        case GameSetUp(start_rolls=rolls, first_player=first, last_player=last):
            said = "; then ".join(", ".join(f"{p} {f}" for p, f in r.items()) for r in rolls)
            return f"Starting rolls: {said}. {first} plays first; {last} holds the last-player marker"
        case DiceRolled(player=p, taken=taken, dice=dice, faces=faces):
            rolled = spoken_list(f"{f} (die {d})" for d, f in zip(dice, faces))
            count = "1 die" if len(taken) == 1 else f"{len(taken)} dice"
            took = f"took {count} from the bushel and " if taken else ""
            return f"{p} {took}rolled {rolled}"
        case DiePlaced(player=p, die=die, face=face, owner=owner, token=token):
            return f"{p} placed a {face} (die {die}) on {_tomato(owner, token)}"
        case PlantHarvested(owner=owner, token=token, value=value, slot=slot, star=star, completer=completer):
            bonus = f", with a golden star worth {star}" if star else ""
            return (
                f"{completer} harvested {_tomato(owner, token)}: value {value} in slot "
                f"{slot} of {owner}'s score track{bonus}"
            )
        case PlantUprooted(owner=owner, token=token, cause=cause, player=p, cost=cost):
            if cause == "karma":
                return f"{p} spent {cost} karma to uproot {_tomato(owner, token)}"
            why = "rotten (value 0 or less)" if cause == "rotten" else "overripe (value 7 or more)"
            return f"{_tomato(owner, token)} was {why} and uprooted"
        case DieChanged(player=p, die=die, face=face, effect=effect, cost=cost):
            done = _CHANGES.get(effect, effect + " die {}").format(die)
            return f"{p} spent {cost} karma to {done}: now a {face}"
        case SeedFlipped(player=p, owner=owner, token=token, face=face, cost=cost):
            return f"{p} spent {cost} karma to flip the seed of {_tomato(owner, token)}: now a {face}"
        case KarmaGained(player=p, amount=amount, karma=karma, reason=reason):
            why = "for a harvest" if reason == "harvest" else "from karma thirds"
            return f"{p} gained {amount} karma {why} (now {karma})"
        case FinalRoundTriggered(player=p):
            return f"{p} harvested a 6th plant first (+2 points): this is the final round"
        case TurnEnded(player=p, passed=passed, karma=karma, next_player=nxt):
            count = "1 die" if len(passed) == 1 else f"{len(passed)} dice"
            given = f", passing {count} to {nxt}" if passed else ""
            return f"{p} ended the turn{given} (karma {karma}); {nxt} to play"
        case PlayEnded(reason=reason):
            return f"Play is over: {_ENDS.get(reason, reason)}"
    return None


def secrets(state: State, viewer: PlayerId | None) -> frozenset[str]:
    """Nothing: every die is public, and the next roll is in no state."""
    return frozenset()
