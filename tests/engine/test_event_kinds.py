"""The event kinds are declared, field by field, with their types (engine/core/event_kinds.py),
and the declaration is kept true: every ``ev(...)`` of the engine's source names a declared kind
and declared fields, and every event of every scenario and of bot games conforms (no field
undeclared, none required missing, every value of its declared type). The scenario checker reads
these declarations, so a wrong one would make it refuse good patterns or let bad ones through."""

import ast
import glob
from pathlib import Path

import pytest

from engine import apply, decide_at_time, new_game
from engine.bots import Bot, play
from engine.cards import load_sample
from engine.core.event_fields import FIELDS, event_problems
from engine.core.events import TEMPLATES
from engine.scenarios import run_paths

ROOT = Path(__file__).resolve().parents[2]


def test_every_kind_with_a_text_is_declared_and_no_other():
    assert set(FIELDS) == set(TEMPLATES)


def _ev_calls():
    """(where, kind, field names) of every ``ev("kind", rule, field=...)`` and ``ctx.marker(...)``."""
    for path in (ROOT / "engine").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.Call) or not node.args:
                continue
            name = node.func.id if isinstance(node.func, ast.Name) else getattr(node.func, "attr", None)
            if name not in ("ev", "marker") or not isinstance(node.args[0], ast.Constant):
                continue
            where = "%s:%d" % (path.relative_to(ROOT), node.lineno)
            yield where, node.args[0].value, [k.arg for k in node.keywords if k.arg is not None]


def test_every_event_the_source_writes_is_declared_with_its_fields():
    calls = list(_ev_calls())
    assert len(calls) > 80
    bad = ["%s: %s" % (where, kind) for where, kind, _ in calls if kind not in FIELDS]
    bad += ["%s: %s.%s" % (where, kind, f) for where, kind, fields in calls if kind in FIELDS
            for f in fields if f not in FIELDS[kind]]
    assert not bad, "events or fields not declared in engine/core/event_kinds.py: %s" % bad


@pytest.fixture(scope="module")
def events():
    """Every event of every scenario, of 40 bot games between the sample decks, and the at-time decisions."""
    out = []
    for o in run_paths(sorted(glob.glob(str(ROOT / "tests" / "scenarios" / "*" / "*.yaml")))):
        out += o.events
    cs, decks = load_sample()
    names = sorted(decks)
    for seed in range(40):
        a, b = decks[names[seed % len(names)]], decks[names[(seed * 7 + 1) % len(names)]]
        st, evs = new_game(cs.cards, a.as_game_deck(), b.as_game_deck(), seed=seed)
        out += evs
        policy = ("random", "greedy")[seed % 2]
        st = play(st, {"a": Bot(seed, policy), "b": Bot(seed + 1, "random")}, apply, copy=False,
                  on_step=lambda state, e, *rest: out.extend(e))
        out.append(decide_at_time(st).event())
    return out


def test_every_event_conforms_to_its_declaration(events):
    seen = {e["e"] for e in events}
    assert len(seen) >= 70             # the runs reach nearly every kind (the rest: read from the source above)
    problems = sorted({p for e in events for p in event_problems(e)})
    assert not problems, problems[:20]


def test_a_nonconforming_event_is_reported_field_by_field():
    assert event_problems({"e": "damage", "rule": "guide 4.4 step 12", "p": "b", "amount": "400", "card": "x",
                           "health": 4600, "pp": 1}) == [
        "damage: field 'pp' is not declared (engine/core/event_kinds.py)",
        "damage.amount = '400': must be an integer"]
    assert event_problems({"e": "damage", "rule": "r", "p": "c", "amount": 1, "card": None}) == [
        "damage: field 'health' is missing", "damage.p = 'c': must be a or b"]
    assert event_problems({"e": "dammage"}) == ["unknown event kind 'dammage'"]
    assert event_problems({"e": "turn_end", "rule": "guide 3.5.5", "turn": True}) == ["turn_end.turn = True: must be an integer"]
