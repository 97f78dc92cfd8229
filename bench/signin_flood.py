"""A sign-in flood against the embedded nats-server as `tabletop up` configures it, with two
auth replicas (`tabletop auth` processes, so that each one's memory can be read) at their
default settings (argon2id at 64 MiB and 3 passes, two hashing threads, the default limits).

From one client, at once: `--fresh` sign-ins with fresh names (each would register a name) and
`--wrong` sign-ins with wrong passwords for one registered name. Throughout, a registered player
(a client of its own, from the same address, which signed in to it once before the flood)
signs in with its password again and again, one sign-in after another, and another with the
session token it got before the flood (as the CLI, a second browser tab or a reconnect does);
their times are printed as min/median/max, with the names the flood registered and each auth
replica's peak memory.

    python bench/signin_flood.py
    python bench/signin_flood.py --fresh 400 --wrong 400 --json out.json
"""

from __future__ import annotations

import argparse
import asyncio
import json
import shutil
import statistics
import sys
import tempfile
import time
import uuid
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from services import compose
from services.auth.accounts import ACCOUNTS_BUCKET
from services.auth.names import name_key
from services.client import Client
from shared.bus.connection import Bus
from shared.bus.credentials import Credentials
from shared.logs import configure_logging
from shared.settings import load_settings
from tests.crowd import Outcome, crowd, sign_in
from tests.processes import ServiceProcess, Services, auth_env

PASSWORD = "the honest player's password"


def peak_memory_mib(process: ServiceProcess) -> float:
    """The process's peak resident memory so far (Linux's VmHWM)."""
    for line in Path(f"/proc/{process.pid}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def refusals(services: Services, replicas: list[ServiceProcess]) -> dict[str, int]:
    """The refused sign-ins the replicas logged, by reason, summed."""
    total: dict[str, int] = {}
    for replica in replicas:
        for line in (services.log_dir / f"{replica.label}.log").read_text().splitlines():
            if '"sign_ins_refused"' in line:
                for reason, count in json.loads(line)["reasons"].items():
                    total[reason] = total.get(reason, 0) + count
    return dict(sorted(total.items()))


async def until_ready(services: Services, process: ServiceProcess, timeout: float = 60.0) -> None:
    log = services.log_dir / f"{process.label}.log"
    deadline = time.monotonic() + timeout
    while b'"auth_ready"' not in (log.read_bytes() if log.exists() else b""):
        if process.process.poll() is not None or time.monotonic() > deadline:
            raise SystemExit(f"{process.label} did not start; see {log}")
        await asyncio.sleep(0.05)


async def flood(fresh: int, wrong: int, folder: Path) -> dict[str, object]:
    settings = load_settings(data_dir=str(folder / "data"), credentials_dir=str(folder / "credentials"))
    with compose.embedded_server(settings) as server:
        secrets = server.secrets
        services = Services(auth_env(server.url, secrets), folder / "logs")
        replicas = [services.start("auth") for _ in range(compose.AUTH_REPLICAS)]
        try:
            for replica in replicas:
                await until_ready(services, replica)
            url = server.url
            run = uuid.uuid4().hex[:6]
            honest, victim = f"honest{run}", f"victim{run}"
            for name in (honest, victim):
                await quietly(url, name)  # registered
            quiet = await quietly(url, honest)  # its address now known
            memory_before = [peak_memory_mib(r) for r in replicas]

            # the honest player is a client of its own (a process), not slowed by the flood's
            stop = folder / "flood-over"
            player = await asyncio.create_subprocess_exec(
                sys.executable, __file__, "--player", url, honest, str(stop), stdout=asyncio.subprocess.PIPE
            )
            token = await session_token(url, honest)
            token_player = await asyncio.create_subprocess_exec(
                sys.executable,
                __file__,
                "--token",
                url,
                honest,
                str(stop),
                token,
                stdout=asyncio.subprocess.PIPE,
            )
            assert player.stdout is not None and token_player.stdout is not None
            await player.stdout.readline()  # they have begun
            await token_player.stdout.readline()
            names = [f"fresh{run}x{i}" for i in range(fresh)]
            start = time.monotonic()
            outcomes = await asyncio.gather(
                crowd(url, names, "a fresh name's password"),
                crowd(url, [victim] * wrong, "not the victim's password"),
            )
            flood_seconds = time.monotonic() - start
            stop.touch()
            honest_times = [Outcome(honest, ok, took) for ok, took in json.loads(await player.stdout.read())]
            token_times = [
                Outcome(honest, ok, took) for ok, took in json.loads(await token_player.stdout.read())
            ]
            await player.wait()
            await token_player.wait()
            admin = await Bus.connect(
                url, settings, name="bench-accounts", wait=10, credentials=secrets.credentials("auth")
            )
            try:
                bucket = await admin.bucket(ACCOUNTS_BUCKET, description="tabletop: players' accounts")
                keys = await bucket.entries()
            finally:
                await admin.close()
            times = [o.seconds for o in honest_times]
            peak_after = [round(peak_memory_mib(r)) for r in replicas]
            services.stop_all()  # the last counts of refusals are logged on the way out
            return {
                "fresh": fresh,
                "wrong": wrong,
                "flood_s": round(flood_seconds, 2),
                "fresh_signed_in": sum(o.signed_in for o in outcomes[0]),
                "wrong_signed_in": sum(o.signed_in for o in outcomes[1]),
                "names_registered": sum(name_key(n) in keys for n in names),
                "honest_quiet_s": round(quiet.seconds, 3),
                "honest_sign_ins": len(times),
                "honest_refused": sum(not o.signed_in for o in honest_times),
                "honest_min_s": round(min(times), 3),
                "honest_median_s": round(statistics.median(times), 3),
                "honest_max_s": round(max(times), 3),
                "honest_each_s": [
                    round(t, 2) if o.signed_in else f"refused after {t:.2f}"
                    for o, t in zip(honest_times, times)
                ],
                "token_sign_ins": len(token_times),
                "token_refused": sum(not o.signed_in for o in token_times),
                "token_min_s": round(min(o.seconds for o in token_times), 3),
                "token_median_s": round(statistics.median(o.seconds for o in token_times), 3),
                "token_max_s": round(max(o.seconds for o in token_times), 3),
                "auth_peak_mib_before": [round(m) for m in memory_before],
                "auth_peak_mib": peak_after,
                "refused_by_reason": refusals(services, replicas),
            }
        finally:
            services.stop_all()


async def quietly(url: str, name: str) -> Outcome:
    """A sign-in before the flood; a few tries, for a machine busy with other work."""
    for _ in range(5):
        outcome = await sign_in(url, name, PASSWORD)
        if outcome.signed_in:
            return outcome
    raise SystemExit(f"{name} cannot sign in even before the flood: is the machine too busy?")


async def session_token(url: str, name: str) -> str:
    """A session token of `name`, as the CLI and the browser get one after a password sign-in."""
    settings = load_settings()
    bus = await Bus.connect(
        url, settings, name="bench-token", wait=10, credentials=Credentials.player(name, PASSWORD)
    )
    try:
        reply = await Client(bus).session(name, {})
    finally:
        await bus.close()
    return str(reply["token"])


async def honest_player(url: str, name: str, stop: Path, token: str = "") -> None:
    """One sign-in after another (with the password, or `token`) until `stop` exists (and at
    least one); prints [[signed_in, seconds], ...]."""
    print("begun", flush=True)
    outcomes = [await sign_in(url, name, PASSWORD, token=token)]
    while not stop.exists():
        outcomes.append(await sign_in(url, name, PASSWORD, token=token))
    print(json.dumps([[o.signed_in, o.seconds] for o in outcomes]), flush=True)


def main() -> None:
    if sys.argv[1:2] == ["--player"]:  # the honest player's own process
        asyncio.run(honest_player(sys.argv[2], sys.argv[3], Path(sys.argv[4])))
        return
    if sys.argv[1:2] == ["--token"]:  # the same player's token sign-ins, a process of their own
        asyncio.run(honest_player(sys.argv[2], sys.argv[3], Path(sys.argv[4]), sys.argv[5]))
        return
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--fresh", type=int, default=200, help="sign-ins with fresh names")
    parser.add_argument("--wrong", type=int, default=200, help="sign-ins with a wrong password")
    parser.add_argument("--json", type=Path, help="also write the figures here")
    parser.add_argument("--keep", action="store_true", help="keep the server's and replicas' logs")
    args = parser.parse_args()
    configure_logging(fmt="console", level="warning")
    folder = Path(tempfile.mkdtemp(prefix="tabletop-flood-"))
    try:
        figures = asyncio.run(flood(args.fresh, args.wrong, folder))
    finally:
        if args.keep:
            print(f"logs in {folder}")
        else:
            shutil.rmtree(folder, ignore_errors=True)
    for key, value in figures.items():
        print(f"{key:>22}  {value}")
    if args.json:
        args.json.write_text(json.dumps(figures, indent=2) + "\n")


if __name__ == "__main__":
    main()
