"""Display figures for docs/performance.md (not a test): how long the display state takes to
build, how big a state message is, and how long a game event takes to reach a WebSocket
client on this machine.  Run: python3 tests/web/bench_display.py"""

import json
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from websockets.sync.client import connect  # noqa: E402

from engine.bots import Bot  # noqa: E402
from hub.store import Store  # noqa: E402
from hub.table import Table  # noqa: E402
from hub.web import display_state, start_in_thread  # noqa: E402


def mid_game(table, turn=8):
    table.start_referee(seed=5)
    bots = {"a": Bot(1, "greedy"), "b": Bot(2, "greedy")}
    while True:
        st = table.session.state
        req = st.pending[0]
        if req["kind"] == "ready" and st.turn >= turn and len(st.pending) == 2:
            return
        table.submit(req["player"], *bots[req["player"]].answer(st, req), source="pod")


def best_of(fn, n=200, rounds=5):
    best = float("inf")
    for _ in range(rounds):
        t0 = time.perf_counter()
        for _ in range(n):
            fn()
        best = min(best, (time.perf_counter() - t0) / n)
    return best


def main():
    t = Table(Store(":memory:"))
    mid_game(t)
    ref_ms = best_of(lambda: display_state(t)) * 1000
    ref_kb = len(json.dumps(display_state(t), ensure_ascii=False).encode()) / 1024
    t.start_tracker("wolf", "rita")
    for d in (-300, -400, 200):
        t.submit("a", "action", {"action": "adjust_health", "seat": "a", "delta": d}, source="display")
    trk_ms = best_of(lambda: display_state(t)) * 1000
    trk_kb = len(json.dumps(display_state(t), ensure_ascii=False).encode()) / 1024
    print("display_state, referee turn 8: %.2f ms, %.1f KB as JSON" % (ref_ms, ref_kb))
    print("display_state, tracker:        %.2f ms, %.1f KB as JSON" % (trk_ms, trk_kb))

    table = Table(Store(":memory:"))
    handle = start_in_thread(table, port=0)
    try:
        handle.call(table.start_tracker)
        lat = []
        with connect(handle.url.replace("http", "ws") + "/ws") as ws:
            ws.recv(timeout=5)
            for i in range(300):
                delta = -100 if i % 2 else 100
                t0 = time.perf_counter()
                handle.call(table.submit, "a", "action", {"action": "adjust_fp", "seat": "a", "delta": delta}, "pod")
                ws.recv(timeout=5)
                lat.append((time.perf_counter() - t0) * 1000)
        lat.sort()
        print("game event -> WebSocket client (tracker, 300 changes): median %.1f ms, p95 %.1f ms, max %.1f ms"
              % (statistics.median(lat), lat[int(len(lat) * 0.95)], lat[-1]))
    finally:
        handle.stop()


if __name__ == "__main__":
    main()
