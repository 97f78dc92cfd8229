"""docker-compose.yml run as a user runs it, on images deploy/images.sh builds on this machine:
the 3-node NATS cluster with authentication, every service, two table-projector shards and the
web client come up; bot tables of all five games are played to their end from this machine
through the published WebSocket port, one of them watched in Chromium from the published web
page; one NATS container and one worker container are killed mid-game; every table still ends
and every view equals a fold of the log (`tabletop verify`); then `down -v`.

Skipped with the reason where no Docker daemon answers or the images cannot be built (not
root, no debootstrap: deploy/images.sh exits 2). What it builds and starts is named
`tabletop-test...` (images kept, as a cache; containers, network and volumes removed)."""

from __future__ import annotations

import asyncio
import os
import random
import secrets
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from services.client import Client, new_id, play_with_bots
from services.registry import get
from shared.bus.connection import Bus
from shared.bus.credentials import Credentials, ServerSecrets
from shared.bus.errors import Unavailable
from shared.bus.server import free_port
from shared.settings import load_settings
from tests.processes import ROOT, TABLETOP, cli_env, instances, service_name
from tests.web.browsers import PASSWORD

pytestmark = pytest.mark.slow  # images, containers, a browser

GAMES = ("naishi", "dozito", "diced_tomatoes", "decrypto", "illustori")
SHORT = {"decrypto": {"max_rounds": 4}, "dozito": {"rounds": 1}, "illustori": {"deck_size": 16}}
# what answers a micro-service ping, and how many of each (as docker-compose.yml runs them)
SERVING = {service_name(("worker", game)): 1 for game in GAMES} | {
    service_name(("table-projector",)): 2,
    service_name(("history-projector",)): 1,
    service_name(("results-projector",)): 1,
    service_name(("bots",)): 1,
    service_name(("chat-service",)): 1,
}
KILLED_MID_GAME_AT = 3  # every table paused at this version or later for the kills


def docker_missing() -> str | None:
    """Why Docker cannot run the stack here (None: it can)."""
    if not shutil.which("docker-compose"):
        return "no docker-compose here (apt-get install docker-compose)"
    try:
        info = subprocess.run(["docker", "info"], capture_output=True, text=True, timeout=60)
    except (OSError, subprocess.TimeoutExpired) as e:
        return f"no Docker: {e}"
    if info.returncode:
        return f"no Docker daemon answers: {(info.stderr or info.stdout).strip()[-300:]}"
    return None


def show(capsys: pytest.CaptureFixture[str], figure: str) -> None:
    """`figure` in the test log whether the test passes or not (past the output capture)."""
    with capsys.disabled():
        sys.stderr.write(f"\ncompose: {figure}\n")


def build_images(folder: Path, capsys: pytest.CaptureFixture[str]) -> dict[str, str]:
    """deploy/images.sh with the tests' prefix; the variables it writes for docker-compose."""
    env_file = folder / "images.env"
    started = time.monotonic()
    built = subprocess.run(
        [str(ROOT / "deploy/images.sh")],
        env={
            **os.environ,
            "TABLETOP_IMAGE_PREFIX": "tabletop-test-compose",
            "TABLETOP_IMAGES_ENV": str(env_file),
        },
        capture_output=True,
        text=True,
        timeout=1500,
    )
    if built.returncode == 2:  # the machine lacks what a build takes (root, debootstrap, ...)
        pytest.skip(f"the images cannot be built here: {built.stderr.strip().splitlines()[-1]}")
    assert built.returncode == 0, built.stdout + built.stderr
    said = "\n".join(line for line in built.stderr.splitlines() if line.startswith("images: "))
    show(capsys, f"images built in {time.monotonic() - started:.0f} s:\n{said}")
    return dict(line.split("=", 1) for line in env_file.read_text().split())


class Stack:
    """One docker-compose project of docker-compose.yml, on ports of its own."""

    def __init__(self, env: dict[str, str]) -> None:
        self.project = f"tabletop-test-{secrets.token_hex(4)}"
        self.env = env

    def compose(self, *args: str, timeout: float = 300) -> str:
        done = subprocess.run(
            [
                "docker-compose",
                "--project-name",
                self.project,
                "--file",
                str(ROOT / "docker-compose.yml"),
                *args,
            ],
            env=self.env,
            capture_output=True,
            text=True,
            timeout=timeout,
        )
        assert done.returncode == 0, f"docker-compose {' '.join(args)}: {done.stdout}{done.stderr}"
        return done.stdout

    def containers(self, service: str) -> list[str]:
        return self.compose("ps", "-q", service).split()

    def kill(self, service: str) -> str:
        """SIGKILL to the main process of `service`'s container, as a crash would: the restart
        policy brings it back (a `docker kill` counts as stopping it by hand)."""
        (container,) = self.containers(service)
        pid = inspect(container, "{{.State.Pid}}")
        os.kill(int(pid), signal.SIGKILL)
        return container


def inspect(container: str, template: str) -> str:
    return subprocess.run(
        ["docker", "inspect", "--format", template, container], capture_output=True, text=True, check=True
    ).stdout.strip()


@pytest.fixture
def stack(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> Iterator[Stack]:
    missing = docker_missing()
    if missing:
        pytest.skip(missing)
    images = build_images(tmp_path, capsys)
    # the credentials as a user makes them, in a folder of this test's (not deploy/secrets)
    made = subprocess.run(
        [*TABLETOP, "credentials", str(tmp_path / "secrets")], env=cli_env(), capture_output=True, text=True
    )
    assert made.returncode == 0, made.stderr
    ports = {
        "TABLETOP_HTTP_PORT": free_port(),
        "TABLETOP_WS_PORT": free_port(),
        "TABLETOP_MONITOR_PORT": free_port(),
    }
    stack = Stack(
        {
            **os.environ,
            **images,
            **{k: str(v) for k, v in ports.items()},
            "TABLETOP_SECRETS": str(tmp_path / "secrets"),
        }
    )
    try:
        yield stack
    finally:
        try:
            print(stack.compose("logs", "--no-color", "--tail", "15", timeout=120)[-8000:])  # on a failure
        finally:
            stack.compose("down", "--volumes", "--remove-orphans", "--timeout", "5")


async def admin_bus(stack: Stack) -> Bus:
    secrets_ = ServerSecrets(Path(stack.env["TABLETOP_SECRETS"]))
    return await Bus.connect(
        websocket_url(stack),
        load_settings(),
        name="test-admin",
        wait=60,
        credentials=secrets_.credentials("admin"),
    )


def websocket_url(stack: Stack) -> str:
    return f"ws://127.0.0.1:{stack.env['TABLETOP_WS_PORT']}"


async def until_serving(bus: Bus, timeout: float = 180) -> None:
    deadline = time.monotonic() + timeout
    for name, count in SERVING.items():
        while (found := await instances(bus, name, enough=count)) < count:
            assert time.monotonic() < deadline, f"{found} of {count} {name} answer after {timeout} s"
            await asyncio.sleep(0.5)


class PausingSeat(Client):
    """A player's seat that stops before its first move at `pause_at` or later until `go` is
    set (so every table is mid-game at the kills), and sends a command again, under the same
    id, while the servers cannot take it (a worker or a node being restarted)."""

    def __init__(self, bus: Bus, pause_at: int, go: asyncio.Event) -> None:
        super().__init__(bus)
        self.pause_at = pause_at
        self.go = go
        self.paused: set[str] = set()  # the tables waiting for `go`
        self.retries = 0

    async def command(self, game: str, table: str, player: str, command: dict[str, Any]) -> dict[str, Any]:
        if command.get("expect", 0) >= self.pause_at and not self.go.is_set():
            self.paused.add(table)
            await self.go.wait()
        command = {"id": new_id(), **command}
        deadline = time.monotonic() + 120
        while True:
            try:
                return await super().command(game, table, player, command)
            except Unavailable:
                assert time.monotonic() < deadline, f"{table}: {command} not taken in 120 s"
                self.retries += 1
                await asyncio.sleep(0.5)


async def watched_to_its_end(stack: Stack, game: str, table: str, showing: asyncio.Event) -> str:
    """The web page of the stack, in Chromium, signed in as a player who watches `table`
    (`showing` set once the page shows it) until it ends; the result the page shows."""
    async_api = pytest.importorskip("playwright.async_api")
    from tests.web.browsers import new_browser, sign_in, unique

    base = f"http://127.0.0.1:{stack.env['TABLETOP_HTTP_PORT']}"
    async with async_api.async_playwright() as playwright:
        browser = await new_browser(playwright)
        try:
            page = await sign_in(browser, base, unique("watcher"))
            await page.goto(f"{base}/#/table/{game}/{table}")
            await page.wait_for_selector("#table[data-version]", timeout=60_000)
            showing.set()
            await page.wait_for_selector("#table[data-status=ended]", timeout=240_000)
            result: str = await page.inner_text("#result")
            assert not page.errors, page.errors
            return result
        finally:
            await browser.close()


async def test_compose_up_plays_every_game_to_its_end_through_a_nats_and_a_worker_killed(
    stack, tmp_path, capsys
):
    started = time.monotonic()
    stack.compose("up", "--detach", "--no-build", timeout=600)
    assert len(stack.containers("auth")) == 2  # deploy.replicas
    admin = await admin_bus(stack)
    client = Client(admin)
    bus: Bus | None = None
    try:
        await until_serving(admin)
        show(capsys, f"every service answers {time.monotonic() - started:.0f} s after `up`")

        # a player signed in through the auth callout over the published WebSocket sits at a
        # table of each game; the bot service plays the other seats
        player = f"ann{secrets.token_hex(3)}"
        bus = await Bus.connect(
            websocket_url(stack),
            load_settings(),
            name="test-player",
            wait=30,
            credentials=Credentials.player(player, PASSWORD),
        )
        go = asyncio.Event()
        seat = PausingSeat(bus, KILLED_MID_GAME_AT, go)
        tables = {game: f"{game}-{secrets.token_hex(6)}" for game in GAMES}
        plays = {
            game: asyncio.ensure_future(
                play_with_bots(
                    seat,
                    game,
                    table,
                    [player],
                    random.Random(3),
                    options={**SHORT.get(game, {}), "bots": max(2, get(game).game.min_players) - 1},
                )
            )
            for game, table in tables.items()
        }
        deadline = time.monotonic() + 180
        while len(seat.paused) < len(tables):
            ended = {g: p.result() for g, p in plays.items() if p.done()}
            assert not ended, f"ended before the kills: {ended}"
            assert time.monotonic() < deadline, f"only {seat.paused} reached version {KILLED_MID_GAME_AT}"
            await asyncio.sleep(0.1)
        versions = {g: (await client.view(g, t))["version"] for g, t in tables.items()}
        showing = asyncio.Event()
        watched = asyncio.ensure_future(watched_to_its_end(stack, "dozito", tables["dozito"], showing))
        await asyncio.wait_for(showing.wait(), 120)

        # the log's leader if it is not the node this machine talks to (else another one)
        cluster = (await admin.js.stream_info("TABLETOP_EVENTS")).cluster
        assert cluster is not None  # replicated: the compose file sets TABLETOP_REPLICAS=3
        leader = cluster.leader
        nats_node = leader if leader in ("nats-2", "nats-3") else "nats-3"
        worker = "worker-dozito"  # the longest game's
        killed = {service: stack.kill(service) for service in (nats_node, worker)}
        go.set()  # the moves go on at once, into the kills
        show(
            capsys,
            f"killed {nats_node} (the log's leader: {leader}) and {worker} with every "
            f"table mid-game, at versions {versions}",
        )

        results = {game: await asyncio.wait_for(play, 300) for game, play in plays.items()}
        shown = await asyncio.wait_for(watched, 120)
        for game, table in tables.items():
            final = await client.view(game, table)
            assert final["view"]["status"] == "ended" and final["view"]["result"], (game, final)
            assert final["version"] == results[game]["version"]
        assert "Rank" in shown, shown
        restarts = {service: int(inspect(c, "{{.RestartCount}}")) for service, c in killed.items()}
        assert all(n >= 1 for n in restarts.values()), restarts  # each came back by its restart policy
        show(
            capsys,
            f"{len(results)} games finished "
            + ", ".join(f"{g} at v{r['version']}" for g, r in results.items())
            + f"; kills survived: {len(killed)} (restarts {restarts}, commands sent again {seat.retries}); "
            f"{time.monotonic() - started:.0f} s after `up`",
        )
    finally:
        for connection in (bus, admin):
            if connection is not None:
                await connection.close()

    admin_env = cli_env(
        NATS_URL=websocket_url(stack),
        NATS_USER="admin",
        NATS_PASSWORD_FILE=str(Path(stack.env["TABLETOP_SECRETS"]) / "admin"),
        XDG_CONFIG_HOME=str(tmp_path / "config"),
    )
    # the stack's admin, not the test session's (whose password this process may hold)
    admin_env.pop("NATS_PASSWORD", None)
    verified = subprocess.run(
        [*TABLETOP, "verify"], env=admin_env, capture_output=True, text=True, timeout=300
    )
    assert verified.returncode == 0, verified.stdout + verified.stderr
    assert "every view equals a fold of the log" in verified.stderr
    show(capsys, f"tabletop verify: {verified.stderr.strip()}")
