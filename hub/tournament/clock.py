"""One round clock for the room, and how a table knows the TD's time.

The TD's clock is the only one trusted. The round clock is published as TD
times ("the round ends at TD time T", plus per-table extensions), so a display
needs no stream of ticks: only the TD's time, which each hub estimates the
NTP way. A hub sends a request stamped t0 (its own monotonic clock), the TD
stamps t1 on receipt and t2 on reply, the hub stamps t3 on receipt:
    offset = ((t1 - t0) + (t2 - t3)) / 2      round trip = (t3 - t0) - (t2 - t1)
and the true offset lies within round-trip / 2 of that estimate, whatever the
delays were. Of several samples the one with the smallest round trip is kept
(the least queueing), refreshed regularly so a drifting hub clock follows.

Pure: every method takes the time from the caller.
"""


class ClockError(ValueError):
    pass


class OffsetEstimator:
    """TD time = local time + offset, from NTP-style samples."""

    def __init__(self, window=16, max_age_ms=120_000):
        self.window = window
        self.max_age_ms = max_age_ms
        self.samples = []      # (rtt, offset, t3)

    def add(self, t0, t1, t2, t3):
        rtt = (t3 - t0) - (t2 - t1)
        if rtt < -1.0 or t3 < t0:
            return None        # a sample from a clock that stepped: ignore it
        rtt = max(rtt, 0.0)    # (float rounding of large stamps)
        off = ((t1 - t0) + (t2 - t3)) / 2.0
        self.samples.append((rtt, off, t3))
        self.samples = [s for s in self.samples if t3 - s[2] <= self.max_age_ms][-self.window:]
        return off

    def best(self):
        return min(self.samples, key=lambda s: s[0]) if self.samples else None

    @property
    def offset(self):
        b = self.best()
        return None if b is None else b[1]

    @property
    def error_bound(self):
        """The estimate is within this many ms of the true offset (half the best round trip)."""
        b = self.best()
        return None if b is None else b[0] / 2.0

    def td_time(self, local_ms):
        off = self.offset
        return None if off is None else local_ms + off


class RoundClock:
    """The TD's round clock: idle, running, paused, or over ("time" for the room).

    Times are TD milliseconds. Per-table extensions (a judge's time extension at one
    table) stack on top of the room's clock for that table only.
    """

    STATES = ("idle", "running", "paused", "time")

    def __init__(self, round_no=0, duration_ms=30 * 60_000, extra_turns=3):
        self.round = round_no
        self.duration_ms = duration_ms
        self.extra_turns = extra_turns
        self.state = "idle"
        self.end_ms = None               # TD time the room's clock reaches 0 (running)
        self.remaining_ms = duration_ms  # when idle or paused
        self.table_ext = {}              # table -> extra ms
        self.seq = 0                     # every change counts up: a display keeps the newest

    def _changed(self):
        self.seq += 1

    @staticmethod
    def _ms(v, name="ms", lo=1000, hi=4 * 3600_000):
        if not isinstance(v, int) or isinstance(v, bool) or not lo <= v <= hi:
            raise ClockError("%s must be an integer %d..%d, got %r" % (name, lo, hi, v))
        return v

    def left(self, now, table=None):
        """Milliseconds left for ``table`` (the room's clock when None) at TD time ``now``."""
        ext = self.table_ext.get(table, 0) if table is not None else 0
        if self.state == "running":
            return max(0, self.end_ms + ext - now)
        if self.state == "time":
            return max(0, self.end_ms + ext - now) if self.end_ms is not None else 0
        return self.remaining_ms + ext

    def new_round(self, round_no, duration_ms=None, extra_turns=None):
        self.round = round_no
        if duration_ms is not None:
            self.duration_ms = self._ms(duration_ms, "duration_ms")
        if extra_turns is not None:
            self.extra_turns = extra_turns
        self.state, self.end_ms, self.remaining_ms, self.table_ext = "idle", None, self.duration_ms, {}
        self._changed()

    def start(self, now):
        if self.state != "idle":
            raise ClockError("the clock of round %d has already been started (%s)" % (self.round, self.state))
        self.state, self.end_ms = "running", now + self.remaining_ms
        self._changed()

    def pause(self, now):
        if self.state != "running":
            raise ClockError("only a running clock can be paused (it is %s)" % self.state)
        self.remaining_ms, self.end_ms, self.state = max(0, self.end_ms - now), None, "paused"
        self._changed()

    def resume(self, now):
        if self.state != "paused":
            raise ClockError("only a paused clock can be resumed (it is %s)" % self.state)
        self.state, self.end_ms = "running", now + self.remaining_ms
        self._changed()

    def extend(self, ms, now, table=None):
        """More time for the whole room, or for one table (a judge's extension)."""
        self._ms(ms, lo=1000, hi=3600_000)
        if table is not None:
            if not isinstance(table, int) or isinstance(table, bool) or table < 1:
                raise ClockError("table must be a table number, got %r" % (table,))
            self.table_ext[table] = self.table_ext.get(table, 0) + ms
        elif self.state in ("running", "time"):
            if self.state == "time":
                self.state = "running"
                self.end_ms = max(self.end_ms or now, now)
            self.end_ms += ms
        else:
            self.remaining_ms += ms
        self._changed()

    def call_time(self, now):
        """The TD calls time for the room now (tables with an extension play it out)."""
        if self.state not in ("running", "paused"):
            raise ClockError("time can only be called on a running or paused clock (it is %s)" % self.state)
        self.state, self.end_ms, self.remaining_ms = "time", now, 0
        self._changed()

    def update(self, now):
        """The room's clock running out is "time"; returns True when that happened now."""
        if self.state == "running" and now >= self.end_ms:
            self.state = "time"
            self._changed()
            return True
        return False

    def to_json(self):
        return {"round": self.round, "state": self.state, "duration_ms": self.duration_ms,
                "extra_turns": self.extra_turns, "end_ms": self.end_ms, "remaining_ms": self.remaining_ms,
                "table_ext": {str(k): v for k, v in sorted(self.table_ext.items())}, "seq": self.seq}

    @classmethod
    def from_json(cls, d):
        c = cls(d["round"], d["duration_ms"], d["extra_turns"])
        c.state, c.end_ms, c.remaining_ms, c.seq = d["state"], d["end_ms"], d["remaining_ms"], d["seq"]
        c.table_ext = {int(k): v for k, v in d["table_ext"].items()}
        return c


def left_for_table(view, table, td_now):
    """What a table's display shows: ms left on the round clock ``view`` (a
    ``RoundClock.to_json``) for ``table`` at TD time ``td_now``; None before any clock."""
    if not view:
        return None
    return RoundClock.from_json(view).left(td_now, table)


def end_of_round(health_a, health_b):
    """The end-of-round rule (docs/tournament.md): after the extra turns an unfinished
    game goes to the player with more health; equal health is a drawn game."""
    if health_a > health_b:
        return "a"
    if health_b > health_a:
        return "b"
    return "draw"
