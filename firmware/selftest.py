# The builder's self-test (docs/pod-ring.md "Self-test"): an RGBW sweep of
# the ring, a beep and a motor pulse, the OLED test pattern, and each button
# lighting its own quadrant with a beep. Entered with READY held at power-up
# (no hub needed) or by the hub's `selftest` message (docs/protocol.md 11);
# a long press of BACK leaves it. Each part's result goes to the hub in a
# `test` frame when the hub speaks the extension.
from micropython import const
import clock

# parts and results (docs/protocol.md section 11, "test")
RING = const(1)
PIEZO = const(2)
MOTOR = const(3)
OLED = const(4)
PREV = const(5)  # buttons: PREV + index
N_PARTS = const(8)
PENDING = const(0)
OK = const(1)  # seen working by the pod itself (a press and its release, the OLED acked)
SHOWN = const(2)  # played or lit: the builder's eyes and ears judge
FAILED = const(3)
ABSENT = const(4)  # not in the pin map

_SWEEP_STEP_MS = const(50)
_FILL_MS = const(500)
_PERIOD_MS = const(10000)
_PRESS_MS = const(400)
_RES_HZ = const(4000)
_COLOURS = (0xFF0000, 0x00FF00, 0x0000FF, 0xFFFFFF)


class SelfTest:
    def __init__(self, pod):
        self.pod = pod
        self.active = False
        self.by_hub = False
        self.t0 = 0
        self.res = bytearray(N_PARTS + 1)
        self.told = bytearray(N_PARTS + 1)  # results already reported to the hub
        self.pressed = bytearray(4)
        self.lit = -1  # the button whose quadrant is lit
        self.lit_t = 0

    def start(self, now, by_hub=False):
        p = self.pod
        self.active = True
        self.by_hub = by_hub
        self.t0 = now
        for i in range(N_PARTS + 1):
            self.res[i] = PENDING
            self.told[i] = 0
        for i in range(4):
            self.pressed[i] = 0
            if p.buttons.pins[i] is None:
                self.res[PREV + i] = ABSENT
        self.lit = -1
        hw = p.hw
        self.res[MOTOR] = SHOWN if hw.vibe is not None else ABSENT
        self.res[PIEZO] = SHOWN if hw.pwm is not None else ABSENT
        if hw.oled is None:
            self.res[OLED] = ABSENT
        else:
            self.res[OLED] = OK if p.screen is not None and p.screen.oled.ok else FAILED
        p.snd.beep(_RES_HZ, 200, now, 300)
        p.cd.active = False

    def stop(self, now):
        self.active = False
        self.pod.snd.tick(now, True)
        self.pod.boot_t0 = clock.add(now, -5000)  # no boot sweep on the way out

    def button(self, ev, now):
        # a button event while testing; True: the test is over
        btn = ev >> 3
        kind = ev & 7
        if btn == 3 and kind == 3:  # BACK held: leave
            self.stop(now)
            return True
        if kind == 1:
            self.lit = btn
            self.lit_t = now
            self.pressed[btn] = 1
            self.pod.snd.beep(_RES_HZ, 60, now, 120 if btn == 2 else 0)
        elif kind in (2, 5) and self.pressed[btn]:
            self.res[PREV + btn] = OK
        return False

    def tick(self, now):
        # results to the hub, once each (when the hub speaks the extension)
        if clock.diff(now, self.t0) >= 4 * (self.pod.ring.n * _SWEEP_STEP_MS + _FILL_MS):
            if self.res[RING] == PENDING:
                self.res[RING] = SHOWN
        p = self.pod
        if not p.link.up or not p.ext:
            return
        for i in range(1, N_PARTS + 1):
            if self.res[i] != PENDING and not self.told[i]:
                self.told[i] = 1
                p.report(i, self.res[i], now)

    def draw(self, r, now):
        n = r.n
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
                if self.res[PREV + b] == OK:
                    quadrant(r, b, 0x009E73, 60)
        if self.lit >= 0 and clock.diff(now, self.lit_t) < _PRESS_MS:
            quadrant(r, self.lit, 0xFFFFFF, 255)


def quadrant(r, btn, col, k):
    # a button's own quarter of the ring: BACK top, NEXT right, READY bottom, PREV left
    n = r.n
    q = n // 4
    c = (3 * n // 4, n // 4, n // 2, 0)[btn]
    for i in range(c - q // 2, c - q // 2 + q):
        r.put(i, col, k)
