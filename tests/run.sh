#!/usr/bin/env bash
# The whole test suite, set-up included, on a fresh machine (the README's test command).
set -euo pipefail
cd "$(dirname "$0")/.."
python3 -m pip install -q -e '.[test]'
# rp2 stubs go in a project folder, not site-packages, so the CPython side never imports them
if [ ! -d .stubs/machine ] && [ ! -f .stubs/machine.pyi ] && [ ! -d .stubs/rp2 ]; then
    python3 -m pip install -q --target .stubs micropython-rp2-rpi-pico-stubs
fi
python3 -m pytest "$@"
