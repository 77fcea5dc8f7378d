"""Issue 28.1: slow clients can't take the hub off the network. ``lumen hub`` runs with a
small open-file limit (256, as a Pi's unit could leave it) and is attacked from loopback
addresses with connections that trickle their headers and never finish them: first 400
from one address, then 600 from 40 addresses, more than the hub has files for. All the
while a legitimate client (another loopback address) gets every GET and POST answered; the
slow connections are closed (refused, made room for, or timed out: every one of them ends);
the hub never runs out of files and its log stays a few lines long."""

import os
import resource
import socket
import subprocess
import sys
import time

import httpx

from tests.faults.procs import ROOT, stop, wait_for_line, wait_listening

TOKEN = "slow-client-token"
AUTH = {"Authorization": "Bearer " + TOKEN}
FILES = 256


def _free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _hub(tmp_path, port):
    def small_limit():
        resource.setrlimit(resource.RLIMIT_NOFILE, (FILES, FILES))
    env = dict(os.environ, PYTHONUNBUFFERED="1")
    return subprocess.Popen([sys.executable, "-m", "hub.cli", "hub", "--db", str(tmp_path / "g.sqlite3"),
                             "--port", str(port), "--token", TOKEN, "--serial", str(tmp_path / "no-pod"), "--no-mdns"],
                            cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                            preexec_fn=small_limit)


def _slow(port, source, n):
    """``n`` connections from ``source`` that send half a request and stop."""
    out = []
    for _ in range(n):
        s = socket.socket()
        s.bind((source, 0))
        s.settimeout(10)
        try:
            s.connect(("127.0.0.1", port))
            s.sendall(b"GET /api/state HTTP/1.1\r\nHost: hub\r\nX-Slow: ")
        except OSError:
            s.close()
            continue
        s.setblocking(False)
        out.append(s)
    return out


def _closed(s):
    try:
        return s.recv(1) == b""
    except BlockingIOError:
        return False
    except OSError:
        return True        # reset by the hub


def _legit(c, n, tag):
    """n GETs and n POSTs from the legitimate client: every one answered."""
    for k in range(n):
        r = c.get("/api/state")
        assert r.status_code == 200, r.status_code
        r = c.post("/api/control/tracker", headers=AUTH, json={"action_id": "%s-%05d" % (tag, k), "command": {
            "action": "adjust_health", "seat": "a", "delta": -10}})
        assert r.status_code == 200, r.text
    return 2 * n


def _fds(pid):
    return len(os.listdir("/proc/%d/fd" % pid))


def test_slow_clients_never_shut_out_a_legitimate_one(tmp_path):
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < 4096:
        resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, 4096), hard))
    port = _free_port()
    hub = _hub(tmp_path, port)
    slow = []
    served = 0
    try:
        found, lines = wait_for_line(hub, "table display")
        assert found, lines
        wait_listening(port)
        # a fresh client per phase: each new connection of it comes while the slow ones hold on
        with httpx.Client(base_url="http://127.0.0.1:%d" % port, timeout=30,
                          limits=httpx.Limits(max_keepalive_connections=0)) as c:
            served += _legit(c, 3, "before")
            slow += _slow(port, "127.0.0.2", 400)           # one address: 400 slow connections
            served += _legit(c, 10, "one")
            assert _fds(hub.pid) < FILES - 16
            for k in range(40):                             # 40 addresses, 15 each
                slow += _slow(port, "127.0.0.%d" % (10 + k), 15)
                if k % 10 == 9:
                    served += _legit(c, 3, "many%d" % k)
            assert _fds(hub.pid) < FILES - 16, "the hub keeps files for its record and pods"
            served += _legit(c, 10, "after")
        attempted = 400 + 600
        # every slow connection ends (refused, made room for, or past the header deadline)
        end = time.monotonic() + 120
        while time.monotonic() < end and not all(_closed(s) for s in slow):
            time.sleep(0.2)
        still = sum(1 for s in slow if not _closed(s))
        assert still == 0, "%d slow connections are still open" % still
    finally:
        for s in slow:
            s.close()
        out = stop(hub)
    log = out.splitlines()
    assert "Too many open files" not in out, out[-2000:]
    assert "Traceback" not in out, out[-2000:]
    assert len(log) < 40, "the log grew %d lines:\n%s" % (len(log), "\n".join(log[-20:]))
    print("slow clients: %d slow connections attempted from 41 addresses (%d connected), %d legitimate requests, "
          "all answered; hub log %d lines" % (attempted, len(slow), served, len(log)))
