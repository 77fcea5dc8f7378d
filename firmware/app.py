# Start-up and the asyncio tasks around the Pod (pod.py).
#
# On the board main.py calls run() with no arguments: the link is USB CDC
# stdin/stdout. On the unix port (simulation, tests, `lumen demo`):
#   micropython -X heapsize=64K firmware/main.py --port /dev/pts/N [--ctl PATH]
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

_FRAME_MS = const(20)  # 50 Hz ring refresh
_IO_MS = const(2)  # link and button latency bound
_LOG_MAX = const(4096)


def _opt(argv, name, env):
    if name in argv[:-1]:
        return argv[argv.index(name) + 1]
    try:
        return os.getenv(env)
    except AttributeError:  # the board's os has no environment
        return None


class App:
    def __init__(self, argv):
        self.sim = sys.platform == "linux"
        self.hw = board.Hardware(board.load_pinmap(_opt(argv, "--pinmap", "LUMEN_POD_PINMAP") or "pinmap.json"),
                                 self.sim)
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
        self.hw.attach_irqs(p.buttons)
        try:
            with open("bright.txt") as f:
                p.set_bright(int(f.read()))
        except (OSError, ValueError, IndexError):
            pass
        self.heap_peak = 0
        self.quit = False

    def log(self, msg):
        # board: errors.log on flash (started afresh past _LOG_MAX);
        # simulation: stderr (stdout may be the link)
        try:
            if self.sim:
                sys.stderr.write("pod: %s\n" % msg)
                return
            try:
                if os.stat("errors.log")[6] > _LOG_MAX:
                    os.remove("errors.log")
            except OSError:
                pass
            with open("errors.log", "a") as f:
                f.write("%d %s\n" % (clock.ms(), msg))
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
                self.log("task %s" % e)
                await asyncio.sleep_ms(100)

    async def io_task(self):
        # Link bytes and button events, every _IO_MS: the press itself was
        # queued by its interrupt, so a busy loop delays a frame, never loses it.
        port = self.port
        p = self.pod
        bt = p.buttons
        while not port.closed:
            now = clock.ms()
            if port.any():
                while port.any():
                    c = port.read1()
                    if c < 0:
                        break
                    p.rx_byte(c, now)
                p.link.flush(now)
            if bt.head != bt.tail:
                p.input(now)
            await asyncio.sleep_ms(_IO_MS)

    async def frame_task(self):
        p = self.pod
        wdt = machine.WDT(timeout=self.hw.watchdog_ms) if self.hw.watchdog_ms else None
        gc.threshold(4096)  # bounded garbage: collect early, in small pauses
        while True:
            t0 = clock.ms()
            # long presses, repeats, and any edge an interrupt missed; the
            # press itself was queued by its interrupt
            p.buttons.scan(t0)
            p.tick(t0)
            if wdt is not None:
                wdt.feed()
            a = gc.mem_alloc()
            if a > self.heap_peak:
                self.heap_peak = a
            if p.service_request:
                self.enter_service()
            if self.quit or (self.port.closed and self.sim):
                raise SystemExit(0)  # the hub closed our pty: a simulated unplug
            now = clock.ms()
            d = _FRAME_MS - clock.diff(now, t0)
            u = p.until_due(now)
            await asyncio.sleep_ms(max(0, min(d, u)))

    def enter_service(self):
        # Reboot into safe mode: main.py sees the flag file, removes it and
        # stays at the REPL with no watchdog running, so mpremote can copy files.
        self.pod.snd.tick(0, True)
        if self.sim:
            raise SystemExit(3)
        with open("safemode", "w") as f:
            f.write("1")
        machine.reset()

    async def main(self):
        tasks = [self.io_task]
        if self.ctl:
            import simctl  # pyright: ignore[reportMissingImports]  (firmware/sim, simulation only)

            tasks.append(simctl.Control(self, self.ctl).run)
        for fn in tasks:
            asyncio.create_task(self.guard(fn))
        await self.guard(self.frame_task)


def safe_mode():
    # Board only: stay at the REPL when asked to (flag file), or when BACK is
    # held at power-up (recovery if the app itself is broken).
    try:
        os.remove("safemode")
        return True
    except OSError:
        pass
    back = board.load_pinmap()["buttons"].get("back")
    return back is not None and machine.Pin(back, machine.Pin.IN, machine.Pin.PULL_UP).value() == 0


def run(argv=None):
    if hasattr(micropython, "alloc_emergency_exception_buf"):
        micropython.alloc_emergency_exception_buf(100)  # tracebacks from hard IRQs
    if sys.platform != "linux" and safe_mode():
        print("lumen pod: safe mode, REPL free (reset to run)")
        return
    app = App(sys.argv[1:] if argv is None else argv)
    micropython.kbd_intr(-1)  # 0x03 on the link is data, not Ctrl-C
    while True:
        try:
            asyncio.run(app.main())
        except Exception as e:  # tasks are guarded; this is the last net
            app.log("task %s" % e)
        asyncio.new_event_loop()
        gc.collect()
        clock.sleep_ms(500)
