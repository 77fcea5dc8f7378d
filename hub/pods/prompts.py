"""What each pod is asked and shown: the seat's current prompt (the question, its
options as slots, the pass slot, the locked slot) and the state frame pushed to it.

The question comes from the session (``session.prompt(seat)``, hub/sessions/base.py: the
same for every mode). A prompt id changes whenever the question changes, so a late or
resent answer to an old prompt is ignored (hub/pods/pod_hub.py applies the answers).
Options map to slots in the order the engine lists them; "pass", "end" and "skip" are
the pod's extra pass slot; a discard of several cards is asked one card per prompt.
Card names (for an OLED) go to the seat's own pod only.
"""

import time
from collections import Counter

from hub.pods import podext
from hub.pods.protocol import FEATURE_OLED, PROMPT_KINDS, SCHEMA, STATE_FLAG_LOCKED, STATE_FLAG_PASS
from hub.sessions.base import NO_PROMPT, PASS_WORDS  # noqa: F401  (PASS_WORDS: imported from here by older callers)

#: seat -> the seat number pods hear (the setup frame's seat byte): 3 and 4 at a four-seat table
SEAT_NUM = {"a": 1, "b": 2, "c": 3, "d": 4}
STATE_FIELDS = SCHEMA["state"][2]
CHOOSE = PROMPT_KINDS["choose"]      # the pod's kind for a question it has no kind of its own for


def now_ms():
    return time.monotonic_ns() // 1_000_000


class Prompt:
    """The question a seat is being asked right now, as the pod sees it (its id, slots and,
    for a discard asked card by card, the cards picked so far)."""

    __slots__ = ("id", "key", "kind", "options", "pass_value", "request_kind", "discard_left", "chosen", "bare")

    def __init__(self):
        self.id = 0
        self.key = None
        self.kind = "none"
        self.options = []
        self.pass_value = None
        self.request_kind = None
        self.discard_left = 0
        self.chosen = []
        self.bare = False


class SeatPrompts:
    """The prompt side of ``PodHub``: expects ``table``, ``prompts``, ``locked_slot``,
    ``countdown``, ``side``, ``pushes`` (state frames sent per seat), ``_current`` (a dict:
    the last answer of ``current`` per seat) and ``seated(seat)`` from it."""

    def current(self, seat):
        """``(prompt, flags, locked slot)`` for a seat: the :class:`Prompt` (updated when the
        question changed), the state frame's flag bits (``STATE_FLAG_*``) and the slot the
        seat locked (0: none, or a bare ready)."""
        s = self.table.session
        if s is not None and seat not in s.seats:
            s = None            # a seat this game does not have (3P, 4P after a 2-on-2 game): asked nothing
        pr = self.prompts[seat]
        if s is None or self.side is not None:
            return self._current_now(s, seat, pr)
        # a session's questions change only with a change it took (its version counts them),
        # a discard pick or a new prompt: the same answer until then (pushes and the bots ask
        # several times per decision)
        memo = (s.version, len(pr.chosen), self.locked_slot.get(seat))
        last = self._current.get(seat)
        if last is not None and last[0] == memo and last[1] is s and last[2] is pr:
            return last[3]
        out = self._current_now(s, seat, pr)
        self._current[seat] = (memo, s, pr, out)
        return out

    def _current_now(self, s, seat, pr):
        q = s.prompt(seat) if s is not None else NO_PROMPT
        kind, request_kind, options, pass_value = "none", None, [], None
        flags = locked = answered = 0
        if q.locked:
            kind, request_kind, flags = "ready", "ready", STATE_FLAG_LOCKED
            locked = self.locked_slot.get(seat, 0)
        elif q.kind != "none":
            request_kind = q.kind
            answered = s.answered[seat]
            if request_kind == "discard":
                # the hand less the cards picked so far: one card per prompt
                left = Counter(q.options)
                left.subtract(pr.chosen if pr.request_kind == "discard" else [])
                options = [c for c in dict.fromkeys(q.options) if left[c] > 0]
            else:
                options = list(q.options)
            pass_value = q.pass_value
            kind = request_kind if request_kind in PROMPT_KINDS else "choose"
        if kind == "none" and self.side is not None:
            label = self.side.question(seat)
            if label:
                kind, options, request_kind = "choose", [label], "side"
        # the same question asked again after an answer is a new prompt: the seat's answer count is in the key
        key = (kind, tuple(map(str, options)), pass_value, request_kind,
               len(pr.chosen) if request_kind == "discard" else 0, flags, None if flags else answered)
        if key != pr.key:
            if not (flags & STATE_FLAG_LOCKED and pr.kind == "ready"):
                pr.id = pr.id % 255 + 1
            pr.key = key
            pr.kind = kind
            pr.options = options
            pr.pass_value = pass_value
            pr.bare = q.bare
            if request_kind != "discard":
                pr.chosen = []
            pr.request_kind = request_kind
            if request_kind == "discard":
                pr.discard_left = q.picks
        if pass_value is not None:
            flags |= STATE_FLAG_PASS
        return pr, flags, locked

    def push(self, seat, force=False, resume=False):
        """Send a seat's pod its state if it changed (always on ``force``)."""
        c = self.seated(seat)
        if c is None:
            return
        link = c.link
        if not link.up:
            return
        s = self.table.session
        if s is not None and seat not in s.seats:
            s = None
        pr, flags, locked = self.current(seat)
        if s is None:
            fp = hp = hand = priority = 0
        else:
            fp, hp, hand, _ = s.seat_status(seat)
            priority = SEAT_NUM.get(s.priority, 0)
        # the state frame's fields in their order (protocol.py SCHEMA["state"])
        key = (pr.id, PROMPT_KINDS.get(pr.kind, CHOOSE), len(pr.options), flags, locked, priority,
               -128 if fp < -128 else 127 if fp > 127 else fp, 0 if hp < 0 else 65535 if hp > 65535 else hp,
               255 if hand > 255 else hand)
        if not force and key == c.sent_state:
            return
        c.sent_state = key
        self.pushes[seat] += 1
        t = now_ms()
        link.send_fields("state", t, dict(zip(STATE_FIELDS, key)))
        pod = link.pod
        if pod is not None and pod.features & FEATURE_OLED:
            # card names for an OLED: to this seat's own pod only (hub/pods/podext.py)
            podext.send_names(c, link, t, pr.id, self._labels(pr), pr.pass_value)
        if resume and seat in self.countdown:
            left = self.countdown[seat] - t
            if left > 0:
                link.send("countdown", t, prompt=pr.id, ms=min(left, 65535))

    def _labels(self, pr):
        if pr.request_kind == "side":
            return list(pr.options)
        s = self.table.session
        if s is None or pr.bare:
            return []
        return s.labels(pr.options)

    def slot_of(self, seat, value):
        """The slot a value has in the seat's current prompt (1..N, 0 = pass); for bots."""
        pr, _, _ = self.current(seat)
        if value == pr.pass_value:
            return 0
        return pr.options.index(value) + 1
