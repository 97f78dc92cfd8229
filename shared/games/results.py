"""How a table's game ends, and the end in words: the game's own result, or the platform's
(every player left, the table expired, a clock decided a two-player game), naming the seats
whose players quit or ran out of time."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import msgspec

from shared.games.decider import Game, Language, PlayerId, Result, Standing, spoken_list
from shared.games.table_messages import GameEnded
from shared.games.table_state import Table


def ending(game: Game[Any, Any], after: Table) -> GameEnded | None:
    """The `game_ended` event due once a batch left the table as `after`: the game reached
    its end, or no person is left seated."""
    if after.status != "running":
        return None
    if game.is_terminal(after.game):
        return GameEnded(result=_with_departures(after, game.result(after.game)))
    if not after.humans:
        return GameEnded(result=_with_departures(after, abandoned()))
    return None


def game_ended(table: Table, event: GameEnded) -> Table:
    return msgspec.structs.replace(table, status="ended", result=event.result)


def abandoned(*, expired: bool = False, idle: bool = False) -> Result:
    """No result: every player left, nobody started the table in time (`expired`), or nobody
    moved for long at a table without clocks (`idle`)."""
    details: dict[str, Any] = {"abandoned": True}
    if expired:
        details["expired"] = True
    if idle:
        details["idle"] = True
    return Result(scores={}, ranking=[], winners=[], details=details)


def _with_departures(table: Table, result: Result) -> Result:
    """`result` naming the seats whose players quit (`abandoned_seats`) or ran out of time
    (`timed_out`). Leaving forfeits: those players rank below every player who finished
    (`forfeited`), whatever the bot that played their seat scored."""
    details = dict(result.details)
    if table.quitters:
        details["abandoned_seats"] = list(table.quitters)
    if table.timed_out:
        details["timed_out"] = list(table.timed_out)
    left = [p for p in table.players if p in table.quitters or p in table.timed_out]
    finished = [s for s in result.ranking if s.player not in left]
    if left and finished:
        details["forfeited"] = left
        return _ranked_last(msgspec.structs.replace(result, details=details), left)
    return msgspec.structs.replace(result, details=details)


def _ranked_last(result: Result, losers: Sequence[PlayerId]) -> Result:
    """`result` with `losers` moved after everyone else (sharing the last rank), and out of the
    winners."""
    kept = [s for s in result.ranking if s.player not in losers]
    last = len(kept) + 1
    moved = [
        Standing(player=s.player, rank=last, score=s.score) for s in result.ranking if s.player in losers
    ]
    first = kept[0].rank if kept else None
    return msgspec.structs.replace(
        result, ranking=kept + moved, winners=[s.player for s in kept if s.rank == first]
    )


def lost_on_time(table: Table, expired: Sequence[PlayerId]) -> Result:
    """A two-player game ended by a clock: who did not run out of time (before, or `expired`
    now) wins."""
    timed_out = (*table.timed_out, *expired)
    standing = [p for p in table.players if p not in timed_out]
    scores: dict[PlayerId, float | int] = {p: int(p in standing) for p in table.players}
    ranking = [
        Standing(player=p, rank=1 if p in standing else len(standing) + 1, score=scores[p])
        for p in (*standing, *timed_out)
    ]
    return Result(
        scores=scores,
        ranking=ranking,
        winners=standing,
        details={"timed_out": list(timed_out), "lost_on_time": True},
    )


# The words of a game's end, by language ("{}": the names or the list of names).
RESULT_WORDS: dict[str, dict[str, str]] = {
    "en": {
        "expired": "Nobody started the game in time: the table expired",
        "idle": "Nobody moved for a long time: the game is closed, without a winner",
        "emptied": "No player is left at the table: it is closed",
        "abandoned": "Every player left before the start: the table is closed",
        "over": "Game over: {}",
        "nobody": "nobody won",
        "won": "{} won",
        "shared": "{} share the win",
        "forfeited": "; {} left the game and ranks last",
        "forfeited_many": "; {} left the game and rank last",
        "and": "and",
    },
    "fr": {
        "expired": "Personne n'a lancé la partie à temps : la table a expiré",
        "idle": "Personne n'a joué depuis longtemps : la partie est close, sans vainqueur",
        "emptied": "Plus aucun joueur à la table : elle est close",
        "abandoned": "Tous les joueurs sont partis avant le début : la table est close",
        "over": "Partie terminée : {}",
        "nobody": "personne n'a gagné",
        "won": "{} a gagné",
        "shared": "{} partagent la victoire",
        "forfeited": " ; {} a quitté la partie et finit dernier",
        "forfeited_many": " ; {} ont quitté la partie et finissent derniers",
        "and": "et",
    },
}


def said_result(result: Result, language: Language = "en") -> str:
    """The end of a game in words: who won, the scores in ranking order, or why nobody did."""
    words = RESULT_WORDS[language]
    details = result.details
    if details.get("expired"):
        return words["expired"]
    if details.get("idle"):
        return words["idle"]
    if details.get("abandoned"):
        return words["emptied" if details.get("abandoned_seats") or details.get("timed_out") else "abandoned"]
    scores = ", ".join(f"{s.player} {_number(s.score)}" for s in result.ranking)
    forfeited = details.get("forfeited")
    if forfeited:
        left = words["forfeited_many" if len(forfeited) > 1 else "forfeited"]
        scores += left.format(spoken_list(forfeited, words["and"]))
    if not result.winners:
        outcome = words["nobody"]
    elif len(result.winners) == 1:
        outcome = words["won"].format(result.winners[0])
    else:
        outcome = words["shared"].format(spoken_list(result.winners, words["and"]))
    return words["over"].format(outcome) + (f" ({scores})" if scores else "")


def _number(value: float | int) -> str:
    return str(value) if isinstance(value, int) or not value.is_integer() else str(int(value))
