# The builder's self-test (issue 20): entered with READY held at power-up
# (no hub) or by the hub's `selftest` message; an RGBW sweep, a beep and a
# motor pulse, each button lighting its own quadrant with a beep, and each
# part's result reported in `test` frames. Fake hardware, fake clock.
import harness
from mptest import run_tests

from harness import H, hues, WHITE, GREEN  # noqa: F401

RING, PIEZO, MOTOR, OLED, PREV, NEXT, READY, BACK = 1, 2, 3, 4, 5, 6, 7, 8
OK, SHOWN, FAILED, ABSENT = 1, 2, 3, 4


def full_fills(h, ms):
    # the colours the whole ring was filled with, frame by frame
    out = []
    for _ in range(ms // 20):
        h.run(20)
        img = bytes(h.pod.ring.img)
        if all(img[i:i + 3] == img[0:3] for i in range(0, len(img), 3)) and any(img):
            c = img[0] << 16 | img[1] << 8 | img[2]
            if not out or out[-1] != c:
                out.append(c)
    return out


def test_ready_held_at_power_up_starts_the_self_test_with_no_hub():
    h = H()
    h.down("ready")
    h.pod.power_up(h.clk.ms())
    assert h.pod.test.active
    vibe = h.pod.hw.vibe
    h.run(40)
    assert vibe.value() == 1 and h.pod.snd.pwm.duty and h.pod.snd.pwm.hz == 4000  # a beep and a motor pulse
    h.up("ready")
    assert full_fills(h, 5000) == [0xFF0000, 0x00FF00, 0x0000FF, 0xFFFFFF]  # the RGBW sweep
    assert not h.pod.link.up


def test_each_button_lights_its_quadrant_and_beeps():
    h = H()
    h.run(1000)
    h.pod.self_test().start(h.clk.ms())
    h.run(5000)  # past the sweep
    quads = {}
    for name in ("prev", "next", "ready", "back"):
        b0 = h.pod.snd.beeps
        h.press(name, hold=60, gap=20)
        quads[name] = [i for i in range(12) if hues(h)[i] == WHITE]
        assert h.pod.snd.beeps == b0 + 1 and h.pod.snd.pwm.hz == 4000, name
        h.run(500)
    assert quads == {"prev": [8, 9, 10], "next": [2, 3, 4], "ready": [5, 6, 7], "back": [0, 1, 11]}, quads
    assert hues(h).count(GREEN) == 12  # all four tested: every quadrant dim green
    assert h.pod.sel.state == 0 and not h.sent("claim")  # presses in the test go nowhere else


def test_the_hub_starts_it_and_hears_each_result():
    h = harness.seated()
    h.hub(0x89, 1)  # ext 1
    h.hub(0x8B, 1)  # selftest: start
    h.run(100)
    assert h.pod.test.active
    for name in ("prev", "next", "ready", "back"):
        h.press(name)
    h.run(5500)
    res = {f[4][0]: f[4][1] for f in h.sent("test")}
    assert res == {RING: SHOWN, PIEZO: SHOWN, MOTOR: SHOWN, OLED: ABSENT, PREV: OK, NEXT: OK, READY: OK,
                   BACK: OK}, res
    assert len(h.sent("test")) == 8  # each once
    h.down("back")
    h.run(900)  # held: leave the test
    h.up("back")
    h.run(100)
    assert not h.pod.test.active and h.pod.sel.state == 1  # back at the prompt it was showing


def test_the_hub_stops_it():
    h = harness.seated()
    h.hub(0x8B, 1)
    h.run(200)
    h.hub(0x8B, 0)
    h.run(100)
    assert not h.pod.test.active and not h.sent("test")  # a hub without ext 1 gets no reports


run_tests(globals())
