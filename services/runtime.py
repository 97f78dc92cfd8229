"""What every process needs to reach NATS: its address, its credentials, and stopping on signals."""

from __future__ import annotations

import asyncio
import os
import signal
from collections.abc import Coroutine
from pathlib import Path
from typing import Any, TypeVar

from shared.bus.connection import settings_credentials
from shared.bus.credentials import Credentials, ServerSecrets
from shared.settings import Settings

DEFAULT_URL = "nats://127.0.0.1:4222"
T = TypeVar("T")


def run(main: Coroutine[Any, Any, T]) -> T:
    """`asyncio.run(main)`, on uvloop's event loop where uvloop is installed (the `fast`
    extra) unless `TABLETOP_UVLOOP=0`: measured, it takes about a quarter off the CPU the
    table projector spends per message (docs/performance.md)."""
    if os.environ.get("TABLETOP_UVLOOP", "1").lower() not in ("0", "false", "no", "off"):
        try:
            import uvloop
        except ImportError:
            pass
        else:
            return uvloop.run(main)
    return asyncio.run(main)


def url_file(settings: Settings) -> Path:
    """Where `tabletop up` writes the address of the NATS it runs."""
    return Path(settings.data_dir) / "nats.url"


def write_url_file(settings: Settings, url: str) -> None:
    """The address `nats_url` finds, written whole or not at all: beside the file, then renamed
    over it, so that a reader that finds the file never reads it half written."""
    path = url_file(settings)
    partial = path.with_name(f"{path.name}.partial")
    partial.write_text(url + "\n")
    os.replace(partial, path)


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
        f"NATS_PASSWORD_FILE), or run it where `tabletop up` keeps {settings.credentials_folder}"
    )


def stop_on_signals(stop: asyncio.Event, *, ctrl_c: bool = True) -> None:
    """Set `stop` on SIGTERM, and on SIGINT (Ctrl-C) unless `ctrl_c` is False: then SIGINT is
    ignored, for a process whose supervisor stops it (a terminal's Ctrl-C reaches the whole
    process group, and the supervisor must not see its services end before it knows it is
    stopping)."""
    loop = asyncio.get_running_loop()
    if not ctrl_c:
        signal.signal(signal.SIGINT, signal.SIG_IGN)
    for sig in (signal.SIGINT, signal.SIGTERM) if ctrl_c else (signal.SIGTERM,):
        try:
            loop.add_signal_handler(sig, stop.set)
        except (NotImplementedError, RuntimeError):  # not the main thread, or Windows
            pass
