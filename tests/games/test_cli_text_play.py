"""Issue 12: a person can play a whole table of each game from `tabletop view` / `act` alone.

One table per game is driven to its end through `tabletop up` (a real NATS), choosing every
move from the text `tabletop view` prints (never `--json`): who is to act, and the command lines
under "you may send". The CLI's own `main` is called in-process for the many moves (the same
code as the installed command, without an interpreter start per move); the installed command
shows the first and the last view, and a replay cut short by a closed pipe.
"""

from __future__ import annotations

import contextlib
import io
import json
import random
import re
import subprocess

import pytest
import structlog

from services import cli
from shared.games.table import TableDecider
from tests.games import registered
from tests.processes import SERVICE_ENV, TABLETOP, Up

# Options that shorten a game, so that each table ends in a few dozen moves (any other game
# is played with its defaults); each table has the fewest seats its game takes.
SHORT = {"dozito": {"rounds": 1}, "decrypto": {"max_rounds": 2}, "illustori": {"deck_size": 16}}
MAX_MOVES = 1500


@pytest.fixture(scope="module")
def up(tmp_path_factory):
    server = Up(tmp_path_factory.mktemp("tabletop-text")).start()
    yield server
    assert server.stop() == 0


def tabletop(monkeypatch, up, *args: str) -> tuple[int, str]:
    """`tabletop ARGS` run by the CLI's `main`, its printed text captured."""
    monkeypatch.setenv("NATS_URL", up.url)
    # a person at a terminal: each player signs in with a password (registered the first time)
    monkeypatch.setenv("TABLETOP_PASSWORD", up.env["TABLETOP_PASSWORD"])
    for name in SERVICE_ENV:
        monkeypatch.delenv(name, raising=False)
    out = io.StringIO()
    logging = structlog.get_config()  # the CLI sets its own; other tests capture info lines
    try:
        with contextlib.redirect_stdout(out):
            code = cli.main(list(args))
    finally:
        structlog.configure(**logging)
    return code, out.getvalue()


def view_text(monkeypatch, up, table: str, viewer: str, version: int) -> str:
    """`tabletop view` as `viewer`, asked again until it shows `version` or later: the views
    are projected from the log, so one may lag a command just accepted."""
    for _ in range(500):
        code, text = tabletop(monkeypatch, up, "view", table, "--as", viewer)
        assert code == 0, text
        header = re.search(r" · version (\d+) · ", text.split("\n")[0])
        assert header, text
        shown = int(header.group(1))
        if shown >= version:
            return text
    raise AssertionError(f"the view of {table} never reached version {version}")


def accepted_version(reply: str) -> int:
    found = re.match(r"ok, version (\d+)", reply)
    assert found, reply
    return int(found.group(1))


def to_act(text: str) -> list[str]:
    found = re.search(r"^  to act  : (.+)$", text, re.M)
    return found.group(1).split(", ") if found else []


def commands_in(text: str) -> list[dict]:
    """Every command the text offers: each line under "you may send" is `TYPE`, then fields
    shared by every choice as `name=JSON`, then `names: CHOICE | CHOICE ...` (a choice is one
    JSON value, or a JSON list of values when several fields vary)."""
    lines = text.split("\n")
    start = next(i for i, line in enumerate(lines) if line.startswith("  you may send"))
    offered = []
    decoder = json.JSONDecoder()
    for line in lines[start + 1 :]:
        if not line.startswith("    "):
            break
        kind, _, rest = line.strip().partition("  ")
        fixed: dict = {}
        names: list[str] = []
        values: list = []
        for part in filter(None, rest.split("  ")):
            key, eq, raw = part.partition("=")
            if eq and re.fullmatch(r"\w+", key):
                fixed[key] = json.loads(raw)
                continue
            head, _, tail = part.partition(": ")
            names = [re.sub(r" \(.*\)$", "", n) for n in head.split(", ")]
            while tail:
                value, end = decoder.raw_decode(tail)
                values.append(value)
                tail = tail[end:].removeprefix(" | ")
        if not names:
            offered.append({"type": kind, **fixed})
        for value in values:
            chosen = dict(zip(names, value)) if len(names) > 1 else {names[0]: value}
            offered.append({"type": kind, **fixed, **chosen})
    return offered


def same_commands(offered: list[dict], legal: list[dict]) -> bool:
    def key(command: dict) -> str:
        return json.dumps(command, sort_keys=True)

    return sorted(map(key, offered)) == sorted(map(key, legal))


@pytest.mark.parametrize("game", sorted(registered.PACKAGES))
def test_issue12_a_whole_table_is_played_from_the_text_view_alone(up, monkeypatch, game):
    play_in_a_terminal(monkeypatch, up, game, registered.seats(game, 1), SHORT.get(game, {}))


def play_in_a_terminal(
    monkeypatch, up: Up, game: str, seats: int, options: dict, *, kinds_of_command: int = 2
) -> None:
    """One table of `game` created, joined, started and played to its end by `tabletop` alone,
    every move chosen from the text its view prints, sending `kinds_of_command` kinds or more."""
    players = [f"{game[:3]}{i}" for i in range(seats)]
    option_args = [a for k, v in options.items() for a in ("--option", f"{k}={json.dumps(v)}")]
    code, table = tabletop(
        monkeypatch, up, "new", game, "--as", players[0], "--seats", str(seats), *option_args
    )
    table = table.strip()
    assert code == 0, table
    for player in players[1:]:
        assert tabletop(monkeypatch, up, "join", table, "--as", player)[0] == 0
    code, reply = tabletop(monkeypatch, up, "start", table, "--as", players[0])
    version = accepted_version(reply)
    view_text(monkeypatch, up, table, players[0], version)
    first = up.run("view", table, "--as", players[0]).stdout  # the installed command
    assert " · running" in first.split("\n")[0] and "to act  :" in first
    rng = random.Random(7)
    kinds: set[str] = set()
    for _ in range(MAX_MOVES):
        spectator = view_text(monkeypatch, up, table, "nobody", version)
        if " · ended" in spectator.split("\n")[0]:
            break
        actor = rng.choice(to_act(spectator))
        text = view_text(monkeypatch, up, table, actor, version)
        offered = commands_in(text)
        assert offered, text
        command = rng.choice(offered)
        kinds.add(command["type"])
        code, reply = tabletop(monkeypatch, up, "act", table, "--as", actor, json.dumps(command))
        assert code == 0, (command, reply, text)
        version = accepted_version(reply)
    else:
        pytest.fail(f"{game}: no end after {MAX_MOVES} moves")
    final = up.run("view", table, "--as", players[0]).stdout
    assert "ended" in final and "winners :" in final and "you may send" not in final
    assert len(kinds) >= kinds_of_command, kinds


def test_issue12_every_kind_of_command_is_listed_never_cut():
    """A Naishi seat after a Develop used to see 30 of 46 commands, without `end_turn`."""
    from services.board_text import render
    from services.registry import get
    from shared.games.decider import Context, fold
    from shared.games.naishi.messages import Develop
    from shared.games.simulate import simulate
    from shared.games.testing import accepted

    decider: TableDecider = get("naishi")
    sim = simulate(decider, ["ann", "bob"], random.Random(2))
    table = decider.initial_state
    for _, batch in sim.log:  # the first turn of the game, just before its first command
        table = fold(decider.evolve, batch, table)
        if table.game is not None and table.game.phase == "turns":
            break
    actor = decider.players_to_act(table)[0]
    events = accepted(
        decider.decide(table, Develop(row="hand", position=1), Context(actor=actor, rng=random.Random(0)))
    )
    table = fold(decider.evolve, events, table)
    view = decider.player_view(table, actor)
    text = "\n".join(render({"version": 1, "view": view}))
    offered = commands_in(text)
    assert len(view["legal"]) > 30
    assert same_commands(offered, view["legal"])
    assert "end_turn" in text and "more (--json" not in text


def test_issue12_a_replay_piped_into_a_closed_reader_exits_quietly(up):
    """`tabletop replay TABLE | head`: the reader goes away; no traceback, exit 0."""
    done = up.run("play", "dozito", "--bots", "2", "--quiet", "--json", "--seed", "3")
    table = json.loads(done.stdout.splitlines()[-1])["table"]
    replay = subprocess.Popen(
        [*TABLETOP, "replay", table], env=up.env, stdout=subprocess.PIPE, stderr=subprocess.PIPE
    )
    assert replay.stdout is not None
    replay.stdout.close()  # before the first line is written: every write meets a closed pipe
    _, err = replay.communicate(timeout=120)
    assert replay.returncode == 0, err.decode()
    assert b"Traceback" not in err and b"BrokenPipe" not in err, err.decode()
    head = subprocess.run(
        f"{' '.join(TABLETOP)} replay {table} | head -3",
        shell=True,
        env=up.env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert len(head.stdout.splitlines()) == 3 and "Traceback" not in head.stderr, head.stderr


@pytest.mark.parametrize("game", sorted(registered.PACKAGES))
def test_issue12_the_board_renders_every_view_of_a_whole_game(game):
    from services.registry import get

    board_renders_every_view(get(game), SHORT.get(game, {}))


def board_renders_every_view(decider: TableDecider, options: dict) -> None:
    """Every view of a bot game at the fewest seats, for every seat and spectators, renders a
    board (no JSON dump of the game's keys), and its command lines give back exactly its
    `legal` list."""
    from services.board_text import render
    from shared.games.decider import fold
    from shared.games.simulate import simulate

    players = [f"p{i}" for i in range(decider.game.min_players)]
    table = decider.initial_state
    for _, batch in simulate(decider, players, random.Random(4), options=options).log:
        table = fold(decider.evolve, batch, table)
        for viewer in (*players, None):
            view = decider.player_view(table, viewer)
            text = "\n".join(render({"version": 1, "view": view}))
            if view["status"] == "running":
                assert not any(
                    re.search(rf"^  {key}\s*: [\[{{]", text, re.M) for key in view if key not in ("options",)
                ), text
            if view.get("legal"):
                assert same_commands(commands_in(text), view["legal"]), text
