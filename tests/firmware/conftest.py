"""Firmware tests: the real `micropython` binary, heap capped at 80 KB (hub/pods/sim.HEAP).

The firmware and the sim modules (firmware/sim) are compiled to .mpy with
mpy-cross (hub/pods/sim.build, cached by content), as they are for a board;
test-only modules (tests/firmware/fakes, tests/firmware/mp) likewise.
MICROPYPATH = firmware build : test build : .frozen (the unix port's own
asyncio).
"""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest

from hub.pods import sim as podsim

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
VECTORS = ROOT / "tests" / "vectors" / "protocol.json"
HEAP = podsim.HEAP


@pytest.fixture(scope="session")
def builds() -> tuple[Path, Path]:
    try:
        fw = podsim.build()
        # opt=0: asserts are the tests; -O3 would compile them away
        tests = podsim.build(files=sorted((HERE / "fakes").glob("*.py")) + sorted((HERE / "mp").glob("*.py")), opt=0)
    except podsim.SimError as e:  # e.g. mpy-cross or micropython not installed
        pytest.fail(str(e))
    return fw, tests


@pytest.fixture(scope="session")
def run_mp(builds):
    """Run a MicroPython module (from tests/firmware/mp) once; cached."""
    cache: dict[str, subprocess.CompletedProcess[str]] = {}

    def run(module: str) -> subprocess.CompletedProcess[str]:
        if module not in cache:
            env = podsim.micropython_env(builds[0], (builds[1],))
            env["LUMEN_VECTORS"] = str(VECTORS)
            # a module may ask for more with a "# heap: 96K" line (its reason beside it)
            m = re.search(r"^# heap: (\d+K)", (HERE / "mp" / f"{module}.py").read_text(), re.M)
            cache[module] = subprocess.run(
                [podsim.micropython_binary(), "-X", f"heapsize={m.group(1) if m else HEAP}", "-m", module],
                env=env, capture_output=True, text=True, timeout=300, cwd=ROOT,
            )
        return cache[module]

    return run


@pytest.fixture
def sim_pod(builds):
    pods: list[podsim.SimPod] = []

    def make(board_id: str = "e660583883000001", **kw) -> podsim.SimPod:
        pod = podsim.SimPod(board_id=board_id, build_dir=builds[0], **kw)
        pods.append(pod)
        return pod

    yield make
    for p in pods:
        p.close()

