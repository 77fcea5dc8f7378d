"""Code run in a fresh interpreter, for tests that ask what a start imports or builds (issue 36):
``sys.modules`` and the classes' state are the test's question, so they must not be this
process's. The code prints one JSON line last; that is the answer."""

import json
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def run_json(code, prelude="import json, sys\n"):
    out = subprocess.run([sys.executable, "-c", prelude + code], cwd=ROOT, capture_output=True, text=True,
                         timeout=300)
    assert out.returncode == 0, out.stderr[-3000:]
    return json.loads(out.stdout.strip().splitlines()[-1])
