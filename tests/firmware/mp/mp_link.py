# The link as the pod runs it: lost link, resume, resend, duplicates,
# dead-link detection, service mode, recovery from a fault.
import harness
import views
from mptest import run_tests

from harness import seated, pixels, H, BLUE_DIM, WHITE_PRIO, OFF  # noqa: F401


def test_link_lost_shown_and_ready_kept_until_resume():
    h = seated()
    h.hub_alive = False
    h.run(1600)
    assert not h.pod.link.up
    hello = h.sent("hello")[-1]
    assert hello[4][5] == 2  # epoch 2: a new handshake
    assert h.ring().count("e69f00") == 0 and h.px(0) != 0  # amber pulse on every third pixel
    h.press("next")
    h.press("ready")  # a decision while the link is down is kept
    assert not h.sent("ready")
    h.hub_alive = True
    h.welcome()
    h.run(40)
    r = h.sent("ready")
    assert len(r) >= 1 and r[0][2] == 1 and r[0][4] == (7, 2), r  # renumbered from 1


def test_resend_until_acked_and_duplicates_applied_once():
    h = seated()
    h.hub_alive = False
    h.press("ready")
    h.run(600)
    assert len(h.sent("ready")) >= 2  # resent every 250 ms
    n = len(h.sent("ready"))
    h.feed(harness.frame(0, 0, 1))  # hub acks seq 1
    h.run(600)
    assert len(h.sent("ready")) == n
    h.hub_alive = True
    # the same sequenced message twice: applied once, acked twice
    f = harness.frame(0x85, 2, 1, 1, 0, 0)
    h.feed(f)
    t1 = h.pod.result_t0
    h.run(100)
    h.feed(f)
    assert h.pod.result_t0 == t1 and h.pod.link.dups == 1
    assert h.sent("ping")[-1][3] == 2


def test_dead_link_noticed_within_two_seconds():
    h = seated()
    h.hub_alive = False
    t = h.elapsed()
    while h.pod.link.up:
        h.run(10)
    assert h.elapsed() - t <= 2000


def test_service_request_and_mpremote_knock():
    h = seated()
    h.feed(harness.frame(0x8F, 0, 0, 0x1234))
    assert not h.pod.service_request  # wrong magic
    h.feed(harness.frame(0x8F, 0, 0, 0x5AFE))
    assert h.pod.service_request
    h = seated()
    h.feed(b"\r\x03")
    h.feed(b"\r\x01")
    h.run(300)
    assert h.pod.service_request


def test_a_fault_is_logged_and_the_pod_keeps_going():
    h = seated()
    real = views.draw
    calls = [0]

    def bad(p, now):
        calls[0] += 1
        if calls[0] == 1:
            raise ValueError("boom")
        real(p, now)

    views.draw = bad
    try:
        h.run(60)
    finally:
        views.draw = real
    assert h.pod.faults == 1
    logs = h.sent("log")
    assert logs and b"boom" in logs[0][4][1]
    # where it happened: this module's line (built with line numbers, as lumen pod flash builds)
    at = logs[0][4][1].split()[0]
    assert at.startswith(b"mp_link:") and int(at.split(b":")[1]) > 1, logs[0]
    h.press("ready")
    assert h.sent("ready")


run_tests(globals())
