"""`tabletop up`: the embedded NATS, every service in a supervised process of its own
(services/supervisor.py), and the web client, until SIGTERM or Ctrl-C."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

import msgspec
import structlog

from services.compose import embedded_server, everything
from services.runtime import service_credentials, stop_on_signals, url_file, write_url_file
from services.supervisor import Supervisor, preload
from services.web.server import serve_web
from shared.bus.connection import Bus
from shared.bus.server import bound_socket
from shared.settings import Settings

log = structlog.get_logger("tabletop.up")


async def run_everything(
    settings: Settings,
    *,
    port: int,
    websocket_port: int,
    ready: Callable[[str, str, str], None],
    http_port: int = 8000,
) -> None:
    """`tabletop up`: the embedded NATS with authentication (unless NATS_URL is set), every
    service of `everything` in a process of its own, signed in as its own role, all kept
    running by a supervisor (services/supervisor.py), and the web client at
    http://127.0.0.1:`http_port` (or another free port), until SIGTERM or Ctrl-C.
    `ready(url, websocket_url, http_url)` once they all answer. `TABLETOP_METRICS_PORT` is
    left off: each service process would want a port of its own."""
    if settings.metrics_port:
        log.warning(
            "metrics_not_served",
            port=settings.metrics_port,
            reason="one port per process: run the services alone to serve their metrics",
        )
        settings = msgspec.structs.replace(settings, metrics_port=0)
    # the process the services' processes are forked from: it imports them while NATS starts
    preloading = asyncio.create_task(asyncio.to_thread(preload))
    server = None
    # the page's port, held from before NATS starts (its WebSocket takes this page only) until
    # the web server listens on it: nothing else can take it meanwhile
    page_socket = bound_socket(http_port)
    http_port = page_socket.getsockname()[1]
    if settings.nats_url:
        url = settings.nats_url
    else:
        server = embedded_server(
            settings, port=port, websocket_port=websocket_port, http_port=http_port
        ).start()
        url = server.url
    stop = asyncio.Event()
    stop_on_signals(stop)
    try:
        setup = await Bus.connect(
            url, settings, name="tabletop-up", credentials=service_credentials(settings, "admin")
        )
        try:
            await setup.ensure_streams()
        finally:
            await setup.close()
        await preloading
        supervising = Supervisor(url, settings, everything(settings), server)
        tasks = [asyncio.create_task(supervising.run(stop))]
        answering = asyncio.create_task(supervising.answering.wait())
        await asyncio.wait([answering, tasks[0]], timeout=60, return_when=asyncio.FIRST_COMPLETED)
        if tasks[0].done():
            tasks[0].result()  # the supervisor failed to start: say why
            return  # stopped before the services answered
        if not answering.done():
            answering.cancel()
            log.warning("services_not_answering", services=supervising.silent())
        websocket_url = server.websocket_url if server else settings.websocket_url
        web_started: asyncio.Future[str] = asyncio.get_running_loop().create_future()
        tasks.append(
            asyncio.create_task(
                serve_web(
                    host="127.0.0.1",
                    port=http_port,
                    websocket_url=websocket_url,
                    stop=stop,
                    ready=web_started.set_result,
                    sock=page_socket,
                )
            )
        )
        first: list[asyncio.Future[Any]] = [web_started, tasks[-1]]
        await asyncio.wait(first, return_when=asyncio.FIRST_COMPLETED)
        if not web_started.done():  # the web server failed before it served: say why
            stop.set()
            await asyncio.gather(*tasks[:-1], return_exceptions=True)
            tasks[-1].result()
            return
        http_url = web_started.result()
        if server is not None:  # clients find NATS here: only once the services answer
            write_url_file(settings, url)
        ready(url, websocket_url, http_url)
        await stop.wait()
        await asyncio.gather(*tasks, return_exceptions=True)
    finally:
        page_socket.close()
        if server is not None:
            url_file(settings).unlink(missing_ok=True)
            server.stop()
