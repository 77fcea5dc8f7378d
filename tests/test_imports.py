"""No command imports what it does not use (issue 26: every ``lumen`` command imported
networkx through the tournament's parser, 17 % of ``lumen hub``'s start-up). Each command
runs in a fresh interpreter with ``-X importtime``; the heavy packages a command does not
need must not appear."""

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
HEAVY_WEB = ("fastapi", "uvicorn", "starlette", "pydantic")
HEAVY_EVENT = ("networkx", "rustworkx", "paho", "zeroconf")


def imported(*argv):
    p = subprocess.run([sys.executable, "-X", "importtime", "-m", "hub.cli", *argv], cwd=ROOT,
                       capture_output=True, text=True, timeout=300)
    assert p.returncode == 0, p.stdout + p.stderr
    names = set()
    for line in p.stderr.splitlines():
        if line.startswith("import time:") and "|" in line:
            names.add(line.rsplit("|", 1)[1].strip().split(".")[0])
    return names


@pytest.mark.parametrize("argv, banned", [
    (["--help"], HEAVY_WEB + HEAVY_EVENT),
    (["hub", "--help"], HEAVY_WEB + HEAVY_EVENT),
    (["pod", "test", "--help"], HEAVY_WEB + HEAVY_EVENT),
    (["scenario", "tests/scenarios/judgment"], HEAVY_WEB + HEAVY_EVENT),
    (["cards", "check", "engine/data/sample"], HEAVY_WEB + HEAVY_EVENT),
    (["demo", "--text", "--quiet"], HEAVY_WEB + HEAVY_EVENT),
])
def test_a_command_imports_only_what_it_uses(argv, banned):
    names = imported(*argv)
    assert not names & set(banned), "lumen %s imported %s" % (" ".join(argv), ", ".join(sorted(names & set(banned))))
