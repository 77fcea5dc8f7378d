"""The interactive assembly BOM: InteractiveHtmlBom (PyPI) draws the committed board in one HTML page, every
part highlighted with its value, its manufacturer and part number (from the schematic's netlist): a builder
ticks off each part as it goes on.

    python hardware/tools/ibom.py [OUT]     # default hardware/pcb/fab/pod-ibom.html

InteractiveHtmlBom reads KiCad boards through pcbnew and wxPython, which only Debian's /usr/bin/python3 has
(KiCad's own packages bring both); pip cannot build wxPython here, so the package is installed without its
dependencies into the project folder .ibom (tests/run.sh: pip install --no-deps --target .ibom) and run by
Debian's python with that folder on its path.
"""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
sys.path.insert(0, str(HERE))
from schematic import Schematic, write_netlist

DEBIAN_PYTHON = "/usr/bin/python3"
PACKAGE = "InteractiveHtmlBom"


def package_dir() -> Path | None:
    """The folder holding the InteractiveHtmlBom package: the project's .ibom, or wherever pip put it."""
    if (ROOT / ".ibom" / PACKAGE).is_dir():
        return ROOT / ".ibom"
    spec = importlib.util.find_spec(PACKAGE)
    if spec is None or not spec.submodule_search_locations:
        return None
    return Path(list(spec.submodule_search_locations)[0]).parent


def make(out: Path) -> Path:
    where = package_dir()
    if where is None:
        raise SystemExit(f"{PACKAGE} is not installed: pip install --no-deps --target .ibom {PACKAGE}")
    out.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="lumen-ibom-") as tmp:
        net = Path(tmp) / "pod.net"
        net.write_text(write_netlist(Schematic.load(ROOT / "hardware" / "pcb" / "pod.kicad_sch"), "pod.kicad_sch"))
        # only the package on Debian python's path: not the rest of another interpreter's site-packages
        link = Path(tmp) / "path"
        link.mkdir()
        (link / PACKAGE).symlink_to(where / PACKAGE)
        env = dict(os.environ, PYTHONPATH=str(link), INTERACTIVE_HTML_BOM_NO_DISPLAY="1")
        r = subprocess.run([DEBIAN_PYTHON, "-m", f"{PACKAGE}.generate_interactive_bom",
                            str(ROOT / "hardware" / "pcb" / "pod.kicad_pcb"), "--no-browser", "--dest-dir",
                            str(out.parent), "--name-format", out.stem, "--include-tracks", "--layer-view", "F",
                            "--extra-fields", "Manufacturer,MPN", "--extra-data-file", str(net),
                            "--blacklist", "H*", "--no-compression", "--highlight-pin1", "all",
                            "--checkboxes", "Sourced,Placed,Soldered"], env=env, capture_output=True, text=True, timeout=600)
        if r.returncode != 0 or not out.exists():
            raise SystemExit(f"{PACKAGE} failed: {(r.stderr or r.stdout)[-1500:]}")
    return out


def main(argv: list[str]) -> int:
    out = Path(argv[0]) if argv else ROOT / "hardware" / "pcb" / "fab" / "pod-ibom.html"
    print(f"wrote {make(out)}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
