"""The results projector: players' profiles, their tables and the leaderboards, folded from
the log (`standings.py`) and answered on `tabletop.profile.<player>`,
`tabletop.history.<player>` and `tabletop.rankings.<game>`.

It reads the whole log in stream order through its own durable consumer (a rating depends on
the order of the results, and a player's tables span every partition). The standings live in
memory: whenever the consumer is (re)opened, at the start and after a fault, the log is read
again up to the consumer's ack floor into the standings where they are behind, and the
consumer goes on after it, so every message is folded exactly once, whatever was killed when.
Until the first read has caught up with the log, requests are answered `unavailable` rather
than with standings that miss results. Replicas each fold the whole log under their own
durable (`tabletop results-projector --replica N`) and share the requests.
"""

from __future__ import annotations

import asyncio
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
    def __init__(self, bus: Bus) -> None:
        self.bus = bus
        self.games = games()
        self.standings = Standings()
        self.caught_up = False  # the log read up to where it was when the service started

    async def read_log_upto(self, ack_floor: int) -> None:
        """The standings up to stream sequence `ack_floor` (where the consumer goes on after),
        read from the log where they are behind it. Standings ahead of it (acknowledgements
        lost with a server, or the consumer made again to rebuild them) are folded again from
        the start: the consumer will deliver what comes after, and none may count twice."""
        if self.standings.seq == ack_floor:
            return
        if self.standings.seq > ack_floor:
            self.standings = Standings()
            self.caught_up = False
        async for run in self.bus.events.replay(subjects.EVT_ALL, upto=ack_floor):
            for message in run:
                self.fold(message.seq, message.subject, message.data, message.writer)
        log.info("results_read_from_log", upto=ack_floor, results=self.standings.results)

    async def handle(self, messages: list[Delivered]) -> set[int]:
        for message in messages:
            self.fold(message.seq, message.subject, message.data, message.writer)
        return set()

    def fold(self, seq: int, subject: str, data: bytes, writer: str) -> None:
        """One message into the standings; one they cannot take (a bug, never expected) is
        logged and passed over, so it cannot stop every later result."""
        try:
            self.standings.fold(seq, subject, data, writer)
        except Exception:
            self.standings.skipped += 1
            log.exception("results_message_failed", seq=seq, subject=subject)

    async def idle(self) -> None:
        if not self.caught_up:
            self.caught_up = True
            log.info("results_caught_up", seq=self.standings.seq, results=self.standings.results)

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
    projector = ResultsProjector(bus)
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
            "seq": projector.standings.seq,
            "results": projector.standings.results,
            "skipped": projector.standings.skipped,
        },
    )
    log.info("results_projector_started", durable=durable(replica))
    await bus.consume(
        durable(replica),
        subjects.EVT_ALL,
        projector.handle,
        stop=stop,
        idle=projector.idle,
        ack_all=True,  # one reader per durable
        opened=projector.read_log_upto,
    )
