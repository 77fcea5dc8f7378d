"""The tournament match clock (brief 6, issue 6 item 4; crash-safe since issue 12).

30:00 by default, yellow from 1:00, red from 0:10; pause and resume, time
extensions (a judge call), and "time": when the clock runs out, or a judge
calls it, the game goes on for a configured number of extra turns.

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
FORMAT = "lumen-clock/2"


class TimerError(ValueError):
    pass


class MatchTimer:
    def __init__(self, duration_ms=DEFAULT_MS, extra_turns=0):
        self._check_ms("duration_ms", duration_ms, minimum=1000)
        self._check_turns(extra_turns)
        self.duration_ms = duration_ms
        self.extra_turns = extra_turns      # turns played after "time"
        self.state = "idle"                 # idle | running | paused | time
        self.started_ms = None              # the anchor: wall clock when the round (re)started
        self.paused_ms = 0                  # time spent in pauses that ended
        self.paused_since = None            # wall clock of the pause going on
        self.budget_ms = duration_ms        # what the clock counts down from the anchor
        self.extended_ms = 0                # judge extensions this round (for people)
        self.turns_left = None              # counting down after "time"

    @staticmethod
    def _check_ms(name, v, minimum=0):
        if not isinstance(v, int) or isinstance(v, bool) or v < minimum:
            raise TimerError("%s must be an integer of at least %d ms, got %r" % (name, minimum, v))

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

    def turn_ended(self):
        """The table finished a turn: counts the extra turns after time."""
        if self.state == "time" and self.turns_left:
            self.turns_left -= 1

    @property
    def finished(self):
        """Time was called and every extra turn has been played."""
        return self.state == "time" and self.turns_left == 0

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
                "extra_turns": self.extra_turns, "turns_left": self.turns_left,
                "finished": state == "time" and self.turns_left == 0}

    # ------------------------------------------------------------ the anchor in the record
    KEYS = ("duration_ms", "extra_turns", "state", "started_ms", "paused_ms", "paused_since", "budget_ms",
            "extended_ms", "turns_left")

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
