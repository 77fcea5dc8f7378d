"""Fabrication files of the pod carrier from the committed board, with KiCad's
own plotters (pcbnew's Python module, Debian's /usr/bin/python3):

    /usr/bin/python3 hardware/tools/export.py [OUT]   # default hardware/pcb/fab/

* Gerber X2 of both copper layers, solder mask, silkscreen, paste and the
  outline, plus the Gerber job file;
* Excellon drill files (plated and non-plated apart) with a drill map;
* the placement file (CSV, mm, every part: where each goes and how it turns).

The BOM comes from the schematic (bom.py), the pictures from render_board.py.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pcbnew

HERE = Path(__file__).resolve().parent
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
    return written


def main(argv: list[str]) -> int:
    out = Path(argv[0]) if argv else HERE.parent / "pcb" / "fab"
    files = export(HERE.parent / "pcb" / "pod.kicad_pcb", out)
    for f in files:
        print(f"wrote {f}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
