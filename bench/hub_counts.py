"""Hub instruction counts (issue 16): what a table costs, in figures a busy machine can't spoil.

    python3 bench/hub_counts.py [--idle 20] [--games 1] [--actions 200]

Each figure comes from a worker process (this file, ``--worker NAME``) run under
callgrind or perf (bench/icount.py); the simulated pods (MicroPython processes) and the
WebSocket client (a second process) are not counted, everything the hub process does is.

* **idle**: a seated table as ``lumen hub`` runs it (web server with one display connected,
  pods' links with serial auto-detection), a referee game waiting at its
  first ready: instructions per wall-clock second.
* **battle**: whole referee games played through the pods by the demo's button-pressing bots,
  with the display connected; per battle, and per battle less the background; and the
  record's size per game (the second game is the steady state: the first also stores the
  card table).

  Counted, per game: everything the hub process does from the first question shown to the
  game over acked by both pods: the pod links' thread (reading and stamping the pods' frames,
  acks, resends, heartbeats, writing frames), the table's loop (the pods' messages applied,
  the session: engine, record, views; the pods' prompts and state frames; the display's
  broadcast over the WebSocket; the web server's upkeep).
  Not counted: the bots' thinking and the planning of their presses (``plan_games``: the same
  game played ahead on a table of its own, before counting); the pods (other processes). The
  presses themselves cost the counted process a few µs each (``Presser``, run from the hub's
  ``on_settled`` hook when a pod has acked the hub's last frame: one write of the planned
  buttons to the pod's simulator control channel); there is no polling driver.
  The background is the same process for ``quiet`` seconds with the game waiting at its first
  ready and nobody pressing (heartbeats both ways on both links, the web server's upkeep):
  the cost of time passing, which a game under callgrind (~50x slower) has much more of than
  a real one; "less the background" takes that rate times the game's wall time off.
* **pods**: the pods' own share of a decision (our target: under 0.3 M for both pods
  together): the same planned games through the table and its pods' links without the web
  server (hub/pods: the links' thread, frames and acks, prompts and state pushes, the
  table loop's wake-ups for them, and the ``Presser``'s few µs a question), less the
  background of that process (heartbeats) times the game's wall time, less the same
  decisions submitted to a table without pods (engine, session, record); with the links'
  thread's wake-ups and the frames each way per decision.
* **tracker**: tracker actions entered on the display (API path, no pods), per action.
* **startup**: ``lumen hub``'s start until its display accepts, against a bare ``import fastapi``,
  for each mode a table starts in (tracker, lumen hub's default; referee, the pods' table), with
  no stored games: bench/startup.py's figure (its own processes; ``--games 0,1000,10000`` there
  shows it flat in stored games).

The 500-table event's figures (standings p99, the TD's memory) are bench/tournament.py's.
"""

import argparse
import asyncio
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
from hub.pods.protocol import STATE_FLAG_LOCKED, STATE_FLAG_PASS  # noqa: E402

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

def _said(text):
    """What the pods' links say (a pod lost, a pod back): on stderr, where a stalled game's
    cause shows (under callgrind a hub runs ~50x slower; a link it could not serve in time
    is dropped and greeted again, as at a table)."""
    print("[pods] %s" % text, file=sys.stderr, flush=True)


class Hub:
    """The hub process as ``lumen hub`` assembles it (hub/cli/hub.py), with simulated pods."""

    def __init__(self, pods=True):
        from hub.web import server as web
        from hub.record.store import Store
        from hub.sessions.table import Table
        from hub.cli.hub import collect_once_serving
        self.tmp = tempfile.mkdtemp(prefix="lumen-bench-")
        self.db = os.path.join(self.tmp, "games.sqlite3")
        self.table = Table(Store(self.db))
        self.sims, self.pods = {}, None
        # as hub/cli/hub.py without a status light: the pods' links, and the garbage collector
        # given only what is made once the display serves (what the start built is frozen)
        tasks = [collect_once_serving]
        if pods:
            from hub.cli.demo import BOARD_IDS
            from hub.pods.sim import SimPod, build
            from hub.pods.pod_hub import PodHub
            from hub.pods.ports import SimPort
            build()
            self.sims = {s: SimPod(board_id=BOARD_IDS[s]) for s in "ab"}
            self.pods = PodHub(self.table, mode="referee", out=_said)
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


def plan_games(seeds, bot_seeds):
    """The presses of referee games as the demo's bots play them through the pods (hub/cli/demo.py
    PodPlayer: its decide()), worked out ahead on tables of their own with no pods, before
    anything is counted. Per game and seat, in order: what the seat's pod will show for each
    question (kind, options, pass slot: the state frame) and the buttons that answer it
    (``plan["inputs"]``: the decisions the table took, in order). The
    same players go on from game to game (their random draws too), as one pair at a table."""
    from hub.cli.demo import PodPlayer
    from hub.pods.pod_hub import PodHub
    from hub.pods.protocol import PROMPT_KINDS, STATE_FLAG_PASS
    from hub.record.store import Store
    from hub.sessions.table import Table
    players = {s: PodPlayer(s, None, None, None, seed, 0.0, None) for s, seed in bot_seeds.items()}
    plans = []
    for seed in seeds:
        table = Table(Store(":memory:"))
        pods = PodHub(table, mode="referee", out=lambda text: None)   # its prompts only: no pod is seated
        table.auto_setup = True     # as once the pods' links run (Table.attach_pods): the hub answers the setups
        for p in players.values():
            p.table, p.hub, p.acted = table, pods, None
        table.start_referee(seed=seed)
        plan = {"a": [], "b": []}
        while table.session.state.winner is None:
            moved = False
            for seat, p in players.items():
                pr, flags, _ = pods.current(seat)
                buttons = p.decide()
                if buttons is None:
                    continue
                shown = (PROMPT_KINDS.get(pr.kind, PROMPT_KINDS["choose"]), len(pr.options), flags & STATE_FLAG_PASS)
                plan[seat].append((shown, tuple(buttons)))     # a tuple: the simulator encodes it once
                # what the pod's frame does: the slot the cursor ends on, answered
                pods._on_choice(seat, pr.id, 0 if buttons[0] == "prev" else len(buttons), ready=pr.kind == "ready")
                moved = True
            if not moved:
                raise RuntimeError("planning game %d: nobody is asked anything and nobody won" % seed)
        # and the decisions it made, in order, for the same game without pods (work_pods)
        plan["inputs"] = [(r.seat, r.body["kind"], r.body["value"], r.body.get("source", "pod"))
                          for r in table.store.records(table.session.game_id) if r.kind == "input"]
        table.store.close()
        plans.append(plan)
    return plans


#: a planned game with no press for this long has stalled (a press lost, a plan the pods left):
#: it fails with what each pod shows instead of waiting out its hour
STALL_S = float(os.environ.get("LUMEN_BENCH_STALL_S", "300"))


class Presser:
    """Presses a planned game's buttons on the simulated pods, driven by the hub's own hook
    (PodHub.on_settled: a pod acked everything the hub sent it): when a seat's pod shows a new
    question, the planned buttons for it go to the pod's simulator control channel in one
    write (SimPod.queue_presses). No polling, no thread of its own: between two questions it
    does nothing at all. ``done`` is set once the game is over and both pods have acked it
    (their last state asks nothing), or on an error (the pod showed something the plan did
    not foresee: the bench fails rather than play another game)."""

    def __init__(self, hub):
        self.hub = hub
        self.lock = threading.Lock()
        self.plan = None
        self.done = threading.Event()
        self.error = None
        hub.pods.on_settled = self.settled

    def play(self, plan, timeout):
        with self.lock:
            self.plan, self.error = plan, None
            self.next = {"a": 0, "b": 0}
            self.answered = {"a": None, "b": None}      # the prompt id each seat last answered
            self.done.clear()
        self.pressed_at = time.monotonic()
        for seat in "ab":       # the first questions are on the pods already
            self.settled(self.hub.pods.seated(seat))
        end = time.monotonic() + timeout
        while not self.done.wait(5):
            now = time.monotonic()
            if now > end:
                raise RuntimeError("the game did not end within %d s" % timeout)
            if now - self.pressed_at > STALL_S:
                raise RuntimeError("no button pressed for %d s: %s" % (STALL_S, self._where()))
        if self.error:
            raise RuntimeError(self.error)

    def _shown(self, c):
        link = c.link
        lock = link.lock
        lock.acquire()          # by hand: cheaper than a with statement (this runs inside the count)
        try:
            return None if link._outbox else link.last_state
        finally:
            lock.release()

    def settled(self, c):
        if c is None or not c.seat:
            return
        st = self._shown(c)
        if st is None:
            return
        seat = c.seat
        lock = self.lock
        lock.acquire()
        try:
            if self.plan is None or self.done.is_set():
                return
            if st["kind"] == 0:     # the game can only be over when a pod shows no question
                if self._over():
                    self.done.set()
                return
            if st["flags"] & STATE_FLAG_LOCKED or st["prompt"] == self.answered[seat]:
                return
            steps, i = self.plan[seat], self.next[seat]
            shown = (st["kind"], st["options"], st["flags"] & STATE_FLAG_PASS)
            if i >= len(steps) or steps[i][0] != shown:
                self.error = ("seat %s's pod shows (kind, options, pass) %r at its question %d; the plan has %r"
                              % (seat, shown, i + 1, steps[i][0] if i < len(steps) else "no more questions"))
                self.done.set()
                return
            self.next[seat] = i + 1
            self.answered[seat] = st["prompt"]
            self.pressed_at = time.monotonic()
            self.hub.sims[seat].queue_presses(steps[i][1])
        finally:
            lock.release()

    def _where(self):
        """What each pod shows and what the plan waits for (a stalled game's report)."""
        out = []
        for seat in "ab":
            c = self.hub.pods.seated(seat)
            link = c.link if c is not None else None
            out.append("%s: link up %s, unacked %s, shows %r, next planned %r (question %d of %d)" % (
                seat, link and link.up, link and link.unacked, link and link.last_state,
                self.plan[seat][self.next[seat]][0] if self.next[seat] < len(self.plan[seat]) else None,
                self.next[seat] + 1, len(self.plan[seat])))
        for seat in "ab":
            sim = self.hub.sims[seat]
            try:
                sim._collect()
                extra = "replies owed %d, unread %r, stats %r" % (sim._owed, sim._ctl_buf[-200:], sim.stats())
            except Exception as e:       # noqa: BLE001  (a failed press says why here)
                extra = "the pod's control channel: %s" % e
            out.append("%s's simulator: %s" % (seat, extra))
        s = self.hub.table.session
        out.append("the game: %r" % ((None if s is None else self.hub.call(lambda: (s.version, s.ready_status(), s.deadline))),))
        return "; ".join(out)

    def _over(self):
        for seat in "ab":
            if self.next[seat] < len(self.plan[seat]):
                return False
            st = self._shown(self.hub.pods.seated(seat))
            if st is None or st["kind"] != 0:
                return False
        return self.hub.table.session.state.winner is not None


def work_battle(games, quiet_s):
    plans = plan_games([7 + g for g in range(games)], {"a": 70, "b": 71})
    hub = Hub()
    try:
        hub.seat_both()
        presser = Presser(hub)
        page0 = _db_bytes(hub)
        hub.call(hub.table.start_referee, seed=7)
        hub.wait(hub.settled, 60, "the pods to show the first ready")
        # the background: the same process with a game waiting at its first ready and nobody
        # pressing: the hub's own work as time passes (heartbeats, the web server's upkeep)
        wall, cpu, _ = span("quiet", lambda: time.sleep(quiet_s))
        info("quiet", {"wall_s": wall, "cpu_s": cpu})
        results = []
        for g in range(games):
            if g:
                page0 = _db_bytes(hub)
                hub.call(hub.table.start_referee, seed=7 + g)
                hub.wait(hub.settled, 60, "the pods to show the first ready")
            wall, cpu, _ = span("game%d" % g, lambda: presser.play(plans[g], 3600))
            s = hub.table.session
            gid = s.game_id
            rows = hub.call(lambda: s.store.db.execute(
                "SELECT kind, COUNT(*), SUM(LENGTH(CAST(body AS BLOB))) FROM records WHERE game_id = ? GROUP BY kind",
                (gid,)).fetchall())
            results.append({"wall_s": wall, "cpu_s": cpu, "battles": s.state.battles, "turns": s.state.turn,
                            "decisions": sum(n for k, n, _ in rows if k == "input"),
                            "record": {k: [n, b] for k, n, b in rows}, "db_growth": _db_bytes(hub) - page0})
        info("games", results)
    finally:
        hub.close()


class PodsOnly:
    """The table and its pods' links as the hub runs them (hub/pods/pod_hub.py PodHub on the
    table's asyncio loop, the links on their thread), without the web server: for the pods'
    own share of a decision."""

    def __init__(self):
        from hub.cli.demo import BOARD_IDS
        from hub.pods.pod_hub import PodHub
        from hub.pods.ports import SimPort
        from hub.pods.sim import SimPod, build
        from hub.record.store import Store
        from hub.sessions.table import Table
        self.tmp = tempfile.mkdtemp(prefix="lumen-bench-")
        self.table = Table(Store(os.path.join(self.tmp, "pods.sqlite3")))
        build()
        self.sims = {s: SimPod(board_id=BOARD_IDS[s]) for s in "ab"}
        self.pods = PodHub(self.table, mode="referee", out=_said)
        for s in "ab":
            self.pods.add(SimPort(self.sims[s]))
        self.loop = asyncio.new_event_loop()
        threading.Thread(target=self.loop.run_forever, name="table", daemon=True).start()
        self.serving = asyncio.run_coroutine_threadsafe(self.pods.run(serial_devices=(), rescan=False), self.loop)

    def call(self, fn, *args, **kw):
        async def run():
            return fn(*args, **kw)
        return asyncio.run_coroutine_threadsafe(run(), self.loop).result(600)

    wait = Hub.wait
    seat_both = Hub.seat_both
    settled = Hub.settled

    def close(self):
        self.serving.cancel()
        for sim in self.sims.values():
            sim.close()


def work_pods(games, quiet_s):
    """The pods' own work per decision: the planned games through the pods (table, PodHub,
    links, no web server), less the background of the same process (links' heartbeats) times
    the game's wall time, less the same decisions submitted to a table without pods."""
    from hub.record.store import Store
    from hub.sessions.table import Table
    plans = plan_games([7 + g for g in range(games)], {"a": 70, "b": 71})
    hub = PodsOnly()
    table = Table(Store(os.path.join(hub.tmp, "plain.sqlite3")))
    try:
        hub.seat_both()
        presser = Presser(hub)
        hub.call(hub.table.start_referee, seed=7)
        hub.wait(hub.settled, 60, "the pods to show the first ready")
        wall, cpu, _ = span("quiet", lambda: time.sleep(quiet_s))
        info("quiet", {"wall_s": wall})
        results = []
        for g in range(games):
            if g:
                hub.call(hub.table.start_referee, seed=7 + g)
                hub.wait(hub.settled, 60, "the pods to show the first ready")
            before = _pod_counters(hub.pods)
            wall, cpu, _ = span("pods%d" % g, lambda: presser.play(plans[g], 3600))
            after = _pod_counters(hub.pods)
            decisions = len(plans[g]["inputs"])
            # the same game on a table with no pods (one table for all games, as the hub's:
            # what a table keeps from game to game is kept there too), right after
            table.start_referee(seed=7 + g)

            def replay():
                for seat, kind, value, source in plans[g]["inputs"]:
                    table.submit(seat, kind, value, source=source)
            span("table%d" % g, replay)
            if table.session.state.battles != hub.table.session.state.battles:
                raise RuntimeError("the game without pods went another way")
            results.append({"wall_s": wall, "decisions": decisions, "battles": table.session.state.battles,
                            "counters": {k: after[k] - before[k] for k in after}})
        info("pods", results)
    finally:
        table.store.close()
        hub.close()


def _pod_counters(pods):
    """What the pods' path did so far: the links' thread's passes, frames each way, state
    frames, drains on the table's thread."""
    links = [c.link for c in pods.conns]
    return {"wakes": pods.links.wakes, "frames_out": sum(k.frames_out for k in links),
            "frames_in": sum(k.decoder.frames for k in links), "states": sum(pods.pushes.values()),
            "drains": pods.drains}


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
    display flush per decision, as the broadcaster's coalesced flush does with one client
    connected (hub/web/display_feed.py: the display state built, compared with the one last
    sent, the changes serialized once for all clients; the client got the whole state when it
    connected, before the game). The games' decisions only, as in the battle figure: each
    game is started before its phase is counted."""

    from engine.bots import Bot
    from engine import apply
    from hub.record.store import Store
    from hub.sessions.table import Table
    from hub.web.display_feed import DisplayFeed
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

    # Each phase counts the games' decisions only: its tables are made and their games started
    # before it (a start reads the sample decks and writes the card table: ~9 M a game, which
    # the battle figure does not count either).
    def started(phase, tag):
        tables = []
        for i, (seed, inputs, _) in enumerate(plays):
            path = ":memory:" if phase == "engine" else os.path.join(tmp, "%s-%s%d.sqlite3" % (tag, phase, i))
            t = Table(Store(path))
            t.start_referee(seed=seed)
            feed = DisplayFeed(t) if phase == "display" else None
            if feed is not None:
                feed.update(["game"])
                feed.full(["hello"])            # the connected client's first message
            tables.append((t, feed, inputs))
        return tables

    def engine(tables):
        for t, _, inputs in tables:
            st = t.session.state
            for seat, kind, value in inputs:
                st, _ = apply(st, seat, kind, value, copy=False)     # in place, as the session does

    def session(tables):
        for t, feed, inputs in tables:
            for seat, kind, value in inputs:
                t.submit(seat, kind, value, source="pod")
                if feed is not None:
                    feed.update(["state"])

    def close(tables):
        for t, _, _ in tables:
            t.store.close()

    for name, fn in (("engine", engine), ("session", session), ("display", session)):
        warm = started(name, "warm")
        fn(warm)                                # warm up first (imports, caches)
        close(warm)
        counted = started(name, "counted")
        span(name, lambda: fn(counted))
        close(counted)
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

FIGURES = ("idle", "battle", "pods", "parts", "tracker", "startup")


#: issue 36's goals, printed beside each figure (instructions)
GOAL_IDLE_PER_S = 0.4e6
GOAL_BATTLE = 5e6
GOAL_PODS_PER_DECISION = 0.3e6      # our own target for the pods' share (issue 16)
GOAL_WAKES_PER_DECISION = 1.0       # the links' thread woken once a decision


def against(value, goal):
    """'(goal < 400 k: met)' for a counted figure; nothing without a counter."""
    if value is None:
        return ""
    return " (goal < %s: %s)" % (icount.fmt(goal), "met" if value < goal else "NOT met")


def report(idle_s=20, games=1, actions=200, out=print, only=FIGURES, smoke=False):
    kind = icount.counter()
    me = os.path.abspath(__file__)
    out("instruction counts (%s; %s; hub process only: pods and the display's client are other processes)"
        % (kind or "no counter here: wall and CPU only", icount.interpreter()))
    if "idle" in only:
        report_idle(me, idle_s, out)
    if "battle" in only:
        report_battle(me, games, out)
    if "pods" in only:
        report_pods(me, games, out)
    if "parts" in only:
        report_parts(me, out)
    if "tracker" in only:
        report_tracker(me, actions, out)
    if "startup" in only:
        report_startup(out, smoke)


def report_idle(me, idle_s, out):
    counts, infos = icount.run_worker(me, ["--worker", "idle", str(idle_s)])
    i = infos["idle"]
    rate = counts["idle"] / i["wall_s"] if counts["idle"] is not None else None
    out("seated idle table: %s per second%s (%.1f s; hub CPU %.0f%% of a core meanwhile)"
        % (icount.fmt(rate), against(rate, GOAL_IDLE_PER_S), i["wall_s"], 100 * i["cpu_s"] / i["wall_s"]))


def report_battle(me, games, out):
    counts, infos = icount.run_worker(me, ["--worker", "battle", str(games), "5"])
    q = infos["quiet"]
    bg = counts["quiet"] / q["wall_s"] if counts["quiet"] is not None else None
    for g, r in enumerate(infos["games"]):
        total = counts["game%d" % g]
        net = None if total is None else total - bg * r["wall_s"]
        per = None if total is None else total / r["battles"]
        out("referee game %d through the pods: %d battles, %d decisions, %.1f s: %s in all; background %s/s; "
            "per battle %s%s (%s without the background)"
            % (g, r["battles"], r["decisions"], r["wall_s"], icount.fmt(total), icount.fmt(bg),
               icount.fmt(per), against(per, GOAL_BATTLE), icount.fmt(None if net is None else net / r["battles"])))
        body = sum(b for _, b in r["record"].values())
        out("  record of that game: %.1f KB of record bodies (%s); the database file grew %.1f KB"
            % (body / 1024, ", ".join("%s %d x %.1f KB" % (k, n, b / 1024) for k, (n, b) in sorted(r["record"].items())),
               r["db_growth"] / 1024))


def report_pods(me, games, out):
    counts, infos = icount.run_worker(me, ["--worker", "pods", str(games), "5"])
    bg = counts["quiet"] / infos["quiet"]["wall_s"] if counts["quiet"] is not None else None
    for g, r in enumerate(infos["pods"]):
        k = {name: v / r["decisions"] for name, v in r["counters"].items()}
        net = None if bg is None else counts["pods%d" % g] - bg * r["wall_s"] - counts["table%d" % g]
        per = None if net is None else net / r["decisions"]
        wakes = "met" if k["wakes"] <= GOAL_WAKES_PER_DECISION else "NOT met"
        out("the pods' part of game %d (%d decisions): %s per decision%s; the links' thread woke %.1f times "
            "(goal: once: %s), %.1f frames out (%.1f state), %.1f in, per decision (background %s/s)"
            % (g, r["decisions"], icount.fmt(per), against(per, GOAL_PODS_PER_DECISION), k["wakes"], wakes,
               k["frames_out"], k["states"], k["frames_in"], icount.fmt(bg)))


def report_parts(me, out):
    counts, infos = icount.run_worker(me, ["--worker", "parts", "3"])
    p = infos["parts"]
    per = {k: None if counts[k] is None else counts[k] / p["battles"] for k in ("engine", "session", "display")}
    out("where a referee battle goes (%d battles, %d decisions, no pods): engine %s; + session (record, views, "
        "explanations) %s; + display flush per decision (changes built and serialized) %s"
        % (p["battles"], p["decisions"], icount.fmt(per["engine"]),
           icount.fmt(None if per["session"] is None else per["session"] - per["engine"]),
           icount.fmt(None if per["display"] is None else per["display"] - per["session"])))


def report_tracker(me, actions, out):
    counts, infos = icount.run_worker(me, ["--worker", "tracker", str(actions)])
    t = infos["tracker"]
    per = None if counts["actions"] is None else (counts["actions"] - counts["none"]) / t["actions"]
    out("tracker action from the display (submit, record, display broadcast): %s per action "
        "(%d actions, %.2f ms each as run)" % (icount.fmt(per), t["actions"], 1000 * t["wall_s"] / t["actions"]))


def report_startup(out, smoke=False):
    """bench/startup.py's figure for each mode, its lines as it says them (it prints the goal)."""
    for mode in ("tracker", "referee"):
        cmd = [sys.executable, os.path.join(HERE, "startup.py"), "--mode", mode]
        cmd += ["--smoke"] if smoke else ["--games", "0", "--repeat", "3"]
        run = subprocess.run(cmd, capture_output=True, text=True)
        if run.returncode != 0:
            raise SystemExit("bench/startup.py --mode %s failed:\n%s" % (mode, run.stderr[-3000:]))
        for line in run.stdout.splitlines():
            if line.startswith(("bare python", "lumen hub")):
                out("start-up: " + line)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--worker", nargs="+")
    ap.add_argument("--idle", type=float, default=20)
    ap.add_argument("--games", type=int, default=1)
    ap.add_argument("--actions", type=int, default=200)
    ap.add_argument("--only", default=",".join(FIGURES),
                    help="comma-separated figures to measure (default all: %s)" % ",".join(FIGURES))
    ap.add_argument("--smoke", action="store_true", help="every part, small: CI's check that it runs (figures meaningless)")
    args = ap.parse_args()
    if args.smoke:
        args.idle, args.games, args.actions = 1.0, 1, 10
    if args.worker:
        name, rest = args.worker[0], args.worker[1:]
        if name == "idle":
            work_idle(float(rest[0]))
        elif name == "battle":
            work_battle(int(rest[0]), float(rest[1]))
        elif name == "pods":
            work_pods(int(rest[0]), float(rest[1]))
        elif name == "parts":
            work_parts(int(rest[0]))
        elif name == "tracker":
            work_tracker(int(rest[0]))
        return
    only = tuple(f for f in args.only.split(",") if f)
    bad = [f for f in only if f not in FIGURES]
    if bad:
        ap.error("--only: unknown figure(s) %s (choose from %s)" % (", ".join(bad), ", ".join(FIGURES)))
    report(args.idle, args.games, args.actions, only=only, smoke=args.smoke)


if __name__ == "__main__":
    main()
