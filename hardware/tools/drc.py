"""KiCad's own design rules check of the pod carrier, headless.

KiCad 6.0 has no kicad-cli; its pcbnew Python module (Debian's
/usr/bin/python3) runs the same DRC engine as the editor's Inspect > DRC:
``pcbnew.WriteDRCReport`` writes its report, which ends with the number of
violations and of unconnected pads. Zones are refilled first, as the
editor's DRC does by default.

    /usr/bin/python3 hardware/tools/drc.py [hardware/pcb/pod.kicad_pcb]
    DRC (KiCad 6.0.11 pcbnew.WriteDRCReport): 0 violations, 0 unconnected pads

Exit status 0 only when both are 0.
"""

from __future__ import annotations

import re
import sys
import tempfile
from pathlib import Path

import pcbnew


def run(path: Path) -> tuple[int, int, str]:
    board = pcbnew.LoadBoard(str(path))
    with tempfile.TemporaryDirectory() as tmp:
        rpt = Path(tmp) / "drc.rpt"
        if not pcbnew.WriteDRCReport(board, str(rpt), pcbnew.EDA_UNITS_MILLIMETRES, True):
            raise SystemExit("pcbnew.WriteDRCReport failed")
        text = rpt.read_text()
    viol = re.search(r"\*\* Found (\d+) DRC violations \*\*", text)
    unc = re.search(r"\*\* Found (\d+) unconnected pads \*\*", text)
    if not viol or not unc:
        raise SystemExit("unexpected DRC report:\n" + text[-2000:])
    return int(viol[1]), int(unc[1]), text


def main(argv: list[str]) -> int:
    path = Path(argv[0]) if argv else Path(__file__).resolve().parent.parent / "pcb" / "pod.kicad_pcb"
    v, u, text = run(path)
    if v or u:
        print(text)
    print(f"DRC (KiCad {pcbnew.Version()} pcbnew.WriteDRCReport on {path.name}): "
          f"{v} violations, {u} unconnected pads")
    return 1 if v or u else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
