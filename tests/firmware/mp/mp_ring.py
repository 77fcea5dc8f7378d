# Issue 20: the ring as a new player reads it at a lit table, and input
# you can trust. Each test pins one defect of the 0.4 firmware (it fails
# there). Fake hardware, fake clock; tests/rp2 checks the same on the
# emulated Pico's real pixels.
import harness
from mptest import run_tests

from harness import seated, H, hue, hues  # noqa: F401
from harness import BLUE, VERMILLION, GREEN, ORANGE, YELLOW, SKY, PURPLE, WHITE  # noqa: F401


def countdown_pixels(h, seat_col):
    # pixels that show time: neither a slot (seat colour, purple pass), the
    # cursor (white), the priority pixel 0, nor off
    return [i for i in range(1, h.pod.ring.n) if hues(h)[i] not in (None, seat_col, PURPLE, WHITE)]


def test_the_countdown_stays_visible_while_choosing():
    # 0.4: the option pixels covered the arc (10 cards + pass: none left; 3
    # cards: the arc gone in the last 3 s)
    for options, flags in ((1, 0), (3, 0), (10, 1)):
        h = None
        h = seated(options=options, flags=flags, priority=1)
        h.hub(0x83, 7, 10000)
        t0 = h.elapsed()
        lit = []
        for ms in range(300, 9800, 700):
            h.run(ms - (h.elapsed() - t0))
            shown = set()
            for _ in range(3):  # the cursor may sit on the time's head a third of the time
                h.run(40)
                shown.update(countdown_pixels(h, BLUE))
            assert shown, (options, ms, hues(h))
            lit.append(max(shown))
        assert lit == sorted(lit, reverse=True) and lit[0] > lit[-1], (options, lit)


def test_locked_has_a_pattern_of_its_own():
    # 0.4 tracker mode: choosing and locked were both the seat colour breathing
    h = seated(mode=2, options=0)
    choosing = set()
    for _ in range(20):
        h.run(100)
        choosing.add(h.ring())
    h.press("ready")
    locked = set()
    for _ in range(20):
        h.run(100)
        locked.add(h.ring())
    assert len(locked) == 1, "locked is solid, not breathing"
    assert not choosing & locked and len(choosing) > 1


def test_fp_reads_exactly_from_minus_9_to_plus_9():
    # 0.4: 5 pixels per sign, so +5 and +9 looked the same
    images = {}
    for fp in range(-9, 10):
        h = None
        h = seated(kind=0, fp=fp, priority=0)
        for _ in range(4):  # the same at any moment: no blinking stands for "more"
            h.run(70)
            images.setdefault(fp, set()).add(h.ring())
        hs = hues(h)
        assert hs.count(GREEN if fp > 0 else ORANGE) == abs(fp) if fp else GREEN not in hs, (fp, hs)
    assert all(len(v) == 1 for v in images.values()), images
    assert len(set(v.pop() for v in images.values())) == 19


def test_each_colour_has_one_meaning():
    # 0.4: vermillion meant 2P, the last 3 s and a loss at once
    h = seated(seat=2, options=3)
    h.hub(0x83, 7, 10000)
    h.run(7000)
    seen = set()
    for _ in range(150):  # the last three seconds with their flashes: yellow, never the 2P colour
        h.run(20)
        seen.update(hues(h)[4:])  # the pixels with no slot: only the time
    assert YELLOW in seen and VERMILLION not in seen, seen
    h = seated(seat=2)
    arc = set()
    h.hub(0x85, 8, -2, -700)  # was_hit: a loss
    for _ in range(30):
        h.run(40)
        arc.update(hues(h))
    assert VERMILLION not in arc and ORANGE in arc, arc
    h = seated(seat=2, kind=0, fp=-3)
    h.hub_alive = False
    h.run(2500)  # link lost
    assert ORANGE not in hues(h) and SKY in hues(h), hues(h)  # orange is -FP, not the link


def test_default_brightness_reads_in_a_lit_room():
    # 0.4: option pixels at 6-10/255 and the opponent's priority blink at 8/255
    h = seated(options=5, priority=2)
    seen0 = 0
    for _ in range(12):
        h.run(100)
        buf = h.pod.ring.np.buf  # what the LEDs get (G R B)
        seen0 = max(seen0, buf[0], buf[1], buf[2])
        slot = max(buf[3 * 2], buf[3 * 2 + 1], buf[3 * 2 + 2])
        assert slot >= 40, slot
    assert seen0 >= 40, seen0
    assert sum(h.pod.ring.np.buf) * 20 // 255 <= 110 + 12  # and within the ring's current budget


def test_link_lost_still_shows_whether_you_locked():
    # 0.4: the same amber pulse either way
    images = []
    for lock in (False, True):
        h = None
        h = seated(options=4)
        if lock:
            h.press("ready")
        h.hub_alive = False
        h.run(2500)
        assert not h.pod.link.up
        images.append(hues(h))
    assert BLUE not in images[0] and images[1].count(BLUE) >= 6, images


def test_with_no_hub_each_button_lights_its_quadrant():
    # 0.4: PREV/NEXT showed nothing before a hub answered
    h = H()
    h.run(1000)
    lit = {}
    for name in ("prev", "next", "ready", "back"):
        h.press(name, hold=60, gap=10)
        lit[name] = [i for i in range(12) if hues(h)[i] == WHITE]
        h.run(500)
    assert lit["back"] == [0, 1, 11] and lit["next"] == [2, 3, 4], lit
    assert lit["ready"] == [5, 6, 7] and lit["prev"] == [8, 9, 10], lit


def test_every_alert_is_at_the_piezos_resonance():
    # 0.4: 2 kHz, 1 kHz and 500 Hz on a PS1240 rated at 4 kHz
    h = seated(options=3)
    freqs = set()
    real = h.pod.snd.pwm.freq

    def freq(f):
        freqs.add(f)
        real(f)

    h.pod.snd.pwm.freq = freq
    h.press("next")
    h.hub(0x83, 7, 4000)
    h.run(4200)  # ticks, the end
    h.hub(0x82, 8, 1, 3, 0, 0, 1, 0, 5000, 3)
    h.press("ready")
    h.hub(0x85, 1, 2, 0)  # a win
    h.run(400)
    h.hub(0x85, 8, -2, -500)  # a loss
    h.run(400)
    h.hub(0x86, 6, 0)  # no response
    h.run(1200)
    assert freqs == {4000}, freqs
    assert h.pod.snd.beeps >= 8


def test_a_1ms_glitch_on_ready_does_not_lock():
    # 0.4: the first edge locked the card
    h = seated(options=5)
    for _ in range(3):
        h.down("ready")
        h.run(1)
        h.up("ready")
        h.run(50)
    assert not h.sent("ready") and h.pod.sel.state == 1
    h.press("ready")  # a real press still locks
    assert len(h.sent("ready")) == 1


def test_a_release_bounce_after_next_moves_the_cursor_once():
    # 0.4: a glitch 30 ms after releasing NEXT moved the cursor twice
    h = seated(options=5)
    h.down("next")
    h.run(60)
    h.up("next")
    h.run(30)
    h.down("next")
    h.run(2)
    h.up("next")
    h.run(100)
    assert h.pod.sel.cursor == 1, h.pod.sel.cursor


def test_a_ready_is_timed_by_its_first_edge():
    # a confirmed press keeps its first edge's time: with a hub that speaks
    # extension 1 the frame says how long ago that was
    h = seated(options=5)
    h.hub(0x89, 1)  # ext 1
    h.run(7)
    h.down("ready")
    h.run(30)
    h.up("ready")
    r = h.sent("ready_at")
    assert len(r) == 1 and not h.sent("ready"), h.sent()
    prompt, slot, age = r[0][4]
    assert (prompt, slot) == (7, 1) and 1 <= age <= 3, r


def test_a_press_confirmed_after_the_end_of_the_countdown_still_counts():
    # its first edge was in time: the pod sends the ready, not its own expiry
    h = seated(options=5)
    h.hub(0x89, 1)
    h.hub(0x83, 7, 1000)
    h.run(999)
    h.down("ready")
    h.run(40)
    h.up("ready")
    h.run(200)
    assert len(h.sent("ready_at")) == 1 and not h.sent("expired"), h.sent()
    assert h.sent("ready_at")[0][4][2] >= 1


run_tests(globals())
