"""One embedded nats-server per data folder, as real processes: it stops when `tabletop up`
dies, even by `kill -9`, and a second `tabletop up` on a folder in use says so and leaves the
first one serving."""

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from shared.bus.errors import StoreInUse
from shared.bus.server import EmbeddedServer, server_binary, servers_using
from tests.conftest import ROOT
from tests.processes import TABLETOP, Up

pytestmark = [
    pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc"),
    pytest.mark.slow,
]


def gone(pid: int) -> bool:
    """The process has ended (a zombie waiting to be reaped has ended too, once its last
    thread has: a Go program's main thread shows `Z` while its other threads still exit, and
    still hold its files)."""
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except FileNotFoundError:
        return True
    return "\nState:\tZ" in status and not _live_threads(pid)


def _live_threads(pid: int) -> list[str]:
    live = []
    try:
        for task in Path(f"/proc/{pid}/task").iterdir():
            try:
                if "\nState:\tZ" not in (task / "status").read_text():
                    live.append(task.name)
            except FileNotFoundError:
                continue
    except FileNotFoundError:
        return []
    return live


def wait_until_gone(pid: int, deadline: float = 30.0) -> None:
    end = time.monotonic() + deadline
    while not gone(pid):
        assert time.monotonic() < end, f"process {pid} still runs {deadline}s later"
        time.sleep(0.05)


def nats_server_children(pid: int) -> list[int]:
    found = []
    for task in Path(f"/proc/{pid}/task").iterdir():
        for child in (task / "children").read_text().split():
            argv = Path(f"/proc/{child}/cmdline").read_bytes().split(b"\0")
            if argv[0].endswith(b"nats-server"):
                found.append(int(child))
    return found


def test_kill_9_of_tabletop_up_stops_its_nats_server_and_up_starts_again(tmp_path):
    first = Up(tmp_path).start()
    assert first.process is not None
    [server] = nats_server_children(first.process.pid)
    first.process.kill()  # SIGKILL: no handler of ours runs
    first.process.wait(30)
    first.process = None
    wait_until_gone(server)
    again = Up(tmp_path).start()
    try:
        table = again.run("new", "highcard", "--as", "ann").stdout.strip()
        assert table.startswith("highcard-")
    finally:
        assert again.stop() == 0


def test_a_second_tabletop_up_on_a_folder_in_use_says_so_and_the_first_serves_on(tmp_path):
    first = Up(tmp_path).start()
    assert first.process is not None
    try:
        url = (tmp_path / "nats.url").read_text()
        second = subprocess.run(
            [*TABLETOP, "up", "--port", "0"], env=first.env, capture_output=True, text=True, timeout=60
        )
        assert second.returncode == 1
        assert "in use" in second.stderr and f"process {first.process.pid}" in second.stderr
        assert "one tabletop up per data folder" in second.stderr.lower()
        assert (tmp_path / "nats.url").read_text() == url  # the first one's address is kept
        assert len(nats_server_children(first.process.pid)) == 1
        table = first.run("new", "highcard", "--as", "ann").stdout.strip()
        assert "ok, version 2" in first.run("join", table, "--as", "bob").stdout
    finally:
        assert first.stop() == 0


# A process that starts the server from a thread other than the main one: there the kernel's
# parent-death signal cannot be relied on, and the watchdog stops the server instead.
FROM_A_THREAD = """
import sys, threading
from shared.bus.server import EmbeddedServer
holder = []
thread = threading.Thread(target=lambda: holder.append(EmbeddedServer(sys.argv[1]).start()))
thread.start()
thread.join()
print(holder[0].process.pid, flush=True)
threading.Event().wait()
"""


def test_a_server_started_off_the_main_thread_stops_when_its_process_is_killed(tmp_path):
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    process = subprocess.Popen(
        [sys.executable, "-c", FROM_A_THREAD, str(tmp_path)], env=env, stdout=subprocess.PIPE, text=True
    )
    assert process.stdout is not None
    try:
        server = int(process.stdout.readline())
        assert not gone(server)
    finally:
        process.kill()
        process.wait(30)
    wait_until_gone(server)
    with EmbeddedServer(tmp_path):  # the folder is free again
        pass


def test_a_second_server_on_the_same_folder_is_refused_in_process(tmp_path):
    with EmbeddedServer(tmp_path), pytest.raises(StoreInUse, match=f"process {os.getpid()}"):
        EmbeddedServer(tmp_path).start()
    with EmbeddedServer(tmp_path):  # stopped, the folder is free
        pass


def test_a_server_left_by_a_version_without_the_lock_is_named(tmp_path):
    conf = tmp_path / "nats-server.conf"
    conf.write_text(EmbeddedServer(tmp_path).config())
    stray = subprocess.Popen(
        [server_binary(), "-c", str(conf)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )
    try:
        # until the child has become the server (right after the fork it is still python)
        end = time.monotonic() + 30
        while stray.pid not in servers_using(conf):
            assert stray.poll() is None and time.monotonic() < end, "the stray nats-server did not start"
            time.sleep(0.01)
        with pytest.raises(StoreInUse, match=f"pid {stray.pid}"):
            EmbeddedServer(tmp_path).start()
    finally:
        stray.send_signal(signal.SIGTERM)
        stray.wait(30)
