"""The enclosure: OpenSCAD builds every part from pod.scad with the board file's dimensions; build.py checks
them (closed solids, the board fits with 0.3 mm to spare, caps on the switches, the OLED window over the
active area, bosses on the holes, no sight line from across the table) and renders the pictures."""

from __future__ import annotations

import subprocess
import sys

import board_dims

from tests.hardware.conftest import HW


def test_board_dims_are_read_from_the_board_file() -> None:
    assert board_dims.main(["--check"]) == 0, "run python hardware/enclosure/board_dims.py"
    d = board_dims.read()
    assert d["board"][:2] == [90.0, 88.0] and len(d["holes"]) == 4 and len(d["switches"]) == 4
    assert {s[2] for s in d["switches"]} == {"PREV", "NEXT", "READY", "BACK/MENU"}


def test_enclosure_builds_and_passes_its_checks(openscad, tmp_path) -> None:
    r = subprocess.run([sys.executable, str(HW / "enclosure" / "build.py"), "--out", str(tmp_path / "stl"),
                        "--renders", str(tmp_path / "renders")], capture_output=True, text=True, timeout=900)
    print(r.stdout)
    assert r.returncode == 0, r.stdout[-3000:] + r.stderr[-3000:]
    assert "0 failed" in r.stdout and "0 inside a shell" in r.stdout
    for part in ("bottom", "top", "caps", "diffuser"):
        assert (tmp_path / "stl" / f"{part}.stl").stat().st_size > 10_000
        assert f"{part}: " in r.stdout and "watertight True" in r.stdout
    for pic in ("enclosure-player.png", "enclosure-opponent.png", "enclosure-exploded.png"):
        assert (tmp_path / "renders" / pic).stat().st_size > 20_000
    assert "across the table 0% of the diffuser seen" in r.stdout
