# Start-up and the asyncio tasks around the Pod (pod.py).
#
# On the board main.py calls run() with no arguments: the link is USB CDC
# stdin/stdout. On the unix port (simulation, tests, `lumen demo`):
#   micropython -X heapsize=80K firmware/main.py --port /dev/pts/N [--ctl PATH]
# with MICROPYPATH=firmware:firmware/sim:.frozen (docs/protocol.md "Simulation").
import gc
import os
import sys
import micropython
from micropython import const
import asyncio
import machine
import clock
import board
import pod

_FRAME_MS = const(20)  # 50 Hz ring refresh, on an absolute grid
_MERGE_MS = const(3)  # a timer frame this close to the grid is the grid frame (a frame costs ~2.5 ms on a Pico)
_RX_BUDGET = const(64)  # link bytes per pass (more than one whole frame), then the loop gets a turn
# Garbage collection at moments we choose, never in the middle of a press:
# a collection takes 4-5 ms on the emulated Pico (3.9 ms without the OLED,
# 4.8 with; docs/performance.md), which a press that met one waited out. We
# collect right after a lock or an answer went out, at a reveal or a result,
# and every _GC_EVERY_MS otherwise, each time between frames with no press
# queued or being confirmed; the threshold (half the heap that is free at
# start, at most _GC_THRESHOLD_MAX) is there for a burst only: the steady
# state allocates a few hundred bytes a second (an awaited read, a flag).
_GC_EVERY_MS = const(10000)
_GC_THRESHOLD_MAX = const(98304)
_ERRORS_MAX = const(4096)
_ERRORS_GAP_MS = const(10000)  # at most one errors.log write per 10 s; the rest counted
_OLED_CHUNK = const(32)  # OLED bytes a write: 0.7 ms of I2C at 400 kHz
_OLED_QUIET_MS = const(4)
_SPIN_US = const(1500)  # a button confirmation this close is waited for without sleeping
_SPIN_MAX = const(2000)  # (about 10 ms of spinning on a Pico: far more than _SPIN_US)


def _opt(argv, name, env):
    if name in argv[:-1]:
        return argv[argv.index(name) + 1]
    try:
        return os.getenv(env)
    except AttributeError:  # the board's os has no environment
        return None


def pinmap(argv):
    # (pin map, errors): board.load_pinmap
    return board.load_pinmap(_opt(argv, "--pinmap", "LUMEN_POD_PINMAP") or "pinmap.json")


class Readable:
    # `await r` waits in the event loop's poll (no CPU used) until stream s
    # has a byte: what asyncio.StreamReader does before each read, without
    # loading its class (1.7 KB of heap), and without a new generator at each
    # wait (64 bytes, and an exception, at every burst of link bytes: the
    # garbage that made collections fall due mid-press). Made once; works as
    # asyncio's own SingletonGenerator does. The board's stdin read would
    # block until a whole buffer is filled, so Port.read_into takes the
    # bytes one by one.
    def __init__(self, s):
        self.s = s
        self.waiting = False
        self.exc = StopIteration()

    def __iter__(self):
        return self

    def __next__(self):
        if not self.waiting:
            self.waiting = True
            return asyncio.core._io_queue.queue_read(self.s)  # pyright: ignore[reportAttributeAccessIssue]
        self.waiting = False
        self.exc.__traceback__ = None
        raise self.exc


class App:
    def __init__(self, argv, pm=None, wdt=None):
        self.sim = sys.platform == "linux"
        self.wdt = wdt  # started by run() before any of this is built
        if pm is None:
            pm, errors = pinmap(argv)
            if errors:
                raise ValueError("pin map refused: %s" % errors)
        self.hw = board.Hardware(pm, self.sim)
        path = _opt(argv, "--port", "LUMEN_POD_PORT")
        if path and path != "-":
            f = open(path, "r+b")
            try:
                import termios

                termios.setraw(f.fileno())  # no echo, no ^C/^D/CR mangling on a pty
            except (ImportError, OSError):
                pass
            self.port = board.Port(f, f)
        else:
            self.port = board.Port(sys.stdin.buffer, sys.stdout.buffer)
        self.ctl = _opt(argv, "--ctl", "LUMEN_POD_CTL")
        now = clock.ms()
        p = self.pod = pod.Pod(self.hw, self.port, int.from_bytes(os.urandom(2), "big") | 1, now)
        p.on_log = self.log
        p.on_bright = self.save_bright
        # the input task sleeps until a pin interrupt sets this flag (set() is
        # safe in a hard IRQ: it stores one attribute, allocates nothing)
        self.pressed = asyncio.ThreadSafeFlag()
        p.buttons.wake = self.pressed.set
        self.hw.attach_irqs(p.buttons)
        p.power_up(now)
        self.drawn = asyncio.ThreadSafeFlag()
        if p.screen is not None:
            p.screen.wake = self.drawn.set
            p.oled_in_show = False  # oled_task sends the OLED's changes
        self.rx = bytearray(_RX_BUDGET)
        try:
            with open("bright.txt") as f:
                p.set_bright(int(f.read()))
        except (OSError, ValueError, IndexError):
            pass
        self.heap_peak = 0
        self.gc_at = now
        self.collections = 0  # ours (tests)
        self.log_path = "errors.log"
        self.log_at = now
        self.log_quiet = 0  # messages not written since the last write
        self.log_any = False
        self.quit = False

    def log(self, msg):
        # board: errors.log on flash (started afresh past _ERRORS_MAX), at most
        # one write per _ERRORS_GAP_MS: a fault every frame must not wear the
        # flash or stall the loop. Simulation: stderr (stdout may be the link).
        try:
            if self.sim:
                sys.stderr.write("pod: %s\n" % msg)
                return
            now = clock.ms()
            if self.log_any and clock.diff(now, self.log_at) < _ERRORS_GAP_MS:
                self.log_quiet += 1
                return
            path = self.log_path
            try:
                if os.stat(path)[6] > _ERRORS_MAX:
                    os.remove(path)
            except OSError:
                pass
            with open(path, "a") as f:
                if self.log_quiet:
                    f.write("%d (%d more suppressed)\n" % (now, self.log_quiet))
                f.write("%d %s\n" % (now, msg))
            self.log_quiet = 0
            self.log_at = now
            self.log_any = True
        except Exception:
            pass

    def save_bright(self, idx):
        if not self.sim:
            try:
                with open("bright.txt", "w") as f:
                    f.write(str(idx))
            except OSError:
                pass

    async def guard(self, fn):
        # a task that raises is logged and restarted, never left dead
        while True:
            try:
                return await fn()
            except Exception as e:
                self.log("task %s %s" % (pod.where(e), e))
                await asyncio.sleep_ms(100)

    async def link_task(self):
        # Sleeps until the link has a byte, then reads what is there in one
        # pass of at most _RX_BUDGET bytes and yields: a continuous stream
        # cannot starve the frame task (and with it the watchdog feed).
        port = self.port
        readable = Readable(port.r)
        while not port.closed:
            if not port.any():
                await readable  # pyright: ignore[reportGeneralTypeIssues]  (an iterator, as asyncio's own waits are)
            self.rx_pass()
            await asyncio.sleep_ms(0)

    def rx_pass(self):
        # one budgeted pass over the bytes waiting on the link
        n = self.port.read_into(self.rx, 0)  # n == 0: closed (simulation: the hub closed our pty)
        now = clock.ms()
        self.pod.rx_buf(self.rx, n, now)
        self.pod.link.flush(now)

    async def input_task(self):
        # woken by the pin interrupt (or scan) the moment an event is queued;
        # a lock becomes a frame right here, not at the next poll
        p = self.pod
        bt = p.buttons
        flag = self.pressed
        while True:
            if bt.head == bt.tail:
                # an edge: its confirmation is waited out here, the last stretch
                # spinning (a one-shot machine.Timer armed for it from the pin
                # interrupt fired up to a frame late on the emulated RP2040, and
                # cost a schedule and a Timer.init per edge: docs/performance.md)
                w = bt.until_due_us()
                if w < 0:
                    await flag.wait()  # an edge: its confirmation is due in about a ms
                    continue
                if w > _SPIN_US:
                    await asyncio.sleep_ms(w // 1000)
                elif not spin(w):
                    await asyncio.sleep_ms(1)  # a clock that does not move (a test's): give way
                bt.confirm(clock.ms())
            p.input(clock.ms())

    def frame(self, now):
        p = self.pod
        # long presses, repeats, and any edge an interrupt missed; a press
        # whose confirmation falls due within the next 1.5 ms is confirmed
        # first (its frame goes out before this one is drawn)
        bt = p.buttons
        w = bt.until_due_us()
        if 0 < w <= _SPIN_US:
            spin(w)
        bt.scan(now)
        if bt.head != bt.tail:
            p.input(now)  # a press that came in just now goes out before this frame's drawing
        if self.port.any():
            self.rx_pass()  # and a countdown that came in starts now, not after the drawing
        p.tick(now)
        if self.wdt is not None:
            self.wdt.feed()
        if self.sim:
            self.sample_heap()  # (the simulator's figure; on a board the walk would take 8 ms a frame)
        if p.service_request:
            self.enter_service()
        if self.quit or (self.port.closed and self.sim):
            raise SystemExit(0)  # the hub closed our pty: a simulated unplug

    def sample_heap(self):
        a = gc.mem_alloc()
        if a > self.heap_peak:
            self.heap_peak = a

    async def frame_task(self):
        # Frames on an absolute 20 ms grid, so a late wake-up does not push
        # every later frame back; woken early for a countdown mark or link
        # timer, which does not move the grid.
        p = self.pod
        gc.collect()
        free = gc.mem_free()  # (a walk of the heap: once)
        gc.threshold(free // 2 if free // 2 < _GC_THRESHOLD_MAX else _GC_THRESHOLD_MAX)
        due = clock.ms()
        while True:
            now = clock.ms()
            self.frame(now)
            await asyncio.sleep_ms(0)  # a press or link bytes that came in meanwhile go first
            p.show()
            bt = p.buttons
            if (p.gc_soon or clock.diff(now, self.gc_at) >= _GC_EVERY_MS) and bt.head == bt.tail \
                    and bt.until_due_us() < 0 and p.cd.until_event(now) > 25:
                # after a frame, not inside a press, queued or being confirmed,
                # and not just before a countdown beep or the end
                self.gc_at = now
                await asyncio.sleep_ms(0)
                if bt.head == bt.tail and bt.until_due_us() < 0:
                    gc.collect()
                    p.gc_soon = False
                    self.collections += 1
                else:
                    self.gc_at = clock.add(now, -_GC_EVERY_MS)  # a press came: after it
            if clock.diff(now, due) >= -_MERGE_MS:  # on the grid, or close enough to stand for it
                due = clock.add(due, _FRAME_MS)
                if clock.diff(now, due) >= 0:
                    due = clock.add(now, _FRAME_MS)  # a whole frame behind: skip, no burst
            now = clock.ms()
            w = clock.diff(due, now)
            u = p.until_due(now)
            if u < w + _MERGE_MS:
                w = u  # a countdown mark just after the grid frame: one frame, on the mark, not one before it
            await asyncio.sleep_ms(w if w > 0 else 0)

    def enter_service(self):
        # Reboot into safe mode: main.py sees the flag file, removes it and
        # stays at the REPL with no watchdog running, so mpremote can copy files.
        self.pod.snd.tick(0, True)
        if self.sim:
            raise SystemExit(3)
        with open("safemode", "w") as f:
            f.write("1")
        machine.reset()

    async def oled_task(self):
        # What changed on the OLED, sent in small chunks between the other
        # tasks' turns: a press or a frame waits at most one chunk (under a ms
        # of I2C), never a whole screen; and nothing is sent in the few ms
        # before a countdown mark, whose beep and expiry go first.
        p = self.pod
        sc = p.screen
        if sc is None:
            return
        o = sc.oled
        flag = self.drawn
        while True:
            if not o.dirty():
                await flag.wait()
                continue
            u = p.cd.until_event(clock.ms())
            if u < _OLED_QUIET_MS:
                await asyncio.sleep_ms(u + 1)
                continue
            bt = p.buttons
            if bt.head != bt.tail or bt.until_due_us() >= 0:
                await asyncio.sleep_ms(1)  # a press being confirmed or sent goes first
                continue
            o.flush(_OLED_CHUNK)
            await asyncio.sleep_ms(0)

    async def main(self):
        tasks = [self.link_task, self.input_task]
        if self.pod.screen is not None:
            tasks.append(self.oled_task)
        if self.ctl:
            import simctl  # pyright: ignore[reportMissingImports]  (firmware/sim, simulation only)

            tasks.append(simctl.Control(self, self.ctl).run)
        for fn in tasks:
            asyncio.create_task(self.guard(fn))
        await self.guard(self.frame_task)


def spin(us):
    # wait us microseconds without sleeping (the last stretch of a button's
    # confirmation: the ms tick would add up to a ms to every press); False
    # if the clock did not move (a test's fake one)
    t = clock.us()
    k = 0
    while clock.diff(clock.us(), t) < us:
        k += 1
        if k == _SPIN_MAX:
            return False
    return True


def safe_mode(pm):
    # Board only: stay at the REPL when asked to (flag file), or when BACK is
    # held at power-up (recovery if the app itself is broken).
    try:
        os.remove("safemode")
        return True
    except OSError:
        pass
    back = pm["buttons"].get("back")
    return back is not None and machine.Pin(back, machine.Pin.IN, machine.Pin.PULL_UP).value() == 0


def watchdog(pm):
    ms = pm.get("watchdog_ms", 4000)
    return machine.WDT(timeout=ms) if ms else None


def run(argv=None):
    # 0x03 on the link is data, not Ctrl-C: off before anything is written,
    # or a welcome carrying 0x03 right after the hello drops us into the REPL
    micropython.kbd_intr(-1)
    if hasattr(micropython, "alloc_emergency_exception_buf"):
        micropython.alloc_emergency_exception_buf(100)  # tracebacks from hard IRQs
    argv = sys.argv[1:] if argv is None else argv
    pm, errors = pinmap(argv)
    if errors:
        import refused  # (its own module: no heap for it on a pod whose map is good)

        refused.run(pm, errors)
        return
    if sys.platform != "linux" and safe_mode(pm):
        micropython.kbd_intr(3)
        print("lumen pod: safe mode, REPL free (reset to run)")
        return
    # the watchdog runs before the app is built: a hang in start-up resets too
    app = App(argv, pm, watchdog(pm))
    while True:
        try:
            asyncio.run(app.main())
        except Exception as e:  # tasks are guarded; this is the last net
            app.log("task %s %s" % (pod.where(e), e))
        asyncio.new_event_loop()
        gc.collect()
        clock.sleep_ms(500)
