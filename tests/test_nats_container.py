"""The tests' NATS in a Docker container (`TABLETOP_TEST_NATS=container`, tests/nats_container.py):
a platform module passes on it in a pytest run of its own, the server of that run is the
container, and what it starts is gone after it; a wrong setting stops a run at once. The
Docker tests are skipped, saying why, where no Docker engine answers."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import time
from urllib.parse import urlsplit

import docker
import pytest

from tests.conftest import ROOT, SecureServer, nats_kind
from tests.nats_container import IMAGE_REPOSITORY, OWNER_LABEL, docker_problem, remove_orphans, server_version

# The module run on the container, and how many tests it has: a run that passes fewer did not
# run them all.
MODULE = "tests/platform/test_contract.py"
THIS_SESSIONS_SERVER = "tests/test_nats_container.py::test_the_sessions_server_is_the_container_when_asked"
# Left out of a pytest run's environment, to be its own: its server, credentials and sessions.
OUTER = (
    "NATS_URL",
    "NATS_USER",
    "NATS_PASSWORD",
    "TABLETOP_CREDENTIALS",
    "XDG_CONFIG_HOME",
    "TABLETOP_TEST_NATS",
)


def pytest_process(*args: str, **env: str) -> subprocess.Popen[str]:
    """pytest started in a process of its own (and its own process group), in this checkout,
    with `env` as its setting, its output piped."""
    clean = {k: v for k, v in os.environ.items() if k not in OUTER and not k.startswith("PYTEST_")}
    return subprocess.Popen(
        [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", *args],
        cwd=ROOT,
        env={**clean, **env},
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )


def collected_in(module: str) -> int:
    """How many tests pytest collects in `module`: all of them must pass on the container."""
    listing = pytest_process(module, "--collect-only", "-q")
    out, err = listing.communicate(timeout=120)
    found = re.search(r"^(\d+) tests? collected", out, re.MULTILINE)
    assert listing.returncode == 0 and found, out[-3000:] + err[-3000:]
    return int(found.group(1))


def owned_containers(owner: int) -> list[str]:
    """The names of the containers the process `owner` started and has not removed: one listing
    (a container removed while it is read is not asked about again, which would fail)."""
    client = docker.from_env()
    try:
        found = client.api.containers(all=True, filters={"label": f"{OWNER_LABEL}={owner}"})
        return [name.lstrip("/") for c in found for name in c["Names"]]
    finally:
        client.close()


@pytest.fixture(scope="module")
def docker_engine() -> None:
    problem = docker_problem()
    if problem:
        pytest.skip(f"TABLETOP_TEST_NATS=container needs a Docker engine: {problem}")


def test_the_sessions_server_is_the_container_when_asked(request):
    """Run by the test below in its pytest run on the container: this session's server is a
    container of the wheel's nats-server image, publishing the port the tests connect to."""
    if nats_kind() != "container":
        pytest.skip("the session's NATS is not a container (TABLETOP_TEST_NATS)")
    secure_server: SecureServer = request.getfixturevalue("secure_server")
    client = docker.from_env()
    try:
        (container,) = client.containers.list(filters={"label": f"{OWNER_LABEL}={os.getpid()}"})
        assert container.name.startswith("tabletop-test-nats-")
        assert f"{IMAGE_REPOSITORY}:{server_version()}" in container.image.tags
        published = container.attrs["NetworkSettings"]["Ports"]["4222/tcp"]
        assert published == [{"HostIp": "127.0.0.1", "HostPort": str(urlsplit(secure_server.url).port)}]
    finally:
        client.close()


@pytest.mark.slow
@pytest.mark.usefixtures("docker_engine")
def test_a_platform_module_passes_on_nats_in_a_container():
    expected = collected_in(MODULE) + 1  # and this session's server check
    started = time.monotonic()
    run = pytest_process(MODULE, THIS_SESSIONS_SERVER, "-n", "0", "-q", TABLETOP_TEST_NATS="container")
    out, err = run.communicate(timeout=900)
    seconds = time.monotonic() - started
    summary = out.strip().splitlines()[-1] if out.strip() else ""
    assert run.returncode == 0, out[-6000:] + err[-3000:]
    assert re.fullmatch(rf"=* ?{expected} passed in [0-9.]+s( =*)?", summary), summary
    assert owned_containers(run.pid) == []  # its container went with its server
    print(f"{MODULE} on NATS in a container: {summary} ({seconds:.0f} s in all)")


@pytest.mark.slow
@pytest.mark.usefixtures("docker_engine")
def test_a_container_left_by_a_killed_run_is_removed_by_the_next(tmp_path):
    # TMPDIR: the scratch folder it cannot remove once killed is this test's
    run = pytest_process(MODULE, "-n", "0", "-q", "-x", TABLETOP_TEST_NATS="container", TMPDIR=str(tmp_path))
    try:
        deadline = time.monotonic() + 120
        while not owned_containers(run.pid):  # its server started
            assert run.poll() is None, run.communicate()
            assert time.monotonic() < deadline, "no container started"
            time.sleep(0.1)
    finally:
        os.killpg(run.pid, signal.SIGKILL)  # the run and its auth service, before any cleanup
        run.communicate()
    (left,) = owned_containers(run.pid)
    assert left.startswith("tabletop-test-nats-")
    remove_orphans()  # as the next run's server does before it starts
    assert owned_containers(run.pid) == []


@pytest.mark.slow  # a pytest process
@pytest.mark.parametrize(
    ("setting", "says"),
    [
        (
            {"TABLETOP_TEST_NATS": "docker"},
            "TABLETOP_TEST_NATS='docker': it is one of embedded, container, url",
        ),
        ({"TABLETOP_TEST_NATS": "url"}, "TABLETOP_TEST_NATS=url runs the tests on NATS_URL: set it too"),
    ],
)
def test_a_wrong_setting_stops_the_run_saying_why(setting, says):
    run = pytest_process("--collect-only", "-q", "tests/test_nats_container.py", **setting)
    _, err = run.communicate(timeout=120)
    assert run.returncode == pytest.ExitCode.USAGE_ERROR, err
    assert says in err
