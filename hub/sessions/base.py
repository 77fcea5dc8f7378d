"""What referee and tracker sessions share: the record, the clock, listeners, the ready
locks and the 10-second deadlines (guide 3.10).

When a player's ready reaches the hub it is stamped with the monotonic clock (ms) and,
if the opponent has not readied, the opponent's deadline starts: stamp + ``READY_MS``.
A ready that reaches the hub after deadline + ``LINK_ALLOWANCE_MS`` is too late; each
mode's ``tick`` turns an expired deadline into its non-response input. The allowance
covers the serial link (a press at 9.99 s on the pod is on time): see docs/referee.md.
"""

import time

READY_MS = 10_000
LINK_ALLOWANCE_MS = 250   # latency a pod's ready may take to reach the hub and still count


class LazyMessage(dict):
    """A message whose ``key`` is built when a listener first reads it: most listeners of a
    seat's ``you`` message never read its view (the pods' links look at the type only).
    Every way of reading it (``m[key]``, ``get``, ``items``, ``values``, ``dict(m)``,
    ``{**m}``, json.dumps, ``==``) builds it first. ``fill`` builds it now: the session calls
    it, before its state moves on, for the messages a listener still holds (weak references)."""

    __slots__ = ("_key", "_make", "__weakref__")

    def __init__(self, fields, key, make):
        super().__init__(fields)
        self._key, self._make = key, make

    def fill(self):
        make = self._make
        if make is not None:
            self._make = None
            dict.__setitem__(self, self._key, make())

    def __getitem__(self, k):
        if k == self._key:
            self.fill()
        return dict.__getitem__(self, k)

    def get(self, k, default=None):
        if k == self._key:
            self.fill()
        return dict.get(self, k, default)

    def items(self):
        self.fill()
        return dict.items(self)

    def values(self):
        self.fill()
        return dict.values(self)

    def __iter__(self):         # overridden, so dict(m) and {**m} read through __getitem__
        return dict.__iter__(self)

    def copy(self):
        self.fill()
        return dict(self)

    def pop(self, k, *default):
        if k == self._key:
            self.fill()
        return dict.pop(self, k, *default)

    def __eq__(self, other):
        self.fill()
        if isinstance(other, LazyMessage):
            other.fill()
        return dict.__eq__(self, other)

    def __ne__(self, other):
        return not self == other

    __hash__ = None

    def __repr__(self):
        self.fill()
        return dict.__repr__(self)

    def __reduce_ex__(self, protocol):       # copy, deepcopy, pickle: a plain dict
        self.fill()
        return (dict, (dict(self),))


class SessionError(Exception):
    """A request the session cannot accept (names what was wrong; nothing changed)."""


class MonotonicClock:
    def now_ms(self):
        return time.monotonic_ns() // 1_000_000


class FakeClock:
    """A clock tests move by hand."""

    def __init__(self, start=1_000_000):
        self.t = start

    def now_ms(self):
        return self.t

    def advance(self, ms):
        self.t += ms


class SessionBase:
    """What both modes share: the record, the clock, listeners, the ready locks and deadlines."""

    mode = None

    def __init__(self, store, game_id, clock=None):
        self.store = store
        self.game_id = game_id
        self.clock = clock or MonotonicClock()
        self.listeners = []
        self.deadline = {}        # seat -> monotonic ms by which that seat must ready
        self.locked = {}          # seat -> (mode-specific) record of a ready locked and not yet revealed
        self.answered = {"a": 0, "b": 0}   # decisions taken per seat: tells a repeated question from the last one

    def subscribe(self, fn):
        """fn(audience, message): audience is "public", "a" or "b"."""
        self.listeners.append(fn)

    def _send(self, audience, msg):
        for fn in self.listeners:
            fn(audience, msg)

    def pod_expired(self, seat):
        """A pod reports its own countdown expiry: the hub checks its own deadline."""
        self.tick()

    def ready_status(self):
        """Who has readied (never what) and the running deadlines."""
        now = self.clock.now_ms()
        return {s: {"locked": s in self.locked,
                    "deadline_ms": self.deadline.get(s),
                    "ms_left": max(0, self.deadline[s] - now) if s in self.deadline else None}
                for s in ("a", "b")}

    def judge_log(self):
        """The judge log (public): ready stamps, commitments, deadlines, reveals."""
        return [r.to_json() for r in self.store.records(self.game_id, kinds=("judge",))]
