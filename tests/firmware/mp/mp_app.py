# app.py's start-up and tasks on a deterministic fake asyncio (fakeloop):
# Ctrl-C and the watchdog before the first byte, no heap walk every frame,
# 50 Hz against a loop that wakes late, a stream of bytes that cannot starve
# the frames or the watchdog, presses handled the moment the IRQ fires, and
# flash error logging rate-limited.
# heap: 96K  (the whole app, the fake loop and this module: the 64-bit unix
# port's objects are twice a board's, whose heap is 234 KB)
import time
import app
import board
import clock
import machine
import fakeloop
from mptest import run_tests

events = []
feeds = []


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


class FakeMicropython:
    def kbd_intr(self, c):
        events.append("kbd%d" % c)

    def alloc_emergency_exception_buf(self, n):
        pass


class FakeWDT:
    def __init__(self, *args, **kw):
        events.append("wdt")

    def feed(self):
        if len(feeds) >= 200:  # the latest ones are enough: a list of every feed of a 10 s run
            del feeds[:100]  # needs 8 KB in one piece, which a 96 KB heap may not have
        feeds.append(clock.ms())


class FakeGC:
    def __init__(self):
        self.walks = 0

    def mem_alloc(self):
        self.walks += 1
        return 1000

    def mem_free(self):
        self.walks += 1  # (a walk of the heap too)
        return 1000

    def threshold(self, n):
        pass

    def collect(self):
        pass


class FakePort:
    # the link's byte stream: what tests queue, or an endless run of one
    # non-zero byte; every 16 bytes handed out cost 1 ms of fake time
    def __init__(self, clk, endless=0):
        self.clk = clk
        self.endless = endless
        self.pending = bytearray()
        self.out = bytearray()
        self.closed = False
        self.r = self
        self.taken = 0
        self.run = 0
        self.step = -1

    def write(self, buf, n):
        self.out.extend(buf[:n])

    def ready(self):
        return self.endless or len(self.pending)

    def any(self):
        return bool(self.ready())

    def _take(self):
        if fakeloop.steps != self.step:
            self.step = fakeloop.steps
            self.run = 0
        self.run += 1
        if self.run > 20000:
            raise KeyboardInterrupt("the link task never gave the loop back")
        self.taken += 1
        if self.taken % 16 == 0:
            self.clk.advance(1)
        if self.endless:
            return self.endless
        c = self.pending[0]
        self.pending = self.pending[1:]
        return c

    def read1(self):
        return self._take() if self.ready() else -1

    def readinto(self, buf, n=-1):
        k = 0
        lim = len(buf) if n < 0 else n
        while k < lim and self.ready():
            buf[k] = self._take()
            k += 1
        return k

    def read_into(self, buf, i):
        while i < len(buf) and self.ready():
            buf[i] = self._take()
            i += 1
        return i


def boot(late=1, endless=0, sim=True):
    fakeloop.reset(late)
    del feeds[:]
    clk = FakeClock(time.ticks_add(0, -3000))
    clock.ms = clk.ms
    clock.us = clk.us
    app.asyncio = fakeloop
    machine.WDT = FakeWDT
    a = app.App(["--port", "/dev/null"])
    a.sim = sim
    a.log_path = "/tmp/lumen-mp-app-errors.log"
    port = FakePort(clk, endless)
    a.port = port
    a.pod.link.port = port
    if not hasattr(a, "wdt") or a.wdt is None:
        a.wdt = FakeWDT()
    fakeloop.create_task(a.main())
    return a, clk


def run_for(ms, clk):
    try:
        fakeloop.run_for(ms, clk)
    except KeyboardInterrupt as e:
        assert False, "starved: %s" % e


def test_ctrl_c_and_the_watchdog_are_set_before_the_first_byte_goes_out():
    del events[:]
    real_mp, real_async, real_write = app.micropython, app.asyncio, board.Port.write

    def write(self, buf, n):
        events.append("out")

    app.micropython = FakeMicropython()
    app.asyncio = fakeloop
    machine.WDT = FakeWDT
    board.Port.write = write
    try:
        try:
            app.run(["--port", "/dev/null"])
        except KeyboardInterrupt:
            pass  # fakeloop.run: the app was built and started
    finally:
        app.micropython, app.asyncio, board.Port.write = real_mp, real_async, real_write
    assert "out" in events, events
    first = events.index("out")
    assert "kbd-1" in events[:first], events
    assert "wdt" in events[:first], events


def test_the_heap_is_not_walked_every_frame_on_a_board():
    real = app.gc
    g = app.gc = FakeGC()
    try:
        a, clk = boot(sim=False)
        run_for(10000, clk)
    finally:
        app.gc = real
    assert a.pod.ring.writes >= 400
    assert g.walks <= 3, g.walks  # one every few seconds, not 500


class PressGC(FakeGC):
    # records, for each collection, whether a press was queued or being confirmed then
    def __init__(self):
        FakeGC.__init__(self)
        self.app = None
        self.at = []

    def collect(self):
        if self.app is not None:
            bt = self.app.pod.buttons
            self.at.append((clock.ms(), bt.head != bt.tail or bt.until_due_us() >= 0))


def test_a_collection_waits_for_the_press_and_follows_the_lock():
    # issue 33: an automatic collection (4-5 ms on the emulated Pico) in the middle of a press
    # was what made the slowest presses slow; now the pod collects at moments it chooses
    real = app.gc
    g = app.gc = PressGC()
    try:
        a, clk = boot()
        g.app = a
        run_for(1000, clk)
        for _ in range(5):
            del g.at[:]
            a.hw.pins[2].drive(0)  # READY's contact closes
            a.pod.gc_soon = True  # as a lock would ask for one
            run_for(1, clk)
            assert not g.at, g.at  # not while its confirmation is due
            run_for(60, clk)
            a.hw.pins[2].drive(1)
            run_for(100, clk)
            assert g.at and not any(busy for _, busy in g.at), g.at
            assert not a.pod.gc_soon
    finally:
        app.gc = real


def test_frames_hold_50_hz_when_the_loop_wakes_late():
    a, clk = boot(late=1)
    run_for(1000, clk)
    w0 = a.pod.ring.writes
    run_for(10000, clk)
    n = a.pod.ring.writes - w0
    # 500 frames on the 20 ms grid, plus a wake-up for each link timer
    assert 500 <= n <= 525, n


def test_a_stream_of_nonzero_bytes_starves_neither_frames_nor_the_watchdog():
    a, clk = boot(endless=0x55)
    run_for(2000, clk)
    assert a.port.taken > 10000  # the stream was read all along
    assert a.pod.ring.writes >= 95, a.pod.ring.writes
    gaps = [clock.diff(feeds[i + 1], feeds[i]) for i in range(len(feeds) - 1)]
    assert len(feeds) >= 95 and max(gaps) <= 60, (len(feeds), max(gaps) if gaps else None)


def test_a_press_is_handled_when_its_interrupt_fires_not_at_the_next_poll():
    a, clk = boot()
    run_for(1000, clk)
    s0 = fakeloop.steps
    run_for(1000, clk)
    idle = fakeloop.steps - s0
    assert idle <= 120, idle  # about one wake-up per frame, no 2 ms polling
    bt = a.pod.buttons
    for _ in range(5):
        a.hw.pins[1].drive(0)  # next: the IRQ queues the press
        try:
            fakeloop.settle()  # the loop's passes at this instant, no time passing
        except KeyboardInterrupt as e:
            assert False, e
        assert bt.head == bt.tail, "the press waits for a poll"
        run_for(60, clk)
        a.hw.pins[1].drive(1)
        run_for(60, clk)


def test_flash_error_logging_is_rate_limited():
    import os

    a, clk = boot(sim=False)
    try:
        os.remove(a.log_path)
    except OSError:
        pass
    for i in range(200):  # a fault every frame for 2 s
        a.log("ValueError boom %d" % i)
        clk.advance(10)
    clk.advance(60000)
    a.log("ValueError later")
    with open(a.log_path) as f:
        lines = f.read().splitlines()
    os.remove(a.log_path)
    assert 2 <= len(lines) <= 6, lines
    assert "boom 0" in lines[0], lines
    assert "later" in lines[-1] and "suppressed" in " ".join(lines), lines


run_tests(globals())
