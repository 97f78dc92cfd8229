"""Profiles, players' tables and leaderboards over a real NATS: the ratings are the rating
library's from the same results in the same order, an abandoned or bot table rates nobody, a
player who quits ranks last, and a killed projector, a redelivered message or a rebuild
change nothing."""

from __future__ import annotations

import asyncio
import random
import signal
import subprocess
import uuid
from typing import Any

import pytest
from openskill.models import PlackettLuce

from services.client import Client, RequestFailed
from services.registry import get
from services.results_projector import maintenance
from services.results_projector.standings import Standings, rating_groups
from shared.bus.connection import Bus
from shared.bus.credentials import Credentials
from shared.bus.errors import Unavailable
from shared.games.decider import Result, Standing
from shared.messages import subjects
from shared.settings import load_settings
from tests.platform.stack import stack
from tests.processes import TABLETOP, cli_env

GAME = "highcard"
HIGHCARD = get(GAME).game
MODEL = PlackettLuce()
SERVICES = ("worker:highcard", "table-projector", "results-projector", "bots")


def unique(prefix: str) -> str:
    return f"{prefix}{uuid.uuid4().hex[:8]}"


@pytest.fixture(scope="module")
async def services(nats_url):
    async with stack(nats_url, *SERVICES) as s:
        yield s


async def play(
    client: Client,
    players: list[str],
    rng: random.Random,
    *,
    quitter: str | None = None,
    bots: int = 0,
    everyone_quits: bool = False,
    table: str | None = None,
) -> dict[str, Any]:
    """A highcard table of `players` (and `bots` bot seats) played to its end by each seat from
    its own view; `quitter` quits after the start, or every player does. The final spectator
    view."""
    table = table or unique("t")

    async def send(player: str, command: dict[str, Any]) -> int:
        reply = await client.command(GAME, table, player, command)
        assert reply["ok"] or reply["error"]["code"] == "stale_version", reply
        return int(reply.get("version") or 0)

    await send(
        players[0],
        {"type": "create", "options": {"hand_size": 3, "bots": bots}, "seats": len(players) + bots},
    )
    for player in players[1:]:
        await send(player, {"type": "join"})
    version = await send(players[0], {"type": "start"})
    for player in players if everyone_quits else [quitter] if quitter else []:
        version = await send(player, {"type": "quit"}) or version
    while True:
        spectator = await client.wait_view(GAME, table, subjects.SPECTATOR, version)
        version = spectator["version"]
        if spectator["view"]["status"] == "ended":
            return {"table": table, **spectator}
        ours = [
            p
            for p in spectator["view"]["to_act"]
            if p in players and p not in spectator["view"].get("zombies", ())
        ]
        if not ours:  # the bot service moves the table on
            version += 1
            continue
        for player in ours:
            view = (await client.view(GAME, table, player))["view"]
            if view.get("legal"):
                version = max(version, await send(player, HIGHCARD.bot(view, rng)))


def expected_ratings(results: list[dict[str, Any]]) -> dict[str, Any]:
    """What the rating library makes of the results, in order: each player alone, ranked as
    the result ranks them."""
    ratings: dict[str, Any] = {}
    for result in results:
        ranking = result["ranking"]
        teams = [[ratings.get(s["player"], MODEL.rating())] for s in ranking]
        rated = MODEL.rate(teams, ranks=[float(s["rank"]) for s in ranking])
        for standing, [new] in zip(ranking, rated, strict=True):
            ratings[standing["player"]] = new
    return ratings


async def rankings_of(client: Client, players: list[str]) -> dict[str, dict[str, Any]]:
    """The leaderboard rows of `players`, every page read."""
    rows: dict[str, dict[str, Any]] = {}
    after = None
    while True:
        page = await until_ready(lambda a=after: client.rankings(GAME, after=a, limit=100))
        rows.update({r["player"]: r for r in page["players"] if r["player"] in players})
        after = page["next"]
        if after is None:
            return rows


async def until_ready(ask: Any, timeout: float = 60.0) -> Any:
    """An answer, asked again while the projector is still reading the log, or still starting
    (no responders yet: a process started again after a kill)."""
    deadline = asyncio.get_running_loop().time() + timeout
    while True:
        try:
            return await ask()
        except (RequestFailed, Unavailable) as err:
            starting = isinstance(err, Unavailable) or err.code == "unavailable"
            if not starting or asyncio.get_running_loop().time() > deadline:
                raise
            await asyncio.sleep(0.2)


async def until_counted(client: Client, player: str, tables: int, timeout: float = 60.0) -> dict[str, Any]:
    """`player`'s profile once it counts `tables` tables in their history."""
    deadline = asyncio.get_running_loop().time() + timeout
    while True:
        history = await until_ready(lambda: client.history(player, limit=100))
        if len(history["tables"]) >= tables:
            return await client.profile(player)
        assert asyncio.get_running_loop().time() < deadline, f"{player}: {len(history['tables'])} of {tables}"
        await asyncio.sleep(0.1)


async def test_ratings_equal_the_rating_librarys_from_the_same_results(bus, services):
    client, rng = Client(bus), random.Random(7)
    ann, bob, cat = unique("ann"), unique("bob"), unique("cat")
    seatings = [[ann, bob], [bob, cat, ann], [cat, ann], [ann, bob, cat], [bob, ann]]
    results = [(await play(client, seats, rng))["view"]["result"] for seats in seatings]
    for player in (ann, bob, cat):
        await until_counted(client, player, sum(player in s for s in seatings))
    expected = expected_ratings(results)
    rows = await rankings_of(client, [ann, bob, cat])
    for player in (ann, bob, cat):
        assert rows[player]["mu"] == pytest.approx(expected[player].mu, abs=1e-9)
        assert rows[player]["sigma"] == pytest.approx(expected[player].sigma, abs=1e-9)
        assert rows[player]["rating"] == round(expected[player].ordinal(), 2)
        assert rows[player]["rated"] == rows[player]["played"] == sum(player in s for s in seatings)
        assert rows[player]["won"] == sum(player in r["winners"] for r in results)
    # the leaderboard is in rating order, ranks 1, 2, 3, ... over every rated player
    board = (await client.rankings(GAME, limit=100))["players"]
    assert [r["rank"] for r in board] == list(range(1, len(board) + 1))
    assert [r["rating"] for r in board] == sorted((r["rating"] for r in board), reverse=True)
    # a profile: the game's record, the latest tables newest first with their rating change
    profile = await client.profile(ann)
    assert profile["games"][GAME]["played"] == 5 and profile["games"][GAME]["provisional"] is False
    assert [e["ended_at"] for e in profile["recent"]] == sorted(
        (e["ended_at"] for e in profile["recent"]), reverse=True
    )
    assert profile["recent"][0]["rating_after"] == rows[ann]["rating"]
    assert all(e["replay"] == f"#/replay/{GAME}/{e['table']}" for e in profile["recent"])
    # the history, paged: newest first, every table once
    first = await client.history(ann, limit=2)
    second = await client.history(ann, limit=2, after=first["next"])
    third = await client.history(ann, limit=2, after=second["next"])
    tables = [e["table"] for page in (first, second, third) for e in page["tables"]]
    assert len(tables) == len(set(tables)) == 5 and third["next"] is None


async def test_an_abandoned_table_or_a_table_with_a_bot_rates_nobody(bus, services):
    client, rng = Client(bus), random.Random(8)
    ann, bob = unique("ann"), unique("bob")
    await play(client, [ann, bob], rng)
    await until_counted(client, ann, 1)
    before = await rankings_of(client, [ann, bob])
    abandoned = await play(client, [ann, bob], rng, everyone_quits=True)
    with_bot = await play(client, [ann, bob], rng, bots=1)
    assert abandoned["view"]["result"]["details"]["abandoned"] is True
    profile = await until_counted(client, ann, 3)
    assert await rankings_of(client, [ann, bob]) == {
        p: {
            **row,
            "played": row["played"] + 1,
            "won": row["won"] + (p in with_bot["view"]["result"]["winners"]),
        }
        for p, row in before.items()
    }
    entries = {e["table"]: e for e in profile["recent"]}
    assert entries[abandoned["table"]]["rank"] is None and not entries[abandoned["table"]]["rated"]
    assert not entries[with_bot["table"]]["rated"] and entries[with_bot["table"]]["rating_after"] is None
    assert not any(
        r["player"].startswith("robot-") for r in (await client.rankings(GAME, limit=100))["players"]
    )


async def test_a_player_who_quits_ranks_last(bus, services):
    client, rng = Client(bus), random.Random(9)
    ann, bob, cat = unique("ann"), unique("bob"), unique("cat")
    ended = await play(client, [ann, bob, cat], rng, quitter=ann)
    result = ended["view"]["result"]
    assert result["ranking"][-1]["player"] == ann and ann not in result["winners"]
    await until_counted(client, cat, 1)
    expected = expected_ratings([result])
    rows = await rankings_of(client, [ann, bob, cat])
    assert rows[ann]["mu"] == pytest.approx(expected[ann].mu, abs=1e-9)
    assert rows[ann]["rating"] == min(r["rating"] for r in rows.values())
    assert (await client.profile(ann))["recent"][0]["rank"] == 3


async def test_a_stopped_projector_and_a_rebuild_change_nothing(bus, services):
    client, rng = Client(bus), random.Random(10)
    players = [unique("p") for _ in range(3)]
    results = [(await play(client, players[:2], rng))["view"]["result"]]
    await until_counted(client, players[0], 1)
    await services.stop("results-projector")  # gone between two results: the log goes on
    for seats in ([players[1], players[2]], players):
        results.append((await play(client, seats, rng))["view"]["result"])
    await services.start("results-projector")  # a new process: it reads the log again
    await until_counted(client, players[1], 3)
    expected = expected_ratings(results)
    rows = await rankings_of(client, players)
    for p in players:
        assert (rows[p]["mu"], rows[p]["sigma"]) == pytest.approx(
            (expected[p].mu, expected[p].sigma), abs=1e-9
        )
    # the projector answers what a fold of the whole log gives, exactly, before and after it
    # is made to fold the log again
    folded = await maintenance.fold_the_log(bus)
    # a game this deployment does not serve, with no result in the log: nothing to compare
    assert await maintenance.differences(bus, folded, [GAME, "no_such_game"]) == []
    assert await maintenance.fold_again(bus) == ["tabletop-results"]
    assert await maintenance.differences(bus, folded, [GAME]) == []
    assert await rankings_of(client, players) == rows


async def test_a_projector_killed_again_and_again_under_load_counts_every_result_once(
    bus, nats_url, services
):
    """`tabletop results-projector` SIGKILLed twice while tables end, then left to run: it
    answers exactly what a fold of the whole log gives, and the ratings are the library's."""
    await services.stop("results-projector")  # the process below answers alone
    env = cli_env(NATS_URL=nats_url, TABLETOP_LOG_LEVEL="warning")

    def spawn() -> subprocess.Popen[bytes]:
        return subprocess.Popen(
            [*TABLETOP, "results-projector", "--replica", "7"],
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )

    client, rng = Client(bus), random.Random(13)
    players = [unique("k") for _ in range(3)]
    seatings = [players[:2], players, players[1:], [players[2], players[0]], players, players[:2]]
    process = spawn()
    try:
        results = []
        for index, seats in enumerate(seatings):
            results.append((await play(client, seats, rng))["view"]["result"])
            if index in (1, 3):  # killed with results behind it, and started again at once
                process.send_signal(signal.SIGKILL)
                assert process.wait(10) == -signal.SIGKILL
                process = spawn()
        await until_counted(client, players[0], sum(players[0] in s for s in seatings))
        deadline = asyncio.get_running_loop().time() + 60
        while found := await maintenance.differences(bus, await maintenance.fold_the_log(bus), [GAME]):
            assert asyncio.get_running_loop().time() < deadline, found
            await asyncio.sleep(0.2)
        expected = expected_ratings(results)
        rows = await rankings_of(client, players)
        for p in players:
            assert rows[p]["rated"] == sum(p in s for s in seatings)
            assert (rows[p]["mu"], rows[p]["sigma"]) == pytest.approx(
                (expected[p].mu, expected[p].sigma), abs=1e-9
            )
    finally:
        process.send_signal(signal.SIGKILL)
        process.wait(10)
        await bus.delete_consumer("tabletop-results-7", stream=subjects.STREAM)
        await services.start("results-projector")


async def test_a_message_delivered_twice_is_folded_once(bus, services):
    client, rng = Client(bus), random.Random(11)
    ann, bob = unique("ann"), unique("bob")
    await play(client, [ann, bob], rng)
    await until_counted(client, ann, 1)
    runs = [r async for r in bus.events.replay_log(await bus.events.last_seqs())]
    messages = [(stream, m) for stream, run in runs for m in run]
    standings = Standings()
    for stream, m in messages:
        standings.fold(stream, m.seq, m.subject, m.data, m.writer)
    once = standings.comparable()
    for stream, m in messages:  # delivered again: skipped
        assert not standings.fold(stream, m.seq, m.subject, m.data, m.writer)
    assert standings.comparable() == once and standings.history[ann][0].rated


async def test_a_rematch_offered_after_the_end_is_passed_over(bus, services):
    """The ended table's later messages (a rematch offered, declined) are neither a result nor
    counted as messages out of place."""
    client, rng = Client(bus), random.Random(14)
    ann, bob = unique("ann"), unique("bob")
    ended = await play(client, [ann, bob], rng)
    offer = {"type": "rematch", "table": unique("t")}
    assert (await client.command(GAME, ended["table"], ann, offer))["ok"]
    assert (await client.command(GAME, ended["table"], bob, {"type": "decline_rematch"}))["ok"]
    stream = (await bus.events.layout()).stream_of(GAME, ended["table"])
    last = (await bus.events.last_seqs())[stream]
    subject = subjects.evt(GAME, ended["table"])
    messages = [m for run in [r async for r in bus.events.replay(stream, subject, upto=last)] for m in run]
    standings = Standings()
    folded = [standings.fold(stream, m.seq, m.subject, m.data, m.writer) for m in messages]
    assert folded == [True] * (len(messages) - 2) + [False, False]
    assert standings.skipped == 0 and standings.results == 1 and len(standings.history[ann]) == 1


@pytest.mark.parametrize(
    ("subject", "body", "code"),
    [
        (subjects.rankings("no_such_game"), b"{}", "unknown_game"),
        (subjects.rankings(GAME), b'{"limit": 0}', "bad_request"),
        (subjects.rankings(GAME), b'{"after": -1}', "bad_request"),
        (subjects.history("ann"), b'{"game": "no_such_game"}', "unknown_game"),
        (subjects.history("ann"), b'{"limit": 101}', "bad_request"),
        (subjects.history("ann"), b'{"colour": "red"}', "bad_request"),
        (subjects.profile("ann"), b'{"x": 1}', "bad_request"),
        (subjects.profile("ann"), b"not json", "bad_request"),
    ],
)
async def test_a_bad_request_is_answered_with_a_code(bus, services, subject, body, code):
    async def asked() -> dict[str, Any]:
        answer = await Client(bus)._ask(subject, body)
        if answer.get("error", {}).get("code") == "unavailable":
            raise RequestFailed("unavailable", "")
        return answer

    answer = await until_ready(asked)
    assert answer["error"]["code"] == code and answer["error"]["message"]


async def test_profiles_and_rankings_are_public_to_players_and_guests(nats_url, bus, services):
    player = unique("ann")
    await play(Client(bus), [player, unique("bob")], random.Random(12))
    await until_counted(Client(bus), player, 1)
    for credentials in (
        Credentials.guest(unique("guest")),
        Credentials.player(unique("eve"), "eve's long password"),
    ):
        asker = Client(
            await Bus.connect(nats_url, load_settings(), name="test-asker", wait=10, credentials=credentials)
        )
        try:
            assert (await asker.profile(player))["games"][GAME]["played"] == 1
            assert (await asker.history(player))["tables"]
            assert any(r["player"] == player for r in (await rankings_of(asker, [player])).values())
        finally:
            await asker.bus.close()


def test_teams_rate_together_and_a_player_who_left_alone():
    """Decrypto's result: the winning team one group, the other another; a quitter (ranked
    last by the result) alone; without teams, everyone alone and ties share a rank."""
    teams = {"white": ["ann", "bob"], "black": ["cat", "dan", "eve"]}
    ranking = [
        Standing("ann", 1, 1),
        Standing("bob", 1, 1),
        Standing("cat", 2, 0),
        Standing("dan", 2, 0),
        Standing("eve", 5, 0),
    ]
    result = Result(scores={}, ranking=ranking, winners=["ann", "bob"], details={"teams": teams})
    assert rating_groups(result) == ([["ann", "bob"], ["cat", "dan"], ["eve"]], [1.0, 2.0, 5.0])
    alone = Result(scores={}, ranking=ranking[:3], winners=["ann", "bob"])
    assert rating_groups(alone) == ([["ann"], ["bob"], ["cat"]], [1.0, 1.0, 2.0])
