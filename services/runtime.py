"""How every service process starts and stops: logging, finding NATS, signals, draining."""

from __future__ import annotations

import asyncio
import signal
from collections.abc import Awaitable, Callable
from pathlib import Path

import structlog

from shared.bus.connection import Bus, settings_credentials
from shared.bus.credentials import Credentials, ServerSecrets
from shared.logs import configure_logging
from shared.settings import Settings, load_settings

log = structlog.get_logger("tabletop")
DEFAULT_URL = "nats://127.0.0.1:4222"


def url_file(settings: Settings) -> Path:
    """Where `tabletop up` writes the address of the NATS it runs."""
    return Path(settings.data_dir) / "nats.url"


def nats_url(settings: Settings) -> str:
    """`NATS_URL`, else the NATS a local `tabletop up` runs, else the default port."""
    if settings.nats_url:
        return settings.nats_url
    path = url_file(settings)
    if path.exists():
        return path.read_text().strip()
    return DEFAULT_URL


def service_credentials(settings: Settings, role: str) -> Credentials:
    """Who a service of `role` is: `NATS_USER` when set (deployments), else the role's password
    file that `tabletop up` generated in the credentials folder."""
    if settings.nats_user:
        return settings_credentials(settings)
    if (settings.credentials_folder / role).exists():
        return ServerSecrets(settings.credentials_folder).credentials(role)
    raise SystemExit(
        f"no credentials for the {role} service: set NATS_USER and NATS_PASSWORD (or "
        f"NATS_PASSWORD_FILE), or run it where `tabletop up` keeps {settings.credentials_folder}")


def stop_on_signals(stop: asyncio.Event) -> None:
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        try:
            loop.add_signal_handler(sig, stop.set)
        except (NotImplementedError, RuntimeError):  # not the main thread, or Windows
            pass


def run_until_stopped(
    service: Callable[[Bus, asyncio.Event], Awaitable[object]], *, name: str, role: str,
) -> None:
    """Run one service, signed in as `role`, until SIGTERM or Ctrl-C, then let it drain."""
    settings = load_settings()
    configure_logging(fmt=settings.log_format, level=settings.log_level)
    credentials = service_credentials(settings, role)

    async def main() -> None:
        stop = asyncio.Event()
        stop_on_signals(stop)
        bus = await Bus.connect(nats_url(settings), settings, name=f"tabletop-{name}",
                                credentials=credentials)
        try:
            await service(bus, stop)
        finally:
            await bus.close()

    asyncio.run(main())
