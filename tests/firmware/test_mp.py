"""Runs the MicroPython-side tests (tests/firmware/mp/*.py) under the real
unix port with an 80 KB heap; one pytest test per MicroPython test function."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

MP = Path(__file__).resolve().parent / "mp"


def _cases() -> list[tuple[str, str]]:
    out = []
    for f in sorted(MP.glob("mp_*.py")):
        for name in re.findall(r"^def (test_\w+)", f.read_text(), re.M):
            out.append((f.stem, name))
    return out


@pytest.mark.parametrize(("module", "name"), _cases(), ids=[f"{m}::{n}" for m, n in _cases()])
def test_micropython(run_mp, module: str, name: str) -> None:
    r = run_mp(module)
    lines = r.stdout.splitlines()
    if f"PASS {name}" in lines:
        return
    fail = [i for i, line in enumerate(lines) if line.startswith(f"FAIL {name} ")]
    if fail:
        i = fail[0]
        detail = [lines[i]]
        for line in lines[i + 1:]:
            if line.startswith(("PASS ", "FAIL ")):
                break
            detail.append(line)
        pytest.fail("\n".join(detail), pytrace=False)
    pytest.fail(f"{module} did not run {name} (exit {r.returncode}):\n{r.stdout[-2000:]}\n{r.stderr[-2000:]}",
                pytrace=False)
