"""Fabrication files of the pod carrier from the committed board, with KiCad's
own plotters (pcbnew's Python module, Debian's /usr/bin/python3):

    /usr/bin/python3 hardware/tools/export.py [OUT]   # default hardware/pcb/fab/

* Gerber X2 of both copper layers, solder mask, silkscreen, paste and the
  outline, plus the Gerber job file;
* Excellon drill files (plated and non-plated apart) with a drill map;
* the placement file (CSV, mm, every part: where each goes and how it turns);
* an assembly house's BOM and CPL (pick-and-place) in the columns JLCPCB and
  most others ask for: the BOM's values and part numbers from the schematic,
  the CPL's positions and turns from the board.

The builder's BOM comes from the schematic (bom.py), the interactive assembly
BOM from ibom.py, the pictures from render_board.py.
"""

from __future__ import annotations

import sys
from pathlib import Path

import csv
import io

import pcbnew

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from schematic import Schematic, _refkey
LAYERS = [("F.Cu", pcbnew.F_Cu), ("B.Cu", pcbnew.B_Cu), ("F.Mask", pcbnew.F_Mask), ("B.Mask", pcbnew.B_Mask),
          ("F.SilkS", pcbnew.F_SilkS), ("B.SilkS", pcbnew.B_SilkS), ("F.Paste", pcbnew.F_Paste),
          ("Edge.Cuts", pcbnew.Edge_Cuts)]


def export(pcb: Path, out: Path) -> list[Path]:
    out.mkdir(parents=True, exist_ok=True)
    board = pcbnew.LoadBoard(str(pcb))
    pc = pcbnew.PLOT_CONTROLLER(board)
    po = pc.GetPlotOptions()
    po.SetOutputDirectory(str(out))
    po.SetPlotFrameRef(False)
    po.SetUseGerberProtelExtensions(False)
    po.SetUseGerberX2format(True)
    po.SetIncludeGerberNetlistInfo(True)
    po.SetSubtractMaskFromSilk(True)
    po.SetExcludeEdgeLayer(True)
    po.SetUseAuxOrigin(False)
    po.SetDrillMarksType(pcbnew.PCB_PLOT_PARAMS.NO_DRILL_SHAPE)
    written = []
    for name, layer in LAYERS:
        pc.SetLayer(layer)
        pc.OpenPlotfile(name.replace(".", "_"), pcbnew.PLOT_FORMAT_GERBER, name)
        pc.PlotLayer()
        written.append(Path(pc.GetPlotFileName()))
    pc.ClosePlot()
    drill = pcbnew.EXCELLON_WRITER(board)
    drill.SetMapFileFormat(pcbnew.PLOT_FORMAT_PDF)
    drill.SetOptions(False, False, pcbnew.wxPoint(0, 0), False)  # mirror, minimal header, offset, merge NPTH
    drill.SetFormat(True)  # metric
    drill.CreateDrillandMapFilesSet(str(out), True, True)
    written += sorted(out.glob("*.drl")) + sorted(out.glob("*-drl_map.pdf"))
    pos = out / "pod-pos.csv"
    # mm, every part (a hand builder places the through-hole ones too), both sides, CSV, board origin
    ex = pcbnew.PLACE_FILE_EXPORTER(board, True, False, False, True, True, True, False)
    pos.write_text(ex.GenPositionData())
    written.append(pos)
    written += assembly_files(board, out)
    return written


def assembly_files(board, out: Path) -> list[Path]:
    """pod-bom-fab.csv (Comment, Designator, Footprint, Manufacturer, MPN, Quantity) and pod-cpl.csv
    (Designator, Mid X, Mid Y, Layer, Rotation; mm, y up as KiCad's placement file has it)."""
    comps = Schematic.load(HERE.parent / "pcb" / "pod.kicad_sch").components()
    groups: dict[tuple, list[str]] = {}
    for ref, c in comps.items():
        if c.in_bom:
            key = (c.value, c.footprint.split(":")[-1], c.fields.get("Manufacturer", ""), c.fields.get("MPN", ""))
            groups.setdefault(key, []).append(ref)
    b = io.StringIO()
    w = csv.writer(b, lineterminator="\n")
    w.writerow(["Comment", "Designator", "Footprint", "Manufacturer", "MPN", "Quantity"])
    for (value, fp, mfr, mpn), refs in sorted(groups.items(), key=lambda kv: _refkey(sorted(kv[1], key=_refkey)[0])):
        w.writerow([value, ",".join(sorted(refs, key=_refkey)), fp, mfr, mpn, len(refs)])
    c = io.StringIO()
    w = csv.writer(c, lineterminator="\n")
    w.writerow(["Designator", "Mid X", "Mid Y", "Layer", "Rotation"])
    for fp in sorted(board.GetFootprints(), key=lambda f: _refkey(f.GetReference())):
        ref = fp.GetReference()
        if ref not in comps or not comps[ref].in_bom:
            continue
        p = fp.GetPosition()
        w.writerow([ref, f"{pcbnew.ToMM(p.x):.3f}", f"{-pcbnew.ToMM(p.y):.3f}", "Top" if fp.GetLayer() == pcbnew.F_Cu
                    else "Bottom", f"{fp.GetOrientationDegrees() % 360:g}"])
    (out / "pod-bom-fab.csv").write_text(b.getvalue())
    (out / "pod-cpl.csv").write_text(c.getvalue())
    return [out / "pod-bom-fab.csv", out / "pod-cpl.csv"]


def main(argv: list[str]) -> int:
    out = Path(argv[0]) if argv else HERE.parent / "pcb" / "fab"
    files = export(HERE.parent / "pcb" / "pod.kicad_pcb", out)
    for f in files:
        print(f"wrote {f}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
