# A pin map the rules refuse (firmware/pinmap.py) never runs, and no
# default stands in for it: app.run() hands it here instead of building the
# app. The ring shows "pin map refused" (docs/pod-ring.md: orange and white
# on alternate pixels, breathing) on the map's ring pin where that passed
# (else the carrier's GP16), and the serial port says which key is wrong,
# every 2 s, to whoever opens it (lumen pod test prints it). No watchdog,
# and Ctrl-C works: lumen pod flash can put a good map on without safe mode.
import sys
import micropython
from micropython import const
import machine
import clock

_ORANGE = const(0xE69F00)  # views.py's: against you / something to fix
_WHITE = const(0xFFFFFF)


def draw(r, now):
    # the pattern, on ring.Ring r: nothing else draws alternate orange and white
    t = now % 2000 * 510 // 2000
    k = 70 + (t if t <= 255 else 510 - t) // 2
    for i in range(r.n):
        r.put(i, _ORANGE if i & 1 else _WHITE, k)


def run(pm, errors):
    import pinmap
    import neopixel
    import ring

    lines = pinmap.describe(errors)
    pin, n, first, reverse = pinmap.ring_of(pm, errors)
    if sys.platform == "linux":  # simulation: say it and stop (stdout may be the link)
        for line in lines:
            sys.stderr.write("pod: pin map refused: %s\n" % line)
        raise SystemExit(4)
    try:
        with open("errors.log", "a") as f:
            for line in lines:
                f.write("pin map refused: %s\n" % line)
    except OSError:
        pass
    micropython.kbd_intr(3)
    r = ring.Ring(neopixel.NeoPixel(machine.Pin(pin, machine.Pin.OUT), n),
                  {"pixels": n, "first": first, "reverse": reverse})
    said = clock.add(clock.ms(), -2000)
    while True:
        now = clock.ms()
        r.clear()
        draw(r, now)
        r.show()
        if clock.diff(now, said) >= 2000:
            said = now
            for line in lines:
                print("lumen pod: pin map refused / 핀 맵 거부: %s" % line)
        clock.sleep_ms(20)
