"""The real CLI as subprocesses: `tabletop up` with nothing but the package installed, then
`tabletop play` and the terminal commands through it. Every registered game is played by bots
to its end through the bus, and every step of its replay equals the view seen live."""

import asyncio
import json
import re
import subprocess
import threading
import time
import uuid
from pathlib import Path
from typing import Any

import pytest

from services import cli
from services.client import Client
from services.registry import games, get
from services.runtime import nats_url, url_file, write_url_file
from shared.bus.connection import Bus
from shared.bus.credentials import ServerSecrets
from shared.games import fairness
from shared.messages import subjects
from shared.settings import load_settings
from tests.conftest import assert_replay_equals_live, websocket_handshake
from tests.processes import TABLETOP, Up, cli_env


@pytest.fixture(scope="module")
def up(tmp_path_factory):
    server = Up(tmp_path_factory.mktemp("tabletop-up")).start()
    yield server
    assert server.stop() == 0


@pytest.mark.slow
def test_the_command_starts_and_lists_its_commands():
    top = subprocess.run([*TABLETOP, "--help"], env=cli_env(), capture_output=True, text=True)
    assert top.returncode == 0
    assert "usage: tabletop" in top.stdout and "rebuild-views" in top.stdout


def test_every_command_has_help(capsys):
    """Each command's help, from the parser the command line runs (the command itself starts
    once above: a process each would only repeat the start)."""
    with pytest.raises(SystemExit) as done:
        cli.main(["--help"])
    assert done.value.code == 0
    top = capsys.readouterr().out
    commands = [
        "up",
        "auth",
        "credentials",
        "login",
        "logout",
        "passwd",
        "worker",
        "table-projector",
        "history-projector",
        "results-projector",
        "bots",
        "rebuild-views",
        "rebuild-rankings",
        "profile",
        "rankings",
        "games",
        "lobby",
        "new",
        "join",
        "leave",
        "start",
        "act",
        "view",
        "watch",
        "replay",
        "verify-fairness",
        "play",
    ]
    for command in commands:
        assert command in top
        with pytest.raises(SystemExit) as done:
            cli.main([command, "--help"])
        assert done.value.code == 0, command
        assert f"usage: tabletop {command}" in capsys.readouterr().out, command


@pytest.mark.parametrize(
    "args",
    [
        ("worker", "nosuchgame"),
        ("worker", "highcard", "nosuchgame"),
        ("rankings", "nosuchgame"),
        ("play", "nosuchgame", "--bots", "1"),
    ],
)
def test_a_game_not_offered_is_named_with_the_games_that_are(args):
    """No traceback: the command ends before it connects, saying what it was given and what
    it could have been."""
    with pytest.raises(SystemExit) as done:
        cli.main(list(args))
    said = str(done.value.code)
    assert said.startswith("no game is called 'nosuchgame' (offered: ") and "highcard" in said, said


async def test_the_websocket_takes_the_page_up_serves_and_no_other(up):
    """`tabletop up` lets browsers connect to its NATS from the web client it serves only."""
    said = ""
    while not (found := re.search(r"browser at (http://\S+) \..* browsers at (ws://\S+),", said)):
        assert up.process is not None and up.process.poll() is None
        await asyncio.sleep(0.05)  # printed right after the address file is written
        said = (up.data / "up.log").read_text()
    page, websocket = found.groups()
    for own in (page, page.replace("127.0.0.1", "localhost")):
        assert str(await websocket_handshake(websocket, own)).startswith("INFO "), own
    other_port = page.rsplit(":", 1)[0] + ":1"
    for foreign in ("https://evil.example", other_port):
        assert await websocket_handshake(websocket, foreign) == 403, foreign


def test_games_lists_the_registry_including_added_games(up):
    listed = [json.loads(line)["game"] for line in up.run("games", "--json").stdout.splitlines()]
    assert listed == sorted(games())
    assert {"highcard", "naishi", "decrypto", "illustori"} <= set(listed)


def test_a_person_at_a_terminal_plays_a_table(up):
    table = up.run("new", "highcard", "--as", "ann", "--option", "hand_size=1").stdout.strip()
    assert table.startswith("highcard-")
    assert "ok, version 2" in up.run("join", table, "--as", "bob").stdout
    refused = up.run("start", table, "--as", "bob", check=False)
    assert refused.returncode == 1 and "not_creator" in refused.stdout
    up.run("start", table, "--as", "ann")
    early = up.run("verify-fairness", table, "--as", "ann", check=False)
    assert early.returncode == 3 and "cannot be checked: the table has not ended" in early.stdout
    view = json.loads(up.run("view", table, "--as", "ann", "--json").stdout)
    assert view["view"]["status"] == "running" and len(view["view"]["hand"]) == 1
    readable = up.run("view", table, "--as", "ann").stdout
    assert "running" in readable and "play_card" in readable
    bad = up.run("act", table, "--as", "ann", '{"type": "play_card", "card": "x"}', check=False)
    assert bad.returncode == 1 and "bad_command" in bad.stdout
    watch = subprocess.Popen(
        [*TABLETOP, "watch", table, "--as", "bob"],
        env={**up.env, "PYTHONUNBUFFERED": "1"},
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert watch.stdout is not None and watch.stderr is not None
    first = watch.stdout.readline()  # the current view: watch is following the table
    assert "running" in first, watch.stderr.read() if watch.poll() is not None else first
    played = {}
    for player in ("ann", "bob"):
        hand = json.loads(up.run("view", table, "--as", player, "--json").stdout)["view"]["hand"]
        played[player] = hand[0]
        up.run("act", table, "--as", player, json.dumps({"type": "play_card", "card": hand[0]}))
    rest, _ = watch.communicate(timeout=30)  # watch ends by itself with the game
    watched = first + rest
    assert watch.returncode == 0
    assert "running" in watched and "ended" in watched and "winners" in watched
    # the game log, as bob may read it: his own card named, ann's hidden until the trick
    assert f"bob chose the {played['bob']}\n" in watched and "ann chose a card\n" in watched
    assert "took the trick" in watched and "Game over:" in watched
    told = up.run("replay", table, "--as", "bob").stdout
    assert "ann opened a table for up to 5 players" in told
    assert f"bob chose the {played['bob']}\n" in told and "ann chose a card\n" in told
    # watch saw the end pushed, and views are stored before they are pushed
    ended = json.loads(up.run("view", table, "--json").stdout)["view"]
    assert ended["status"] == "ended" and ended["result"]["winners"]
    replay = [
        json.loads(line) for line in up.run("replay", table, "--as", "bob", "--json").stdout.splitlines()
    ]
    assert [s["version"] for s in replay] == list(range(1, len(replay) + 1))
    checked = up.run("verify-fairness", table, "--as", "bob").stdout
    assert f"{table}, as bob sees it:" in checked and "the draws are fair" in checked
    assert "ok    the revealed secret matches the commitment" in checked
    assert "entropy of 2 seats (2 gave their own)" in checked  # tabletop sends entropy at new and join
    deadline = time.monotonic() + 30
    while True:  # the lobby follows the views
        lobby = json.loads(up.run("lobby", "highcard", "--json").stdout)
        if table not in [t["table"] for t in lobby["tables"]]:
            break
        assert time.monotonic() < deadline, "the ended table stays in the lobby"


def test_people_at_terminals_chat_at_a_table_and_in_a_lobby(up):
    table = up.run("new", "highcard", "--as", "cal").stdout.strip()
    up.run("join", table, "--as", "dee")
    assert up.run("chat", table, "<b>hi</b> dee", "--as", "cal").returncode == 0
    up.run("chat", table, "hello cal", "--as", "dee")
    up.run("chat", table, "nice table", "--as", "eve")  # not seated: a spectator
    lines = up.run("chat", table).stdout.splitlines()  # read as a guest
    assert [line.split(" ", 1)[1] for line in lines] == [
        "cal: <b>hi</b> dee",
        "dee: hello cal",
        "eve (spectator): nice table",
    ], lines
    said = json.loads(up.run("chat", table, "--json", "--limit", "1").stdout)
    assert [(line["player"], line["text"], line["spectator"]) for line in said] == [
        ("eve", "nice table", True)
    ]
    up.run("chat", "highcard", "anyone for highcard?", "--as", "dee")  # a game: its lobby
    assert "dee: anyone for highcard?" in up.run("chat", "highcard").stdout
    assert "anyone for highcard?" not in up.run("chat", table).stdout
    empty = up.run("chat", table, "   ", "--as", "cal", check=False)
    assert empty.returncode == 1 and "bad_request" in empty.stdout and "say something" in empty.stdout
    guest = up.run("chat", table, "hi", check=False)  # nobody signed in: a guest reads only
    assert guest.returncode != 0 and "sign in first" in guest.stderr, guest.stderr


def test_login_keeps_a_private_session_and_refuses_wrong_passwords_and_reserved_names(up):
    config = up.data / "zoe-config"
    env = {**up.env, "XDG_CONFIG_HOME": str(config)}

    def tabletop(*args: str, **extra: str) -> subprocess.CompletedProcess:
        return subprocess.run(
            [*TABLETOP, *args], env={**env, **extra}, capture_output=True, text=True, timeout=60
        )

    assert tabletop("login", "zoe").returncode == 0
    session = config / "tabletop" / "session.json"
    assert session.stat().st_mode & 0o777 == 0o600
    kept = json.loads(session.read_text())
    assert set(kept) == {"player", "token", "expires"} and kept["player"] == "zoe"
    assert env["TABLETOP_PASSWORD"] not in session.read_text()  # the token, never the password
    del env["TABLETOP_PASSWORD"]  # from here on the session's token signs zoe in
    table = tabletop("new", "highcard").stdout.strip()
    assert json.loads(tabletop("view", table, "--json").stdout)["view"]["seats"] == ["zoe"]
    wrong = tabletop("login", "zoe", TABLETOP_PASSWORD="not zoe's password")
    assert wrong.returncode == 1 and "refused" in wrong.stderr
    reserved = tabletop("login", "spectator", TABLETOP_PASSWORD="a fine password")
    assert reserved.returncode != 0 and "reserved" in reserved.stderr
    assert tabletop("logout").returncode == 0 and not session.exists()
    # revoked on the server: the token kept before signs nobody in any more
    session.write_text(json.dumps(kept))
    revoked = tabletop("view", table)
    assert revoked.returncode == 1 and "tabletop login zoe" in revoked.stderr, revoked.stderr
    session.unlink()
    anonymous = tabletop("join", table)
    assert anonymous.returncode != 0 and "sign in first" in anonymous.stderr
    watched = json.loads(tabletop("view", table, "--json").stdout)  # a guest may watch
    assert watched["view"]["seats"] == ["zoe"] and not watched["view"].get("hand")


def test_passwd_changes_the_password_and_signs_out_every_other_session(up):
    homes = [up.data / "yan-laptop", up.data / "yan-phone"]
    password, new = up.env["TABLETOP_PASSWORD"], "a brand new password"

    def tabletop(home: Path, *args: str, **extra: str) -> subprocess.CompletedProcess:
        env = {**up.env, "XDG_CONFIG_HOME": str(home), **extra}
        return subprocess.run([*TABLETOP, *args], env=env, capture_output=True, text=True, timeout=60)

    for home in homes:
        assert tabletop(home, "login", "yan").returncode == 0
    changed = tabletop(homes[0], "passwd", TABLETOP_NEW_PASSWORD=new)
    assert changed.returncode == 0 and "2 session(s)" in changed.stdout, changed.stdout + changed.stderr
    laptop = {"TABLETOP_PASSWORD": ""}
    assert tabletop(homes[0], "new", "highcard", **laptop).returncode == 0  # its new token
    phone = tabletop(homes[1], "new", "highcard", **laptop)  # signed out by the change
    assert phone.returncode == 1 and "tabletop login yan" in phone.stderr
    assert tabletop(homes[1], "login", "yan", TABLETOP_PASSWORD=password).returncode == 1
    assert tabletop(homes[1], "login", "yan", TABLETOP_PASSWORD=new).returncode == 0


def bots_for(game: str) -> int:
    g = games()[game].game
    return min(max(g.min_players, 3), g.max_players)


PLAYABLE = sorted(g for g in games() if g != "crashy")  # crashy is broken on purpose


@pytest.mark.parametrize("game", PLAYABLE)
def test_bots_play_every_game_through_the_cli_and_replays_equal_live_views(up, game):
    table = f"{game}-{uuid.uuid4().hex[:12]}"
    n = bots_for(game)
    # `play` plays bot-1; the bot service (run by `up`) the seats of the `bots` option
    viewers = ["bot-1"] + [f"robot-{i}" for i in range(1, n)] + ["spectator"]

    async def scenario():
        admin = ServerSecrets(up.data / "credentials").credentials("admin")
        bus = await Bus.connect(up.url, load_settings(), name="test-watch", wait=10, credentials=admin)
        client = Client(bus)
        live: dict[str, dict[int, Any]] = {v: {} for v in viewers}
        pushed: list[tuple[int, bytes]] = []  # every push, by version: none may hold the secret early

        async def record(viewer):
            async def on_update(message):
                update = json.loads(message.data)
                live[viewer][update["version"]] = update["view"]
                pushed.append((update["version"], message.data))

            return await bus.subscribe(subjects.update(game, table, viewer), on_update)

        recorders = [await record(v) for v in viewers]  # each confirmed by the server
        play = await asyncio.create_subprocess_exec(
            *TABLETOP,
            "play",
            game,
            "--bots",
            str(n),
            "--table",
            table,
            "--seed",
            "5",
            env=up.env,
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE,
        )
        out, err = await asyncio.wait_for(play.communicate(), 300)
        assert play.returncode == 0, (out + err).decode()[-3000:]
        text = out.decode()
        assert f"table {table} ended at version" in text and "winners" in text
        final = await client.wait_view(game, table, "spectator", 3)
        deadline = asyncio.get_running_loop().time() + 30
        while not all(final["version"] in live[v] for v in viewers):  # the last pushes
            assert asyncio.get_running_loop().time() < deadline, "a final view was not pushed"
            await asyncio.sleep(0.05)
        for sub in recorders:
            await sub.unsubscribe()
        assert final["view"]["status"] == "ended" and "result" in final["view"]
        for viewer in viewers:
            steps = await client.replay(game, table, viewer, views="every")
            assert [s["version"] for s in steps] == list(range(1, final["version"] + 1))
            assert_replay_equals_live(steps, live, viewer)
        # the secret is revealed in the last step, and was in no push before it
        revealed = [(s["version"], e) for s in steps for e in s["events"] if e["type"] == "seed_revealed"]
        assert [v for v, _ in revealed] == [final["version"]]
        secret = revealed[0][1]["secret"].encode()
        assert not [v for v, body in pushed if secret in body and v < final["version"]]
        seat = fairness.check(get(game), await client.replay(game, table, "bot-1", views="none"), "bot-1")
        assert seat.passed and len(seat.checked) >= 5, seat
        await bus.close()

    asyncio.run(scenario())
    checked = json.loads(up.run("verify-fairness", table, "--as", "guest-eve", "--json").stdout)
    assert checked["passed"] and len(checked["checked"]) >= 5, checked  # as a spectator sees it


def test_the_nats_address_up_leaves_is_never_read_half_written(tmp_path):
    """`up` leaves the address of its NATS where the other commands look (`nats.url`), whole or
    not at all: a reader that finds the file while it is written again and again reads every
    address whole, never an empty or cut one."""
    settings = load_settings(data_dir=str(tmp_path), nats_url="")
    written = [f"nats://127.0.0.1:{4000 + i}" for i in range(2000)]
    read: list[str] = []
    done = threading.Event()

    def reader() -> None:
        while not done.is_set():
            if url_file(settings).exists():
                read.append(nats_url(settings))

    thread = threading.Thread(target=reader)
    thread.start()
    try:
        for url in written:
            write_url_file(settings, url)
    finally:
        done.set()
        thread.join()
    assert read and set(read) <= set(written), sorted(set(read) - set(written))[:3]
    assert [p.name for p in tmp_path.iterdir()] == ["nats.url"]  # nothing left beside it


@pytest.mark.slow
def test_up_keeps_its_data_across_a_restart(tmp_path):
    server = Up(tmp_path).start()
    try:
        done = server.run("play", "highcard", "--bots", "2", "--json", "--quiet")
        played = json.loads(done.stdout.splitlines()[-1])
    finally:
        assert server.stop() == 0
    assert not (tmp_path / "nats.url").exists()
    server.start()
    try:
        view = json.loads(server.run("view", played["table"], "--json").stdout)
        assert view["version"] == played["version"] and view["view"]["result"] == played["result"]
        server.run("rebuild-views")
        again = json.loads(server.run("view", played["table"], "--json").stdout)
        assert again == view
        # the results projector read the log again: bot-1's table is in its profile, played
        # but not rated (the bot service held seats), so the leaderboard has nobody
        profile = answered(server, "profile", "bot-1", "--json")
        assert [(t["table"], t["rated"]) for t in profile["recent"]] == [(played["table"], False)]
        assert profile["games"]["highcard"]["played"] == 1
        assert answered(server, "rankings", "highcard", "--json")["players"] == []
        assert "equal to a fold of the log" in server.run("rebuild-rankings").stderr
        checked = server.run("verify").stderr
        assert "every ranking and player's tables equal a fold of the log" in checked
    finally:
        server.stop()


def answered(server: Up, *args: str, timeout: float = 60) -> Any:
    """The JSON a request command prints, asked again while the service is still reading the
    log after a start (`unavailable`)."""
    deadline = time.monotonic() + timeout
    while True:
        done = server.run(*args, check=False)
        if done.returncode == 0:
            return json.loads(done.stdout)
        assert "unavailable" in done.stdout + done.stderr and time.monotonic() < deadline, done.stderr


@pytest.mark.slow
def test_clients_say_clearly_when_nothing_runs(tmp_path):
    env = cli_env(TABLETOP_DATA=str(tmp_path), NATS_URL="nats://127.0.0.1:1")
    done = subprocess.run(
        [*TABLETOP, "lobby", "highcard"], env=env, capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 2 and "tabletop up" in done.stderr
