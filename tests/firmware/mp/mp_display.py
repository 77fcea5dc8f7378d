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
    assert harness.hues(h).count(harness.SKY) == 1  # one sky-blue pixel walks: waiting for the hub


def test_countdown_ends_at_10_seconds_within_one_frame():
    h = seated()
    beeps = []
    real = h.pod.snd.beep

    def beep(freq, ms, now, vibe_ms=0, count=1, gap=60):
        beeps.append((h.elapsed(), freq, ms))
        real(freq, ms, now, vibe_ms, count, gap)

    h.pod.snd.beep = beep
    h.run(7)  # start off the 20 ms frame grid
    t0 = h.elapsed()
    h.hub(0x83, 7, 10000)
    h.run(10100)
    e = h.sent("expired")
    assert len(e) == 1 and e[0][4] == (7,), e
    end = e[0][0] - t0
    assert 10000 <= end < 10020, end  # within one 20 ms frame of 10.00 s
    # short beeps on each of the last three seconds, a long one at the end,
    # all at the piezo's resonance (the PS1240's 4 kHz)
    marks = [(t - t0, f, ms) for t, f, ms in beeps]
    assert [ms for _, _, ms in marks] == [80, 80, 80, 400], marks
    assert {f for _, f, _ in marks} == {4000}, marks
    assert [t // 1000 for t, _, _ in marks] == [7, 8, 9, 10], marks


def test_countdown_head_drains_and_flashes_yellow_in_the_last_seconds():
    h = seated(priority=0)
    h.hub(0x83, 7, 10000)
    t0 = h.elapsed()
    heads = []
    for ms in (500, 2500, 4500, 6500, 8500, 9500):
        h.run(ms - (h.elapsed() - t0))
        hs = harness.hues(h)
        ys = [i for i in range(12) if hs[i] == harness.YELLOW]
        assert ys, (ms, hs)
        heads.append(max(ys))
    assert heads == sorted(heads, reverse=True) and heads[0] > heads[-1], heads
    # each of the last three seconds: a yellow flash over the time left, never vermillion
    h.run(7900 - (h.elapsed() - t0))
    seen = set()
    for _ in range(10):
        h.run(10)
        seen.update(harness.hues(h))
    assert harness.YELLOW in seen and harness.VERMILLION not in seen, seen


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
    assert p[1:6] == ["009e73"] * 5 and p[6] == "003553"  # +5 FP clockwise; seat marker at 6 o'clock


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
    h.hub(0x82, 7, 0, 0, 0, 0, 1, 12, 5000, 5)  # +12 on 12 pixels: 11 shown, the last blinks
    frames = set()
    for _ in range(10):
        h.run(100)
        frames.add(pixels(h)[11])
    assert frames == {"009e73", OFF}


def test_priority_indicator():
    h = seated(kind=0, priority=1)
    assert pixels(h)[0] == WHITE_PRIO
    h.hub(0x82, 7, 0, 0, 0, 0, 2, 0, 5000, 5)
    seen = set()
    for _ in range(12):
        h.run(100)
        seen.add(pixels(h)[0])
    assert seen == {"5a5a5a", OFF}  # the opponent's: a slow blink


def test_seat_two_is_red():
    h = seated(seat=2)
    assert pixels(h)[2] == "7d3700"  # vermillion slot


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
    assert h.pod.sel.page == 0 and saved == [7]


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
    assert pixels(h) == ["e69f00"] * 12  # orange: against you


run_tests(globals())
