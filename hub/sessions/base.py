"""What every session shares: the session kernel (one transaction per decision), the record,
the clock, listeners, the ready locks and the 10-second deadlines (guide 3.10).

Three sessions build on it: the referee (hub/sessions/referee.py: the engine's GameState), the
tracker (tracker.py: TrackerGame) and the profile game (profile.py: ProfileGame). None of them
writes its own ``submit``: :meth:`SessionBase.submit` is the one transaction, and each mode
fills in its hooks (see :class:`ModeHooks`): ``_prepare`` (validate, nothing changes),
``_snapshot``, ``_step`` (apply to the game and say what to record and send), ``_rollback``,
``_take`` (the bookkeeping once recorded) and ``_publish`` (the messages of the new state).
Every decision is written to the record before anything in the session or outside it sees it,
and publishes exactly one change set (hub/sessions/changes.py).

When a player's ready reaches the hub it is stamped with the monotonic clock (ms) and,
if the opponent has not readied, the opponent's deadline starts: stamp + ``READY_MS``.
A ready that reaches the hub after deadline + ``LINK_ALLOWANCE_MS`` is too late; each
mode's ``tick`` turns an expired deadline into its non-response input. The allowance
covers the serial link (a press at 9.99 s on the pod is on time): see docs/referee.md.
"""

import time
from abc import ABC, abstractmethod
from collections.abc import Callable, Sequence
from typing import Any, NamedTuple, Protocol

from hub.sessions.changes import ChangeSet, Message, Step

READY_MS = 10_000
LINK_ALLOWANCE_MS = 250   # latency a pod's ready may take to reach the hub and still count


def _lumen() -> Any:
    from hub.profiles import profile as profiles
    get: Callable[[str], Any] = profiles.get
    return get("lumen")


class SessionError(Exception):
    """A request the session cannot accept (names what was wrong; nothing changed)."""


class NotFound(SessionError):
    """A deck, character or game the request names does not exist (nothing changed)."""


class Clock(Protocol):
    """Monotonic milliseconds: the deadlines' clock."""

    def now_ms(self) -> int: ...


class MonotonicClock:
    def now_ms(self) -> int:
        return time.monotonic_ns() // 1_000_000


class FakeClock:
    """A clock tests move by hand."""

    def __init__(self, start: int = 1_000_000) -> None:
        self.t = start

    def now_ms(self) -> int:
        return self.t

    def advance(self, ms: int) -> None:
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
    options: tuple[Any, ...] = ()
    pass_value: str | None = None
    picks: int = 0
    locked: bool = False
    bare: bool = False
    hidden: bool = False


NO_PROMPT = SeatPrompt("none")
LOCKED_READY = SeatPrompt("ready", locked=True, hidden=True)
PASS_WORDS = ("pass", "end", "skip")


class Skip(NamedTuple):
    """``_prepare``'s answer for a decision taken as nothing (a double tap): ``submit`` returns
    ``result`` and records nothing."""
    result: Any


class ModeHooks(Protocol):
    """What a mode gives the kernel (hub/sessions/base.py ``SessionBase.submit``). The game it
    drives (the engine's ``GameState``, ``TrackerGame``, ``ProfileGame``) meets :class:`Game`."""

    def _prepare(self, seat: str | None, kind: str, value: Any, source: str, now: int) -> Any: ...

    def _snapshot(self) -> Any: ...

    def _step(self, prepared: Any, seat: str | None, kind: str, value: Any, source: str, now: int, seq: int) -> Step: ...

    def _rollback(self, snapshot: Any) -> None: ...

    def _take(self, step: Step, seat: str | None, kind: str, now: int) -> None: ...

    def _publish(self, result: Any) -> None: ...


class Game(Protocol):
    """A mode's game as the session reads it, whatever the mode: the engine's ``GameState``
    (referee), ``TrackerGame`` and ``ProfileGame`` each meet it. How a game checks, applies and
    is put back differs (the engine validates then applies in place and is put back by a replay;
    the tracker and profile games apply with their own check and roll back to a checkpoint):
    that is the mode's hooks' job, not the game's interface."""

    @property
    def winner(self) -> Any: ...

    @property
    def turn(self) -> int: ...


class DecisionRefused(SessionError):
    """A decision the display may not give (``status``/``code`` as the API answers it)."""

    def __init__(self, status: int, code: str, message: str) -> None:
        super().__init__(message)
        self.status, self.code = status, code


class SessionBase(ABC):
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

    def __init__(self, store: Any, game_id: int, clock: Clock | None = None) -> None:
        self.store = store
        self.game_id = game_id
        self.clock: Clock = clock or MonotonicClock()
        self.listeners: list[Callable[[str, Message], Any]] = []    # fn(audience, message), each message in order
        self.change_listeners: list[Callable[[ChangeSet], Any]] = []    # fn(ChangeSet), once per change
        self.deadline: dict[str, int] = {}    # seat -> monotonic ms by which that seat must ready
        self.locked: dict[str, Any] = {}      # seat -> (mode-specific) record of a ready locked and not yet revealed
        self.answered = {"a": 0, "b": 0}   # decisions taken per seat: tells a repeated question from the last one
        self.version = 0          # changes taken: what a cache of the interface's answers keys on
        self._happened: list[tuple[Any, ...]] = []       # what the change last published did, for the pods (see happenings)
        # the change set being gathered (between _open_change and _close_change); not kept after it
        # is delivered: a seat's lazy view is built only if a listener holds its message
        self._change: ChangeSet | None = None

    def subscribe(self, fn: Callable[[str, Message], Any]) -> None:
        """fn(audience, message): audience is "public" or a seat; every message of every change
        set, in order."""
        self.listeners.append(fn)

    def subscribe_changes(self, fn: Callable[[ChangeSet], Any]) -> None:
        """fn(change): each :class:`ChangeSet` once, after its messages went to ``subscribe``'s
        listeners."""
        self.change_listeners.append(fn)

    # ------------------------------------------------------------ the kernel: one transaction a decision
    def submit(self, seat: str | None, kind: str, value: Any = True, source: str = "pod", at_ms: int | None = None,
               action: Any = None, pre: Sequence[tuple[Any, ...]] = ()) -> Any:
        """Take a decision from a seat (or, for ``kind == "action"``, a table command): the one
        transaction of every mode. Validate (nothing changes on a refusal), snapshot, apply to the
        game, write the input and everything it produced to the record in one commit (``pre``:
        records the caller's cause writes first, e.g. a deadline's expiry), then take it and
        publish one change set; if applying or writing fails, roll back: nothing changed.
        Returns what the mode's step gives (the public events, or the tracker's entries).

        ``at_ms``: when the decision reached the hub (a pod's ready is stamped when its bytes
        arrive, on the pod links' thread), else now. ``action``: (table, action id) kept with it."""
        now = self.clock.now_ms() if at_ms is None else at_ms
        prepared = self._prepare(seat, kind, value, source, now)
        if isinstance(prepared, Skip):
            return prepared.result
        pre = list(pre)
        seq = self.store.next_seq(self.game_id) + len(pre)
        snapshot = self._snapshot()
        try:
            step = self._step(prepared, seat, kind, value, source, now, seq)
            rows = pre + step.records
            self.store.append_many(self.game_id, rows, action=action)
        except BaseException:
            self._rollback(snapshot)     # the game failed, or the record refused the write: nothing changed
            raise
        self._take(step, seat, kind, now)
        self._open_change(seat, kind, source)
        for audience, msg in step.messages:
            self._send(audience, msg)
        self._publish(step.result)
        self._close_change(seq - len(pre), seq - len(pre) + len(rows) - 1 if rows else None)
        return step.result

    # the mode's hooks (ModeHooks): the defaults are a mode that takes nothing
    def _prepare(self, seat: str | None, kind: str, value: Any, source: str, now: int) -> Any:
        """Check the decision before anything changes (raise SessionError / IllegalDecision);
        return what ``_step`` needs, or ``Skip(result)`` to take nothing (a double tap)."""
        raise SessionError("this game takes no decisions")

    def _snapshot(self) -> Any:
        return None

    def _step(self, prepared: Any, seat: str | None, kind: str, value: Any, source: str, now: int, seq: int) -> Step:
        raise SessionError("this game takes no decisions")

    def _rollback(self, snapshot: Any) -> None:
        """Put the game and the bookkeeping back as they were at ``_snapshot``."""

    def _take(self, step: Step, seat: str | None, kind: str, now: int) -> None:
        """The decision is recorded: take its bookkeeping (``step.book``)."""

    def _publish(self, result: Any) -> None:
        """Send the new state's messages (``_send``): they join the change set being gathered."""

    # ------------------------------------------------------------ change sets
    def _open_change(self, seat: str | None = None, kind: str | None = None, source: str | None = None) -> None:
        self._change = ChangeSet(self.version, seat, kind, source)

    def _close_change(self, first_seq: int | None = None, last_seq: int | None = None) -> ChangeSet | None:
        """Deliver the change set gathered: each message to the message listeners, in order, then
        the whole set to the change listeners."""
        change, self._change = self._change, None
        if change is None:
            return None
        change.version = self.version
        change.happenings = list(self._happened)
        change.first_seq, change.last_seq = first_seq, last_seq
        for audience, msg in change.messages:
            for fn in self.listeners:
                fn(audience, msg)
        for on_change in self.change_listeners:
            on_change(change)
        return change

    def _send(self, audience: str, msg: Message) -> None:
        """A message of the change being gathered; outside one (a session's first state), a
        change set of its own."""
        if self._change is not None:
            self._change.messages.append((audience, msg))
            return
        self._change = ChangeSet(self.version, messages=[(audience, msg)])
        self._close_change()

    def publish_start(self, result: Any = ()) -> None:
        """A session's first state (new or resumed) as one change set."""
        self._open_change()
        self._publish(result)
        self._close_change()

    def ready_status(self) -> dict[str, dict[str, Any]]:
        """Who has readied (never what) and the running deadlines."""
        now = self.clock.now_ms()
        return {s: {"locked": s in self.locked,
                    "deadline_ms": self.deadline.get(s),
                    "ms_left": max(0, self.deadline[s] - now) if s in self.deadline else None}
                for s in ("a", "b")}

    def judge_log(self) -> list[dict[str, Any]]:
        """The judge log (public): ready stamps, commitments, deadlines, reveals."""
        return [r.to_json() for r in self.store.records(self.game_id, kinds=("judge",))]

    # ------------------------------------------------------------ the interface (each mode)
    @property
    @abstractmethod
    def winner(self) -> Any:
        """The side that won (a seat, "draw"), None while the game goes on."""

    @property
    @abstractmethod
    def turn(self) -> int:
        """The turn number."""

    @property
    @abstractmethod
    def priority(self) -> str | None:
        """The seat holding priority (None where the game has none)."""

    @property
    def engine_state(self) -> Any:
        return None

    @abstractmethod
    def seat_status(self, seat: str) -> SeatStatus:
        """What the seat's pod shows of it."""

    @abstractmethod
    def prompt(self, seat: str) -> SeatPrompt:
        """The question the seat must answer now."""

    def labels(self, options: Sequence[Any]) -> list[str]:
        return [str(o) for o in options]

    def auto_setup(self, submit: Callable[..., Any], openings: Any = None) -> None:
        """Answer the setup decisions pending (nothing to answer by default)."""

    @abstractmethod
    def display_state(self, names: Any) -> dict[str, Any]:
        """What the table display shows of the game (public only)."""

    def happenings(self) -> list[tuple[Any, ...]]:
        return list(self._happened)

    @property
    def clock_defaults(self) -> tuple[int, int]:
        """(duration_ms, extra_turns) of the match clock for this game: its profile's (Lumen
        Condenser's, hub/profiles/data/lumen.yaml, unless a session says otherwise)."""
        duration_ms, extra_turns = _lumen().clock_defaults()
        return int(duration_ms), int(extra_turns)

    def side_of(self, seat: str) -> str:
        """The side a seat plays for (its team, named by its first seat): who won is a side."""
        return seat

    def adjust_command(self, seat: str, what: str, value: Any) -> Any:
        raise SessionError("this game takes no health or FP entries from the pods")

    def check_display_decision(self, seat: str, kind: str, value: Any) -> None:
        """Raise :class:`DecisionRefused` if the display may not give this decision."""

    def narrate(self, msg: Message, lang: str) -> list[str]:
        return []

    def log_tail(self, n: int) -> list[Any]:
        return []

    def display_log(self) -> list[Any]:
        return []

    def display_tail(self, n: int) -> list[Any]:
        """The last ``n`` lines of ``display_log`` (a phone's seat page reads them at every change:
        a mode whose log grows long renders only these)."""
        return self.display_log()[-n:]
