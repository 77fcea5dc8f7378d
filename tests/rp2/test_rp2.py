"""The pod firmware on MicroPython's real rp2 port, on an emulated RP2040
(rp2040js), with the hub's own protocol code over the emulated USB CDC:
hello, seat, ready, countdown; 0x03 bytes on the link right after the hello;
a continuous stream of non-zero bytes. Waits are on emulated time, which
does not depend on how busy this machine is."""

from __future__ import annotations

from hub.pods.channel import HubLink
from tests.rp2.emu import Rp2Hub

STATE = dict(kind=1, options=5, flags=0, locked=0, priority=1, fp=0, hp=5000, hand=5)


def connect(pod, seat=1):
    hub = Rp2Hub(pod, seat=seat)
    assert hub.run_until(lambda: hub.link.up, 10_000), "no hello/welcome in 10 s of emulated time"
    return hub


def press(hub, button, hold_ms=60, gap_ms=60):
    hub.pod.down(button)
    hub.run(hold_ms)
    hub.pod.up(button)
    hub.run(gap_ms)


def test_hello_seat_ready_and_countdown(rp2_pod) -> None:
    hello_seat_ready_countdown(rp2_pod())


def hello_seat_ready_countdown(pod) -> None:
    """The link test: hello, claim a seat, a ready, a countdown to its end
    (also run on the one-file image: tests/rp2/test_image.py)."""
    hub = connect(pod, seat=0)  # unseated: READY claims a seat
    info = hub.link.pod
    assert info is not None and info.proto == 1 and info.pixels == 12
    assert info.firmware.startswith("0.") and not info.features & 8  # a board, not the simulator
    hub.run(1000)  # past the boot self-test
    press(hub, "ready")
    assert hub.run_until(lambda: hub.of("claim"), 2000), [m.type for _, m in hub.received]
    hub.send("setup", seat=1, mode=1, brightness=0)
    hub.send("state", prompt=7, **STATE)
    hub.run(100)
    press(hub, "next")
    press(hub, "ready")
    assert hub.run_until(lambda: hub.of("ready"), 2000)
    got = hub.of("ready")[0][1]
    assert got["prompt"] == 7 and 0 <= got["slot"] <= 5
    # a countdown the pod shows and reports the end of
    hub.send("state", prompt=8, **STATE)
    hub.run(100)
    hub.send("countdown", prompt=8, ms=2000)
    t0 = pod.ms
    assert hub.run_until(lambda: hub.of("expired"), 4000)
    t, m = hub.of("expired")[0]
    assert m["prompt"] == 8 and 1990 <= t - t0 <= 2100, t - t0
    assert hub.link.up and hub.hellos == 1  # no reset, no lost link all along


def test_ctrl_c_bytes_right_after_the_hello_are_data(rp2_pod) -> None:
    # 0x03 is Ctrl-C to a MicroPython REPL: sent the moment the first bytes
    # of the hello appear, it must neither interrupt the pod nor reach a REPL
    pod = rp2_pod()
    for _ in range(5000):
        pod.run(0.2)
        if pod.rx:
            break
    assert pod.rx, "no output in 1 s"
    pod.write(b"\x03\x03\r\x03")
    hub = Rp2Hub(pod)
    assert hub.run_until(lambda: hub.link.up, 5000)
    hub.run(1500)
    assert hub.link.up and hub.link.decoder.errors <= 1
    hub.send("state", prompt=3, **STATE)
    hub.run(100)
    press(hub, "ready")
    assert hub.run_until(lambda: hub.of("ready"), 2000)


def test_a_stream_of_nonzero_bytes_starves_neither_frames_nor_the_watchdog(rp2_pod) -> None:
    pod = rp2_pod()
    hub = connect(pod)
    hub.run(1000)
    boot = hub.link.pod.boot
    f0 = len(pod.frames)
    t0 = pod.ms
    for _ in range(250):  # 2.5 s of 0x55 at ~8 bytes a ms, never a frame boundary
        pod.write(b"\x55" * 80)
        pod.run(10)
    n = len(pod.frames) - f0
    assert n >= 0.9 * (pod.ms - t0) / 20, n  # the ring kept its 50 Hz
    pod.write(b"\x00")
    hub.link = type(hub.link)()  # the old link died meanwhile: a fresh hub side
    assert hub.run_until(lambda: hub.link.up, 5000)
    assert hub.link.pod.boot == boot  # the same power-up: the watchdog never fired


# main.py that crashes to the REPL while GP22 is high (a transient start-up
# fault; the emulated flash cannot be written, so no flag file), and starts
# the firmware once it is low
CRASH_WHILE_GP22 = b"""
import machine
if machine.Pin(22, machine.Pin.IN).value():
    raise ValueError("a transient start-up fault")
import app
app.run()
"""


def test_the_hub_brings_a_pod_back_from_the_repl(rp2_pod) -> None:
    pod = rp2_pod(extra={"main.py": CRASH_WHILE_GP22})
    pod.pin(22, 1)
    seen = bytearray()
    for _ in range(100):
        pod.run(20)
        seen.extend(b"".join(d for _, d in pod.rx))
        if b">>> " in seen:
            break
    assert b"transient start-up fault" in seen and b">>> " in seen, bytes(seen[-300:])
    pod.pin(22, 0)  # the fault is gone; only a reset brings the firmware back
    hub = Rp2Hub(pod)
    assert hub.run_until(lambda: hub.link.up, 10_000)
    assert hub.link.repl_resets == 1  # the hub saw the prompt and soft-reset the pod once
    hub.send("state", prompt=4, **STATE)
    hub.run(100)
    press(hub, "ready")
    assert hub.run_until(lambda: hub.of("ready"), 2000)


def test_a_pod_in_safe_mode_is_left_at_the_repl(rp2_pod) -> None:
    pod = rp2_pod()
    pod.down("back")  # held while plugging in: safe mode, on purpose
    link = HubLink()
    seen = bytearray()
    prompt_at = None
    for _ in range(300):  # the prompt, then 1 s in which a reset would have been sent at once
        pod.run(20)
        for t, data in pod.take():
            seen.extend(data)
            link.feed(data, t // 1000)
        pod.write(link.poll(pod.ms))
        if prompt_at is None and b">>> " in seen:
            prompt_at = pod.ms
            pod.up("back")
        if prompt_at is not None and pod.ms - prompt_at > 1000:
            break
    assert b"safe mode" in seen and b">>> " in seen, bytes(seen[-300:])
    assert link.repl_resets == 0 and link.pod is None  # left alone: no reset, no hello
