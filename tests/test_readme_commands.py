"""Issue 34.8: the README's commands stay true. Every line of its "Commands" block is either run
here as written (optional ``[...]`` parts left out) and must exit 0 saying what it should, or
is named below with why it can't run unattended (it serves until stopped, needs a person, a
pod or a file of the reader's). A new command in the README must be put in one of the two.
The two set-up commands at the top are run literally by .ci/run in a fresh virtual environment."""

import os
import pathlib
import re
import shutil
import subprocess
import sys

import pytest

ROOT = pathlib.Path(__file__).resolve().parent.parent

#: command as written (comment and optional parts dropped) -> what its output must hold
RUN = {
    "lumen demo --bots --games 5 --seed 3 --quiet --level easy": "게임 5: 승자",
    "lumen demo --text": "게임 1: 승자",
    "lumen profiles list": "battlecon",
    "lumen hub --help": "--db",
    "lumen scenario tests/scenarios/*/*.yaml": "PASS",
    "lumen cards check engine/data/sample": "",
}
#: command prefixes not run here, and why
NOT_RUN = {
    "lumen demo": "the README's first command (.ci/run runs it); the options are a template",
    "lumen demo --bots --port": "keeps playing and serving until stopped",
    "lumen demo --play": "a person plays it (tests/hub/test_terminal_play.py plays it in a pseudo-terminal)",
    "lumen hub": "serves a table until stopped (tests/hub, tests/faults start it)",
    "lumen profiles check FILE": "a file of the reader's",
    "lumen pod flash": "a pod on a USB port",
    "lumen pod image": "MicroPython's release from micropython.org (tests/rp2 builds the image)",
    "lumen pod test": "a pod on a USB port (tests/firmware runs its parts on the simulated pod)",
    "lumen games": "a record of the reader's (tests/hub/test_newcomer.py reads one)",
    "lumen export ID": "a game of the reader's record",
    "lumen replay m.json": "an export of the reader's",
    "lumen doctor": "a record of the reader's (tests/faults run it on damaged ones)",
    "lumen tournament": "an event of the reader's, served until stopped (tests/tournament)",
    "python3 bench/": "benchmarks take minutes; their --smoke runs are tests/test_bench_smoke.py",
}


def readme_commands():
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    block = re.search(r"^## Commands\n+```sh\n(.*?)^```", text, re.S | re.M)
    assert block, "README.md has no Commands block"
    out = []
    for line in block.group(1).splitlines():
        command = line.split("  #", 1)[0].strip()
        if command and not command.startswith("#"):
            out.append(command)
    return out


def _plain(command):
    """The command without its optional parts (``[--seed N]``), spaces tidied."""
    while re.search(r"\[[^\[\]]*\]", command):
        command = re.sub(r"\s*\[[^\[\]]*\]", "", command)
    return " ".join(command.split())


def _classify(command):
    plain = _plain(command)
    if plain in RUN:
        return "run", plain
    reasons = [p for p in NOT_RUN if plain == p or plain.startswith(p + " ") or (p.endswith("/") and plain.startswith(p))]
    return ("skip", max(reasons, key=len)) if reasons else ("unknown", plain)


def test_every_readme_command_is_run_here_or_says_why_not():
    unknown = [c for c in readme_commands() if _classify(c)[0] == "unknown"]
    assert not unknown, "README commands neither run by this test nor named in NOT_RUN: %s" % unknown
    ran = {_classify(c)[1] for c in readme_commands() if _classify(c)[0] == "run"}
    assert ran == set(RUN), "RUN names commands the README no longer has: %s" % (set(RUN) - ran)


def _lumen():
    """``lumen`` as the README types it when it is this environment's; else the same entry point."""
    found = shutil.which("lumen")
    if found and os.path.dirname(found) == os.path.dirname(sys.executable):
        return "lumen"
    return "%s -m hub.cli" % sys.executable


@pytest.mark.parametrize("command", sorted(RUN))
def test_a_readme_command_runs_as_written(command, tmp_path):
    shell = re.sub(r"^lumen\b", _lumen(), command)
    r = subprocess.run(["bash", "-c", shell], cwd=ROOT, capture_output=True, text=True, timeout=900,
                       stdin=subprocess.DEVNULL, env=dict(os.environ, TMPDIR=str(tmp_path)))
    assert r.returncode == 0, "%s: exit %d\n%s\n%s" % (command, r.returncode, r.stdout[-2000:], r.stderr[-2000:])
    assert RUN[command] in r.stdout, "%s printed:\n%s" % (command, r.stdout[-2000:])
    # lumen-pod-<hash>: the compiled firmware's cache, by content (hub/pods/sim.py build), kept for the next run
    left = [p.name for p in tmp_path.iterdir() if not re.fullmatch(r"lumen-pod-[0-9a-f]{16}", p.name)]
    assert not left, "%s left temporary files: %s" % (command, left)
