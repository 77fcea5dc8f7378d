# The ring's current stays within its budget whatever the pixel count and
# pattern (ring.py _LED_MA, hardware/README.md "Power budget"); sparse
# patterns keep their brightness.
import json
import board
import ring
import neopixel
import machine
from mptest import run_tests

CH_MA = 20  # one WS2812B colour channel at 255
BUDGET_MA = 110


def led_ma(r):
    # what the LEDs draw for the bytes the driver was given
    return sum(r.np.buf) * CH_MA / 255


def make(pixels):
    pm = json.loads(board.DEFAULT)
    pm["ring"]["pixels"] = pixels
    np = neopixel.NeoPixel(machine.Pin(16, machine.Pin.OUT), pixels)
    return ring.Ring(np, pm["ring"])


def test_full_white_at_the_top_step_stays_within_the_budget():
    for n in (12, 16, 24):
        r = make(n)
        r.level = 144
        r.fill(0xFFFFFF)
        r.show()
        # the round-up of each byte may add at most 1 a byte
        assert led_ma(r) <= BUDGET_MA + 3 * n * CH_MA / 255, (n, led_ma(r))
        assert led_ma(r) >= BUDGET_MA * 0.9, (n, led_ma(r))  # dimmed to the budget, not to black


def test_a_sparse_frame_keeps_its_level():
    r = make(16)
    r.level = 48
    r.put(0, 0xFFFFFF)
    r.put(5, 0x009E73, 70)
    r.show()
    assert r.np.buf[0:3] == bytearray((48, 48, 48))


def test_every_brightness_step_of_every_colour_fill():
    import selection

    for n in (12, 16):
        r = make(n)
        for lv in selection.BRIGHT_LEVELS:
            for col in (0xFFFFFF, 0xD55E00, 0x009E73, 0xF0E442, 0xCC79A7):
                r.level = lv
                r.fill(col)
                r.show()
                assert led_ma(r) <= BUDGET_MA + 3 * n * CH_MA / 255, (n, lv, hex(col), led_ma(r))


run_tests(globals())
