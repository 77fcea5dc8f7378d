"""What each pod is asked and shown: the seat's current prompt (the question, its
options as slots, the pass slot, the locked slot) and the state frame pushed to it.

A prompt id changes whenever the question changes, so a late or resent answer to an
old prompt is ignored (hub/pods/links.py applies the answers). Options map to slots in
the order the engine lists them; "pass", "end" and "skip" are the pod's extra pass slot;
a discard of several cards is asked one card per prompt. Card names (for an OLED) go
to the seat's own pod only.
"""

import time
from collections import Counter

from hub.pods import podext
from hub.pods.protocol import FEATURE_OLED, PROMPT_KINDS, SCHEMA, STATE_FLAG_LOCKED, STATE_FLAG_PASS

SEAT_NUM = {"a": 1, "b": 2}
STATE_FIELDS = SCHEMA["state"][2]
CHOOSE = PROMPT_KINDS["choose"]      # the pod's kind for a question it has no kind of its own for
PASS_WORDS = ("pass", "end", "skip")


def now_ms():
    return time.monotonic_ns() // 1_000_000


class Prompt:
    """The question a seat is being asked right now, as the pod sees it."""

    __slots__ = ("id", "key", "kind", "options", "pass_value", "request_kind", "discard_left", "chosen")

    def __init__(self):
        self.id = 0
        self.key = None
        self.kind = "none"
        self.options = []
        self.pass_value = None
        self.request_kind = None
        self.discard_left = 0
        self.chosen = []


class SeatPrompts:
    """The prompt side of ``PodHub``: expects ``table``, ``prompts``, ``locked_slot``,
    ``countdown``, ``side``, ``pushes`` (state frames sent per seat), ``_current`` (a dict:
    the last answer of ``current`` per seat) and ``seated(seat)`` from it."""

    def current(self, seat):
        """(prompt, state fields) for a seat, updating the prompt when the question changed."""
        s = self.table.session
        pr = self.prompts[seat]
        if s is None or self.side is not None or s.mode != "referee":
            return self._current_now(s, seat, pr)
        # a referee game's questions change only with a decision taken (the session's version
        # counts them), a discard pick or a new prompt: the same answer until then (pushes
        # and the bots ask several times per decision)
        memo = (s.version, len(pr.chosen), self.locked_slot.get(seat))
        last = self._current.get(seat)
        if last is not None and last[0] == memo and last[1] is s and last[2] is pr:
            return last[3]
        out = self._current_now(s, seat, pr)
        self._current[seat] = (memo, s, pr, out)
        return out

    def _current_now(self, s, seat, pr):
        kind, options, pass_value, request_kind, flags, locked, answered = "none", [], None, None, 0, 0, 0
        if s is not None:
            r = None
            referee = s.mode == "referee"
            if referee:
                answered = s.answered[seat]
                for x in s.state.pending:       # read only: the seat's first question, not a setup
                    if x["player"] == seat and x["kind"] != "setup":
                        r = x
                        break
            else:
                answered = getattr(s, "answered", {}).get(seat, 0)
                for x in s.requests(seat):
                    if x["kind"] != "setup":
                        r = x
                        break
            if r is not None:
                request_kind = r["kind"]
                opts = r["options"]
                if type(opts) is not list:
                    opts = []
                if request_kind == "discard":
                    hand = Counter(s.state.players[seat].hand)
                    hand.subtract(pr.chosen if pr.request_kind == "discard" else [])
                    opts = [c for c in dict.fromkeys(s.state.players[seat].hand) if hand[c] > 0]
                # the first pass word is the pass slot; no pass word is an option (a new list:
                # the engine's is not kept)
                options = [o for o in opts if o not in PASS_WORDS]
                if len(options) != len(opts):
                    for o in opts:
                        if o in PASS_WORDS:
                            pass_value = o
                            break
                kind = request_kind if request_kind in PROMPT_KINDS else "choose"
                if s.mode == "tracker":
                    kind, options = "ready", []
            elif seat in getattr(s, "locked", {}) and (s.state.phase == "ready" if referee else
                                                       s.mode == "tracker" and s.phase == "ready"):
                kind, request_kind = "ready", "ready"
                flags = STATE_FLAG_LOCKED
                locked = self.locked_slot.get(seat, 0)
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
            if request_kind != "discard":
                pr.chosen = []
            pr.request_kind = request_kind
            if request_kind == "discard":
                pr.discard_left = r["count"]
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
        pr, flags, locked = self.current(seat)
        if s is None:
            fp = hp = hand = priority = 0
        elif s.mode == "referee":
            st = s.state
            pl = st.players[seat]
            fp, hp, hand = pl.fp, pl.health, len(pl.hand)
            priority = SEAT_NUM.get(st.priority, 0)
        else:
            st = s.game.seat(seat)
            fp, hp, hand = st.fp, st.health, st.hand_count or 0
            priority = SEAT_NUM.get(s.game.priority, 0)
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
        if s is None or s.mode != "referee":
            return []
        out = []
        for o in pr.options:
            ids = o if isinstance(o, list) else [o]
            out.append("+".join(s.state.cards[i].name if i in s.state.cards else str(i) for i in ids))
        return out

    def slot_of(self, seat, value):
        """The slot a value has in the seat's current prompt (1..N, 0 = pass); for bots."""
        pr, _, _ = self.current(seat)
        if value == pr.pass_value:
            return 0
        return pr.options.index(value) + 1
