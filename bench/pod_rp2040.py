"""Pod figures on an emulated RP2040 (`python3 bench/pod.py --target rp2040`).

MicroPython's real rp2 port (v1.22.2) on rp2040js at 125 MHz, cycle-counted,
with the hub's HubLink over the emulated USB CDC (tests/rp2/emu.py). Every
time here is emulated time, so the figures do not depend on this machine.
They leave out flash-cache misses and USB frame polling: a real board is
roughly 10-40 % slower, plus up to 1 ms of USB latency (../shared/rp2/README.md).

Figures and goals (docs/performance.md "emulated RP2040"):
- press-to-frame: button GPIO edge -> the first USB packet of its `ready`
  frame, median / p90 / max of N presses at random phases (< 3 ms, max < 8 ms);
- countdown error at 10 s: `countdown` written -> `expired` received, less
  10 000 ms (< 5 ms);
- ring frame rate while counting down (WS2812 bursts on GP16, 50 Hz);
- CPU busy (not asleep in WFE) at idle and while counting down (< 40 %);
- heap high-water (gc.mem_alloc() sampled every frame, in a run of its own
  because each sample walks the heap).
"""

from __future__ import annotations

import random
import statistics
from pathlib import Path

from tests.rp2.emu import Rp2Hub, Rp2Pod, shared_rp2

STATE = dict(kind=1, options=5, flags=0, locked=0, priority=1, fp=0, hp=5000, hand=5)

# main.py for the heap run: the app as usual, plus a heap sample after every
# frame, reported to the hub as a log frame (code 9) twice a second
HEAP_MAIN = b"""
import gc
import app
peak = [0, 0, 1 << 30]
_frame = app.App.frame
def frame(self, now):
    _frame(self, now)
    a = gc.mem_alloc()
    if a > peak[0]:
        peak[0] = a
    f = gc.mem_free()
    if f < peak[2]:
        peak[2] = f
    peak[1] += 1
    if peak[1] % 25 == 0:
        self.pod.link.send_log(9, ("heap %d %d" % (peak[0], peak[2])).encode(), now)
app.App.frame = frame
app.run()
"""


def _connect(pod: Rp2Pod) -> Rp2Hub:
    hub = Rp2Hub(pod, step_ms=5)
    if not hub.run_until(lambda: hub.link.up, 10_000):
        raise SystemExit("the emulated pod did not connect")
    hub.run(1200)  # past the boot self-test
    return hub


def _pct(xs: list[float], p: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(round(p / 100 * (len(xs) - 1))))]


def latency(files: Path, presses: int, seed: int = 1) -> dict[str, float]:
    rnd = random.Random(seed)
    with Rp2Pod(files) as pod:
        hub = _connect(pod)
        lat: list[float] = []
        for i in range(presses):
            prompt = 1 + i % 250
            hub.send("state", prompt=prompt, **STATE)
            hub.run(40 + rnd.random() * 20)  # a random phase against the 20 ms frame grid
            n = len(hub.received)
            t0 = pod.t_us / 1000
            pod.down("ready")
            if not hub.run_until(lambda: any(m.type == "ready" for _, m in hub.received[n:]), 500):
                raise SystemExit(f"press {i}: no ready frame")
            t1 = next(t for t, m in hub.received[n:] if m.type == "ready")
            lat.append(t1 - t0)
            hub.run(30)
            pod.up("ready")
            hub.run(50)
    return {"presses": presses, "median_ms": statistics.median(lat), "p90_ms": _pct(lat, 90), "max_ms": max(lat)}


def countdown(files: Path, runs: int) -> dict[str, float]:
    with Rp2Pod(files) as pod:
        hub = _connect(pod)
        hub.run(1000)
        pod.cpu()
        hub.run(3000)
        c = pod.cpu()
        idle_busy = c["busy"] / (c["busy"] + c["idle"])
        errors: list[float] = []
        rates: list[float] = []
        busy: list[float] = []
        for r in range(runs):
            prompt = 100 + r
            hub.send("state", prompt=prompt, **STATE)
            hub.run(200)
            n = len(hub.received)
            hub.send("countdown", prompt=prompt, ms=10_000)
            t0 = pod.t_us / 1000
            pod.cpu()
            f0 = len(pod.frames)
            hub.run(1000)
            f1, s1 = len(pod.frames), pod.t_us
            hub.run(7000)
            rates.append((len(pod.frames) - f1) / ((pod.t_us - s1) / 1e6))
            if not hub.run_until(lambda: any(m.type == "expired" for _, m in hub.received[n:]), 4000):
                raise SystemExit("no expiry")
            c = pod.cpu()
            busy.append(c["busy"] / (c["busy"] + c["idle"]))
            t1 = next(t for t, m in hub.received[n:] if m.type == "expired")
            errors.append(t1 - t0 - 10_000)
            assert len(pod.frames) > f0
            hub.run(500)
    return {
        "runs": runs,
        "error_ms_median": statistics.median(errors),
        "error_ms_worst": max(errors, key=abs),
        "errors_ms": [round(e, 3) for e in errors],
        "frame_hz_min": min(rates),
        "frame_hz_median": statistics.median(rates),
        "cpu_busy_idle": idle_busy,
        "cpu_busy_countdown": max(busy),
    }


def heap(files: Path) -> dict[str, int]:
    with Rp2Pod(files, extra={"main.py": HEAP_MAIN}) as pod:
        hub = _connect(pod)
        hub.send("state", prompt=1, **STATE)
        hub.send("countdown", prompt=1, ms=3000)
        hub.run(1500)
        pod.down("next")
        hub.run(800)  # a long press with repeats
        pod.up("next")
        hub.run(100)
        pod.down("ready")
        hub.run(60)
        pod.up("ready")
        for code in range(1, 14):
            hub.send("result", outcome=code, fp_delta=1, hp_delta=-100)
            hub.send("state", prompt=1 + code, **STATE)
            hub.run(200)
        hub.send("notice", code=6, arg=0)
        hub.run(1500)
        logs = [m for _, m in hub.received if m.type == "log" and m.text.startswith("heap ")]
        if not logs:
            raise SystemExit("no heap figures from the pod")
        peak, free_min = (int(x) for x in logs[-1].text.split()[1:3])
    return {"peak_bytes": peak, "free_min_bytes": free_min}


def figures(presses: int, countdowns: int) -> dict:
    files = shared_rp2()
    if files is None:
        raise SystemExit("../shared/rp2/ (MicroPython rp2 image and boot ROM) is not here; LUMEN_RP2_DIR=... to point at it")
    return {"latency": latency(files, presses), "countdown": countdown(files, countdowns), "heap": heap(files)}


def table(res: dict) -> list[str]:
    lat, cd, hp = res["latency"], res["countdown"], res["heap"]
    return [
        "| figure (emulated RP2040, 125 MHz, MicroPython v1.22.2 rp2) | measured | goal |",
        "|---|---|---|",
        f"| press-to-frame (GPIO edge -> first USB packet of `ready`), median / p90 / max of {lat['presses']} | "
        f"{lat['median_ms']:.2f} / {lat['p90_ms']:.2f} / {lat['max_ms']:.2f} ms | < 3 ms, max < 8 ms |",
        f"| countdown error at 10 s, median / worst of {cd['runs']} | "
        f"{cd['error_ms_median']:+.2f} / {cd['error_ms_worst']:+.2f} ms | < 5 ms |",
        f"| ring frame rate while counting down, min / median | {cd['frame_hz_min']:.1f} / "
        f"{cd['frame_hz_median']:.1f} Hz | 50 Hz |",
        f"| CPU busy (not in WFE), idle / counting down | {cd['cpu_busy_idle'] * 100:.1f} % / "
        f"{cd['cpu_busy_countdown'] * 100:.1f} % | < 40 % |",
        f"| heap high-water (gc.mem_alloc() after every frame) / least free | {hp['peak_bytes'] / 1024:.1f} KB / "
        f"{hp['free_min_bytes'] / 1024:.1f} KB | - |",
    ]
