# Simulator control channel (unix port only, never on a board).
#
# One ASCII command per line on the --ctl stream (a pty, FIFO pair or any
# read/write device); one reply line each. This is how `lumen demo` bots and
# the benchmarks press buttons: the command drives the fake pin, which fires
# the same interrupt handler a real contact would.
#
#   press NAME [MS]   a press of MS ms (default 60); "ok" once released
#   down NAME / up NAME                                        -> ok
#   ring              current logical ring image               -> ring RRGGBB...
#   screen            the simulated OLED's RAM (none: 0)         -> screen H HEX
#   lat               us from the last down/press to its frame -> lat N
#   stats             figures                                  -> stats k=v ...
#   gc                collect, then heap figures               -> heap live=N free=N
#   quit              exit the pod process                     -> ok
# NAME is prev | next | ready | back.
import gc
import asyncio
import time
import machine
import board
import clock



class Control:
    def __init__(self, app, path):
        self.app = app
        # the hub made this pty raw before starting us; setting it again
        # here could flush a command already waiting
        self.f = open(path, "r+b")
        self.port = board.Port(self.f, self.f)
        self.line = bytearray(64)
        # press-to-frame latency inside the pod: from the simulated contact
        # to the ready/answer frame written on the link (for bench/pod.py)
        self.t_down = -1
        self.lat = -1
        port = app.port
        write = port.write

        def timed(buf, n):
            write(buf, n)
            if self.t_down >= 0 and n > 3 and (buf[2] == 2 or buf[2] == 3):
                self.lat = time.ticks_diff(time.ticks_us(), self.t_down)
                self.t_down = -1

        port.write = timed
        self.n = 0

    def pin(self, name):
        pm = self.app.hw.pins
        i = board.BUTTONS.index(name)
        return pm[i]

    async def do(self, words):
        app = self.app
        pod = app.pod
        cmd = words[0]
        if cmd in ("press", "down", "up"):
            p = self.pin(words[1])
            act = app.hw.active
            if cmd == "up":
                p.drive(1 - act)
            else:
                self.t_down = time.ticks_us()
                p.drive(act)
                if cmd == "press":
                    ms = int(words[2]) if len(words) > 2 else 60
                    i = board.BUTTONS.index(words[1])
                    bt = pod.buttons
                    if ms < 400:
                        # shorter than the auto-repeat delay: a tap. Its contact
                        # time is counted as held (a simulated tap is never a
                        # glitch), it is confirmed and opens again at once, so a
                        # loaded machine that runs this process late can never
                        # turn it into a held button that repeats (issue 16)
                        bt.t_raw[i] = clock.add(bt.t_raw[i], -20)
                        bt.t_us[i] = clock.add(bt.t_us[i], -20000)
                        bt.confirm(clock.ms())
                    else:
                        await asyncio.sleep_ms(ms)
                    p.drive(1 - act)
                    # answered once the release counted and the re-arm time
                    # passed, so a bot that waits for "ok" never merges two presses
                    while bt.down[i]:
                        await asyncio.sleep_ms(2)
                    await asyncio.sleep_ms(25)  # (the pace bots and tests were made with)
            return "ok"
        if cmd == "lat":  # us from the last press to its frame, -1 if none
            return "lat %d" % self.lat
        if cmd == "ring":
            return "ring " + bytes(pod.ring.img).hex()
        if cmd == "screen":  # the simulated OLED's display RAM, rows 0..h-1
            dev = machine.I2C.device
            if pod.screen is None or dev is None or dev == "sim":
                return "screen 0"
            return "screen %d %s" % (dev.h, bytes(dev.ram[:dev.h * 16]).hex())
        if cmd == "stats":
            lk = pod.link
            return ("stats ring_writes=%d heap_peak=%d heap_now=%d frames_in=%d rx_errors=%d sent=%d resent=%d "
                    "dups=%d faults=%d lost_presses=%d state=%d up=%d") % (
                pod.ring.writes, app.heap_peak, gc.mem_alloc(), lk.dec.frames, lk.dec.errors, lk.sent,
                lk.resent, lk.dups, pod.faults, pod.buttons.lost, pod.sel.state, lk.up)
        if cmd == "gc":
            gc.collect()
            return "heap live=%d free=%d" % (gc.mem_alloc(), gc.mem_free())
        if cmd == "quit":
            self.app.quit = True
            return "ok"
        return "err unknown command"

    async def run(self):
        port = self.port
        self.f.write(b"ready\n")  # the hub waits for this before its first command
        while not port.closed:
            while port.any():
                c = port.read1()
                if c == 10 or c == 13:
                    if self.n:
                        words = bytes(self.line[: self.n]).decode().split()
                        self.n = 0
                        try:
                            r = await self.do(words)
                        except Exception as e:
                            r = "err %s" % e
                        self.f.write(r.encode() + b"\n")
                elif c >= 0 and self.n < len(self.line):
                    self.line[self.n] = c
                    self.n += 1
            await asyncio.sleep_ms(2)
