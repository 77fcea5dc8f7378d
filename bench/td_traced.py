"""The TD service (``python3 -m hub.tournament run ...``) under tracemalloc, for
``bench/tournament.py --td-trace FILE``: every ``LUMEN_TRACE_EVERY`` seconds (default 60)
and on SIGTERM it writes the allocations still live, grouped by the line that made them
(with the call path of the largest), to FILE. tracemalloc costs memory of its own, so the
RSS of a traced run is not a figure; the grouping is."""

import os
import signal
import sys
import threading
import tracemalloc

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)


def dump(path):
    snap = tracemalloc.take_snapshot().filter_traces([
        tracemalloc.Filter(False, tracemalloc.__file__), tracemalloc.Filter(False, "<frozen importlib._bootstrap>")])
    traced, peak = tracemalloc.get_traced_memory()
    with open(path + ".tmp", "w") as f:
        f.write("traced now %.1f MB, peak %.1f MB\n\n" % (traced / 1e6, peak / 1e6))
        for s in snap.statistics("lineno")[:25]:
            f.write("%8.2f MB %8d blocks  %s\n" % (s.size / 1e6, s.count, s.traceback[0]))
        f.write("\nthe largest five, by call path:\n")
        for s in snap.statistics("traceback")[:5]:
            f.write("\n%.2f MB in %d blocks\n" % (s.size / 1e6, s.count))
            for line in s.traceback.format()[-16:]:
                f.write(line + "\n")
    os.replace(path + ".tmp", path)


def main():
    path = os.environ["LUMEN_TRACE_FILE"]
    every = float(os.environ.get("LUMEN_TRACE_EVERY", "60"))
    tracemalloc.start(16)

    def loop():
        while True:
            threading.Event().wait(every)
            dump(path)
    threading.Thread(target=loop, daemon=True).start()

    def on_term(signum, frame):
        dump(path)
        os._exit(0)
    signal.signal(signal.SIGTERM, on_term)
    from hub.tournament.cli import main as td_main
    return td_main(sys.argv[1:])


if __name__ == "__main__":
    sys.exit(main())
