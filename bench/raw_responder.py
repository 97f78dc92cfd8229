"""The raw baseline of a command: a request answered by one append to a JetStream stream, and
nothing of tabletop (no decoding of the command, no rules, no cache, no log read).

It is meant to be the fair counterpart of a game worker, so it does what the worker does on
the wire and no more:

- **concurrent as the worker**: each request is handled in a task of its own as the
  connection reads it (services/game_worker/app.py starts a task per command, with no bound on
  the tasks in flight; `Bus.take` hands each command over from the read loop), and a table's
  appends are serialised by a lock of its own, as the worker's are;
- **on uvloop** where it is installed, as the services (`services.runtime.run`);
- **the same append**: a body of the size the bench asks for (the size of tabletop's log
  message for that load; the request's body padded), with the four headers the worker's
  `EventStore.append` sends (a `Nats-Msg-Id` per command, the table's
  `Nats-Expected-Last-Subject-Sequence`, the writer header, `Nats-Expected-Stream`), to a
  stream configured as the event log (`EventStore.stream_config()` under another name and
  subjects: file storage, duplicate window, subject transform, deny delete and purge, direct
  gets), and an answer of the worker's shape (`{"ok":true,"version":N}`).

Two flavours, each its own process:

- `lean` takes the requests from the read loop and appends with a prebuilt header block
  (`FastClient.takers`, `request_with_headers`): the same nats-py path the worker's bus takes,
  so the difference to the worker is what tabletop does beside the I/O. The ratios use it.
- `api` does the same through nats-py's public API (a subscription callback, `js.publish`
  with a header dict): what a plain nats-py program pays for the same append.

    python bench/raw_responder.py URL lean   # NATS_USER / NATS_PASSWORD in the environment

Requests come on `bench.<flavour>.cmd.<body size>.<game>.<table>`; it prints `ready` once
subscribed.
"""

from __future__ import annotations

import asyncio
import itertools
import os
import sys
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import msgspec
import nats
from nats.aio.msg import Msg

from shared.background import Background
from shared.bus.nats_internals import FastClient, request_with_headers

STREAM = "BENCH_RAW"
APPEND = "bench.raw.*.*"  # bench.raw.<game>.<table>, as the log's tabletop.evt.<game>.<table>
# stored under a partition token, as the log stores its messages (the same transform)
STORED = "bench.raw.{{partition(16,1,2)}}.{{wildcard(1)}}.{{wildcard(2)}}"
WRITER = "Tabletop-Writer"
TIMEOUT = 5.0  # the worker's append timeout (EventStore's default)
FLAVOURS = ("lean", "api")


def request_subject(flavour: str, size: int, game: str, table: str) -> str:
    """Where the bench asks `flavour`'s responder to append a body of `size` bytes."""
    return f"bench.{flavour}.cmd.{size}.{game}.{table}"


class _PubAck(msgspec.Struct):
    seq: int = 0
    error: dict[str, Any] | None = None


_ack = msgspec.json.Decoder(_PubAck)


class Tables:
    """Each table's last sequence and lock, as the worker keeps them (its cache and locks)."""

    def __init__(self) -> None:
        self.last: dict[str, int] = {}
        self.locks: dict[str, asyncio.Lock] = {}
        self.ids = itertools.count()  # a message id per command (the worker: the command's id)

    def lock(self, key: str) -> asyncio.Lock:
        lock = self.locks.get(key)
        if lock is None:
            lock = self.locks[key] = asyncio.Lock()
        return lock


def parse(subject: str) -> tuple[int, str, str]:
    """(body size, game, table) of a request subject."""
    _, _, _, size, game, table = subject.split(".")
    return int(size), game, table


def answer(seq: int, error: dict[str, Any] | None) -> bytes:
    if error is not None:
        return b'{"ok":false,"error":{"code":"conflict","message":"%s"}}' % str(error).encode()
    return b'{"ok":true,"version":%d}' % seq


async def serve_lean(url: str, user: str, password: str) -> None:
    nc = FastClient()
    await nc.connect(url, user=user, password=password, name="bench-raw-lean")
    tables = Tables()
    in_flight = Background()

    async def handle(subject: str, reply: str, data: bytes) -> None:
        size, game, table = parse(subject)
        key = f"{game}.{table}"
        async with tables.lock(key):
            header_block = (
                f"NATS/1.0\r\nNats-Msg-Id: {key}.{next(tables.ids)}\r\n"
                f"Nats-Expected-Last-Subject-Sequence: {tables.last.get(key, 0)}\r\n"
                f"{WRITER}: bench-raw-{game}\r\nNats-Expected-Stream: {STREAM}\r\n\r\n"
            ).encode()
            msg = await request_with_headers(
                nc, f"bench.raw.{game}.{table}", data.ljust(size), header_block, TIMEOUT
            )
            ack = _ack.decode(msg.data)
            if ack.error is None:
                tables.last[key] = ack.seq
        await nc.publish(reply, answer(ack.seq, ack.error))

    def arrived(subject: bytes, reply: bytes, data: bytes, headers: bytes | None) -> None:
        in_flight.start(handle(subject.decode(), reply.decode(), data))

    await nc.subscribe_taking("bench.lean.cmd.>", arrived)
    await nc.flush()


async def serve_api(url: str, user: str, password: str) -> None:
    nc = await nats.connect(url, user=user, password=password, name="bench-raw-api")
    js = nc.jetstream()
    tables = Tables()
    in_flight = Background()

    async def handle(msg: Msg) -> None:
        size, game, table = parse(msg.subject)
        key = f"{game}.{table}"
        async with tables.lock(key):
            headers = {
                "Nats-Msg-Id": f"{key}.{next(tables.ids)}",
                "Nats-Expected-Last-Subject-Sequence": str(tables.last.get(key, 0)),
                WRITER: f"bench-raw-{game}",
            }
            try:
                ack = await js.publish(
                    f"bench.raw.{game}.{table}",
                    msg.data.ljust(size),
                    timeout=TIMEOUT,
                    stream=STREAM,
                    headers=headers,
                )
                seq, error = ack.seq, None
            except nats.js.errors.APIError as err:
                seq, error = 0, {"code": err.err_code}
            else:
                tables.last[key] = seq
        await msg.respond(answer(seq, error))

    async def on_request(msg: Msg) -> None:
        in_flight.start(handle(msg))

    await nc.subscribe("bench.api.cmd.>", cb=on_request)
    await nc.flush()


async def serve(flavour: str, url: str) -> None:
    start: Callable[[str, str, str], Awaitable[None]] = serve_lean if flavour == "lean" else serve_api
    await start(url, os.environ["NATS_USER"], os.environ["NATS_PASSWORD"])
    print("ready", flush=True)
    await asyncio.Event().wait()


def main() -> None:
    url, flavour = sys.argv[1], sys.argv[2]
    assert flavour in FLAVOURS, flavour
    try:
        import uvloop
    except ImportError:
        asyncio.run(serve(flavour, url))
    else:
        uvloop.run(serve(flavour, url))


if __name__ == "__main__":
    main()
