# The pixel ring: a logical image (pixel 0 at 12 o'clock, clockwise, full
# scale RGB) and its copy to the WS2812 driver with brightness, wiring offset
# and direction, and colour order applied. Buffers are made once; drawing
# allocates nothing (colours are 0xRRGGBB ints, not tuples).
from micropython import const

# brightness cap: 12 px x 3 x 20 mA x 144/255 stays inside a 500 mA USB port
_MAX_LEVEL = const(144)


class Ring:
    def __init__(self, np, rg):
        # rg: the pin map's ring entry: pixels, first (the physical pixel at
        # 12 o'clock), reverse (wired counter-clockwise)
        self.np = np
        n = self.n = rg["pixels"]
        self.img = bytearray(3 * n)
        self.first = rg.get("first", 0)
        self.reverse = rg.get("reverse", False)
        self.level = 48
        self.tab = bytearray(256)  # value -> value at the current level, remade when the level changes
        self.tab_lv = -1
        self.writes = 0

    def clear(self):
        img = self.img
        for i in range(len(img)):
            img[i] = 0

    def put(self, i, col, k=255):
        # pixel i (wraps either way) = col scaled by k/255
        j = i % self.n * 3
        img = self.img
        img[j] = (col >> 16) * k // 255
        img[j + 1] = (col >> 8 & 0xFF) * k // 255
        img[j + 2] = (col & 0xFF) * k // 255

    def fill(self, col, k=255):
        for i in range(self.n):
            self.put(i, col, k)

    def show(self):
        lv = self.level if self.level < _MAX_LEVEL else _MAX_LEVEL
        t = self.tab
        if lv != self.tab_lv:
            # round up so a dim pixel stays visible
            for v in range(256):
                t[v] = (v * lv + 254) // 255
            self.tab_lv = lv
        end = 3 * self.n
        img = self.img
        buf = self.np.buf
        q = self.first * 3
        step = -3 if self.reverse else 3
        for j in range(0, end, 3):
            # WS2812 order is G R B; one table lookup a byte (this runs 50 times a second)
            buf[q] = t[img[j + 1]]
            buf[q + 1] = t[img[j]]
            buf[q + 2] = t[img[j + 2]]
            q += step
            if q >= end:
                q = 0
            elif q < 0:
                q = end - 3
        self.np.write()
        self.writes += 1
