"""``bench/pod.py --target rp2040 --smoke`` runs (issue 33): one emulated Pico for every figure,
a few presses and a 2 s countdown. It checks that the bench works; the figures quoted in
docs/performance.md come from full runs."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_the_emulated_rp2040_bench_smoke_run_works(rp2_files) -> None:
    env = dict(os.environ, LUMEN_RP2_DIR=str(rp2_files))
    r = subprocess.run([sys.executable, str(ROOT / "bench" / "pod.py"), "--target", "rp2040", "--smoke", "--json"],
                       cwd=ROOT, capture_output=True, text=True, timeout=600, env=env)
    assert r.returncode == 0, r.stdout[-2000:] + r.stderr[-2000:]
    res = json.loads(r.stdout)
    assert res["smoke"] and res["latency"]["presses"] == 3 and res["latency_oled"]["presses"] == 3
    assert res["countdown"]["countdown_ms"] == 2000 and res["oled"]["presses"] == 2
    assert 20_000 < res["heap"]["peak_bytes"] < 200_000
