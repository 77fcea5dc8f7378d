"""``bench/pod.py --smoke`` runs (issue 33: every bench keeps a smoke run that CI executes): the
unix-port pods, a few presses and a 2 s countdown. It checks that the bench works, not the
figures (docs/performance.md quotes full runs); the emulated-RP2040 one is tests/rp2."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_the_pod_bench_smoke_run_works() -> None:
    r = subprocess.run([sys.executable, str(ROOT / "bench" / "pod.py"), "--smoke"], cwd=ROOT, capture_output=True,
                       text=True, timeout=300)
    assert r.returncode == 0, r.stdout[-2000:] + r.stderr[-2000:]
    assert "| presses lost | 0 | 0 |" in r.stdout and "countdown error at 2 s" in r.stdout
    assert "| ready_at | 11 |" in r.stdout
