"""The tournament match clock (brief 6, issue 6 item 4).

30:00 by default, yellow from 1:00, red from 0:10; pause and resume, time
extensions (a judge call), and "time": when the clock runs out, or a judge
calls it, the game goes on for a configured number of extra turns. Pure: every
method takes ``now_ms`` (monotonic milliseconds) from the caller.
"""

DEFAULT_MS = 30 * 60 * 1000
YELLOW_MS = 60 * 1000
RED_MS = 10 * 1000


class TimerError(ValueError):
    pass


class MatchTimer:
    def __init__(self, duration_ms=DEFAULT_MS, extra_turns=0):
        self._check_ms("duration_ms", duration_ms, minimum=1000)
        self._check_turns(extra_turns)
        self.duration_ms = duration_ms
        self.extra_turns = extra_turns      # turns played after "time"
        self.remaining_ms = duration_ms     # at ``since_ms`` when running
        self.since_ms = None                # set while running
        self.state = "idle"                 # idle | running | paused | time
        self.turns_left = None              # counting down after "time"
        self.extended_ms = 0

    @staticmethod
    def _check_ms(name, v, minimum=0):
        if not isinstance(v, int) or isinstance(v, bool) or v < minimum:
            raise TimerError("%s must be an integer of at least %d ms, got %r" % (name, minimum, v))

    @staticmethod
    def _check_turns(v):
        if not isinstance(v, int) or isinstance(v, bool) or not 0 <= v <= 10:
            raise TimerError("extra_turns must be an integer 0..10, got %r" % (v,))

    def left(self, now_ms):
        if self.state == "running":
            return max(0, self.remaining_ms - (now_ms - self.since_ms))
        return self.remaining_ms

    def update(self, now_ms):
        """Call regularly: the running clock reaching 0 becomes "time"."""
        if self.state == "running" and self.left(now_ms) == 0:
            self._time(now_ms)
            return True
        return False

    def round_start(self, now_ms, duration_ms=None, extra_turns=None):
        """A new round for this table: reset and start."""
        if duration_ms is not None:
            self._check_ms("duration_ms", duration_ms, minimum=1000)
            self.duration_ms = duration_ms
        if extra_turns is not None:
            self._check_turns(extra_turns)
            self.extra_turns = extra_turns
        self.remaining_ms = self.duration_ms
        self.extended_ms = 0
        self.turns_left = None
        self.state = "running"
        self.since_ms = now_ms

    def pause(self, now_ms):
        if self.state != "running":
            raise TimerError("the clock is not running (it is %s)" % self.state)
        self.remaining_ms = self.left(now_ms)
        self.since_ms = None
        self.state = "paused"

    def resume(self, now_ms):
        if self.state != "paused":
            raise TimerError("the clock is not paused (it is %s)" % self.state)
        self.since_ms = now_ms
        self.state = "running"

    def extend(self, ms, now_ms):
        """A judge's time extension."""
        self._check_ms("ms", ms, minimum=1)
        if ms > 30 * 60 * 1000:
            raise TimerError("an extension is at most 30 minutes")
        if self.state == "idle":
            raise TimerError("the round has not started")
        if self.state == "time":
            # extending after time: the clock runs again
            self.state = "paused"
            self.remaining_ms = 0
            self.turns_left = None
        self.remaining_ms = self.left(now_ms) + ms
        if self.state == "running":
            self.since_ms = now_ms
        self.extended_ms += ms

    def call_time(self, now_ms, extra_turns=None):
        """A judge calls time now (or the clock ran out)."""
        if extra_turns is not None:
            self._check_turns(extra_turns)
            self.extra_turns = extra_turns
        if self.state == "time":
            raise TimerError("time has already been called")
        self._time(now_ms)

    def _time(self, now_ms):
        self.remaining_ms = 0
        self.since_ms = None
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
        left = self.left(now_ms)
        if self.state == "time" or left <= RED_MS:
            return "red"
        if left <= YELLOW_MS:
            return "yellow"
        return "normal"

    def view(self, now_ms):
        left = self.left(now_ms)
        return {"state": self.state, "ms_left": left, "text": "%d:%02d" % (left // 60000, (left // 1000) % 60),
                "colour": self.colour(now_ms), "duration_ms": self.duration_ms, "extended_ms": self.extended_ms,
                "extra_turns": self.extra_turns, "turns_left": self.turns_left, "finished": self.finished}

    def to_json(self, now_ms):
        d = {k: getattr(self, k) for k in ("duration_ms", "extra_turns", "state", "turns_left", "extended_ms")}
        d["remaining_ms"] = self.left(now_ms)
        return d

    @classmethod
    def from_json(cls, d, now_ms):
        t = cls(d["duration_ms"], d["extra_turns"])
        t.state = d["state"]
        t.turns_left = d["turns_left"]
        t.extended_ms = d["extended_ms"]
        t.remaining_ms = d["remaining_ms"]
        t.since_ms = now_ms if t.state == "running" else None
        return t
