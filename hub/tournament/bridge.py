"""A hub's table in a tournament: between the table (its games, its display) and the
TD (through ``TableLink``).

``tick()`` runs on the table's own loop (the hub's asyncio loop, or a simulator's
driver): it reads what the link has heard (pairing, round clock) and acts on the
table, so the table is only ever touched from one thread. It
  - shows the pairing and the TD's round clock on the table's display (the display
    then runs the TD's time, estimated through the link's clock offset),
  - starts each game of the match when the round has started,
  - counts games (best of N); at time the table's end-of-round procedure (the game's
    profile's: hub/sessions/end_of_round.py, which also counts the extra turns) decides a
    game still undecided, and the slip says how (``detail.at_time``),
  - writes the match result as a slip that both players (or the judge) confirm,
    then the link stores and sends it,
  - publishes the table's public summary for the TD's tiles.
Only the table's public view is read: nothing hidden can reach the broker from here.
"""

import logging
import time

from hub.sessions.end_of_round import describe

log = logging.getLogger("lumen.tournament")

#: the table's clock is set again from the TD's when they differ by more than this (the hub's
#: estimate of the TD's time improves after the round's clock was first set; a hub's crystal
#: drifts ~50 ppm): the room's goal is 50 ms (issue 26), and 100 ms let 1 % of displays run
#: 50-100 ms off all round
RESYNC_MS = 30


def table_status(session, timer_view=None):
    """The public summary of a table's game for the TD's tile (whitelisted fields only)."""
    if session is None:
        return {"mode": None}
    v = session.public_view()
    out = {"mode": v.get("mode"), "game_id": v.get("game_id"), "turn": v.get("turn"), "winner": v.get("winner"),
           "phase": v.get("phase"), "sudden_death": bool(v.get("sudden_death")),
           "ready": {s: bool((v.get("ready") or {}).get(s, {}).get("locked")) for s in "ab"}}
    seats = v.get("players") or v.get("seats") or {}
    out["health"] = {s: (seats.get(s) or {}).get("health") for s in "ab"}
    out["fp"] = {s: (seats.get(s) or {}).get("fp") for s in "ab"}
    chars = {}
    for s in "ab":
        ch = (seats.get(s) or {}).get("character")
        chars[s] = ch.get("name") if isinstance(ch, dict) else (seats.get(s) or {}).get("name", ch)
    out["characters"] = chars
    if timer_view:
        out["timer"] = {k: timer_view.get(k) for k in ("state", "ms_left", "turns_left", "finishing", "extra_ms_left")}
    return out


def winner_of(session):
    if session is None:
        return None
    return session.winner


def health_of(session):
    v = session.public_view()
    seats = v.get("players") or v.get("seats") or {}
    return {s: (seats.get(s) or {}).get("health") or 0 for s in "ab"}


def _short_decision(d):
    """What the slip and the TD keep of a decision at time: the winner, the step and what it
    compared, the rule, and the sentence in both languages (not the whole figures)."""
    if d is None:
        return None
    return {"winner": d["winner"], "by": d["by"], "step": d["step"], "values": d.get("values"),
            "rule": d.get("rule"), "text": {"ko": describe(d, "ko"), "en": describe(d, "en")}}


class Bridge:
    """``new_game(table, match, game_no)`` starts a game for the match (referee or tracker,
    the hub's choice). ``auto_confirm``: a simulated table confirms its own results."""

    def __init__(self, table, link, new_game, auto_confirm=False, status_every_s=0.5, mono=time.monotonic):
        self.table, self.link, self.new_game = table, link, new_game
        self.auto_confirm = auto_confirm
        self.status_every_s = status_every_s
        self.mono = mono
        self.round_no = None
        self.games = []            # "a" | "b" | "draw" per finished game of this match
        self.game_id = None        # the table's game of the current match game
        self.done = False          # the match's result has been written
        self.clock_seq = None
        self.last_status = None
        self.last_status_at = -1e9
        self.last_turn = None
        self.reported = []         # result bodies sent (for simulators' bookkeeping)
        self.counted = set()       # table game ids already counted in this match
        self.started = set()       # table game ids started for this match
        self.time_called = False   # a game of this match ended at time: the match ends with it
        self.at_time = []          # how the games decided at time were (the slip's detail)
        self.errors = 0            # ticks that failed (logged, never fatal)
        self.last_error, self.last_error_at = None, -1e18

    # ------------------------------------------------------------ the match
    def _need(self):
        best_of = (self.link.room or {}).get("best_of", 1)
        return best_of // 2 + 1, best_of

    def tick(self):
        """One pass (on the table's loop). No error ends it, nor the loop that calls it (issue
        28.3: a slip the event refused once killed the bridge's loop): an error is logged (once
        per kind a minute) and the next tick tries again."""
        m = None
        try:
            m = self.link.match
            self._tick(m)
        except Exception as e:
            self._failed(e)
        try:
            self._status(m)
        except Exception as e:
            self._failed(e)

    def _failed(self, e):
        self.errors += 1
        kind = "%s: %s" % (type(e).__name__, e)
        now = self.mono()
        if kind != self.last_error or now - self.last_error_at >= 60:
            self.last_error, self.last_error_at = kind, now
            log.exception("the tournament bridge: %s", kind)

    def _tick(self, m):
        if m is not None and m["round"] != self.round_no:
            self._new_match(m)
        self._follow_clock()
        if m is None or not m["started"] or self.done:
            return
        s = self.table.session
        if self.game_id is None:
            if s is not None and s.game_id in self.started and s.game_id not in self.counted:
                self.game_id = s.game_id          # this match's game, resumed by a restarted hub (ended or not)
            elif self._decided():
                self._finish(m, *self._score())   # never a game for a decided match
                return
            else:
                self.game_id = self.new_game(self.table, m, len(self.games) + 1).game_id
                self.link.outbox.note_start(m["round"], self.game_id)
                self.started.add(self.game_id)
            self.last_turn = None
            s = self.table.session
        elif s is not None and s.game_id == self.game_id:
            w = winner_of(s)
            timer = self.table.timer
            decided = self.table.round_end.after_change() if w is None else None
            if w is None and decided is not None:
                self._game_over(decided["winner"], m, time_called=True, at_time=decided)
            elif w is not None:
                self._game_over(w, m, time_called=timer.finished)

    def _new_match(self, m):
        """A new round for this table; after a restart, what the outbox says of it: the games
        counted, the slip and its confirmations (issue 28.3), or the result."""
        self.round_no, self.game_id = m["round"], None
        played = self.link.outbox.games(m["round"])
        self.games = [g["winner"] for g in played if not (g["winner"] == "draw" and m["stage"] == "cut")]
        self.at_time = [dict(g["at_time"], game=i + 1) for i, g in enumerate(played) if g.get("at_time")]
        self.time_called = any(g.get("time_called") for g in played)
        self.counted = {g["game_id"] for g in played}
        self.started = {g["game_id"] for g in self.link.outbox.games(m["round"], "start")}
        self.done = self.link.restore_slip(m["round"])

    def _score(self):
        need, _ = self._need()
        return self.games.count("a"), self.games.count("b"), self.games.count("draw")

    def _decided(self):
        """Whether the games counted decide the match (a restarted hub that counted the last
        game but was killed before its slip was written)."""
        need, best_of = self._need()
        a, b, d = self._score()
        return a >= need or b >= need or self.time_called or len(self.games) >= best_of

    def _game_over(self, w, m, time_called, at_time=None):
        short = _short_decision(at_time)
        self.link.outbox.note_game(m["round"], self.game_id, w, time_called, short)
        self.counted.add(self.game_id)
        if short is not None:
            self.at_time.append(dict(short, game=len(self.games) + 1))
        if w == "draw" and m["stage"] == "cut":
            self.game_id = None               # an elimination match needs a winner: play again
            return
        self.games.append(w)
        self.time_called = self.time_called or time_called
        if self._decided():
            self._finish(m, *self._score())
        else:
            self.game_id = None           # the next game of the match on the next tick

    def _finish(self, m, a, b, d):
        need, best_of = self._need()
        a, b = min(a, need), min(b, need)
        if a + b + d == 0:
            d = 1
        s = self.table.session
        detail = {"games": list(self.games), "health": health_of(s) if s else None,
                  "mode": s.mode if s else None, "game_ids": [self.game_id]}
        if self.at_time:
            detail["at_time"] = list(self.at_time)    # how each game decided at time was: the slip says it
        self.link.new_slip(a, b, d if d <= best_of else best_of, detail=detail)
        self.done = True
        if self.auto_confirm:
            self.confirm("a")
            self.confirm("b")

    # the pods' side question (hub/pods/pod_hub.py PodHub.side): a seat confirms with READY
    def question(self, seat):
        slip = self.link.slip
        if slip is None or seat in slip.confirmed:
            return None
        return "결과 %d-%d 확인" % (slip.body["a_wins"], slip.body["b_wins"])

    def answer(self, seat):
        if self.link.slip is not None:
            self.confirm(seat)

    def confirm(self, who):
        body = self.link.confirm(who)
        if body is not None:
            self.reported.append(body)
        return body

    # ------------------------------------------------------------ the clock and the tile
    def _follow_clock(self):
        c = self.link.clock
        if not c or c.get("round") != self.round_no:
            return
        # the table's time and the TD's, read together: the anchor is "left at now", and work
        # between the two reads (or the thread waiting for its turn) would be clock error
        now = self.table.wall.now_ms()
        left = self.link.clock_left()
        if left is None:
            return
        t = self.table.timer
        drift = abs(t.left(now) - left) if t.state == "running" else None
        if c["seq"] != self.clock_seq or (drift is not None and drift > RESYNC_MS):
            self.clock_seq = c["seq"]
            state = c["state"]
            if state == "time" and left > 0:
                state = "running"        # this table has a judge's extension left
            elif state == "running" and left == 0:
                state = "time"
            self.table.follow_clock(state, left, duration_ms=c.get("duration_ms"), extra_turns=c.get("extra_turns"),
                                    at_ms=now)
        elif t.state == "running" and left == 0:
            self.table.follow_clock("time", 0)

    def _status(self, m):
        now = self.mono()
        status = table_status(self.table.session, self.table.timer_view())
        status.update(round=self.round_no, games=list(self.games), result_pending=self.link.slip is not None,
                      unsent=len(self.link.pending()), players=[m["a_name"], m["b_name"]] if m else None)
        core = {k: v for k, v in status.items() if k != "timer"}
        if core != self.last_status or now - self.last_status_at >= 5 * self.status_every_s:
            if now - self.last_status_at >= self.status_every_s:
                self.last_status, self.last_status_at = core, now
                self.link.publish_status(status)
