"""``lumen tournament demo``: a whole event on this machine.

A local Mosquitto, the TD service and its page, and one simulated table per pairing
(a real hub table with its record, two bots playing referee games, joined through
the broker like a real hub). An autopilot plays the TD: pairs each round, starts it,
and pairs the next when every result is in, through the Swiss rounds and the top cut.
"""

import os
import tempfile
import threading
import time
import webbrowser

from .broker import LocalBroker, available, BrokerError, make_url
from .eventdir import new_event
from .simtable import SimTable
from .td import TD, TDError
from .web import serve

FAMILY = "김이박최정강조윤장임한오서신권황안송류홍"
GIVEN = ["민준", "서연", "도윤", "하은", "시우", "지우", "주원", "서윤", "하준", "지민", "예준", "수아", "유준",
         "지아", "건우", "채원", "현우", "다은", "선우", "예린"]


def demo_players(n):
    return [{"id": "p%02d" % (i + 1), "name": FAMILY[i % len(FAMILY)] + GIVEN[(i * 7) % len(GIVEN)]}
            for i in range(n)]


class Autopilot:
    """Pairs and starts rounds by itself, a short pause after the last result."""

    def __init__(self, td, out=print, pause_s=3.0):
        self.td, self.out, self.pause_s = td, out, pause_s
        self.complete_at = None

    def step(self, now):
        ev = self.td.event
        cur = ev.current()
        if ev.finished():
            return "over"
        if cur is not None and not cur["started"]:
            self.td.start_round()
            self.out("라운드 %d 시작 / round %d started" % (cur["number"], cur["number"]))
            return "started"
        if cur is None or ev.complete(cur):
            self.complete_at = self.complete_at or now
            if cur is None or now - self.complete_at >= self.pause_s:
                self.complete_at = None
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
    folder = args.dir or tempfile.mkdtemp(prefix="lumen-event-")
    creds = new_event(folder, "데모 대회", demo_players(args.players), rounds=args.rounds,
                      round_minutes=args.round_minutes, best_of=1, cut=args.cut, seed=args.seed)
    broker = LocalBroker(os.path.join(folder, "broker"), {k: v for k, v in creds.items() if k != "admin_token"}).start()
    td = TD(os.path.join(folder, "event.sqlite"), broker.url("td")).start()
    server = serve(td, creds["admin_token"], port=args.port)
    url = "http://127.0.0.1:%d/" % args.port
    out("TD page / 운영 화면: %s   projector / 프로젝터: %sprojector" % (url, url))
    out("admin token / 관리자 토큰: %s   (event folder %s, broker port %d)" % (creds["admin_token"], folder, broker.port))
    n_tables = (args.players + 1) // 2
    sims = [SimTable(make_url("127.0.0.1", broker.port, "table-%d" % n, creds["table-%d" % n]), td.name, n,
                     os.path.join(folder, "tables", str(n)), seed=args.seed + n, pace=args.pace).start()
            for n in range(1, n_tables + 1)]
    if not args.no_browser:
        threading.Timer(1.0, lambda: webbrowser.open(url)).start()
    pilot = Autopilot(td, out)
    due = [0.0] * len(sims)
    try:
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
                while True:
                    time.sleep(3600)
            for i, s in enumerate(sims):
                if now >= due[i]:
                    due[i] = now + s.step(now)
            time.sleep(0.005)
    except KeyboardInterrupt:
        pass
    finally:
        for s in sims:
            s.stop()
        server.should_exit = True
        td.stop()
        broker.stop()
    return 0
