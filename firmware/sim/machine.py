# Simulated `machine` for the unix port (never copied to a board): pins whose
# levels the simulator (simctl.py) or a test sets, and do-nothing PWM/WDT.
# Kept minimal: on the 64-bit unix port every line here costs heap that a
# real board spends on nothing (its machine module is in flash).
import os


class Pin:
    IN = 0
    OUT = 1
    PULL_UP = 1
    PULL_DOWN = 2
    IRQ_FALLING = 4
    IRQ_RISING = 8

    def __init__(self, id, *args, value=None):
        self.level = 0 if args[1:] == (2,) else 1
        if value is not None:
            self.level = value
        self.handler = None

    def value(self, v=None):
        if v is None:
            return self.level
        self.level = 1 if v else 0

    def irq(self, handler, *args, **kw):
        self.handler = handler

    def drive(self, level):
        # a simulated contact: set the level and fire the edge interrupt at
        # once, as a hard IRQ would
        if level != self.level:
            self.level = level
            if self.handler is not None:
                self.handler(self)


class PWM:
    def __init__(self, *args, **kw):
        self.duty = 0
        self.hz = 0

    def freq(self, f):
        self.hz = f

    def duty_u16(self, d):
        self.duty = d


class I2C:
    # the bus of a pin map's OLED: a simulated SSD1306 (ssd1306.py) answers
    # at 0x3C, unless a test puts another device there or none (I2C.device:
    # an object with addr and write(buf), or None: nothing answers)
    device = "sim"

    def __init__(self, *args, **kw):
        if I2C.device == "sim":
            import ssd1306

            I2C.device = ssd1306.SSD1306()
        self.dev = I2C.device

    def scan(self):
        return [] if self.dev is None else [self.dev.addr]

    def writeto(self, addr, buf):
        if self.dev is None or addr != self.dev.addr:
            raise OSError(19)  # ENODEV: no ACK
        self.dev.write(buf)
        return len(buf)

    def writevto(self, addr, bufs):
        if self.dev is None or addr != self.dev.addr:
            raise OSError(19)
        self.dev.write(b"".join(bytes(b) for b in bufs))
        return True

    def duty_u16(self, d):
        self.duty = d


class WDT:
    def __init__(self, *args, **kw):
        pass

    def feed(self):
        pass


def unique_id():
    h = os.getenv("LUMEN_POD_ID")
    return bytes.fromhex(h) if h else b"\xe6\x60\x58\x38\x83\x4b\x2a\x26"


def reset():
    raise SystemExit(3)
