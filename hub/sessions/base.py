"""What referee and tracker sessions share: the record, the clock, listeners, the ready
locks and the 10-second deadlines (guide 3.10).

When a player's ready reaches the hub it is stamped with the monotonic clock (ms) and,
if the opponent has not readied, the opponent's deadline starts: stamp + ``READY_MS``.
A ready that reaches the hub after deadline + ``LINK_ALLOWANCE_MS`` is too late; each
mode's ``tick`` turns an expired deadline into its non-response input. The allowance
covers the serial link (a press at 9.99 s on the pod is on time): see docs/referee.md.
"""

import time
from typing import Any, Callable, NamedTuple

READY_MS = 10_000
LINK_ALLOWANCE_MS = 250   # latency a pod's ready may take to reach the hub and still count


def _lumen():
    from hub.profiles import profile as profiles
    return profiles.get("lumen")


class _Unbuilt:
    """What a lazy message's key holds until it is built: no serializer knows it, so a
    reader that bypasses the dict's methods (orjson reads a dict subclass's C storage)
    fails loudly instead of sending ``null``."""

    __slots__ = ()

    def __repr__(self):
        return "<not built: read it through the message's methods>"


UNBUILT = _Unbuilt()


class LazyMessage(dict):
    """A message whose ``key`` is built when a listener first reads it: most listeners of a
    seat's ``you`` message never read its view (the pods' links look at the type only).
    Reading it through the dict's methods (``m[key]``, ``get``, ``items``, ``values``,
    ``dict(m)``, ``{**m}``, ``copy``, ``==``, ``json.dumps`` which iterates ``items``)
    builds it first. A reader that bypasses them (``orjson.dumps(m)``, ``dict.get(m, key)``)
    finds :data:`UNBUILT`, which no encoder accepts: call ``fill`` first. The session
    calls ``fill``, before its state moves on, for the messages a listener still holds
    (weak references)."""

    __slots__ = ("_key", "_make", "__weakref__")

    def __init__(self, fields, key, make):
        super().__init__(fields)
        dict.__setitem__(self, key, UNBUILT)
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


class NotFound(SessionError):
    """A deck, character or game the request names does not exist (nothing changed)."""


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


class SeatStatus(NamedTuple):
    """What a seat's pod shows of it, whatever the session: its FP, health, cards in hand
    (0 where nobody counts them) and its character's name (Korean)."""
    fp: int
    health: int
    hand: int
    character: str


class SeatPrompt(NamedTuple):
    """The question a seat must answer now, whatever the session (hub/pods/prompts.py turns
    it into a pod's slots; the demo's terminal player reads it too).

    ``kind``: the decision kind (``ready``, ``combo``, ``discard``, ...; ``none`` when the
    seat is asked nothing). ``options``: the values the seat may choose, in the engine's
    order, with the pass word left out (``pass_value``: ``pass``, ``end`` or ``skip``
    when passing is an option). ``picks``: a discard's number of cards. ``locked``: the
    seat has locked its ready and waits for the reveal. ``bare``: a ready with no card
    behind it (tracker mode: the answer is ``True``). ``hidden``: the answer must come
    from the seat's own pod."""
    kind: str
    options: tuple = ()
    pass_value: str | None = None
    picks: int = 0
    locked: bool = False
    bare: bool = False
    hidden: bool = False


NO_PROMPT = SeatPrompt("none")
LOCKED_READY = SeatPrompt("ready", locked=True, hidden=True)
PASS_WORDS = ("pass", "end", "skip")


class DecisionRefused(SessionError):
    """A decision the display may not give (``status``/``code`` as the API answers it)."""

    def __init__(self, status, code, message):
        super().__init__(message)
        self.status, self.code = status, code


class SessionBase:
    """What every session shares, and the one interface callers use whatever the mode.

    The record, the clock, listeners, the ready locks and deadlines live here. A session
    also answers, the same way in every mode (callers never ask which mode it is;
    ``mode`` is data: the record's mode, shown on the page):

    - ``winner``, ``turn``, ``priority``: the game's standing (``None`` when unknown)
    - ``seat_status(seat)``: a :class:`SeatStatus`
    - ``prompt(seat)``: the :class:`SeatPrompt` the seat must answer now
    - ``labels(options)``: the names of a prompt's options (Korean card names)
    - ``auto_setup(submit, openings)``: answer setup decisions nobody can enter on a pod
    - ``display_state(names)``: what the table display shows of the game (public only)
    - ``happenings()``: what the change just published did that a pod signals (reveal,
      a seat's result, non-response, sudden death, game over)
    - ``adjust_command(seat, what, value)``: a pod's HP/FP button as an input, if the mode
      takes one
    - ``check_display_decision(seat, kind, value)``: whether the display may give it
    - ``narrate(msg, lang)``: a public message as lines of the game's story (the demo)
    - ``log_tail(n)``: the last public log entries, explained
    - ``display_log()``: the whole game's display log lines (the display state keeps the
      last ones; a learner scrolls back through all of them: issue 22 point 10)
    - ``engine_state``: the engine's state when the session is a referee, else None
    - ``version``: counts the changes; anything above answers the same until it moves
    - ``seats``, ``side_of(seat)``: the game's seats (four at a 2-on-2 profile game); the side
      (team, named by its first seat) a seat plays for, as ``winner`` names it
    - ``pod_mode``, ``clock_defaults``: the mode the pods are told (None: ``mode``); the match
      clock's (duration_ms, extra_turns) from the game's profile (hub/profiles/)
    """

    mode: str | None = None
    seats: tuple[str, ...] = ("a", "b")
    #: the mode the pods are told (hub/pods/protocol.py MODES): a game whose pods work as a tracker's says so
    pod_mode: str | None = None
    #: the session takes tracker commands (``submit(None, "action", {...})``)
    takes_actions = False

    def __init__(self, store, game_id, clock=None):
        self.store = store
        self.game_id = game_id
        self.clock = clock or MonotonicClock()
        self.listeners = []
        self.deadline = {}        # seat -> monotonic ms by which that seat must ready
        self.locked = {}          # seat -> (mode-specific) record of a ready locked and not yet revealed
        self.answered = {"a": 0, "b": 0}   # decisions taken per seat: tells a repeated question from the last one
        self.version = 0          # changes taken: what a cache of the interface's answers keys on
        self._happened = []       # what the change last published did, for the pods (see happenings)

    def subscribe(self, fn):
        """fn(audience, message): audience is "public", "a" or "b"."""
        self.listeners.append(fn)

    def _send(self, audience, msg):
        for fn in self.listeners:
            fn(audience, msg)

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

    # ------------------------------------------------------------ the interface (each mode)
    @property
    def winner(self):
        raise NotImplementedError

    @property
    def turn(self):
        raise NotImplementedError

    @property
    def priority(self):
        raise NotImplementedError

    @property
    def engine_state(self):
        return None

    def seat_status(self, seat) -> SeatStatus:
        raise NotImplementedError

    def prompt(self, seat) -> SeatPrompt:
        raise NotImplementedError

    def labels(self, options) -> list[str]:
        return [str(o) for o in options]

    def auto_setup(self, submit: Callable[..., Any], openings=None) -> None:
        """Answer the setup decisions pending (nothing to answer by default)."""

    def display_state(self, names) -> dict:
        raise NotImplementedError

    def happenings(self) -> list:
        return list(self._happened)

    @property
    def clock_defaults(self) -> tuple[int, int]:
        """(duration_ms, extra_turns) of the match clock for this game: its profile's (Lumen
        Condenser's, hub/profiles/data/lumen.yaml, unless a session says otherwise)."""
        return _lumen().clock_defaults()

    def side_of(self, seat) -> str:
        """The side a seat plays for (its team, named by its first seat): who won is a side."""
        return seat

    def adjust_command(self, seat, what, value):
        raise SessionError("this game takes no health or FP entries from the pods")

    def check_display_decision(self, seat, kind, value):
        """Raise :class:`DecisionRefused` if the display may not give this decision."""

    def narrate(self, msg, lang) -> list[str]:
        return []

    def log_tail(self, n) -> list:
        return []

    def display_log(self) -> list:
        return []
