# SSD1306 OLED over I2C (128x64 or 128x32), redrawn only where it changed.
#
# The picture is a framebuf (MONO_VLSB, the controller's own layout: a byte
# is 8 rows of one column). Drawing marks the columns it touched in each
# 8-row page; flush() sends only those spans, and at most `budget` bytes a
# call, so one frame never blocks for a whole screen: at 400 kHz a byte takes
# 22.5 us on the wire, a full 128x64 screen 23 ms, more than one 20 ms frame.
import framebuf

_ON = b"\x00\xaf"  # Co=0 D/C=0: a run of commands
_DATA = b"\x40"  # Co=0 D/C=1: display data follows


class Oled:
    def __init__(self, i2c, addr=0x3C, width=128, height=32):
        self.i2c = i2c
        self.addr = addr
        self.w = width
        self.h = height
        self.pages = height // 8
        self.buf = bytearray(width * self.pages)
        self.fb = framebuf.FrameBuffer(self.buf, width, height, framebuf.MONO_VLSB)
        self.lo = bytearray(self.pages)  # dirty columns lo..hi per page (lo > hi: clean)
        self.hi = bytearray(self.pages)
        self.cmd = bytearray(7)
        self.mv = memoryview(self.buf)
        self.ok = False
        self.sent = 0  # data bytes written since start (the bench's figure)
        self.errors = 0
        self.clean()

    def init(self):
        # the power-up sequence of the SSD1306 datasheet (application note):
        # display off, horizontal addressing, multiplex for the height, COM
        # pins for 32 or 64 rows, charge pump on, display on
        h = self.h
        seq = bytes((0x00, 0xAE, 0x20, 0x00, 0x40, 0xA1, 0xA8, h - 1, 0xC8, 0xD3, 0x00,
                     0xDA, 0x02 if h == 32 else 0x12, 0xD5, 0x80, 0xD9, 0xF1, 0xDB, 0x30,
                     0x81, 0xCF, 0xA4, 0xA6, 0x8D, 0x14))
        try:
            self.i2c.writeto(self.addr, seq)
            self.fb.fill(0)
            self.mark(0, 0, self.w, h)
            self.ok = True
            while self.flush(1024):
                pass
            self.i2c.writeto(self.addr, _ON)
        except OSError:
            self.ok = False  # no answer on the bus: the pod goes on without its screen
            self.errors += 1
        return self.ok

    def clean(self):
        for p in range(self.pages):
            self.lo[p] = 255
            self.hi[p] = 0

    def mark(self, x, y, w, h):
        # the rectangle x, y, w, h was drawn: send it at the next flushes
        x1 = x + w - 1
        if x < 0:
            x = 0
        if x1 >= self.w:
            x1 = self.w - 1
        for p in range(y // 8, (y + h - 1) // 8 + 1):
            if 0 <= p < self.pages:
                if x < self.lo[p]:
                    self.lo[p] = x
                if x1 > self.hi[p]:
                    self.hi[p] = x1

    def dirty(self):
        for p in range(self.pages):
            if self.lo[p] <= self.hi[p]:
                return True
        return False

    def flush(self, budget):
        # send dirty spans, at most budget bytes; True while some are left
        if not self.ok:
            return False
        c = self.cmd
        for p in range(self.pages):
            lo = self.lo[p]
            hi = self.hi[p]
            if lo > hi:
                continue
            if budget <= 0:
                return True
            end = hi if hi - lo < budget else lo + budget - 1
            c[0] = 0x00
            c[1] = 0x21  # column range
            c[2] = lo
            c[3] = self.w - 1
            c[4] = 0x22  # page range
            c[5] = p
            c[6] = self.pages - 1
            o = p * self.w
            try:
                self.i2c.writeto(self.addr, c)
                self.i2c.writevto(self.addr, (_DATA, self.mv[o + lo:o + end + 1]))
            except OSError:
                self.errors += 1
                return False
            n = end - lo + 1
            self.sent += n
            budget -= n
            if end >= hi:
                self.lo[p] = 255
                self.hi[p] = 0
            else:
                self.lo[p] = end + 1
        return self.dirty()

