"""The committed board (hardware/pcb/pod.kicad_pcb): KiCad's own DRC through pcbnew's Python API (KiCad 6.0 has
no kicad-cli) finds 0 violations and 0 unconnected pads; its parts and pad nets are the schematic's; the
fabrication files come out of KiCad's plotters."""

from __future__ import annotations

import subprocess

import sexpr
from schematic import Schematic

from tests.hardware.conftest import HW, TOOLS


def test_kicad_drc_0_violations_0_unconnected(pcbnew_python) -> None:
    r = subprocess.run([pcbnew_python, str(TOOLS / "drc.py"), str(HW / "pcb" / "pod.kicad_pcb")],
                       capture_output=True, text=True, timeout=600)
    print(r.stdout[-3000:])
    assert r.returncode == 0, r.stdout[-3000:] + r.stderr[-2000:]
    assert "0 violations, 0 unconnected pads" in r.stdout


def test_the_board_is_the_schematic() -> None:
    sch = Schematic.load(HW / "pcb" / "pod.kicad_sch")
    want = {(n.ref, n.pin): name for name, nodes in sch.nets().items() for n in nodes if not n.ref.startswith("#")}
    comps = sch.components()
    t = sexpr.parse((HW / "pcb" / "pod.kicad_pcb").read_text())
    seen = {}
    for fp in sexpr.find(t, "footprint"):
        ref = next(str(x[2]) for x in sexpr.find(fp, "fp_text") if x[1] == "reference")
        assert str(fp[1]) == comps[ref].footprint, ref
        for pad in sexpr.find(fp, "pad"):
            num = str(pad[1])
            if not num:
                continue  # a mounting hole's
            net = sexpr.first(pad, "net")
            got = str(net[2]) if net is not None else None
            exp = want[(ref, num)]
            assert got == (None if exp.startswith("unconnected-") else exp), (ref, num, got, exp)
        seen[ref] = True
    assert set(seen) == set(comps)
    tracks = sexpr.find(t, "segment")
    assert len(tracks) > 100  # routed, not a ratsnest


def test_fabrication_files(pcbnew_python, tmp_path) -> None:
    r = subprocess.run([pcbnew_python, str(TOOLS / "export.py"), str(tmp_path)], capture_output=True, text=True,
                       timeout=600)
    assert r.returncode == 0, r.stderr[-2000:]
    names = {p.name for p in tmp_path.iterdir()}
    for layer in ("F_Cu", "B_Cu", "F_Mask", "B_Mask", "F_SilkS", "Edge_Cuts"):
        assert f"pod-{layer}.gbr" in names
        assert "%FSLAX" in (tmp_path / f"pod-{layer}.gbr").read_text()  # a Gerber file
    drill = (tmp_path / "pod-PTH.drl").read_text()
    assert drill.startswith("M48") and drill.count("\nX") > 100  # every through-hole pad and via
    assert (tmp_path / "pod-NPTH.drl").read_text().count("\nX") == 4  # the mounting holes
    pos = (tmp_path / "pod-pos.csv").read_text().splitlines()
    assert pos[0].startswith("Ref,Val,Package,PosX,PosY,Rot,Side") and any(line.startswith('"Q1"') for line in pos)
