"""The hardware lane: the carrier board (KiCad 6 through Debian's /usr/bin/python3 and its pcbnew module) and
the enclosure (OpenSCAD). Where a tool is missing, a user's clone skips what needs it in one line; CI
(CI=true) must run everything (.ci/run installs kicad, kicad-footprints, kicad-symbols and openscad)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
HW = ROOT / "hardware"
TOOLS = HW / "tools"
DEBIAN_PYTHON = "/usr/bin/python3"
for p in (TOOLS, HW / "enclosure"):
    if str(p) not in sys.path:
        sys.path.insert(0, str(p))


def _need(why: str | None) -> None:
    if why:
        if os.environ.get("CI") == "true":
            pytest.fail(f"hardware lane cannot run in CI: {why}")
        pytest.skip(f"hardware lane skipped: {why}")


@pytest.fixture(scope="session")
def pcbnew_python() -> str:
    ok = Path(DEBIAN_PYTHON).exists() and subprocess.run(
        [DEBIAN_PYTHON, "-c", "import pcbnew"], capture_output=True).returncode == 0
    _need(None if ok else "KiCad's pcbnew module is not importable from /usr/bin/python3 (apt-get install kicad)")
    _need(None if Path("/usr/share/kicad/footprints/Resistor_THT.pretty").is_dir()
          else "kicad-footprints is not installed")
    return DEBIAN_PYTHON


@pytest.fixture(scope="session")
def openscad() -> str:
    exe = shutil.which("openscad")
    _need(None if exe else "openscad is not installed (apt-get install openscad)")
    return exe


@pytest.fixture(scope="session")
def kicad_symbols() -> None:
    _need(None if Path("/usr/share/kicad/symbols/Device.kicad_sym").exists() else "kicad-symbols is not installed")
