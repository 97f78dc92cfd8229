"""How a table's game ends, and the end in words: the game's own result, or the platform's
(every player left, the table expired, a clock decided a two-player game), naming the seats
whose players quit or ran out of time."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import msgspec

from shared.games.decider import Game, PlayerId, Result, Standing, spoken_list
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


def said_result(result: Result) -> str:
    """The end of a game in words: who won, the scores in ranking order, or why nobody did."""
    if result.details.get("expired"):
        return "Nobody started the game in time: the table expired"
    if result.details.get("idle"):
        return "Nobody moved for a long time: the game is closed, without a winner"
    if result.details.get("abandoned") and (
        result.details.get("abandoned_seats") or result.details.get("timed_out")
    ):
        return "No player is left at the table: it is closed"
    if result.details.get("abandoned"):
        return "Every player left before the start: the table is closed"
    scores = ", ".join(f"{s.player} {_number(s.score)}" for s in result.ranking)
    forfeited = result.details.get("forfeited")
    if forfeited:
        rank = "rank" if len(forfeited) > 1 else "ranks"
        scores += f"; {spoken_list(forfeited)} left the game and {rank} last"
    if not result.winners:
        outcome = "nobody won"
    elif len(result.winners) == 1:
        outcome = f"{result.winners[0]} won"
    else:
        outcome = f"{spoken_list(result.winners)} share the win"
    return f"Game over: {outcome}" + (f" ({scores})" if scores else "")


def _number(value: float | int) -> str:
    return str(value) if isinstance(value, int) or not value.is_integer() else str(int(value))
