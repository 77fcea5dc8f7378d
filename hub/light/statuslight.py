"""The table status light: a NeoPixel strip on the Pi (Adafruit Blinka +
adafruit-circuitpython-neopixel) showing, for everyone at the table, the
priority side, who has readied (never what), the 10-second countdown and the
match-clock warnings.

It is fed only the table's *public* messages, so it cannot leak a pick.
``open_strip`` returns the real strip on a Pi and a ``RecordingStrip`` (which
keeps every frame shown) anywhere else; tests run the real neopixel library in
Blinka's OS-agnostic mode (``BLINKA_OS_AGNOSTIC=1``) wrapped in a recorder.

Layout of an N-pixel strip (N even, default 16): the left half belongs to 1P
(blue), the right half to 2P (red), the two middle pixels show the match clock.
"""

BLUE = (0, 40, 255)
RED = (255, 20, 0)
WHITE = (255, 255, 255)
YELLOW = (255, 170, 0)
OFF = (0, 0, 0)
DIM = 0.12          # an idle half glows faintly in its seat colour
SEAT_COLOUR = {"a": BLUE, "b": RED}


def _scale(c, f):
    return (int(c[0] * f), int(c[1] * f), int(c[2] * f))


class RecordingStrip:
    """A pixel strip in memory: what a machine without the hardware uses, and what
    tests inspect. Wraps another strip (e.g. Blinka's NeoPixel) when given one."""

    def __init__(self, n, inner=None):
        self.n = n
        self.inner = inner
        self.pixels = [OFF] * n
        self.frames = []

    def __len__(self):
        return self.n

    def __setitem__(self, i, colour):
        self.pixels[i] = tuple(colour)
        if self.inner is not None:
            self.inner[i] = colour

    def __getitem__(self, i):
        return self.pixels[i]

    def fill(self, colour):
        for i in range(self.n):
            self[i] = colour

    def show(self):
        self.frames.append(list(self.pixels))
        if self.inner is not None:
            self.inner.show()


def open_strip(n=16, pin="D18", brightness=0.3):
    """The real strip through Blinka when this is a Pi with it installed, else a recorder."""
    try:
        import board      # noqa: F401  (Blinka)
        import neopixel
        pixels = neopixel.NeoPixel(getattr(board, pin), n, brightness=brightness, auto_write=False)
        return RecordingStrip(n, inner=pixels)
    except Exception:      # not a Pi, or Blinka missing: keep the frames in memory
        return RecordingStrip(n)


class StatusLight:
    def __init__(self, strip):
        self.strip = strip
        self.n = len(strip)
        self.half = (self.n - 2) // 2
        self.priority = None
        self.ready = {"a": {"locked": False, "ms_left": None}, "b": {"locked": False, "ms_left": None}}
        self.clock_colour = "normal"
        self.winner = None

    def on_message(self, audience, msg):
        """Subscribe this to a Table: it reads public messages only."""
        if audience != "public":
            return
        view = msg.get("view")
        if view:
            self.priority = view.get("priority", self.priority)
            self.ready = view.get("ready") or self.ready
            self.winner = view.get("winner")
        timer = msg.get("timer")
        if timer:
            self.clock_colour = timer.get("colour", "normal")
        if view or timer or msg.get("t") == "ready_locked":
            if msg.get("t") == "ready_locked":
                seat = msg.get("seat")
                if seat in self.ready:
                    self.ready[seat] = dict(self.ready[seat], locked=True)
            self.render()

    def countdown(self, seat, ms_left):
        """Redraw one seat's countdown (the hub calls this as time passes)."""
        self.ready[seat] = dict(self.ready[seat], ms_left=ms_left)
        self.render()

    def frame(self):
        """The pixels as they should look now."""
        px = [OFF] * self.n
        for seat, start in (("a", 0), ("b", self.half + 2)):
            colour = SEAT_COLOUR[seat]
            r = self.ready.get(seat) or {}
            if self.winner in ("a", "b"):
                fill = colour if self.winner == seat else OFF
                for i in range(self.half):
                    px[start + i] = fill
                continue
            if r.get("locked"):
                base = WHITE                              # readied (never what)
                lit = self.half
            elif r.get("ms_left") is not None:
                base = colour                             # this seat's 10 s are running
                lit = max(0, min(self.half, (r["ms_left"] * self.half + 9999) // 10000))
                if r["ms_left"] <= 3000:
                    base = YELLOW
            else:
                base = _scale(colour, DIM)
                lit = self.half
            for i in range(self.half):
                # a seat's half drains toward the middle of the table
                idx = start + i if seat == "b" else start + self.half - 1 - i
                px[idx] = base if i < lit else OFF
            if self.priority == seat:                      # priority: the outer pixel at full colour
                px[start if seat == "a" else self.n - 1] = colour
        mid = {"normal": OFF, "yellow": YELLOW, "red": RED}.get(self.clock_colour, OFF)
        px[self.half] = mid
        px[self.half + 1] = mid
        return px

    def render(self):
        for i, c in enumerate(self.frame()):
            self.strip[i] = c
        self.strip.show()
