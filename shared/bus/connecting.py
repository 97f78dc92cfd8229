"""Connecting to NATS: waiting for it at start, signing in, checking the server's version, and
reconnecting forever once connected; what the connection's callbacks report (`Watch`)."""

from __future__ import annotations

import asyncio
from typing import Any

import nats.errors
import structlog

from shared.bus.credentials import Credentials
from shared.bus.errors import ServerTooOld, SignInRefused, Unavailable
from shared.bus.nats_internals import FastClient, reconnect_forever
from shared.settings import Settings

log = structlog.get_logger("tabletop.bus")
# The oldest nats-server tabletop runs on: clocks' deadlines are JetStream scheduled messages
# (2.12), and an older server would take the streams and never deliver a deadline.
MIN_SERVER_VERSION = (2, 12, 0)
# Seconds a closing service waits for what it received to be handled before it disconnects
# anyway: a stop must not hang on a subscription that never drains.
DRAIN_TIMEOUT = 5
DENIALS_KEPT = 100  # the latest refusals are enough to tell what was refused


def settings_credentials(settings: Settings) -> Credentials:
    """The credentials the settings name: `NATS_USER` with `NATS_PASSWORD` or the file
    `NATS_PASSWORD_FILE`; none when no user is set."""
    password = settings.nats_password
    if not password and settings.nats_password_file:
        with open(settings.nats_password_file) as f:
            password = f.read().strip()
    return Credentials(user=settings.nats_user, password=password)


class Watch:
    """What one connection's callbacks report: its reconnects, the broker's refusals, and
    whether it is closing (then a disconnect is expected, not news)."""

    def __init__(self, url: str) -> None:
        self.url = url
        # Bumped on every reconnect: each consumer and watcher then subscribes again.
        self.reconnects = 0
        # Bumped as soon as the connection is lost, before any other server is tried: a reply
        # seen after a bump may come from another server than one seen before it.
        self.disconnects = 0
        self.closing = False
        # The broker's "Permissions Violation" notices for this connection, oldest first.
        self.denials: list[str] = []
        self.sign_in_refused = False

    async def reconnected(self) -> None:
        log.info("nats_reconnected", url=self.url)
        self.reconnects += 1

    async def disconnected(self) -> None:
        self.disconnects += 1
        if not self.closing:
            log.warning("nats_disconnected", url=self.url)

    async def error(self, err: Exception) -> None:
        text = str(err)
        if "authorization violation" in text.lower():
            self.sign_in_refused = True
        elif "permissions violation" in text.lower():
            self.denials.append(text)
            del self.denials[:-DENIALS_KEPT]
            log.warning("nats_denied", error=text)
            return
        log.debug("nats_error", error=repr(err))


async def open_connection(
    url: str,
    *,
    name: str,
    credentials: Credentials,
    wait: float | None,
    min_server_version: tuple[int, int, int] | None,
) -> tuple[FastClient, Watch]:
    """A connection to `url` (several, comma-separated: a cluster) as `credentials`, waiting for
    NATS to come up (forever unless `wait` is set), and its `Watch`. Refused credentials raise
    `SignInRefused`; a server older than `min_server_version` (default `MIN_SERVER_VERSION`)
    raises `ServerTooOld`."""
    watch = Watch(url)
    nc = await _first_connect(url, name, credentials, wait, watch)
    reconnect_forever(nc)
    too_old = _too_old(nc, min_server_version or MIN_SERVER_VERSION)
    if too_old:
        await nc.close()
        raise ServerTooOld(f"NATS at {url} {too_old}")
    return nc, watch


async def _first_connect(
    url: str, name: str, credentials: Credentials, wait: float | None, watch: Watch
) -> FastClient:
    loop = asyncio.get_running_loop()
    deadline = None if wait is None else loop.time() + wait
    delay = 0.1
    while True:
        nc = FastClient()
        try:
            await nc.connect(**_options(url, name, credentials, watch))
            return nc
        except nats.errors.AuthorizationError as err:
            raise _refused(url, credentials) from err
        except (OSError, nats.errors.NoServersError, nats.errors.TimeoutError) as err:
            if watch.sign_in_refused:  # the server is there and said no: asking again will not help
                raise _refused(url, credentials) from err
            if deadline is not None and loop.time() > deadline:
                raise Unavailable(f"no NATS at {url}: {err}") from err
            log.info("waiting_for_nats", url=url)
            await asyncio.sleep(delay)
            delay = min(delay * 2, 2.0)


def _options(url: str, name: str, credentials: Credentials, watch: Watch) -> dict[str, Any]:
    signs_in_by_password = bool(credentials.user and not credentials.token)
    return {
        "servers": [u.strip() for u in url.split(",") if u.strip()],  # a cluster: several urls
        "name": name,
        # With unlimited attempts nats-py retries a first connect forever and the caller's
        # deadline would never apply: unlimited only once connected (`reconnect_forever`).
        "max_reconnect_attempts": 1,
        "reconnect_time_wait": 0.5,
        "connect_timeout": 2,
        "allow_reconnect": True,
        "reconnected_cb": watch.reconnected,
        "disconnected_cb": watch.disconnected,
        "error_cb": watch.error,
        "drain_timeout": DRAIN_TIMEOUT,
        "inbox_prefix": credentials.inbox_prefix,
        # a session token goes alone: nats-py would send a user's password instead
        "user": credentials.user if signs_in_by_password else None,
        "password": credentials.password if signs_in_by_password else None,
        "token": credentials.token or None,
    }


def _refused(url: str, credentials: Credentials) -> SignInRefused:
    return SignInRefused(f"NATS at {url} refused {credentials.user or 'anonymous'!r}")


def server_version(nc: FastClient) -> tuple[int, int, int] | None:
    """The version of the server `nc` is connected to, from the INFO it sent on connecting;
    None when it is not a semantic version."""
    version = nc.connected_server_version
    try:
        return (version.major, version.minor, version.patch)
    except ValueError:
        return None


def _too_old(nc: FastClient, minimum: tuple[int, int, int]) -> str | None:
    """Why the server `nc` is connected to is too old (its version, from the INFO it sent on
    connecting), or None when it is recent enough."""
    found = server_version(nc)
    if found is None:
        found, shown = (0, 0, 0), "(no version)"
    else:
        dev = nc.connected_server_version.dev
        shown = ".".join(map(str, found)) + (f"-{dev}" if dev else "")
    if found >= minimum:
        return None
    wanted = ".".join(map(str, minimum))
    return (
        f"is nats-server {shown}; tabletop needs {wanted} or newer (clocks' "
        "deadlines are JetStream scheduled messages): upgrade the server"
    )


class Connected:
    """What each of the bus's jobs works over (`connection.Bus` is made of them): one
    connection, its JetStream context, its `Watch`, and the settings."""

    def __init__(self, nc: FastClient, watch: Watch, settings: Settings) -> None:
        self.nc = nc
        self.js = nc.jetstream(timeout=5.0)
        self.watch = watch
        self.settings = settings
