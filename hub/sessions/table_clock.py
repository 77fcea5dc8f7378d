"""The match clock of a table (hub/sessions/table.py ``Table``): what it shows, the judge's
actions on it with their undo steps, a clock followed from the tournament's TD, and its anchor
kept in the current game's record so a restart brings it back. A mixin of ``Table``: it reads
the table's ``timer``, record, session, clocks and end-of-round procedure."""

from operator import attrgetter

from hub.profiles import profile as profiles
from hub.sessions.base import SessionError
from hub.sessions.end_of_round import profile_of
from hub.sessions.timer import MatchTimer, TimerError

TIMER_UNDO_LIMIT = 20
#: the same clock action again this soon, or a pause answered by a resume (or back), is a
#: double tap on one button (the mini bar's pause turns into resume under the finger), not
#: two decisions: the second is ignored (issue 22 point 3; "next turn" has its own guard)
CLOCK_GUARD_MS = 1000
_CLOCK_TWINS = {"pause": "resume", "resume": "pause"}
_ANCHOR = attrgetter(*MatchTimer.KEYS)      # the clock's fields: what a stopped clock's view shows


class TableClock:
    """The match clock's part of ``Table``."""

    def timer_view(self):
        """The match clock as shown, with the judge's last clock action (undo). A clock that
        does not run shows nothing that depends on the time: the same dict then, until the
        clock changes (every decision relays it and the display shows it: issue 16). Shared:
        read it, never change it."""
        t = self.timer
        undo = self._timer_undo[-1]["action"] if self._timer_undo else None
        now = self.wall.now_ms()
        if t.state == "running" or (t.extra_left(now) or 0) > 0:      # the extra time after "time" runs too
            v = t.view(now)
            v["undo"] = undo
            return v
        key = (t, _ANCHOR(t), undo)         # the clock object is compared by identity
        hit = self._timer_seen
        if hit is not None and hit[0] == key:
            return hit[1]
        v = t.view(self.wall.now_ms())
        v["undo"] = undo
        self._timer_seen = (key, v)
        return v

    def timer_action(self, action, by="judge", **kw):
        """A clock action; a judge's is an undo step (``undo`` reverts the newest one). A judge's
        double tap (CLOCK_GUARD_MS) changes nothing and returns the clock as it is."""
        now = self.wall.now_ms()
        mono = self.clock.now_ms()
        if by == "judge" and action != "undo" and self._last_clock is not None:
            last, at = self._last_clock
            if 0 <= mono - at < CLOCK_GUARD_MS and action in (last, _CLOCK_TWINS.get(last)):
                return self.timer_view()
        t = self.timer
        before = t.to_json()
        try:
            if action == "undo":
                if not self._timer_undo:
                    raise TimerError("nothing to undo on the clock")
                self.timer = MatchTimer.from_json(self._timer_undo.pop()["before"], now)
            elif action == "round_start":
                t.round_start(now, kw.get("duration_ms"), kw.get("extra_turns"))
            elif action == "pause":
                t.pause(now)
            elif action == "resume":
                t.resume(now)
            elif action == "extend":
                t.extend(kw.get("ms"), now)
            elif action == "call_time":
                t.call_time(now, kw.get("extra_turns"))
            elif action == "turn_ended":
                t.turn_ended(now)
            else:
                raise TimerError("unknown timer action %r" % (action,))
        except TimerError as e:
            raise SessionError(str(e)) from None
        if action != "undo" and by == "judge":
            self._timer_undo.append({"action": action, "before": before})
            del self._timer_undo[:-TIMER_UNDO_LIMIT]
            self._last_clock = (action, mono)
        self._timer_changed(action, by=by, before=before)
        self.round_end.after_change(undo=action == "undo")     # the procedure over (or undone): decided (or reopened)
        return self.timer_view()

    def follow_clock(self, state, ms_left, duration_ms=None, extra_turns=None, at_ms=None):
        """Show a clock kept elsewhere: the tournament's round clock, in the TD's time
        (hub/tournament/bridge.py): ``ms_left`` as of ``at_ms`` on this table's wall clock
        (default now). After "time" the table counts its own extra turns."""
        now = self.wall.now_ms() if at_ms is None else at_ms
        t = self.timer
        if state == "time" and t.state == "time":
            return
        if duration_ms:
            t.duration_ms = max(1000, int(duration_ms))
        if extra_turns is not None:
            t.extra_turns = extra_turns
        if state == "time":
            t.call_time(now)
        elif state in ("running", "paused"):
            # the anchor: ``ms_left`` from now, paused from now on if the TD's clock is paused
            t.state, t.started_ms, t.paused_ms, t.budget_ms = state, now, 0, max(0, int(ms_left))
            t.paused_since = now if state == "paused" else None
            t.turns_left, t.finishing, t.extra_since = None, False, None
        else:
            t.state, t.started_ms, t.paused_ms, t.paused_since = "idle", None, 0, None
            t.budget_ms, t.turns_left, t.finishing, t.extra_since = t.duration_ms, None, False, None
        self._timer_from_td = True
        self._timer_changed("follow", by="td")
        self.round_end.after_change()

    def _timer_changed(self, action, by="judge", before=None):
        self._record_timer(action, before, by=by)
        self._relay("public", {"t": "timer", "timer": self.timer_view()})

    def _record_timer(self, action, before, by="hub", history=False):
        """The clock's anchor after a change, in the current game's record (kill -9 safe)."""
        if self.session is None:
            return
        body = {"action": action, "by": by, "timer": self.timer.to_json(self.wall.now_ms())}
        if before is not None:
            body["before"] = before
        if history:
            body["undo"] = list(self._timer_undo)
        self.store.append(self.session.game_id, "timer", body, mono_ms=self.clock.now_ms())

    def _restore_timer(self, game_id):
        """The clock and its undo steps as the game's ``timer`` records left them."""
        recs = self.store.records(game_id, kinds=("timer",))
        if not recs:
            return
        undo = []
        for r in recs:
            b = r.body
            if b["action"] == "carry":
                undo = list(b.get("undo") or [])
            elif b["action"] == "undo":
                undo = undo[:-1]
            elif b.get("by", "judge") == "judge" and "before" in b:
                undo.append({"action": b["action"], "before": b["before"]})
        self._timer_undo = undo[-TIMER_UNDO_LIMIT:]
        self.timer = MatchTimer.from_json(recs[-1].body["timer"], self.wall.now_ms())


def timer_for(session):
    """A fresh match clock for a game (None: Lumen Condenser's): its profile's length and its
    end-of-round procedure (hub/sessions/end_of_round.py)."""
    prof = profile_of(session) if session is not None else profiles.get("lumen")
    duration_ms, extra_turns = session.clock_defaults if session is not None else prof.clock_defaults()
    proc = prof.procedure()
    return MatchTimer(duration_ms, extra_turns, proc["extra_ms"], proc["finish_turn"])
