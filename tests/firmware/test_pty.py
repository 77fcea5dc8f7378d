"""A real pod process (the firmware under `micropython`, 80 KB heap) and a
CPython hub peer (hub/pods/channel.HubLink) over pseudo-terminals.

No timing assertions: waits are generous upper bounds, never measurements.
"""

from __future__ import annotations

import os

from hub.pods.sim import Bench

STATE_READY = dict(prompt=7, kind=1, options=5, flags=0, locked=0, priority=1, fp=0, hp=5000, hand=5)


def test_hello_heartbeat_ready_and_result(sim_pod) -> None:
    pod = sim_pod("e660583883000011")
    hub = Bench(pod, seat=2, mode="referee")
    hub.on_hello = lambda b: b.send("state", **STATE_READY)
    assert hub.pump(10, until=lambda: hub.link.up)
    info = hub.link.pod
    assert info is not None and info.board_id == "e660583883000011" and info.proto == 1
    assert info.firmware == "0.6.0" and info.pixels == 12 and info.features & 8  # simulated
    # heartbeats both ways keep the link up with nothing else to say
    before = hub.link.decoder.frames
    hub.pump(1.5)
    assert hub.link.up and hub.link.decoder.frames >= before + 2
    # a ready: cursor moves stay on the pod; only the lock is sent
    pod.press("next", pump=hub.pump_once)
    pod.press("ready", pump=hub.pump_once)
    assert hub.pump(5, until=lambda: hub.last("ready") is not None)
    assert [m.type for _, m in hub.received] == ["ready"]
    assert hub.last("ready").fields == {"prompt": 7, "slot": 2}
    # reveal and result: the pod plays the animation, the ring shows it
    hub.send("reveal", prompt=7)
    hub.send("result", outcome=1, fp_delta=2, hp_delta=0)
    hub.pump(0.2)
    ring = pod.ring()
    assert len(ring) == 36 and ring in (bytes.fromhex("009e73") * 12, bytes(36))  # hit: green flashes
    s = pod.stats()
    assert s["up"] == 1 and s["faults"] == 0 and s["rx_errors"] == 0 and s["state"] == 4


def test_repl_noise_on_the_port_is_survived(sim_pod) -> None:
    pod = sim_pod("e660583883000012")
    hub = Bench(pod, mode="tracker")
    hub.on_hello = lambda b: b.send("state", **dict(STATE_READY, options=0))
    assert hub.pump(10, until=lambda: hub.link.up)
    # what a REPL on the same USB port can put there: Ctrl-C, a banner, a print
    pod.write(b"\x03\x03\r\nMicroPython v1.24.1 on 2024-11-29; Raspberry Pi Pico with RP2040\r\n>>> ")
    pod.write(b"print('hello')\r\n\x03")
    hub.send("notice", code=9, arg=0)
    hub.pump(0.5)
    pod.press("ready", pump=hub.pump_once)
    assert hub.pump(5, until=lambda: hub.last("ready") is not None)
    assert hub.last("ready").fields == {"prompt": 7, "slot": 0}  # bare ready (tracker)
    s = pod.stats()
    assert s["rx_errors"] >= 1 and s["faults"] == 0 and s["up"] == 1


def test_resume_after_replug(sim_pod) -> None:
    pod = sim_pod("e660583883000013")
    hub = Bench(pod)
    hub.on_hello = lambda b: b.send("state", **STATE_READY)
    assert hub.pump(10, until=lambda: hub.link.up)
    pod.press("next", pump=hub.pump_once)
    pod.press("ready", pump=hub.pump_once)
    assert hub.pump(5, until=lambda: hub.last("ready") is not None)
    first_boot = hub.link.pod.boot
    # unplugged: the process dies; the hub notices the silence
    pod.kill()
    assert hub.pump(5, until=lambda: not hub.link.up)
    # plugged back in: same board id, new boot number; the hub resumes the
    # game by pushing the state, with this pod's own lock in it
    pod2 = sim_pod("e660583883000013")
    hub.pod = pod2
    hub.on_hello = lambda b: b.send("state", **dict(STATE_READY, flags=2, locked=2))
    assert hub.pump(10, until=lambda: hub.link.up)
    assert hub.link.pod.board_id == "e660583883000013" and hub.link.pod.boot != first_boot
    hub.pump(0.3)
    assert pod2.stats()["state"] == 2  # locked again, no new choice possible
    pod2.press("prev", pump=hub.pump_once)
    pod2.press("ready", pump=hub.pump_once)
    hub.pump(0.3)
    assert [m.type for _, m in hub.received].count("ready") == 1


def test_hub_restart_relinks_with_a_new_epoch(sim_pod) -> None:
    pod = sim_pod("e660583883000014")
    hub = Bench(pod)
    assert hub.pump(10, until=lambda: hub.link.up)
    # the hub goes quiet (restarting): the pod gives the link up and says hello
    # again; a new HubLink (a fresh hub process) picks it up
    import time

    time.sleep(2.0)
    pod.read()
    hub2 = Bench(pod)
    assert hub2.pump(10, until=lambda: hub2.link.up)
    assert hub2.link.pod.epoch >= 2 and hub2.link.pod.boot == hub.link.pod.boot


def test_pod_process_exits_when_the_hub_closes_the_pty(sim_pod) -> None:
    pod = sim_pod("e660583883000015")
    hub = Bench(pod)
    assert hub.pump(10, until=lambda: hub.link.up)
    os.close(pod._slave)
    os.close(pod.master)
    pod.master = pod._slave = -1
    assert pod.proc.wait(timeout=10) == 0
