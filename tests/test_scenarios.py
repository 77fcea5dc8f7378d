"""Every tests/scenarios/**/*.yaml is a rule-conformance test (brief 4.2)."""

import pathlib

import pytest

from engine.scenarios.runner import run_file

ROOT = pathlib.Path(__file__).parent / "scenarios"
FILES = sorted(p for p in ROOT.rglob("*.yaml") if "invalid" not in p.parts)


@pytest.mark.parametrize("path", FILES, ids=[str(p.relative_to(ROOT)) for p in FILES])
def test_scenario(path):
    outcome = run_file(path)
    assert outcome.passed, outcome.line()


def test_there_are_scenarios():
    assert len(FILES) >= 40
