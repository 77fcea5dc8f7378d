"""Starting ``lumen`` commands the way users do, for the fault tests (from this checkout)."""

import os
import select
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def lumen(*args, **kw):
    env = dict(os.environ, PYTHONUNBUFFERED="1")
    return subprocess.Popen([sys.executable, "-m", "hub.cli", *args], cwd=ROOT, env=env, stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, text=True, **kw)


def wait_for_line(p, needle, timeout=120):
    """Read p's output until a line containing ``needle`` or until p exits: returns
    (found, lines so far). The bound only stops a broken test."""
    lines = []
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        r, _, _ = select.select([p.stdout], [], [], 1.0)
        if not r:
            if p.poll() is not None:
                break
            continue
        line = p.stdout.readline()
        if not line:
            if p.poll() is not None:
                break
            continue
        lines.append(line.rstrip("\n"))
        if needle in line:
            return True, lines
    return False, lines


def wait_listening(port, host="127.0.0.1", timeout=120):
    """Wait until a server accepts connections on ``port`` (the hub prints its address just
    before it listens). The bound only stops a broken test."""
    import socket
    end = time.monotonic() + timeout
    while True:
        try:
            with socket.create_connection((host, port), timeout=5):
                return
        except OSError:
            if time.monotonic() > end:
                raise AssertionError("nothing listens on %s:%d" % (host, port))
            time.sleep(0.05)


def stop(p):
    if p.poll() is None:
        p.kill()
    p.wait(30)
    try:
        rest = p.stdout.read()
    except ValueError:
        rest = ""
    return rest


def children(pid):
    """Pids whose parent is ``pid`` (Linux /proc)."""
    out = []
    for d in os.listdir("/proc"):
        if d.isdigit():
            try:
                with open("/proc/%s/stat" % d) as f:
                    fields = f.read().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[1]) == pid:
                out.append(int(d))
    return out


def alive(pid):
    try:
        with open("/proc/%d/stat" % pid) as f:
            state = f.read().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"
