"""``lumen hub`` start-up against the number of stored games (issue 26). Prints figures.

    python3 bench/startup.py [--games 0,1000,10000] [--repeat 5]

For each size a record is built (one real referee game played by random bots, then copied
under new game ids by SQL, so 10,000 games take seconds to build), and the real ``lumen hub``
(``python -m hub.cli hub --db ... --no-mdns``, no pods) is started under callgrind: its
instructions are read (every thread, from exec) the moment its display accepts a TCP
connection, then the hub is stopped. Also counted: a bare ``python -c "import fastapi"``
(the issue's yardstick: start-up within 1.5x of it with a new record), and what the record's
whole-file check (hub/record/check.py, run once the display serves) costs at each size.
Each start is counted ``--repeat`` times (a fresh interpreter each time, its hash seed random as
at any start) and the median of each side is compared, with the spread printed (a few M
instructions here). Without callgrind only wall times are printed. Counts are x86-64
instructions of the host CPython; the wall times under callgrind are not figures.
"""

import argparse
import glob
import os
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.join(HERE, "..")
sys.path.insert(0, ROOT)

import icount  # noqa: E402


GOAL_RATIO = 1.3        # issue 36: the start within 1.3x a bare ``import fastapi``, flat in stored games


def build_record(path, games):
    """A record of ``games`` finished referee games (one played, the rest its copies)."""
    import random

    from engine.bots import random_answer
    from hub.record.store import Store
    from hub.sessions.table import Table
    t = Table(Store(path))
    t.auto_setup = True
    if games:
        t.start_referee(seed=1)
        rnd = random.Random(1)
        s = t.session
        while s.state.winner is None:
            req = s.state.pending[0]
            kind, value = random_answer(s.state, req, rnd)
            if kind == "timeout":
                kind, value = "ready", req["options"][0]
            t.submit(req["player"], kind, value)
    db = t.store.db
    db.execute("BEGIN")
    for gid in range(2, games + 1):
        db.execute("INSERT INTO games (id, created_ms, mode, table_name) SELECT ?, created_ms, mode, table_name "
                   "FROM games WHERE id = 1", (gid,))
        db.execute("INSERT INTO records (game_id, seq, kind, wall_ms, mono_ms, seat, hidden, body) "
                   "SELECT ?, seq, kind, wall_ms, mono_ms, seat, hidden, body FROM records WHERE game_id = 1", (gid,))
    db.execute("COMMIT")
    t.store.close()
    return os.path.getsize(path)


def free_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


def accepting(port):
    try:
        socket.create_connection(("127.0.0.1", port), timeout=1).close()
        return True
    except OSError:
        return False


def _totals(path):
    with open(path) as f:
        for line in f:
            if line.startswith("totals:") or line.startswith("summary:"):
                return int(line.split()[1])
    raise RuntimeError("no totals in %s" % path)


class Counted:
    """A command run under callgrind (or plainly without it); ``read()`` dumps its count so far."""

    def __init__(self, cmd, env=None):
        self.kind = icount.counter()
        self.dir = tempfile.mkdtemp(prefix="lumen-start-")
        if self.kind == "callgrind":
            cmd = ["valgrind", "--tool=callgrind", "-q", "--callgrind-out-file=%s/cg.%%p" % self.dir] + cmd
        self.t0 = time.monotonic()
        self.proc = subprocess.Popen(cmd, cwd=ROOT, env=env or child_env(), stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                                     stderr=subprocess.STDOUT, text=True)
        self.seen = set()
        self.so_far = 0

    def read(self):
        """Instructions from exec until now (each callgrind dump holds those since the last)."""
        if self.kind != "callgrind":
            return None
        subprocess.run(["callgrind_control", "-d", str(self.proc.pid)], check=True, capture_output=True, timeout=600)
        new = [f for f in glob.glob(os.path.join(self.dir, "cg.%d.*" % self.proc.pid)) if f not in self.seen]
        self.seen.update(new)
        self.so_far += sum(_totals(f) for f in new)
        return self.so_far

    def finish(self, timeout=600):
        out = self.proc.communicate(timeout=timeout)[0]
        total = None
        if self.kind == "callgrind":
            total = _totals(os.path.join(self.dir, "cg.%d" % self.proc.pid))
        shutil.rmtree(self.dir, ignore_errors=True)
        return total, out

    def stop(self):
        self.proc.terminate()
        try:
            self.proc.wait(timeout=120)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        shutil.rmtree(self.dir, ignore_errors=True)


def bare_fastapi():
    c = Counted([icount.PYTHON, "-c", "import fastapi"])
    total, out = c.finish()
    return total, time.monotonic() - c.t0


def hub_start(db, wait_check=True, mode=None):
    """(instructions at the moment the display accepts, wall s, instructions once the record's
    check has said its line). ``mode``: the first game's (``--mode``; None: lumen hub's default)."""
    port = free_port()
    c = Counted([icount.PYTHON, "-m", "hub.cli", "hub", "--db", db, "--port", str(port), "--no-mdns",
                 "--serial", db + ".no-pod"] + (["--mode", mode] if mode else []))
    lines, checked = [], threading.Event()

    def read():
        for line in c.proc.stdout:
            lines.append(line)
            if "record's check" in line or "on the salvaged record" in line:
                checked.set()
    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    try:
        end = time.monotonic() + 1800
        while not accepting(port):
            if c.proc.poll() is not None:
                raise RuntimeError("lumen hub exited: %s" % "".join(lines))
            if time.monotonic() > end:
                raise RuntimeError("lumen hub did not serve")
            time.sleep(0.02)
        at_serving, wall = c.read(), time.monotonic() - c.t0
        if not wait_check:
            return at_serving, wall, None
        if not checked.wait(1800):
            raise RuntimeError("the record's check said nothing: %s" % "".join(lines))
        return at_serving, wall, c.read()
    finally:
        c.stop()


def child_env():
    """The children's environment, with bytecode caching on (PYTHONDONTWRITEBYTECODE would
    have every start compile the hub's ~120 modules from source: 0.5 s, not what an installed
    hub does; pip and the Debian package compile them at install)."""
    env = dict(os.environ)
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    return env


def compile_tree():
    """What an install does: the project's modules compiled to bytecode once."""
    subprocess.run([icount.PYTHON, "-m", "compileall", "-q", "engine", "hub"], cwd=ROOT, env=child_env(), check=True,
                   stdout=subprocess.DEVNULL)


def spread(counts):
    """``median (min-max, n runs)`` of instruction counts; the median alone for one run."""
    if not counts or None in counts:
        return icount.fmt(None), None
    med = statistics.median(counts)
    if len(counts) == 1:
        return icount.fmt(med), med
    return "%.3f G instructions (%.3f-%.3f G over %d starts)" % (med / 1e9, min(counts) / 1e9, max(counts) / 1e9,
                                                                 len(counts)), med


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", default="0,1000,10000", help="stored games per run, comma-separated")
    ap.add_argument("--keep", help="a folder to build (and reuse) the records in")
    ap.add_argument("--mode", choices=("tracker", "referee", "profile"),
                    help="the first game's mode when the record has none (default: lumen hub's own, tracker); "
                         "a referee game reads the sample decks' YAML, so it imports PyYAML at start")
    ap.add_argument("--no-check", action="store_true",
                    help="don't wait for the record check's line (a hub from before issue 26 checks before it serves)")
    ap.add_argument("--repeat", type=int, default=5, help="starts counted for each figure (the median is compared)")
    ap.add_argument("--smoke", action="store_true", help="every part, small: CI's check that it runs (figures meaningless)")
    args = ap.parse_args()
    if args.smoke:
        args.games, args.repeat = "0", 1
    kind = icount.counter()
    print("start-up counts (%s; %s)" % (kind or "no counter here: wall only", icount.interpreter()))
    compile_tree()
    bare = [bare_fastapi() for _ in range(args.repeat)]
    text, base = spread([b[0] for b in bare])
    print("bare python -c 'import fastapi': %s (%.2f s as run)" % (text, bare[-1][1]))
    folder = args.keep or tempfile.mkdtemp(prefix="lumen-startup-")
    os.makedirs(folder, exist_ok=True)
    try:
        for n in [int(x) for x in args.games.split(",") if x]:
            db = os.path.join(folder, "g%d.sqlite3" % n)
            if not os.path.exists(db):
                t0 = time.monotonic()
                size = build_record(db, n)
                print("  built a record of %d games: %.1f MB in %.1f s" % (n, size / 1e6, time.monotonic() - t0))
            runs = []
            work = db + ".run.sqlite3"
            for _ in range(args.repeat):
                shutil.copy(db, work)
                runs.append(hub_start(work, not args.no_check, args.mode))
                for suffix in ("", "-wal", "-shm", ".lock"):
                    if os.path.exists(work + suffix):
                        os.unlink(work + suffix)
            text, at = spread([r[0] for r in runs])
            ratio = "" if at is None or base is None else " = %.3fx the bare import (goal <= %.1fx: %s)" % (
                at / base, GOAL_RATIO, "met" if at / base <= GOAL_RATIO else "NOT met")
            checks = [None if r[2] is None or r[0] is None else r[2] - r[0] for r in runs]
            print("lumen hub%s, %d stored games (%.1f MB): %s until the display accepts%s (%.2f s as run); "
                  "the record's check once serving: %s more"
                  % (" --mode " + args.mode if args.mode else "", n, os.path.getsize(db) / 1e6, text, ratio, runs[-1][1],
                     icount.fmt(None if None in checks else statistics.median(checks))))
    finally:
        if not args.keep:
            shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main()
