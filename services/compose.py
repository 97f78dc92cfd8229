"""The composition root: which services exist, what `tabletop up` runs, and how each one is
run on its own NATS connection. `tabletop up`, the single-service commands and the tests all
build their services here."""

from __future__ import annotations

import asyncio
import functools
import os
from collections.abc import Awaitable, Callable, Collection
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import structlog

from services.auth.service import SERVICE_NAME as AUTH_SERVICE
from services.auth.service import serve_auth
from services.bots.service import SERVICE_NAME as BOTS_SERVICE
from services.bots.service import serve_bots
from services.chat.service import SERVICE_NAME as CHAT_SERVICE
from services.chat.service import serve_chat
from services.game_worker.app import serve_workers, service_name
from services.garbage import collect_on_a_schedule
from services.history_projector.replay import serve_history_projector
from services.registry import games
from services.results_projector.service import SERVICE_NAME as RESULTS_SERVICE
from services.results_projector.service import serve_results_projector
from services.runtime import nats_url, service_credentials, stop_on_signals
from services.runtime import run as runtime_run
from services.table_projector.projector import serve_table_projector
from shared import metrics
from shared.bus.connection import Bus
from shared.bus.credentials import ISSUER_FILE, SESSION_KEY_FILE, Credentials, ServerSecrets, read_secret
from shared.bus.server import EmbeddedServer
from shared.logs import configure_logging
from shared.settings import Settings, load_settings

log = structlog.get_logger("tabletop.up")


@dataclass(frozen=True)
class Service:
    """One service: its name on NATS (the connection's), the micro services it answers as,
    the role whose credentials it signs in with, and what it runs until its stop event is set
    (a module-level function or a partial of one: `tabletop up` hands the service to the
    process that runs it)."""

    name: str
    role: str
    serve: Callable[[Bus, asyncio.Event], Awaitable[object]]
    answers_as: tuple[str, ...] = ()  # the micro service names it registers
    # it holds tables by the thousand: run alone, its process collects garbage on a schedule
    # (`garbage.collect_on_a_schedule`)
    holds_tables: bool = False


# --- the services -------------------------------------------------------------------------------


# Auth replicas `tabletop up` runs: they share the sign-ins, so one failing stops none.
AUTH_REPLICAS = 2


def auth(issuer_seed: str, session_key: str, replica: int = 1) -> Service:
    """The auth callout: signs players and guests in, and gives players session tokens (any
    number of replicas share the requests)."""
    name = "auth" if replica == 1 else f"auth-{replica}"
    return Service(
        name,
        "auth",
        functools.partial(serve_auth, issuer_seed=issuer_seed, session_key=session_key),
        answers_as=(AUTH_SERVICE,),
    )


def worker(game: str, *more: str) -> Service:
    """The game workers of one game or more in one process (`worker-<game>`, or `workers`):
    for each game, any number of processes that serve it share its commands."""
    served = (game, *more)
    return Service(
        f"worker-{game}" if not more else "workers",
        "worker",
        functools.partial(serve_workers, served=served),
        answers_as=tuple(service_name(g) for g in served),
        holds_tables=True,
    )


def table_projector(shard: tuple[int, int] = (0, 1)) -> Service:
    """Table views and the lobby, for the log partitions of `shard` (index, count)."""
    return Service(
        "table-projector",
        "projector",
        functools.partial(serve_table_projector, shard=shard),
        answers_as=("tabletop-table-projector",),
        holds_tables=True,
    )


def history_projector() -> Service:
    """Replays."""
    return Service(
        "history-projector", "history", serve_history_projector, answers_as=("tabletop-history-projector",)
    )


def results_projector(replica: int = 1) -> Service:
    """Players' profiles, their tables and the leaderboards (each replica folds the whole log
    under its own durable consumer)."""
    return Service(
        "results-projector" if replica == 1 else f"results-projector-{replica}",
        "history",
        functools.partial(serve_results_projector, replica=replica),
        answers_as=(RESULTS_SERVICE,),
    )


def bots() -> Service:
    """The bot service: plays bot and zombie seats (any number of replicas share its queue
    group)."""
    return Service("bots", "bots", serve_bots, answers_as=(BOTS_SERVICE,))


def chat() -> Service:
    """The chat of every lobby and table (any number of replicas share the lines)."""
    return Service("chat", "chat", serve_chat, answers_as=(CHAT_SERVICE,))


def issuer_seed(settings: Settings) -> str | None:
    """The callout's signing key: the operator's file, else the one `tabletop up` generated."""
    path = Path(settings.issuer_seed_file or settings.credentials_folder / ISSUER_FILE)
    return read_secret(path) if path.exists() else None


def session_key(settings: Settings) -> str | None:
    """The key of session tokens: the operator's file, else the one `tabletop up` generated."""
    path = Path(settings.session_key_file or settings.credentials_folder / SESSION_KEY_FILE)
    return read_secret(path) if path.exists() else None


def everything(settings: Settings) -> list[Service]:
    """What `tabletop up` runs: two replicas of the auth callout (when this machine has its
    signing key), one process with the workers of every game offered (a process less for each
    game: less memory, and the games' commands share its wake-ups), the three projectors, the
    bot service and the chat. A new kind of service is a constructor above and one more line
    here."""
    services = []
    seed, key = issuer_seed(settings), session_key(settings)
    if seed is not None and key is not None:
        services += [auth(seed, key, replica) for replica in range(1, AUTH_REPLICAS + 1)]
    else:
        log.warning("auth_callout_not_run", reason="no issuer seed or session key: it runs elsewhere")
    offered = list(games())
    if offered:
        services.append(worker(*offered))
    services += [table_projector(), history_projector(), results_projector(), bots(), chat()]
    return services


def web_origins(settings: Settings, http_port: int) -> list[str]:
    """The pages whose browsers the embedded NATS takes over WebSocket: `TABLETOP_WEB_ORIGINS`,
    else the address `tabletop up` serves the web client on (as 127.0.0.1 and as localhost)."""
    given = [o.strip().rstrip("/") for o in settings.web_origins.split(",") if o.strip()]
    for origin in given:
        parts = urlsplit(origin)
        if parts.scheme not in ("http", "https") or not parts.hostname or parts.path:
            raise SystemExit(
                f"TABLETOP_WEB_ORIGINS: {origin!r} is not an origin like https://games.example.org "
                "(scheme, host and port only)"
            )
    return given or [f"http://127.0.0.1:{http_port}", f"http://localhost:{http_port}"]


def embedded_server(
    settings: Settings,
    *,
    port: int = 0,
    websocket_port: int | None = None,
    http_port: int = 8000,
    runner: type[EmbeddedServer] = EmbeddedServer,
) -> EmbeddedServer:
    """The NATS `tabletop up` runs (not started): its store under the data folder,
    authentication on with this machine's service credentials, browsers over WebSocket from
    the web client at `http_port` (or `TABLETOP_WEB_ORIGINS`) only. `runner`: what runs it,
    this machine's nats-server by default (the tests also run it in a container)."""
    return runner(
        Path(settings.data_dir) / "nats",
        port=port,
        sync_always=settings.sync_always,
        secrets=ServerSecrets.load_or_create(settings.credentials_folder),
        websocket_port=websocket_port,
        web_origins=web_origins(settings, http_port) if websocket_port is not None else (),
        games=games(),
    )


# --- running them -------------------------------------------------------------------------------


async def run_service(
    url: str,
    settings: Settings,
    service: Service,
    stop: asyncio.Event,
    credentials: Credentials,
) -> None:
    """Run `service` on its own connection, signed in as `credentials`, until `stop` is set;
    a crash is raised (under `tabletop up` its process ends and the supervisor starts another)."""
    bus = await Bus.connect(url, settings, name=f"tabletop-{service.name}", credentials=credentials)
    try:
        await service.serve(bus, stop)
    finally:
        await bus.close()


async def until_answering(
    bus: Bus,
    names: Collection[str],
    *,
    besides: Collection[str] = (),
    running: Collection[asyncio.Task[Any]] = (),
    stop: asyncio.Event | None = None,
    timeout: float = 60.0,
) -> set[str]:
    """Until an instance of each micro service in `names`, other than the instance ids in
    `besides`, answers with its endpoints (it takes requests from then on), or `timeout`, or
    `stop`. Returns the names that do not answer; raises if a task of `running` ends first."""
    deadline = asyncio.get_running_loop().time() + timeout
    missing = set(names)
    while missing and not (stop and stop.is_set()):
        for task in running:
            if task.done():
                task.result()  # a service that failed to start says why
                raise RuntimeError("a service stopped before it answered")
        instances = await bus.service_instances()
        missing -= {
            info["name"] for id_, info in instances.items() if info.get("endpoints") and id_ not in besides
        }
        if asyncio.get_running_loop().time() > deadline:
            break
    return missing


def run_alone(
    service: Service, settings: Settings | None = None, url: str | None = None, parent: int | None = None
) -> None:
    """A service's process (a single-service command, or one of `tabletop up`'s): run
    `service` until SIGTERM or Ctrl-C (SIGTERM only under `parent`, which stops it), or until
    process `parent` ends, then let it drain.
    Settings from the environment and the NATS of `nats_url` unless given. Its Prometheus
    metrics are served on `TABLETOP_METRICS_PORT` when set (one port per process)."""
    if settings is None:
        settings = load_settings()
    configure_logging(fmt=settings.log_format, level=settings.log_level)
    credentials = service_credentials(settings, service.role)
    metrics.serve(settings.metrics_port)

    async def main() -> None:
        stop = asyncio.Event()
        stop_on_signals(stop, ctrl_c=parent is None)  # supervised: stopped by its supervisor
        if parent is not None:
            stop_when_ended(parent, stop)
        if service.holds_tables:
            collect_on_a_schedule()
        await run_service(url or nats_url(settings), settings, service, stop, credentials)

    runtime_run(main())


def stop_when_ended(pid: int, stop: asyncio.Event) -> None:
    """Set `stop` once process `pid` has ended (Linux: a pidfd; elsewhere it is looked at
    every second). A service of `tabletop up` is forked by a helper process that lives as long
    as its services do, so it watches `tabletop up` itself: none outlives it, SIGKILL included."""
    loop = asyncio.get_running_loop()
    try:
        fd = os.pidfd_open(pid)
    except (AttributeError, OSError):  # not Linux, or already gone
        fd = None
    if fd is not None:
        loop.add_reader(fd, stop.set)
        return

    async def look() -> None:
        while not stop.is_set():
            try:
                os.kill(pid, 0)
            except ProcessLookupError:
                stop.set()
            except PermissionError:
                pass
            await asyncio.sleep(1.0)

    stopping.add(loop.create_task(look()))


stopping: set[asyncio.Task[None]] = set()  # the tasks of `stop_when_ended`, kept alive
