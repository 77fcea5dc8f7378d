"""What the durable record costs a decision (issue 28.4): ``lumen hub`` is durable by default
(SQLite ``synchronous=FULL``: the WAL is fsynced at every commit, so a power cut loses
nothing shown); ``--fast`` is ``synchronous=NORMAL``. Prints figures; asserts nothing.

    python3 bench/durable.py [--decisions 300]

For each mode the same referee decisions (deterministic bots, the sample decks, games
started one after another) are submitted to a table whose record is a file on this
machine's disk:

* **instructions** per decision, counted in a worker process (bench/icount.py: callgrind,
  or perf where the machine has counters): the user-space cost of each commit;
* **fsyncs** per decision: ``strace -f -c -e trace=fsync,fdatasync`` of the same worker with
  N decisions, less one with none (the record's creation), divided by N;
* **wall** per decision on this machine (its disk, not a Pi's SD card: an fsync on an SD card
  is milliseconds; figures in docs/performance.md say where they were measured).
"""

import argparse
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from bench import icount  # noqa: E402


def work(decisions, durable):
    """Play ``decisions`` referee decisions on a table whose record is durable or not."""
    from engine.bots import random_answer
    from hub.record.store import Store
    from hub.sessions.table import Table
    folder = tempfile.mkdtemp(prefix="lumen-durable-")
    try:
        table = Table(Store(os.path.join(folder, "g.sqlite3"), durable=durable))
        rnd = random.Random(5)
        seed = [0]

        def play(n):
            done = 0
            while done < n:
                s = table.session
                if s is None or s.state.winner is not None:
                    seed[0] += 1
                    table.start_referee(seed=seed[0])
                    continue
                req = s.state.pending[0]
                kind, value = random_answer(s.state, req, rnd)
                if kind == "timeout":
                    kind, value = "ready", req["options"][0]
                table.submit(req["player"], kind, value)
                done += 1
        play(20)                       # warm up: the card table stored, caches filled
        icount.mark("begin", "decisions")
        t0 = time.perf_counter()
        play(decisions)
        wall = time.perf_counter() - t0
        icount.mark("end", "decisions")
        icount.info("decisions", {"n": decisions, "wall_s": wall})
        table.store.close()
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def fsyncs(decisions, durable):
    """fsync + fdatasync calls of a worker run (strace -c), or None without strace."""
    if not shutil.which("strace"):
        return None
    with tempfile.NamedTemporaryFile(prefix="lumen-strace-", suffix=".txt", delete=False) as f:
        out = f.name
    try:
        subprocess.run(["strace", "-f", "-c", "-o", out, "-e", "trace=fsync,fdatasync", icount.PYTHON,
                        os.path.abspath(__file__), "--worker", str(decisions), "1" if durable else "0"],
                       check=True, stdout=subprocess.DEVNULL, env=dict(os.environ, LUMEN_BENCH_WORKER="0"))
        text = open(out).read()
    finally:
        os.unlink(out)
    calls = 0
    for line in text.splitlines():
        m = re.match(r"^\s*[\d.]+\s+[\d.]+\s+\d+\s+(\d+)\s+(?:\d+\s+)?(fsync|fdatasync)\s*$", line)
        if m:
            calls += int(m.group(1))
    return calls


def report(decisions, out=print):
    kind = icount.counter()
    me = os.path.abspath(__file__)
    rows = {}
    for durable in (True, False):
        counts, infos = icount.run_worker(me, ["--worker", str(decisions), "1" if durable else "0"])
        n = infos["decisions"]["n"]
        ins = counts.get("decisions")
        f_n, f_0 = fsyncs(decisions, durable), fsyncs(0, durable)
        _, plain = icount.run_worker(me, ["--worker", str(decisions), "1" if durable else "0"], count=False)
        rows[durable] = (ins / n if ins else None, (f_n - f_0) / n if f_n is not None else None,
                         plain["decisions"]["wall_s"] / n * 1000)
    out("record durability, per referee decision (%d decisions, sample decks; counter: %s):" % (decisions, kind))
    for durable, label in ((True, "durable (default, synchronous=FULL)"), (False, "--fast (synchronous=NORMAL)")):
        ins, fs, ms = rows[durable]
        out("  %-38s %s, %s fsyncs, %.2f ms wall (this machine's disk, uncounted run)" % (
            label, icount.fmt(ins), "%.2f" % fs if fs is not None else "(no strace)", ms))
    (di, df, dm), (fi, ff, fm) = rows[True], rows[False]
    if di and fi:
        out("  durable costs %s and %.2f fsyncs more a decision (user-space instructions: the fsync's cost is "
            "the wait for the disk, %.2f ms here)" % (icount.fmt(di - fi), (df or 0) - (ff or 0), dm - fm))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--worker", nargs=2, metavar=("N", "DURABLE"))
    ap.add_argument("--decisions", type=int, default=300)
    ap.add_argument("--smoke", action="store_true", help="every part, small: CI's check that it runs (figures meaningless)")
    args = ap.parse_args()
    if args.smoke:
        args.decisions = 20
    if args.worker:
        work(int(args.worker[0]), args.worker[1] == "1")
        return
    report(args.decisions)


if __name__ == "__main__":
    main()
