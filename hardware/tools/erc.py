"""Electrical rules check of the pod carrier, on its netlist.

KiCad 6.0 has no headless ERC (eeschema has no Python API nor command line),
so this is our own checker, written for this project, reading the
S-expression netlist that schematic.py writes from pod.kicad_sch (KiCad's
netlist format, with each node's pin type). It applies:

1. the pin-to-pin conflict matrix of KiCad's default ERC settings (two
   outputs on one net, an output on a power output, ...); warnings fail too;
2. every input is driven (an output, bidirectional, tri-state, passive,
   open collector/emitter or power output pin on its net);
3. every power input is powered (a power output or a PWR_FLAG on its net);
4. every pin is connected, or carries a no-connect flag; a flagged pin is
   alone on its net;
5. every pin of every unit of a part is on the sheet (a multi-unit part
   with a unit left out leaves inputs floating: the 74AHCT125's spare gates);
6. every part on the board has a footprint that exists in the libraries, and
   every part in the BOM a manufacturer and part number;
7. the schematic has no label that touches nothing.

    /usr/bin/python3 hardware/tools/erc.py hardware/pcb/pod.kicad_sch     # or python3 from the venv
    ERC (hardware/tools/erc.py on the netlist): 0 errors, 0 warnings

Exit status 0 only with no error and no warning.
"""

from __future__ import annotations

import sys
from pathlib import Path

from schematic import Netlist, Schematic, write_netlist

TYPES = ["input", "output", "bidirectional", "tri_state", "passive", "free", "unspecified", "power_in", "power_out",
         "open_collector", "open_emitter", "no_connect"]
# KiCad's default pin conflict matrix (as in eeschema/erc_settings.cpp, m_defaultPinMap): . ok, W warning, E error;
# rows and columns in TYPES order (KiCad's I, O, Bi, 3S, Pas, NIC, UnS, PwrI, PwrO, OC, OE, NC)
_MATRIX = """
. . . . . . W . . . . E
. E . W . . W . E E E E
. . . . . . W . W . W E
. W . . . . W W E W W E
. . . . . . W . . . . E
. . . . . . . . . . . E
W W W W W . W W W W W E
. . . W . . W . . . . E
. E W E . . W . E E E E
. E . W . . W . E . . E
. E W W . . W . E . . E
E E E E E E E E E E E E
"""
MATRIX = {(TYPES[i], TYPES[j]): v for i, row in enumerate(_MATRIX.split("\n")[1:-1]) for j, v in enumerate(row.split())}
DRIVERS = {"output", "bidirectional", "tri_state", "passive", "open_collector", "open_emitter", "power_out"}
FOOTPRINT_DIRS = [Path("/usr/share/kicad/footprints")]


def check(sch_path: Path, net_path: Path | None = None) -> tuple[list[str], list[str]]:
    """(errors, warnings) of the schematic, checked through its netlist."""
    sch = Schematic.load(sch_path)
    net_path = net_path or sch_path.with_suffix(".net")
    net_path.write_text(write_netlist(sch, sch_path.name))
    nl = Netlist.load(net_path)
    errors: list[str] = []
    warnings: list[str] = []
    on_net = set()
    for name, nodes in nl.nets.items():
        types = [(n, n.type.split("+")[0]) for n in nodes]
        flagged = [n for n in nodes if n.type.endswith("+no_connect")]
        for n in nodes:
            on_net.add((n.ref, n.pin))
        real = [n for n in nodes if not n.ref.startswith("#")]
        if flagged and len(nodes) > 1:
            errors.append(f"net {name}: {', '.join(f'{n.ref}-{n.pin}' for n in flagged)} flagged no-connect but "
                          f"connected to {', '.join(f'{n.ref}-{n.pin}' for n in nodes if n not in flagged)}")
        if len(real) == 1 and not flagged and len(nodes) == 1:
            n = real[0]
            errors.append(f"{n.ref} pin {n.pin} ({n.function or '~'}, {n.type}) is not connected")
        for i, (a, ta) in enumerate(types):
            for b, tb in types[i + 1:]:
                v = MATRIX[(ta, tb)]
                if v != ".":
                    (errors if v == "E" else warnings).append(
                        f"net {name}: {a.ref}-{a.pin} ({ta}) with {b.ref}-{b.pin} ({tb})")
        kinds = {t for n, t in types if n not in flagged}
        if "input" in kinds and not kinds & DRIVERS and len(nodes) > 1:
            errors.append(f"net {name}: input pin(s) {', '.join(f'{n.ref}-{n.pin}' for n, t in types if t == 'input')} "
                          "not driven by any output")
        if "power_in" in kinds and "power_out" not in kinds:
            errors.append(f"net {name}: power input(s) {', '.join(f'{n.ref}-{n.pin}' for n, t in types if t == 'power_in')} "
                          "not driven by a power output (add a PWR_FLAG if the supply comes from off the sheet)")
    for ref, c in nl.components.items():
        pins = nl.pin_types.get((c["lib"], c["part"]), {})
        for num, (pname, _) in pins.items():
            if (ref, num) not in on_net:
                errors.append(f"{ref} pin {num} ({pname}) is not on the sheet (a unit of {c['part']} not placed?)")
        if not c["footprint"]:
            errors.append(f"{ref} ({c['value']}) has no footprint")
        elif not footprint_exists(c["footprint"], sch_path.parent):
            errors.append(f"{ref}: footprint {c['footprint']} is in no library here")
        if c.get("in_bom", "yes") == "yes" and (not c.get("Manufacturer") or not c.get("MPN")):
            errors.append(f"{ref} ({c['value']}) is in the BOM without a manufacturer and part number")
    for name in sch.dangling_labels():
        errors.append(f"label {name} touches no wire or pin")
    return errors, warnings


def footprint_exists(fp: str, project: Path) -> bool:
    lib, _, name = fp.partition(":")
    own = [project / f"{lib}.pretty", Path(__file__).resolve().parent.parent / "pcb" / f"{lib}.pretty"]
    dirs = own if lib == "pod" else [d / f"{lib}.pretty" for d in FOOTPRINT_DIRS]
    return any((d / f"{name}.kicad_mod").exists() for d in dirs)


def main(argv: list[str]) -> int:
    sch = Path(argv[0]) if argv else Path(__file__).resolve().parent.parent / "pcb" / "pod.kicad_sch"
    errors, warnings = check(sch)
    for e in errors:
        print(f"error: {e}")
    for w in warnings:
        print(f"warning: {w}")
    print(f"ERC (hardware/tools/erc.py on the netlist {sch.with_suffix('.net').name}): "
          f"{len(errors)} errors, {len(warnings)} warnings")
    return 1 if errors or warnings else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
