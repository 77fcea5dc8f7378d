# The pixel ring: a logical image (pixel 0 at 12 o'clock, clockwise, full
# scale RGB) and its copy to the WS2812 driver with brightness, wiring offset
# and direction, and colour order applied. Buffers are made once; drawing
# allocates nothing (colours are 0xRRGGBB ints, not tuples).
from micropython import const

_MAX_LEVEL = const(200)  # the brightest of the 8 user steps (selection.BRIGHT_LEVELS)
# Current limit, whatever the pixel count: a WS2812B colour channel draws
# about 20 mA at 255, so a frame's current is sum(bytes) x 20 / 255 mA. Each
# frame is dimmed as a whole to stay within _LED_MA: with the Pico (25 mA),
# the LEDs' own 1 mA each, the motor (75 mA), the piezo and the OLED the pod stays
# within the 250 mA MicroPython declares in its USB descriptor
# (hardware/README.md "Power budget"). Unlimited, 16 px of white at the top
# step would draw 540 mA.
_LED_MA = const(110)
_CH_MA = const(20)


class Ring:
    def __init__(self, np, rg):
        # rg: the pin map's ring entry: pixels, first (the physical pixel at
        # 12 o'clock), reverse (wired counter-clockwise)
        self.np = np
        n = self.n = rg["pixels"]
        self.img = bytearray(3 * n)
        self.first = rg.get("first", 0)
        self.reverse = rg.get("reverse", False)
        self.level = 144
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
        end = 3 * self.n
        img = self.img
        s = 0
        for j in range(end):
            s += img[j]
        if s * lv * _CH_MA > _LED_MA * 65025:
            lv = _LED_MA * 65025 // (s * _CH_MA)  # a bright fill: dimmed to the budget
        buf = self.np.buf
        q = self.first * 3
        step = -3 if self.reverse else 3
        for j in range(0, end, 3):
            # WS2812 order is G R B; round up so a dim pixel stays visible
            buf[q] = (img[j + 1] * lv + 254) // 255
            buf[q + 1] = (img[j] * lv + 254) // 255
            buf[q + 2] = (img[j + 2] * lv + 254) // 255
            q += step
            if q >= end:
                q = 0
            elif q < 0:
                q = end - 3
        self.np.write()
        self.writes += 1
