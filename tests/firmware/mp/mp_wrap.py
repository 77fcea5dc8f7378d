# rp2's ticks period is 2**30 ms: a "since" difference turns negative after
# 6.2 days. With the board's tick arithmetic (ticks30) and a start just before
# the wrap, a pod that has run for longer than that still draws, still takes
# presses, and counts down across the wrap.
import harness
import clock
import ticks30
from mptest import run_tests

ticks30.install()


def seated30(start_before_wrap=3000):
    h = harness.H(start=ticks30.before_wrap(start_before_wrap))
    h.run(1000)
    h.welcome(1, 1)
    h.hub(0x82, 7, 1, 5, 0, 0, 1, 2, 5000, 5)
    h.run(40)
    return h


def week(h, steps=560):
    # about 6.8 days, the pod ticking every 2**20 ms (17 minutes) with no
    # hub: every stored "since" time ages past half the tick period
    h.hub_alive = False
    for _ in range(steps):
        h.clk.advance(1 << 20)
        h.frame_tick()
        h.log = [f for f in h.log if f[1] not in ("hello", "ping")][-8:]  # bounded heap


def test_countdown_across_the_wrap():
    h = seated30(5000)
    h.hub(0x83, 7, 10000)
    t = h.elapsed()
    while not h.sent("expired") and h.elapsed() - t < 12000:
        h.run(10)
    assert h.sent("expired"), "no expiry"
    assert abs(h.sent("expired")[0][0] - t - 10000) <= 25


def test_after_a_week_the_ring_draws_without_faults():
    h = seated30()
    f0 = h.pod.faults
    week(h)
    h.run(200)
    assert h.pod.faults == f0, (h.pod.faults, [x for x in h.sent("log")][-1:])
    assert not h.sent("log")


def test_a_button_untouched_for_a_week_still_presses():
    h = seated30()
    h.press("next")  # the button's last edge, then nothing for a week
    week(h)
    h.hub_alive = True
    h.run(600)  # a hello goes out
    h.welcome(1, 1)
    h.hub(0x82, 8, 1, 5, 0, 0, 1, 2, 5000, 5)
    h.run(40)
    n = len(h.sent("ready"))
    h.press("next")
    h.press("ready")
    got = h.sent("ready")[n:]
    assert got and got[0][4][0] == 8, got


def test_a_result_shown_before_a_long_link_loss_is_not_shown_again():
    h = seated30()
    h.hub(0x85, 1, 1, -100)  # a result, then the link drops at once
    week(h)
    assert h.pod.result_code == 0


run_tests(globals())
