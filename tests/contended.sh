#!/usr/bin/env bash
# The test suite on a machine that is busy with something else (issue 16): one busy loop per
# core (or $LUMEN_BUSY of them) at normal priority beside the tests, stopped when they end.
# Tests wait for events, never for time, so they must pass here exactly as on an idle machine.
#   tests/contended.sh [pytest arguments]      e.g. tests/contended.sh -x tests/hub
set -euo pipefail
cd "$(dirname "$0")/.."
n="${LUMEN_BUSY:-$(nproc)}"
pids=()
stop() { for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done; }
trap stop EXIT
for _ in $(seq "$n"); do
    python3 -c "while True: pass" &
    pids+=("$!")
done
echo "contended: $n busy loop(s) beside the tests (pids ${pids[*]})"
python3 -m pytest "$@"
