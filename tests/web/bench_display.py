"""Display figures for docs/performance.md (not a test): how long the display state takes to
build, how big a state message is, how long a game event takes to reach a WebSocket client
on this machine, and (with Debian's chromium) how long a control press takes to show on the
page.  Run: python3 tests/web/bench_display.py"""

import json
import os
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from websockets.sync.client import connect  # noqa: E402

from engine.bots import Bot  # noqa: E402
from hub.record.store import Store  # noqa: E402
from hub.sessions.table import Table  # noqa: E402
from hub.web.display import display_state  # noqa: E402
from hub.web.server import start_in_thread  # noqa: E402


def mid_game(table, turn=8):
    for seed in range(5, 40):
        table.start_referee(seed=seed)
        bots = {"a": Bot(1, "greedy"), "b": Bot(2, "greedy")}
        while table.session.state.winner is None:
            st = table.session.state
            req = st.pending[0]
            if req["kind"] == "ready" and st.turn >= turn and len(st.pending) == 2:
                return
            table.submit(req["player"], *bots[req["player"]].answer(st, req), source="pod")
    raise RuntimeError("no sample game reached turn %d" % turn)


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
        if os.path.exists("/usr/bin/chromium"):
            print("control press in Chromium -> the page shows it (40 presses): %s" % browser_latency(handle, table))
    finally:
        handle.stop()
    if os.path.exists("/usr/bin/chromium"):
        print("DOM changes per decision, referee game seed 43 (60 decisions): %s" % dom_changes())


#: every change the page's DOM takes (a node added or removed, an attribute, a text), counted
COUNT = """
window.__n = 0;
new MutationObserver((rs) => { for (const r of rs) window.__n += r.type === "childList" ? r.addedNodes.length + r.removedNodes.length : 1; })
  .observe(document.body, {subtree: true, childList: true, attributes: true, characterData: true});
"""


def dom_changes(decisions=60):
    """How much of the page a decision changes (issue 37 point 7: a region is redrawn only when a
    delta touched it, and patched, not rebuilt): MutationObserver records per decision, bots
    playing a referee game on a fake clock, the page at 1600x1000 following the deltas."""
    from hub.sessions.base import FakeClock
    from tests import chromium
    table = Table(Store(":memory:"), clock=FakeClock(), admin_token="bench-token-0001")
    handle = start_in_thread(table, port=0)
    driver = chromium.start(1600, 1000, lang=None, prefix="lumen-bench-")
    try:
        handle.call(table.start_referee, seed=43)
        driver.get(handle.url + "/")
        deadline = time.monotonic() + 30
        while not driver.execute_script("return !!(window.LumenLive && LumenLive.kept())") and time.monotonic() < deadline:
            time.sleep(0.05)
        time.sleep(1.0)                 # the whole log fetched and drawn: count the decisions only
        driver.execute_script(COUNT)
        s = table.session
        bots = {"a": Bot(43, "greedy"), "b": Bot(44, "greedy")}
        counts = []
        for _ in range(decisions):
            if s.state.winner is not None:
                break
            req = s.state.pending[0]
            if req["kind"] == "setup":
                pool, (h, m) = list(req["options"]), (req["sizes"]["hand"], req["sizes"]["list"])
                handle.call(table.submit, req["player"], "setup", {"hand": pool[:h], "list": pool[h:h + m]}, "hub")
            else:
                kind, value = handle.call(lambda: bots[req["player"]].answer(s.state, req))
                handle.call(table.submit, req["player"], kind, value, "pod")
            v = handle.call(lambda: handle.hub.feed.v)
            while driver.execute_script("return LumenLive.kept() && LumenLive.kept().v") != v:
                time.sleep(0.01)
            time.sleep(0.15)            # the draw that follows the message, and a tick or two
            counts.append(driver.execute_script("const n = window.__n; window.__n = 0; return n;"))
    finally:
        driver.quit()
        handle.stop()
    return "median %d, mean %d, max %d" % (statistics.median(counts), statistics.mean(counts), max(counts))


PRESS = """
const done = arguments[arguments.length - 1], el = document.getElementById('fp-a'), before = el.textContent;
const t0 = performance.now();
const ob = new MutationObserver(() => { if (el.textContent !== before) { ob.disconnect(); done(performance.now() - t0); } });
ob.observe(el, {childList: true, characterData: true, subtree: true});
fetch('/api/control/tracker', {method: 'POST', headers: {'Content-Type': 'application/json',
      'Authorization': 'Bearer ' + arguments[1]},
      body: JSON.stringify({action_id: 'bench-' + arguments[2], command: {action: 'adjust_fp', seat: 'a', delta: arguments[0]}})});
"""


def browser_latency(handle, table):
    from tests import chromium
    driver = chromium.start(lang=None, prefix="lumen-bench-")
    try:
        driver.get(handle.url + "/")
        time.sleep(1.5)
        lat = sorted(driver.execute_async_script(PRESS, 1 if i % 2 else -1, table.admin_token, "%d-%d" % (time.time_ns(), i))
                     for i in range(40))
    finally:
        driver.quit()
    return "median %.1f ms, p95 %.1f ms, max %.1f ms" % (statistics.median(lat), lat[int(len(lat) * 0.95)], lat[-1])


if __name__ == "__main__":
    main()
