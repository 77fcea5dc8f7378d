# Scripted button sequences -> frames: the selection state machine, prompt
# and tracker modes, seating. Fake hardware, fake clock (no timing asserts).
import harness
from mptest import run_tests

from harness import seated, pixels, H, BLUE_DIM, WHITE_PRIO, OFF  # noqa: F401


def test_a_lock_a_reveal_and_a_result_are_moments_to_collect():
    # app.py collects garbage at these, between frames, never inside a press
    h = seated()
    assert not h.pod.gc_soon
    h.press("next")
    assert not h.pod.gc_soon  # a cursor move is not one
    h.press("ready")
    assert h.pod.gc_soon  # the lock went out: the press is over
    for t, vals in ((0x84, (7,)), (0x85, (1, 1, 0))):  # reveal, result
        h.pod.gc_soon = False
        h.hub(t, *vals)
        h.run(20)
        assert h.pod.gc_soon, t


def test_cursor_moves_stay_on_the_pod_and_show_on_the_ring():
    h = seated()
    before = len(h.sent())
    h.press("next")
    h.press("next")
    assert [f[1] for f in h.sent()[before:]] == [] or set(f[1] for f in h.sent()[before:]) == {"ping"}
    assert pixels(h) == [WHITE_PRIO, BLUE_DIM, BLUE_DIM, "ffffff", BLUE_DIM, BLUE_DIM] + [OFF] * 6
    h.press("prev")
    assert pixels(h)[2] == "ffffff"


def test_ready_sends_one_frame_with_the_slot_and_locks():
    h = seated()
    h.press("next")
    h.press("next")
    h.press("ready")
    r = h.sent("ready")
    assert len(r) == 1 and r[0][4] == (7, 3) and r[0][2] == 1, r
    assert h.pod.sel.state == 2
    # locked: no change, no cancel (guide 3.5.2)
    for b in ("prev", "next", "ready", "back"):
        h.press(b)
    assert len(h.sent("ready")) == 1 and h.pod.sel.state == 2 and h.pod.sel.locked_slot == 3


def test_locked_ring_does_not_show_which_slot():
    images = []
    h = None
    for moves in (0, 3):
        h = None  # one pod in memory at a time
        h = seated()
        for _ in range(moves):
            h.press("next")
        h.press("ready")
        h.run(1000 - h.elapsed() % 1000)  # same phase of the breathing
        images.append(h.ring())
    assert images[0] == images[1]


def test_hold_next_repeats_and_wraps():
    h = seated(options=5)
    h.down("next")
    h.run(400 + 120 * 4 + 25)  # (the repeats count from the confirmed press, a frame of slack)
    h.up("next")
    h.run(40)
    # one press + 5 repeats (at 400, 520, 640, 760, 880 ms) = 6 steps on 5 slots
    assert h.pod.sel.cursor == 1, h.pod.sel.cursor


def test_prompt_mode_with_pass():
    h = seated(kind=5, options=2, flags=1, prompt=9)  # catch: two cards or pass
    h.press("prev")  # wraps to the pass slot
    p = pixels(h)
    assert p[3] == "ffffff" and p[1] == BLUE_DIM and p[2] == BLUE_DIM
    h.press("ready")
    a = h.sent("answer")
    assert a and a[0][4] == (9, 0), a  # slot 0 = pass


def test_prompt_answer_picks_a_slot():
    h = seated(kind=3, options=4, prompt=11)  # get phase: four list cards
    h.press("next")
    h.press("ready")
    assert h.sent("answer")[0][4] == (11, 2)


def test_tracker_bare_ready():
    h = seated(mode=2, options=0)
    h.press("ready")
    assert h.sent("ready")[0][4] == (7, 0)


def test_tracker_hp_and_fp_entry():
    h = seated(mode=2, options=0, kind=0)
    h.press("back")  # HP page
    h.press("next")
    h.press("next")
    h.press("ready")
    assert h.sent("adjust")[-1][4] == (0, -300)
    h.press("back")
    h.press("back")  # FP page
    h.press("next")
    h.press("next")
    h.press("ready")
    assert h.sent("adjust")[-1][4] == (1, 2)
    h.press("back")
    h.press("back")
    h.press("ready", hold=800)  # long press: FP to zero
    assert h.sent("adjust")[-1][4] == (2, 0)
    assert len(h.sent("adjust")) == 3


def test_unseated_pod_claims_a_seat():
    h = H()
    h.run(1000)
    h.welcome(0, 0)
    h.run(40)
    h.press("ready")
    assert len(h.sent("claim")) == 1


def test_long_option_lists_page():
    h = seated(kind=3, options=20)
    for _ in range(12):
        h.press("next")
    assert h.pod.sel.cursor == 12
    p = pixels(h)
    assert p[2] == "ffffff"  # slot 13 is on the second page, position 2


def test_presses_are_never_lost_while_the_loop_is_busy():
    h = seated(options=7)
    # 30 presses arrive while the main loop does nothing (no io, no frames):
    # interrupts queue them with their times
    for i in range(30):
        h.pin("next").drive(0)
        h.clk.advance(30)
        h.pin("next").drive(1)
        h.clk.advance(30)
    assert h.pod.buttons.lost == 0
    h.io()
    assert h.pod.sel.cursor == 30 % 7


run_tests(globals())
