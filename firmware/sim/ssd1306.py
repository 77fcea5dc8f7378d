# A simulated SSD1306 as the I2C bus sees it (simulation and tests, never on
# a board): the control byte, the commands with their arguments, horizontal
# and page addressing, and the 128 x 64 display RAM that the data bytes land
# in; the height is what the multiplex command (0xA8) sets. tests/rp2/pod.mjs
# has the same model on the emulated Pico's I2C bus. Runs under MicroPython
# and CPython alike.
ARGS = {0x20: 1, 0x21: 2, 0x22: 2, 0x81: 1, 0x8D: 1, 0xA8: 1, 0xD3: 1, 0xD5: 1, 0xD9: 1, 0xDA: 1, 0xDB: 1}


class SSD1306:
    def __init__(self, width=128, height=32, addr=0x3C):
        self.addr = addr
        self.w = width
        self.h = height
        self.ram = bytearray(128 * 8)
        self.mode = 2  # page addressing after reset
        self.c0, self.c1, self.p0, self.p1 = 0, 127, 0, 7
        self.col = 0
        self.page = 0
        self.on = False
        self.cmd = []  # the command being collected with its arguments
        self.writes = 0  # I2C transactions
        self.data = 0  # display data bytes received

    def write(self, buf):
        self.writes += 1
        i = 0
        n = len(buf)
        while i < n:
            ctrl = buf[i]
            i += 1
            cont = ctrl & 0x80  # Co=1: one byte, then another control byte
            if ctrl & 0x40:
                end = i + 1 if cont else n
                while i < end:
                    self._data(buf[i])
                    i += 1
            else:
                end = i + 1 if cont else n
                while i < end:
                    self._command(buf[i])
                    i += 1

    def _command(self, b):
        c = self.cmd
        c.append(b)
        if len(c) - 1 < ARGS.get(c[0], 0):
            return
        op = c[0]
        if op == 0x20:
            self.mode = c[1] & 3
        elif op == 0x21:
            self.c0, self.c1 = c[1] & 127, c[2] & 127
            self.col = self.c0
        elif op == 0x22:
            self.p0, self.p1 = c[1] & 7, c[2] & 7
            self.page = self.p0
        elif op == 0xA8:
            self.h = c[1] + 1
        elif op == 0xAE:
            self.on = False
        elif op == 0xAF:
            self.on = True
        elif 0xB0 <= op <= 0xB7:
            self.page = op & 7
        elif op <= 0x0F:
            self.col = (self.col & 0xF0) | op
        elif op <= 0x1F:
            self.col = (self.col & 0x0F) | (op & 0x0F) << 4
        self.cmd = []

    def _data(self, b):
        self.data += 1
        self.ram[self.page * 128 + self.col] = b
        if self.mode == 0:  # horizontal: along the column range, then the next page
            if self.col >= self.c1:
                self.col = self.c0
                self.page = self.p0 if self.page >= self.p1 else self.page + 1
            else:
                self.col += 1
        else:
            self.col = (self.col + 1) & 127

    def pixel(self, x, y):
        return self.ram[(y >> 3) * 128 + x] >> (y & 7) & 1

    def rows(self, y0=0, y1=None, x0=0, x1=None):
        # the picture as text rows ('#' lit), y0..y1-1, x0..x1-1
        y1 = self.h if y1 is None else y1
        x1 = self.w if x1 is None else x1
        return ["".join("#" if self.pixel(x, y) else "." for x in range(x0, x1)) for y in range(y0, y1)]
