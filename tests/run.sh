#!/usr/bin/env bash
# The whole test suite, set-up included, on a fresh machine (the README's test command).
set -euo pipefail
cd "$(dirname "$0")/.."
python3 -m pip install -q -e '.[test,openspiel]'   # openspiel: the search player's checker (~20 s)
# rp2 stubs go in a project folder, not site-packages, so the CPython side never imports them
if [ ! -d .stubs/machine ] && [ ! -f .stubs/machine.pyi ] && [ ! -d .stubs/rp2 ]; then
    python3 -m pip install -q --target .stubs micropython-rp2-rpi-pico-stubs
fi
# InteractiveHtmlBom for the assembly BOM (tests/hardware, hardware/tools/ibom.py): run by Debian's python3, whose
# KiCad packages bring pcbnew and wxPython; pip cannot build its wxPython requirement, so it goes in without its
# dependencies, into a project folder as the stubs do (not in the test extra for that reason)
if [ ! -d .ibom/InteractiveHtmlBom ]; then
    python3 -m pip install -q --no-deps --target .ibom 'InteractiveHtmlBom==2.12.0'
fi
# rp2040js for the emulated-RP2040 lane, as pinned by tests/rp2/package-lock.json
# (without npm the lane says so in one line and skips; CI installs Node first)
if command -v npm >/dev/null; then
    (cd tests/rp2 && npm ci --no-audit --no-fund --loglevel=error >/dev/null)
fi
# lint and types first: seconds, and a red one says exactly where (pyproject.toml [tool.ruff], [tool.mypy])
python3 -m ruff check --output-format concise .
python3 -m mypy
python3 -m pytest "$@"
