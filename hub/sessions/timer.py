"""The tournament match clock (brief 6, issue 6 item 4; crash-safe since issue 12).

30:00 by default, yellow from 1:00, red from 0:10; pause and resume, time
extensions (a judge call), and "time": when the clock runs out, or a judge
calls it, the game's end-of-round procedure (its profile's, issue 38): the turn in
progress is played to its end (``finish_turn``), then up to ``extra_turns`` more turns
or ``extra_ms`` more time, whichever comes first (a turn begun before the extra time runs
out is played to its end). ``finished`` then: hub/sessions/end_of_round.py decides a game
still undecided.

The clock is an *anchor*, not a countdown: the wall-clock moment the round started,
the time spent paused, and the time budget (duration plus extensions). Written to the
record after every change, it gives the true time left after a crash and restart with
no correction: time that passed while the hub was down has passed on the clock too.
Shifting the anchor (``started_ms``) is all an outside round clock (a tournament's) needs.
Pure: every method takes ``now_ms`` (wall-clock milliseconds) from the caller.
"""

DEFAULT_MS = 30 * 60 * 1000
YELLOW_MS = 60 * 1000
RED_MS = 10 * 1000
MAX_EXTENSION_MS = 30 * 60 * 1000
FORMAT = "lumen-clock/3"
#: the anchor of before the end-of-round procedure (issue 38): extra turns only, counted from time
FORMAT_2 = "lumen-clock/2"


class TimerError(ValueError):
    pass


class MatchTimer:
    def __init__(self, duration_ms=DEFAULT_MS, extra_turns=0, extra_ms=None, finish_turn=True):
        self._check_ms("duration_ms", duration_ms, minimum=1000)
        self._check_turns(extra_turns)
        self._check_extra(extra_ms)
        self.duration_ms = duration_ms
        self.extra_turns = extra_turns      # turns played after "time" (after the turn in progress)
        self.extra_ms = extra_ms            # or this long after the turn in progress, whichever first (None: turns only)
        self.finish_turn = finish_turn      # at "time" the turn in progress is played to its end first
        self.state = "idle"                 # idle | running | paused | time
        self.started_ms = None              # the anchor: wall clock when the round (re)started
        self.paused_ms = 0                  # time spent in pauses that ended
        self.paused_since = None            # wall clock of the pause going on
        self.budget_ms = duration_ms        # what the clock counts down from the anchor
        self.extended_ms = 0                # judge extensions this round (for people)
        self.turns_left = None              # counting down after "time"
        self.finishing = False              # after "time": the turn in progress has not ended yet
        self.extra_since = None             # wall clock the extra turns began (the turn in progress ended)

    @staticmethod
    def _check_ms(name, v, minimum=0):
        if not isinstance(v, int) or isinstance(v, bool) or v < minimum:
            raise TimerError("%s must be an integer of at least %d ms, got %r" % (name, minimum, v))

    @staticmethod
    def _check_extra(v):
        if v is not None and (not isinstance(v, int) or isinstance(v, bool) or not 1000 <= v <= 3600_000):
            raise TimerError("extra_ms must be null or an integer 1000..3600000, got %r" % (v,))

    @staticmethod
    def _check_turns(v):
        if not isinstance(v, int) or isinstance(v, bool) or not 0 <= v <= 10:
            raise TimerError("extra_turns must be an integer 0..10, got %r" % (v,))

    def _elapsed(self, now_ms):
        until = self.paused_since if self.paused_since is not None else now_ms
        return max(0, until - self.started_ms - self.paused_ms)

    def left(self, now_ms):
        if self.state == "idle":
            return self.duration_ms
        if self.state == "time":
            return 0
        return max(0, self.budget_ms - self._elapsed(now_ms))

    def update(self, now_ms):
        """Call regularly: the running clock reaching 0 becomes "time"."""
        if self.state == "running" and self.left(now_ms) == 0:
            self._time()
            return True
        return False

    def round_start(self, now_ms, duration_ms=None, extra_turns=None):
        """A new round for this table: reset and start."""
        if duration_ms is not None:
            self._check_ms("duration_ms", duration_ms, minimum=1000)
        if extra_turns is not None:
            self._check_turns(extra_turns)
        if duration_ms is not None:
            self.duration_ms = duration_ms
        if extra_turns is not None:
            self.extra_turns = extra_turns
        self.state = "running"
        self.started_ms = now_ms
        self.paused_ms = 0
        self.paused_since = None
        self.budget_ms = self.duration_ms
        self.extended_ms = 0
        self.turns_left = None
        self.finishing = False
        self.extra_since = None

    def procedure(self, extra_turns=None, extra_ms=None, finish_turn=None):
        """Set the end-of-round procedure (a game's profile, a tournament's settings); a clock
        already past time keeps counting what it counted."""
        if extra_turns is not None:
            self._check_turns(extra_turns)
            self.extra_turns = extra_turns
        self._check_extra(extra_ms)
        self.extra_ms = extra_ms
        if finish_turn is not None:
            self.finish_turn = bool(finish_turn)

    def pause(self, now_ms):
        if self.state != "running":
            raise TimerError("the clock is not running (it is %s)" % self.state)
        self.paused_since = now_ms
        self.state = "paused"

    def resume(self, now_ms):
        if self.state != "paused":
            raise TimerError("the clock is not paused (it is %s)" % self.state)
        self.paused_ms += max(0, now_ms - self.paused_since)
        self.paused_since = None
        self.state = "running"

    def extend(self, ms, now_ms):
        """A judge's time extension."""
        self._check_ms("ms", ms, minimum=1)
        if ms > MAX_EXTENSION_MS:
            raise TimerError("an extension is at most 30 minutes")
        if self.state == "idle":
            raise TimerError("the round has not started")
        if self.state == "time":
            # extending after time: the clock holds the extension, paused, until resumed
            self.paused_since = now_ms
            self.budget_ms = self._elapsed(now_ms)
            self.state = "paused"
            self.turns_left = None
            self.finishing, self.extra_since = False, None
        self.budget_ms = max(self.budget_ms, self._elapsed(now_ms)) + ms
        self.extended_ms += ms

    def call_time(self, now_ms, extra_turns=None):
        """A judge calls time now (or the clock ran out)."""
        if extra_turns is not None:
            self._check_turns(extra_turns)
        if self.state == "time":
            raise TimerError("time has already been called")
        if self.state == "idle":
            self.started_ms = now_ms
        if extra_turns is not None:
            self.extra_turns = extra_turns
        if self.paused_since is None:
            self.paused_since = now_ms     # the anchor stops where time came
        self._time()

    def _time(self):
        if self.paused_since is None:
            self.paused_since = self.started_ms + self.paused_ms + self.budget_ms
        self.state = "time"
        self.turns_left = self.extra_turns
        self.finishing = self.finish_turn
        self.extra_since = None if self.finish_turn else self.paused_since

    def turn_ended(self, now_ms=None):
        """The table finished a turn (the next one began): after time, the turn in progress
        first, then the extra turns; the extra time running out ends them at this turn's end."""
        if self.state != "time":
            return
        if self.finishing:
            self.finishing = False
            self.extra_since = now_ms if now_ms is not None else self.paused_since
        elif self.turns_left:
            self.turns_left -= 1
        if self.turns_left and self.extra_out(now_ms):
            self.turns_left = 0

    def extra_out(self, now_ms):
        """The extra time has run out (a turn going on is still played to its end)."""
        return (self.extra_ms is not None and self.extra_since is not None and now_ms is not None
                and now_ms >= self.extra_since + self.extra_ms)

    def extra_left(self, now_ms):
        """Ms of extra time left (None: none counts yet, or the procedure has none)."""
        if self.extra_ms is None or self.extra_since is None or self.state != "time":
            return None
        return max(0, self.extra_since + self.extra_ms - (now_ms or 0))

    @property
    def finished(self):
        """Time was called, the turn in progress ended and every extra turn has been played
        (or the extra time ran out and the turn then going on ended)."""
        return self.state == "time" and not self.finishing and self.turns_left == 0

    def colour(self, now_ms):
        return self._colour(self.left(now_ms))

    def _colour(self, left):
        if self.state == "time" or left <= RED_MS:
            return "red"
        if left <= YELLOW_MS:
            return "yellow"
        return "normal"

    def view(self, now_ms):
        left = self.left(now_ms)
        state = self.state
        return {"state": state, "ms_left": left, "text": "%d:%02d" % (left // 60000, (left // 1000) % 60),
                "colour": self._colour(left), "duration_ms": self.duration_ms, "extended_ms": self.extended_ms,
                "extra_turns": self.extra_turns, "turns_left": self.turns_left, "extra_ms": self.extra_ms,
                "finishing": state == "time" and self.finishing, "extra_ms_left": self.extra_left(now_ms),
                "finished": self.finished}

    # ------------------------------------------------------------ the anchor in the record
    KEYS = ("duration_ms", "extra_turns", "state", "started_ms", "paused_ms", "paused_since", "budget_ms",
            "extended_ms", "turns_left", "extra_ms", "finish_turn", "finishing", "extra_since")
    KEYS_2 = KEYS[:9]

    def to_json(self, now_ms=None):
        """The anchor (independent of ``now_ms``; ``remaining_ms`` is for people reading the record)."""
        d = {k: getattr(self, k) for k in self.KEYS}
        d["format"] = FORMAT
        if now_ms is not None:
            d["remaining_ms"] = self.left(now_ms)
        return d

    @classmethod
    def from_json(cls, d, now_ms):
        """An anchor as written by :meth:`to_json`. A record written before anchors (a
        countdown value only) comes back paused at what it said: better than running on
        from a moment nobody knows."""
        t = cls(d["duration_ms"], d["extra_turns"])
        if d.get("format") == FORMAT:
            for k in cls.KEYS:
                setattr(t, k, d[k])
            return t
        if d.get("format") == FORMAT_2:
            # before the procedure: the extra turns counted from time, no turn to finish, no extra time
            for k in cls.KEYS_2:
                setattr(t, k, d[k])
            t.finish_turn, t.extra_ms = False, None
            return t
        t.extended_ms = d.get("extended_ms", 0)
        t.turns_left = d.get("turns_left")
        state = d["state"]
        if state == "idle":
            return t
        t.started_ms, t.paused_since = now_ms, now_ms
        t.budget_ms = d.get("remaining_ms", 0)
        t.state = "time" if state == "time" else "paused"
        return t

    def copy(self):
        return MatchTimer.from_json(self.to_json(), None)
