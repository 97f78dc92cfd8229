"""The services as separate `tabletop ...` processes, so a fault can be a SIGKILL.

A process counts as serving once it answers the NATS micro-service ping of its service name
(`$SRV.PING.<name>`), which each service registers only when its subscriptions are in place.
"""

from __future__ import annotations

import asyncio
import json
import os
import signal
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

from services import compose
from shared.bus.connection import Bus
from shared.bus.credentials import ServerSecrets

ROOT = Path(__file__).resolve().parent.parent
# The installed console command, as a user runs it (the module when not installed).
_SCRIPT = Path(sys.executable).parent / "tabletop"
TABLETOP = [str(_SCRIPT)] if _SCRIPT.exists() else [sys.executable, "-m", "services.cli"]


# Who a service is when `NATS_URL` names a NATS that `tabletop up` does not run.
SERVICE_ENV = ("NATS_USER", "NATS_PASSWORD", "NATS_PASSWORD_FILE")


def cli_env(**extra: str) -> dict[str, str]:
    """The environment for running `tabletop` as a subprocess of the tests and benches."""
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), env.get("PYTHONPATH", "")]))
    env.setdefault("TABLETOP_LOG_FORMAT", "json")
    env.update(extra)
    return env


def auth_env(url: str, secrets: ServerSecrets, **extra: str) -> dict[str, str]:
    """The environment of `tabletop auth` processes on the server at `url`, signed in as the
    `auth` role with the credentials of `secrets`, logging JSON at info."""
    return {
        "NATS_URL": url,
        "NATS_USER": "auth",
        "NATS_PASSWORD": secrets.password("auth"),
        "TABLETOP_CREDENTIALS": str(secrets.folder),
        "TABLETOP_LOG_LEVEL": "info",
        "TABLETOP_LOG_FORMAT": "json",
        **extra,
    }


class Up:
    """`tabletop up` as a person starts it, in its own data folder, on ports of its own."""

    def __init__(self, data: Path) -> None:
        self.data = data
        # a person at a terminal: their own config folder, players signing in with a password
        self.env = cli_env(
            TABLETOP_DATA=str(data),
            TABLETOP_LOG_LEVEL="warning",
            XDG_CONFIG_HOME=str(data / "config"),
            TABLETOP_PASSWORD="correct horse battery",
        )
        # `up` starts its embedded NATS and makes its own service credentials
        for name in ("NATS_URL", "TABLETOP_CREDENTIALS", *SERVICE_ENV):
            self.env.pop(name, None)
        self.process: subprocess.Popen[bytes] | None = None

    def start(self, *, own_group: bool = False) -> Up:
        """`own_group`: in a process group of its own, as a terminal's foreground command is
        (see `stop`)."""
        self.data.mkdir(parents=True, exist_ok=True)
        url_file = self.data / "nats.url"
        url_file.unlink(missing_ok=True)
        with open(self.data / "up.log", "ab") as log:  # the child keeps its own copy
            self.process = subprocess.Popen(
                [*TABLETOP, "up", "--port", "0", "--ws-port", "0", "--http-port", "0"],
                env=self.env,
                stdout=subprocess.DEVNULL,
                stderr=log,
                process_group=0 if own_group else None,
            )
        # `up` writes the file once every service answers, or after 60 s with a warning naming
        # those that do not (in up.log): past that, it did not come up at all
        deadline = time.monotonic() + 120
        while not url_file.exists():
            assert self.process.poll() is None, (self.data / "up.log").read_text()
            if time.monotonic() > deadline:  # stopped, not left running behind the failure
                self.process.kill()
                self.process.wait()
                said = (self.data / "up.log").read_text()[-3000:]
                raise AssertionError(f"tabletop up did not come up: {said}")
            time.sleep(0.1)
        self.url = url_file.read_text().strip()  # written once every service answers
        return self

    def stop(self, *, whole_group: bool = False) -> int:
        """Ctrl-C: to `up` alone, or (`whole_group`, after `start(own_group=True)`) to its whole
        process group, as a terminal sends it."""
        assert self.process is not None
        if whole_group:
            os.killpg(self.process.pid, signal.SIGINT)
        else:
            self.process.send_signal(signal.SIGINT)
        code = self.process.wait(30)
        self.process = None
        return code

    def run(self, *args: str, check: bool = True, timeout: float = 300) -> subprocess.CompletedProcess:
        done = subprocess.run(
            [*TABLETOP, *args], env=self.env, capture_output=True, text=True, timeout=timeout
        )
        if check:
            assert done.returncode == 0, done.stdout + done.stderr
        return done


def service_names(args: tuple[str, ...]) -> tuple[str, ...]:
    """The micro-service names the service of `tabletop <args>` registers (`worker dozito` ->
    `tabletop-worker-dozito`; one a game for `worker dozito naishi`), as the composition
    root names them."""
    match args:
        case ("worker", game, *more):
            service = compose.worker(game, *more)
        case ("table-projector", *_):
            service = compose.table_projector()
        case ("history-projector", *_):
            service = compose.history_projector()
        case ("results-projector", *_):
            service = compose.results_projector()
        case ("bots", *_):
            service = compose.bots()
        case ("chat-service", *_):
            service = compose.chat()
        case _:
            raise ValueError(f"`tabletop {' '.join(args)}` answers no micro-service ping")
    assert service.answers_as
    return service.answers_as


def service_name(args: tuple[str, ...]) -> str:
    """The micro-service name the service of `tabletop <args>` registers, for a service that
    registers one."""
    (name,) = service_names(args)
    return name


@dataclass
class ServiceProcess:
    label: str  # unique here, e.g. "worker-highcard#2"
    args: tuple[str, ...]  # after `tabletop`
    process: subprocess.Popen[bytes]

    @property
    def pid(self) -> int:
        return self.process.pid


class Services:
    """Service processes started with one environment, their logs under `log_dir`."""

    def __init__(self, env: dict[str, str], log_dir: Path) -> None:
        self.env = cli_env(**{"TABLETOP_LOG_LEVEL": "warning", **env})
        self.log_dir = log_dir
        self.running: dict[str, ServiceProcess] = {}
        self._started = 0

    def start(self, *args: str) -> ServiceProcess:
        """One more process of `tabletop <args>`; its label is unique among those started."""
        self._started += 1
        label = f"{'-'.join(args)}#{self._started}"
        self.log_dir.mkdir(parents=True, exist_ok=True)
        with open(self.log_dir / f"{label.replace('/', '-of-')}.log", "ab") as log:  # `--shard I/N`
            process = subprocess.Popen(
                [*TABLETOP, *args],
                env=self.env,
                stdout=log,
                stderr=subprocess.STDOUT,
                stdin=subprocess.DEVNULL,
            )
        self.running[label] = ServiceProcess(label, tuple(args), process)
        return self.running[label]

    def of(self, *args: str) -> list[ServiceProcess]:
        return [s for s in self.running.values() if s.args == args]

    def kill(self, label: str) -> ServiceProcess:
        """SIGKILL: no drain, no goodbye."""
        service = self.running.pop(label)
        service.process.send_signal(signal.SIGKILL)
        service.process.wait()
        return service

    def stop_all(self, timeout: float = 15.0) -> None:
        for service in self.running.values():
            if service.process.poll() is None:
                service.process.send_signal(signal.SIGTERM)
        deadline = time.monotonic() + timeout
        for service in self.running.values():
            try:
                service.process.wait(max(deadline - time.monotonic(), 0.1))
            except subprocess.TimeoutExpired:
                service.process.kill()
                service.process.wait()
        self.running.clear()

    async def wait_serving(self, bus: Bus, timeout: float = 60.0) -> None:
        """Until every service has as many instances answering its ping as processes run."""
        expected: dict[str, int] = {}
        for service in self.running.values():
            for name in service_names(service.args):
                expected[name] = expected.get(name, 0) + 1
        deadline = time.monotonic() + timeout
        for name, count in expected.items():
            while (found := await instances(bus, name, enough=count)) < count:
                dead = [s.label for s in self.running.values() if s.process.poll() is not None]
                if dead:
                    raise RuntimeError(f"{', '.join(dead)} exited; see {self.log_dir}")
                if time.monotonic() > deadline:
                    raise TimeoutError(f"{found} of {count} {name} answer after {timeout}s")
                await asyncio.sleep(0.2)


async def instances(bus: Bus, name: str, wait: float = 0.5, enough: int | None = None) -> int:
    """How many instances of micro service `name` answer a ping within `wait` seconds (or
    `enough` of them, as soon as they have answered)."""
    inbox = bus.nc.new_inbox()
    ids: set[str] = set()
    sub = await bus.nc.subscribe(inbox)
    try:
        await bus.nc.publish(f"$SRV.PING.{name}", b"", reply=inbox)
        deadline = time.monotonic() + wait
        while (remaining := deadline - time.monotonic()) > 0 and (enough is None or len(ids) < enough):
            try:
                msg = await sub.next_msg(timeout=remaining)
            except Exception:  # noqa: BLE001 - nats TimeoutError: no more answers
                break
            try:
                ids.add(json.loads(msg.data)["id"])
            except (ValueError, KeyError, TypeError):
                continue
    finally:
        await sub.unsubscribe()
    return len(ids)


def rss_kib(pid: int) -> int | None:
    """Resident memory of a process in KiB (from /proc), None once it is gone."""
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    except OSError:
        return None
    return None
