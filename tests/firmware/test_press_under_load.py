"""A simulated press is a press however late the machine runs the pod (issue 16).

On a loaded machine the pod's process can be descheduled for hundreds of ms in the
middle of a press. A press held by a timer in that process then looked, to the pod's
button scanner, like a button held past the auto-repeat delay: the cursor moved twice and
the bot's answer landed on the next card (the noisy-line end-to-end test's "a get of a
different card"). Stopping the process (SIGSTOP) mid-press is that load, made certain.
"""

from __future__ import annotations

import os
import signal
import threading
import time

from hub.pods.sim import Bench

CHOOSE = dict(prompt=7, kind=2, options=5, flags=0, locked=0, priority=1, fp=0, hp=5000, hand=5)


def test_a_press_moves_the_cursor_once_even_if_the_pod_is_stopped_mid_press(sim_pod) -> None:
    for trial, delay in enumerate((0.005, 0.02, 0.04)):
        pod = sim_pod("e6605838830000%02d" % (40 + trial))
        hub = Bench(pod, seat=1)
        hub.on_hello = lambda b: b.send("state", **CHOOSE)
        assert hub.pump(20, until=lambda: hub.link.up and hub.link.unacked == 0)

        def stall() -> None:
            time.sleep(delay)
            os.kill(pod.proc.pid, signal.SIGSTOP)
            time.sleep(0.6)           # longer than the 400 ms auto-repeat delay
            os.kill(pod.proc.pid, signal.SIGCONT)
        t = threading.Thread(target=stall)
        t.start()
        pod.press("next", pump=hub.pump_once)
        t.join()
        pod.press("ready", pump=hub.pump_once)
        assert hub.pump(10, until=lambda: hub.last("answer") is not None)
        assert hub.last("answer").fields == {"prompt": 7, "slot": 2}, "trial %d" % trial
        pod.close()
