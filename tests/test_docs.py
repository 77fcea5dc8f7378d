"""The docs stay true: every ruling names scenario files that exist and pass."""

import pathlib
import re

from engine.scenarios.runner import run_file

ROOT = pathlib.Path(__file__).resolve().parent.parent
SCEN = ROOT / "tests" / "scenarios"


def ruling_blocks():
    text = (ROOT / "docs" / "rulings.md").read_text(encoding="utf-8")
    return re.findall(r"\*\*([BR]\d+)\. [^*]+\*\*(.*?)(?=\n\*\*[BR]\d+\. |\Z)", text, re.S)


def pinned(body):
    files = []
    for topic, first, last in re.findall(r"`(\w+)/(\d{3})`(?:-`(\d{3})`)?", body):
        lo = int(first)
        hi = int(last) if last else lo
        for n in range(lo, hi + 1):
            found = sorted((SCEN / topic).glob("%03d_*.yaml" % n))
            assert found, "docs/rulings.md names %s/%03d but no such scenario exists" % (topic, n)
            files += found
    return files


def test_every_ruling_is_pinned_by_passing_scenarios():
    blocks = ruling_blocks()
    ids = [b[0] for b in blocks]
    assert ids[:8] == ["B%d" % i for i in range(1, 9)]
    assert len(ids) >= 20
    for rid, body in blocks:
        files = pinned(body)
        assert files, "%s names no scenario" % rid
        for f in files:
            out = run_file(f)
            assert out.passed, "%s: %s" % (rid, out.line())


def test_readme_starts_with_the_two_commands():
    head = (ROOT / "README.md").read_text(encoding="utf-8").split("\n## ")[0]
    assert "lumen demo" in head and "tests/run.sh" in head


def test_every_end_of_round_ruling_names_tests_that_exist():
    """Issue 38: the lead's end-of-round rulings (R-time and the other games') are pinned by
    pytest tests, not scenarios (a timed game is the table's, not the engine's): each names
    tests that exist."""
    text = (ROOT / "docs" / "rulings.md").read_text(encoding="utf-8")
    section = text.split("## End of round (issue 38)", 1)[1]
    names = re.findall(r"\*\*(R-time[\w-]*)\. ", section)
    assert names == ["R-time", "R-time-gundam", "R-time-battlecon", "R-time-yojeong"]
    path = None
    for block in re.split(r"\n\*\*R-time", section)[1:]:
        tests = re.findall(r"`(tests/[\w/]+\.py)?::(test_\w+)`", block)
        assert tests, "an end-of-round ruling names no test: %s" % block[:60]
        for file, name in tests:
            path = file or path
            assert "def %s(" % name in (ROOT / path).read_text(encoding="utf-8"), "%s::%s" % (path, name)
