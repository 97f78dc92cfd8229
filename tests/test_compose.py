"""docker-compose.yml run as a user runs it, on images deploy/images.sh builds on this machine:
the 3-node NATS cluster with authentication, every service, two table-projector shards and the
web client come up; bot tables of all five games are played to their end from this machine
through the published WebSocket port, one of them watched in Chromium from the published web
page; one NATS container and one worker container are killed mid-game; every table still ends
and every view equals a fold of the log (`tabletop verify`); then `down -v`.

Skipped with the reason where no Docker daemon answers. What it builds and starts is named
`tabletop-test...` (images kept, as a cache; containers, network and volumes removed)."""

from __future__ import annotations

import asyncio
import json
import os
import secrets
import shutil
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from services.client import Client
from services.registry import get
from shared.bus.connection import Bus
from shared.bus.credentials import ServerSecrets
from shared.bus.server import free_port
from shared.settings import load_settings
from tests.processes import ROOT, SERVICE_ENV, TABLETOP, cli_env, instances, service_name

pytestmark = pytest.mark.slow  # images, containers, a browser

GAMES = ("naishi", "dozito", "diced_tomatoes", "decrypto", "illustori")
SHORT = {"decrypto": {"max_rounds": 2}, "dozito": {"rounds": 1}, "illustori": {"deck_size": 16}}
# what answers a micro-service ping, and how many of each (as docker-compose.yml runs them)
SERVING = {
    service_name(("worker", game)): 1 for game in GAMES
} | {
    service_name(("table-projector",)): 2,
    service_name(("history-projector",)): 1,
    service_name(("bots",)): 1,
}
KILLED_MID_GAME_AT = 3  # every table at this version or later when the containers are killed


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


def build_images(folder: Path) -> dict[str, str]:
    """deploy/images.sh with the tests' prefix; the variables it writes for docker-compose."""
    env_file = folder / "images.env"
    started = time.monotonic()
    built = subprocess.run(
        [str(ROOT / "deploy/images.sh")],
        env={**os.environ, "TABLETOP_IMAGE_PREFIX": "tabletop-test-compose", "TABLETOP_IMAGES_ENV": str(env_file)},
        capture_output=True,
        text=True,
        timeout=1500,
    )
    print(built.stderr, end="")
    assert built.returncode == 0, built.stdout + built.stderr
    print(f"compose: images built in {time.monotonic() - started:.0f} s")
    return dict(line.split("=", 1) for line in env_file.read_text().split())


class Stack:
    """One docker-compose project of docker-compose.yml, on ports of its own."""

    def __init__(self, env: dict[str, str]) -> None:
        self.project = f"tabletop-test-{secrets.token_hex(4)}"
        self.env = env

    def compose(self, *args: str, timeout: float = 300) -> str:
        done = subprocess.run(
            ["docker-compose", "--project-name", self.project, "--file", str(ROOT / "docker-compose.yml"), *args],
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
        os.kill(int(pid), 9)
        return container


def inspect(container: str, template: str) -> str:
    return subprocess.run(
        ["docker", "inspect", "--format", template, container], capture_output=True, text=True, check=True
    ).stdout.strip()


@pytest.fixture
def stack(tmp_path: Path) -> Iterator[Stack]:
    missing = docker_missing()
    if missing:
        pytest.skip(missing)
    images = build_images(tmp_path)
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
            if not os.environ.get("TABLETOP_TEST_KEEP_COMPOSE"):
                print(stack.compose("logs", "--no-color", "--tail", "15", timeout=120)[-8000:])
        finally:
            stack.compose("down", "--volumes", "--remove-orphans", "--timeout", "5")


async def admin_bus(stack: Stack) -> Bus:
    secrets_ = ServerSecrets(Path(stack.env["TABLETOP_SECRETS"]))
    return await Bus.connect(
        websocket_url(stack), load_settings(), name="test-admin", wait=60, credentials=secrets_.credentials("admin")
    )


def websocket_url(stack: Stack) -> str:
    return f"ws://127.0.0.1:{stack.env['TABLETOP_WS_PORT']}"


async def until_serving(bus: Bus, timeout: float = 180) -> None:
    deadline = time.monotonic() + timeout
    for name, count in SERVING.items():
        while (found := await instances(bus, name, enough=count)) < count:
            assert time.monotonic() < deadline, f"{found} of {count} {name} answer after {timeout} s"
            await asyncio.sleep(0.5)


async def version_of(client: Client, game: str, table: str) -> int:
    """The table's version as the lobby of the projectors has it (0: not there yet)."""
    try:
        return int((await client.view(game, table))["version"])
    except Exception:  # noqa: BLE001 - not created yet, or its view not stored yet
        return 0


async def watched_to_its_end(stack: Stack, game: str, table: str) -> str:
    """The web page of the stack, in Chromium, signed in as a player who watches `table`
    until it ends; the result the page shows."""
    async_api = pytest.importorskip("playwright.async_api")
    from tests.web.browsers import new_browser, sign_in, unique

    base = f"http://127.0.0.1:{stack.env['TABLETOP_HTTP_PORT']}"
    async with async_api.async_playwright() as playwright:
        browser = await new_browser(playwright)
        try:
            page = await sign_in(browser, base, unique("watcher"))
            await page.goto(f"{base}/#/table/{game}/{table}")
            await page.wait_for_selector("#table[data-status=ended]", timeout=240_000)
            result: str = await page.inner_text("#result")
            assert not page.errors, page.errors
            return result
        finally:
            await browser.close()


async def test_compose_up_plays_every_game_to_its_end_through_a_nats_and_a_worker_killed(stack, tmp_path):
    started = time.monotonic()
    stack.compose("up", "--detach", "--no-build", timeout=600)
    assert len(stack.containers("auth")) == 2  # deploy.replicas
    admin = await admin_bus(stack)
    client = Client(admin)
    try:
        await until_serving(admin)
        print(f"compose: every service answers {time.monotonic() - started:.0f} s after `up`")

        # the plays: the CLI on this machine over the published WebSocket, its seat signed in
        # through the auth callout as a player; the bot service plays the other seats
        env = cli_env(NATS_URL=websocket_url(stack), XDG_CONFIG_HOME=str(tmp_path / "config"))
        for name in SERVICE_ENV:
            env.pop(name, None)
        tables = {game: f"{game}-{secrets.token_hex(6)}" for game in GAMES}
        plays = {
            game: await asyncio.create_subprocess_exec(
                *TABLETOP,
                "play",
                game,
                "--bots",
                str(get(game).game.min_players),
                "--table",
                table,
                "--seed",
                "3",
                "--json",
                "--quiet",
                *[f"--option={k}={v}" for k, v in SHORT.get(game, {}).items()],
                env=env,
                stdout=asyncio.subprocess.PIPE,
                stderr=asyncio.subprocess.PIPE,
            )
            for game, table in tables.items()
        }
        communicating = {game: asyncio.ensure_future(p.communicate()) for game, p in plays.items()}
        watched = asyncio.ensure_future(watched_to_its_end(stack, "decrypto", tables["decrypto"]))

        deadline = time.monotonic() + 120
        while min([await version_of(client, g, t) for g, t in tables.items()]) < KILLED_MID_GAME_AT:
            finished = [g for g, c in communicating.items() if c.done()]
            assert not finished, f"{finished} ended before the kills: {[communicating[g].result() for g in finished]}"
            assert time.monotonic() < deadline, {g: await version_of(client, g, t) for g, t in tables.items()}
            await asyncio.sleep(0.2)
        versions = {g: await version_of(client, g, t) for g, t in tables.items()}

        # the log's leader if it is not the node this machine talks to (else another one)
        leader = (await admin.js.stream_info("TABLETOP_EVENTS")).cluster.leader
        nats_node = leader if leader in ("nats-2", "nats-3") else "nats-3"
        worker = "worker-decrypto"  # the longest game here
        killed = {service: stack.kill(service) for service in (nats_node, worker)}
        print(f"compose: killed {nats_node} (the log's leader: {leader}) and {worker} at versions {versions}")

        results = {}
        for game, done in communicating.items():
            out, err = await asyncio.wait_for(done, 300)
            assert plays[game].returncode == 0, f"{game}: {out.decode()}{err.decode()}"
            results[game] = json.loads(out.decode().splitlines()[-1])
        shown = await asyncio.wait_for(watched, 120)
        for game, table in tables.items():
            final = await client.view(game, table)
            assert final["view"]["status"] == "ended" and results[game]["result"], (game, final)
            assert final["version"] == results[game]["version"]
        assert "Rank" in shown, shown
        restarts = {service: int(inspect(c, "{{.RestartCount}}")) for service, c in killed.items()}
        assert all(n >= 1 for n in restarts.values()), restarts  # each came back by its restart policy
        print(
            f"compose: {len(results)} games finished "
            + ", ".join(f"{g} at v{r['version']}" for g, r in results.items())
            + f"; kills survived: {len(killed)} (restarts {restarts}); "
            f"{time.monotonic() - started:.0f} s after `up`"
        )
    finally:
        await admin.close()

    admin_env = cli_env(
        NATS_URL=websocket_url(stack),
        NATS_USER="admin",
        NATS_PASSWORD_FILE=str(Path(stack.env["TABLETOP_SECRETS"]) / "admin"),
        XDG_CONFIG_HOME=str(tmp_path / "config"),
    )
    verified = subprocess.run([*TABLETOP, "verify"], env=admin_env, capture_output=True, text=True, timeout=300)
    assert verified.returncode == 0, verified.stdout + verified.stderr
    assert "every view equals a fold of the log" in verified.stderr
    print(f"compose: tabletop verify: {verified.stderr.strip()}")
