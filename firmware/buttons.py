# Debounced buttons with long press and auto-repeat.
#
# A press must feel instant and never be lost: pin interrupts call edge() the
# moment a contact closes, and edge() counts the *first* edge at once and
# ignores the bounce that follows for _DEBOUNCE_MS (lockout debouncing, no
# waiting for the contact to settle). scan(), run every few ms, repairs what
# an interrupt cannot see (a bounce that ended in the other state) and times
# long presses and repeats. Events go into a fixed ring queue that the main
# loop drains whenever it gets round to it.
#
# Event code = button << 3 | kind. Buttons: 0 prev, 1 next, 2 ready, 3 back.
# Kinds: 1 press, 2 release (short), 3 long (still held), 4 repeat (prev/next
# held), 5 release after a long press.
from micropython import const
import clock

_DEBOUNCE_MS = const(20)
_LONG_MS = const(700)
_REPEAT_DELAY_MS = const(400)
_REPEAT_MS = const(120)
_QLEN = const(64)  # 31 presses with their releases, unread


def no_irq():
    return 0


def irq_on(_s):
    pass


def no_wake():
    pass


class Buttons:
    def __init__(self, pins, active=0, irq_off=no_irq, irq_on=irq_on):
        # pins: machine.Pin per button in prev, next, ready, back order (None
        # if not fitted); active: the level that means pressed (0: pull-ups)
        self.pins = pins
        self.active = active
        self.irq_off = irq_off
        self.irq_on = irq_on
        n = len(pins)
        now = clock.ms()
        self.down = bytearray(n)
        self.long_done = bytearray(n)
        self.t_edge = [clock.add(now, -_DEBOUNCE_MS)] * n
        self.t_rep = [now] * n
        self.q_ev = bytearray(_QLEN)
        self.head = 0
        self.tail = 0
        self.lost = 0  # events dropped on a full queue (none in any test)
        self.wake = no_wake  # app.py: ThreadSafeFlag.set, called after each push

    def _push(self, code, now):
        h = self.head
        nh = (h + 1) % _QLEN
        if nh == self.tail:
            self.lost += 1
            return
        self.q_ev[h] = code
        self.head = nh
        self.wake()

    def edge(self, i, down, now):
        # from a pin interrupt (hard IRQ: allocates nothing) or from scan()
        if down == self.down[i] or clock.diff(now, self.t_edge[i]) < _DEBOUNCE_MS:
            return
        self.down[i] = down
        self.t_edge[i] = now
        if down:
            self.long_done[i] = 0
            self.t_rep[i] = clock.add(now, _REPEAT_DELAY_MS)
            self._push(i << 3 | 1, now)
        else:
            self._push(i << 3 | (5 if self.long_done[i] else 2), now)

    def irq_handler(self, i):
        # one closure per pin, made once at start-up
        def h(pin):
            self.edge(i, 1 if pin.value() == self.active else 0, clock.ms())

        return h

    def scan(self, now):
        st = self.irq_off()  # scan and the interrupts both push: one at a time
        try:
            for i in range(len(self.pins)):
                p = self.pins[i]
                if p is None:
                    continue
                self.edge(i, 1 if p.value() == self.active else 0, now)
                # keep the edge time within reach of ticks_diff (a button left
                # alone for 6.2 days would otherwise look freshly bounced)
                self.t_edge[i] = clock.since(now, self.t_edge[i], _LONG_MS if self.down[i] else _DEBOUNCE_MS)
                if self.down[i]:
                    if not self.long_done[i] and clock.diff(now, self.t_edge[i]) >= _LONG_MS:
                        self.long_done[i] = 1
                        self._push(i << 3 | 3, now)
                    if i < 2 and clock.diff(now, self.t_rep[i]) >= 0:
                        self.t_rep[i] = clock.add(self.t_rep[i], _REPEAT_MS)
                        self._push(i << 3 | 4, now)
        finally:
            self.irq_on(st)

    def get(self):
        # next event code, or -1
        t = self.tail
        if t == self.head:
            return -1
        self.tail = (t + 1) % _QLEN
        return self.q_ev[t]
