"""Hub instruction counts (issue 16): what a table costs, in figures a busy machine can't spoil.

    python3 bench/hub_counts.py [--idle 20] [--games 1] [--actions 200]

Each figure comes from a worker process (this file, ``--worker NAME``) run under
callgrind or perf (bench/icount.py); the simulated pods (MicroPython processes) and the
WebSocket client (a second process) are not counted, everything the hub process does is:
the web server, the display broadcast, the pod links, the record, the bots' button presses.

* **idle**: a seated table as ``lumen hub`` runs it (web server with one display connected,
  pods' links with serial auto-detection), a referee game waiting at its
  first ready: instructions per wall-clock second.
* **battle**: whole referee games played through the pods by button-pressing bots, with
  the display connected; per battle, after taking off the background (the rate of the same
  process, the bots' 10 ms look at the pods included, with nothing to answer, times the
  game's duration); and the record's size per game (the second game is the steady state:
  the first also stores the card table).
* **tracker**: tracker actions entered on the display (API path, no pods), per action.
"""

import argparse
import asyncio
import json
import os
import subprocess
import sys
import tempfile
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, ".."))     # before bench/ itself: bench/hub.py is not the hub package

import icount  # noqa: E402
from icount import info, mark  # noqa: E402

WS_CLIENT = """
import sys, websocket
ws = websocket.create_connection(sys.argv[1], timeout=None)
print("connected", flush=True)
while True:
    try:
        ws.recv()
    except Exception:
        break
"""


# ---------------------------------------------------------------- the worker's table

class Hub:
    """The hub process as ``lumen hub`` assembles it (hub/cli/hub.py), with simulated pods."""

    def __init__(self, pods=True):
        from hub.web import server as web
        from hub.record.store import Store
        from hub.sessions.table import Table
        self.tmp = tempfile.mkdtemp(prefix="lumen-bench-")
        self.db = os.path.join(self.tmp, "games.sqlite3")
        self.table = Table(Store(self.db))
        self.sims, self.pods = {}, None
        tasks = []          # as hub/cli/hub.py without a status light: the pods' links only
        if pods:
            from hub.cli.demo import BOARD_IDS
            from hub.pods.sim import SimPod, build
            from hub.pods.links import PodHub
            from hub.pods.ports import SimPort
            build()
            self.sims = {s: SimPod(board_id=BOARD_IDS[s]) for s in "ab"}
            self.pods = PodHub(self.table, mode="referee", out=lambda text: None)
            for s in "ab":
                self.pods.add(SimPort(self.sims[s]))
            tasks.append(self._pods_task)
        self.handle = web.start_in_thread(self.table, port=0, tasks=tuple(tasks))
        self.client = subprocess.Popen([icount.PYTHON, "-c", WS_CLIENT, "ws://127.0.0.1:%d/ws" % self.handle.port],
                                       stdout=subprocess.PIPE, text=True)
        self.client.stdout.readline()

    async def _pods_task(self, _display):
        await self.pods.run(serial_devices=None)      # auto-detect, rescan: as at a real table

    def call(self, fn, *args, **kw):
        return self.handle.hub.call(fn, *args, timeout=600, **kw)      # slow under callgrind

    def wait(self, cond, timeout=60, what="condition"):
        end = time.monotonic() + timeout
        while not self.call(cond):
            if time.monotonic() > end:
                raise RuntimeError("timed out waiting for %s" % what)
            time.sleep(0.02)

    def seat_both(self):
        self.wait(lambda: all(c.board_id for c in self.pods.conns), 60, "the pods' hellos")
        for s in "ab":
            self.sims[s].press("ready")
            self.wait(lambda: self.pods.seated(s) is not None, 30, "seat %s" % s)

    def settled(self):
        """Every frame the hub sent has been acked: the pods show what the hub wants."""
        return all(self.pods.seated(s) is not None and self.pods.seated(s).link.unacked == 0 for s in "ab")

    def close(self):
        self.client.kill()
        self.handle.stop()
        for sim in self.sims.values():
            sim.close()


def span(name, fn):
    """Run ``fn`` as one counted phase; returns (wall seconds, cpu seconds, fn's result)."""
    mark("begin", name)
    w, c = time.monotonic(), time.process_time()
    out = fn()
    mark("end", name)
    return time.monotonic() - w, time.process_time() - c, out


# ---------------------------------------------------------------- workers

def work_idle(seconds):
    hub = Hub()
    try:
        hub.seat_both()
        hub.call(hub.table.start_referee, seed=1)
        hub.wait(hub.settled, 60, "the pods to show the first ready")
        time.sleep(1.0)
        wall, cpu, _ = span("idle", lambda: time.sleep(seconds))
        info("idle", {"wall_s": wall, "cpu_s": cpu})
    finally:
        hub.close()


def work_battle(games, quiet_s):
    from concurrent.futures import ThreadPoolExecutor

    from hub.cli.demo import PodPlayer
    hub = Hub()
    executor = ThreadPoolExecutor(max_workers=2)
    try:
        hub.seat_both()
        players = {s: PodPlayer(s, hub.sims[s], hub.pods, hub.table, 70 + i, 0.0, executor)
                   for i, s in enumerate("ab")}
        page0 = _db_bytes(hub)
        hub.call(hub.table.start_referee, seed=7)
        hub.wait(hub.settled, 60, "the pods to show the first ready")
        stop = threading.Event()

        async def drive(play):
            # tests/hub/rig.py's driver: look at both pods every 10 ms
            while not stop.is_set():
                if play():
                    return
                if hub.table.session.state.winner is None:
                    for p in players.values():
                        p.step()
                await asyncio.sleep(0.01)

        def run(play, timeout):
            fut = asyncio.run_coroutine_threadsafe(drive(play), hub.handle.hub.loop)
            return fut.result(timeout)

        # the background: the same process, the driver looking at both pods every 10 ms as in
        # the game, each bot taking the open prompt for one it has answered (nobody presses)
        def answered_already():
            for s, p in players.items():
                pr, _, _ = hub.pods.current(s)
                p.acted = (pr.id, len(pr.chosen))
        hub.call(answered_already)

        def quiet():
            end = time.monotonic() + quiet_s
            run(lambda: time.monotonic() >= end, quiet_s + 600)
        wall, cpu, _ = span("quiet", quiet)
        info("quiet", {"wall_s": wall, "cpu_s": cpu})
        for p in players.values():
            p.acted = None
        results = []
        for g in range(games):
            if g:
                page0 = _db_bytes(hub)
                hub.call(hub.table.start_referee, seed=7 + g)
                hub.wait(hub.settled, 60, "the pods to show the first ready")
            wall, cpu, _ = span("game%d" % g, lambda: run(lambda: hub.table.session.state.winner is not None, 3600))
            s = hub.table.session
            gid = s.game_id
            rows = hub.call(lambda: s.store.db.execute(
                "SELECT kind, COUNT(*), SUM(LENGTH(CAST(body AS BLOB))) FROM records WHERE game_id = ? GROUP BY kind",
                (gid,)).fetchall())
            hub.wait(hub.settled, 60, "the last frames")
            results.append({"wall_s": wall, "cpu_s": cpu, "battles": s.state.battles, "turns": s.state.turn,
                            "decisions": sum(n for k, n, _ in rows if k == "input"),
                            "record": {k: [n, b] for k, n, b in rows}, "db_growth": _db_bytes(hub) - page0})
        info("games", results)
    finally:
        executor.shutdown(wait=False, cancel_futures=True)
        hub.close()


def _db_bytes(hub):
    """The database file's size with the WAL checkpointed into it."""
    def size():
        hub.table.store.db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        return os.path.getsize(hub.db)
    return hub.call(size)


def work_parts(games):
    """Where a battle's instructions go, without pods or web server: the same referee games
    (inputs recorded once) through the engine alone (in-place ``apply``, as the session runs
    it), through the session (record, views, explanations), and through the session plus one
    display state per decision (built and serialized, as the broadcaster's coalesced flush does)."""

    from engine.bots import Bot
    from engine.game import apply
    from hub.record.store import Store
    from hub.sessions.table import Table
    from hub.web.display import display_json
    tmp = tempfile.mkdtemp(prefix="lumen-bench-")
    plays = []
    for g in range(games):
        t = Table(Store(os.path.join(tmp, "ref%d.sqlite3" % g)))
        t.start_referee(seed=100 + g)
        bots = {"a": Bot(7 + g, "greedy"), "b": Bot(8 + g, "greedy")}
        s = t.session
        while s.state.winner is None:
            req = s.state.pending[0]
            if req["kind"] == "setup":
                pool = list(req["options"])
                h, n = req["sizes"]["hand"], req["sizes"]["list"]
                t.submit(req["player"], "setup", {"hand": pool[:h], "list": pool[h:h + n]}, source="hub")
            else:
                t.submit(req["player"], *bots[req["player"]].answer(s.state, req), source="pod")
        plays.append((100 + g, [(r.seat, r.body["kind"], r.body["value"]) for r in t.store.records(s.game_id)
                                if r.kind == "input"], s.state.battles))
        t.store.close()
    battles = sum(b for _, _, b in plays)

    def engine():
        for seed, inputs, _ in plays:
            t = Table(Store(":memory:"))
            t.start_referee(seed=seed)
            st = t.session.state
            for seat, kind, value in inputs:
                st, _ = apply(st, seat, kind, value, copy=False)     # in place, as the session does

    def session(display):
        for i, (seed, inputs, _) in enumerate(plays):
            t = Table(Store(os.path.join(tmp, "s%d%d.sqlite3" % (display, i))))
            t.start_referee(seed=seed)
            for seat, kind, value in inputs:
                t.submit(seat, kind, value, source="pod")
                if display:
                    display_json(t, t="state")
            t.store.close()

    for name, fn in (("engine", engine), ("session", lambda: session(False)), ("display", lambda: session(True))):
        fn()                    # warm up (imports, caches)
        span(name, fn)
    info("parts", {"battles": battles, "decisions": sum(len(i) for _, i, _ in plays)})


def work_tracker(actions):
    hub = Hub(pods=False)
    try:
        hub.call(hub.table.start_tracker, "니아", "울프", seed=1)

        def act(i):
            seat = "ab"[i % 2]
            delta = 1 if (i // 2) % 2 == 0 else -1
            hub.table.submit(None, "action", {"action": "adjust_fp", "seat": seat, "delta": delta}, source="display")

        async def run_all(n):
            for i in range(n):
                act(i)
                await asyncio.sleep(0)        # let the display flush, as between two requests
            await asyncio.sleep(0.05)

        def run(n):
            asyncio.run_coroutine_threadsafe(run_all(n), hub.handle.hub.loop).result(3600)

        run(10)         # warm up
        wall, cpu, _ = span("actions", lambda: run(actions))
        base_wall, base_cpu, _ = span("none", lambda: run(0))
        info("tracker", {"actions": actions, "wall_s": wall, "cpu_s": cpu, "base_wall_s": base_wall})
    finally:
        hub.close()


# ---------------------------------------------------------------- driver

def report(idle_s=20, games=1, actions=200, out=print):
    kind = icount.counter()
    me = os.path.abspath(__file__)
    out("instruction counts (%s; hub process only: pods and the display's client are other processes)"
        % (kind or "no counter here: wall and CPU only"))
    counts, infos = icount.run_worker(me, ["--worker", "idle", str(idle_s)])
    i = infos["idle"]
    rate = counts["idle"] / i["wall_s"] if counts["idle"] is not None else None
    out("seated idle table: %s per second (%.1f s; hub CPU %.0f%% of a core meanwhile)"
        % (icount.fmt(rate), i["wall_s"], 100 * i["cpu_s"] / i["wall_s"]))
    counts, infos = icount.run_worker(me, ["--worker", "battle", str(games), "5"])
    q = infos["quiet"]
    bg = counts["quiet"] / q["wall_s"] if counts["quiet"] is not None else None
    for g, r in enumerate(infos["games"]):
        total = counts["game%d" % g]
        net = None if total is None else total - bg * r["wall_s"]
        out("referee game %d through the pods: %d battles, %d decisions, %.1f s: %s in all; background %s/s; "
            "per battle %s (%s without the background)"
            % (g, r["battles"], r["decisions"], r["wall_s"], icount.fmt(total), icount.fmt(bg),
               icount.fmt(None if total is None else total / r["battles"]),
               icount.fmt(None if net is None else net / r["battles"])))
        body = sum(b for _, b in r["record"].values())
        out("  record of that game: %.1f KB of record bodies (%s); the database file grew %.1f KB"
            % (body / 1024, ", ".join("%s %d x %.1f KB" % (k, n, b / 1024) for k, (n, b) in sorted(r["record"].items())),
               r["db_growth"] / 1024))
    counts, infos = icount.run_worker(me, ["--worker", "parts", "3"])
    p = infos["parts"]
    per = {k: None if counts[k] is None else counts[k] / p["battles"] for k in ("engine", "session", "display")}
    out("where a referee battle goes (%d battles, %d decisions, no pods): engine %s; + session (record, views, "
        "explanations) %s; + display state built and serialized per decision %s"
        % (p["battles"], p["decisions"], icount.fmt(per["engine"]),
           icount.fmt(None if per["session"] is None else per["session"] - per["engine"]),
           icount.fmt(None if per["display"] is None else per["display"] - per["session"])))
    counts, infos = icount.run_worker(me, ["--worker", "tracker", str(actions)])
    t = infos["tracker"]
    per = None if counts["actions"] is None else (counts["actions"] - counts["none"]) / t["actions"]
    out("tracker action from the display (submit, record, display broadcast): %s per action "
        "(%d actions, %.2f ms each as run)" % (icount.fmt(per), t["actions"], 1000 * t["wall_s"] / t["actions"]))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--worker", nargs="+")
    ap.add_argument("--idle", type=float, default=20)
    ap.add_argument("--games", type=int, default=1)
    ap.add_argument("--actions", type=int, default=200)
    args = ap.parse_args()
    if args.worker:
        name, rest = args.worker[0], args.worker[1:]
        if name == "idle":
            work_idle(float(rest[0]))
        elif name == "battle":
            work_battle(int(rest[0]), float(rest[1]))
        elif name == "parts":
            work_parts(int(rest[0]))
        elif name == "tracker":
            work_tracker(int(rest[0]))
        return
    report(args.idle, args.games, args.actions)


if __name__ == "__main__":
    main()
