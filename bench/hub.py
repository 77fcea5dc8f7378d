"""Hub figures (issue 5). Prints figures; asserts nothing (targets: docs/performance.md).

    python3 bench/hub.py [--presses 500] [--battles 500] [--no-counts]

1. press on pod A -> countdown frame on pod B's line, over the simulated link
   (two pods running the real firmware under MicroPython, tracker mode);
2. ready -> result for a whole battle (the second ready's submit: engine,
   record writes, pod pushes), referee mode, sample decks;
3. event-log write cost per battle (SQLite WAL);
4. hub CPU and memory while a whole game is played through the pods;
5. beside those wall-clock figures, instruction counts (bench/hub_counts.py: an idle seated
   table per second, a referee battle through the pods, the record per game, a tracker
   action), which a busy machine cannot spoil; ``--no-counts`` leaves them out.
"""

import argparse
import asyncio
import os
import random
import resource
import statistics
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))

from engine.bots import Bot  # noqa: E402
from hub.cli.demo import BOARD_IDS, TableDemo  # noqa: E402
from hub.pods.sim import SimPod, build  # noqa: E402
from hub.pods.pod_hub import PodHub  # noqa: E402
from hub.pods.ports import SimPort  # noqa: E402
from hub.pods.protocol import Decoder  # noqa: E402
from hub.sessions.referee import RefereeSession  # noqa: E402
from hub.record.store import Store  # noqa: E402
from hub.sessions.base import FakeClock  # noqa: E402
from hub.sessions.table import Table, WallClock  # noqa: E402


def pct(xs, p):
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(round(p / 100 * (len(xs) - 1))))]


class WatchPort(SimPort):
    """Notes when a countdown frame is written to this pod's line."""

    def __init__(self, pod):
        super().__init__(pod)
        self.dec = Decoder()
        self.countdown_at = None

    def write(self, data):
        for m in self.dec.feed(data):
            if m.type == "countdown" and m["ms"]:
                self.countdown_at = time.perf_counter()
        super().write(data)


def press_to_countdown(n):
    build()
    tmp = tempfile.mkdtemp(prefix="lumen-bench-")
    # a clock the bench moves: "next turn" twice within a second is one double tap (issue 12)
    clock = FakeClock()
    table = Table(Store(os.path.join(tmp, "b.sqlite3")), clock=clock, wall=WallClock())
    sims = {s: SimPod(board_id=BOARD_IDS[s]) for s in "ab"}
    ports = {s: WatchPort(sims[s]) for s in "ab"}
    hub = PodHub(table, mode="tracker", out=lambda t: None)
    for s in "ab":
        hub.add(ports[s])
    lat = []
    ready_rx = [None]
    orig = hub._on_pod

    def spy(c, m, t, *stamp):
        if m.type in ("ready", "ready_at"):      # the pod stamps its ready since firmware 0.5 (ready_at)
            ready_rx[0] = time.perf_counter()
        return orig(c, m, t, *stamp)
    hub._on_pod = spy

    async def wait(cond, timeout=10):
        end = time.monotonic() + timeout
        while not cond():
            if time.monotonic() > end:
                raise TimeoutError
            await asyncio.sleep(0.001)

    async def press(seat, button):
        await asyncio.get_running_loop().run_in_executor(None, sims[seat].press, button)

    async def main():
        task = asyncio.create_task(hub.run(serial_devices=(), rescan=False))
        await wait(lambda: all(c.board_id for c in hub.conns), 20)
        for s in "ab":
            await press(s, "ready")
            await wait(lambda: hub.seated(s) is not None)
        table.start_tracker(seed=1)
        sess = table.session
        for i in range(n):
            await wait(lambda: sess.requests("a") and sess.requests("b") and all(
                hub.seated(s).link.unacked == 0 and hub.seated(s).sent_state for s in "ab"))
            ports["b"].countdown_at = None
            loop = asyncio.get_running_loop()
            t0 = time.perf_counter()
            # the contact closes: the same interrupt a real button fires (control channel, no wait)
            await loop.run_in_executor(None, sims["a"].ctl, "down ready")
            await wait(lambda: ports["b"].countdown_at is not None)
            await loop.run_in_executor(None, sims["a"].ctl, "up ready")
            pod_us = int((await loop.run_in_executor(None, sims["a"].ctl, "lat")).split()[1])
            hub_ms = (ports["b"].countdown_at - ready_rx[0]) * 1000
            lat.append((pod_us / 1000 + hub_ms, pod_us / 1000, hub_ms, (ports["b"].countdown_at - t0) * 1000))
            await press("b", "ready")
            await wait(lambda: sess.phase == "battle")
            clock.advance(1500)
            table.submit(None, "action", {"action": "next_turn"}, source="display")
        task.cancel()

    try:
        asyncio.run(main())
    finally:
        for p in sims.values():
            p.close()
    return lat


def ready_to_result(n):
    from engine.cards import load_sample
    cs, decks = load_sample()
    tmp = tempfile.mkdtemp(prefix="lumen-bench-")
    store = Store(os.path.join(tmp, "r.sqlite3"))
    times, writes, battles = [], [], 0
    orig_append, orig_many = store.append, store.append_many
    spent = [0.0]

    def timed(fn):
        def wrapper(*a, **k):
            t = time.perf_counter()
            try:
                return fn(*a, **k)
            finally:
                spent[0] += time.perf_counter() - t
        return wrapper
    store.append, store.append_many = timed(orig_append), timed(orig_many)
    seed = 0
    while battles < n:
        seed += 1
        s = RefereeSession.new(store, cs.cards, decks["serin"].as_game_deck(), decks["gangcheol"].as_game_deck(),
                               seed=seed)
        bots = {"a": Bot(seed), "b": Bot(seed + 1)}
        rnd = random.Random(seed)
        while s.state.winner is None and battles < n:
            req = s.state.pending[0]
            kind, value = bots[req["player"]].answer(s.state, req)
            if kind == "timeout":
                kind, value = "ready", rnd.choice(req["options"])
            second_ready = kind == "ready" and sum(1 for r in s.state.pending if r["kind"] == "ready") == 1
            spent[0] = 0.0
            t = time.perf_counter()
            before = s.state.battles
            s.submit(req["player"], kind, value)
            if second_ready:
                times.append((time.perf_counter() - t) * 1000)
            if s.state.battles > before or (second_ready and s.state.phase != "ready"):
                writes.append(spent[0] * 1000)
                battles += 1
    store.close()
    return times, writes


def cpu_and_memory():
    """A whole game through the pods (the pods' MicroPython processes are not counted)."""
    demo = TableDemo(seed=4, serve=False, quiet=True, pace=0.15, out=lambda s: None)
    w0, c0 = time.perf_counter(), time.process_time()
    demo.run()
    wall, cpu = time.perf_counter() - w0, time.process_time() - c0
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    return wall, cpu, rss


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--presses", type=int, default=500)
    ap.add_argument("--battles", type=int, default=500)
    ap.add_argument("--skip-game", action="store_true")
    ap.add_argument("--no-counts", action="store_true")
    ap.add_argument("--smoke", action="store_true", help="every part, small: CI's check that it runs (figures meaningless)")
    args = ap.parse_args()
    if args.smoke:      # the whole game at table pace and the counts are benches of their own (hub_counts.py)
        args.presses, args.battles, args.skip_game, args.no_counts = 5, 5, True, True
    print("hub benchmark (this machine; simulated pods run the real firmware under MicroPython)")
    lat = press_to_countdown(args.presses)
    for i, what in enumerate(("press on pod A -> countdown frame on pod B's line",
                              "  of which: the pod (contact -> ready frame, its own clock)",
                              "  of which: the hub (ready frame in -> countdown frame out)",
                              "  as the bench sees it (incl. the simulator's control channel)")):
        xs = [x[i] for x in lat]
        print("%s: median %.2f ms, p99 %.2f ms, worst %.2f ms (n=%d)"
              % (what, statistics.median(xs), pct(xs, 99), max(xs), len(xs)))
    times, writes = ready_to_result(args.battles)
    print("ready -> result (whole battle, record written): median %.2f ms, p99 %.2f ms, worst %.2f ms (n=%d)"
          % (statistics.median(times), pct(times, 99), max(times), len(times)))
    print("event-log writes per battle (WAL, synchronous=NORMAL): median %.3f ms, p99 %.3f ms"
          % (statistics.median(writes), pct(writes, 99)))
    if not args.skip_game:
        wall, cpu, rss = cpu_and_memory()
        print("a whole game through the pods at table pace: %.1f s wall, hub CPU %.1f s = %.1f%% of one core, "
              "max RSS %.0f MB" % (wall, cpu, 100 * cpu / wall, rss))
    if not args.no_counts:
        sys.path.insert(1, os.path.dirname(os.path.abspath(__file__)))
        import hub_counts
        hub_counts.report(games=2)


if __name__ == "__main__":
    main()
