"""`tabletop up`'s supervisor: every service runs in a process of its own, started again when
it dies or stops answering its micro-service ping (frozen, hung), with backoff; the embedded
nats-server likewise, on the same port and store. Restarts are logged and counted, and the
counts answer as the micro service `tabletop-up` (`tabletop status`).

The processes are forked from a server process that has imported the services once
(multiprocessing's forkserver): a new one starts in milliseconds instead of the second
Python takes to import them, and shares those pages with its siblings (docs/architecture.md)."""

from __future__ import annotations

import asyncio
import contextlib
import json
import multiprocessing
import os
import signal
import time
from dataclasses import dataclass
from multiprocessing import forkserver
from multiprocessing.process import BaseProcess
from typing import Any

import structlog

from services import VERSION
from services.compose import Service, run_alone
from services.runtime import service_credentials
from shared.bus.connection import Bus, Incoming
from shared.bus.server import EmbeddedServer
from shared.settings import Settings

log = structlog.get_logger("tabletop.up")

SERVICE_NAME = "tabletop-up"
PROCESSES_SUBJECT = "tabletop.up.processes"

CHECK_EVERY = 0.5  # seconds between two looks at the processes and their pings
STARTING_CHECK_EVERY = 0.05  # the same while some process has not answered yet
PING_WAIT = 0.5  # how long answers to one ping are waited for
SILENCE = 6.0  # a process whose service has not answered its ping for this long is replaced
FIRST_ANSWER = 30.0  # a new process's time to connect and answer its first ping
BACKOFF_FIRST, BACKOFF_MAX = 0.25, 30.0  # doubled on every failure in a row
STEADY = 30.0  # answering this long after a start: the next failure starts the backoff over
STOP_WAIT = 15.0  # a process's time to drain on SIGTERM before it is killed


# What every service process needs, imported once in the process they are forked from: the
# command line (and so every service), the games and the NATS micro services.
PRELOAD = ["services.cli", "services.preloaded", "nats.micro"]


def preload() -> None:
    """Start the process the services' processes are forked from (blocking: about a second)."""
    multiprocessing.set_forkserver_preload(PRELOAD)
    forkserver.ensure_running()


def exit_description(code: int) -> str:
    if code < 0:
        try:
            return f"killed by {signal.Signals(-code).name}"
        except ValueError:
            return f"killed by signal {-code}"
    return f"exited with {code}"


@dataclass
class Child:
    """One supervised service and its current process."""

    service: Service
    process: BaseProcess | None = None
    started: float = 0.0
    heard: float = 0.0  # the last ping answer (monotonic); a new process's deadline - SILENCE
    answered: bool = False  # its current process has answered at least once
    restarts: int = 0
    failures_in_a_row: int = 0
    last_failure: str = ""
    last_failure_at: float = 0.0  # wall clock
    due: float = 0.0  # when a dead one starts again

    def shown(self) -> dict[str, Any]:
        return {
            "pid": self.process.pid if self.process is not None and self.process.exitcode is None else None,
            "restarts": self.restarts,
            "last_failure": self.last_failure,
            "last_failure_at": self.last_failure_at,
        }


@dataclass
class ServerWatch:
    """The embedded nats-server's restarts."""

    restarts: int = 0
    last_failure: str = ""
    last_failure_at: float = 0.0
    silent_since: float | None = None


class Supervisor:
    def __init__(
        self,
        url: str,
        settings: Settings,
        services: list[Service],
        server: EmbeddedServer | None = None,
    ) -> None:
        self.url = url
        self.settings = settings
        # each process's name is unique (the auth replicas are auth, auth-2, ...)
        self.children = {s.name: Child(s) for s in services}
        self.server = server
        self.server_watch = ServerWatch()
        self.context = multiprocessing.get_context("forkserver")  # preloaded by `preload`
        # every service's credentials checked before any starts
        self.credentials = {s.role: service_credentials(settings, s.role) for s in services}
        self.buses: list[Bus] = []  # one per account the services answer in: admin, auth
        self.answering = asyncio.Event()  # every process has answered its first ping

    # --- processes -------------------------------------------------------------------------------

    def start(self, child: Child) -> None:
        process = self.context.Process(
            target=run_alone,
            args=(child.service, self.settings, self.url, os.getpid()),
            name=f"tabletop-{child.service.name}",
            daemon=True,
        )
        process.start()
        child.process, child.answered = process, False
        child.started = time.monotonic()
        child.heard = child.started + FIRST_ANSWER - SILENCE
        log.info("service_started", service=child.service.name, pid=process.pid)

    def failed(self, child: Child, why: str) -> None:
        """`child`'s process is gone (or killed here): it starts again after its backoff."""
        now = time.monotonic()
        if child.answered and now - child.started > STEADY:
            child.failures_in_a_row = 0
        delay = min(BACKOFF_FIRST * 2**child.failures_in_a_row, BACKOFF_MAX)
        child.failures_in_a_row += 1
        child.process, child.due = None, now + delay
        child.last_failure, child.last_failure_at = why, time.time()
        log.warning("service_failed", service=child.service.name, why=why, restart_in=round(delay, 2))

    def look_at_processes(self, answered_pids: set[int] | None) -> None:
        """Restart the dead whose backoff has passed, replace the silent. `answered_pids`:
        the processes that answered this round's ping, None when the round could not ask
        (NATS itself not answering: nobody is blamed for it)."""
        now = time.monotonic()
        for child in self.children.values():
            process = child.process
            if process is None:
                if now >= child.due:
                    child.restarts += 1
                    try:
                        self.start(child)
                    except Exception:  # no process to fork it from: tried again after a backoff
                        log.exception("service_not_started", service=child.service.name)
                        self.failed(child, "could not be started")
                        continue
                    log.warning(
                        "service_restarted",
                        service=child.service.name,
                        pid=child.process.pid if child.process else None,
                        restarts=child.restarts,
                    )
                continue
            if process.exitcode is not None:
                self.failed(child, exit_description(process.exitcode))
                continue
            if answered_pids is None:
                child.heard = max(child.heard, now)  # its silence counts from NATS's return
            elif process.pid in answered_pids:
                if not child.answered:
                    after = round(now - child.started, 2)
                    log.info("service_answering", service=child.service.name, after=after)
                child.heard, child.answered = now, True
            elif now - child.heard > SILENCE:
                process.kill()  # SIGKILL: also ends a stopped (SIGSTOP) process
                process.join(5)
                self.failed(child, f"not answering its ping for {SILENCE:.0f} s")
        if all(c.answered for c in self.children.values()):
            self.answering.set()

    async def pings(self) -> set[int] | None:
        """The pids of the processes whose service answers its ping now, or None when NATS
        does not answer this supervisor's own round trip."""
        expected = {c.process.pid for c in self.children.values() if c.process and c.process.pid}
        try:
            answers = await asyncio.gather(*(b.answering_pids(expected, wait=PING_WAIT) for b in self.buses))
        except Exception:  # noqa: BLE001 - nats-py's timeouts and connection errors alike
            return None
        return set().union(*answers)

    def silent(self) -> list[str]:
        """The services whose current process has not answered yet."""
        return sorted(name for name, child in self.children.items() if not child.answered)

    # --- the nats-server -------------------------------------------------------------------------

    async def look_at_server(self) -> bool:
        """Whether the embedded server is up; one that exited or has been silent for
        `SILENCE` is killed and started again on its port and store."""
        server, watch = self.server, self.server_watch
        if server is None:
            return True
        code = server.exited()
        now = time.monotonic()
        if code is None:
            if await asyncio.to_thread(server.answers):
                watch.silent_since = None
                return True
            watch.silent_since = watch.silent_since or now
            if now - watch.silent_since < SILENCE:
                return False
            why = f"not answering for {SILENCE:.0f} s"
        else:
            why = exit_description(code)
        watch.restarts += 1
        watch.last_failure, watch.last_failure_at = why, time.time()
        watch.silent_since = None
        log.warning("nats_server_failed", why=why, restarts=watch.restarts)
        try:
            await asyncio.to_thread(server.restart)
        except Exception:  # tried again on the next look
            log.exception("nats_server_restart_failed")
            return False
        log.warning("nats_server_restarted", url=server.url, restarts=watch.restarts)
        return True

    # --- running ---------------------------------------------------------------------------------

    def shown(self) -> dict[str, Any]:
        processes = {name: child.shown() for name, child in self.children.items()}
        if self.server is not None:
            watch = self.server_watch
            processes["nats-server"] = {
                "pid": self.server.process.pid if self.server.process else None,
                "restarts": watch.restarts,
                "last_failure": watch.last_failure,
                "last_failure_at": watch.last_failure_at,
            }
        return {
            "restarts": sum(p["restarts"] for p in processes.values()),
            "processes": processes,
        }

    async def connect(self) -> None:
        # the auth service answers in its own account: pinged as its own role
        roles = ["admin"] + (["auth"] if "auth" in self.credentials else [])
        for role in roles:
            credentials = self.credentials.get(role) or service_credentials(self.settings, role)
            name = f"tabletop-up-{role}"
            self.buses.append(await Bus.connect(self.url, self.settings, name=name, credentials=credentials))

        async def processes(request: Incoming) -> None:
            await request.respond(json.dumps(self.shown()).encode())

        await self.buses[0].add_service(
            name=SERVICE_NAME,
            version=VERSION,
            description="tabletop up: the processes it supervises and their restarts",
            endpoints=[("processes", PROCESSES_SUBJECT, SERVICE_NAME, processes)],
            stats=self.shown,
        )

    async def run(self, stop: asyncio.Event) -> None:
        """Start every service and keep them running until `stop`; then stop them (SIGTERM,
        a drain, SIGKILL after `STOP_WAIT`)."""
        await self.connect()
        for child in self.children.values():
            self.start(child)
        try:
            while not stop.is_set():
                server_up = await self.look_at_server()
                self.look_at_processes(await self.pings() if server_up else None)
                starting = any(not c.answered for c in self.children.values())
                try:
                    await asyncio.wait_for(stop.wait(), STARTING_CHECK_EVERY if starting else CHECK_EVERY)
                except TimeoutError:
                    pass
        finally:
            await asyncio.to_thread(self.stop_all)
            for bus in self.buses:
                await bus.close()

    def stop_all(self) -> None:
        running = [c.process for c in self.children.values() if c.process is not None]
        for process in running:
            if process.exitcode is None and process.pid is not None:
                with contextlib.suppress(ProcessLookupError):  # it ended meanwhile
                    os.kill(process.pid, signal.SIGTERM)
                    os.kill(process.pid, signal.SIGCONT)  # a stopped one too
        deadline = time.monotonic() + STOP_WAIT
        for process in running:
            process.join(max(deadline - time.monotonic(), 0.1))
            if process.exitcode is None:
                process.kill()
                process.join()
