# The pin map's rules, in one place for the pod and the hub: the firmware
# checks /pinmap.json with them at power-up (board.load_pinmap), and
# `lumen pod image` and `lumen pod flash` check a map with the same file
# before it goes on a pod (hub/pods/pinmaps.py imports it under CPython).
# Plain Python that both run: no micropython imports, no f-strings.
#
# A map the rules refuse never runs: the pod shows the "pin map refused"
# pattern on its ring (docs/pod-ring.md) instead of guessing what was meant.

BOARDS = ("pico", "pico2")
BUTTONS = ("prev", "next", "ready", "back")
PIXELS_MIN = 8  # the ring language needs a quarter of at least two pixels
PIXELS_MAX = 32
WATCHDOG_MAX_MS = 8000  # the RP2040's watchdog tops out at 8.3 s
RING_KEYS = ("pin", "pixels", "first", "reverse")
OLED_KEYS = ("i2c", "sda", "scl", "addr", "width", "height", "freq")
TOP_KEYS = ("board", "name", "ring", "buttons", "active_low", "piezo", "vibe", "oled", "watchdog_ms")


def on_header(p):
    # the GPIOs on the Pico's and the Pico 2's header: GP0-GP22 and GP26-GP28
    # (GP23-25 and GP29 drive the board's own power supply, VBUS sense and LED)
    return 0 <= p <= 22 or 26 <= p <= 28


def _int(v):
    # JSON's true/false are ints to Python: never a pin or a count
    return isinstance(v, int) and not isinstance(v, bool)


def _num(v):
    # v when it is a number (not a bool), else None
    return v if isinstance(v, int) and not isinstance(v, bool) else None


def check(pm, board=None):
    # [(key, why)] for each rule pm breaks, [] when the pod can use it;
    # board: the board it is for ("pico", "pico2"; None: either)
    out = []
    if not isinstance(pm, dict):
        return [("", "the pin map is not a JSON object {...}")]
    for k in pm:
        if k not in TOP_KEYS:
            out.append((k, "unknown key (known: %s)" % ", ".join(TOP_KEYS)))
    b = pm.get("board")
    if b not in BOARDS:
        out.append(("board", "must be one of %s, not %r" % (", ".join(BOARDS), b)))
    elif board is not None and b != board:
        out.append(("board", "this map is for a %s, not for a %s" % (b, board)))
    used = {}  # GPIO -> the key that has it

    def pin(key, v, may_be_null=False):
        if v is None and may_be_null:
            return False
        if not _int(v):
            out.append((key, "must be a GPIO number%s, not %r" % (" or null" if may_be_null else "", v)))
            return False
        if not on_header(v):
            out.append((key, "GP%d is not a GPIO on the board's header (GP0-GP22, GP26-GP28)" % v))
            return False
        if v in used:
            out.append((key, "GP%d is already %s" % (v, used[v])))
            return False
        used[v] = key
        return True

    rg = pm.get("ring")
    if not isinstance(rg, dict):
        out.append(("ring", "required: {\"pin\": GPIO, \"pixels\": 12 or 16, \"first\": 0, \"reverse\": false}"))
    else:
        for k in rg:
            if k not in RING_KEYS:
                out.append(("ring." + k, "unknown key (known: %s)" % ", ".join(RING_KEYS)))
        pin("ring.pin", rg.get("pin"))
        n = _num(rg.get("pixels"))
        if n is None or not PIXELS_MIN <= n <= PIXELS_MAX:
            out.append(("ring.pixels", "must be a pixel count from %d to %d (the rings are 12 and 16), not %r"
                        % (PIXELS_MIN, PIXELS_MAX, rg.get("pixels"))))
        else:
            f = rg.get("first", 0)
            if not _int(f) or not 0 <= f < n:
                out.append(("ring.first", "must be the pixel at 12 o'clock, 0 to %d, not %r" % (n - 1, f)))
        if not isinstance(rg.get("reverse", False), bool):
            out.append(("ring.reverse", "must be true or false, not %r" % (rg.get("reverse"),)))
    bt = pm.get("buttons")
    if not isinstance(bt, dict):
        out.append(("buttons", "required: {\"prev\": GPIO, \"next\": GPIO, \"ready\": GPIO, \"back\": GPIO}"))
    else:
        for k in bt:
            if k not in BUTTONS:
                out.append(("buttons." + k, "unknown button (the buttons are %s)" % ", ".join(BUTTONS)))
        for k in BUTTONS:
            if k not in bt:
                out.append(("buttons." + k, "missing (a GPIO, or null for a pod without it)"))
            elif k == "ready" and bt[k] is None:
                out.append(("buttons.ready", "a pod needs READY: it locks every ready"))
            else:
                pin("buttons." + k, bt[k], True)
    if not isinstance(pm.get("active_low", True), bool):
        out.append(("active_low", "must be true or false, not %r" % (pm.get("active_low"),)))
    for k in ("piezo", "vibe"):
        pin(k, pm.get(k), True)
    o = pm.get("oled")
    if o is not None:
        if not isinstance(o, dict):
            out.append(("oled", "must be null or {\"i2c\": 0, \"sda\": GPIO, \"scl\": GPIO, ...}"))
        else:
            for k in o:
                if k not in OLED_KEYS:
                    out.append(("oled." + k, "unknown key (known: %s)" % ", ".join(OLED_KEYS)))
            bus = o.get("i2c", 0)
            if bus not in (0, 1) or not _int(bus):
                out.append(("oled.i2c", "must be the I2C bus 0 or 1, not %r" % (bus,)))
                bus = None
            for k, even in (("sda", 0), ("scl", 1)):
                v = o.get(k)
                g = _num(v)
                if pin("oled." + k, v) and bus is not None and g is not None and (g & 1 != even or g >> 1 & 1 != bus):
                    out.append(("oled." + k, "GP%d is not an %s pin of I2C%d (GP%s)" % (
                        v, k.upper(), bus, ", GP".join(str(g) for g in range(2 * bus + even, 29, 4) if on_header(g)))))
            if o.get("addr", 60) not in (60, 61):
                out.append(("oled.addr", "an SSD1306 answers at 60 (0x3C) or 61 (0x3D), not %r" % (o.get("addr"),)))
            if o.get("width", 128) != 128:
                out.append(("oled.width", "must be 128, not %r" % (o.get("width"),)))
            if o.get("height", 32) not in (32, 64):
                out.append(("oled.height", "must be 32 or 64, not %r" % (o.get("height"),)))
            f = o.get("freq", 400000)
            if not _int(f) or not 10000 <= f <= 1000000:
                out.append(("oled.freq", "must be an I2C clock in Hz, 10000 to 1000000, not %r" % (f,)))
    w = pm.get("watchdog_ms", 4000)
    if not _int(w) or not (w == 0 or 1000 <= w <= WATCHDOG_MAX_MS):
        out.append(("watchdog_ms", "must be 0 (off) or 1000 to %d ms, not %r" % (WATCHDOG_MAX_MS, w)))
    return out


def parse(text, board=None):
    # (pin map, [(key, why)]) from a file's text; the map is None when it is not JSON
    import json

    try:
        pm = json.loads(text)
    except ValueError as e:
        return None, [("", "not valid JSON (%s)" % (e,))]
    return pm, check(pm, board)


def describe(errors):
    # one line per broken rule: "key: why"
    return ["%s: %s" % (k, why) if k else why for k, why in errors]


def ring_of(pm, errors):
    # (pin, pixels, first, reverse) to show the refusal on: the map's own
    # where its ring keys passed, else the carrier board's (GP16, 12 pixels)
    bad = [k for k, _ in errors]
    rg = pm.get("ring") if isinstance(pm, dict) else None
    if not isinstance(rg, dict) or "ring" in bad:
        return 16, 12, 0, False
    return (16 if "ring.pin" in bad else rg["pin"], 12 if "ring.pixels" in bad else rg["pixels"],
            0 if "ring.first" in bad or "ring.pixels" in bad else rg.get("first", 0),
            False if "ring.reverse" in bad else rg.get("reverse", False))
