"""The tournament director's service: the event's record, its MQTT room, the round clock.

Every decision (pairing, round start, clock change, result, override, drop) is
checked, committed to the TD's record, applied to the event, then published.
The room's current state is retained on the broker (a hub or page that connects
late gets it at once); what must arrive is QoS 1; the TD's last will says it is
offline. Results are keyed by their ``result_id``: a repeated report is answered
again and recorded once.

Topics (``lumen/<event>/...``):
  room/state room/round room/clock room/standings room/td   TD -> all, retained
  room/round/table-N                                        TD -> table N, retained: its own match
  table-N/online (will) table-N/status                      table N -> all, retained
  table-N/result                                            table N -> TD, QoS 1
  table-N/time/req  td/table-N/time                         the clock-offset exchange, QoS 0
  td/table-N/ack/RESULT_ID                                  TD -> table N, QoS 1, retained (one per result)
"""

import re
import threading
import time
import uuid

from . import corrections as fix
from . import intake
from . import views
from . import standings as st
from .broker import MESSAGE_LIMIT, table_user
from .clock import ClockError, RoundClock
from .event import EventError
from .mqtt import Link, encode, topic
from .record import EventRecord

TABLE_RE = re.compile(r"^table-(\d{1,4})$")
#: the whole round and the standings go out at most this often while results pour in (issue 26:
#: at 256 tables ~30 ms of work each, after every result, queued a burst of results for seconds)
ROOM_EVERY_S = 0.25


def td_now_ms():
    """The TD's clock: wall time, so a restarted TD continues the same round clock."""
    return time.time_ns() / 1e6


def _short(v, n=16):
    return v[:n] if isinstance(v, str) else "table"


class TDError(ValueError):
    pass


class ConfirmNeeded(TDError):
    """A correction the TD must confirm first: ``warnings`` (corrections.WARNINGS) it has not
    confirmed: the game is still being played, or a later round has started."""

    def __init__(self, warnings, round_no, table):
        super().__init__("confirm needed: %s (round %d, table %d)" % (", ".join(warnings), round_no, table))
        self.warnings, self.round, self.table = list(warnings), round_no, table


_UNSET = object()


class TD:
    def __init__(self, record_path, broker_url=None, clock=td_now_ms):
        self.record = EventRecord(record_path)
        self.event, self.version = self.record.load()
        if self.event.settings is None:
            raise TDError("%s holds no event: create one with `lumen tournament new`" % record_path)
        self.name = self.event.name
        self.now = clock
        s = self.event.settings
        self.clock = RoundClock.from_json(self.event.clock) if self.event.clock else \
            RoundClock(0, s["round_minutes"] * 60_000, s["extra_turns"])
        self.lock = threading.RLock()
        cur = self.event.current()
        if cur and cur["started"] and self.clock.round == cur["number"] and self.clock.state == "idle":
            # killed between the round_start and the clock records: start the clock now
            self.clock.start(self.now())
            self._commit("clock", {"action": "start", "clock": self.clock.to_json()})
        self.tables = {}              # table -> {"online", "status", "seen_ms"}
        self.answers = {}             # table -> {result_id: answer}
        for r in self.record.records(("result", "note", "conflict")):
            b = r["body"]
            if r["kind"] == "result":
                self.answers.setdefault(b["table"], {})[b["result_id"]] = {"status": "ok", "seq": r["seq"]}
            elif r["kind"] == "conflict":
                self.answers.setdefault(b["table"], {})[b["result_id"]] = b["answer"]
            elif b.get("what") in ("result_conflict", "result_refused", "result_agrees"):
                self.answers.setdefault(b["table"], {})[b["result_id"]] = b["answer"]
        self.listeners = []           # fn(kind) on every change (the web page)
        self.stats = {"results": 0, "duplicates": 0, "conflicts": 0, "refused": 0, "time_requests": 0}
        self.link = None
        if broker_url:
            self.link = Link(broker_url, client_id="td-%s" % self.name, will=(self.t("room", "td"), {"online": False}))
            self.link.subscribe(self.t("+", "result"), self._on_result)
            self.link.subscribe(self.t("+", "time", "req"), self._on_time)
            self.link.subscribe(self.t("+", "status"), self._on_status)
            self.link.subscribe(self.t("+", "online"), self._on_online)
            self.link.on_connect.append(self.publish_all)
        self._stop = threading.Event()
        self._ticker = None
        self._room_sent = -1e9        # time.monotonic() of the last room publish
        self._room_dirty = False      # a result changed the room since (the ticker sends it)
        # table -> the room/round/table-N payload last published (b"": publish it again; every
        # table of the event so far, so a restarted TD tells one without a match this round)
        self._match_sent = {m["table"]: b"" for r in self.event.rounds for m in r["pairings"]}

    def t(self, *parts):
        return topic(self.name, *parts)

    # ------------------------------------------------------------ lifecycle
    def start(self):
        if self.link:
            self.link.start()
        self._ticker = threading.Thread(target=self._tick_loop, name="td-clock", daemon=True)
        self._ticker.start()
        return self

    def stop(self):
        self._stop.set()
        with self.lock:
            if self._room_dirty:
                self._send_room()
        if self.link:
            self.link.publish(self.t("room", "td"), {"online": False}, retain=True)
            self.link.stop()
        self.record.close()

    def _tick_loop(self):
        wait = 0.1
        while not self._stop.wait(wait):
            with self.lock:
                if self.clock.update(self.now()):
                    self._clock_record("time")
                wait = 0.1
                if self._room_dirty:
                    due = self._room_sent + ROOM_EVERY_S - time.monotonic()
                    if due <= 0:
                        self._send_room()
                    else:
                        wait = min(wait, due)

    def subscribe(self, fn):
        self.listeners.append(fn)

    def _changed(self, kind):
        for fn in list(self.listeners):
            try:
                fn(kind)
            except Exception:
                pass

    # ------------------------------------------------------------ the record
    def _commit(self, kind, body):
        """Check, write, apply: a refused record changes nothing."""
        try:
            self.event.check(kind, body)
        except EventError as e:
            raise TDError(str(e)) from None
        at = int(self.now())
        seq = self.record.append(kind, body, wall_ms=at)
        self.event.apply(kind, body, at_ms=at)
        self.version = seq
        return seq

    def _clock_record(self, action):
        self._commit("clock", {"action": action, "clock": self.clock.to_json()})
        self.publish_clock()
        self._changed("clock")

    # ------------------------------------------------------------ TD commands
    def pair_next(self):
        with self.lock:
            try:
                body = self.event.next_pairing()
            except EventError as e:
                raise TDError(str(e)) from None
            self._commit("pair", body)
            self.clock.new_round(body["round"])
            self._clock_record("new_round")
            self.publish_room()
            return self.event.public_round()

    def repair(self, reason="re-pair"):
        with self.lock:
            cur = self.event.current()
            if cur is None:
                raise TDError("no round has been paired yet")
            self._commit("unpair", {"round": cur["number"], "reason": reason})
            return self.pair_next()

    def start_round(self):
        with self.lock:
            cur = self.event.current()
            if cur is None:
                raise TDError("pair a round first")
            self._commit("round_start", {"round": cur["number"]})
            self._clock_action(self.clock.start, self.now())
            self.publish_room()
            return self.clock.to_json()

    def _clock_action(self, fn, *args, action=None, **kw):
        try:
            fn(*args, **kw)
        except ClockError as e:
            raise TDError(str(e)) from None
        self._clock_record(action or fn.__name__)

    def pause(self):
        with self.lock:
            self._clock_action(self.clock.pause, self.now())
            return self.clock.to_json()

    def resume(self):
        with self.lock:
            self._clock_action(self.clock.resume, self.now())
            return self.clock.to_json()

    def call_time(self):
        with self.lock:
            self._clock_action(self.clock.call_time, self.now())
            return self.clock.to_json()

    def extend(self, ms, table=None):
        with self.lock:
            self._clock_action(self.clock.extend, ms, self.now(), table=table)
            return self.clock.to_json()

    def drop(self, player, reason="dropped"):
        with self.lock:
            self._commit("drop", {"player": player, "reason": reason})
            self.publish_room()

    def reinstate(self, player, reason="reinstated"):
        """A dropped player comes back (a drop by mistake, or a player back from a break)."""
        with self.lock:
            self._commit("reinstate", {"player": player, "reason": reason})
            self.publish_room()

    def fix_table(self, player, table):
        """Seat a player at the same table every round (an accessible place); None undoes it."""
        with self.lock:
            self._commit("fix_table", {"player": player, "table": table})

    def add_player(self, name, pid=None):
        with self.lock:
            pid = pid or "late-%s" % uuid.uuid4().hex[:6]
            self._commit("player_add", {"id": pid, "name": name})
            self.publish_room()
            return pid

    def enter_result(self, round_no, table, a_wins, b_wins, draws=0, by="judge"):
        """A result entered on the TD page (a table without a hub, or whose hub is down)."""
        with self.lock:
            body = {"round": round_no, "table": table, "result_id": "td-" + uuid.uuid4().hex,
                    "a_wins": a_wins, "b_wins": b_wins, "draws": draws, "source": "judge",
                    "confirmed_by": [by], "detail": {}}
            seq = self._commit("result", body)
            self.answers.setdefault(table, {})[body["result_id"]] = {"status": "ok", "seq": seq}
            self.stats["results"] += 1
            self.publish_room()
            return body

    def override(self, round_no, table, a_wins, b_wins, draws=0, reason="", by="TD", players=None, before=_UNSET,
                 confirm=None):
        """Correct a table's result. ``players`` ([a, b]) and ``before`` (the score it replaces,
        None for none) name the game the TD means: refused if the event says otherwise.
        ``confirm``: the warnings the TD accepted (ConfirmNeeded lists those missing; None:
        a caller of before issue 38 that knows no warnings, refused when there are some)."""
        with self.lock:
            self._need_confirm(round_no, table, confirm)
            body = {"round": round_no, "table": table, "a_wins": a_wins, "b_wins": b_wins, "draws": draws,
                    "reason": reason, "by": by or "TD", "confirm": sorted(confirm or [])}
            if players is not None:
                body["players"] = list(players)
            # the record says what it replaced, whether or not the caller named it
            body["before"] = self._score_now(round_no, table) if before is _UNSET else before
            self._commit("override", body)
            self.publish_room()
            return views.correction(self.event.corrections[-1])

    def undo_correction(self, cid, reason, by="TD", confirm=None):
        """Take a correction back: the table's result is again the one it replaced."""
        with self.lock:
            try:
                c = fix.correction(self.event, cid)
            except fix.CorrectionError as e:
                raise TDError(str(e)) from None
            if c["round"] < len(self.event.rounds):
                nxt = self.event.rounds[c["round"]]
                if (nxt["started"] or nxt["results"]) and "later_round" not in (confirm or []):
                    raise ConfirmNeeded(["later_round"], c["round"], c["table"])
            self._commit("undo_correction", {"id": cid, "reason": reason, "by": by or "TD",
                                             "confirm": sorted(confirm or [])})
            self.publish_room()
            return views.correction(c)

    def resolve(self, kid, keep, by="TD", reason=None, confirm=None):
        """A conflict resolved by the TD: keep the current result, or take the table's report."""
        with self.lock:
            try:
                k = fix.conflict(self.event, kid)
            except fix.CorrectionError as e:
                raise TDError(str(e)) from None
            if keep == "reported" and not k["resolved"]:
                self._need_confirm(k["round"], k["table"], confirm)
            body = {"id": kid, "keep": keep, "by": by or "TD", "confirm": sorted(confirm or [])}
            if reason:
                body["reason"] = reason
            self._commit("resolve", body)
            self.publish_room()
            return views.conflict(self, k)

    def _need_confirm(self, round_no, table, confirm):
        try:
            warn = fix.warnings(self.event, round_no, table)
        except EventError as e:
            raise TDError(str(e)) from None
        missing = [w for w in warn if w not in (confirm or [])]
        if missing:
            raise ConfirmNeeded(missing, round_no, table)

    def _score_now(self, round_no, table):
        try:
            return fix.score(self.event.round(round_no)["results"].get(table))
        except EventError:
            return None

    # ------------------------------------------------------------ from the tables
    def _table_of(self, t):
        parts = t.split("/")
        m = TABLE_RE.match(parts[2]) if len(parts) > 2 else None
        return int(m.group(1)) if m else None

    def _on_time(self, t, obj, msg):
        t1 = self.now()
        table = self._table_of(t)
        if table is None or obj is None or "t0" not in obj:
            return
        self.stats["time_requests"] += 1
        self.link.publish(self.t("td", table_user(table), "time"),
                          {"id": obj.get("id"), "t0": obj["t0"], "t1": t1, "t2": self.now()}, qos=0)

    def _on_status(self, t, obj, msg):
        table = self._table_of(t)
        if table is None or obj is None:
            return
        with self.lock:
            tab = self.tables.setdefault(table, {"online": True})
            tab["status"] = intake.clean_status(obj)     # the tile's fields only (issue 28.9)
            tab["seen_ms"] = self.now()
        self._changed("tables")

    def _on_online(self, t, obj, msg):
        table = self._table_of(t)
        if table is None or obj is None:
            return
        with self.lock:
            self.tables.setdefault(table, {})["online"] = bool(obj.get("online"))
        self._changed("tables")

    def _on_result(self, t, obj, msg):
        table = self._table_of(t)
        if table is None:
            return
        if obj is None or not isinstance(obj.get("result_id"), str) or not intake.RESULT_ID.match(obj["result_id"]):
            return                  # not a result: nothing to acknowledge, nothing changes
        with self.lock:
            self.handle_result(table, obj)

    def handle_result(self, table, obj):
        rid = obj["result_id"]
        known = self.answers.setdefault(table, {})
        if rid in known:
            self.stats["duplicates"] += 1
        elif sum(1 for a in known.values() if a["status"] != "ok") >= intake.MAX_PROBLEMS_PER_TABLE:
            # a table sending result after refused result (issue 28.9): counted, not kept
            self.stats["dropped"] = self.stats.get("dropped", 0) + 1
            return
        else:
            body = {"round": obj.get("round"), "table": table, "result_id": rid,
                    "a_wins": obj.get("a_wins"), "b_wins": obj.get("b_wins"), "draws": obj.get("draws", 0),
                    "source": _short(obj.get("source", "table")), "confirmed_by": intake.clean_confirmed(obj.get("confirmed_by")),
                    "detail": intake.clean_detail(obj.get("detail"))}
            try:
                seq = self._commit("result", body)
                known[rid] = {"status": "ok", "seq": seq}
                self.stats["results"] += 1
                self.publish_room(soon=True)
            except TDError as e:
                known[rid] = self._not_taken(table, rid, body, e)
        self.publish_ack(table, rid)
        self._changed("result")

    def _not_taken(self, table, rid, body, e):
        """A result the event did not take as it is: the same result again from another report
        (agrees: ok), a different one for a game that has a result (a conflict, left open for
        the TD), or one it refuses (a round that has not started, a bad score)."""
        now = None
        try:
            now = self.event.round(body["round"])["results"].get(table)
        except EventError:
            pass
        if now is not None and fix.score(now) == fix.score(body):
            answer = {"status": "ok", "agrees": True}
            self.stats["duplicates"] += 1
            self.record.append("note", {"what": "result_agrees", "table": table, "result_id": rid, "answer": answer,
                                        "body": body}, wall_ms=int(self.now()))
            return answer
        if now is not None:
            answer = {"status": "conflict", "error": str(e)}
            reported = {k: body.get(k) for k in ("a_wins", "b_wins", "draws", "source", "confirmed_by")}
            try:
                self._commit("conflict", {"round": body["round"], "table": table, "result_id": rid,
                                          "reported": reported, "answer": answer})
                self.stats["conflicts"] += 1
                self.publish_room()
                return answer
            except TDError:
                pass
        answer = {"status": "refused", "error": str(e)}
        self.stats["refused"] += 1
        self.record.append("note", {"what": "result_refused", "table": table, "result_id": rid, "answer": answer,
                                    "body": body}, wall_ms=int(self.now()))
        return answer

    # ------------------------------------------------------------ publishing
    def publish_ack(self, table, rid):
        """The answer to one result, retained on a topic of its own (issue 28.9: one message
        that repeated every answer grew with each result: quadratic)."""
        answer = self.answers.get(table, {}).get(rid)
        if self.link and answer is not None:
            self.link.publish(self.t("td", table_user(table), "ack", rid), {"answers": {rid: answer}},
                              qos=1, retain=True)

    def publish_clock(self):
        if self.link:
            self.link.publish(self.t("room", "clock"), dict(self.clock.to_json(), td_ms=self.now()), retain=True)

    def room_state(self):
        cur = self.event.current()
        return {"event": self.name, "round": cur["number"] if cur else 0, "stage": cur["stage"] if cur else None,
                "started": bool(cur and cur["started"]), "complete": bool(cur and self.event.complete(cur)),
                "finished": self.event.finished(), "players": len(self.event.active()),
                "rounds": self.event.settings["rounds"], "cut": self.event.settings["cut"],
                "best_of": self.event.settings["best_of"], "profile": self.event.settings.get("profile", "lumen"),
                "version": self.version, "table_rounds": True}     # room/round/table-N is published

    def standings_json(self):
        return {"version": self.version, "rows": st.to_json(self.event.standings())}

    def room_payloads(self, rnd):
        """room/round and room/standings as sent: whole while they fit the broker's message
        size limit (standings to ~1,500 players, the round to ~4,500), else as many rows from
        the top as fit, marked ``truncated`` with where the whole list is (the TD's HTTP API).
        A message over the limit is not sent at all: the broker drops the connection for it
        (found at 2,000 players: the standings were 339 KB)."""
        return (fit_rows(rnd or {}, "tables", "/api/pairings?by=table"),
                fit_rows(self.standings_json(), "rows", "/api/standings"))

    def table_matches(self, rnd=None):
        """What each table's hub is told of the round (room/round/table-N): its own match, or
        ``None`` for a table without one this round (one that had one before is told so)."""
        rnd = self.event.public_round() if rnd is None else rnd
        head = {"round": rnd["round"], "stage": rnd["stage"], "started": rnd["started"]} if rnd else \
            {"round": 0, "stage": None, "started": False}
        out = {n: dict(head, table=n, match=None) for n in self._match_sent}
        for m in (rnd or {}).get("tables", []):
            out[m["table"]] = dict(head, table=m["table"], match=m)
        return out

    def publish_room(self, soon=False):
        """The room's state after a change: now, or with ``soon`` (a table's result) within
        ROOM_EVERY_S, one publish for all the results that came meanwhile (the result's own
        answer is not delayed: publish_ack)."""
        if soon and time.monotonic() - self._room_sent < ROOM_EVERY_S:
            self._room_dirty = True
        else:
            self._send_room()
        self._changed("room")

    def _send_room(self):
        """The whole round and the standings go to the pages and spectators; each hub reads only
        its own match (room/round/table-N), published when it changes: with every hub reading
        the whole round and standings after every result, 256 tables decoded 256 x ~100 KB a
        result and the broker sent 6.5 GB a round (issue 26)."""
        self._room_dirty = False
        self._room_sent = time.monotonic()
        if self.link:
            rnd = self.event.public_round()
            whole_round, standings = self.room_payloads(rnd)
            self.link.publish(self.t("room", "round"), whole_round, retain=True)
            self.link.publish(self.t("room", "standings"), standings, retain=True)
            for n, body in self.table_matches(rnd).items():
                payload = encode(body)
                if self._match_sent.get(n) != payload:
                    self.link.publish(self.t("room", "round", table_user(n)), payload, retain=True)
                    self._match_sent[n] = payload
            self.link.publish(self.t("room", "state"), self.room_state(), retain=True)

    def publish_all(self):
        with self.lock:
            self.link.publish(self.t("room", "td"), {"online": True}, retain=True)
            self._match_sent = {n: b"" for n in self._match_sent}    # all again (a broker may have lost them)
            self.publish_room()
            self.publish_clock()
            for table, answers in self.answers.items():
                for rid in answers:
                    self.publish_ack(table, rid)


#: what a room message may take of the broker's limit (the rest: topic, properties, slack)
ROOM_LIMIT = MESSAGE_LIMIT - 4096


def fit_rows(body, key, whole_at, limit=ROOM_LIMIT):
    """``body`` encoded, its list ``key`` cut from the end until it fits ``limit`` bytes; a cut
    body says so: ``truncated: {kept, total, whole_at}``."""
    payload = encode(body)
    rows = body.get(key) or []
    if len(payload) <= limit or not rows:
        return payload
    kept = len(rows)
    while kept > 0 and len(payload) > limit:
        kept = min(kept - 1, int(kept * limit / len(payload) * 0.98))     # never below 0
        payload = encode({**body, key: rows[:kept],
                          "truncated": {"kept": kept, "total": len(rows), "whole_at": whole_at}})
    return payload
