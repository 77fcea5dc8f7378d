#!/usr/bin/env bash
# Every generated output of hardware/ from the committed schematic and board, in one go:
# fabrication files (Gerbers, drill, placement: KiCad's plotters), the BOM and cost table, wiring.svg,
# the board pictures, the enclosure's dimensions, STL files, checks and pictures.
#   bash hardware/tools/outputs.sh        (Debian's kicad + openscad installed; the project's venv active)
# The board itself (placement and routing) is hardware/tools/board.py: run it after changing the schematic.
set -euo pipefail
cd "$(dirname "$0")/../.."
PY=${PYTHON:-python}
/usr/bin/python3 hardware/tools/drc.py
$PY hardware/tools/erc.py
/usr/bin/python3 hardware/tools/export.py
$PY hardware/tools/ibom.py
$PY hardware/tools/bom.py
$PY hardware/tools/wiring.py
$PY hardware/tools/render_board.py
$PY hardware/enclosure/board_dims.py
$PY hardware/enclosure/build.py
