"""`tabletop`: run the services, and play from a terminal.

Services:  up | auth | worker GAME | table-projector | history-projector | bots | web |
           rebuild-views | verify | status
Players:   login NAME | logout | passwd | games | lobby GAME | new GAME | join TABLE | leave TABLE |
           start TABLE | act TABLE JSON | view TABLE | watch TABLE | replay TABLE |
           play GAME --bots N
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import dataclasses
import getpass
import json
import os
import random
import secrets
import shutil
import sys
import time
import uuid
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import msgspec

from services import VERSION, compose, tournament, up
from services.board_text import render, result_lines, step_lines
from services.client import Client, RequestFailed, play_with_bots
from services.registry import games, get
from services.results_projector import maintenance as results_maintenance
from services.results_projector.service import SERVICE_NAME as RESULTS_SERVICE
from services.runtime import nats_url, service_credentials, stop_on_signals
from services.runtime import run as runtime_run
from services.supervisor import SERVICE_NAME as SUPERVISOR_SERVICE
from services.table_projector import maintenance
from services.web.server import serve_web
from shared.bus.connection import FAILURES, Bus, settings_credentials
from shared.bus.credentials import (
    GUEST,
    ISSUER_FILE,
    ROUTE_USER,
    SERVICE_ROLES,
    Credentials,
    ServerSecrets,
    name_problem,
    write_secret,
)
from shared.bus.errors import Forbidden, ServerTooOld, SignInRefused, StoreInUse, Unavailable
from shared.bus.server import auth_config, helm_route_values, route_config, route_problem
from shared.games import fairness
from shared.games.table import TableDecider
from shared.logs import configure_logging
from shared.messages import subjects
from shared.settings import load_settings

# --- output -------------------------------------------------------------------------------------


def dump(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, sort_keys=False)


def show_view(reply: dict[str, Any], as_json: bool) -> None:
    if as_json:
        print(dump(reply))
        return
    print("\n".join(render(reply)))


def show_result(result: dict[str, Any]) -> None:
    print("\n".join(result_lines(result)))


def show_reply(reply: dict[str, Any], as_json: bool) -> int:
    if as_json:
        print(dump(reply))
    elif reply.get("ok"):
        print(f"ok, version {reply['version']}")
    else:
        print(f"refused ({reply['error']['code']}): {reply['error']['message']}")
    return 0 if reply.get("ok") else 1


# --- connecting ---------------------------------------------------------------------------------


def game_of(table: str, given: str | None) -> str:
    """The game of a table: `--game`, else the table id's prefix (`tabletop new` makes ids
    `<game>-<hex>`)."""
    if given:
        return given
    prefix = table.split("-", 1)[0]
    if prefix in games():
        return prefix
    raise SystemExit(f"cannot tell the game of table {table!r}: add --game GAME")


def config_dir() -> Path:
    """The user's tabletop config folder (sessions, the bots' passwords)."""
    base = os.environ.get("XDG_CONFIG_HOME") or str(Path.home() / ".config")
    return Path(base) / "tabletop"


def read_json_secret(name: str) -> dict[str, Any]:
    path = config_dir() / name
    return json.loads(path.read_text()) if path.exists() else {}


def write_json_secret(name: str, value: dict[str, Any]) -> None:
    write_secret(config_dir() / name, json.dumps(value, indent=2) + "\n")


SESSION = "session.json"
BOTS = "bots.json"
# What `tabletop credentials` writes for a cluster's routes, and docker-compose.yml's nodes.
ROUTES_CONF = "routes.conf"
HELM_ROUTE_VALUES = "routes-values.yaml"
COMPOSE_ROUTES = ("nats-1:6222", "nats-2:6222", "nats-3:6222")


def checked_name(name: str) -> str:
    problem = name_problem(name)
    if problem:
        raise SystemExit(f"cannot sign in as {name!r}: {problem}")
    return name


def ask_password(prompt: str) -> str:
    """`TABLETOP_PASSWORD`, else asked at the terminal."""
    if os.environ.get("TABLETOP_PASSWORD"):
        return os.environ["TABLETOP_PASSWORD"]
    if not sys.stdin.isatty():
        raise SystemExit("no terminal to ask the password: set TABLETOP_PASSWORD")
    return getpass.getpass(prompt)


def credentials_for(name: str) -> Credentials:
    """`name` signed in with `TABLETOP_PASSWORD`, else with the session's token if the session
    is `name`'s, else with a password asked at the terminal."""
    session = read_json_secret(SESSION)
    if not os.environ.get("TABLETOP_PASSWORD") and session.get("player") == name and session.get("token"):
        return Credentials.session(name, str(session["token"]))
    if not os.environ.get("TABLETOP_PASSWORD") and not sys.stdin.isatty():
        raise SystemExit(f"no session for {name}: `tabletop login {name}`, or set TABLETOP_PASSWORD")
    return Credentials.player(name, ask_password(f"password for {name}: "))


def identity(args: argparse.Namespace, *, may_watch: bool = False) -> tuple[Credentials, str]:
    """(credentials, player) of a player command: `--as NAME` or the session's player, signed
    in with its session token or its password; a guest watching as spectator when nobody is
    signed in and the command only looks. With `NATS_USER` set (an operator), that user acts
    as `--as`."""
    settings = load_settings()
    session = read_json_secret(SESSION)
    name = getattr(args, "player", None) or session.get("player")
    if settings.nats_user:
        return settings_credentials(settings), name or _user()
    if not name or (may_watch and name.lower().startswith(GUEST)):
        if not may_watch:
            raise SystemExit("sign in first: `tabletop login NAME` (or --as NAME with TABLETOP_PASSWORD set)")
        return Credentials.guest(name or ""), subjects.SPECTATOR
    return credentials_for(checked_name(name)), name


async def connect_client(settings: Any, credentials: Credentials, *, name: str) -> Bus:
    return await Bus.connect(nats_url(settings), settings, name=name, wait=5.0, credentials=credentials)


def run_client(
    action: Callable[[Client], Awaitable[int]],
    credentials: Credentials | None = None,
) -> int:
    """Run `action` with a client signed in as `credentials` (default: a guest)."""
    settings = load_settings()
    configure_logging(fmt=settings.log_format or "console", level="warning")
    if credentials is None:
        credentials = settings_credentials(settings) if settings.nats_user else Credentials.guest()

    async def main() -> int:
        url = nats_url(settings)
        try:
            bus = await connect_client(settings, credentials, name="tabletop-cli")
        except Unavailable:
            print(f"No NATS at {url}. Start everything with `tabletop up`, or set NATS_URL.", file=sys.stderr)
            return 2
        except SignInRefused:
            if credentials.token:
                print(
                    f"Your session as {credentials.user!r} has expired or was revoked: sign in "
                    f"again with `tabletop login {credentials.user}`.",
                    file=sys.stderr,
                )
            else:
                print(
                    f"Sign-in refused for {credentials.user!r}: wrong password, or too many "
                    "failed attempts (wait a little).",
                    file=sys.stderr,
                )
            return 1
        try:
            return await action(Client(bus))
        except RequestFailed as err:
            print(f"{err.code}: {err.message}", file=sys.stderr)
            return 1
        except Forbidden as err:
            print(f"forbidden: {err} (a player acts and looks only as itself)", file=sys.stderr)
            return 1
        except Unavailable as err:
            print(f"No answer ({err}). Are the services running? (`tabletop up`)", file=sys.stderr)
            return 2
        finally:
            await bus.close()

    try:
        return runtime_run(main())
    except KeyboardInterrupt:
        return 130


# --- services -----------------------------------------------------------------------------------


def cmd_up(args: argparse.Namespace) -> int:
    settings = load_settings(data_dir=args.data)
    configure_logging(fmt=settings.log_format, level=settings.log_level)
    Path(settings.data_dir).mkdir(parents=True, exist_ok=True, mode=0o700)  # new: the owner's only

    def ready(url: str, websocket_url: str, http_url: str) -> None:
        browsers = f", browsers at {websocket_url}" if websocket_url else ""
        print(
            f"tabletop is up: play in a browser at {http_url} . NATS at {url}{browsers}, "
            f"games: {', '.join(games())}. At a terminal, players sign in with `tabletop "
            f"login NAME`; service credentials are in {settings.credentials_folder}. Ctrl-C "
            "stops it.",
            file=sys.stderr,
            flush=True,
        )

    try:
        runtime_run(
            up.run_everything(
                settings, port=args.port, websocket_port=args.ws_port, ready=ready, http_port=args.http_port
            )
        )
    except StoreInUse as err:
        print(
            f"tabletop up: not started: {err}. One tabletop up per data folder: stop the "
            "other one first, or give this one another --data.",
            file=sys.stderr,
        )
        return 1
    except KeyboardInterrupt:
        pass
    return 0


def cmd_credentials(args: argparse.Namespace) -> int:
    routes = [r.strip() for r in args.routes.split(",") if r.strip()]
    problems = [p for p in map(route_problem, routes) if p] or ([] if routes else ["none given"])
    if problems:
        raise SystemExit(f"--routes: {'; '.join(problems)}")
    folder = Path(args.folder)
    secrets_ = ServerSecrets.load_or_create(folder)
    write_secret(folder / "auth.conf", auth_config(secrets_, games=games()))
    write_secret(folder / ROUTES_CONF, route_config(secrets_, routes))
    write_secret(folder / HELM_ROUTE_VALUES, helm_route_values(secrets_))
    print(
        f"service passwords ({', '.join(SERVICE_ROLES)}), the route user's ({ROUTE_USER}), the "
        f"callout's signing key ({ISSUER_FILE}), the server's accounts section (auth.conf), the "
        f"cluster's route authentication ({ROUTES_CONF}, routes to {', '.join(routes)}; "
        f"{HELM_ROUTE_VALUES} for NATS's Helm chart) are in {folder}, mode 0600; existing "
        "passwords and keys were kept"
    )
    return 0


def cmd_auth(args: argparse.Namespace) -> int:
    settings = load_settings()
    seed = compose.issuer_seed(settings)
    if seed is None:
        raise SystemExit("no issuer seed: set TABLETOP_ISSUER_SEED_FILE (docs/operations.md)")
    key = compose.session_key(settings)
    if key is None:
        raise SystemExit("no session key: set TABLETOP_SESSION_KEY_FILE (docs/operations.md)")
    compose.run_alone(compose.auth(seed, key))
    return 0


def offered(game: str) -> TableDecider:
    """The game called `game`, or the command ends saying which games there are."""
    try:
        return get(game)
    except KeyError:
        raise SystemExit(f"no game is called {game!r} (offered: {', '.join(sorted(games()))})") from None


def cmd_worker(args: argparse.Namespace) -> int:
    for game in args.games:
        offered(game)
    compose.run_alone(compose.worker(*dict.fromkeys(args.games)))
    return 0


def parse_shard(text: str) -> tuple[int, int]:
    index, sep, count = text.partition("/")
    try:
        shard = (int(index), int(count))
    except ValueError:
        raise SystemExit(f"--shard wants I/N (e.g. 0/2), not {text!r}") from None
    if not sep or not 0 <= shard[0] < shard[1] <= subjects.PARTITIONS:
        raise SystemExit(f"--shard I/N wants 0 <= I < N <= {subjects.PARTITIONS}, not {text!r}")
    return shard


def cmd_table_projector(args: argparse.Namespace) -> int:
    compose.run_alone(compose.table_projector(parse_shard(args.shard)))
    return 0


def cmd_history_projector(args: argparse.Namespace) -> int:
    compose.run_alone(compose.history_projector())
    return 0


def cmd_results_projector(args: argparse.Namespace) -> int:
    compose.run_alone(compose.results_projector(args.replica))
    return 0


def cmd_rebuild_rankings(args: argparse.Namespace) -> int:
    async def action(bus: Bus) -> int:
        folded = await results_maintenance.fold_again(bus)
        if not folded:
            print("no results projector has read the log yet: nothing to rebuild", file=sys.stderr)
            return 1
        standings = await results_maintenance.fold_the_log(bus)
        found = await results_maintenance.differences(bus, standings, games())
        for line in found:
            print(line)
        print(
            f"rankings folded again from the log by {', '.join(folded)}: {standings.results} results, "
            + (
                f"{len(found)} difference(s) from a fold of the log"
                if found
                else "equal to a fold of the log"
            ),
            file=sys.stderr,
        )
        return 1 if found else 0

    return operate(action, "rebuild-rankings")


def cmd_web(args: argparse.Namespace) -> int:
    """The web client's files alone: it needs no NATS connection of its own (the browsers
    connect to the WebSocket address it hands them)."""
    settings = load_settings()
    configure_logging(fmt=settings.log_format, level=settings.log_level)
    websocket_url = args.websocket or settings.websocket_url

    async def main() -> None:
        stop = asyncio.Event()
        stop_on_signals(stop)

        def ready(url: str) -> None:
            print(
                f"tabletop web: open {url} (browsers connect to NATS at {websocket_url})",
                file=sys.stderr,
                flush=True,
            )

        await serve_web(host=args.host, port=args.port, websocket_url=websocket_url, stop=stop, ready=ready)

    try:
        runtime_run(main())
    except KeyboardInterrupt:
        pass
    return 0


def operate(action: Callable[[Bus], Awaitable[int]], name: str) -> int:
    """Run an operator's command on its own connection. A server that refuses or does not
    answer is reported (exit 2), never a traceback."""
    settings = load_settings()
    configure_logging(fmt=settings.log_format or "console", level="warning")
    credentials = service_credentials(settings, "admin")  # the JetStream and $SRV APIs

    async def main() -> int:
        url = nats_url(settings)
        try:
            bus = await Bus.connect(url, settings, name=f"tabletop-{name}", wait=10, credentials=credentials)
        except Unavailable:
            print(f"No NATS at {url}. Start everything with `tabletop up`, or set NATS_URL.", file=sys.stderr)
            return 2
        except FAILURES as err:
            print(f"NATS at {url} refused the operator: {err}", file=sys.stderr)
            return 2
        try:
            await bus.ensure_streams()
            return await action(bus)
        except FAILURES as err:
            # refused (a storage limit, permissions) or not answered: said, not a traceback
            print(
                f"tabletop {name}: NATS at {url} refused or did not answer "
                f"({type(err).__name__}: {err or 'no answer'}); run it again once the server serves",
                file=sys.stderr,
            )
            return 2
        finally:
            await bus.close()

    return runtime_run(main())


async def table_of(bus: Bus, args: argparse.Namespace) -> tuple[str, str] | str | None:
    """The (game, table) of `--table` (None without it): its game is `--game`, else the one
    game whose log has a table of that id. A string says why there is none."""
    table = args.table
    if not table:
        return None
    if not subjects.is_id(table):
        return f"{table!r} is not a table id"
    if args.game:
        return (args.game, table) if args.game in games() else f"no game is called {args.game!r}"
    found = [g for g in await maintenance.games_of(bus, table) if g in games()]
    if len(found) == 1:
        return found[0], table
    if not found:
        return f"table {table} has no log"
    return f"table {table} is in the log of several games ({', '.join(found)}): add --game GAME"


def cmd_rebuild_views(args: argparse.Namespace) -> int:
    async def one(bus: Bus) -> int:
        only = await table_of(bus, args)
        if isinstance(only, str) or only is None:
            print(only, file=sys.stderr)
            return 1
        folded = await maintenance.rebuild_table(bus, *only)
        if not folded.version:
            print(f"table {only[1]} has no log", file=sys.stderr)
            return 1
        print(f"views of {only[1]} rebuilt at version {folded.version}", file=sys.stderr)
        return 0

    async def everything(bus: Bus) -> int:
        def progress(seq: int, last: int) -> None:
            width = 40
            bar = "#" * int((min(seq / last, 1.0) if last else 1.0) * width)
            print(f"\rrebuilding views [{bar:<{width}}] {seq}/{last}", end="", file=sys.stderr, flush=True)

        tables, read = await maintenance.rebuild_views(bus, progress)
        print(f"\nviews rebuilt: {tables} tables, {read} messages", file=sys.stderr)
        return 0

    return operate(one if args.table else everything, "rebuild")


def cmd_verify(args: argparse.Namespace) -> int:
    async def action(bus: Bus) -> int:
        only = await table_of(bus, args)
        if isinstance(only, str):
            print(only, file=sys.stderr)
            return 1
        differences = await maintenance.verify(bus, only)
        rankings = [] if only else await verify_rankings(bus)
        if args.json:
            print(dump([dataclasses.asdict(d) for d in differences] + [{"rankings": r} for r in rankings]))
        for d in differences if not args.json else ():
            print(f"{d.game} {d.table}: {d.key}: {d.why}")
        for line in rankings if not args.json else ():
            print(line)
        tables = sorted({(d.game, d.table) for d in differences})
        if not args.json:
            print(
                f"{len(tables)} table(s) differ from the log"
                if tables
                else "every view equals a fold of the log",
                file=sys.stderr,
            )
        return 1 if differences or rankings else 0

    return operate(action, "verify")


async def verify_rankings(bus: Bus) -> list[str]:
    """Where the results projectors' answers differ from a fold of the log (said on stderr
    when none has read the log, or none answers: then nothing is claimed about them)."""
    if not await bus.service_instances(RESULTS_SERVICE, window=1.0):
        print("rankings: no results projector answers; not checked", file=sys.stderr)
        return []
    standings = await results_maintenance.fold_the_log(bus)
    try:
        found = await results_maintenance.differences(bus, standings, games(), timeout=10)
    except Unavailable as err:
        print(f"rankings: not checked ({err})", file=sys.stderr)
        return []
    if not found:
        print("every ranking and player's tables equal a fold of the log", file=sys.stderr)
    return found


async def store_space(bus: Bus) -> dict[str, int | None]:
    """The services' account's JetStream storage: bytes used, its limit (None: none set), and
    the bytes free on the embedded server's filesystem (None when NATS runs elsewhere)."""
    info = await bus.js.account_info()
    limit = info.limits.max_storage
    settings = load_settings()
    free = None
    if not settings.nats_url:
        folder = Path(settings.data_dir) / "nats"
        with contextlib.suppress(OSError):
            free = shutil.disk_usage(folder if folder.exists() else settings.data_dir).free
    return {"used": info.storage, "limit": limit if limit and limit > 0 else None, "free": free}


def store_line(store: dict[str, int | None]) -> str:
    def size(n: int | None) -> str:
        return "?" if n is None else f"{n / 2**20:.1f} MiB"

    used, limit, free = store["used"], store["limit"], store["free"]
    line = f"store: {size(used)} used of {size(limit) if limit else 'no limit'}"
    if limit and used is not None and used >= limit * 0.95:
        line += " (nearly full: commands are refused `storage_full` at the limit)"
    return line + (f"; {size(free)} free on its filesystem" if free is not None else "")


def show_processes(replica: dict[str, Any]) -> None:
    """The processes a `tabletop up` supervises, from its micro service's stats."""
    endpoints = replica.get("endpoints") or [{}]
    processes = (endpoints[0].get("data") or {}).get("processes") or {}
    print("processes of tabletop up:")
    for name, process in processes.items():
        pid = process.get("pid") or "down"
        line = f"  {name:<34} pid {pid:<8} restarts {process.get('restarts', 0)}"
        if process.get("last_failure"):
            when = time.strftime("%H:%M:%S", time.localtime(process.get("last_failure_at", 0)))
            line += f"  (last: {process['last_failure']}, at {when})"
        print(line)


def cmd_status(args: argparse.Namespace) -> int:
    async def action(bus: Bus) -> int:
        services = await maintenance.service_stats(bus)
        lag = await maintenance.partition_lag(bus)
        lasts = await bus.events.last_seqs()
        last = sum(lasts.values())
        store = await store_space(bus)
        if args.json:
            print(
                dump(
                    {
                        "log_last_seq": last,  # the messages of every stream
                        "log_streams": lasts,
                        "store": store,
                        "services": services,
                        "partitions": {
                            str(p): None if v is None else {"pending": v[0], "unacknowledged": v[1]}
                            for p, v in lag.items()
                        },
                    }
                )
            )
            return 0
        print(f"log: {last} messages" + (f" in {len(lasts)} streams" if len(lasts) > 1 else ""))
        print(store_line(store))
        for name, replicas in services.items():
            counts: dict[str, int] = {}
            for replica in replicas:
                endpoints = replica.get("endpoints") or []
                for endpoint in endpoints:
                    counts["requests"] = counts.get("requests", 0) + endpoint.get("num_requests", 0)
                    counts["errors"] = counts.get("errors", 0) + endpoint.get("num_errors", 0)
                # a replica's own counts: every endpoint of it carries the same
                for key, value in ((endpoints[0].get("data") or {}) if endpoints else {}).items():
                    if isinstance(value, int):
                        counts[key] = counts.get(key, 0) + value
            shown = ", ".join(f"{k} {v}" for k, v in counts.items())
            print(f"{name:<36} {len(replicas)} replica(s)  {shown}")
        for replica in services.get(SUPERVISOR_SERVICE, []):
            show_processes(replica)
        behind = {p: v for p, v in lag.items() if v is not None}
        print("table projector lag by partition (to deliver / unacknowledged):")
        print(
            "  " + "  ".join(f"p{p}: {v[0]}/{v[1]}" for p, v in behind.items())
            if behind
            else "  no table projector has run"
        )
        return 0

    return operate(action, "status")


def cmd_log_leaders(args: argparse.Namespace) -> int:
    async def action(bus: Bus) -> int:
        before = await bus.events.leaders()
        nodes = {
            stream: sorted(n for n in {leader, *others} if n) for stream, (leader, others) in before.items()
        }
        after = await bus.events.spread_leaders() if args.spread else {s: v[0] for s, v in before.items()}
        if args.json:
            print(dump({stream: {"leader": after[stream], "nodes": nodes[stream]} for stream in before}))
            return 0
        for stream, (leader, _) in before.items():
            now = after[stream]
            moved = f" (was {leader})" if now != leader else ""
            on = f"leader {now}{moved}, on {', '.join(nodes[stream])}" if now else "one server"
            print(f"{stream:<20} {on}")
        return 0

    return operate(action, "log-leaders")


# --- players ------------------------------------------------------------------------------------


def parse_options(pairs: list[str]) -> dict[str, Any]:
    options: dict[str, Any] = {}
    for pair in pairs:
        key, sep, raw = pair.partition("=")
        if not sep:
            raise SystemExit(f"--option wants key=value, not {pair!r}")
        try:
            options[key] = json.loads(raw)
        except json.JSONDecodeError:
            options[key] = raw  # a bare word is a string
    return options


def cmd_games(args: argparse.Namespace) -> int:
    for name, decider in games().items():
        g = decider.game
        if args.json:
            print(
                dump(
                    {
                        "game": name,
                        "title": g.title,
                        "min_players": g.min_players,
                        "max_players": g.max_players,
                        "options": msgspec.to_builtins(g.options()),
                    }
                )
            )
        else:
            print(f"{name:<16} {g.title} ({g.min_players}-{g.max_players} players)")
    return 0


def rating_text(record: dict[str, Any]) -> str:
    """A rating as a person reads it: `31.2` (provisional ones marked `?`)."""
    return f"{record['rating']:.1f}{'?' if record['provisional'] else ''}"


def cmd_profile(args: argparse.Namespace) -> int:
    async def action(client: Client) -> int:
        profile = await client.profile(args.name)
        if args.json:
            print(dump(profile))
            return 0
        if not profile["games"] and not profile["recent"]:
            print(f"{args.name} has not finished a table yet")
            return 0
        print(f"{profile['player']}, playing since {profile['since'] or '?'}")
        for game, record in profile["games"].items():
            print(
                f"  {game:<16} rating {rating_text(record):<7} played {record['played']}, won {record['won']}"
            )
        if profile["recent"]:
            print("latest tables:")
        for entry in profile["recent"]:
            place = "abandoned" if entry["rank"] is None else f"rank {entry['rank']}"
            change = ""
            if entry["rated"]:
                change = f", rating {entry['rating_before']:.1f} -> {entry['rating_after']:.1f}"
            print(f"  {entry['ended_at'][:16]} {entry['game']:<14} {entry['table']}: {place}{change}")
        return 0

    return run_client(action)


def cmd_rankings(args: argparse.Namespace) -> int:
    offered(args.game)

    async def action(client: Client) -> int:
        page = await client.rankings(args.game, after=args.after, limit=args.limit)
        if args.json:
            print(dump(page))
            return 0
        if not page["players"] and not args.after:
            print(f"nobody is rated at {args.game} yet")
        for p in page["players"]:
            print(
                f"{p['rank']:>4}. {p['player']:<24} {rating_text(p):<7} played {p['played']}, won {p['won']}"
            )
        if page.get("next") is not None:
            print(f"more: tabletop rankings {args.game} --after {page['next']}")
        return 0

    return run_client(action)


def cmd_lobby(args: argparse.Namespace) -> int:
    async def action(client: Client) -> int:
        lobby = await client.lobby(args.game, limit=args.limit, status=args.status, after=args.after)
        if args.json:
            print(dump(lobby))
            return 0
        if not lobby["tables"] and not args.after:
            print(f"no open or running {args.game} table; `tabletop new {args.game}` makes one")
        for t in lobby["tables"]:
            print(
                f"{t['table']:<40} {t['status']:<8} {len(t['seats'])}/{t['seat_count']} "
                f"{', '.join(t['seats'])}"
            )
        if lobby.get("next"):
            print(f"more: tabletop lobby {args.game} --after '{lobby['next']}'")
        return 0

    return run_client(action)


def cmd_new(args: argparse.Namespace) -> int:
    credentials, player = identity(args)
    offered(args.game)
    table = args.table or f"{args.game}-{uuid.uuid4().hex[:12]}"
    body: dict[str, Any] = {
        "type": "create",
        "options": parse_options(args.option),
        "entropy": fresh_entropy(),
    }
    if args.seats:
        body["seats"] = args.seats

    async def action(client: Client) -> int:
        reply = await client.command(args.game, table, player, body)
        if args.json:
            print(dump({"table": table, **reply}))
        elif reply.get("ok"):
            print(table)
        else:
            return show_reply(reply, False)
        return 0 if reply.get("ok") else 1

    return run_client(action, credentials)


def fresh_entropy() -> str:
    """This player's own randomness for a table's seed (docs/fairness.md): sent with every
    create and join, so that the service alone cannot choose the draws."""
    return secrets.token_hex(32)


def simple_command(kind: str) -> Callable[[argparse.Namespace], int]:
    def run(args: argparse.Namespace) -> int:
        credentials, player = identity(args)
        game = game_of(args.table, args.game)
        body: dict[str, Any] = {"type": kind, **({"entropy": fresh_entropy()} if kind == "join" else {})}

        async def action(client: Client) -> int:
            return show_reply(await client.command(game, args.table, player, body), args.json)

        return run_client(action, credentials)

    return run


def cmd_act(args: argparse.Namespace) -> int:
    credentials, player = identity(args)
    game = game_of(args.table, args.game)
    try:
        command = json.loads(args.command)
    except json.JSONDecodeError as err:
        raise SystemExit(f"the command is not JSON: {err}") from None
    if not isinstance(command, dict):
        raise SystemExit('the command must be a JSON object, e.g. \'{"type": "join"}\'')

    async def action(client: Client) -> int:
        return show_reply(await client.command(game, args.table, player, command), args.json)

    return run_client(action, credentials)


def cmd_view(args: argparse.Namespace) -> int:
    credentials, player = identity(args, may_watch=True)
    game = game_of(args.table, args.game)

    async def action(client: Client) -> int:
        show_view(await client.view(game, args.table, player), args.json)
        return 0

    return run_client(action, credentials)


def cmd_watch(args: argparse.Namespace) -> int:
    credentials, player = identity(args, may_watch=True)
    game = game_of(args.table, args.game)

    async def action(client: Client) -> int:
        updates = client.updates(game, args.table, player)
        first = asyncio.ensure_future(anext(updates))
        current = await client.view(game, args.table, player)
        show_view(current, args.json)
        shown = current["version"]
        update = await first
        while True:
            if update["version"] > shown:
                print()
                if not args.json:
                    for step in await missed_steps(client, game, args.table, player, shown, update):
                        print("\n".join(step_lines(step)))
                show_view(update, args.json)
                shown = update["version"]
            if update["view"]["status"] == "ended":
                return 0
            update = await anext(updates)

    return run_client(action, credentials)


async def missed_steps(
    client: Client,
    game: str,
    table: str,
    viewer: str,
    shown: int,
    update: dict[str, Any],
) -> list[dict[str, Any]]:
    """The steps after version `shown` up to a pushed update: the push's own, and the ones
    before them asked of the replay when pushes were missed (a version gap)."""
    steps = [s for s in update.get("steps", []) if s["version"] > shown]
    first = steps[0]["version"] if steps else update["version"] + 1
    if first > shown + 1:
        steps = await client.replay(game, table, viewer, first=shown + 1, last=first - 1) + steps
    return steps


def cmd_replay(args: argparse.Namespace) -> int:
    credentials, player = identity(args, may_watch=True)
    game = game_of(args.table, args.game)

    async def action(client: Client) -> int:
        steps = await client.replay(game, args.table, player, first=args.first, last=args.last)
        for step in steps:
            if args.json:
                print(dump(step))
                continue
            print("\n".join(step_lines(step)))
        if steps and not args.json:
            print()
            show_view({"version": steps[-1]["version"], "view": steps[-1]["view"]}, False)
        return 0

    return run_client(action, credentials)


def cmd_verify_fairness(args: argparse.Namespace) -> int:
    """Check a finished table's draws from your replay (a spectator's if you watch): exit 0 if
    every check passed, 1 if one failed, 3 if the table cannot be checked (not ended, or
    created before tables committed to their draws)."""
    credentials, player = identity(args, may_watch=True)
    game = game_of(args.table, args.game)

    async def action(client: Client) -> int:
        steps = await client.replay(game, args.table, player, views="none")
        viewer = None if player == subjects.SPECTATOR else player
        report = fairness.check(get(game), steps, viewer)
        if args.json:
            print(dump({"passed": report.passed, **dataclasses.asdict(report)}))
        else:
            seen_as = "a spectator" if viewer is None else viewer
            print(f"{args.table}, as {seen_as} sees it:")
            for line in report.checked:
                print(f"  ok    {line}")
            for line in report.problems:
                print(f"  FAIL  {line}")
            if report.unverifiable:
                print(f"  cannot be checked: {report.unverifiable}")
            print("the draws are fair" if report.passed else "the draws are NOT shown fair")
        return 0 if report.passed else 3 if report.unverifiable else 1

    return run_client(action, credentials)


def cmd_tournament(args: argparse.Namespace) -> int:
    return tournament.run(
        args.game,
        args.bots,
        args.games,
        args.players,
        args.seed,
        None if args.budget_ms <= 0 else args.budget_ms,
        args.jobs,
        args.iterations,
        parse_options(args.option),
        args.json,
    )


def bot_credentials(bots: list[str]) -> dict[str, Credentials]:
    """Each bot signs in as itself, with a password made on its first game and kept in the
    config folder (mode 0600): the first sign-in registers it."""
    known = read_json_secret(BOTS)
    missing = [bot for bot in bots if bot not in known]
    if missing:
        known.update({bot: secrets.token_urlsafe(24) for bot in missing})
        write_json_secret(BOTS, known)
    return {bot: Credentials.player(bot, known[bot]) for bot in bots}


def cmd_chat_service(args: argparse.Namespace) -> int:
    compose.run_alone(compose.chat())
    return 0


def chat_line_text(line: dict[str, Any]) -> str:
    mark = " (spectator)" if line.get("spectator") else ""
    return f"{line['at'][11:16]} {line['player']}{mark}: {line['text']}"


def cmd_chat(args: argparse.Namespace) -> int:
    """A room's last lines, or a line said there: WHERE is a game (its lobby) or a table."""
    lobby = args.where in games() and not args.game
    game = args.where if lobby else game_of(args.where, args.game)
    table = None if lobby else args.where
    credentials, player = identity(args, may_watch=args.text is None)

    async def action(client: Client) -> int:
        if args.text is not None:
            reply = await client.say(game, table, player, args.text)
            if args.json:
                print(dump(reply))
            elif not reply.get("ok"):
                print(f"refused ({reply['error']['code']}): {reply['error']['message']}")
            return 0 if reply.get("ok") else 1
        lines = await client.chatlog(game, table, limit=args.limit)
        if args.json:
            print(dump(lines))
        elif not lines:
            print("nothing said yet")
        for line in [] if args.json else lines:
            print(chat_line_text(line))
        return 0

    return run_client(action, credentials)


def cmd_bots(args: argparse.Namespace) -> int:
    compose.run_alone(compose.bots())
    return 0


def cmd_play(args: argparse.Namespace) -> int:
    decider = offered(args.game)
    game = decider.game
    if not game.min_players <= args.bots <= game.max_players:
        raise SystemExit(f"{game.title} takes {game.min_players} to {game.max_players} players")
    # this command plays the creator's seat; the bot service (`tabletop bots`) the others
    bots = ["bot-1"]
    table = args.table or f"{args.game}-{uuid.uuid4().hex[:12]}"
    rng = random.Random(args.seed)
    options = {**parse_options(args.option), "bots": args.bots - 1}
    settings = load_settings()
    # an operator's user may act for every bot on one connection; otherwise one each
    own = {} if settings.nats_user else bot_credentials(bots)

    async def action(client: Client) -> int:
        async def print_moves(subscribed: asyncio.Event) -> None:
            async for push in client.updates(args.game, table, subjects.SPECTATOR, subscribed=subscribed):
                for step in push.get("steps", ()):
                    said = "; ".join(step["log"]) or dump(step["events"])
                    print(f"v{step['version']:<4} {step['player']}: {said}", flush=True)

        seats = {
            bot: Client(await connect_client(settings, credentials, name=f"tabletop-{bot}"))
            for bot, credentials in own.items()
        }
        if not args.quiet:
            print(
                f"table {table}: {game.title}, bot-1 here and {args.bots - 1} bots of the bot service",
                flush=True,
            )
        subscribed = asyncio.Event()
        printing = None if args.quiet else asyncio.create_task(print_moves(subscribed))
        if printing is not None:
            await subscribed.wait()
        try:
            final = await play_with_bots(
                client, args.game, table, bots, rng, options=options, seat_clients=seats
            )
        finally:
            if printing is not None:
                printing.cancel()
            for seat in seats.values():
                await seat.bus.close()
        result = final["view"].get("result", {})
        if args.json:
            print(dump({"table": table, "version": final["version"], "result": result}))
        else:
            print(f"table {table} ended at version {final['version']}")
            show_result(result)
        return 0

    return run_client(action)


def keep_session(name: str, reply: dict[str, Any]) -> None:
    """Keep the session token (never the password) of `reply` as the CLI's session."""
    write_json_secret(SESSION, {"player": name, "token": reply["token"], "expires": reply["expires"]})


def cmd_login(args: argparse.Namespace) -> int:
    name = checked_name(args.name)
    password = ask_password(f"password for {name} (a new name is registered with it): ")
    previous = read_json_secret(SESSION)

    async def action(client: Client) -> int:
        keep_session(name, await client.session(name, {}))
        if previous.get("player") == name and previous.get("token"):  # replaced: no use left
            with contextlib.suppress(RequestFailed, Unavailable):
                await client.session(name, {"revoke": str(previous["token"])})
        print(f"signed in as {name}; session kept in {config_dir() / SESSION}")
        return 0

    return run_client(action, Credentials.player(name, password))


def cmd_logout(args: argparse.Namespace) -> int:
    """Revoke the session's token on the server, then forget it: a token the server refuses is
    revoked or expired already, and one it cannot be told of expires on its own."""
    session = read_json_secret(SESSION)
    name, token = str(session.get("player") or ""), str(session.get("token") or "")
    told = True
    if name and token:
        settings = load_settings()

        async def revoke() -> bool:
            try:
                bus = await connect_client(settings, Credentials.session(name, token), name="tabletop-cli")
            except SignInRefused:
                return True  # revoked or expired already
            except Unavailable:
                return False
            try:
                await Client(bus).session(name, {"revoke": token})
                return True
            except (RequestFailed, Unavailable):
                return False
            finally:
                await bus.close()

        told = runtime_run(revoke())
    (config_dir() / SESSION).unlink(missing_ok=True)
    if told:
        print("signed out")
    else:
        print("signed out here; the server was not told (the session expires on its own)", file=sys.stderr)
    return 0


def cmd_passwd(args: argparse.Namespace) -> int:
    """Change a player's password: every session of the player is revoked, and this one
    signed in again with a new token."""
    credentials, name = identity(args)
    old = ask_password(f"current password for {name}: ")
    new = os.environ.get("TABLETOP_NEW_PASSWORD") or ""
    if not new:
        if not sys.stdin.isatty():
            raise SystemExit("no terminal to ask the new password: set TABLETOP_NEW_PASSWORD")
        new = getpass.getpass(f"new password for {name}: ")
        if getpass.getpass("the new password again: ") != new:
            raise SystemExit("the two new passwords differ; nothing changed")

    async def action(client: Client) -> int:
        reply = await client.session(name, {"password": old, "new_password": new})
        if read_json_secret(SESSION).get("player") == name:
            keep_session(name, reply)
        print(f"password changed; {reply['revoked']} session(s) of {name} signed out, this one kept")
        return 0

    return run_client(action, credentials)


# --- parser -------------------------------------------------------------------------------------


def parser() -> argparse.ArgumentParser:
    default_player = os.environ.get("TABLETOP_PLAYER") or None
    top = argparse.ArgumentParser(
        prog="tabletop",
        description="Board Game Arena-style tables of five games, event-sourced on NATS. "
        "Set NATS_URL to use an existing NATS; otherwise `tabletop up` starts one.",
    )
    top.add_argument("--version", action="version", version=f"tabletop {VERSION}")
    sub = top.add_subparsers(dest="command", required=True, metavar="COMMAND")

    def add(
        name: str,
        run: Callable[[argparse.Namespace], int],
        help: str,
        player: bool = False,
        table: bool = False,
        json_out: bool = True,
    ) -> argparse.ArgumentParser:
        p = sub.add_parser(name, help=help, description=help)
        p.set_defaults(run=run)
        if table:
            p.add_argument("table", help="the table id")
            p.add_argument("--game", help="the table's game (default: from the table id)")
        if player:
            p.add_argument(
                "--as",
                dest="player",
                default=default_player,
                help="act or look as this player, signed in with TABLETOP_PASSWORD "
                "or its session (default: env TABLETOP_PLAYER, else the "
                "`tabletop login` session; nobody signed in: watch as a guest)",
            )
        if json_out:
            p.add_argument("--json", action="store_true", help="machine-readable output")
        return p

    up = add(
        "up",
        cmd_up,
        "run everything on this machine: NATS (embedded unless NATS_URL is "
        "set), a worker per game, both projectors; Ctrl-C stops it",
        json_out=False,
    )
    up.add_argument("--data", help="data folder (default: env TABLETOP_DATA or ~/.local/share/tabletop)")
    up.add_argument(
        "--port",
        type=int,
        default=4222,
        help="port for the embedded NATS (another free one if taken; default 4222)",
    )
    up.add_argument(
        "--ws-port",
        type=int,
        default=9222,
        help="port of the WebSocket listener for browsers, on loopback (another "
        "free one if taken; default 9222)",
    )
    up.add_argument(
        "--http-port",
        type=int,
        default=8000,
        help="port of the web client, on loopback (another free one if taken; default 8000)",
    )
    creds = add(
        "credentials",
        cmd_credentials,
        "make the service users' passwords, the "
        "callout's signing key and the server config's accounts section (auth.conf) in "
        "FOLDER, for a NATS that `tabletop up` does not run (docs/operations.md)",
        json_out=False,
    )
    creds.add_argument("folder")
    creds.add_argument(
        "--routes",
        default=",".join(COMPOSE_ROUTES),
        help="the cluster's nodes as host:port of their route listeners, comma separated, for "
        f"{ROUTES_CONF} (default: docker-compose.yml's, {','.join(COMPOSE_ROUTES)})",
    )
    add("auth", cmd_auth, "run the auth callout service (sign-in of players and guests)", json_out=False)
    login = add(
        "login",
        cmd_login,
        "sign in as NAME (a new name is registered); the password "
        "from a prompt or TABLETOP_PASSWORD; the session is kept in your config folder",
        json_out=False,
    )
    login.add_argument("name")
    add("logout", cmd_logout, "sign out: the session's token is revoked and forgotten", json_out=False)
    add(
        "passwd",
        cmd_passwd,
        "change your password (the current one from a prompt or TABLETOP_PASSWORD, the new "
        "one from prompts or TABLETOP_NEW_PASSWORD); every session of yours is signed out",
        player=True,
        json_out=False,
    )
    w = add(
        "worker",
        cmd_worker,
        "run the game workers of one game or more in one process (any number of replicas)",
        json_out=False,
    )
    w.add_argument("games", nargs="+", metavar="game")
    tp = add(
        "table-projector",
        cmd_table_projector,
        "run the table views and lobby service (replicas: one per --shard)",
        json_out=False,
    )
    tp.add_argument(
        "--shard",
        default="0/1",
        metavar="I/N",
        help=f"own the partitions p with p %% N == I, of {subjects.PARTITIONS} "
        "(default 0/1: all); run N replicas 0/N .. N-1/N",
    )
    add("history-projector", cmd_history_projector, "run the replay service", json_out=False)
    rs = add(
        "results-projector",
        cmd_results_projector,
        "run the profiles and rankings service (each replica folds the whole log)",
        json_out=False,
    )
    rs.add_argument("--replica", type=int, default=1, help="this replica's number: its own durable consumer")
    web = add(
        "web",
        cmd_web,
        "serve the web client (static files; the browsers talk to NATS over WebSocket themselves)",
        json_out=False,
    )
    web.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1)")
    web.add_argument("--port", type=int, default=8000, help="port (default 8000)")
    web.add_argument(
        "--websocket",
        help="the NATS WebSocket address browsers connect to "
        "(default: env TABLETOP_WEBSOCKET_URL, else ws://127.0.0.1:9222)",
    )
    add(
        "bots",
        cmd_bots,
        "run the bot service: plays the bot seats and the seats of players "
        "who quit or ran out of time (any number of replicas)",
        json_out=False,
    )
    add(
        "chat-service",
        cmd_chat_service,
        "run the chat of every lobby and table (any number of replicas)",
        json_out=False,
    )
    ch = add(
        "chat",
        cmd_chat,
        "show the last lines said in a game's lobby (WHERE: the game) or at a table (WHERE: its id), "
        "or say TEXT there",
        player=True,
    )
    ch.add_argument("where", help="a game (its lobby's chat) or a table id")
    ch.add_argument("text", nargs="?", help="what to say (nothing: show the last lines)")
    ch.add_argument(
        "--game", help="WHERE is a table of this game (default: a game's lobby, else from the table id)"
    )
    ch.add_argument("--limit", type=int, help="how many lines to show (1 to 100, default 50)")
    rb = add(
        "rebuild-views",
        cmd_rebuild_views,
        "replay the whole log into fresh views (stop "
        "the table projectors first), or one table's (--table, while they run)",
        json_out=False,
    )
    rb.add_argument("--table", help="rebuild only this table's views")
    rb.add_argument("--game", help="the table's game (default: the game whose log has that table)")
    vf = add(
        "verify",
        cmd_verify,
        "compare every view (or one table's) with a fold of the "
        "log and print the tables that differ (exit 1 if any)",
    )
    vf.add_argument("--table", help="check only this table")
    vf.add_argument("--game", help="the table's game (default: the game whose log has that table)")
    add(
        "rebuild-rankings",
        cmd_rebuild_rankings,
        "make the results projectors fold the whole log again, then compare their rankings and "
        "every player's tables with a fold of the log here (exit 1 if any differs)",
        json_out=False,
    )
    add(
        "status",
        cmd_status,
        "every service's replicas and counts, and the table projector's lag per partition",
    )
    ll = add(
        "log-leaders",
        cmd_log_leaders,
        "where each stream of the log has its leader; --spread moves them round the nodes",
    )
    ll.add_argument(
        "--spread",
        action="store_true",
        help="move the leaders round the nodes that hold them (appends meanwhile are retried)",
    )
    add("games", cmd_games, "list the games")
    pf = add("profile", cmd_profile, "a player's ratings per game and their latest tables")
    pf.add_argument("name")
    rk = add("rankings", cmd_rankings, "a game's leaderboard, best rating first")
    rk.add_argument("game")
    rk.add_argument("--limit", type=int, help="players per page (1-100, default 20)")
    rk.add_argument("--after", type=int, help="the `next` of the page before")
    lobby = add("lobby", cmd_lobby, "list the open and running tables of a game, newest first")
    lobby.add_argument("game")
    lobby.add_argument("--status", choices=["open", "running"], help="only tables in this state")
    lobby.add_argument("--limit", type=int, help="tables per page (default 50, at most 100)")
    lobby.add_argument("--after", help="the page after this cursor (printed under a full page)")
    new = add("new", cmd_new, "create a table (you take the first seat); prints its id", player=True)
    new.add_argument("game")
    new.add_argument(
        "--option",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="a table option (value as JSON, or a bare word); repeatable",
    )
    new.add_argument("--seats", type=int, help="most players (default: the game's maximum)")
    new.add_argument("--table", help="the table id (default: <game>-<random hex>)")
    add("join", simple_command("join"), "take a seat at a table", player=True, table=True)
    add("leave", simple_command("leave"), "leave a table before it starts", player=True, table=True)
    add("start", simple_command("start"), "start the game (the creator)", player=True, table=True)
    act = add(
        "act",
        cmd_act,
        'send a game command, e.g. \'{"type": "play_card", "card": 3}\' (`view` lists what you may send)',
        player=True,
        table=True,
    )
    act.add_argument("command", help="the command as a JSON object")
    add("view", cmd_view, "show a table as you see it", player=True, table=True)
    add("watch", cmd_watch, "show a table and every change until it ends", player=True, table=True)
    rp = add("replay", cmd_replay, "show a table's history as you may see it", player=True, table=True)
    rp.add_argument("--from", dest="first", type=int, default=0, help="first version")
    rp.add_argument("--to", dest="last", type=int, help="last version")
    add(
        "verify-fairness",
        cmd_verify_fairness,
        "check a finished table's shuffles and rolls from its replay: the revealed secret against "
        "its commitment, every draw made again from the seed (exit 1 if one fails, 3 if it cannot "
        "be checked yet)",
        player=True,
        table=True,
    )
    play = add(
        "play",
        cmd_play,
        "play a new table with N bots through the bus: this command "
        "plays the first seat, the bot service (`tabletop bots`, run by `tabletop up`) "
        "the others; prints every move and the result",
    )
    play.add_argument("game")
    play.add_argument("--bots", type=int, required=True, help="how many bots")
    play.add_argument("--option", action="append", default=[], metavar="KEY=VALUE")
    play.add_argument("--seed", type=int, help="the bots' random seed")
    play.add_argument("--table", help="the table id (default: <game>-<random hex>)")
    play.add_argument("--quiet", action="store_true", help="print only the result")
    tour = add(
        "tournament",
        cmd_tournament,
        "play bot levels against each other through the rules alone (no NATS): each level's wins "
        "with a 95%% interval, and the time its moves took",
    )
    tour.add_argument("game")
    tour.add_argument("--bots", default="hard,easy", help="the levels, comma-separated (default hard,easy)")
    tour.add_argument("--games", type=int, default=100, help="how many games (default 100)")
    tour.add_argument("--players", type=int, help="seats per game (default 2, or the game's least)")
    tour.add_argument(
        "--budget-ms", type=float, default=200, help="hard's time per move; normal takes half; 0: none"
    )
    tour.add_argument("--seed", type=int, default=1)
    tour.add_argument("--jobs", type=int, default=1, help="processes playing games side by side")
    tour.add_argument(
        "--iterations", type=int, help="cap each search's iterations (with --budget-ms 0: repeatable)"
    )
    tour.add_argument("--option", action="append", default=[], metavar="KEY=VALUE", help="a game option")
    return top


def _user() -> str:
    try:
        name = getpass.getuser()
    except Exception:  # noqa: BLE001
        name = "player"
    return name if subjects.is_id(name) else "player"


def main(argv: list[str] | None = None) -> int:
    args = parser().parse_args(argv)
    try:
        code: int = args.run(args)
        sys.stdout.flush()  # here, so that a closed pipe is seen inside the try
        return code
    except ServerTooOld as err:  # every command and service connects through `Bus.connect`
        print(f"tabletop: {err}", file=sys.stderr)
        return 1
    except BrokenPipeError:
        # The reader went away (`tabletop replay ... | head`): stop quietly, and keep Python
        # from complaining again while it flushes stdout at exit.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0


if __name__ == "__main__":
    sys.exit(main())
