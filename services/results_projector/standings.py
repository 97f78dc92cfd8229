"""Players' records folded from the log: ratings per game, each player's tables, and the
leaderboards. Pure: the service (`service.py`) feeds it each log stream's messages in that
stream's order, the streams in any interleaving, and the same messages always give the same
standings, so `rebuild-rankings` recomputes them from the log and compares. Ratings follow the
order the tables ended in (their end's time, then game and table): a result folded after one
that ended later (another stream's, read first) rates again those after it.

What is rated (docs/architecture.md, "Results"): a table that ended with a result, every seat
played by a person (a table with a bot seat is unrated; a seat a bot took over from a player
who quit or ran out of time is that player's, ranked last by the result itself). A table that
ended abandoned rates nobody. Ratings are OpenSkill's Plackett-Luce model, which rates any
number of teams with ties: players of the same team (a game's `details.teams`, as Decrypto
has) with the same rank rate as one team, every other player alone; a player's rating as
shown is the model's conservative estimate (`ordinal`: mu - 3 sigma).
"""

from __future__ import annotations

import bisect
from dataclasses import dataclass, field
from functools import partial
from typing import Any

import msgspec
from openskill.models import PlackettLuce

from shared.games.decider import Result
from shared.games.table_messages import BOT_SEAT_PREFIX, GameEnded, TableStarted
from shared.messages import subjects

PROVISIONAL_GAMES = 5  # a rating from fewer rated games than this is marked provisional
RECENT = 5  # the tables a profile lists
MODEL = PlackettLuce()


class _Tagged(msgspec.Struct):
    type: str


class _Batch(msgspec.Struct):
    game: str
    table: str
    version: int
    at: str
    events: list[msgspec.Raw]


_batch = msgspec.json.Decoder(_Batch)
_tag = msgspec.json.Decoder(_Tagged)
_started = msgspec.json.Decoder(TableStarted)
_ended = msgspec.json.Decoder(GameEnded)


@dataclass(slots=True)
class Rating:
    """One player's rating in one game."""

    mu: float = MODEL.mu
    sigma: float = MODEL.sigma
    played: int = 0  # tables ended with a result, rated or not
    won: int = 0
    rated: int = 0  # of which rated
    chart: list[tuple[str, float]] = field(default_factory=list)  # (ended at, rating) after each rated table

    @property
    def ordinal(self) -> float:
        return self.mu - 3 * self.sigma

    def summary(self) -> dict[str, Any]:
        return {
            "played": self.played,
            "won": self.won,
            "rated": self.rated,
            "rating": round(self.ordinal, 2),
            "mu": self.mu,
            "sigma": self.sigma,
            "provisional": self.rated < PROVISIONAL_GAMES,
        }


Key = tuple[str, str, str]  # (ended at, game, table): the order of the results


class Entry(msgspec.Struct, frozen=True, kw_only=True):
    """One table of a player's history."""

    game: str
    table: str
    ended_at: str
    seats: list[str]
    rank: int | None  # None: the table ended abandoned
    score: float | int | None
    won: bool
    rated: bool
    rating_before: float | None = None
    rating_after: float | None = None

    @property
    def key(self) -> Key:
        return self.ended_at, self.game, self.table

    def as_json(self) -> dict[str, Any]:
        body: dict[str, Any] = msgspec.to_builtins(self)
        body["replay"] = f"#/replay/{self.game}/{self.table}"
        return body


@dataclass(slots=True)
class RatedTable:
    """A rated result, with each player's (mu, sigma) before it, so that it can be taken back
    when a result that ended before it comes later."""

    key: Key
    result: Result
    before: dict[str, tuple[float, float]] = field(default_factory=dict)


@dataclass(slots=True)
class Standings:
    """Everything folded so far: up to `positions[stream]` in each log stream."""

    positions: dict[str, int] = field(default_factory=dict)
    ratings: dict[str, dict[str, Rating]] = field(default_factory=dict)  # game -> player -> rating
    history: dict[str, list[Entry]] = field(default_factory=dict)  # player -> entries, oldest first
    since: dict[str, str] = field(default_factory=dict)  # player -> when their first table started
    tables: dict[tuple[str, str], tuple[int, list[str]]] = field(default_factory=dict)  # not ended
    results: int = 0  # tables ended with a result
    skipped: int = 0  # messages that did not fit their table
    _rated: dict[str, list[RatedTable]] = field(default_factory=dict)  # game -> in their order
    _applied: dict[str, int] = field(default_factory=dict)  # game -> its first results applied
    _boards: dict[str, list[tuple[float, str]]] = field(default_factory=dict)  # game -> sorted

    # --- folding ----------------------------------------------------------------------------

    def fold(self, stream: str, seq: int, subject: str, data: bytes, writer: str) -> bool:
        """One log message, in its stream's order; False when it was skipped (already folded,
        after its table's end, or it does not fit its table: the same rule as every reader of
        the log)."""
        if seq <= self.positions.get(stream, 0):
            return False
        self.positions[stream] = seq
        admitted = self._admitted(subject, data, writer)
        if admitted is None:
            return False
        game, table, batch, players = admitted
        ended = False
        for raw in batch.events:
            try:
                kind = _tag.decode(raw).type
                if kind == "table_started":
                    players = list(_started.decode(raw).players)
                    for player in players:  # the earliest, whatever order the streams come in
                        self.since[player] = min(self.since.get(player, batch.at), batch.at)
                elif kind in ("game_ended", "table_expired"):
                    if kind == "game_ended":
                        self._ended(game, table, batch.at, players, _ended.decode(raw).result)
                    ended = True
            except (msgspec.DecodeError, msgspec.ValidationError):
                self.skipped += 1
                return False
        if ended:
            self.tables.pop((game, table), None)
        else:
            self.tables[(game, table)] = (batch.version, players)
        return True

    def _admitted(self, subject: str, data: bytes, writer: str) -> tuple[str, str, _Batch, list[str]] | None:
        """(game, table, the batch, the table's seats so far) of a message that fits its
        table; None for one that does not (counted), or one after its table's end."""
        parts = subject.split(".")
        if len(parts) != 5 or writer != subjects.writer(parts[3]):
            self.skipped += 1
            return None
        game, table = parts[3], parts[4]
        try:
            batch = _batch.decode(data)
        except (msgspec.DecodeError, msgspec.ValidationError):
            self.skipped += 1
            return None
        tracked = self.tables.get((game, table))
        if tracked is None and batch.version > 1:  # after its end (a rematch offered): nothing more
            return None
        version, players = tracked or (0, [])
        if (batch.game, batch.table) != (game, table) or batch.version != version + 1:
            self.skipped += 1
            return None
        return game, table, batch, players

    def _ended(self, game: str, table: str, at: str, players: list[str], result: Result) -> None:
        seats = players or [s.player for s in result.ranking]
        entry = partial(Entry, game=game, table=table, ended_at=at, seats=seats)
        if not result.ranking:  # abandoned: in the players' history, rating nobody
            for player in (p for p in seats if not p.startswith(BOT_SEAT_PREFIX)):
                self._add(player, entry(rank=None, score=None, won=False, rated=False))
            return
        self.results += 1
        ratings = self.ratings.setdefault(game, {})
        rated = _is_rated(result)
        for standing in result.ranking:
            player = standing.player
            if player.startswith(BOT_SEAT_PREFIX):
                continue
            rating = ratings.setdefault(player, Rating())
            rating.played += 1
            won = player in result.winners
            rating.won += won
            self._add(player, entry(rank=standing.rank, score=standing.score, won=won, rated=rated))
        if rated:
            self._rate_in_order(game, RatedTable((at, game, table), result))

    def _rate_in_order(self, game: str, new: RatedTable) -> None:
        """Place `new` among the game's rated results in their order; the ratings take it at
        the next `settle`. Placed before results already applied, those are taken back, last
        first, to be applied again after it: a result that comes late from another stream costs
        the results after it, and a whole stream read after another (at a start) costs one
        pass, not one per result."""
        done = self._rated.setdefault(game, [])
        place = bisect.bisect(done, new.key, key=lambda r: r.key)
        applied = self._applied.get(game, 0)
        if place < applied:
            ratings = self.ratings[game]
            for taken_back in reversed(done[place:applied]):
                for player, (mu, sigma) in taken_back.before.items():
                    rating = ratings[player]
                    rating.mu, rating.sigma = mu, sigma
                    rating.rated -= 1
                    rating.chart.pop()
            self._applied[game] = place
        done.insert(place, new)

    def settle(self) -> None:
        """Every rated result placed and not yet applied, applied in order (before answering
        anything: the services do it when their consumers are idle, so answers find it done)."""
        for game, done in self._rated.items():
            applied = self._applied.get(game, 0)
            if applied == len(done):
                continue
            ratings = self.ratings[game]
            for rated in done[applied:]:
                rated.before = {
                    s.player: (ratings[s.player].mu, ratings[s.player].sigma) for s in rated.result.ranking
                }
                _rate(ratings, rated.result, rated.key[0])
                for player, (mu, sigma) in rated.before.items():
                    self._rated_entry(player, rated.key, mu - 3 * sigma, ratings[player].ordinal)
            self._applied[game] = len(done)
            self._boards.pop(game, None)

    def _rated_entry(self, player: str, key: Key, before: float, after: float) -> None:
        """The player's entry of the table `key` with its rating before and after."""
        entries = self.history[player]
        index = bisect.bisect_left(entries, key, key=lambda e: e.key)
        entries[index] = msgspec.structs.replace(
            entries[index], rating_before=round(before, 2), rating_after=round(after, 2)
        )

    def _add(self, player: str, entry: Entry) -> None:
        """In the player's history in the order the tables ended (nearly always last)."""
        bisect.insort(self.history.setdefault(player, []), entry, key=lambda e: e.key)

    # --- what is asked ----------------------------------------------------------------------

    def profile(self, player: str) -> dict[str, Any]:
        self.settle()
        games = {
            game: players[player].summary()
            for game, players in sorted(self.ratings.items())
            if player in players
        }
        recent = self.history.get(player, [])[-RECENT:]
        return {
            "player": player,
            "since": self.since.get(player),
            "games": games,
            "recent": [e.as_json() for e in reversed(recent)],
            "chart": {game: self.ratings[game][player].chart for game in games},
        }

    def tables_of(self, player: str, *, after: int | None, limit: int, game: str | None) -> dict[str, Any]:
        """A page of the player's tables, newest first: those before position `after` of the
        player's history, oldest first (the `next` of the page before)."""
        self.settle()
        entries = self.history.get(player, [])
        end = len(entries) if after is None else min(after, len(entries))
        page: list[Entry] = []
        index = end - 1
        while index >= 0 and len(page) < limit:
            if game is None or entries[index].game == game:
                page.append(entries[index])
            index -= 1
        more = any(game is None or e.game == game for e in entries[: index + 1])
        return {"tables": [e.as_json() for e in page], "next": index + 1 if page and more else None}

    def rankings(self, game: str, *, after: int | None, limit: int) -> dict[str, Any]:
        """A page of the game's leaderboard: players by rating (the conservative estimate),
        then by name; `after` is the rank of the last player of the page before."""
        self.settle()
        board = self._board(game)
        start = after or 0
        page = board[start : start + limit]
        players = [
            {"player": player, "rank": start + i + 1, **self.ratings[game][player].summary()}
            for i, (_, player) in enumerate(page)
        ]
        return {
            "game": game,
            "players": players,
            "next": start + len(page) if start + limit < len(board) else None,
        }

    def _board(self, game: str) -> list[tuple[float, str]]:
        """The rated players of `game`, best first (kept until a rated table of it ends)."""
        board = self._boards.get(game)
        if board is None:
            board = sorted((-r.ordinal, p) for p, r in self.ratings.get(game, {}).items() if r.rated)
            self._boards[game] = board
        return board

    def comparable(self) -> dict[str, Any]:
        """What two folds of the same log must agree on: every rating and every history."""
        self.settle()
        return {
            "positions": dict(sorted(self.positions.items())),
            "ratings": {
                g: {p: r.summary() for p, r in sorted(ps.items())} for g, ps in sorted(self.ratings.items())
            },
            "history": {p: [e.as_json() for e in es] for p, es in sorted(self.history.items())},
        }


def _is_rated(result: Result) -> bool:
    """A table with a result, and no seat played by a bot from the start."""
    people = [s.player for s in result.ranking if not s.player.startswith(BOT_SEAT_PREFIX)]
    return len(people) == len(result.ranking) and len(people) >= 2


def rating_groups(result: Result) -> tuple[list[list[str]], list[float]]:
    """The result as OpenSkill rates it: groups of players and their ranks (lower is better).
    Members of one team (`details.teams`) with the same rank are one group; anyone else,
    a player who left the game among them, is alone."""
    team_of = {p: team for team, members in (result.details.get("teams") or {}).items() for p in members}
    groups: dict[tuple[str, int], list[str]] = {}
    for standing in result.ranking:
        team = team_of.get(standing.player, "player:" + standing.player)
        groups.setdefault((team, standing.rank), []).append(standing.player)
    keys = list(groups)
    return [groups[k] for k in keys], [float(k[1]) for k in keys]


def _rate(ratings: dict[str, Rating], result: Result, at: str) -> None:
    groups, ranks = rating_groups(result)
    teams = [
        [MODEL.rating(mu=ratings.get(p, Rating()).mu, sigma=ratings.get(p, Rating()).sigma) for p in g]
        for g in groups
    ]
    for group, rated in zip(groups, MODEL.rate(teams, ranks=ranks), strict=True):
        for player, new in zip(group, rated, strict=True):
            rating = ratings.setdefault(player, Rating())
            rating.mu, rating.sigma = new.mu, new.sigma
            rating.rated += 1
            rating.chart.append((at, round(rating.ordinal, 2)))
