# Test harness (MicroPython side): one Pod on fake hardware, driven by a fake
# clock, exactly as app.py drives it on the board (io every 2 ms, a scan and
# a frame every 20 ms), but without asyncio so every step is deterministic.
import gc
import json
import struct
import time
import clock
import board
import pod
import proto

from wirefmt import FMT, POD_FMT, NAMES  # noqa: F401 (re-exported for tests)

BUTTONS = ("prev", "next", "ready", "back")


class FakeClock:
    def __init__(self, start):
        self.t = start
        self.u = clock.add(start, 123)  # microseconds, on their own counter (any start will do)

    def ms(self):
        return self.t

    def us(self):
        return self.u

    def advance(self, d):
        self.t = clock.add(self.t, d)
        self.u = clock.add(self.u, 1000 * d)


class Wire:
    # the pod's port: records every byte written
    def __init__(self):
        self.out = bytearray()

    def write(self, buf, n):
        self.out.extend(buf[:n])


def frame(t, seq, ack, *vals, text=b""):
    body = bytearray(proto._MAX_BODY + 2) if hasattr(proto, "_MAX_BODY") else bytearray(44)
    body[0] = t
    body[1] = seq
    body[2] = ack
    fmt = FMT[t]
    size = struct.calcsize(fmt)
    if size:
        struct.pack_into(fmt, body, 3, *vals)
    body[3 + size:3 + size + len(text)] = text
    out = bytearray(48)
    n = proto.encode(out, body, 3 + size + len(text))
    return bytes(out[:n])


class Harness:
    def __init__(self, start=None, pinmap=None, board_id=None):
        gc.collect()
        # start near the ticks wrap so every test also checks wrap-around
        self.clk = FakeClock(time.ticks_add(0, -3000) if start is None else start)
        clock.ms = self.clk.ms
        clock.us = self.clk.us
        pm = json.loads(board.DEFAULT) if pinmap is None else pinmap
        self.hw = board.Hardware(pm, True)
        self.wire = Wire()
        self.pod = pod.Pod(self.hw, self.wire, 0x1234, self.clk.ms())
        self.hw.attach_irqs(self.pod.buttons)
        self.dec = proto.Decoder()
        self.hub_seq = 0
        self.t0 = self.clk.ms()
        self.log = []  # decoded pod frames: (ms since start, name, seq, ack, values)
        self.hub_alive = True
        self.hub_ping_at = self.t0
        self.next_frame = self.t0

    def elapsed(self):
        return clock.diff(self.clk.ms(), self.t0)

    # -- time
    def io(self):
        p = self.pod
        bt = p.buttons
        if hasattr(bt, "confirm"):  # (0.4 firmware counted the first edge at once)
            bt.confirm(self.clk.ms())  # the input task checks a press when its confirmation falls due
        if bt.head != bt.tail:
            p.input(self.clk.ms())
        self.collect()

    def frame_tick(self):
        now = self.clk.ms()
        self.pod.buttons.scan(now)
        self.pod.tick(now)
        self.pod.show()
        self.collect()

    def run(self, ms):
        # 1 ms steps with app.py's timing: io every 2 ms; a scan and a frame
        # every 20 ms, or sooner when a countdown mark or link timer is due;
        # the hub pings every 500 ms while hub_alive
        for _ in range(ms):
            self.clk.advance(1)
            now = self.clk.ms()
            e = self.elapsed()
            if self.hub_alive and self.pod.link.up and clock.diff(now, self.hub_ping_at) >= 500:
                self.hub_ping_at = now
                self.feed(frame(0, 0, self.pod_last_seq()))
            bt = self.pod.buttons
            if e % 2 == 0 or (hasattr(bt, "until_due") and bt.until_due(now) == 0):
                self.io()
            if clock.diff(now, self.next_frame) >= 0:
                self.frame_tick()
                d = self.pod.until_due(now)
                self.next_frame = clock.add(now, d if 0 < d < 20 else 20 if d >= 20 else 1)

    # -- buttons
    def pin(self, name):
        return self.hw.pins[BUTTONS.index(name)]

    def down(self, name):
        self.pin(name).drive(0)

    def up(self, name):
        self.pin(name).drive(1)

    def press(self, name, hold=60, gap=40):
        self.down(name)
        self.run(hold)
        self.up(name)
        self.run(gap)

    # -- link
    def feed(self, data):
        # in passes of at most 64 bytes, as app.py reads the link
        now = self.clk.ms()
        for i in range(0, len(data), 64):
            chunk = bytearray(data[i:i + 64])
            self.pod.rx_buf(chunk, len(chunk), now)
        self.pod.link.flush(now)
        self.collect()

    def hub(self, t, *vals, text=b""):
        # a sequenced hub message (next seq), acking everything the pod sent
        self.hub_seq = self.hub_seq % 255 + 1
        self.feed(frame(t, self.hub_seq, self.pod_last_seq(), *vals, text=text))

    def pod_last_seq(self):
        s = 0
        for f in self.log:
            if f[2]:
                s = f[2]
        return s

    def welcome(self, seat=1, mode=1, bright=0):
        lk = self.pod.link
        self.hub_seq = 0
        self.feed(frame(0x81, 0, 0, 1, lk.boot, lk.epoch, seat, mode, bright))

    def collect(self):
        out = self.wire.out
        if not out:
            return
        ack = False
        for c in out:
            if self.dec.feed(c):
                b = self.dec.body
                t = b[0]
                fmt = POD_FMT.get(t, "")
                size = struct.calcsize(fmt)
                vals = struct.unpack_from(fmt, b, 3) if size else ()
                if t == 7:
                    vals = vals + (bytes(b[3 + size:self.dec.blen]),)
                self.log.append((self.elapsed(), NAMES.get(t, t), b[1], b[2], vals))
                if b[1] and self.hub_alive:
                    ack = True
        self.wire.out = bytearray()
        if ack:  # the hub acks a sequenced frame at once, as HubLink does
            self.feed(frame(0, 0, self.pod_last_seq()))

    def sent(self, name=None):
        return [f for f in self.log if name is None or f[1] == name]

    def ring(self):
        return bytes(self.pod.ring.img).hex()

    def px(self, i):
        j = i * 3
        img = self.pod.ring.img
        return img[j] << 16 | img[j + 1] << 8 | img[j + 2]


H = Harness
BLUE_DIM = "004368"  # seat 1 slot: 0x0072B2 * 150 / 255
WHITE_PRIO = "c8c8c8"  # I hold priority: white * 200 / 255
OFF = "000000"


def seated(seat=1, mode=1, options=5, kind=1, prompt=7, flags=0, locked=0, priority=1, fp=2):
    h = H()
    h.run(1000)  # boot self-test and a couple of hellos
    h.welcome(seat, mode)
    h.hub(0x82, prompt, kind, options, flags, locked, priority, fp, 5000, options)
    h.run(40)
    return h


def pixels(h):
    r = h.ring()
    return [r[i:i + 6] for i in range(0, len(r), 6)]


# colours of the ring language (firmware/views.py)
BLUE, VERMILLION, GREEN, ORANGE = 0x0072B2, 0xD55E00, 0x009E73, 0xE69F00
YELLOW, SKY, PURPLE, WHITE = 0xF0E442, 0x56B4E9, 0xCC79A7, 0xFFFFFF


def hue(c):
    # which palette colour pixel value c is a scaled copy of (None: off or a mix)
    if not c:
        return None
    r, g, b = c >> 16, c >> 8 & 255, c & 255
    for col in (BLUE, VERMILLION, GREEN, ORANGE, YELLOW, SKY, PURPLE, WHITE):
        cr, cg, cb = col >> 16, col >> 8 & 255, col & 255
        k = max(r, g, b) * 255 // max(cr, cg, cb)
        if abs(cr * k // 255 - r) <= 2 and abs(cg * k // 255 - g) <= 2 and abs(cb * k // 255 - b) <= 2:
            return col
    return None


def hues(h):
    return [hue(h.px(i)) for i in range(h.pod.ring.n)]
