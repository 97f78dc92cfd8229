"""The results projector: players' profiles, their tables and the leaderboards, folded from
the log (`standings.py`) and answered on `tabletop.profile.<player>`,
`tabletop.history.<player>` and `tabletop.rankings.<game>`.

It reads the whole log, each stream in its order through a durable consumer of its own (a
player's tables span every partition; the ratings follow the order the tables ended in,
whatever order the streams come in: standings.py). The standings live in memory: whenever a
consumer is (re)opened, at the start and after a fault, its stream is read again up to the
consumer's ack floor into the standings where they are behind, and the consumer goes on after
it, so every message is folded exactly once, whatever was killed when. Until the first read of
every stream has caught up with it, requests are answered `unavailable` rather than with
standings that miss results. Replicas each fold the whole log under their own durable
(`tabletop results-projector --replica N`) and share the requests.
"""

from __future__ import annotations

import asyncio
import functools
import typing
from typing import Any

import msgspec
import structlog

from services import VERSION
from services.registry import games
from services.results_projector.standings import Standings
from shared.bus.connection import Bus, Incoming
from shared.bus.puller import Delivered
from shared.messages import subjects
from shared.messages.envelopes import (
    BadRequest,
    check_page_limit,
    decode_request,
    encoder,
    error_body,
    unknown_game_body,
)

log = structlog.get_logger("tabletop.results_projector")
SERVICE_NAME = "tabletop-results-projector"
PAGE_MAX = 100
PAGE_DEFAULT = 20


def durable(replica: int) -> str:
    return "tabletop-results" if replica == 1 else f"tabletop-results-{replica}"


class ProfileRequest(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    shape: typing.ClassVar[str] = "A profile request is {} (or an empty body)."


class HistoryRequest(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    shape: typing.ClassVar[str] = (
        'A history request is {"after": the "next" of the page before or null, "limit": 1 to '
        f'{PAGE_MAX} or null (for {PAGE_DEFAULT}), "game": a game or null (every game)}}, every '
        "field optional."
    )

    after: int | None = None
    limit: int | None = None
    game: str | None = None

    def __post_init__(self) -> None:
        check_page_limit(self.limit, PAGE_MAX, "tables")
        if self.after is not None and self.after < 1:
            raise ValueError('"after" is the "next" of the page before, 1 or more')


class RankingsRequest(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    shape: typing.ClassVar[str] = (
        'A rankings request is {"after": the "next" of the page before or null, "limit": 1 to '
        f"{PAGE_MAX} or null (for {PAGE_DEFAULT})}}, every field optional."
    )

    after: int | None = None
    limit: int | None = None

    def __post_init__(self) -> None:
        check_page_limit(self.limit, PAGE_MAX, "players")
        if self.after is not None and self.after < 0:
            raise ValueError('"after" is the "next" of the page before, 0 or more')


class ResultsProjector:
    def __init__(self, bus: Bus, streams: tuple[str, ...] = (subjects.STREAM,)) -> None:
        self.bus = bus
        self.games = games()
        self.streams = streams
        self.standings = Standings()
        self.idle_streams: set[str] = set()  # read up to where they were since the last start
        # one stream's reading again (`read_log_upto`) and another's batches take turns
        self.lock = asyncio.Lock()

    @property
    def caught_up(self) -> bool:
        """Every stream read up to where it was when the service started."""
        return self.idle_streams >= set(self.streams)

    async def read_log_upto(self, stream: str, ack_floor: int) -> None:
        """The standings up to sequence `ack_floor` of `stream` (where its consumer goes on
        after), read from the log where they are behind it. Standings ahead of it
        (acknowledgements lost with a server, or the consumer made again to rebuild them) are
        folded again from the start, the other streams up to where they were: the consumer will
        deliver what comes after, and none may count twice."""
        async with self.lock:
            folded = self.standings.positions.get(stream, 0)
            if folded == ack_floor:
                return
            upto = {stream: ack_floor}
            if folded > ack_floor:
                upto = {**self.standings.positions, stream: ack_floor}
                self.standings = Standings()
                self.idle_streams.clear()
            async for source, run in self.bus.events.replay_log(upto):
                for message in run:
                    self.fold(source, message.seq, message.subject, message.data, message.writer)
            log.info("results_read_from_log", stream=stream, upto=ack_floor, results=self.standings.results)

    async def handle(self, stream: str, messages: list[Delivered]) -> set[int]:
        async with self.lock:
            for message in messages:
                self.fold(stream, message.seq, message.subject, message.data, message.writer)
        return set()

    def fold(self, stream: str, seq: int, subject: str, data: bytes, writer: str) -> None:
        """One message into the standings; one they cannot take (a bug, never expected) is
        logged and passed over, so it cannot stop every later result."""
        try:
            self.standings.fold(stream, seq, subject, data, writer)
        except Exception:
            self.standings.skipped += 1
            log.exception("results_message_failed", stream=stream, seq=seq, subject=subject)

    async def idle(self, stream: str) -> None:
        if stream not in self.idle_streams:
            self.idle_streams.add(stream)
            if self.caught_up:
                log.info(
                    "results_caught_up", positions=self.standings.positions, results=self.standings.results
                )
        # the ratings brought up to date while nothing comes; not while a stream is still
        # read, whose results would take back what was rated meanwhile
        if self.caught_up and not self.lock.locked():
            self.standings.settle()

    # --- requests ---------------------------------------------------------------------------

    def _not_ready(self) -> bytes | None:
        if self.caught_up:
            return None
        return error_body(
            "unavailable",
            f"The results are being read from the log ({self.standings.results} so far); ask again shortly.",
            retry_after_ms=1000,
        )

    async def on_profile(self, message: Incoming) -> None:
        await message.respond(self._answer(message, "profile", ProfileRequest, self._profile))

    async def on_history(self, message: Incoming) -> None:
        await message.respond(self._answer(message, "history", HistoryRequest, self._history))

    async def on_rankings(self, message: Incoming) -> None:
        await message.respond(self._answer(message, "rankings", RankingsRequest, self._rankings))

    def _answer(self, message: Incoming, kind: str, request_type: type[Any], answer: Any) -> bytes:
        tokens = subjects.parse(message.subject, kind)
        if tokens is None or len(tokens) != 1:
            name = "game" if kind == "rankings" else "player"
            return error_body("bad_request", f"Ask tabletop.{kind}.<{name}>.")
        try:
            request = decode_request(message.data, request_type)
        except BadRequest as err:
            return error_body("bad_request", str(err))
        return self._not_ready() or answer(tokens[0], request)

    def _profile(self, player: str, request: ProfileRequest) -> bytes:
        return encoder.encode(self.standings.profile(player))

    def _history(self, player: str, request: HistoryRequest) -> bytes:
        if request.game is not None and request.game not in self.games:
            return unknown_game_body("", request.game)
        page = self.standings.tables_of(
            player, after=request.after, limit=request.limit or PAGE_DEFAULT, game=request.game
        )
        return encoder.encode(page)

    def _rankings(self, game: str, request: RankingsRequest) -> bytes:
        if game not in self.games:
            return unknown_game_body("", game)
        return encoder.encode(
            self.standings.rankings(game, after=request.after, limit=request.limit or PAGE_DEFAULT)
        )


async def serve_results_projector(bus: Bus, stop: asyncio.Event, *, replica: int = 1) -> None:
    await bus.ensure_streams()
    projector = ResultsProjector(bus, (await bus.events.layout()).streams)
    queue = "tabletop-results"
    await bus.add_service(
        name=SERVICE_NAME,
        version=VERSION,
        description="tabletop players' profiles, their tables and the leaderboards",
        endpoints=[
            ("profile", subjects.profile("*"), queue, projector.on_profile),
            ("history", subjects.history("*"), queue, projector.on_history),
            ("rankings", subjects.rankings("*"), queue, projector.on_rankings),
        ],
        stats=lambda: {
            "caught_up": projector.caught_up,
            "positions": projector.standings.positions,
            "results": projector.standings.results,
            "skipped": projector.standings.skipped,
        },
    )
    log.info("results_projector_started", durable=durable(replica), streams=list(projector.streams))
    # every stream under the same durable name (a consumer's name is its stream's)
    async with asyncio.TaskGroup() as group:
        for stream in projector.streams:
            group.create_task(
                bus.consume(
                    durable(replica),
                    subjects.EVT_ALL,
                    functools.partial(projector.handle, stream),
                    stop=stop,
                    idle=functools.partial(projector.idle, stream),
                    stream=stream,
                    ack_all=True,  # one reader per durable
                    opened=functools.partial(projector.read_log_upto, stream),
                )
            )
