"""Type-check the firmware against micropython-rp2-rpi-pico-stubs with pyright.

The stubs live in the project folder .stubs (pip install --target, see
tests/run.sh), never in site-packages; firmware/pyrightconfig.json points
pyright at them.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
FIRMWARE = ROOT / "firmware"
STUBS = ROOT / ".stubs"


def _pyright(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    exe = shutil.which("pyright")
    cmd = [exe] if exe else [sys.executable, "-m", "pyright"]
    return subprocess.run([*cmd, *args], cwd=cwd, capture_output=True, text=True, timeout=600)


@pytest.fixture(scope="module")
def stubs() -> Path:
    if not (STUBS / "machine.pyi").exists() and not (STUBS / "machine").exists():
        pytest.fail("rp2 stubs missing: pip install --target .stubs micropython-rp2-rpi-pico-stubs "
                    "(tests/run.sh does this)")
    return STUBS


def test_firmware_type_checks_against_rp2_stubs(stubs) -> None:
    r = _pyright("-p", "pyrightconfig.json", cwd=FIRMWARE)
    assert r.returncode == 0, r.stdout[-4000:] + r.stderr[-2000:]
    assert "0 errors" in r.stdout


def test_the_check_has_teeth(stubs, tmp_path) -> None:
    # the same configuration catches a misuse of the rp2 API
    bad = FIRMWARE / "_typecheck_probe.py"
    bad.write_text("import machine\n\nmachine.Pin(1).frobnicate()\nmachine.WDT(timeout='4 s')\n")
    try:
        r = _pyright("-p", "pyrightconfig.json", cwd=FIRMWARE)
    finally:
        bad.unlink()
    assert r.returncode != 0 and "frobnicate" in r.stdout, r.stdout[-3000:]
