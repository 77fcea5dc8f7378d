"""One round clock for the room, and how a table knows the TD's time.

The TD's clock is the only one trusted. The round clock is published as TD
times ("the round ends at TD time T", plus per-table extensions), so a display
needs no stream of ticks: only the TD's time, which each hub estimates the
NTP way. A hub sends a request stamped t0 (its own monotonic clock), the TD
stamps t1 on receipt and t2 on reply, the hub stamps t3 on receipt:
    offset = ((t1 - t0) + (t2 - t3)) / 2      round trip = (t3 - t0) - (t2 - t1)
and the true offset lies within round-trip / 2 of that estimate, whatever the
delays were. Of the samples of the last minutes the one with the smallest error bound is
kept (the least queueing; its bound grows with its age, as the clocks may drift apart), so
a drifting hub clock follows.

Pure: every method takes the time from the caller.
"""


class ClockError(ValueError):
    pass


#: how fast two clocks may drift apart (ms per ms): a hub's crystal and the TD's, each ~50 ppm,
#: or a clock being slewed by NTP. A sample's error bound grows by this with its age (NTP's
#: dispersion), so an old sample with a short round trip can still be the best one.
DRIFT_PPM = 100


class OffsetEstimator:
    """TD time = local time + offset, from NTP-style samples.

    Each sample's error bound is half its round trip plus what the two clocks may have
    drifted since (DRIFT_PPM times its age); the sample with the smallest bound gives the
    offset. On a loaded machine most round trips are long (a request waits behind the TD's
    work, a reply behind the hub's): keeping the samples of the last minutes (not the last
    16) keeps the rare short one (issue 38: at 256 tables the tables' estimates spread to
    p99 236 ms, max 327 ms, when only the newest 16 samples were kept)."""

    def __init__(self, window=300, max_age_ms=600_000, drift_ppm=DRIFT_PPM):
        self.window = window
        self.max_age_ms = max_age_ms
        self.drift = drift_ppm / 1e6
        self.samples = []      # (rtt, offset, t3)
        self._best = None      # the best sample at the newest sample's time (samples changed: None)

    def add(self, t0, t1, t2, t3):
        rtt = (t3 - t0) - (t2 - t1)
        if rtt < -1.0 or t3 < t0:
            return None        # a sample from a clock that stepped: ignore it
        rtt = max(rtt, 0.0)    # (float rounding of large stamps)
        off = ((t1 - t0) + (t2 - t3)) / 2.0
        self.samples.append((rtt, off, t3))
        self._best = None
        if len(self.samples) > self.window or t3 - self.samples[0][2] > self.max_age_ms:
            self.samples = [s for s in self.samples if t3 - s[2] <= self.max_age_ms][-self.window:]
        return off

    def _bound(self, s, now):
        return s[0] / 2.0 + self.drift * max(0.0, now - s[2])

    def best(self, now=None):
        """The sample with the smallest error bound at local time ``now`` (default: the
        newest sample's time)."""
        if not self.samples:
            return None
        if now is None:
            if self._best is None:     # read at every display tick: chosen once per sample
                self._best = self.best(self.samples[-1][2])
            return self._best
        return min(self.samples, key=lambda s: self._bound(s, now))

    @property
    def offset(self):
        b = self.best()
        return None if b is None else b[1]

    @property
    def error_bound(self):
        """The estimate is within this many ms of the true offset: half the chosen sample's
        round trip plus the drift since it was taken (at the newest sample's time)."""
        b = self.best()
        return None if b is None else self._bound(b, self.samples[-1][2])

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
