"""The game worker over a real NATS: one message per accepted command, nothing for anything
refused, every retry applied once, and no fork when workers race."""

import asyncio
import uuid

import msgspec
import nats.errors
import pytest
from structlog.testing import capture_logs

from services.client import Client, new_id
from services.game_worker.app import service_name
from services.table_projector import maintenance
from shared.bus.server import EmbeddedServer
from shared.messages import subjects
from shared.messages.envelopes import encoder
from tests.platform.stack import stack


def table_id() -> str:
    return f"t{uuid.uuid4().hex[:12]}"


async def log_of(bus, table, game="highcard"):
    return [msgspec.json.decode(m.data) for m in await bus.events.read(game, table)]


async def send_raw(bus, table, player, body: bytes, game="highcard"):
    return msgspec.json.decode(await bus.request(subjects.cmd(game, table, player), body))


BOTH = "worker:highcard+crashy"  # `tabletop worker highcard crashy`: both games, one process


@pytest.fixture
async def worker(nats_url):
    async with stack(nats_url, BOTH) as s:
        yield s


async def started_table(client, table, game="highcard"):
    assert (await client.command(game, table, "ann", {"type": "create", "seats": 2}))["ok"]
    assert (await client.command(game, table, "bob", {"type": "join"}))["ok"]
    assert (await client.command(game, table, "ann", {"type": "start"}))["ok"]


async def test_an_accepted_command_appends_one_message_with_all_its_events(bus, worker):
    client, table = Client(bus), table_id()
    await started_table(client, table)
    log = await log_of(bus, table)
    assert [b["version"] for b in log] == [1, 2, 3]
    start = log[2]
    assert [e["type"] for e in start["events"]] == ["table_started", "hands_dealt", "draws_made"]
    assert start["player"] == "ann" and start["game"] == "highcard" and start["table"] == table


@pytest.mark.parametrize(
    ("body", "code"),
    [
        (b"{not json", "bad_command"),
        (b'{"id": "x1", "type": "teleport"}', "bad_command"),
        (b'{"id": "x2", "type": "play_card"}', "bad_command"),
        (b'{"id": "x3", "type": "play_card", "card": "one"}', "bad_command"),
        (b'{"id": "bad id!", "type": "join"}', "bad_command"),
        (b'{"id": "x4", "type": "join", "spare": true}', "bad_command"),
        (b'{"id": "x5", "type": "join", "pad": "' + b"x" * 70_000 + b'"}', "bad_command"),
        (b'{"id": "x6", "type": "play_card", "card": 999}', "card_not_in_hand"),
        (b'{"id": "x7", "type": "start"}', "already_started"),
        (b'{"id": "x8", "type": "join", "expect": 1}', "stale_version"),
    ],
)
async def test_refused_commands_append_nothing_and_the_worker_goes_on(bus, worker, body, code):
    client, table = Client(bus), table_id()
    await started_table(client, table)
    before = await log_of(bus, table)
    reply = await send_raw(bus, table, "ann", body)
    assert reply["ok"] is False and reply["error"]["code"] == code and reply["error"]["message"]
    assert await log_of(bus, table) == before
    # the worker still serves: a legal command right after is accepted
    legal = await first_legal(bus, table, "ann")
    assert (await client.command("highcard", table, "ann", legal))["ok"]
    assert len(await log_of(bus, table)) == len(before) + 1


@pytest.mark.parametrize("entropy", ["zz", "abc", "a" * 66, "a" * 60_000, "<script>"])
async def test_entropy_that_is_not_hex_bytes_is_refused_and_appends_nothing(bus, worker, entropy):
    """Garbage, an odd digit count or far too much entropy: `bad_entropy` at create and join."""
    table = table_id()
    body = msgspec.json.encode({"id": "e1", "type": "create", "entropy": entropy})
    reply = await send_raw(bus, table, "ann", body)
    expected = "bad_command" if len(body) > 64 * 1024 else "bad_entropy"  # over a command's bound
    assert reply["ok"] is False and reply["error"]["code"] == expected and reply["error"]["message"]
    assert await log_of(bus, table) == []
    assert (await send_raw(bus, table, "ann", b'{"id": "e2", "type": "create"}'))["ok"]
    joined = await send_raw(
        bus, table, "bob", msgspec.json.encode({"id": "e3", "type": "join", "entropy": entropy})
    )
    assert joined["error"]["code"] == expected
    assert len(await log_of(bus, table)) == 1


async def first_legal(bus, table, player):
    """A legal command for `player`, worked out from the log (no projector in these tests)."""
    from services.registry import get
    from shared.messages.folding import decode_batch, empty

    decider = get("highcard")
    folded = empty(decider)
    for m in await bus.events.read("highcard", table):
        folded = folded.then(decider, m.seq, decode_batch(decider, m.data))
    return msgspec.to_builtins(decider.legal_commands(folded.state, player)[0])


async def test_unknown_tables_and_out_of_turn_commands_append_nothing(bus, worker):
    client, table = Client(bus), table_id()
    reply = await client.command("highcard", table, "ann", {"type": "join"})
    assert reply["error"]["code"] == "unknown_table"
    assert await log_of(bus, table) == []
    await started_table(client, table)
    card = (await first_legal(bus, table, "bob"))["card"]
    assert (await client.command("highcard", table, "bob", {"type": "play_card", "card": card}))["ok"]
    again = await client.command("highcard", table, "bob", {"type": "play_card", "card": card})
    assert again["error"]["code"] == "not_your_turn"  # bob has chosen his card for this trick
    assert len(await log_of(bus, table)) == 4
    stranger = await client.command("highcard", table, "cy", {"type": "play_card", "card": 1})
    assert stranger["error"]["code"] == "not_seated"


async def test_a_bad_subject_is_refused(bus, worker):
    reply = await send_raw(bus, "t.x", "ann", b'{"id": "a", "type": "join"}')
    assert reply["error"]["code"] == "bad_command"


async def test_the_same_command_id_is_applied_once_and_answered_alike(bus, worker):
    table = table_id()
    body = encoder.encode({"id": "create-1", "type": "create"})
    first = await send_raw(bus, table, "ann", body)
    again = await send_raw(bus, table, "ann", body)
    assert first == again == {"ok": True, "version": 1}
    # after a lost reply: the command was sent, nobody read the answer, then sent again
    join = encoder.encode({"id": "join-1", "type": "join"})
    await bus.nc.publish(subjects.cmd("highcard", table, "bob"), join)
    while len(await log_of(bus, table)) < 2:  # applied, its answer lost
        await asyncio.sleep(0.01)
    assert await send_raw(bus, table, "bob", join) == {"ok": True, "version": 2}
    assert [b["command_id"] for b in await log_of(bus, table)] == ["create-1", "join-1"]


async def test_a_crash_in_the_rules_is_answered_and_logged_and_the_worker_serves_on(bus, worker):
    client, table = Client(bus), table_id()
    await started_table(client, table, game="crashy")
    with capture_logs() as logs:
        reply = await client.command("crashy", table, "ann", {"type": "play_card", "card": 13})
    assert reply["error"]["code"] == "internal_error"
    crash = [e for e in logs if e["event"] == "command_crashed"]
    assert crash and crash[0]["exc_info"]
    assert len(await log_of(bus, table, game="crashy")) == 3
    assert (await client.command("crashy", table, "bob", {"type": "leave"}))["error"][
        "code"
    ] == "already_started"
    other = table_id()  # the other game the process serves plays on
    await started_table(client, other)
    assert len(await log_of(bus, other)) == 3


async def test_one_process_serves_each_of_its_games_as_a_worker_of_its_own(bus, worker):
    """Each game its own micro service and commands; one answerer of unknown games for the
    process (a queue group joined once a game would take five deliveries' worth of work for
    one answer)."""
    client = Client(bus)
    for game in ("highcard", "crashy"):
        table = table_id()
        await started_table(client, table, game=game)
        assert len(await log_of(bus, table, game=game)) == 3
        (info,) = (await bus.service_instances(service_name(game))).values()
        assert info["endpoints"][0]["subject"] == subjects.cmd_all(game)
    unknown = subjects.cmd("nosuchgame", table_id(), "ann")
    for _ in range(200):  # the answerer takes commands once the workers have heard each other
        try:
            answer = msgspec.json.decode((await bus.nc.request(unknown, b"{}", timeout=2)).data)
            break
        except nats.errors.NoRespondersError:
            await asyncio.sleep(0.05)
    assert answer["error"]["code"] == "unknown_game", answer
    connection = worker.buses[BOTH].nc
    assert [s.subject for s in connection._subs.values()].count(subjects.CMD_UNMAPPED) == 1


async def test_one_log_line_per_command(bus, worker):
    client, table = Client(bus), table_id()
    with capture_logs() as logs:
        await client.command("highcard", table, "ann", {"type": "create"})
        await client.command("highcard", table, "ann", {"type": "create"})
    lines = [e for e in logs if e["event"] == "command_handled"]
    assert [(e["outcome"], e.get("code")) for e in lines] == [
        ("accepted", None),
        ("rejected", "table_exists"),
    ]
    for line in lines:
        assert {"game", "table", "player", "command", "retries", "duration_ms"} <= set(line)


async def test_two_workers_and_200_concurrent_commands_never_fork_a_table(bus, nats_url):
    async with stack(nats_url, "worker:highcard", "worker:highcard#2"):
        client = Client(bus, timeout=20)
        tables = [table_id() for _ in range(20)]
        for table in tables:
            assert (await client.command("highcard", table, "ann", {"type": "create"}))["ok"]
        accepted: dict[str, dict[str, int]] = {t: {} for t in tables}

        async def player(table: str, name: str) -> None:
            for kind in ("join", "leave", "join"):
                command_id = new_id()
                reply = await client.command("highcard", table, name, {"id": command_id, "type": kind})
                if reply["ok"]:
                    accepted[table][command_id] = reply["version"]

        await asyncio.gather(*(player(t, f"p{i}") for t in tables for i in range(10)))
        for table in tables:
            log = await log_of(bus, table)
            assert [b["version"] for b in log] == list(range(1, len(log) + 1))
            in_log = {b["command_id"]: b["version"] for b in log[1:]}
            assert in_log == accepted[table]
        assert sum(map(len, accepted.values())) >= 200


async def test_every_worker_replica_answers_operators_with_its_counts(bus, nats_url):
    async with stack(nats_url, "worker:highcard", "worker:highcard#2"):
        client = Client(bus)
        for _ in range(4):
            await client.command("highcard", table_id(), "ann", {"type": "create"})
        inbox = bus.nc.new_inbox()
        replies = {}

        async def collect(msg):
            reply = msgspec.json.decode(msg.data)
            replies[reply["id"]] = reply

        sub = await bus.nc.subscribe(inbox, cb=collect)
        deadline = asyncio.get_running_loop().time() + 30
        while len(replies) < 2:  # both replicas answer, however long one takes
            assert asyncio.get_running_loop().time() < deadline, replies
            await bus.nc.publish("$SRV.STATS.tabletop-worker-highcard", b"", reply=inbox)
            await asyncio.sleep(0.1)
        await sub.unsubscribe()
        answered = list(replies.values())
        assert len({r["id"] for r in answered}) == 2
        counts = [r["endpoints"][0]["data"] for r in answered]
        assert sum(c.get("accepted", 0) for c in counts) == 4
        assert all(r["endpoints"][0]["subject"] == "tabletop.cmd.highcard.>" for r in answered)


async def worker_replicas(bus) -> list[dict]:
    stats = await maintenance.service_stats(bus)
    return [r["endpoints"][0]["data"] for r in stats.get("tabletop-worker-highcard", [])]


async def until_partitions_shared(bus, replicas: int) -> list[dict]:
    """Until `replicas` replicas each know of the others and own disjoint partitions that
    cover them all."""
    deadline = asyncio.get_running_loop().time() + 30
    while True:
        found = await worker_replicas(bus)
        owned = [set(r["partitions"]) for r in found]
        if (
            len(found) == replicas
            and all(r["replicas"] == replicas for r in found)
            and sum(map(len, owned)) == subjects.CMD_PARTITIONS
            and set().union(*owned) == set(range(subjects.CMD_PARTITIONS))
        ):
            return found
        assert asyncio.get_running_loop().time() < deadline, found


async def test_two_replicas_each_answer_their_own_tables_and_a_stopped_one_hands_them_over(bus, nats_url):
    async with stack(nats_url, "worker:highcard", "worker:highcard#2") as s:
        await until_partitions_shared(bus, 2)
        client = Client(bus, timeout=20)
        tables = [table_id() for _ in range(24)]

        async def play(table: str) -> None:
            assert (await client.command("highcard", table, "ann", {"type": "create", "seats": 5}))["ok"]
            # players of one table at once: one replica takes them in turn, none conflicts
            replies = await asyncio.gather(
                *(client.command("highcard", table, f"p{i}", {"type": "join"}) for i in range(4))
            )
            assert all(r["ok"] for r in replies)

        await asyncio.gather(*(play(t) for t in tables))
        counts = await worker_replicas(bus)
        assert all(c.get("accepted", 0) > 0 for c in counts), counts  # both took tables
        assert sum(c.get("accepted", 0) for c in counts) == 5 * len(tables)
        assert sum(c.get("retried", 0) for c in counts) == 0, counts  # no stale cache, ever
        await s.stop("worker:highcard#2")
        await until_partitions_shared(bus, 1)
        for table in tables:  # every table is answered by the replica left
            assert (await client.command("highcard", table, "p0", {"type": "leave"}))["ok"]
        for table in tables:
            log = await log_of(bus, table)
            assert [b["version"] for b in log] == list(range(1, 7))


async def test_a_worker_whose_game_the_server_does_not_map_says_so_and_answers(tmp_path, secure_server):
    """A server whose config has no mapping for the game (an older auth.conf, a game added
    since): its commands arrive as sent, the worker still answers them, and says once in its
    log, and in its counts, that its replicas get no partitions."""
    if secure_server.secrets is None:
        pytest.skip("this needs a NATS of its own")
    secrets = secure_server.secrets
    with EmbeddedServer(tmp_path, sync_always=False, secrets=secrets, max_store=0, games=()) as server:
        with capture_logs() as logs:
            async with stack(server.url, "worker:highcard") as s:
                client, table = Client(s.probe), table_id()
                await started_table(client, table)
                (replica,) = (await maintenance.service_stats(s.probe))["tabletop-worker-highcard"]
        counts = replica["endpoints"][0]["data"]
        assert counts["unmapped_commands"] == 3 and counts["partitions"] == list(range(16))
        said = [e for e in logs if e["event"] == "commands_not_partitioned"]
        assert len(said) == 1 and "tabletop credentials" in said[0]["why"], said


async def test_a_worker_takes_no_command_as_sent_where_the_server_maps_its_game(bus, worker):
    client, table = Client(bus), table_id()
    await started_table(client, table)
    replicas = (await maintenance.service_stats(bus))["tabletop-worker-highcard"]
    assert replicas and sum(r["endpoints"][0]["data"]["unmapped_commands"] for r in replicas) == 0
