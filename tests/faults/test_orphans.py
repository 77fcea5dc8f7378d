"""Issue 11.9: no orphans. After kill -9 of ``lumen demo`` its simulated pods (the
firmware under the MicroPython unix port) die too: a child watches its parent."""

import os
import signal
import time

from tests.faults.procs import alive, children, lumen, stop, wait_for_line


def _pods(pid):
    out = []
    for child in children(pid):
        try:
            with open("/proc/%d/cmdline" % child, "rb") as f:
                if b"micropython" in f.read():
                    out.append(child)
        except OSError:
            pass
    return out


def test_kill_9_of_the_demo_leaves_no_pod_running(tmp_path):
    demo = lumen("demo", "--bots", "--games", "20", "--no-serve", "--pace", "1", "--db", str(tmp_path / "d.sqlite3"))
    try:
        found, lines = wait_for_line(demo, "1P", timeout=180)     # the game is under way: pods seated
        assert found, "\n".join(lines)
        pods = _pods(demo.pid)
        assert len(pods) == 2, (pods, lines)
        os.kill(demo.pid, signal.SIGKILL)
        demo.wait(30)
        end = time.monotonic() + 60          # a bound for a broken test; a dying child goes at once
        while any(alive(p) for p in pods) and time.monotonic() < end:
            time.sleep(0.05)
        left = [p for p in pods if alive(p)]
        for p in left:
            os.kill(p, signal.SIGKILL)
        assert not left, "simulated pods outlived the demo: %s" % left
    finally:
        stop(demo)
