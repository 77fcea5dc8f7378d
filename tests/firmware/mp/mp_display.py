# Ring images and sounds: self-test, countdown, results, FP, priority,
# seat colour, brightness, notices. Fake hardware, fake clock.
import harness
from mptest import run_tests

from harness import seated, pixels, H, BLUE_DIM, WHITE_PRIO, OFF  # noqa: F401


def test_boot_selftest_hello_and_waiting():
    h = H()
    h.run(10)
    assert h.sent()[0][1] == "hello" and h.sent()[0][4][4] == 0x1234
    assert pixels(h)[0] == "ff0000"  # self-test sweep starts red at 12 o'clock
    h.run(1000)
    assert len(h.sent("hello")) == 3  # at boot, 500 ms, 1000 ms: until welcomed
    assert h.ring().count("3c3c3c") == 1  # one dim white pixel walks: waiting for the hub


def test_countdown_ends_at_10_seconds_within_one_frame():
    h = seated()
    beeps = []
    real = h.pod.snd.beep

    def beep(freq, ms, now, vibe_ms=0):
        beeps.append((h.elapsed(), freq))
        real(freq, ms, now, vibe_ms)

    h.pod.snd.beep = beep
    h.run(7)  # start off the 20 ms frame grid
    t0 = h.elapsed()
    h.hub(0x83, 7, 10000)
    h.run(10100)
    e = h.sent("expired")
    assert len(e) == 1 and e[0][4] == (7,), e
    end = e[0][0] - t0
    assert 10000 <= end < 10020, end  # within one 20 ms frame of 10.00 s
    # short beeps on each of the last three seconds, a long one at the end
    marks = [(t - t0, f) for t, f in beeps]
    assert [f for _, f in marks] == [2000, 2000, 2000, 1000], marks
    assert [t // 1000 for t, _ in marks] == [7, 8, 9, 10], marks

def test_countdown_colours_and_smooth_drain():
    h = seated(priority=0)  # pixel 0 shows the arc, not the priority indicator
    h.hub(0x83, 7, 10000)
    t0 = h.elapsed()
    last = None
    for ms, col in ((1000, "green"), (5500, "yellow"), (8100, "vermillion")):
        h.run(ms - (h.elapsed() - t0))
        img = bytes(h.pod.ring.img)
        r, g, b = img[0], img[1], img[2]
        if col == "green":
            assert g > r and g > 0, (r, g, b)
        elif col == "yellow":
            assert r > 2 * b and g > 2 * b and abs(r - g) < 20, (r, g, b)
        else:
            assert r > g > b, (r, g, b)
    # the arc shrinks with time, one partial pixel at its end
    lit = []
    for step in range(5):
        h.run(100)
        cd = h.pod.cd
        lit.append(cd.remaining(h.clk.ms()) * 12 * 255 // cd.total)
    assert lit == sorted(lit, reverse=True)


def test_countdown_stops_when_this_pod_locks():
    h = seated()
    h.hub(0x83, 7, 10000)
    h.run(3000)
    h.press("ready")
    h.run(8000)
    assert not h.sent("expired") and len(h.sent("ready")) == 1


def test_reveal_then_result_animation_then_status():
    h = seated(fp=3)
    h.press("ready")
    h.hub(0x84, 7)
    h.run(20)
    assert h.pod.sel.state == 3 and h.ring().count("ffffff") == 1  # reveal spin
    h.hub(0x85, 1, 2, 0)  # hit
    h.run(20)
    assert pixels(h) == ["009e73"] * 12  # hit: full green flash
    h.hub(0x82, 8, 0, 0, 0, 0, 1, 5, 5000, 5)  # idle, FP now +5
    h.run(1600)
    p = pixels(h)
    assert p[1:6] == ["009e73"] * 5 and p[6] == "001a29"  # +5 FP clockwise; seat marker at 6 o'clock


def test_every_outcome_has_an_animation():
    h = seated()
    dark = "00" * 36
    for code in range(1, 15):  # 14: an outcome newer than this firmware
        h.hub(0x85, code, 0, 0)
        lit = 0
        shown = set()
        for _ in range(30):
            h.run(40)
            r = h.ring()
            shown.add(r)
            lit += r != dark
        assert lit >= 8 and len(shown) >= 2, (code, lit)  # visible, and moving

def test_fp_negative_pattern_and_overflow():
    h = seated(kind=0, fp=-3)
    p = pixels(h)
    assert p[11] == "e69f00" and p[10] == "634400" and p[9] == "e69f00" and p[1] == OFF
    h.hub(0x82, 7, 0, 0, 0, 0, 1, 9, 5000, 5)  # +9 on 12 pixels: 5 shown, last blinks
    frames = set()
    for _ in range(10):
        h.run(100)
        frames.add(pixels(h)[5])
    assert frames == {"009e73", OFF}


def test_priority_indicator():
    h = seated(kind=0, priority=1)
    assert pixels(h)[0] == WHITE_PRIO
    h.hub(0x82, 7, 0, 0, 0, 0, 2, 0, 5000, 5)
    seen = set()
    for _ in range(12):
        h.run(100)
        seen.add(pixels(h)[0])
    assert seen == {"282828", OFF}  # the opponent's: a slow dim blink


def test_seat_two_is_red():
    h = seated(seat=2)
    assert pixels(h)[2] == "3a1900"  # vermillion slot


def test_brightness_page():
    h = seated()
    saved = []
    h.pod.on_bright = saved.append
    lv = h.pod.ring.level
    h.press("back")
    assert h.pod.sel.page == 3
    h.press("next")
    assert h.pod.ring.level > lv
    h.press("ready")
    assert h.pod.sel.page == 0 and saved == [5]


def test_notices():
    h = seated(kind=0)
    h.hub(0x86, 1, 0)  # opponent link lost: paused pattern until it is back
    h.run(3000)
    assert h.pod.notice_code == 1
    h.hub(0x86, 2, 0)
    h.run(20)
    assert h.pod.notice_code == 0
    h.hub(0x86, 6, 0)  # you did not respond in time
    h.run(20)
    assert pixels(h) == ["d55e00"] * 12


run_tests(globals())
