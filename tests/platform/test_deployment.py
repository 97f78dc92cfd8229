"""The deployment's edges over real nats-servers: the services and `tabletop up` refuse a
server too old for the clocks, NATS's WebSocket takes the web client's pages only, the
embedded server's files are its owner's only, a cluster's routes sign in with the route user
of `tabletop credentials`, and the compose file's server config is one nats-server accepts."""

from __future__ import annotations

import json
import os
import re
import shutil
import stat
import subprocess
import time
import urllib.request
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
import structlog

from services import cli
from services.compose import web_origins
from services.registry import games
from shared.bus import connecting
from shared.bus.connection import MIN_SERVER_VERSION, Bus
from shared.bus.credentials import ServerSecrets
from shared.bus.errors import ServerTooOld
from shared.bus.server import EmbeddedServer, free_port, route_config, server_binary
from shared.messages import subjects
from shared.settings import load_settings
from tests.conftest import ROOT, websocket_handshake
from tests.nats_container import server_version

pytestmark = pytest.mark.slow  # real nats-server processes

HOST = "127.0.0.1"


def until(condition: Callable[[], bool], timeout: float = 15.0) -> bool:
    """Whether `condition()` comes true within `timeout` (asked every 50 ms)."""
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.05)
    return True


# --- the server's version -------------------------------------------------------------------


def test_the_pinned_and_the_tested_servers_have_scheduled_messages():
    assert MIN_SERVER_VERSION >= (2, 12, 0)
    tested = tuple(map(int, server_version().split(".")))
    assert tested >= MIN_SERVER_VERSION
    compose = re.search(  # the official image's, unless TABLETOP_NATS_IMAGE names another
        r"image: \$\{TABLETOP_NATS_IMAGE:-nats:(\d+\.\d+\.\d+)\}", (ROOT / "docker-compose.yml").read_text()
    )
    helm = re.search(r"tag: (\d+\.\d+\.\d+)", (ROOT / "deploy/nats/values.yaml").read_text())
    assert compose and helm
    for pinned in (compose.group(1), helm.group(1)):
        assert tuple(map(int, pinned.split("."))) >= MIN_SERVER_VERSION, pinned


async def test_a_server_older_than_the_minimum_is_refused_with_its_version(nats_url):
    version = server_version()
    major, minor, patch = map(int, version.split("."))
    above = (major, minor, patch + 1)
    with pytest.raises(ServerTooOld) as refused:
        await Bus.connect(nats_url, load_settings(), name="test-version", wait=5, min_server_version=above)
    text = str(refused.value)
    assert f"is nats-server {version}" in text
    assert f"needs {major}.{minor}.{patch + 1} or newer" in text and "upgrade" in text
    # the running one is recent enough
    bus = await Bus.connect(nats_url, load_settings(), name="test-version", wait=5)
    await bus.close()


def test_tabletop_up_on_a_server_too_old_says_so_and_stops(nats_url, tmp_path, monkeypatch, capsys):
    """`tabletop up` with NATS_URL on a server below the minimum (made the minimum here: the
    binary at hand is recent), as a person runs it."""
    monkeypatch.setattr(connecting, "MIN_SERVER_VERSION", (99, 0, 0))
    monkeypatch.setenv("NATS_URL", nats_url)
    data = tmp_path / "data"
    logging_before = structlog.get_config()  # the CLI points the logs at this test's stderr
    try:
        code = cli.main(["up", "--data", str(data), "--port", "0", "--ws-port", "0", "--http-port", "0"])
    finally:
        structlog.configure(**logging_before)
    assert code == 1
    said = capsys.readouterr().err
    assert f"tabletop: NATS at {nats_url} is nats-server {server_version()}; tabletop needs 99.0.0" in said
    assert not (data / "nats.url").exists()  # nothing was started
    assert stat.S_IMODE(data.stat().st_mode) == 0o700  # the data folder it made: the owner's only


# --- WebSocket origins ----------------------------------------------------------------------


async def test_the_websocket_takes_the_web_clients_pages_only(secure_server):
    url = secure_server.websocket_url
    assert secure_server.web_origins == ("http://127.0.0.1:8000", "http://localhost:8000")
    for origin in secure_server.web_origins:
        assert str(await websocket_handshake(url, origin)).startswith("INFO ")
    for foreign in ("https://evil.example", "http://127.0.0.1:8001", "https://127.0.0.1:8000"):
        assert await websocket_handshake(url, foreign) == 403, foreign
    assert str(await websocket_handshake(url, None)).startswith("INFO ")  # programs send no Origin


def test_web_origins_are_the_setting_when_given_and_checked():
    assert web_origins(load_settings(web_origins=""), 8123) == [
        "http://127.0.0.1:8123",
        "http://localhost:8123",
    ]
    given = load_settings(web_origins="https://games.example.org, https://play.example.org:8443/")
    assert web_origins(given, 8123) == ["https://games.example.org", "https://play.example.org:8443"]
    for bad in ("games.example.org", "ftp://games.example.org", "https://games.example.org/play"):
        with pytest.raises(SystemExit, match="TABLETOP_WEB_ORIGINS"):
            web_origins(load_settings(web_origins=bad), 8123)


def test_a_websocket_listener_without_origins_is_refused(tmp_path):
    with pytest.raises(ValueError, match="origins"):
        EmbeddedServer(tmp_path, websocket_port=0)


# --- the embedded server's files ------------------------------------------------------------


def test_the_server_folder_and_log_are_the_owners_only(tmp_path):
    """Also those an older version left readable by everyone."""
    folder = tmp_path / "nats"
    folder.mkdir(mode=0o755)
    folder.chmod(0o755)
    (folder / "nats-server.log").write_text("an older run\n")
    (folder / "nats-server.log").chmod(0o644)
    with EmbeddedServer(folder):
        assert stat.S_IMODE(folder.stat().st_mode) == 0o700
        for name in ("nats-server.log", "nats-server.conf", "server.lock"):
            assert stat.S_IMODE((folder / name).stat().st_mode) == 0o600, name
        assert "an older run" in (folder / "nats-server.log").read_text()  # appended to


# --- cluster routes -------------------------------------------------------------------------


class Node:
    """A plain nats-server (no JetStream) with a cluster block: enough to see routes form."""

    def __init__(self, folder: Path, name: str, route_port: int) -> None:
        self.folder = folder / name
        self.folder.mkdir()
        self.name = name
        self.route_port = route_port
        self.monitor_port = free_port()
        self.log = self.folder / "nats.log"
        self.process: subprocess.Popen[bytes] | None = None

    def start(self, routes_conf: str) -> None:
        """Start with `routes_conf` (what `tabletop credentials` writes) in its cluster block."""
        (self.folder / "routes.conf").write_text(routes_conf)
        (self.folder / "nats.conf").write_text(
            f"server_name: {self.name}\nlisten: {HOST}:{free_port()}\nhttp: {HOST}:{self.monitor_port}\n"
            f"cluster {{\n  name: test\n  listen: {HOST}:{self.route_port}\n  include ./routes.conf\n}}\n"
        )
        with open(self.log, "wb") as log:
            self.process = subprocess.Popen(
                [server_binary(), "-c", str(self.folder / "nats.conf")], stdout=log, stderr=log
            )

    def stop(self) -> None:
        if self.process is not None:
            self.process.terminate()
            self.process.wait(10)

    def routes(self) -> list[str]:
        """The names of the nodes this one has a route with (none while it does not answer)."""
        try:
            with urllib.request.urlopen(f"http://{HOST}:{self.monitor_port}/routez", timeout=1) as answer:
                return sorted({r.get("remote_name", "") for r in json.load(answer).get("routes") or []})
        except OSError:
            return []


@pytest.fixture
def nodes(tmp_path) -> Iterator[Callable[[str], Node]]:
    started: list[Node] = []

    def node(name: str) -> Node:
        started.append(Node(tmp_path, name, free_port()))
        return started[-1]

    yield node
    for each in started:
        each.stop()


def test_routes_sign_in_with_the_route_user_and_a_stranger_is_refused(tmp_path, nodes):
    secrets = ServerSecrets.load_or_create(tmp_path / "secrets")
    a, b = nodes("a"), nodes("b")
    routes = [f"{HOST}:{a.route_port}", f"{HOST}:{b.route_port}"]
    for node in (a, b):
        node.start(route_config(secrets, routes))
    assert until(lambda: a.routes() == ["b"] and b.routes() == ["a"]), a.log.read_text() + b.log.read_text()
    # a node with another route password (its own `tabletop credentials`) is turned away
    stranger = nodes("stranger")
    stranger.start(route_config(ServerSecrets.load_or_create(tmp_path / "other"), [routes[0]]))
    assert until(lambda: "authorization violation" in stranger.log.read_text().lower()), (
        stranger.log.read_text()
    )
    assert a.routes() == ["b"] and stranger.routes() == []


def test_the_compose_server_config_is_accepted_by_nats_server(tmp_path):
    """deploy/nats/cluster.conf with the files `tabletop credentials` makes beside it, as the
    compose file mounts them."""
    assert cli.main(["credentials", str(tmp_path / "secrets")]) == 0
    etc = tmp_path / "etc"
    etc.mkdir()
    shutil.copy(ROOT / "deploy/nats/cluster.conf", etc / "nats.conf")
    for name in ("auth.conf", "routes.conf"):
        shutil.copy(tmp_path / "secrets" / name, etc / name)
    # the web client's origins come from the environment, as the compose file sets them
    origins = {"WEB_ORIGIN_IP": "http://127.0.0.1:8000", "WEB_ORIGIN_NAME": "http://localhost:8000"}
    checked = subprocess.run(
        [server_binary(), "-t", "-c", str(etc / "nats.conf")],
        capture_output=True,
        text=True,
        env={**os.environ, **origins},
    )
    assert checked.returncode == 0, checked.stdout + checked.stderr
    accounts = (etc / "auth.conf").read_text()
    for game in games():  # each offered game's commands to their partitions, no catch-all
        assert f'"tabletop.cmd.{game}.*.*": "tabletop.cmdp.{game}.{{{{partition(16,1)}}}}.' in accounts
    assert '"tabletop.cmd.*.*.*"' not in accounts
    routes = (etc / "routes.conf").read_text()
    password = (tmp_path / "secrets" / "route").read_text().strip()
    for host in ("nats-1", "nats-2", "nats-3"):
        assert f"nats://route:{password}@{host}:6222" in routes
    values = (tmp_path / "secrets" / "routes-values.yaml").read_text()
    assert json.loads(values.partition("\n")[2]) == {
        "config": {"cluster": {"routeURLs": {"user": "route", "password": password}}}
    }


def test_a_game_name_no_subject_can_carry_gets_no_mapping():
    for name in ("two.tokens", "any*", "rest>", "with space", ""):
        with pytest.raises(ValueError, match="not a game name a subject can carry"):
            subjects.cmd_mappings(["dozito", name])


def test_credentials_refuse_a_malformed_route_and_write_nothing(tmp_path):
    for routes, said in (("nats-1:6222,nats 2", "'nats 2' is not a route address"), (" ,", "none given")):
        with pytest.raises(SystemExit, match=said):
            cli.main(["credentials", str(tmp_path / "secrets"), "--routes", routes])
    assert not (tmp_path / "secrets").exists()
