"""Pod figures (issue 4), measured on simulated pods: the real firmware under
the MicroPython unix port, heap capped at 80 KB, over pseudo-terminals.

    python3 bench/pod.py                 # all figures, a Markdown table
    python3 bench/pod.py --presses 200   # quicker
    python3 bench/pod.py --json
    python3 bench/pod.py --target rp2040 # on an emulated RP2040 instead (bench/pod_rp2040.py)
    python3 bench/pod.py --smoke         # a few presses, one 2 s countdown: it runs (CI), no figures to quote
    python3 bench/pod.py --target rp2040 --smoke

Figures and targets (docs/performance.md "Pod (issue 4)"):
- press-to-frame latency, median and worst of N presses (< 5 ms / < 20 ms),
  inside the pod (contact -> frame written) and as the hub sees it
  (control command written -> frame read, two ptys included);
- ring refresh rate while counting down (>= 50 Hz);
- countdown error at 10 s, as the hub sees it (within 20 ms);
- heap high-water mark under the 80 KB cap (< 64 KB; the board's own figure is
  `--target rp2040`'s);
- bytes per message on the wire and their time at 115200 baud.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.append(str(Path(__file__).resolve().parent))  # after the project: bench/hub.py is not hub/

from hub.pods.sim import Bench, SimPod, now_ms  # noqa: E402

STATE = dict(kind=1, options=5, flags=0, locked=0, priority=1, fp=0, hp=5000, hand=5)


def connect(board_id: str, mode: str = "referee") -> tuple[SimPod, Bench]:
    pod = SimPod(board_id=board_id)
    hub = Bench(pod, seat=1, mode=mode)
    if not hub.pump(10, until=lambda: hub.link.up):
        raise SystemExit("pod did not connect")
    hub.pump(1.0)  # past the boot self-test
    return pod, hub


def latency(presses: int) -> dict[str, float]:
    pod, hub = connect("be0c000000000001")
    inside: list[float] = []
    seen: list[float] = []
    try:
        for i in range(presses):
            prompt = 1 + i % 250
            hub.send("state", prompt=prompt, **STATE)
            hub.pump(0.5, until=lambda: hub.link.unacked == 0)
            n = len(hub.received)
            t0 = time.perf_counter()
            pod.ctl("down ready", pump=hub.pump_once)
            hub.pump(1.0, until=lambda: len(hub.received) > n)
            t1 = time.perf_counter()
            got = [m for _, m in hub.received[n:] if m.type == "ready"]
            if not got or got[0]["prompt"] != prompt:
                raise SystemExit(f"press {i}: no ready frame")
            seen.append((t1 - t0) * 1000)
            inside.append(int(pod.ctl("lat").split()[1]) / 1000)
            # a player's press: held ~30 ms, then up; the next one 50 ms later
            # (both edges clear of the 20 ms debounce lockout of the other)
            hub.pump(max(0.0, 0.030 - (time.perf_counter() - t0)))
            pod.ctl("up ready", pump=hub.pump_once)
            hub.pump(0.050)
        s = pod.stats()
    finally:
        pod.close()
    return {
        "presses": presses,
        "inside_median_ms": statistics.median(inside),
        "inside_worst_ms": max(inside),
        "hub_median_ms": statistics.median(seen),
        "hub_worst_ms": max(seen),
        "lost_presses": s["lost_presses"],
    }


def countdown(runs: int, ms: int = 10000) -> dict[str, float]:
    pod, hub = connect("be0c000000000002")
    errors: list[float] = []
    rates: list[float] = []
    peak = 0
    try:
        for r in range(runs):
            prompt = 10 + r
            hub.send("state", prompt=prompt, **STATE)
            hub.pump(0.3, until=lambda: hub.link.unacked == 0)
            n = len(hub.received)
            hub.send("countdown", prompt=prompt, ms=ms)  # written to the pty here
            t0 = now_ms()
            hub.pump(ms / 10000)
            w0, c0 = pod.stats()["ring_writes"], time.perf_counter()
            hub.pump(ms * 0.7 / 1000)
            w1, c1 = pod.stats()["ring_writes"], time.perf_counter()
            rates.append((w1 - w0) / (c1 - c0))
            hub.pump(3.0, until=lambda: any(m.type == "expired" for _, m in hub.received[n:]))
            t1 = max(t for t, m in hub.received[n:] if m.type == "expired") if any(
                m.type == "expired" for _, m in hub.received[n:]) else None
            if t1 is None:
                raise SystemExit("no expiry")
            errors.append(t1 - t0 - ms)
            hub.pump(0.5)
        s = pod.stats()
        peak = s["heap_peak"]
        live = int(pod.ctl("gc").split()[1].split("=")[1])
    finally:
        pod.close()
    return {
        "runs": runs,
        "refresh_hz_min": min(rates),
        "refresh_hz_median": statistics.median(rates),
        "countdown_error_ms_median": statistics.median(errors),
        "countdown_error_ms_worst": max(errors, key=abs),
        "heap_peak_bytes": peak,
        "heap_live_bytes": live,
    }


# Runs the app exactly as main.py does, without the control channel (so no
# simulator code beyond the fake machine/neopixel), samples the heap every
# frame, and prints the figures on stderr when the hub closes the link.
HEAP_RUNNER = """
import gc, sys, machine, neopixel
gc.collect()
base = gc.mem_alloc()
import app
a = app.App(sys.argv[1:])
peak = [0]
tick = a.pod.tick
def sampled(now):
    tick(now)
    m = gc.mem_alloc()
    if m > peak[0]:
        peak[0] = m
a.pod.tick = sampled
try:
    app.asyncio.run(a.main())
except SystemExit:
    pass
gc.collect()
sys.stderr.write("heap peak=%d live=%d fakes=%d\\n" % (peak[0], gc.mem_alloc(), base))
"""


def heap(seconds: float) -> dict[str, int]:
    import os
    import subprocess
    import tempfile

    with tempfile.TemporaryDirectory() as tmp:
        Path(tmp, "heaprun.py").write_text(HEAP_RUNNER)
        pod = SimPod("be0c000000000003", control=False, module="heaprun", extra_path=(Path(tmp),),
                     stderr=subprocess.PIPE)
        hub = Bench(pod)
        hub.on_hello = lambda b: b.send("state", prompt=1, **STATE)
        if not hub.pump(10, until=lambda: hub.link.up):
            raise SystemExit("pod did not connect")
        # a busy stretch: countdown, reveal, results of every kind, notices
        hub.send("countdown", prompt=1, ms=3000)
        hub.pump(seconds / 2)
        for code in range(1, 14):
            hub.send("result", outcome=code, fp_delta=1, hp_delta=-100)
            hub.send("state", prompt=1 + code, **STATE)
            hub.pump(seconds / 30)
        hub.send("notice", code=6, arg=0)
        hub.pump(seconds / 4)
        os.close(pod.master)
        os.close(pod._slave)
        pod.master = pod._slave = -1
        _, err = pod.proc.communicate(timeout=10)
        pod.close()
    line = [x for x in err.decode().splitlines() if x.startswith("heap ")][-1]
    return {k: int(v) for k, v in (w.split("=") for w in line.split()[1:])}


def wire_sizes() -> list[tuple[str, int, float]]:
    out = []
    for f in json.loads((Path(__file__).resolve().parent.parent / "tests/vectors/protocol.json").read_text())["frames"]:
        kind = f["message"]["type"]
        n = len(bytes.fromhex(f["wire"]))
        if kind not in [k for k, _, _ in out]:
            out.append((kind, n, n * 10 / 115200 * 1000))  # 8N1: 10 bits a byte
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--presses", type=int, default=1000)
    ap.add_argument("--countdowns", type=int, default=3)
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--smoke", action="store_true", help="a short run that checks the bench works (CI): "
                    "5 presses, one 2 s countdown; the figures are not the ones to quote")
    ap.add_argument("--target", choices=("unix", "rp2040"), default="unix",
                    help="unix: the MicroPython unix port over ptys; rp2040: MicroPython's rp2 port on rp2040js")
    a = ap.parse_args(argv)
    if a.target == "rp2040":
        import pod_rp2040

        res = pod_rp2040.figures(3 if a.smoke else min(a.presses, 200), 1 if a.smoke else a.countdowns, smoke=a.smoke)
        print(json.dumps(res, indent=1) if a.json else "\n".join(pod_rp2040.table(res)))
        return 0
    if a.smoke:
        res = {"latency": latency(5), "countdown": countdown(1, 2000), "heap": heap(1.5)}
    else:
        res = {"latency": latency(a.presses), "countdown": countdown(a.countdowns), "heap": heap(6.0)}
    res["wire"] = [{"type": k, "bytes": n, "ms_at_115200": round(ms, 3)} for k, n, ms in wire_sizes()]
    if a.json:
        print(json.dumps(res, indent=1))
        return 0
    lat, cd = res["latency"], res["countdown"]
    print("| figure | measured | target |")
    print("|---|---|---|")
    print(f"| press-to-frame inside the pod, median / worst of {lat['presses']} | "
          f"{lat['inside_median_ms']:.2f} ms / {lat['inside_worst_ms']:.2f} ms | < 5 ms / < 20 ms |")
    print(f"| press-to-frame seen by the hub (2 ptys), median / worst | "
          f"{lat['hub_median_ms']:.2f} ms / {lat['hub_worst_ms']:.2f} ms | - |")
    print(f"| presses lost | {lat['lost_presses']} | 0 |")
    print(f"| ring refresh while counting down, min / median of {cd['runs']} | "
          f"{cd['refresh_hz_min']:.1f} Hz / {cd['refresh_hz_median']:.1f} Hz | >= 50 Hz |")
    print(f"| countdown error at {'2' if a.smoke else '10'} s (hub clock), median / worst | "
          f"{cd['countdown_error_ms_median']:+.1f} ms / {cd['countdown_error_ms_worst']:+.1f} ms | within 20 ms |")
    hp = res["heap"]
    print(f"| heap high-water mark, pod alone (incl. {hp['fakes'] / 1024:.1f} KB interpreter + fake machine/neopixel) | "
          f"{hp['peak'] / 1024:.1f} KB (live {hp['live'] / 1024:.1f} KB) | < 64 KB |")
    print(f"| same, with the simulator's control channel loaded | {cd['heap_peak_bytes'] / 1024:.1f} KB "
          f"(live {cd['heap_live_bytes'] / 1024:.1f} KB) | - |")
    print()
    print("| message | bytes on the wire | at 115200 baud |")
    print("|---|---|---|")
    for w in res["wire"]:
        print(f"| {w['type']} | {w['bytes']} | {w['ms_at_115200']:.2f} ms |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
