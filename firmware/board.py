# Hardware from the pin map (hardware/pinmaps/*.json, copied to the board as
# /pinmap.json), and the byte stream the link runs on.
from micropython import const
import select
import sys
import machine
import buttons
import clock

# proto.py's codes (private copies: tests/firmware/test_codes.py)
_FEATURE_OLED = const(1)
_FEATURE_VIBE = const(2)
_FEATURE_PIEZO = const(4)
_FEATURE_SIM = const(8)
_FEATURE_OLED64 = const(16)
_FEATURE_EXT = const(32)
_FEATURE_MARKS = const(64)

# Used when no pinmap.json is present (lumen pod flash without the
# hardware/ folder); equal to hardware/pinmaps/pico.json (a test keeps the
# two the same). A pinmap.json that is there but broken is never replaced
# by it: the pod shows "pin map refused" instead (app.refused).
DEFAULT = '{"board": "pico", "ring": {"pin": 16, "pixels": 12, "first": 0, "reverse": false}, ' \
    '"buttons": {"prev": 10, "next": 11, "ready": 12, "back": 13}, "active_low": true, "piezo": 15, ' \
    '"vibe": 14, "oled": null, "watchdog_ms": 4000}'
BUTTONS = ("prev", "next", "ready", "back")


def this_board():
    # "pico" or "pico2" on a board, None in simulation (any map's board will do)
    m = getattr(sys.implementation, "_machine", "")
    return "pico2" if "RP2350" in m else "pico" if "RP2040" in m else None


def load_pinmap(path="pinmap.json"):
    # (pin map, errors): errors lists (key, why) for each rule of
    # firmware/pinmap.py the file breaks, [] when the pod can use it
    b = this_board()
    try:
        with open(path) as f:
            text = f.read()
    except OSError:
        # no file at all: the built-in map, as the docs say (its pins are the
        # same on a Pico and a Pico 2)
        text = DEFAULT.replace('"pico"', '"%s"' % (b or "pico"))
    import pinmap

    pm, errors = pinmap.parse(text, b)
    del sys.modules["pinmap"]  # the rules are needed once: their code leaves the heap
    return pm, errors


class Hardware:
    def __init__(self, pm, sim=False):
        import neopixel

        Pin = machine.Pin
        rg = self.ring = pm["ring"]  # pin, pixels, first, reverse (WS2812: GRB order)
        self.np = neopixel.NeoPixel(Pin(rg["pin"], Pin.OUT), rg["pixels"])
        low = pm.get("active_low", True)
        self.active = 0 if low else 1
        bt = pm["buttons"]
        self.pins = [None if bt.get(k) is None else Pin(bt[k], Pin.IN, Pin.PULL_UP if low else Pin.PULL_DOWN)
                     for k in BUTTONS]
        # the hello's features bits (proto.FEATURE_*)
        feat = _FEATURE_SIM if sim else 0
        self.pwm = None
        if pm.get("piezo") is not None:
            self.pwm = machine.PWM(Pin(pm["piezo"]))
            self.pwm.duty_u16(0)
            feat |= _FEATURE_PIEZO
        self.vibe = None
        if pm.get("vibe") is not None:
            self.vibe = Pin(pm["vibe"], Pin.OUT, value=0)
            feat |= _FEATURE_VIBE
        self.oled = None
        o = pm.get("oled")
        if o:
            # optional keys (defaults keep older pin maps working): i2c bus id,
            # addr (0x3C), width (128), height (32 or 64), freq (400 kHz)
            feat |= _FEATURE_OLED | (_FEATURE_OLED64 if o.get("height", 32) >= 64 else 0)
            self.oled = oled_from(o)
        # speaks protocol extension 1 (docs/protocol.md section 11), its self-test with the marks
        feat |= _FEATURE_EXT | _FEATURE_MARKS
        self.features = feat
        uid = machine.unique_id()[:8]
        self.board_id = uid + bytes(8 - len(uid))
        self.watchdog_ms = pm.get("watchdog_ms", 4000)
        # scan() and the pin interrupts both queue events: scan masks IRQs
        self.irq_off = getattr(machine, "disable_irq", buttons.no_irq)
        self.irq_on = getattr(machine, "enable_irq", buttons.irq_on)

    def attach_irqs(self, bt):
        # both edges, as hard IRQs where the port has them: a press is queued
        # the moment the contact closes, however busy the loop is
        trig = machine.Pin.IRQ_FALLING | machine.Pin.IRQ_RISING
        for i in range(len(self.pins)):
            p = self.pins[i]
            if p is not None:
                try:
                    p.irq(bt.irq_handler(i), trig, hard=True)
                except (TypeError, ValueError):
                    p.irq(bt.irq_handler(i), trig)


class Port:
    # The link's byte stream: USB CDC stdin/stdout on the board, a pty (or
    # stdio) in simulation. Read one byte at a time while poll says one is
    # there, because a stream read blocks until its whole buffer is filled.
    def __init__(self, rs, ws):
        self.r = rs
        self.w = ws
        self.p = select.poll()
        self.p.register(rs, select.POLLIN)
        # bound methods made once: `f = obj.method` allocates one each time
        # (a call `obj.method()` does not), and read_into runs at every byte
        self.ipoll = self.p.ipoll
        self.readinto = self.r.readinto
        self.b1 = bytearray(1)
        self.closed = False

    def write(self, buf, n):
        self.w.write(buf, n)

    def any(self):
        for _ in self.p.ipoll(0):
            return True
        return False

    def read1(self):
        # -1 when the other end is gone (simulation: the hub closed the pty)
        try:
            if self.r.readinto(self.b1) == 1:
                return self.b1[0]
        except OSError:
            pass
        self.closed = True
        return -1

    def read_into(self, buf, i):
        # the bytes waiting now into buf[i:], as many as fit; returns the end
        ip = self.ipoll
        ri = self.readinto
        b1 = self.b1
        lim = len(buf)
        while i < lim:
            for _ in ip(0):
                break
            else:
                return i
            try:
                k = ri(b1)
            except OSError:
                k = 0
            if k != 1:
                self.closed = True
                return i
            buf[i] = b1[0]
            i += 1
        return i


def oled_from(o):
    # the SSD1306 of the pin map's "oled" entry (an Oled whose ok is False
    # when nothing answers on the bus: the pod then behaves as one without)
    import oled

    Pin = machine.Pin
    try:
        i2c = machine.I2C(o.get("i2c", 0), sda=Pin(o["sda"]), scl=Pin(o["scl"]), freq=o.get("freq", 400000))
    except (ValueError, OSError, AttributeError):
        return None
    d = oled.Oled(i2c, o.get("addr", 0x3C), o.get("width", 128), o.get("height", 32))
    d.init()
    return d


# Piezo beeps and the optional vibration motor, both non-blocking: started
# now, switched off by tick() when their time is up. Beeps are at the
# piezo's resonance (the PS1240's 4 kHz: loudest for the current a GPIO
# gives); what they mean is told by length and count, not pitch.
RES_HZ = 4000


class Sound:
    def __init__(self, pwm=None, vibe=None):
        self.pwm = pwm  # machine.PWM on the piezo pin, or None
        self.vibe = vibe  # machine.Pin driving the motor transistor, or None
        self.beep_off = None
        self.vibe_off = None
        self.again = 0  # beeps still to come in a pattern
        self.on_ms = 0
        self.gap_ms = 0
        self.freq = RES_HZ
        self.beeps = 0  # beeps started (tests)

    def beep(self, freq, ms, now, vibe_ms=0, count=1, gap=60):
        if self.pwm is not None and ms:
            self.freq = freq
            self.again = count - 1
            self.on_ms = ms
            self.gap_ms = gap
            self._on(now)
        if self.vibe is not None and vibe_ms:
            self.vibe.value(1)
            self.vibe_off = clock.add(now, vibe_ms)

    def _on(self, now):
        pwm = self.pwm
        if pwm is None:
            return
        pwm.freq(self.freq)
        pwm.duty_u16(32768)
        self.beep_off = clock.add(now, self.on_ms)
        self.beeps += 1

    def tick(self, now, force=False):
        pwm = self.pwm
        if pwm is not None and self.beep_off is not None and (force or clock.diff(now, self.beep_off) >= 0):
            if self.on_ms and not force and self.again > 0 and clock.diff(now, self.beep_off) >= self.gap_ms:
                self.again -= 1
                self._on(now)  # the next beep of the pattern
            elif self.on_ms:
                pwm.duty_u16(0)
                if force or self.again <= 0:
                    self.beep_off = None
                    self.again = 0
        vibe = self.vibe
        if vibe is not None and self.vibe_off is not None and (force or clock.diff(now, self.vibe_off) >= 0):
            self.vibe_off = None
            vibe.value(0)
