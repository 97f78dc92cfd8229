"""The table projector: the event log folded into views, one per seat and one for spectators,
kept in a JetStream KV bucket, plus the lobby; it answers view and lobby requests and pushes
every new view to `tabletop.update.*`.

Idempotent: it knows the version and stream sequence it applied per table, skips what it has
applied, and folds a table it does not hold from the log itself up to the message at hand, so
a restart (or a rebuild from sequence 1) lands on exactly the same views.
"""

from __future__ import annotations

import asyncio
from collections import OrderedDict
from collections.abc import Callable
from typing import Any

import msgspec
import structlog

from shared.bus.connection import Bus, Incoming
from shared.bus.errors import Unavailable
from shared.games import games
from shared.games.table import TableDecider
from shared.messages import subjects
from shared.messages.envelopes import EventBatch, ViewReply, encoder, error_body
from shared.messages.folding import Folded, decode_batch, empty

log = structlog.get_logger("tabletop.table_projector")
DURABLE = "tabletop-table-projector"
_header = msgspec.json.Decoder(EventBatch[msgspec.Raw])


class TableProjector:
    def __init__(self, bus: Bus, *, cache_size: int = 4096) -> None:
        self.bus = bus
        self.games: dict[str, TableDecider] = games()
        self.tables: OrderedDict[tuple[str, str], Folded] = OrderedDict()
        self.cache_size = cache_size
        self.lobby: dict[str, dict[str, Any]] = {}  # game -> table -> lobby entry
        self.applied_seq = 0  # the last stream sequence handled

    async def start(self) -> None:
        """Load the lobby as last written (tables change it as their events come)."""
        for key, value in (await self.bus.view_entries("lobby.>")).items():
            _, game, table = key.split(".", 2)
            self.lobby.setdefault(game, {})[table] = msgspec.json.decode(value)

    async def apply(self, messages: list[tuple[int, bytes]]) -> None:
        """Fold a batch of log messages; write each changed table's views once, its newest,
        then push every version's views in order (one update per accepted command)."""
        changed: dict[tuple[str, str], list[Folded]] = {}
        for seq, data in messages:
            self.applied_seq = max(self.applied_seq, seq)
            try:
                header = _header.decode(data)
            except msgspec.DecodeError:  # not written by a worker: nothing to project
                log.error("undecodable_message_skipped", seq=seq)
                continue
            key = (header.game, header.table)
            decider = self.games.get(header.game)
            if decider is None:
                log.error("unknown_game_skipped", game=header.game, table=header.table, seq=seq)
                continue
            try:
                folded = await self._fold(decider, key, header.version, seq, data)
            except Unavailable:
                raise  # the log is away: the batch is fetched again
            except Exception:  # a bug folding one table must not stop every other table
                log.exception("projection_failed", game=header.game, table=header.table, seq=seq)
                self.tables.pop(key, None)
                changed.pop(key, None)
                continue
            if folded is not None:
                changed.setdefault(key, []).append(folded)
        for (game, table), versions in changed.items():
            try:
                await self._write(self.games[game], game, table, versions)
            except Unavailable:
                raise
            except Exception:
                log.exception("projection_failed", game=game, table=table,
                              seq=versions[-1].last_seq)
        while len(self.tables) > self.cache_size:
            self.tables.popitem(last=False)

    async def _fold(
        self, decider: TableDecider, key: tuple[str, str], version: int, seq: int, data: bytes,
    ) -> Folded | None:
        """The table after the message at `seq`, or None when it was applied before."""
        folded = self.tables.get(key)
        if folded is not None and version <= folded.version:
            return None  # a redelivery
        if folded is not None and version == folded.version + 1:
            folded = folded.then(decider, seq, decode_batch(decider, data))
        else:  # a table this process has not folded yet: read it from the log
            folded = await self._fold_from_log(decider, *key, seq)
        self.tables[key] = folded
        self.tables.move_to_end(key)
        return folded

    async def _fold_from_log(self, decider: TableDecider, game: str, table: str, upto: int) -> Folded:
        folded = empty(decider)
        for message in await self.bus.events.read(game, table, upto=upto):
            folded = folded.then(decider, message.seq, decode_batch(decider, message.data))
        return folded

    async def _write(
        self, decider: TableDecider, game: str, table: str, versions: list[Folded],
    ) -> None:
        pushes = [(folded, self._views(decider, folded)) for folded in versions]
        newest, bodies = pushes[-1]
        state = newest.state
        # the seats first, the spectator last: a seat's view is never older than the spectator's
        # while it is seated, which is how a view request tells who has left (see on_view)
        await asyncio.gather(*(
            self.bus.view_put(subjects.view_key(game, table, viewer), body)
            for viewer, body in bodies.items() if viewer != subjects.SPECTATOR))
        await self.bus.view_put(
            subjects.view_key(game, table, subjects.SPECTATOR), bodies[subjects.SPECTATOR])
        for _, views in pushes:  # after the bucket holds the newest: a reader never goes back
            for viewer, body in views.items():
                await self.bus.publish(subjects.update(game, table, viewer), body)
        entry = {"table": table, "version": newest.version, **decider.lobby_entry(state)}
        tables = self.lobby.setdefault(game, {})
        if state.status in ("open", "running"):
            tables[table] = entry
            await self.bus.view_put(subjects.lobby_key(game, table), encoder.encode(entry))
        elif tables.pop(table, None) is not None:
            await self.bus.view_delete(subjects.lobby_key(game, table))

    @staticmethod
    def _views(decider: TableDecider, folded: Folded) -> dict[str, bytes]:
        """The encoded view reply of every seat and of spectators, spectator last."""
        viewers = (*folded.state.players, subjects.SPECTATOR)
        return {
            viewer: encoder.encode(ViewReply(
                version=folded.version,
                view=decider.player_view(
                    folded.state, None if viewer == subjects.SPECTATOR else viewer)))
            for viewer in viewers
        }

    # --- requests ---------------------------------------------------------------------------

    async def on_view(self, message: Incoming) -> None:
        tokens = subjects.parse(message.subject, "view")
        if tokens is None or len(tokens) != 3:
            await message.respond(error_body("bad_request", "Ask tabletop.view.<game>.<table>.<viewer>."))
            return
        game, table, viewer = tokens
        try:
            body = await self.bus.view_get(subjects.view_key(game, table, subjects.SPECTATOR))
            if viewer != subjects.SPECTATOR and body is not None:
                own = await self.bus.view_get(subjects.view_key(game, table, viewer))
                # a seat's view falls behind the spectator's only once its player has left
                if own is not None and _version(own) >= _version(body):
                    body = own
        except Unavailable as err:
            await message.respond(error_body("unavailable", f"Views are unavailable: {err}."))
            return
        if body is None:
            body = error_body("unknown_table", f"There is no {game} table {table}.")
        await message.respond(body)

    async def on_lobby(self, message: Incoming) -> None:
        tokens = subjects.parse(message.subject, "lobby")
        if tokens is None or len(tokens) != 1:
            await message.respond(error_body("bad_request", "Ask tabletop.lobby.<game>."))
            return
        game = tokens[0]
        if game not in self.games:
            await message.respond(error_body("unknown_game", f"No game is called {game}."))
            return
        tables = sorted(self.lobby.get(game, {}).values(), key=lambda e: e["table"])
        await message.respond(encoder.encode({"game": game, "tables": tables}))


class _Versioned(msgspec.Struct):
    version: int


_versioned = msgspec.json.Decoder(_Versioned)


def _version(body: bytes) -> int:
    return _versioned.decode(body).version


async def serve_table_projector(
    bus: Bus, stop: asyncio.Event, *, until: Callable[[TableProjector], bool] | None = None,
) -> TableProjector:
    """Project the log until `stop` is set (or `until(projector)` holds, for a rebuild)."""
    await bus.ensure_streams()
    projector = TableProjector(bus)
    await projector.start()
    serving = until is None
    if serving:
        await bus.add_service(
            name="tabletop-table-projector", version="0.1.0",
            description="tabletop table views and lobby",
            endpoints=[
                ("views", f"{subjects.PREFIX}.view.>", "tabletop-views", projector.on_view),
                ("lobby", f"{subjects.PREFIX}.lobby.>", "tabletop-lobby", projector.on_lobby),
            ],
            stats=lambda: {"applied_seq": projector.applied_seq, "tables": len(projector.tables)},
        )
    log.info("table_projector_started")

    async def handle(messages: list[tuple[int, bytes]]) -> None:
        await projector.apply(messages)
        if until is not None and until(projector):
            stop.set()

    async def idle() -> None:
        if until is not None and until(projector):
            stop.set()

    await bus.consume(DURABLE, handle, stop=stop, idle=idle)
    return projector
