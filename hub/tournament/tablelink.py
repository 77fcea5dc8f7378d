"""A table's side of the tournament: what a hub calls to join an event.

The hub's session calls a few methods and reads a few properties:
  ``link.match``            this table's pairing in the current round (names, seats), or None
  ``link.td_now()``         the TD's time as this hub estimates it (ms), or None before a sample
  ``link.clock_left()``     ms left on the round clock for this table (per-table extensions included)
  ``link.publish_status(d)``  the table's public summary (health, turn, ...) for the TD's tiles
  ``link.slip(...)``        a result awaiting confirmation; ``confirm(seat)``: "a", "b" or "judge"
It keeps working alone: results go to the outbox on disk first and are re-sent
until the TD acknowledges them, whenever the broker is reachable again.
"""

import itertools
import random
import threading
import time

from .broker import table_user
from .clock import OffsetEstimator, left_for_table
from .delivery import Outbox
from .event import EventError, check_score
from .mqtt import Link, topic

MAX_RESEND_S = 16.0     # the longest wait before an unanswered result is sent again
#: a clock estimate this good (its error bound, ms) is sampled every ``sync_s``; a worse one
#: (every hub asking at once after the broker came back, a loaded TD) is sampled again soon, at
#: a random moment, until a short round trip comes back: NTP's burst, without a herd
GOOD_BOUND_MS = 10.0
RETRY_S = (0.2, 0.6)
BURST_SPREAD_S = 0.5
#: samples right after a (re)connect; more come while the bound is poor (RETRY_S). 8 a hub made 2,048
#: requests in one second when 256 hubs joined: the TD's queue made every one of them slow
CONNECT_SAMPLES = 3


class SlipError(ValueError):
    pass


class ResultSlip:
    """A match result waiting for confirmation: both players (on their pods) or the judge."""

    def __init__(self, round_no, a_wins, b_wins, draws=0, best_of=1, detail=None, source="table", slip_id=None,
                 check=True):
        if check:
            try:
                check_score({"a_wins": a_wins, "b_wins": b_wins, "draws": draws}, best_of)
            except EventError as e:
                raise SlipError(str(e)) from None
        self.body = {"round": round_no, "a_wins": a_wins, "b_wins": b_wins, "draws": draws,
                     "detail": dict(detail or {}), "source": source}
        self.id = slip_id
        self.confirmed = set()

    def confirm(self, who):
        if who not in ("a", "b", "judge"):
            raise SlipError("a result is confirmed by player a, player b or the judge, not %r" % (who,))
        self.confirmed.add(who)
        return self.final

    @property
    def final(self):
        return "judge" in self.confirmed or {"a", "b"} <= self.confirmed


class TableLink:
    def __init__(self, url, event, table, outbox_path, mono=time.monotonic, resend_s=2.0, sync_s=2.0,
                 on_change=None):
        self.event, self.table = event, int(table)
        self.user = table_user(table)
        self.mono = mono
        self.resend_s, self.sync_s = resend_s, sync_s
        self.outbox = Outbox(outbox_path)
        self.estimator = OffsetEstimator()
        self.round = None             # the TD's whole public round (room/round), from a TD of before issue 26
        self.my_round = None          # this table's part of it (room/round/table-N)
        self.clock = None             # the round clock (room/clock)
        self.room = None
        self.answers = {}
        self.slip = None
        self.listeners = [on_change] if on_change else []
        self.lock = threading.RLock()
        self._ids = itertools.count(1)
        self._sent = {}               # request id -> t0
        self._retry_s = None          # the jittered wait before the next sample while the estimate is poor
        self.link = Link(url, client_id="hub-%s-%s" % (event, self.user),
                         will=(self.t(self.user, "online"), {"online": False, "table": self.table}))
        # the room's small topics and this table's own match (room/round/table-N), not the whole
        # round and standings: those grow with the event and change with every result (issue 26)
        for what in ("state", "clock", "td"):
            self.link.subscribe(self.t("room", what), self._on_room)
        self.link.subscribe(self.t("room", "round", self.user), self._on_my_round)
        self._whole_round = False     # a TD of before issue 26 sends only the whole round
        self.link.subscribe(self.t("td", self.user, "time"), self._on_time)
        self.link.subscribe(self.t("td", self.user, "ack", "+"), self._on_ack)     # one answer per result
        self.link.subscribe(self.t("td", self.user, "ack"), self._on_ack)          # a TD of before issue 28
        self.link.on_connect.append(self._connected)
        self._stop = threading.Event()
        self._wake = threading.Event()
        self._thread = None
        self._resend_soon()

    def t(self, *parts):
        return topic(self.event, *parts)

    # ------------------------------------------------------------ lifecycle
    def start(self):
        self.link.start()
        self._thread = threading.Thread(target=self._loop, name="table-%d-link" % self.table, daemon=True)
        self._thread.start()
        return self

    def stop(self, graceful=True):
        self._stop.set()
        self._wake.set()
        if graceful and self.link.connected.is_set():
            self.link.publish(self.t(self.user, "online"), {"online": False, "table": self.table}, retain=True)
        self.link.stop(graceful)
        if self._thread:
            self._thread.join(5)
        self.outbox.close()

    def _connected(self):
        self.link.publish(self.t(self.user, "online"), {"online": True, "table": self.table}, retain=True)
        self._burst = CONNECT_SAMPLES
        # the first sample at a random moment of the next half second: after a broker restart every
        # hub connects at once, and their samples in the same instant queue behind each other
        self._burst_at = self.mono() + random.uniform(0, BURST_SPREAD_S)
        self._resend_soon()             # at once and often again after a reconnect
        self._wake.set()

    def _loop(self):
        """Re-send pending results and refresh the clock offset while connected. A result
        still unanswered is sent again after resend_s, then twice as long each time up to
        MAX_RESEND_S (issue 26: 500 tables re-sending every 2 s to a TD that was slow to answer
        made ~13 repeats a result, each answered, on a machine already saturated)."""
        last_sync = -1e18
        self._burst, self._burst_at = 0, 0.0
        while not self._stop.is_set():
            now = self.mono()
            if self.link.connected.is_set():
                if self._burst > 0:
                    if now >= self._burst_at:
                        self._burst -= 1
                        self._ask_time()
                        self._burst_at = now + random.uniform(0.03, 0.12)   # not in step with every hub
                elif now - last_sync >= self._sync_every():
                    last_sync = now
                    self._ask_time()
                due = []
                with self.lock:     # with report(): a result stored now is not also resent now
                    if now - self._last_resend >= self._resend_every:
                        self._last_resend = now
                        due = self.outbox.pending()
                        if due:
                            self._resend_every = min(2 * self._resend_every, max(self.resend_s, MAX_RESEND_S))
                        else:
                            self._resend_every = self.resend_s
                for body in due:
                    self.send(body)
            if self._burst > 0:
                wait = max(0.005, self._burst_at - self.mono())      # a few samples soon after a (re)connect
            elif self.link.connected.is_set():
                # until the next clock sample or resend is due (a new result, a reconnect or the
                # TD coming back wakes it sooner): a hub's link thread woke 4 times a second
                wait = min(last_sync + self._sync_every(), self._last_resend + self._resend_every) - self.mono()
                wait = min(1.0, max(0.01, wait))
            else:
                wait = 1.0
            self._wake.wait(wait)
            self._wake.clear()

    # ------------------------------------------------------------ time
    def local_ms(self):
        return self.mono() * 1000.0

    def _sync_every(self):
        """Seconds to the next clock sample: ``sync_s`` with a good estimate, else soon (jittered:
        hubs that all lost their estimate at once do not all ask again at once)."""
        bound = self.estimator.error_bound
        if bound is not None and bound <= GOOD_BOUND_MS:
            return self.sync_s
        if self._retry_s is None:
            self._retry_s = random.uniform(*RETRY_S)
        return min(self.sync_s, self._retry_s)

    def _ask_time(self):
        self._retry_s = None
        rid = next(self._ids)
        t0 = self.local_ms()
        self._sent[rid] = t0
        if len(self._sent) > 64:
            for k in sorted(self._sent)[:-32]:
                self._sent.pop(k, None)
        self.link.publish(self.t(self.user, "time", "req"), {"id": rid, "t0": t0}, qos=0)

    def _on_time(self, t, obj, msg):
        t3 = self.local_ms()
        if not obj or self._sent.pop(obj.get("id"), None) != obj.get("t0"):
            return                    # not one of ours, or a stale answer
        try:
            self.estimator.add(float(obj["t0"]), float(obj["t1"]), float(obj["t2"]), t3)
        except (KeyError, TypeError, ValueError):
            return
        self._notify("time")

    def td_now(self):
        return self.estimator.td_time(self.local_ms())

    def clock_left(self):
        now = self.td_now()
        if now is None or not self.clock:
            return None
        return left_for_table(self.clock, self.table, now)

    # ------------------------------------------------------------ the room
    def _on_room(self, t, obj, msg):
        if obj is None:
            return
        what = t.rsplit("/", 1)[1]
        with self.lock:
            if what == "state" and not obj.get("table_rounds") and not self._whole_round:
                self._whole_round = True
                self.link.subscribe(self.t("room", "round"), self._on_room)
            if what == "round":
                self.round = obj or None
            elif what == "clock":
                if not self.clock or obj.get("seq", 0) >= self.clock.get("seq", 0) or obj.get("round") != self.clock.get("round"):
                    self.clock = obj
            elif what == "state":
                self.room = obj
            elif what == "td" and obj.get("online"):
                self._resend_soon()     # the TD is (back) online: what it has not answered goes now
                self._wake.set()
        self._notify(what)

    def _on_my_round(self, t, obj, msg):
        if obj is None:
            return
        with self.lock:
            self.my_round = obj
        self._notify("round")

    @property
    def match(self):
        """This table's match in the room's current round, or None."""
        mine = self.my_round
        if mine is not None and not self._whole_round:
            # a match of an earlier round (a retained message a restarted TD did not replace) is none
            if mine.get("match") is None or (self.room and self.room.get("round") != mine.get("round")):
                return None
            return dict(mine["match"], round=mine["round"], stage=mine["stage"], started=mine["started"])
        r = self.round
        if not r:
            return None
        for m in r.get("tables", []):
            if m["table"] == self.table:
                return dict(m, round=r["round"], stage=r["stage"], started=r["started"])
        return None

    def publish_status(self, status):
        """The table's public summary, retained, for the TD's tile (never a hidden card)."""
        self.link.publish(self.t(self.user, "status"), dict(status, table=self.table), qos=0, retain=True)

    # ------------------------------------------------------------ results
    def new_slip(self, a_wins, b_wins, draws=0, detail=None, source="table"):
        m = self.match
        if m is None:
            raise SlipError("table %d has no match in the current round" % self.table)
        best_of = (self.room or {}).get("best_of", 1)
        slip = ResultSlip(m["round"], a_wins, b_wins, draws, best_of, detail, source)
        with self.lock:          # on disk before anyone is asked to confirm it (issue 28.3)
            slip.id = self.outbox.add_slip(slip.body)
        self.slip = slip
        self._notify("slip")
        return self.slip

    def restore_slip(self, round_no):
        """After a restart: the round's slip as it was left (its confirmations too), unless
        its result was stored; a slip that was final is stored and sent now. Returns whether
        the round's match has a slip or a result (it is decided)."""
        with self.lock:
            kept = self.outbox.slip_for(round_no)
            if kept is None:
                return self.outbox.result_for(round_no) is not None
            body, who = kept
            if self.outbox.has(body["slip_id"]):
                self.slip = None
                return True
            slip = ResultSlip(round_no, body["a_wins"], body["b_wins"], body.get("draws", 0), detail=body.get("detail"),
                              source=body.get("source", "table"), slip_id=body["slip_id"], check=False)
            slip.confirmed = set(who)
        if slip.final:              # killed between the last confirmation and the result
            self.slip = None
            self.report(self._final_body(slip))
        else:
            self.slip = slip
            self._notify("slip")
        return True

    def _final_body(self, slip):
        body = dict(slip.body, table=self.table, confirmed_by=sorted(slip.confirmed))
        if slip.id is not None:
            body["result_id"] = slip.id         # the same result, however often a restart sends it
        return body

    def confirm(self, who):
        """A player (or the judge) confirms the slip (kept on disk); a final slip is stored and sent."""
        slip = self.slip
        if slip is None:
            raise SlipError("there is no result to confirm")
        if who not in ("a", "b", "judge"):
            raise SlipError("a result is confirmed by player a, player b or the judge, not %r" % (who,))
        if slip.id is not None and who not in slip.confirmed:
            with self.lock:
                self.outbox.confirmed(slip.id, who)
        if slip.confirm(who):
            self.slip = None
            return self.report(self._final_body(slip))
        self._notify("slip")
        return None

    def report(self, body):
        """Store a final result on disk, then send it (and again until the TD acknowledges)."""
        with self.lock:
            self._resend_soon(self.mono())  # the link's thread does not resend it at once
            body = self.outbox.add(dict(body, table=self.table))
        self.send(body)
        self._wake.set()
        self._notify("result")
        return body

    def send(self, body):
        if self.link.connected.is_set():
            self.link.publish(self.t(self.user, "result"), body, qos=1)

    def _resend_soon(self, sent_at=-1e18):
        """Unanswered results go again resend_s after ``sent_at`` (default: at once), and the
        wait grows again from there."""
        self._resend_every, self._last_resend = self.resend_s, sent_at

    def pending(self):
        return self.outbox.pending()

    def _on_ack(self, t, obj, msg):
        if not obj:
            return
        with self.lock:
            for rid, answer in (obj.get("answers") or {}).items():
                self.answers[rid] = answer
                self.outbox.acked(rid, answer)
        self._notify("ack")

    def subscribe(self, fn):
        self.listeners.append(fn)

    def _notify(self, what):
        for fn in list(self.listeners):
            try:
                fn(what)
            except Exception:
                pass
