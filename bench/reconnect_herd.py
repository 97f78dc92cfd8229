"""A herd of reconnects: after a restart of the embedded server, how long until every connected
player is signed in again.

The server as `tabletop up` runs it (compose.embedded_server: authentication through the auth
callout, JetStream syncing every write), the auth service as its own process (`tabletop auth`)
at `tabletop up`'s password cost (argon2id, 64 MiB, 3 passes). The players register, ask for a
session token, and connect with it as the CLI does (nats-py, a reconnect every 0.5 s); then the
server is stopped (SIGTERM) and started again on the same port. The clock runs from the moment
the new server listens until every player has reconnected, each presenting its token: an HMAC
and a bucket read in the auth service, never an argon2 hash (the count is printed).

    python bench/reconnect_herd.py                 # 100 players
    python bench/reconnect_herd.py --players 300
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from services import compose
from services.client import Client
from shared.bus.connection import Bus
from shared.bus.credentials import Credentials
from shared.bus.errors import SignInRefused, Unavailable
from shared.bus.server import EmbeddedServer
from shared.logs import configure_logging
from shared.settings import Settings, load_settings
from tests.processes import TABLETOP, cli_env

PASSWORD = "a herd of reconnects"


async def until_signed_in(url: str, settings: Settings, timeout: float = 60.0) -> None:
    """Until a guest can sign in: the auth service answers."""
    deadline = time.monotonic() + timeout
    while True:
        try:
            await (
                await Bus.connect(url, settings, name="herd-probe", wait=2, credentials=Credentials.guest())
            ).close()
            return
        except (SignInRefused, Unavailable):
            if time.monotonic() > deadline:
                raise
            await asyncio.sleep(0.2)


async def token_of(url: str, settings: Settings, name: str) -> str:
    bus = await Bus.connect(
        url, settings, name="herd-register", wait=10, credentials=Credentials.player(name, PASSWORD)
    )
    try:
        return str((await Client(bus).session(name, {}))["token"])
    finally:
        await bus.close()


async def auth_counts(bus: Bus) -> dict[str, int]:
    counts: dict[str, int] = {}
    for body in await bus.gather("$SRV.STATS.tabletop-auth", wait=0.5):
        for endpoint in json.loads(body)["endpoints"]:
            for key, value in (endpoint.get("data") or {}).items():
                counts[key] = counts.get(key, 0) + value
    return counts


async def herd(players: int, root: Path, *, passwords: bool) -> None:
    settings = load_settings(data_dir=str(root), credentials_dir=str(root / "credentials"))
    server = compose.embedded_server(settings).start()
    env = cli_env(
        NATS_URL=server.url,
        TABLETOP_DATA=str(root),
        TABLETOP_CREDENTIALS=str(root / "credentials"),
        TABLETOP_LOG_LEVEL="warning",
    )
    for name in ("NATS_USER", "NATS_PASSWORD", "NATS_PASSWORD_FILE"):
        env.pop(name, None)
    for name in ("TABLETOP_PASSWORD_HASH_MEMORY_KIB", "TABLETOP_PASSWORD_HASH_PASSES"):
        env.pop(name, None)  # `tabletop up`'s cost
    with open(root / "auth.log", "ab") as log:
        auth = subprocess.Popen([*TABLETOP, "auth"], env=env, stdout=log, stderr=log)
    buses: list[Bus] = []
    try:
        await until_signed_in(server.url, settings)
        names = [f"herd{i:04d}" for i in range(players)]
        started = time.monotonic()
        tokens: list[str] = []
        for name in names:  # one at a time: each registration is an argon2 hash
            tokens.append(await token_of(server.url, settings, name))
        print(f"{players} players registered with a token in {time.monotonic() - started:.1f} s")

        async def connect(name: str, token: str) -> Bus:
            credentials = (
                Credentials.player(name, PASSWORD) if passwords else Credentials.session(name, token)
            )
            return await Bus.connect(
                server.url, settings, name=f"herd-{name}", wait=60, credentials=credentials
            )

        if passwords:  # all at once, a hundred argon2 checks would outlast the server's patience
            buses = [await connect(n, t) for n, t in zip(names, tokens, strict=True)]
        else:
            buses = list(await asyncio.gather(*(connect(n, t) for n, t in zip(names, tokens, strict=True))))
        watcher = await Bus.connect(
            server.url, settings, name="herd-stats", credentials=server.secrets.credentials("auth")
        )
        buses.append(watcher)
        before = await auth_counts(watcher)
        print(f"{players} players connected with their {'passwords' if passwords else 'tokens'}; restarting")

        stopping = time.monotonic()
        port = server.port
        server.stop()
        server = EmbeddedServer(
            server.data_dir,
            port=port,
            exact_port=True,
            sync_always=settings.sync_always,
            secrets=server.secrets,
        ).start()
        listening = time.monotonic()
        back: dict[int, float] = {}
        while len(back) < players:
            now = time.monotonic()
            for i, bus in enumerate(buses[:players]):
                if i not in back and bus.watch.reconnects:
                    back[i] = now - listening
            if now - listening > 120:
                break
            await asyncio.sleep(0.01)
        after = await auth_counts(watcher)
        times = sorted(back.values())
        print(f"server down {listening - stopping:.2f} s (stop, then start on the same port)")
        if times:
            print(
                f"{len(times)} of {players} players back (waited up to 120 s); the last "
                f"{times[-1]:.2f} s after the new server listened (median {statistics.median(times):.2f} s, "
                f"90% {times[int(0.9 * (len(times) - 1))]:.2f} s)"
            )
        else:
            print(f"none of {players} players back within 120 s")
        moved = {key: after.get(key, 0) - before.get(key, 0) for key in after}
        print(
            f"auth service meanwhile: {moved.get('token_sign_ins', 0)} token sign-ins, "
            f"{moved.get('password_hashes', 0)} password hashes"
        )
    finally:
        await asyncio.gather(*(b.close() for b in buses), return_exceptions=True)
        auth.terminate()
        auth.wait(15)
        server.stop()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=100)
    parser.add_argument("--passwords", action="store_true", help="players sign in with passwords, not tokens")
    args = parser.parse_args()
    configure_logging(fmt="console", level="error")
    os.environ.pop("NATS_URL", None)
    with tempfile.TemporaryDirectory(prefix="tabletop-herd-") as tmp:
        asyncio.run(herd(args.players, Path(tmp), passwords=args.passwords))


if __name__ == "__main__":
    main()
