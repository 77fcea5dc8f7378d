"""Tournament scale, by simulation: one Mosquitto, the TD service (its own process, with
its page) and N simulated tables (real hub tables with their SQLite records, bots playing
referee games at an accelerated pace, each joined through its own MQTT connection; up to
--per-proc 64 tables a process, as real hubs are processes of their own), for 3 Swiss
rounds. Prints, per size:

  results lost / doubled        (every table's outbox against the TD's record: must be 0 / 0)
  game end -> standings         (a table's final result to the retained standings that include it)
  clock: hub estimate vs TD     (each hub's estimate of the TD's clock against the TD's true clock)
  clock: display vs TD          (what each table's display shows against the TD's round clock)
  broker / TD CPU and memory    (from /proc: CPU seconds per minute, peak RSS)

and, with --faults, the same event at one size with a broker kill -9 + restart mid-round,
a TD kill -9 + restart mid-round and one table cut off (silently) for --cut-seconds.

    python3 bench/tournament.py --tables 8,16,32,64
    python3 bench/tournament.py --tables 16 --faults --cut-seconds 60
    python3 bench/tournament.py --smoke          # 4 tables, 1 round: the bench itself works
"""

import argparse
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
import tempfile
import threading
import time
import urllib.request

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

from engine import IllegalDecision  # noqa: E402
from hub.tournament.broker import LocalBroker, free_port, make_url  # noqa: E402
from hub.tournament.clock import RoundClock  # noqa: E402
from hub.tournament.eventdir import new_event  # noqa: E402
from hub.tournament.mqtt import Link, topic  # noqa: E402
from hub.tournament.record import EventRecord  # noqa: E402
from hub.tournament.simtable import SimTable  # noqa: E402
from tests.tournament.netcut import NetCut  # noqa: E402

TICK = os.sysconf("SC_CLK_TCK")
#: what the tables' clocks may differ by at one instant (docs/tournament.md §5; issue 38)
SPREAD_BOUND_MS = 250


def rss_mb(pid):
    """A process's resident memory now (MB), from /proc."""
    try:
        with open("/proc/%d/status" % pid) as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) / 1024
    except OSError:
        pass
    return None


def proc_stats(pid):
    """(CPU seconds, peak RSS MB) of a process, from /proc."""
    try:
        with open("/proc/%d/stat" % pid) as f:
            parts = f.read().rsplit(")", 1)[1].split()
        cpu = (int(parts[11]) + int(parts[12])) / TICK
        hwm = 0
        with open("/proc/%d/status" % pid) as f:
            for line in f:
                if line.startswith("VmHWM:"):
                    hwm = int(line.split()[1]) / 1024
        return cpu, hwm
    except OSError:
        return None, None


def pct(values, q):
    if not values:
        return float("nan")
    v = sorted(values)
    return v[min(len(v) - 1, int(round(q / 100 * (len(v) - 1))))]


class Tables:
    """Simulated tables in one process (a worker: ``--worker CONFIG``), as real hubs are each
    a process of their own: one process holding all of them had ~9 descriptors a table
    (two SQLite files with their WAL and shm, the MQTT socket, paho's wake-up pair) and past
    1024 of them paho's select() failed (46 of 128 tables never came online). Driven by one
    loop; measured here: when each table stored a result, the hubs' clock estimates, each
    display against the room's clock (the coordinator's, passed on: ``clock JSON`` on stdin;
    a watching connection of each worker's own would share one spectator user with the
    coordinator's, and clients of one user take turns: the measuring connections kicked each
    other every second or two, so standings were seen late)."""

    def __init__(self, cfg):
        self.sims = [SimTable(url, cfg["event"], n, os.path.join(cfg["folder"], "tables", str(n)), seed=n,
                              pace=cfg["pace"]) for n, url in cfg["tables"]]
        self.cut_table = None           # a table the coordinator cut off: its clock is not sampled meanwhile
        self.room = {}
        self.skew_est, self.skew_display, self.spread, self.bounds = [], [], [], []
        self.spread_at = []             # when each spread sample was taken
        self.report_at = {}             # result_id -> mono when the table stored it
        self.report_wall = {}           # result_id -> wall ms then (the TD's record stamps wall time)
        self.refused = 0                # bot decisions the table refused (it had moved on)
        self.stop_ev = threading.Event()
        self.error = None

    def drive(self):
        due = [0.0] * len(self.sims)
        last_sample = 0.0
        try:
            while not self.stop_ev.is_set():
                now = time.monotonic()
                for i, s in enumerate(self.sims):
                    if now >= due[i]:
                        before = len(s.bridge.reported)
                        try:
                            due[i] = now + s.step(now)
                        except IllegalDecision:     # the table moved on meanwhile (a deadline): look again, counted
                            self.refused += 1
                            due[i] = now + s.pace
                        for body in s.bridge.reported[before:]:
                            self.report_at[body["result_id"]] = time.monotonic()
                            self.report_wall[body["result_id"]] = time.time() * 1000
                if now - last_sample >= 0.5:
                    last_sample = now
                    self.sample_clocks()
                # until the next table wants a look (at most the next clock sample)
                time.sleep(min(max(0.002, min(due) - time.monotonic()), 0.5))
        except Exception as e:
            self.error = "%s: %s" % (type(e).__name__, e)
            raise

    def sample_clocks(self):
        clock = self.room.get("clock")
        errs = []
        for s in self.sims:
            if s.number == self.cut_table:
                continue
            # the TD's clock is this machine's wall clock: read it before and after the estimate,
            # so a preempted bench thread does not count as clock error
            before = time.time_ns() / 1e6
            est = s.link.td_now()
            after = time.time_ns() / 1e6
            if est is None:
                continue
            errs.append(0.0 if before <= est <= after else (est - before if est < before else est - after))
            self.bounds.append(s.link.estimator.error_bound)
            if clock and clock.get("state") == "running" and s.table.timer.state == "running" and \
                    s.link.clock and s.link.clock.get("seq") == clock.get("seq") == s.bridge.clock_seq:
                # (once the table has applied the TD's latest clock change: how long that takes
                # is the delivery figure, "game end -> standings" is the same path)
                rc = RoundClock.from_json(clock)
                hi = rc.left(time.time_ns() / 1e6, s.number)
                shown = s.table.timer.left(s.table.wall.now_ms())
                lo = rc.left(time.time_ns() / 1e6, s.number)
                self.skew_display.append(0.0 if lo <= shown <= hi else min(abs(shown - lo), abs(shown - hi)))
        if errs:
            self.skew_est.extend(abs(e) for e in errs)
            self.spread.append(max(errs) - min(errs))
            self.spread_at.append(time.monotonic())     # (one monotonic clock for the machine's processes)

    def status(self):
        return {"online": sum(1 for s in self.sims if s.link.link.connected.is_set()),
                "reported1": sum(1 for s in self.sims if s.bridge.reported),
                "reported2": sum(1 for s in self.sims if len(s.bridge.reported) >= 2),
                "pending": sum(len(s.link.pending()) for s in self.sims), "error": self.error}

    def results(self):
        return {"report_at": self.report_at, "report_wall": self.report_wall,
                "answers": {rid: a.get("seq") for s in self.sims for rid, a in s.link.answers.items()},
                "reported": [b["result_id"] for s in self.sims for b in s.link.outbox.results()],
                "decisions": sum(s.decisions for s in self.sims), "refused": self.refused, "skew_est": self.skew_est, "bounds": self.bounds,
                "spread": self.spread, "spread_at": self.spread_at, "skew_display": self.skew_display, "error": self.error}

    def close(self):
        self.stop_ev.set()
        for s in self.sims:
            try:
                s.stop()
            except Exception:
                pass


def worker(cfg_path):
    """A worker process: its tables, driven until the coordinator says stop (stdin lines:
    ``status``, ``cut N``, ``uncut``, ``stop``; each answered with one JSON line)."""
    with open(cfg_path) as f:
        cfg = json.load(f)
    w = Tables(cfg)
    for s in w.sims:
        s.start()
    driver = threading.Thread(target=w.drive, daemon=True)
    driver.start()
    out = sys.stdout
    for line in sys.stdin:
        cmd = line.split()
        if not cmd:
            continue
        if cmd[0] == "status":
            reply = w.status()
        elif cmd[0] == "cut":
            w.cut_table = int(cmd[1])
            reply = {"ok": True}
        elif cmd[0] == "clock":
            w.room["clock"] = json.loads(line.split(None, 1)[1])
            reply = {"ok": True}
        elif cmd[0] == "uncut":
            w.cut_table = None
            reply = {"ok": True}
        elif cmd[0] == "stop":
            w.stop_ev.set()
            driver.join(10)
            reply = w.results()
            cpu, hwm = proc_stats(os.getpid())
            reply.update(cpu_s=cpu, rss_mb=hwm)
            out.write(json.dumps(reply) + "\n")
            out.flush()
            w.close()
            return 0
        else:
            reply = {"error": "unknown command %r" % cmd[0]}
        out.write(json.dumps(reply) + "\n")
        out.flush()
    w.close()
    return 0


class Worker:
    """The coordinator's handle on one worker process."""

    def __init__(self, cfg, folder):
        path = os.path.join(folder, "worker-%d.json" % cfg["index"])
        with open(path, "w") as f:
            json.dump(cfg, f)
        self.numbers = [n for n, _ in cfg["tables"]]
        self.proc = subprocess.Popen([sys.executable, os.path.abspath(__file__), "--worker", path], cwd=ROOT,
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
                                     env=dict(os.environ, PYTHONPATH=ROOT))
        self.lock = threading.Lock()

    def ask(self, cmd):
        with self.lock:
            self.proc.stdin.write(cmd + "\n")
            self.proc.stdin.flush()
            line = self.proc.stdout.readline()
        if not line:
            raise RuntimeError("a bench worker ended (exit %s)" % self.proc.poll())
        return json.loads(line)

    def close(self):
        if self.proc.poll() is None:
            self.proc.kill()
        self.proc.wait(30)


class Bench:
    """The event: Mosquitto, the TD (its own process, with its page) and the tables in
    ``procs`` worker processes; the standings watched from here."""

    def __init__(self, tables, rounds, pace, folder, cut_table=None, per_proc=64, td_trace=None, progress=0):
        self.n, self.rounds, self.pace, self.folder = tables, rounds, pace, folder
        self.td_trace, self.progress = td_trace, progress
        self.t_on = time.monotonic()
        players = [{"id": "p%03d" % i, "name": "선수%03d" % i} for i in range(1, 2 * tables + 1)]
        self.creds = new_event(folder, "bench", players, rounds=rounds, round_minutes=30, best_of=1, seed=7)
        self.broker = LocalBroker(os.path.join(folder, "broker"),
                                  {k: v for k, v in self.creds.items() if k != "admin_token"}).start()
        self.web_port = free_port()
        self.td = None
        self.td_cpu = 0.0
        self.td_hwm = 0.0
        self.cut = NetCut(self.broker.port) if cut_table else None
        self.cut_table = cut_table
        self.spawn_td()
        urls = []
        for n in range(1, tables + 1):
            port = self.cut.port if n == cut_table else self.broker.port
            urls.append((n, make_url("127.0.0.1", port, "table-%d" % n, self.creds["table-%d" % n])))
        procs = max(1, -(-tables // per_proc))
        self.workers = [Worker({"index": i, "event": "bench", "folder": folder, "pace": pace,
                                "tables": urls[i::procs]}, folder)
                        for i in range(procs)]
        self.standings_seen = []        # (mono, version): CLOCK_MONOTONIC is the machine's, as the workers'
        self.standings_wall = []        # (wall ms, version): against the TD record's wall stamps
        self.room = {}
        self.watch = Link(self.broker.url("spectator"), "bench-watch")
        self.watch.subscribe(topic("bench", "room", "+"), self._on_room)

    # ------------------------------------------------------------ processes
    def spawn_td(self):
        env = dict(os.environ, PYTHONPATH=ROOT)
        # --td-trace: the same service under tracemalloc (bench/td_traced.py), to see what it keeps
        entry = ["-m", "hub.tournament"]
        if self.td_trace:
            entry = [os.path.join(ROOT, "bench", "td_traced.py")]
            env["LUMEN_TRACE_FILE"] = self.td_trace
        self.td = subprocess.Popen([sys.executable] + entry + ["run", "--dir", self.folder,
                                    "--broker", "mqtt://127.0.0.1:%d" % self.broker.port, "--port", str(self.web_port)],
                                   cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        self.wait(lambda: self.http("/api/state") is not None, 60, "the TD page")

    def pass_clock(self, stop):
        """The room's clock, as this process's one spectator connection sees it, to the workers."""
        sent = None
        while not stop.wait(0.1):
            clock = self.room.get("clock")
            if clock is not None and clock != sent:
                for w in self.workers:
                    w.ask("clock " + json.dumps(clock))
                sent = clock

    def watch_progress(self, t0, stop):
        """Every ``progress`` seconds a line: results, duplicates, the TD's live memory."""
        while not stop.wait(self.progress):
            st = (self.http("/api/state") or {}).get("stats", {})
            rnd = (self.room.get("round") or {}).get("round")
            print("  %6.0f s  round %s: %s results, %s duplicates answered, %s time requests; TD RSS %.0f MB, "
                  "broker RSS %.0f MB, load %.1f" % (
                      time.monotonic() - t0, rnd, st.get("results"), st.get("duplicates"), st.get("time_requests"),
                      rss_mb(self.td.pid) or 0, rss_mb(self.broker.pid) or 0, os.getloadavg()[0]), flush=True)

    def kill_td(self):
        cpu, hwm = proc_stats(self.td.pid)
        self.td_cpu += cpu or 0
        self.td_hwm = max(self.td_hwm, hwm or 0)
        self.td.kill()
        self.td.wait()

    def http(self, path, body=None):
        req = urllib.request.Request("http://127.0.0.1:%d%s" % (self.web_port, path),
                                     data=None if body is None else json.dumps(body).encode(),
                                     headers={"Content-Type": "application/json",
                                              "Authorization": "Bearer " + self.creds["admin_token"]})
        try:
            with urllib.request.urlopen(req, timeout=30) as r:
                return json.loads(r.read())
        except OSError:
            return None

    @staticmethod
    def wait(cond, timeout, what, poll=0.05):
        deadline = time.monotonic() + timeout
        while not cond():
            if time.monotonic() > deadline:
                raise RuntimeError("timed out waiting for " + what)
            time.sleep(poll)

    def _on_room(self, t, obj, msg):
        what = t.rsplit("/", 1)[1]
        if obj is None:
            return
        self.room[what] = obj
        if what == "standings":
            self.standings_seen.append((time.monotonic(), obj.get("version", 0)))
            self.standings_wall.append((time.time() * 1000, obj.get("version", 0)))

    def status(self):
        total = {}
        for w in self.workers:
            st = w.ask("status")
            if st.get("error"):
                raise RuntimeError("a bench worker failed: %s" % st["error"])
            for k, v in st.items():
                if k != "error":
                    total[k] = total.get(k, 0) + v
        return total

    def _holder(self, n):
        return next(w for w in self.workers if n in w.numbers)

    # ------------------------------------------------------------ the event
    def run(self, faults=False, cut_seconds=60):
        self.watch.start()
        stop_clock = threading.Event()
        threading.Thread(target=self.pass_clock, args=(stop_clock,), daemon=True).start()
        t_on = self.t_on = time.monotonic()
        self.wait(lambda: self.status()["online"] == self.n, 600, "every table online", poll=0.5)
        print("  %d tables online in %.1f s (%d processes)" % (self.n, time.monotonic() - t_on, len(self.workers)),
              flush=True)
        t0 = time.monotonic()
        b_cpu0, _ = proc_stats(self.broker.pid)
        b_cpu_extra = 0.0
        w_cpu0 = [proc_stats(w.proc.pid)[0] or 0 for w in self.workers]
        stop_progress = threading.Event()
        if self.progress:
            threading.Thread(target=self.watch_progress, args=(t0, stop_progress), daemon=True).start()
        for rnd in range(1, self.rounds + 1):
            assert self.http("/api/control/pair", {}) is not None, "pairing refused"
            assert self.http("/api/control/start", {}) is not None, "start refused"
            if faults and rnd == 1:
                self.wait(lambda: self.status()["reported1"] >= self.n // 4, 600, "some results", poll=0.5)
                c, _ = proc_stats(self.broker.pid)
                b_cpu_extra += (c or 0) - (b_cpu0 or 0)
                print("  fault: broker kill -9 and restart", flush=True)
                self.broker.restart(hard=True)
                b_cpu0, _ = proc_stats(self.broker.pid)
            if faults and rnd == 2:
                self.wait(lambda: self.status()["reported2"] >= self.n // 4, 600, "some round-2 results", poll=0.5)
                print("  fault: TD kill -9 and restart", flush=True)
                self.kill_td()
                self.spawn_td()
            if faults and rnd == 3 and self.cut:
                print("  fault: table %d cut off for %d s" % (self.cut_table, cut_seconds), flush=True)
                holder = self._holder(self.cut_table)
                holder.ask("cut %d" % self.cut_table)
                self.cut.cut(silent=True)
                time.sleep(cut_seconds)
                self.cut.restore()
                holder.ask("uncut")
            self.wait(lambda: (self.room.get("round") or {}).get("round") == rnd and
                      (self.room.get("round") or {}).get("complete"), 3600, "round %d" % rnd, poll=0.5)
            print("  round %d complete at %.1f s" % (rnd, time.monotonic() - t0), flush=True)
        elapsed = time.monotonic() - t0
        stop_progress.set()
        stop_clock.set()
        # let the last acks and samples arrive
        self.wait(lambda: self.status()["pending"] == 0, 120, "the last acks", poll=0.5)
        time.sleep(1.0)
        w_cpu = [(proc_stats(w.proc.pid)[0] or 0) - c0 for w, c0 in zip(self.workers, w_cpu0)]
        parts = [w.ask("stop") for w in self.workers]
        b_cpu, b_hwm = proc_stats(self.broker.pid)
        b_cpu = (b_cpu or 0) - (b_cpu0 or 0) + b_cpu_extra
        td_cpu, td_hwm = proc_stats(self.td.pid)
        self.td_cpu += td_cpu or 0
        self.td_hwm = max(self.td_hwm, td_hwm or 0)
        return self.figures(elapsed, b_cpu, b_hwm, parts, w_cpu)

    def figures(self, elapsed, b_cpu, b_hwm, parts, w_cpu):
        rec = EventRecord(os.path.join(self.folder, "event.sqlite"))
        results = [r for r in rec.records(("result",))]
        rec.close()
        td_ids = [r["body"]["result_id"] for r in results]
        per_match = {}
        for r in results:
            per_match.setdefault((r["body"]["round"], r["body"]["table"]), []).append(r["body"]["result_id"])
        reported = {rid for p in parts for rid in p["reported"]}
        lost = len(reported - set(td_ids))
        doubled = (len(td_ids) - len(set(td_ids))) + sum(len(v) - 1 for v in per_match.values())
        lat = []
        for p in parts:
            for rid, seq in p["answers"].items():
                at = p["report_at"].get(rid)
                if seq is None or at is None:
                    continue
                seen = [t for t, v in self.standings_seen if v >= seq and t >= at]
                if seen:
                    lat.append((min(seen) - at) * 1000)

        # the same path in two parts, by wall clock (one machine): the table storing its result
        # -> the TD's record of it; that record -> the first standings seen that include it
        to_td, td_to_seen = [], []
        walls = {rid: w for p in parts for rid, w in p["report_wall"].items()}
        for r in results:
            w = walls.get(r["body"]["result_id"])
            if w is not None:
                to_td.append(r["wall_ms"] - w)
            seen = [t for t, v in self.standings_wall if v >= r["seq"]]
            if seen:
                td_to_seen.append(min(seen) - r["wall_ms"])

        def joined(key):
            return [x for p in parts for x in p[key]]
        est, bounds, spread, disp = joined("skew_est"), joined("bounds"), joined("spread"), joined("skew_display")
        # when the widest spread was (seconds after the tables were started: the first seconds are
        # every hub's first samples at once), and the spread from 30 s on
        at = joined("spread_at")
        worst_at = at[spread.index(max(spread))] - self.t_on if spread else float("nan")
        later = [v for v, t in zip(spread, at) if t - self.t_on >= 30]
        return {"tables": self.n, "rounds": self.rounds, "results": len(td_ids), "expected": self.n * self.rounds,
                "procs": len(self.workers), "lost": lost, "doubled": doubled, "elapsed_s": elapsed,
                "decisions": sum(p["decisions"] for p in parts), "refused": sum(p["refused"] for p in parts),
                "standings_ms": (pct(lat, 50), pct(lat, 99), max(lat) if lat else float("nan")),
                "to_td_ms": (pct(to_td, 50), pct(to_td, 99), max(to_td or [float("nan")])),
                "td_to_seen_ms": (pct(td_to_seen, 50), pct(td_to_seen, 99), max(td_to_seen or [float("nan")])),
                "est_ms": (pct(est, 50), pct(est, 99), max(est or [float("nan")])),
                "bound_ms": (pct(bounds, 50), pct(bounds, 99), max(bounds or [float("nan")])),
                "spread_ms": (pct(spread, 50), pct(spread, 99), max(spread or [float("nan")])),
                "spread_worst_at_s": worst_at,
                "spread_later_ms": (pct(later, 50), pct(later, 99), max(later or [float("nan")])),
                "display_ms": (pct(disp, 50), pct(disp, 99), max(disp or [float("nan")])),
                "broker_cpu_per_min": b_cpu / elapsed * 60, "broker_rss_mb": b_hwm,
                "td_cpu_per_min": self.td_cpu / elapsed * 60, "td_rss_mb": self.td_hwm,
                "tables_cpu_share": sum(w_cpu) / elapsed, "tables_rss_mb": max(p["rss_mb"] or 0 for p in parts),
                "load": os.getloadavg()[0]}

    def close(self):
        for w in self.workers:
            try:
                w.ask("stop")
            except Exception:
                pass
            w.close()
        self.watch.stop()
        try:
            if self.td_trace:
                self.td.terminate()     # the traced TD writes its last snapshot on SIGTERM
                self.td.wait(60)
            self.td.kill()
            self.td.wait(10)
        except Exception:
            pass
        if self.cut:
            self.cut.close()
        self.broker.kill()


def show(f):
    print("tables %(tables)d: %(results)d/%(expected)d results in %(elapsed_s).0f s (%(decisions)d bot decisions, "
          "%(refused)d refused: the table had moved on)" % f)
    print("  lost %(lost)d, doubled %(doubled)d" % f)
    print("  game end -> standings: median %.0f ms, p99 %.0f ms, max %.0f ms" % f["standings_ms"])
    print("    of which the table's result -> the TD's record: median %.0f ms, p99 %.0f ms, max %.0f ms"
          % f["to_td_ms"])
    print("    and the TD's record -> standings seen: median %.0f ms, p99 %.0f ms, max %.0f ms" % f["td_to_seen_ms"])
    print("  clock, hub estimate vs TD: median %.1f ms, p99 %.1f ms, max %.1f ms" % f["est_ms"])
    print("  clock, each hub's error bound (half its best round trip): median %.1f ms, p99 %.1f ms, max %.1f ms"
          % f["bound_ms"])
    print("  clock, spread across tables: median %.1f ms, p99 %.1f ms, max %.1f ms (bound %d ms; the max %.0f s "
          "after the tables started)" % (f["spread_ms"] + (SPREAD_BOUND_MS, f["spread_worst_at_s"])))
    print("    from 30 s after the tables started: median %.1f ms, p99 %.1f ms, max %.1f ms" % f["spread_later_ms"])
    print("  clock, display vs TD round clock: median %.0f ms, p99 %.0f ms, max %.0f ms" % f["display_ms"])
    print("  broker: %.2f CPU s/min, peak RSS %.1f MB; TD: %.2f CPU s/min, peak RSS %.1f MB"
          % (f["broker_cpu_per_min"], f["broker_rss_mb"], f["td_cpu_per_min"], f["td_rss_mb"]))
    print("  the simulated tables (%d processes): %.2f cores busy on average, the largest %.0f MB; load average "
          "%.1f at the end" % (f["procs"], f["tables_cpu_share"], f["tables_rss_mb"], f["load"]), flush=True)


def pairing_times(sizes, rounds=4, compare=False):
    """Seconds to pair each Swiss round of an event of N players (random results)."""
    import random
    from hub.tournament.event import Event
    for n in sizes:
        ev = Event()
        ev.apply("event", {"name": "x", "rounds": rounds, "round_minutes": 30, "best_of": 1, "seed": 1, "cut": 0,
                           "extra_turns": 3, "players": [{"id": "p%d" % i, "name": "p%d" % i} for i in range(n)]})
        rng = random.Random(n)
        times = []
        for r in range(rounds):
            t = time.perf_counter()
            body = ev.next_pairing()
            times.append(time.perf_counter() - t)
            ev.apply("pair", body)
            ev.apply("round_start", {"round": body["round"]})
            for m in body["pairings"]:
                w = rng.random() < 0.5
                ev.apply("result", {"round": body["round"], "table": m["table"], "a_wins": int(w), "b_wins": int(not w),
                                    "draws": 0, "result_id": "%d-%d" % (r, m["table"])})
        print("pairing %d players: %s" % (n, ", ".join("round %d %.2f s" % (i + 1, x) for i, x in enumerate(times))),
              flush=True)
        if compare:
            # the next round by this pairer and by the one before issue 26 (networkx's blossom,
            # tests/tournament/reference_pairing.py): time, the floats (pairs across score
            # groups), their squared point differences, and the least any pairing can have
            from hub.tournament import pairing
            sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
            from tests.tournament import reference_pairing
            rank = ev.pairing_ranking()
            pts = {r["player"]: r["points"] for r in ev.standings()}
            met = [(m["a"], m["b"]) for r in ev.rounds for m in r["pairings"]]
            had = [r["bye"] for r in ev.rounds if r["bye"]]
            for label, swiss in (("this pairer", pairing.swiss), ("before issue 26", reference_pairing.swiss)):
                t = time.perf_counter()
                pairs, _ = swiss(rank, pts, met, had, seed=1, round_no=rounds + 1)
                dt = time.perf_counter() - t
                print("  round %d, %s: %.3f s, %d floats, penalty %d (bound %d)" % (
                    rounds + 1, label, dt, sum(pts[a] != pts[b] for a, b in pairs),
                    pairing.penalty(pairs, pts), pairing.bound(rank, pts)), flush=True)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--tables", default="8,16,32,64", help="comma-separated sizes")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--pace", type=float, default=None, help="seconds between a table's bot decisions "
                                                             "(default: scaled so the machine keeps up)")
    ap.add_argument("--faults", action="store_true", help="broker restart, TD kill -9, a table cut off")
    ap.add_argument("--cut-seconds", type=float, default=60)
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--per-proc", type=int, default=64, help="simulated tables per bench process (default 64)")
    ap.add_argument("--smoke", action="store_true", help="a quick run: 4 tables, 1 round (the bench itself works)")
    ap.add_argument("--worker", help=argparse.SUPPRESS)
    ap.add_argument("--progress", type=float, default=0, help="a progress line every this many seconds")
    ap.add_argument("--td-trace", help="run the TD under tracemalloc and write what it keeps to this file "
                                       "(bench/td_traced.py; its RSS is then not a figure)")
    ap.add_argument("--pairing", help="only time the pairing of events of these sizes (players), e.g. 128,1000")
    ap.add_argument("--compare", action="store_true", help="with --pairing: the next round on the full graph too")
    args = ap.parse_args(argv)
    if args.worker:
        return worker(args.worker)
    if args.pairing:
        pairing_times([int(x) for x in args.pairing.split(",")], compare=args.compare)
        return 0
    if args.smoke:
        args.tables, args.rounds = "4", 1
    out = []
    for n in [int(x) for x in args.tables.split(",")]:
        folder = tempfile.mkdtemp(prefix="lumen-bench-")
        pace = args.pace if args.pace is not None else 0.25
        print("== %d tables, %d rounds, pace %.3f s%s" % (n, args.rounds, pace, ", faults" if args.faults else ""),
              flush=True)
        b = Bench(n, args.rounds, pace, folder, cut_table=1 if args.faults else None, per_proc=args.per_proc,
                  td_trace=args.td_trace, progress=args.progress)
        try:
            f = b.run(faults=args.faults, cut_seconds=args.cut_seconds)
        finally:
            b.close()
            shutil.rmtree(folder, ignore_errors=True)
        f["faults"] = args.faults
        show(f)
        out.append(f)
    if args.json:
        print(json.dumps(out, indent=1))
    return 0 if all(f["lost"] == 0 and f["doubled"] == 0 and f["results"] == f["expected"] for f in out) else 1


if __name__ == "__main__":
    sys.exit(main())
