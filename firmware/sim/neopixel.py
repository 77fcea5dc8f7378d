# Simulated WS2812 driver: the board driver's buffer layout (3 bytes a
# pixel, GRB); write() sends nothing. Tests and the simulator read the ring's
# logical image (ring.py), which is what the buffer is made from.
class NeoPixel:
    def __init__(self, pin, n, bpp=3, timing=1):
        self.buf = bytearray(n * bpp)

    def write(self):
        pass
