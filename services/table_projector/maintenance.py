"""What an operator does to the views besides running the projector: check every view against
a fold of the log (`tabletop verify`), rebuild one table's views while the projector runs
(`tabletop rebuild-views --table`), and see how far behind each partition is (`tabletop
status`)."""

from __future__ import annotations

import asyncio
import gc
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import msgspec
import structlog

from services.registry import games
from services.table_projector.projector import (
    durable,
    former_durable,
    lobby_entry,
    store_views,
    view_bodies,
)
from shared.bus.connection import Bus
from shared.games.table import TableDecider
from shared.messages import subjects
from shared.messages.envelopes import encoder, read_table_views, table_views_body
from shared.messages.folding import Folded, admit, empty, fold_log

log = structlog.get_logger("tabletop.table_projector")


@dataclass(frozen=True, slots=True)
class Difference:
    game: str
    table: str
    key: str
    why: str


async def fold_table(bus: Bus, decider: TableDecider, game: str, table: str) -> Folded:
    """The table as its log has it now (the messages that fit it)."""
    return await fold_log(bus.events, decider, game, table)


async def logged_tables(bus: Bus) -> list[tuple[str, str]]:
    """Every (game, table) with messages in the log."""
    found = []
    for subject in await bus.table_subjects():
        parsed = subjects.parse_evt(subject)
        if parsed is not None:
            found.append(parsed[1:])
    return sorted(found)


async def games_of(bus: Bus, table: str) -> list[str]:
    """The games with a table of this id in the log (a table id is a game's own: two games
    may each have one)."""
    found = set()
    for subject in await bus.table_subjects(f"{subjects.PREFIX}.evt.*.*.{table}"):
        parsed = subjects.parse_evt(subject)
        if parsed is not None and parsed[2] == table:
            found.add(parsed[1])
    return sorted(found)


async def verify(bus: Bus, only: tuple[str, str] | None = None) -> list[Difference]:
    """Every view and lobby entry of the bucket (or of one table) against a fold of the log:
    the differences, none when the views are exact."""
    deciders = games()
    tables = [only] if only else await logged_tables(bus)
    stored = await bus.view_entries("views.>" if only is None else subjects.views_key(*only))
    lobby = await bus.view_entries("lobby.>" if only is None else subjects.lobby_key(*only))
    differences: list[Difference] = []
    for game, table in tables:
        decider = deciders.get(game)
        if decider is None:
            continue
        folded = await fold_table(bus, decider, game, table)
        differences += _compare(game, table, decider, folded, stored, lobby)
    logged = set(tables)
    for key in stored:
        _, game, table = key.split(".", 2)
        if (game, table) not in logged:
            differences.append(Difference(game, table, key, "views of a table with no log"))
    return differences


def _compare(
    game: str,
    table: str,
    decider: TableDecider,
    folded: Folded,
    stored: dict[str, bytes],
    lobby: dict[str, bytes],
) -> list[Difference]:
    found = []
    key = subjects.views_key(game, table)
    try:
        expected = view_bodies(decider, folded) if folded.version else {}
    except Exception as err:  # noqa: BLE001 - a bug in the game's views: report the table
        return [Difference(game, table, key, f"the game's views fail at v{folded.version}: {err!r}")]
    have = stored.get(key)
    views = None if have is None else read_table_views(have)
    if have is not None and views is None:
        found.append(Difference(game, table, key, "not a table's views"))
    elif views is None:
        if expected:
            found.append(Difference(game, table, key, f"missing (log at v{folded.version})"))
    else:
        if views.version != folded.version:
            found.append(
                Difference(game, table, key, f"v{views.version} differs from the log's v{folded.version}")
            )
        for viewer, body in expected.items():
            own = views.of(viewer)
            if own is None:
                found.append(Difference(game, table, key, f"{viewer}'s view missing"))
            elif own != body and msgspec.json.decode(own) != msgspec.json.decode(body):
                found.append(Difference(game, table, key, f"{viewer}'s view differs from the log's"))
        for viewer in sorted(views.views.keys() - expected.keys()):
            found.append(Difference(game, table, key, f"a view of {viewer}, who has no seat"))
    entry = lobby_entry(decider, table, folded) if folded.version else None
    have = lobby.get(subjects.lobby_key(game, table))
    if (have is None) != (entry is None) or (
        have is not None and msgspec.json.decode(have) != msgspec.json.decode(encoder.encode(entry))
    ):
        found.append(Difference(game, table, subjects.lobby_key(game, table), "lobby entry"))
    return found


async def rebuild_table(bus: Bus, game: str, table: str) -> Folded:
    """Write one table's views and lobby entry from its log, while the projectors run: they
    are told to forget the table first, so their next message of it folds it from the log."""
    decider = games()[game]
    await bus.publish(subjects.FORGET, encoder.encode([game, table]))
    folded = await fold_table(bus, decider, game, table)
    if not folded.version:
        return folded
    entry = lobby_entry(decider, table, folded)  # before the views, as the projector stores them
    if entry is None:
        await bus.view_delete(subjects.lobby_key(game, table))
    else:
        await bus.view_put(subjects.lobby_key(game, table), encoder.encode(entry))
    await store_views(bus, game, table, folded, view_bodies(decider, folded))
    return folded


async def rebuild_views(
    bus: Bus,
    progress: Callable[[int, int], None] | None = None,
) -> tuple[int, int]:
    """Every table's views and lobby entry made again from the whole log, the projectors
    stopped: the log read in order once, each table folded in memory and written once at the
    end (the lobby entries, then the tables' views, many puts in flight), then each partition's
    consumer moved to go on after the last message read. Returns (tables, messages read);
    `progress(seq, last)` is told along the way. Interrupted, it is run again: until its
    end the consumers start at the log's first message, as a projector makes them, so a
    projector started meanwhile reads the whole log."""
    layout = await bus.events.layout()
    lasts = await bus.events.last_seqs()

    async def clear() -> None:
        await asyncio.gather(
            *(
                bus.delete_consumer(name(p), stream=layout.stream_of_partition(p))
                for p in range(subjects.PARTITIONS)
                for name in (durable, former_durable)
            )
        )
        await asyncio.gather(
            bus.reset_views(),
            *(
                bus.make_consumer(
                    durable(p), subjects.evt_partition(p), stream=layout.stream_of_partition(p), ack_all=True
                )
                for p in range(subjects.PARTITIONS)
            ),
        )

    # the consumers made again from the first message and the views emptied while the log is
    # read: neither touches it
    tables, read = (await asyncio.gather(clear(), _fold_whole_log(bus, lasts, progress)))[1]
    deciders = games()
    entries: list[tuple[str, bytes]] = []
    views: list[tuple[str, bytes]] = []  # after the lobby entries, as the projector stores them
    for (game, table), folded in tables.items():
        if not folded.version:
            continue
        decider = deciders[game]
        try:
            bodies = view_bodies(decider, folded)
        except Exception:  # a bug in a game's views: that table only, as the projector does
            log.exception("projection_failed", game=game, table=table, seq=folded.last_seq)
            continue
        views.append((subjects.views_key(game, table), table_views_body(folded.version, bodies)))
        entry = lobby_entry(decider, table, folded)
        if entry is not None:
            entries.append((subjects.lobby_key(game, table), encoder.encode(entry)))
    await bus.view_put_many(entries)
    await bus.view_put_many(views)
    # A projector running beside the rebuild opens its consumer again as soon as it is
    # deleted, from the first message, and forgets what it held: that one is left as it is
    # (`Bus.move_unread_consumer_after`), and the projector reads the log again from its start.
    await asyncio.gather(
        *(
            bus.move_unread_consumer_after(
                durable(p),
                subjects.evt_partition(p),
                lasts[layout.stream_of_partition(p)],
                stream=layout.stream_of_partition(p),
                ack_all=True,
            )
            for p in range(subjects.PARTITIONS)
        )
    )
    if progress is not None:
        last = sum(lasts.values())
        progress(last, last)
    return len(tables), read


async def _fold_whole_log(
    bus: Bus, lasts: dict[str, int], progress: Callable[[int, int], None] | None
) -> tuple[dict[tuple[str, str], Folded], int]:
    """Every table of the log up to `lasts` (each stream's last sequence) folded in memory, and
    the messages read."""
    deciders = games()
    tables: dict[tuple[str, str], Folded] = {}
    last = sum(lasts.values())  # what `progress` counts to: the streams one after another
    # a stored subject -> (game, table, decider), () if it is none of a known game's
    of_subject: dict[str, tuple[str, str, TableDecider] | tuple[()]] = {}
    read = 0
    collecting = gc.isenabled()
    gc.disable()  # folding makes no cycles; a collection over every folded table is waste
    streams = list(lasts)
    before = {stream: sum(lasts[s] for s in streams[:i]) for i, stream in enumerate(streams)}
    try:
        async for stream, run in bus.events.replay_log(lasts):
            for message in run:
                found = of_subject.get(message.subject)
                if found is None:
                    parsed = subjects.parse_evt(message.subject)
                    decider = deciders.get(parsed[1]) if parsed else None
                    found = of_subject[message.subject] = (
                        (parsed[1], parsed[2], decider) if parsed and decider else ()
                    )
                if found:
                    game, table, decider = found
                    key = (game, table)
                    folded = tables.get(key) or empty(decider)
                    tables[key] = admit(
                        decider, folded, game, table, message.seq, message.data, message.writer
                    ).folded
            read += len(run)
            if progress is not None and read // 1024 != (read - len(run)) // 1024:
                progress(before[stream] + run[-1].seq, last)
    finally:
        if collecting:
            gc.enable()
    return tables, read


async def partition_lag(bus: Bus) -> dict[int, tuple[int, int] | None]:
    """Per partition: (messages not yet delivered to the table projector, delivered but not
    yet acknowledged), None when no projector ever read the partition."""
    layout = await bus.events.layout()
    return {
        p: await bus.consumer_pending(durable(p), stream=layout.stream_of_partition(p))
        for p in range(subjects.PARTITIONS)
    }


async def service_stats(bus: Bus) -> dict[str, list[dict[str, Any]]]:
    """Every running replica of every service, by service name, with its counts."""
    replicas: dict[str, list[dict[str, Any]]] = {}
    for body in await bus.gather("$SRV.STATS"):
        try:
            stats = msgspec.json.decode(body)
        except msgspec.DecodeError:
            continue
        replicas.setdefault(stats.get("name", "?"), []).append(stats)
    return dict(sorted(replicas.items()))
