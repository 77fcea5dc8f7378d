"""Issue 34.7: every bench runs, so none can break unseen (bench/hub.py died on a TypeError and
bench/flood.py on another after the pods' ready became ``ready_at``, and nothing noticed).

Each bench (a script of bench/ with a ``__main__``) has ``--smoke``: every part, small, in
seconds; its figures mean nothing. The benches that count instructions run their smoke with
no counter (``LUMEN_BENCH_COUNTER=none``: wall time only), except one that keeps the counter so
the counting path (bench/icount.py under callgrind) runs too. A new bench must be listed here."""

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
BENCH = ROOT / "bench"

#: bench -> (extra arguments, the counter kept)
SMOKE = {
    "bot.py": ((), False),
    "cards.py": ((), False),
    "durable.py": ((), False),
    "engine.py": ((), True),
    "flood.py": ((), False),
    "hub.py": ((), False),
    "hub_counts.py": ((), False),
    "recent_games.py": ((), False),
    "startup.py": ((), False),
    "tournament.py": ((), False),
}
#: scripts whose smoke runs elsewhere, or that are not benches of their own
ELSEWHERE = {
    "pod.py": "tests/firmware/test_bench_smoke.py and tests/rp2/test_bench_smoke.py run its --smoke",
    "td_traced.py": "the TD's traced process, started by bench/tournament.py --td-trace",
}


def benches():
    return sorted(p.name for p in BENCH.glob("*.py") if re.search(r'^if __name__ == "__main__":', p.read_text(), re.M))


def test_every_bench_has_a_smoke_run_here_or_elsewhere():
    found = set(benches())
    assert found == set(SMOKE) | set(ELSEWHERE), "bench scripts not listed: %s; listed, gone: %s" % (
        sorted(found - set(SMOKE) - set(ELSEWHERE)), sorted((set(SMOKE) | set(ELSEWHERE)) - found))
    for name in found - {"td_traced.py"}:
        assert "--smoke" in (BENCH / name).read_text(), "%s has no --smoke" % name


@pytest.mark.parametrize("name", sorted(SMOKE))
def test_a_bench_runs_its_smoke(name, tmp_path):
    extra, counted = SMOKE[name]
    if name == "tournament.py":
        from hub.tournament.broker import available
        if available():
            pytest.skip("Mosquitto is not installed: %s" % available())
    env = dict(os.environ, PYTHONPATH=str(ROOT), TMPDIR=str(tmp_path))
    if not counted:
        env["LUMEN_BENCH_COUNTER"] = "none"
    r = subprocess.run([sys.executable, str(BENCH / name), "--smoke", *extra], cwd=ROOT, env=env, capture_output=True,
                       text=True, timeout=600, stdin=subprocess.DEVNULL)
    assert r.returncode == 0, "%s --smoke: exit %d\n%s\n%s" % (name, r.returncode, r.stdout[-3000:], r.stderr[-3000:])
    assert re.search(r"\d", r.stdout), "%s --smoke printed no figures:\n%s" % (name, r.stdout[-2000:])
