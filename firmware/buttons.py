# Buttons you can trust: a press counts only when confirmed, keeping the
# time of its first edge; long press and auto-repeat.
#
# Pin interrupts call edge() at every change of a contact; edge() only notes
# the raw level and when it changed (no decision in the interrupt, nothing
# allocated). check() (from scan() every frame, and from the input task at
# the moment a confirmation falls due: until_due()) turns a level that has
# held for _CONFIRM_US into a press or a release. So a 1 ms glitch on a pin
# never counts, a bouncing contact counts once, and the press keeps the time
# of its first edge (t_press), which is what the hub judges a ready by.
# A press of PREV/NEXT within _REARM_MS of their release must hold for
# _REBOUNCE_US: a release bounce never moves the cursor twice.
#
# The hardware this assumes (hardware/, issue 21): 10 kOhm pull-up to 3V3
# and 100 nF to GND at each GPIO (tau = 1 ms: the switch discharges the
# capacitor at once, so a press edge stays fast; a release rises in about
# 1 ms); the internal pull-ups alone also work.
#
# Event code = button << 3 | kind. The names below are the one source of the
# button and kind numbers: selection.py, selftest.py and pod.py repeat the
# ones they use as private consts (free on the board, see proto.py), and
# tests/firmware/test_codes.py checks the copies.
from micropython import const
import clock

# buttons, in the pin map's order (self-test parts: proto.py _PART_PREV + button)
_BTN_PREV = const(0)
_BTN_NEXT = const(1)
_BTN_READY = const(2)
_BTN_BACK = const(3)
# event kinds: ev & _EV_MASK
_EV_PRESS = const(1)
_EV_RELEASE = const(2)  # after a short press
_EV_LONG = const(3)  # held past _LONG_MS, still down
_EV_REPEAT = const(4)  # PREV/NEXT held: auto-repeat
_EV_LONG_RELEASE = const(5)  # the release after a long press
_EV_MASK = const(7)
_EV_SHIFT = const(3)

_CONFIRM_US = const(1200)  # a level held this long is real (a 1 ms glitch is not)
_REBOUNCE_US = const(12000)  # PREV/NEXT pressed again this soon after a release: hold this long
_REBOUNCE_MS = const(12)
_REARM_MS = const(60)
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
        self.down = bytearray(n)  # the confirmed state
        self.raw = bytearray(n)  # the contact's last level seen (1 = closed)
        self.long_done = bytearray(n)
        self.t_raw = [now] * n  # when raw last changed (ms)
        u = clock.us()
        self.t_us = [u] * n  # the same in us: confirmations are timed in us
        self.t_first = [now] * n  # first closing edge of the press being confirmed
        self.t_press = [now] * n  # first edge of the last confirmed press
        self.t_rel = [clock.add(now, -_REARM_MS)] * n
        self.t_rep = [now] * n
        self.q_ev = bytearray(_QLEN)
        self.head = 0
        self.tail = 0
        self.lost = 0  # events dropped on a full queue (none in any test)
        self.glitches = 0  # closings that never held long enough to count
        self.wake = no_wake  # app.py: ThreadSafeFlag.set, called after each push

    def _push(self, code):
        h = self.head
        nh = (h + 1) % _QLEN
        if nh == self.tail:
            self.lost += 1
            return
        self.q_ev[h] = code
        self.head = nh
        self.wake()

    def edge(self, i, level, now):
        # from a pin interrupt (hard IRQ: allocates nothing) or from scan()
        if level == self.raw[i]:
            return
        u = clock.us()
        if self.raw[i] != self.down[i] and clock.diff(u, self.t_us[i]) >= self._need(i):
            self._commit(i, now)  # the level that ends now had held long enough: it was real
        elif self.raw[i] and not self.down[i]:
            self.glitches += 1  # closed too briefly to be a press
        if level and not self.down[i] and clock.diff(now, self.t_raw[i]) >= _REBOUNCE_MS:
            self.t_first[i] = now  # a new press begins (a bounce within it keeps this time)
        self.raw[i] = level
        self.t_raw[i] = now
        self.t_us[i] = u
        self.wake()  # the input task looks again when the confirmation falls due

    def _need(self, i):
        if self.raw[i] and i <= _BTN_NEXT and clock.diff(self.t_raw[i], self.t_rel[i]) < _REARM_MS:
            return _REBOUNCE_US
        return _CONFIRM_US

    def _commit(self, i, now):
        # raw[i] becomes the confirmed state
        if self.raw[i]:
            self.down[i] = 1
            self.long_done[i] = 0
            self.t_press[i] = self.t_first[i]
            self.t_rep[i] = clock.add(now, _REPEAT_DELAY_MS)  # from now: a late check never repeats at once
            self._push(i << _EV_SHIFT | _EV_PRESS)
        else:
            self.down[i] = 0
            self.t_rel[i] = self.t_raw[i]
            self._push(i << _EV_SHIFT | (_EV_LONG_RELEASE if self.long_done[i] else _EV_RELEASE))

    def check(self, now):
        # levels that have held long enough become events
        u = clock.us()
        for i in range(len(self.pins)):
            if self.raw[i] != self.down[i] and clock.diff(u, self.t_us[i]) >= self._need(i):
                self._commit(i, now)

    def until_due_us(self):
        # us until check() has a level to confirm (-1: none)
        d = -1
        u = clock.us()
        for i in range(len(self.pins)):
            if self.raw[i] != self.down[i]:
                w = self._need(i) - clock.diff(u, self.t_us[i])
                if w < 0:
                    w = 0
                if d < 0 or w < d:
                    d = w
        return d

    def until_due(self, now):
        # the same in whole ms, rounded up (1000: none)
        d = self.until_due_us()
        return 1000 if d < 0 else (d + 999) // 1000

    def irq_handler(self, i):
        # one closure per pin, made once at start-up
        def h(pin):
            self.edge(i, 1 if pin.value() == self.active else 0, clock.ms())

        return h

    def scan(self, now):
        st = self.irq_off()  # scan and the interrupts both change state: one at a time
        try:
            for i in range(len(self.pins)):
                p = self.pins[i]
                if p is None:
                    continue
                self.edge(i, 1 if p.value() == self.active else 0, now)
                # keep times within reach of ticks_diff (a button left alone
                # for 6.2 days would otherwise look freshly changed)
                self.t_raw[i] = clock.since(now, self.t_raw[i], _LONG_MS)
                self.t_rel[i] = clock.since(now, self.t_rel[i], _LONG_MS)
                if not self.down[i]:
                    self.t_first[i] = clock.since(now, self.t_first[i], _LONG_MS)
            self.check(now)
            for i in range(len(self.pins)):
                if self.down[i]:
                    if not self.long_done[i] and clock.diff(now, self.t_press[i]) >= _LONG_MS:
                        self.long_done[i] = 1
                        self._push(i << _EV_SHIFT | _EV_LONG)
                    if i <= _BTN_NEXT and clock.diff(now, self.t_rep[i]) >= 0:
                        self.t_rep[i] = clock.add(self.t_rep[i], _REPEAT_MS)
                        self._push(i << _EV_SHIFT | _EV_REPEAT)
        finally:
            self.irq_on(st)

    def confirm(self, now):
        # the input task's check at the moment a confirmation falls due
        st = self.irq_off()
        try:
            self.check(now)
        finally:
            self.irq_on(st)

    def held(self, i):
        # the contact is closed right now (self-test, power-up checks)
        p = self.pins[i]
        return p is not None and p.value() == self.active

    def get(self):
        # next event code, or -1
        t = self.tail
        if t == self.head:
            return -1
        self.tail = (t + 1) % _QLEN
        return self.q_ev[t]
