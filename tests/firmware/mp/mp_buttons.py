# Buttons: lockout debouncing, long press, repeat, the event queue.
import harness
from mptest import run_tests

PRESS, RELEASE, LONG, REPEAT, RELEASE_LONG = 1, 2, 3, 4, 5


def events(h):
    bt = h.pod.buttons
    out = []
    while True:
        e = bt.get()
        if e < 0:
            return out
        out.append((e >> 3, e & 7))


def quiet(h, ms):
    # time passes with scans every 20 ms but nobody draining the queue
    for _ in range(ms // 5):
        h.clk.advance(5)
        h.pod.buttons.scan(h.clk.ms())


def test_bounce_counts_once():
    h = harness.H()
    p = h.pin("ready")
    for lvl in (0, 1, 0, 1, 0, 1, 0):  # contact bounce within 6 ms
        p.drive(lvl)
        h.clk.advance(1)
    quiet(h, 100)
    p.drive(1)
    for lvl in (0, 1):  # release bounce
        h.clk.advance(1)
        p.drive(lvl)
    quiet(h, 100)
    assert events(h) == [(2, PRESS), (2, RELEASE)], events(h)


def test_a_press_counts_once_confirmed_with_its_first_edge_time():
    h = harness.H()
    t0 = h.clk.ms()
    h.pin("next").drive(0)
    assert events(h) == []  # not at the edge itself: a glitch would count
    h.clk.advance(2)
    h.pod.buttons.confirm(h.clk.ms())  # what the input task does when the confirmation falls due
    assert events(h) == [(1, PRESS)]
    assert h.pod.buttons.t_press[1] == t0  # the press keeps its first edge's time


def test_a_1ms_glitch_on_ready_is_not_a_press():
    # issue 20: a 1 ms glitch on READY locked a card (first edge counted)
    h = harness.H()
    p = h.pin("ready")
    for _ in range(5):
        p.drive(0)
        h.clk.advance(1)
        p.drive(1)
        h.pod.buttons.confirm(h.clk.ms())
        quiet(h, 40)
    assert events(h) == [] and h.pod.buttons.glitches == 5


def test_a_release_bounce_never_moves_twice():
    # issue 20: a glitch 30 ms after releasing NEXT counted as a second press
    for glitch in (1, 3, 6):
        h = harness.H()
        p = h.pin("next")
        p.drive(0)
        quiet(h, 60)
        p.drive(1)
        quiet(h, 30)
        p.drive(0)  # the contact rings open, closed, open
        h.clk.advance(glitch)
        p.drive(1)
        quiet(h, 100)
        assert events(h) == [(1, PRESS), (1, RELEASE)], (glitch, events(h))


def test_a_quick_second_tap_still_counts():
    h = harness.H()
    p = h.pin("next")
    for _ in range(2):
        p.drive(0)
        quiet(h, 40)
        p.drive(1)
        quiet(h, 30)  # the next tap 30 ms after the release, held 40 ms: a real press
    quiet(h, 40)
    assert events(h) == [(1, PRESS), (1, RELEASE)] * 2, events(h)


def test_a_tap_shorter_than_the_debounce_time_is_repaired_by_scan():
    h = harness.H()
    p = h.pin("prev")
    p.drive(0)
    h.clk.advance(5)
    p.drive(1)  # inside the lockout: the interrupt ignores it
    quiet(h, 60)  # scan sees the released pin once the lockout is over
    assert events(h) == [(0, PRESS), (0, RELEASE)]


def test_long_press_then_release():
    h = harness.H()
    h.pin("back").drive(0)
    quiet(h, 800)
    h.pin("back").drive(1)
    quiet(h, 40)
    assert events(h) == [(3, PRESS), (3, LONG), (3, RELEASE_LONG)], events(h)


def test_repeat_only_for_prev_and_next():
    h = harness.H()
    h.pin("next").drive(0)
    h.pin("ready").drive(0)
    quiet(h, 650)
    ev = events(h)
    assert ev.count((1, REPEAT)) == 3, ev  # at 400, 520, 640 ms
    assert (2, REPEAT) not in ev


def test_queue_holds_presses_until_drained():
    h = harness.H()
    p = h.pin("next")
    for _ in range(15):  # 15 presses, nobody reading the queue
        p.drive(0)
        h.clk.advance(25)
        p.drive(1)
        h.clk.advance(25)
    ev = events(h)
    assert ev.count((1, PRESS)) == 15 and h.pod.buttons.lost == 0


run_tests(globals())
