"""Pod figures on an emulated RP2040 (`python3 bench/pod.py --target rp2040`).

MicroPython's real rp2 port (v1.22.2) on rp2040js at 125 MHz, cycle-counted,
with the hub's HubLink over the emulated USB CDC (tests/rp2/emu.py). Every
time here is emulated time, so the figures do not depend on this machine.
They leave out flash-cache misses and USB frame polling: a real board is
roughly 10-40 % slower, plus up to 1 ms of USB latency (../shared/rp2/README.md).

Figures and goals (docs/performance.md "emulated RP2040"):
- press-to-frame: button GPIO edge -> the first USB packet of its `ready_at`
  frame (the press's 1.2 ms confirmation included), median / p90 / max of N
  presses at random phases (< 3 ms, max < 8 ms); without and with an OLED (a
  128 x 32 SSD1306 on I2C0, the emulator's model, 400 kHz byte timing) showing
  each prompt's names;
- OLED update: NEXT's GPIO edge -> the last I2C byte of the new name and n/N;
- countdown error at 10 s: `countdown` written -> `expired` received, less
  10 000 ms (< 5 ms);
- ring frame rate while counting down, the OLED redrawing (the seconds, and a
  cursor move every 300 ms), 50 Hz;
- CPU busy (not asleep in WFE) at idle and while counting down (< 40 %);
- heap high-water with the OLED fitted (gc.mem_alloc() sampled every frame, in
  a run of its own because each sample walks the heap; < 60 KB).
"""

from __future__ import annotations

import contextlib
import json
import random
import statistics
from pathlib import Path

from hub.pods import podext
from tests.rp2.emu import ROOT, Rp2Hub, Rp2Pod, shared_rp2

STATE = dict(kind=1, options=5, flags=0, locked=0, priority=1, fp=0, hp=5000, hand=5)
NAMES = ["회전 차기", "낮은 방어", "올려 베기", "빛의 루멘", "그림자 잡기"]


def oled_pinmap() -> dict[str, bytes]:
    """The Pico's pin map with a 128 x 32 SSD1306 on I2C0 (GP4/GP5), as pico2.json has it."""
    pm = json.loads((ROOT / "hardware" / "pinmaps" / "pico.json").read_text())
    pm["oled"] = {"i2c": 0, "sda": 4, "scl": 5, "addr": 60, "width": 128, "height": 32}
    return {"pinmap.json": json.dumps(pm).encode()}


class _Conn:  # what podext.send_names keeps its "already sent" note on
    pass


def _names(hub: Rp2Hub, prompt: int) -> None:
    podext.send_names(_Conn(), hub.link, hub.pod.ms, prompt, NAMES, None)
    hub.pod.write(hub.link.take_output())

# main.py for the heap run: the app as usual, plus a heap sample after every
# frame, reported to the hub as a log frame (code 9) twice a second
HEAP_MAIN = b"""
import gc
import app
peak = [0, 0, 1 << 30]
_frame = app.App.frame
def frame(self, now):
    _frame(self, now)
    peak[1] += 1
    if peak[1] % EVERY:
        return
    a = gc.mem_alloc()
    if a > peak[0]:
        peak[0] = a
    f = gc.mem_free()
    if f < peak[2]:
        peak[2] = f
    if peak[1] % 25 == 0:
        self.pod.link.send_log(9, ("heap %d %d" % (peak[0], peak[2])).encode(), now)
app.App.frame = frame
app.run()
"""


def heap_main(every: int = 1) -> bytes:
    """HEAP_MAIN sampling the heap after every ``every``-th frame (a walk of the heap takes 8 ms)."""
    return b"EVERY = %d\n" % every + HEAP_MAIN


def _connect(pod: Rp2Pod) -> Rp2Hub:
    hub = Rp2Hub(pod, step_ms=5)
    if not hub.run_until(lambda: hub.link.up, 10_000):
        raise SystemExit("the emulated pod did not connect")
    podext.greet(hub.link, pod.ms)  # the hub speaks extension 1, as PodHub does
    hub.run(1200)  # past the boot check
    return hub


@contextlib.contextmanager
def _booted(files: Path, oled: bool, shared: tuple[Rp2Pod, Rp2Hub] | None):
    """A booted pod and its hub: ``shared`` (the smoke run boots one OLED pod for several
    figures), or a pod of its own, closed afterwards."""
    if shared is not None:
        yield shared
        return
    with Rp2Pod(files, extra=oled_pinmap() if oled else None) as pod:
        yield pod, _connect(pod)


def _ready_sent(hub: Rp2Hub, n: int):
    return next((t for t, m in hub.received[n:] if m.type in ("ready", "ready_at")), None)


def _pct(xs: list[float], p: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(round(p / 100 * (len(xs) - 1))))]


def latency(files: Path, presses: int, seed: int = 1, oled: bool = False,
            shared: tuple[Rp2Pod, Rp2Hub] | None = None) -> dict[str, float]:
    rnd = random.Random(seed)
    with _booted(files, oled, shared) as (pod, hub):
        lat: list[float] = []
        for i in range(presses):
            prompt = 1 + i % 250
            hub.send("state", prompt=prompt, **STATE)
            if oled:
                _names(hub, prompt)  # the screen shows the first card's name, redrawn on the lock
            hub.run(40 + rnd.random() * 20 + (120 if oled else 0))  # a random phase against the 20 ms grid
            n = len(hub.received)
            t0 = pod.t_us / 1000
            pod.down("ready")
            if not hub.run_until(lambda: _ready_sent(hub, n) is not None, 500):
                raise SystemExit(f"press {i}: no ready frame")
            t1 = _ready_sent(hub, n)
            lat.append(t1 - t0)
            hub.run(30)
            pod.up("ready")
            hub.run(50)
    return {"presses": presses, "median_ms": statistics.median(lat), "p90_ms": _pct(lat, 90), "max_ms": max(lat)}


def countdown(files: Path, runs: int, ms: int = 10_000, shared: tuple[Rp2Pod, Rp2Hub] | None = None) -> dict[str, float]:
    # with the OLED fitted and redrawing: the seconds each second, and a cursor move (a new
    # name and n/N) every 300 ms all through the countdown
    with _booted(files, True, shared) as (pod, hub):
        hub.run(ms / 10)
        pod.cpu()
        hub.run(ms * 0.3)
        c = pod.cpu()
        idle_busy = c["busy"] / (c["busy"] + c["idle"])
        errors: list[float] = []
        rates: list[float] = []
        busy: list[float] = []
        redraws: list[float] = []
        for r in range(runs):
            prompt = 100 + r
            hub.send("state", prompt=prompt, **STATE)
            _names(hub, prompt)
            hub.run(400)
            n = len(hub.received)
            hub.send("countdown", prompt=prompt, ms=ms)
            t0 = pod.t_us / 1000
            pod.cpu()
            f0 = len(pod.frames)
            hub.run(ms / 10)
            f1, s1, i1 = len(pod.frames), pod.t_us, len(pod.i2c)
            for _ in range(ms * 23 // 10_000):  # 7 s of 10: NEXT pressed every 300 ms
                pod.down("next")
                hub.run(60)
                pod.up("next")
                hub.run(244)
            rates.append((len(pod.frames) - f1) / ((pod.t_us - s1) / 1e6))
            redraws.append(sum(b for _, b in pod.i2c[i1:]) / ((pod.t_us - s1) / 1e6))
            if not hub.run_until(lambda: any(m.type == "expired" for _, m in hub.received[n:]), 4000):
                raise SystemExit("no expiry")
            c = pod.cpu()
            busy.append(c["busy"] / (c["busy"] + c["idle"]))
            t1 = next(t for t, m in hub.received[n:] if m.type == "expired")
            errors.append(t1 - t0 - ms)
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
        "oled_bytes_a_second": statistics.median(redraws),
        "countdown_ms": ms,
    }


def oled_update(files: Path, presses: int, shared: tuple[Rp2Pod, Rp2Hub] | None = None) -> dict[str, float]:
    """NEXT's GPIO edge -> the last I2C byte of the screen it changes (the name and n/N)."""
    with _booted(files, True, shared) as (pod, hub):
        hub.send("state", prompt=1, **STATE)
        _names(hub, 1)
        hub.run(600)
        times: list[float] = []
        sizes: list[int] = []
        for i in range(presses):
            k = len(pod.i2c)
            t0 = pod.t_us
            pod.down("next")
            hub.run(60)
            pod.up("next")
            hub.run(240)
            w = pod.i2c[k:]
            if not w:
                raise SystemExit(f"press {i}: the screen did not change")
            times.append((w[-1][0] - t0) / 1000)
            sizes.append(sum(b for _, b in w))
    return {"presses": presses, "median_ms": statistics.median(times), "max_ms": max(times),
            "bytes_median": statistics.median(sizes)}


def heap(files: Path, outcomes: int = 13, shared: tuple[Rp2Pod, Rp2Hub] | None = None) -> dict[str, int]:
    with contextlib.ExitStack() as stack:
        if shared is None:
            pod = stack.enter_context(Rp2Pod(files, extra={"main.py": heap_main(), **oled_pinmap()}))
            hub = _connect(pod)
        else:
            pod, hub = shared
        hub.send("state", prompt=1, **STATE)
        _names(hub, 1)
        hub.send("countdown", prompt=1, ms=3000)
        hub.run(1500)
        pod.down("next")
        hub.run(800)  # a long press with repeats
        pod.up("next")
        hub.run(100)
        pod.down("ready")
        hub.run(60)
        pod.up("ready")
        for code in range(1, 1 + outcomes):
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


def figures(presses: int, countdowns: int, smoke: bool = False) -> dict:
    """Every figure; ``smoke``: a short run that checks the bench works (a 2 s countdown, 2 OLED updates)."""
    files = shared_rp2()
    if files is None:
        raise SystemExit("../shared/rp2/ (MicroPython rp2 image and boot ROM) is not here; LUMEN_RP2_DIR=... to point at it")
    if smoke:
        # one pod for every figure (the OLED fitted, the heap sampled every 25th frame: a walk
        # takes 8 ms, so these figures are not quite the pod's), a 2 s countdown: the bench runs
        with Rp2Pod(files, extra={"main.py": heap_main(every=25), **oled_pinmap()}) as pod:
            shared = (pod, _connect(pod))
            return {"smoke": True, "latency": latency(files, presses, shared=shared),
                    "latency_oled": latency(files, presses, oled=True, shared=shared),
                    "countdown": countdown(files, countdowns, 2000, shared=shared),
                    "oled": oled_update(files, 2, shared=shared), "heap": heap(files, outcomes=3, shared=shared)}
    return {"latency": latency(files, presses), "latency_oled": latency(files, presses, oled=True),
            "countdown": countdown(files, countdowns), "oled": oled_update(files, 20), "heap": heap(files)}


def table(res: dict) -> list[str]:
    lat, lo, cd, hp, ol = res["latency"], res["latency_oled"], res["countdown"], res["heap"], res["oled"]
    return ["(a --smoke run: one pod, its heap walked every 25th frame; not figures to quote)"] * bool(res.get("smoke")) + [
        "| figure (emulated RP2040, 125 MHz, MicroPython v1.22.2 rp2) | measured | goal |",
        "|---|---|---|",
        f"| press-to-frame (GPIO edge -> first USB packet of `ready_at`, its 1.2 ms confirmation included), "
        f"median / p90 / max of {lat['presses']} | "
        f"{lat['median_ms']:.2f} / {lat['p90_ms']:.2f} / {lat['max_ms']:.2f} ms | < 3 ms, max < 8 ms |",
        f"| same, OLED fitted (the lock redraws it) | "
        f"{lo['median_ms']:.2f} / {lo['p90_ms']:.2f} / {lo['max_ms']:.2f} ms | < 3 ms, max < 8 ms |",
        f"| OLED update (NEXT's GPIO edge -> the last I2C byte of the new name and n/N, 400 kHz), median / max "
        f"of {ol['presses']} | {ol['median_ms']:.1f} / {ol['max_ms']:.1f} ms ({ol['bytes_median']:.0f} bytes) | - |",
        f"| countdown error at {cd['countdown_ms'] // 1000} s, median / worst of {cd['runs']} | "
        f"{cd['error_ms_median']:+.2f} / {cd['error_ms_worst']:+.2f} ms | < 5 ms |",
        f"| ring frame rate while counting down, OLED redrawing (NEXT every 300 ms, "
        f"{cd['oled_bytes_a_second']:.0f} I2C bytes/s), min / median | {cd['frame_hz_min']:.1f} / "
        f"{cd['frame_hz_median']:.1f} Hz | 50 Hz |",
        f"| CPU busy (not in WFE), idle / counting down | {cd['cpu_busy_idle'] * 100:.1f} % / "
        f"{cd['cpu_busy_countdown'] * 100:.1f} % | < 40 % |",
        f"| heap high-water, OLED fitted (gc.mem_alloc() after every frame) / least free | "
        f"{hp['peak_bytes'] / 1024:.1f} KB / "
        f"{hp['free_min_bytes'] / 1024:.1f} KB | - |",
    ]
