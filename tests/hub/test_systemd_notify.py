"""The hub under systemd (issue 25): ``Type=notify`` readiness and ``WatchdogSec=`` pings,
sent to a real unix datagram socket given as ``$NOTIFY_SOCKET``, the way systemd does."""

import asyncio
import os
import signal
import socket
import subprocess
import sys
import urllib.request

import pytest

from hub.system import sdnotify
from hub.system.watchdog import systemd_notifier
from tests.hub.hubproc import ROOT, free_port


@pytest.fixture
def notify_socket(tmp_path):
    s = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    path = str(tmp_path / "notify")
    s.bind(path)
    s.settimeout(60)            # an upper bound on waiting for a message, never a speed ruling
    yield s, path
    s.close()


def test_notify_sends_the_state_to_the_socket_and_is_a_no_op_without_one(notify_socket):
    s, path = notify_socket
    assert sdnotify.notify("READY=1\nSTATUS=up", {"NOTIFY_SOCKET": path}) is True
    assert s.recv(4096) == b"READY=1\nSTATUS=up"
    assert sdnotify.notify("READY=1", {}) is False
    assert sdnotify.notify("READY=1", {"NOTIFY_SOCKET": "vsock:2:1"}) is False
    # a socket that went away: the hub goes on
    assert sdnotify.notify("READY=1", {"NOTIFY_SOCKET": path + ".gone"}) is False


def test_notify_reaches_a_socket_in_the_abstract_namespace():
    name = "lumen-test-%d" % os.getpid()
    with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as s:
        s.bind("\0" + name)
        s.settimeout(60)
        assert sdnotify.notify("WATCHDOG=1", {"NOTIFY_SOCKET": "@" + name})
        assert s.recv(4096) == b"WATCHDOG=1"


def test_the_watchdog_period_is_systemds_and_only_for_this_process():
    assert sdnotify.watchdog_period({"WATCHDOG_USEC": "20000000"}) == 20.0
    assert sdnotify.watchdog_period({"WATCHDOG_USEC": "4000000", "WATCHDOG_PID": str(os.getpid())}) == 4.0
    assert sdnotify.watchdog_period({"WATCHDOG_USEC": "4000000", "WATCHDOG_PID": "1"}) is None
    assert sdnotify.watchdog_period({}) is None
    assert sdnotify.watchdog_period({"WATCHDOG_USEC": "soon"}) is None


def test_pings_stop_while_the_links_thread_is_down_and_come_back_with_it(notify_socket):
    """READY=1 only once the display's port accepts connections; then a WATCHDOG=1 each half
    period while alive() holds, none while it does not (systemd restarts the hub then)."""
    s, path = notify_socket
    answers = iter([False, False, False] + [True] * 1000)
    asked = []

    def alive():
        asked.append(1)
        return next(answers)

    async def scenario():
        server = await asyncio.start_server(lambda r, w: w.close(), "127.0.0.1", 0)
        port = server.sockets[0].getsockname()[1]
        env = {"NOTIFY_SOCKET": path, "WATCHDOG_USEC": "20000"}    # a ping every 10 ms
        task = asyncio.create_task(systemd_notifier("0.0.0.0", port, alive, env)(None))
        got = []
        loop = asyncio.get_running_loop()
        while len(got) < 4:
            got.append(await loop.run_in_executor(None, s.recv, 4096))
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task
        server.close()
        return port, got

    port, got = asyncio.run(scenario())
    assert got[0] == b"READY=1\nSTATUS=serving the display on port %d" % port
    assert got[1] == b"STATUS=the pods' links thread is not running"
    # no ping for the three calls that found the thread down; the first one after says so
    assert got[2].startswith(b"WATCHDOG=1\nSTATUS=serving") and got[3] == b"WATCHDOG=1"
    assert len(asked) >= 5
    while True:                 # the last message is the one the cancelled task sent
        last = s.recv(4096)
        if last != b"WATCHDOG=1":
            break
    assert last == b"STOPPING=1"


def test_lumen_hub_is_ready_only_when_the_display_answers_and_pings_the_watchdog(notify_socket, tmp_path):
    """A real ``lumen hub`` as systemd starts it: READY=1 arrives, at which moment the display
    already answers; WATCHDOG=1 follows; SIGINT (the unit's KillSignal) sends STOPPING=1."""
    s, path = notify_socket
    port = free_port()
    env = dict(os.environ, NOTIFY_SOCKET=path, WATCHDOG_USEC="2000000", PYTHONUNBUFFERED="1")
    env.pop("LUMEN_ADMIN_TOKEN", None)
    proc = subprocess.Popen([sys.executable, "-m", "hub.cli", "hub", "--db", str(tmp_path / "games.sqlite3"),
                             "--port", str(port), "--cards", str(tmp_path / "cards"), "--no-mdns"],
                            cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        ready = s.recv(4096)
        assert ready.startswith(b"READY=1\n"), ready
        with urllib.request.urlopen("http://127.0.0.1:%d/api/state" % port, timeout=30) as r:
            assert r.status == 200
        assert s.recv(4096) == b"WATCHDOG=1"
        proc.send_signal(signal.SIGINT)
        while (msg := s.recv(4096)) == b"WATCHDOG=1":
            pass
        assert msg == b"STOPPING=1"
        assert proc.wait(timeout=60) == 0
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        proc.stdout.close()
