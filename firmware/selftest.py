# The builder's self-test (docs/pod-ring.md "Self-test"): an RGBW sweep of
# the ring, a beep and a motor pulse, the OLED test pattern, and each button
# lighting its own quadrant with a beep; on the hub's word, one pixel alone
# to show where 12 o'clock and 3 o'clock are (lumen pod test). Entered with READY held at power-up
# (no hub needed) or by the hub's `selftest` message (docs/protocol.md 11);
# a long press of BACK leaves it. Each part's result goes to the hub in a
# `test` frame when the hub speaks the extension.
from micropython import const
import clock
from views import quadrant

# proto.py's codes (private copies: tests/firmware/test_codes.py)
_PART_RING = const(1)
_PART_PIEZO = const(2)
_PART_MOTOR = const(3)
_PART_OLED = const(4)
_PART_PREV = const(5)
_PART_BACK = const(8)
_RES_PENDING = const(0)
_RES_OK = const(1)
_RES_SHOWN = const(2)
_RES_FAILED = const(3)
_RES_ABSENT = const(4)
_SELFTEST_STOP = const(0)
_SELFTEST_START = const(1)
_SELFTEST_MARK_TOP = const(2)
_SELFTEST_MARK_RIGHT = const(3)
# buttons.py's codes (private copies: tests/firmware/test_codes.py)
_BTN_READY = const(2)
_BTN_BACK = const(3)
_EV_PRESS = const(1)
_EV_RELEASE = const(2)
_EV_LONG = const(3)
_EV_LONG_RELEASE = const(5)
_EV_MASK = const(7)
_EV_SHIFT = const(3)

_N_PARTS = const(8)  # _PART_RING .. _PART_BACK
_SWEEP_STEP_MS = const(50)
_FILL_MS = const(500)
_PERIOD_MS = const(10000)
_PRESS_MS = const(400)
_PIEZO_HZ = const(4000)
_COLOURS = (0xFF0000, 0x00FF00, 0x0000FF, 0xFFFFFF)


class SelfTest:
    def __init__(self, pod):
        self.pod = pod
        self.active = False
        self.by_hub = False
        self.t0 = 0
        self.res = bytearray(_N_PARTS + 1)
        self.told = bytearray(_N_PARTS + 1)  # results already reported to the hub
        self.pressed = bytearray(4)
        self.lit = -1  # the button whose quadrant is lit
        self.lit_t = 0
        self.mark = 0  # an orientation mark shown alone (_SELFTEST_MARK_*), 0: none

    def start(self, now, by_hub=False):
        p = self.pod
        self.active = True
        self.by_hub = by_hub
        self.t0 = now
        for i in range(_N_PARTS + 1):
            self.res[i] = _RES_PENDING
            self.told[i] = 0
        for i in range(4):
            self.pressed[i] = 0
            if p.buttons.pins[i] is None:
                self.res[_PART_PREV + i] = _RES_ABSENT
        self.lit = -1
        self.mark = 0
        hw = p.hw
        self.res[_PART_MOTOR] = _RES_SHOWN if hw.vibe is not None else _RES_ABSENT
        self.res[_PART_PIEZO] = _RES_SHOWN if hw.pwm is not None else _RES_ABSENT
        if hw.oled is None:
            self.res[_PART_OLED] = _RES_ABSENT
        else:
            self.res[_PART_OLED] = _RES_OK if p.screen is not None and p.screen.oled.ok else _RES_FAILED
        p.snd.beep(_PIEZO_HZ, 200, now, 300)
        p.cd.active = False

    def action(self, a, now):
        # the hub's `selftest` message (docs/protocol.md 11): start, stop, or
        # an orientation mark while running (a newer action: the marks off)
        if a == _SELFTEST_START:
            self.start(now, True)
        elif not self.active:
            return
        elif a == _SELFTEST_STOP:
            self.stop(now)
        else:
            self.mark = a if a <= _SELFTEST_MARK_RIGHT else 0

    def stop(self, now):
        self.active = False
        self.pod.snd.tick(now, True)
        self.pod.boot_t0 = clock.add(now, -5000)  # no boot sweep on the way out

    def button(self, ev, now):
        # a button event while testing; True: the test is over
        btn = ev >> _EV_SHIFT
        kind = ev & _EV_MASK
        if btn == _BTN_BACK and kind == _EV_LONG:  # BACK held: leave
            self.stop(now)
            return True
        if kind == _EV_PRESS:
            self.lit = btn
            self.lit_t = now
            self.pressed[btn] = 1
            self.pod.snd.beep(_PIEZO_HZ, 60, now, 120 if btn == _BTN_READY else 0)
        elif (kind == _EV_RELEASE or kind == _EV_LONG_RELEASE) and self.pressed[btn]:
            self.res[_PART_PREV + btn] = _RES_OK
        return False

    def tick(self, now):
        # results to the hub, once each (when the hub speaks the extension)
        if clock.diff(now, self.t0) >= 4 * (self.pod.ring.n * _SWEEP_STEP_MS + _FILL_MS):
            if self.res[_PART_RING] == _RES_PENDING:
                self.res[_PART_RING] = _RES_SHOWN
        p = self.pod
        if not p.link.up or not p.ext:
            return
        for i in range(1, _N_PARTS + 1):
            if self.res[i] != _RES_PENDING and not self.told[i]:
                self.told[i] = 1
                p.report(i, self.res[i], now)

    def draw(self, r, now):
        n = r.n
        if self.mark:
            # one white pixel and nothing else: pixel 0 (12 o'clock), or the
            # one a quarter on (3 o'clock), through the pin map's first and
            # reverse like every frame: where the builder sees it tells
            r.put(0 if self.mark == _SELFTEST_MARK_TOP else n // 4, 0xFFFFFF)
            return
        t = clock.diff(now, self.t0) % _PERIOD_MS
        per = n * _SWEEP_STEP_MS + _FILL_MS
        if t < 4 * per:
            # red, green, blue, white: one pixel round the ring, then all of it
            c = _COLOURS[t // per]
            u = t % per
            if u < n * _SWEEP_STEP_MS:
                r.put(u // _SWEEP_STEP_MS, c)
            else:
                r.fill(c)
        else:
            # buttons tested so far: their quadrants dim green
            for b in range(4):
                if self.res[_PART_PREV + b] == _RES_OK:
                    quadrant(r, b, 0x009E73, 60)
        if self.lit >= 0 and clock.diff(now, self.lit_t) < _PRESS_MS:
            quadrant(r, self.lit, 0xFFFFFF, 255)

