"""A table's game in tracker mode (no card data): the hidden bare ready lock and
countdown on the pods, and the tracker (hub/sessions/tracker_game/) for health, FP, tokens,
turn, priority, sudden death and undo. Durable like a referee game: every input
is committed first and ``resume`` replays the record with its stamps.

The ready flow per turn: both pods may lock a bare ready (nothing to hide but
the fact of the pick itself is private until both are locked); the first lock
starts the opponent's 10-second deadline (guide 3.10); when both are locked the
players reveal their physical cards, resolve the battle themselves and enter
the results; "next turn" opens the next ready.

Undo reaches the ready too (issue 22 point 5): a ready tapped on the display for the
wrong seat, or a non-response the hub collected, is the newest step when nothing was
entered after it, and "undo" takes it back (the seat is unlocked; a seat that must
answer a lock gets a fresh 10 seconds) instead of the health entry before it. A ready
from a pod is the player's own and stays.
"""

from engine import other

from hub.profiles import profile as profiles
from hub.sessions.base import (LINK_ALLOWANCE_MS, NO_PROMPT, DecisionRefused, MonotonicClock, SeatPrompt,
                               SeatStatus, SessionBase, SessionError, Skip)
from hub.sessions.changes import Step
from hub.sessions.display.tracker import tracker_display, tracker_line
from hub.sessions.tracker_game import TrackerError, TrackerGame

#: a second "next turn" this soon after one is a double tap, not a turn (issue 12, point 8)
NEXT_TURN_GUARD_MS = 1000
PROFILE = profiles.get("lumen")
SEAT_LABEL = {s: PROFILE.seat_info(s)["label"] for s in PROFILE.seats(2)}
#: guide 3.10's 10 seconds, as the profile's pick deadline
READY_MS = PROFILE.picks["deadline_s"] * 1000
#: a pod's HP and FP page units (the profile's pod_scale: 1 for Lumen's health as entered)
HP_SCALE = PROFILE.pod_counter("hp")["pod_scale"]
FP_SCALE = PROFILE.pod_counter("fp")["pod_scale"]
BARE_READY = SeatPrompt("ready", bare=True, hidden=True)
LOCKED_BARE_READY = SeatPrompt("ready", locked=True, bare=True, hidden=True)
#: a pod's HP/FP page entries (hub/pods/protocol.py ADJUST names) as tracker commands
ADJUST_COMMANDS = ("hp_add", "fp_add", "fp_set")


class TrackerSession(SessionBase):
    mode = "tracker"
    takes_actions = True

    def __init__(self, store, game_id, game, clock=None):
        super().__init__(store, game_id, clock)
        self.game = game
        self.phase = "ready"        # ready | battle (players resolve and enter results) | over
        self._deferred = None
        self._last_next_turn = None     # monotonic ms of the last accepted "next turn"
        self._revealed = False          # the input being applied revealed the readies
        # this turn's readies that undo may take back: {"kind": "ready"|"timeout", "seat", "seq"}
        # (seq: the tracker log's last entry then; a tracker step after it is newer)
        self._steps = []

    @classmethod
    def new(cls, store, a="generic", b="generic", seed=0, priority=None, clock=None, table="table-1", names=None):
        clock = clock or MonotonicClock()
        start = {"format": "lumen-tracker/1", "tracker": {"a": a, "b": b, "seed": seed, "priority": priority}}
        if names:
            start["names"] = names      # the players at the seats, for the display and the record
        gid = store.new_game("tracker", start, table)
        game = TrackerGame(a=a, b=b, priority=priority, seed=seed, now_ms=clock.now_ms())
        s = cls(store, gid, game, clock)
        s.publish_start([])
        return s

    @classmethod
    def resume(cls, store, game_id, clock=None):
        recs = store.records(game_id)
        t = recs[0].body["tracker"]
        game = TrackerGame(a=t["a"], b=t["b"], priority=t["priority"], seed=t["seed"], now_ms=recs[0].mono_ms or 0)
        s = cls(store, game_id, game, clock)
        for r in recs[1:]:
            if r.kind == "input":
                s._apply(r.seat, r.body["kind"], r.body.get("value"), r.mono_ms or 0, replay=True,
                         source=r.body.get("source", "pod"))
        s.deadline = {}
        if s.phase == "ready" and len(s.locked) == 1:
            o = other(next(iter(s.locked)))
            s.deadline[o] = s.clock.now_ms() + READY_MS   # a hub restart never costs a player time
        return s

    def requests(self, seat):
        if self.phase == "ready" and seat not in self.locked and self.game.winner is None:
            return [{"player": seat, "kind": "ready", "options": [], "hidden": True}]
        return []

    # ------------------------------------------------------------ the kernel's hooks (base.py submit)
    def _prepare(self, seat, kind, value, source, now):
        """kind: ``ready`` (bare lock), ``timeout``, or ``action`` with a tracker command."""
        if kind not in ("ready", "timeout", "action"):
            raise SessionError("tracker mode takes ready, timeout or action, not %r" % (kind,))
        if kind != "action" and seat not in ("a", "b"):
            raise SessionError("seat must be a or b, not %r" % (seat,))
        self.tick(now)
        next_turn = kind == "action" and isinstance(value, dict) and value.get("action") == "next_turn"
        if next_turn and self._last_next_turn is not None and 0 <= now - self._last_next_turn < NEXT_TURN_GUARD_MS:
            return Skip([])     # a double tap: the turn has just advanced once, that is all it does
        if kind == "ready" and seat in self.deadline and now > self.deadline[seat] + LINK_ALLOWANCE_MS:
            raise SessionError("ready too late: the 10-second deadline passed (guide 3.10)")
        return next_turn

    def _snapshot(self):
        return (self.game.checkpoint(), self.phase, dict(self.locked), dict(self.deadline), list(self._steps))

    def _step(self, next_turn, seat, kind, value, source, now, seq):
        # the tracker applies with its own check (a bad input raises; the kernel rolls back);
        # what it causes is gathered by _later and recorded with the input
        self._deferred = []
        entries = self._apply(seat, kind, value, now, source=source)
        later, self._deferred = self._deferred, None
        records = [("input", {"kind": kind, "value": value, "source": source}, seat, now, False)]
        return Step(records + [r for r in later if r[0] != "send"], entries,
                    [(r[1], r[2]) for r in later if r[0] == "send"], book=next_turn)

    def _rollback(self, snapshot):
        self._deferred = None
        cp, self.phase, self.locked, self.deadline, self._steps = snapshot
        self.game.rollback(cp)

    def _take(self, step, seat, kind, now):
        if step.book:                   # a "next turn": the double-tap guard's time
            self._last_next_turn = now

    def _apply(self, seat, kind, value, now, replay=False, source="pod"):
        entries = []
        winner_before, turn_before = self.game.winner, self.game.turn
        undo_ready = kind == "action" and isinstance(value, dict) and value.get("action") == "undo" and self._ready_step()
        if undo_ready:
            entries = self._undo_ready(undo_ready, now, replay)
        elif kind == "ready":
            if self.phase == "over":
                raise SessionError("the game is over: undo the last entry or start a new game")
            if seat in self.locked:
                raise SessionError("%s has already readied this turn" % SEAT_LABEL[seat])
            if self.phase != "ready":
                raise SessionError("both players have readied: enter the battle, then press next turn")
            self.locked[seat] = now
            self.deadline.pop(seat, None)
            if source == "display":
                self._steps.append({"kind": "ready", "seat": seat, "seq": self.game.log[-1]["seq"]})
            o = other(seat)
            if not replay:
                self._later("send", "public", {"t": "ready_locked", "seat": seat})
            if o not in self.locked:
                self.deadline[o] = now + READY_MS
                if not replay:
                    self._later("judge", {"event": "ready", "seat": seat, "mono_ms": now,
                                          "deadline_start": o, "deadline_ms": now + READY_MS}, seat, now)
                    self._later("send", o, {"t": "opponent_ready", "deadline_ms": now + READY_MS, "ms_left": READY_MS})
            else:
                self._reveal(replay)
        elif kind == "timeout":
            if self.phase != "ready" or seat in self.locked:
                raise SessionError("%s is not waiting to ready" % seat)
            try:
                entries = self.game.record_non_response(seat, now_ms=now)
            except TrackerError as e:
                raise SessionError(str(e)) from None
            self.locked[seat] = now
            self._steps.append({"kind": "timeout", "seat": seat, "seq": self.game.log[-1]["seq"]})
            self._reveal(replay)
        else:
            if not isinstance(value, dict):
                raise SessionError("an action is a tracker command mapping, e.g. {action: adjust_health, seat: a, delta: -300}")
            try:
                entries = self.game.perform(value, now)
            except TrackerError as e:
                raise SessionError(str(e)) from None
            if value.get("action") in ("next_turn", "new_game", "reset"):
                self.phase = "ready"
                self.locked = {}
                self.deadline = {}
        if self.game.turn != turn_before:
            self._steps = []            # a ready of another turn is not undone from here
        if self.game.turn > turn_before and self.phase != "over":
            # a new turn (next turn, or sudden death starting from a double KO) opens the ready
            self.phase = "ready"
            self.locked = {}
            self.deadline = {}
        if self.game.winner is not None:
            self.phase = "over"
            if not replay and self.game.winner != winner_before:
                self._later("finish", {"winner": self.game.winner, "turn": self.game.turn})
        elif winner_before is not None:
            # undo, a correction in the 1-s window or sudden death took the result back
            if self.phase == "over":
                self.phase = "ready" if self.game.turn > turn_before else "battle"
            if not replay:
                self._later("reopen", {"turn": self.game.turn, "was": winner_before,
                                       "sudden_death": self.game.sudden_death})
        return entries

    def _ready_step(self):
        """This turn's newest ready step if nothing was entered in the tracker after it."""
        if not self._steps:
            return None
        step = self._steps[-1]
        undo = self.game._undo
        newest = undo[-1]["seqs"][-1] if undo else 0
        return step if step["seq"] >= newest else None

    def _undo_ready(self, step, now, replay):
        """Take back a ready tapped on the display (or a non-response the hub collected, with
        its lock): the seat is unlocked; if the other seat has locked, this one gets a fresh
        10 seconds (the old deadline may have run out meanwhile)."""
        seat = step["seat"]
        entries = []
        if step["kind"] == "timeout":
            try:
                entries = self.game.undo(now)       # the non-response itself
            except TrackerError as e:
                raise SessionError(str(e)) from None
        self._steps.pop()
        self.locked.pop(seat, None)
        self.phase = "ready"
        o = other(seat)
        self.deadline.pop(o, None)
        if o in self.locked:
            self.deadline[seat] = now + READY_MS
        if not replay:
            self._later("judge", {"event": "ready_undone", "seat": seat, "step": step["kind"], "mono_ms": now,
                                  "deadline_start": seat if seat in self.deadline else None}, seat, now)
            if seat in self.deadline:
                self._later("send", seat, {"t": "opponent_ready", "deadline_ms": self.deadline[seat], "ms_left": READY_MS})
        if step["kind"] == "ready":
            entries = self.game.note(None, "undo_ready", {"seat": seat},
                                     "되돌리기: %s 레디" % SEAT_LABEL[seat], "undo: %s ready" % SEAT_LABEL[seat], now)
        return entries

    def undo_text(self):
        """What "undo" takes back now, for its button (the tracker's step, or a ready)."""
        step = self._ready_step()
        if step is None:
            return self.game.view()["undo_text"]
        label = SEAT_LABEL[step["seat"]]
        if step["kind"] == "timeout":
            return {"ko": "%s 대응하지 않음 (10초 초과)" % label, "en": "%s did not respond (10 s passed)" % label}
        return {"ko": "%s 레디" % label, "en": "%s ready" % label}

    def _later(self, kind, *args):
        """A record or a message caused by the input being applied: written or sent after it."""
        if kind == "send":
            self._deferred.append(("send", args[0], args[1]))
        else:
            body = args[0]
            seat = args[1] if len(args) > 1 else None
            mono = args[2] if len(args) > 2 else None
            self._deferred.append((kind, body, seat, mono, False))

    def _reveal(self, replay):
        self.phase = "battle"
        self.deadline = {}
        if not replay:
            self._revealed = True
            self._later("judge", {"event": "reveal", "locked": dict(self.locked)})

    def tick(self, now=None):
        now = self.clock.now_ms() if now is None else now
        for seat, deadline in sorted(self.deadline.items()):
            if now > deadline + LINK_ALLOWANCE_MS and self.phase == "ready" and seat not in self.locked:
                del self.deadline[seat]          # before submit, which ticks again
                expired = ("judge", {"event": "deadline_expired", "seat": seat, "deadline_ms": deadline,
                                     "now_ms": now}, seat, now, False)
                try:
                    self.submit(seat, "timeout", True, source="hub", at_ms=now, pre=[expired])
                except Exception:
                    self.deadline.setdefault(seat, deadline)    # not recorded: the next tick tries again
                    raise

    def _publish(self, entries):
        self.version += 1
        self._happened = ([("reveal",)] if self._revealed else []) + (
            [("game_over", self.game.winner)] if self.game.winner is not None else [])
        self._revealed = False
        self._send("public", {"t": "state", "view": self.public_view(), "entries": entries})
        for seat in ("a", "b"):
            self._send(seat, {"t": "you", "view": self.view_for(seat), "requests": self.requests(seat)})

    def public_view(self):
        v = self.game.view()
        v.update(mode="tracker", phase=self.phase, ready=self.ready_status(), game_id=self.game_id,
                 log=self.game.log[-10:], can_undo=v["can_undo"] or bool(self._ready_step()),
                 undo_text=self.undo_text())
        return v

    def view_for(self, seat):
        return self.public_view()

    # ------------------------------------------------------------ the session interface (base.py)
    @property
    def winner(self):
        return self.game.winner

    @property
    def turn(self):
        return self.game.turn

    @property
    def priority(self):
        return self.game.priority

    def seat_status(self, seat):
        st = self.game.seat(seat)
        return SeatStatus(st.fp, st.health, st.hand_count or 0, self.game.character(seat).name)

    def prompt(self, seat):
        """A bare ready while the seat may lock one; the lock while the reveal is awaited."""
        if self.requests(seat):
            return BARE_READY
        if seat in self.locked and self.phase == "ready":
            return LOCKED_BARE_READY
        return NO_PROMPT

    def display_state(self, names):
        return tracker_display(self, self.public_view(), names)

    def seat_change(self, old, new):
        return None

    def adjust_command(self, seat, what, value):
        """A pod's HP/FP page entry as a tracker command: ``hp_add`` and ``fp_add`` add
        ``value``, ``fp_set`` sets the FP (0: tap-to-zero)."""
        if what == "hp_add":
            return {"action": "adjust_health", "seat": seat, "delta": value // HP_SCALE}
        if what == "fp_add":
            return {"action": "adjust_fp", "seat": seat, "delta": value // FP_SCALE}
        if what == "fp_set":
            return {"action": "reset_fp", "seat": seat} if value == 0 else \
                {"action": "adjust_fp", "seat": seat, "delta": value - self.game.seat(seat).fp}
        raise SessionError("unknown pod entry %r (one of %s)" % (what, ", ".join(ADJUST_COMMANDS)))

    def check_display_decision(self, seat, kind, value):
        if kind != "ready" or value is not True:
            raise DecisionRefused(422, "invalid_request", "a tracker table takes only {kind: ready, value: true} here")

    def narrate(self, msg, lang):
        t = msg.get("t")
        if t == "state":
            return ["   " + (e["text_ko"] if lang == "ko" else e["text_en"]) for e in msg.get("entries") or []]
        if t == "ready_locked":
            return ["   %s %s" % (SEAT_LABEL[msg["seat"]], "레디 (숨김)" if lang == "ko" else "readied (hidden)")]
        return []

    def log_tail(self, n):
        return self.game.log[-n:]

    def display_log(self):
        return [tracker_line(e) for e in self.game.log]

    def display_tail(self, n):
        return [tracker_line(e) for e in self.game.log[-n:]]

