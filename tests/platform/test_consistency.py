"""The checks the fault benches and the cluster test rely on find what they are meant to find:
a lost, doubled or misplaced command, a forked table, and views that differ from the log."""

import random
from dataclasses import replace

import msgspec

from services.registry import get
from shared.games.decider import Context
from shared.games.table import Create, Join, Leave, Start
from shared.messages import subjects
from shared.messages.envelopes import EventBatch, encoder, read_table_views, table_views_body
from shared.messages.folding import decode_batch, empty
from tests.consistency import (
    Acknowledged,
    Logged,
    check_log,
    compare_views,
    expected_lobby,
    expected_view,
    fold_versions,
    keys_to_read,
)

HIGHCARD = get("highcard")


def played(table: str, commands) -> list[Logged]:
    """The log the worker would write for these (player, command) pairs, decided by the rules."""
    folded, log = empty(HIGHCARD), []
    for i, (player, command) in enumerate(commands, start=1):
        events = HIGHCARD.decide(folded.state, command, Context(actor=player, rng=random.Random(i)))
        assert isinstance(events, list), events
        data = encoder.encode(
            EventBatch(
                game="highcard",
                table=table,
                version=i,
                command_id=f"{table}-c{i}",
                player=player,
                at="2026-01-01T00:00:00.000Z",
                events=events,
            )
        )
        folded = folded.then(HIGHCARD, i, decode_batch(HIGHCARD, data))
        log.append(Logged(i, i, f"{table}-c{i}", player, data))
    return log


def bucket_as_projected(table: str, log: list[Logged]) -> dict[str, bytes]:
    """The keys a projector that missed nothing holds: the table's views (every seat's and
    the spectator's) at the newest version, and its lobby entry."""
    folded = fold_versions("highcard", log)[-1]
    views = {
        viewer: encoder.encode(expected_view("highcard", folded, viewer))
        for viewer in (*folded.state.players, subjects.SPECTATOR)
    }
    bucket = {subjects.views_key("highcard", table): table_views_body(folded.version, views)}
    entry = expected_lobby("highcard", table, folded)
    if entry is not None:
        bucket[subjects.lobby_key("highcard", table)] = encoder.encode(entry)
    return bucket


def with_view(bucket: dict[str, bytes], table: str, viewer: str, body: bytes | None) -> dict[str, bytes]:
    """`bucket` with one viewer's view of `table` replaced (None: taken out)."""
    stored = read_table_views(bucket[subjects.views_key("highcard", table)])
    assert stored is not None
    views = {v: stored.of(v) or b"" for v in stored.views}
    if body is None:
        del views[viewer]
    else:
        views[viewer] = body
    return {**bucket, subjects.views_key("highcard", table): table_views_body(stored.version, views)}


LIFE = [("ann", Create()), ("bob", Join()), ("cat", Join()), ("cat", Leave()), ("ann", Start())]


def test_a_log_with_every_acknowledged_command_once_passes_and_each_fault_is_counted():
    log = {("highcard", "t1"): played("t1", LIFE)}
    acknowledged = Acknowledged()
    for message in log[("highcard", "t1")]:
        acknowledged.record("highcard", "t1", message.command_id, message.version)
    figures = check_log(log, acknowledged)
    assert (figures.acknowledged, figures.messages) == (5, 5)
    assert (figures.lost, figures.misplaced, figures.doubled, figures.forked) == (0, 0, 0, 0)

    acknowledged.record("highcard", "t1", "never-appended", 6)
    acknowledged.record("highcard", "t1", "t1-c2", 3)  # acknowledged at another version
    messages = log[("highcard", "t1")]
    log[("highcard", "t1")] = [*messages, replace(messages[1], seq=6, version=6)]
    figures = check_log(log, acknowledged)
    assert (figures.lost, figures.misplaced, figures.doubled, figures.forked) == (1, 1, 1, 0)

    log[("highcard", "t1")] = [messages[0], messages[2]]  # version 2 missing: a gap
    assert check_log(log, Acknowledged()).forked == 1
    log[("highcard", "t1")] = [*messages, replace(messages[4], seq=6)]  # version 5 twice
    assert check_log(log, Acknowledged()).forked == 1


def test_views_equal_to_the_fold_pass_and_every_kind_of_difference_is_found():
    log = {("highcard", "t1"): played("t1", LIFE), ("highcard", "t2"): played("t2", LIFE[:2])}
    bucket = {
        **bucket_as_projected("t1", log[("highcard", "t1")]),
        **bucket_as_projected("t2", log[("highcard", "t2")]),
    }
    assert set(bucket) <= keys_to_read(log)  # the keys read from the bucket include them all
    figures = compare_views(log, bucket)
    assert figures.different == []
    assert figures.keys == len(bucket)

    one_before = fold_versions("highcard", log[("highcard", "t1")])[-2]
    older = bucket_as_projected("t1", log[("highcard", "t1")][:-1])
    behind = {**bucket, "views.highcard.t1": older["views.highcard.t1"]}  # a version behind
    assert [d.key for d in compare_views(log, behind).different] == ["views.highcard.t1"]

    missing = with_view(bucket, "t2", "bob", None)
    assert [d.key for d in compare_views(log, missing).different] == ["views.highcard.t2"]

    left = with_view(  # a player who left keeps a view
        bucket, "t1", "cat", encoder.encode(expected_view("highcard", one_before, "ann"))
    )
    assert [d.key for d in compare_views(log, left).different] == ["views.highcard.t1"]

    stored = read_table_views(bucket["views.highcard.t1"])
    assert stored is not None
    body = msgspec.json.decode(stored.of("ann") or b"")
    body["view"]["hand"] = [99]  # same version, another body: a seat shown someone else's hand
    altered = with_view(bucket, "t1", "ann", encoder.encode(body))
    assert [d.why for d in compare_views(log, altered).different] == ["ann's view differs from the log's"]

    stale_lobby = dict(bucket)
    stale_lobby["lobby.highcard.t2"] = bucket["lobby.highcard.t1"].replace(b'"t1"', b'"t2"')
    assert [d.key for d in compare_views(log, stale_lobby).different] == ["lobby.highcard.t2"]

    stray = {**bucket, "views.highcard.t3": bucket["views.highcard.t1"]}
    assert [d.key for d in compare_views(log, stray).different] == ["views.highcard.t3"]
