"""Starting ``lumen`` commands the way users do, for the fault tests (from this checkout)."""

import os
import queue
import subprocess
import sys
import threading
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def lumen(*args, **kw):
    env = dict(os.environ, PYTHONUNBUFFERED="1")
    return subprocess.Popen([sys.executable, "-m", "hub.cli", *args], cwd=ROOT, env=env, stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, text=True, **kw)


def _reader(p):
    """The queue p's output lines arrive in, read by a thread of their own: a select() on the
    pipe can't see lines already in the reader's buffer (two lines written at once: the second
    waited for the timeout)."""
    q = getattr(p, "_lumen_lines", None)
    if q is None:
        q = p._lumen_lines = queue.Queue()

        def pump():
            try:
                for line in p.stdout:
                    q.put(line)
            except ValueError:          # closed under us
                pass
            q.put(None)                 # the end of the output
        p._lumen_pump = threading.Thread(target=pump, daemon=True)
        p._lumen_pump.start()
    return q


def wait_for_line(p, needle, timeout=120):
    """Read p's output until a line containing ``needle`` or until p exits: returns
    (found, lines so far). The bound only stops a broken test."""
    lines = []
    q = _reader(p)
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        try:
            line = q.get(timeout=1.0)
        except queue.Empty:
            continue
        if line is None:
            q.put(None)                 # the end stays the end for the next reader
            break
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
    q = getattr(p, "_lumen_lines", None)
    if q is not None:                   # a reader thread has the pipe: what it has left
        p._lumen_pump.join(30)
        rest = []
        while not q.empty():
            line = q.get()
            if line is not None:
                rest.append(line)
        q.put(None)
        return "".join(rest)
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
