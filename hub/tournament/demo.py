"""``lumen tournament demo``: a whole event on this machine.

A local Mosquitto, the TD service and its page, and one simulated table per pairing
(a real hub table with its record, two bots playing referee games, joined through
the broker like a real hub). An autopilot plays the TD: pairs each round, starts it,
and pairs the next when every result is in, through the Swiss rounds and the top cut.

Corrections: an override of round N's results is refused once round N+1 has started
(hub/tournament/event.py). The autopilot therefore holds (``--hold``, 15 s by default)
after the last result before pairing, and again after pairing before starting, and the
TD page counts down to each step ("results can be corrected until ..."); ``--manual``
leaves pairing and starting to the TD altogether.

A clean stop (Ctrl+C, or SIGTERM from a service manager or ``kill``) stops the tables,
the TD and the demo's own Mosquitto: nothing of it keeps running.
"""

import os
import shutil
import signal
import tempfile
import threading
import time
import webbrowser

from .broker import LocalBroker, available, BrokerError, make_url
from .eventdir import new_event
from .simtable import SimTable
from .td import TD, TDError
from .web import bind, serve

FAMILY = "김이박최정강조윤장임한오서신권황안송류홍"
GIVEN = ["민준", "서연", "도윤", "하은", "시우", "지우", "주원", "서윤", "하준", "지민", "예준", "수아", "유준",
         "지아", "건우", "채원", "현우", "다은", "선우", "예린"]


def demo_players(n):
    return [{"id": "p%02d" % (i + 1), "name": FAMILY[i % len(FAMILY)] + GIVEN[(i * 7) % len(GIVEN)]}
            for i in range(n)]


class Autopilot:
    """Pairs and starts rounds by itself, ``pause_s`` after the last result (pairing) and
    again after pairing (starting): the time a TD has to correct a result. It tells the TD
    page when it will act (``td.autopilot``: {"next": "pair"|"start", "at_ms"} in the TD's
    clock). ``manual``: it does neither; the TD pairs and starts on the page."""

    def __init__(self, td, out=print, pause_s=3.0, manual=False):
        self.td, self.out, self.pause_s, self.manual = td, out, pause_s, manual
        self.complete_at = None
        self.paired_at = None
        td.autopilot = None

    def _due(self, next_step, since, now):
        self.td.autopilot = {"next": next_step, "at_ms": self.td.now() + (since + self.pause_s - now) * 1000}
        return now - since >= self.pause_s

    def step(self, now):
        ev = self.td.event
        cur = ev.current()
        if ev.finished():
            self.td.autopilot = None
            return "over"
        if self.manual:
            return "running"
        if cur is not None and not cur["started"]:
            self.paired_at = self.paired_at or now
            if cur["number"] > 1 and not self._due("start", self.paired_at, now):
                return "holding"
            self.paired_at = None
            self.td.autopilot = None
            self.td.start_round()
            self.out("라운드 %d 시작 / round %d started" % (cur["number"], cur["number"]))
            return "started"
        if cur is None or ev.complete(cur):
            self.complete_at = self.complete_at or now
            if cur is None or self._due("pair", self.complete_at, now):
                self.complete_at = None
                self.td.autopilot = None
                try:
                    r = self.td.pair_next()
                except TDError as e:
                    self.out("cannot pair: %s" % e)
                    return "over"
                self.out("라운드 %d 대진 (%s): %d 테이블 / round %d paired" % (r["round"], r["stage"], len(r["tables"]),
                                                                         r["round"]))
        return "running"


def run_demo(args, out=print):
    why = available()
    if why:
        raise BrokerError(why)
    page = bind("127.0.0.1", args.port, out)     # a busy port is said before the broker or the tables start
    if page is None:
        return 2

    def stop_on_sigterm(signum, frame):
        raise KeyboardInterrupt     # the same clean stop as Ctrl+C: the finally below runs
    # from before anything starts: a SIGTERM at any moment (even while the tables start) stops
    # what was started, the Mosquitto last
    main = threading.current_thread() is threading.main_thread()
    previous = signal.signal(signal.SIGTERM, stop_on_sigterm) if main else None
    broker = td = server = folder = None
    sims = []
    try:
        folder = args.dir or tempfile.mkdtemp(prefix="lumen-event-")
        creds = new_event(folder, "데모 대회", demo_players(args.players), rounds=args.rounds,
                          round_minutes=args.round_minutes, best_of=1, cut=args.cut, seed=args.seed)
        broker = LocalBroker(os.path.join(folder, "broker"), {k: v for k, v in creds.items() if k != "admin_token"})
        broker.start()
        td = TD(os.path.join(folder, "event.sqlite"), broker.url("td")).start()
        server = serve(td, creds["admin_token"], port=args.port, sock=page)
        url = "http://127.0.0.1:%d/" % args.port
        out("TD page / 운영 화면: %s   projector / 프로젝터: %sprojector" % (url, url))
        out("admin token / 관리자 토큰: \"admin_token\" in %s   (event folder %s, broker port %d)"
            % (os.path.join(folder, "credentials.json"), folder, broker.port))
        from hub.system.logs import to_terminal
        to_terminal("admin token / 관리자 토큰: %s" % creds["admin_token"])     # never in the log (issue 39)
        n_tables = (args.players + 1) // 2
        for n in range(1, n_tables + 1):
            sims.append(SimTable(make_url("127.0.0.1", broker.port, "table-%d" % n, creds["table-%d" % n]), td.name, n,
                                 os.path.join(folder, "tables", str(n)), seed=args.seed + n, pace=args.pace).start())
        if not args.no_browser:
            threading.Timer(1.0, lambda: webbrowser.open(url)).start()
        pilot = Autopilot(td, out, pause_s=args.hold, manual=args.manual)
        due = [0.0] * len(sims)
        while True:
            now = time.monotonic()
            if pilot.step(now) == "over":
                out("대회 종료 / the event is over")
                last = td.event.current()
                if last["stage"] == "cut":
                    m = last["pairings"][0]
                    out("우승 / champion: %s" % td.event.names()[td.event.winner_of(m, last["results"][m["table"]])])
                for row in td.event.standings()[:8]:
                    out("%2d. %s  %d pts" % (row["rank"], row["name"], row["points"]))
                if args.exit:
                    break
                out("TD 화면은 계속 열려 있습니다: Ctrl+C 로 끝냅니다 / the TD page stays up: Ctrl+C to stop")
                while True:
                    time.sleep(3600)
            for i, s in enumerate(sims):
                if now >= due[i]:
                    due[i] = now + s.step(now)
            time.sleep(0.005)
    except KeyboardInterrupt:
        pass
    finally:
        # a second SIGTERM while stopping must not cut the stop short: ignore it until done
        if main:
            signal.signal(signal.SIGTERM, signal.SIG_IGN)
        try:
            # the tables stop side by side (one after another took 8-13 s: each waits for its link)
            stoppers = [threading.Thread(target=s.stop, name="lumen-demo-stop") for s in sims]
            for t in stoppers:
                t.start()
            for t in stoppers:
                t.join()
            if server is not None:
                server.should_exit = True
            else:
                page.close()
            if td is not None:
                td.stop()
        finally:
            if broker is not None:
                broker.stop()       # whatever else failed to stop, the demo's Mosquitto does
            if main:
                signal.signal(signal.SIGTERM, previous)
            if not args.dir and folder is not None:
                # a temporary event folder goes with the demo (--dir keeps one)
                shutil.rmtree(folder, ignore_errors=True)
                out("임시 대회 폴더를 지웠습니다 (--dir 로 남깁니다) / the temporary event folder is removed (keep one with --dir)")
    return 0
