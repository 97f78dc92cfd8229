"""Sign-in attempts as a crowd makes them, for the tests and the benchmark of admission
control: each attempt is one CONNECT (a plain nats-py client, no reconnect), so that the auth
service sees exactly one request per attempt."""

from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass

import nats
import nats.errors

from shared.bus.credentials import inbox_prefix


@dataclass(frozen=True)
class Outcome:
    name: str
    signed_in: bool
    seconds: float


async def sign_in(url: str, name: str, password: str = "", *, token: str = "") -> Outcome:
    """One sign-in of `name` with its password, or its session `token`: whether the server let
    it in, and how long it took to say."""
    start = time.monotonic()
    refused: list[Exception] = []

    async def error(err: Exception) -> None:
        refused.append(err)

    try:
        nc = await nats.connect(
            url,
            user=None if token else name,
            password=None if token else password,
            token=token or None,
            inbox_prefix=inbox_prefix(name),
            allow_reconnect=False,
            connect_timeout=10,
            error_cb=error,
            name="crowd",
        )
    except (nats.errors.Error, OSError):
        return Outcome(name, False, time.monotonic() - start)
    took = time.monotonic() - start
    # nats-py returns from connect without an error when the server closes the connection
    # instead of answering the first PING: signed in only if connected
    connected = nc.is_connected
    await nc.close()
    return Outcome(name, connected, took)


async def crowd(url: str, names: list[str], password: str) -> list[Outcome]:
    """All of `names` sign in at once."""
    return list(await asyncio.gather(*(sign_in(url, n, password) for n in names)))
