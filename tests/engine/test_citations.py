"""Rule citations name what the guide has (issue 32): the battle order's 18 steps are a numbered
list under the one heading 4.4, so an event cites "guide 4.4 step 12", never "guide 4.4.12", a
section the guide does not have."""

import re
from pathlib import Path

from engine import apply, new_game
from engine.bots import Bot, play
from engine.cards import load_sample

ROOT = Path(__file__).resolve().parents[2]
STEP_AS_SECTION = re.compile(r"guide 4\.4\.\d")


def test_no_battle_step_is_cited_as_a_section_in_the_engine():
    bad = ["%s:%d" % (p.relative_to(ROOT), n) for p in (ROOT / "engine").rglob("*.py")
           for n, line in enumerate(p.read_text(encoding="utf-8").splitlines(), 1) if STEP_AS_SECTION.search(line)]
    assert not bad, bad


def test_the_battle_events_cite_their_step():
    cs, decks = load_sample()
    st, events = new_game(cs.cards, decks["serin"].as_game_deck(), decks["gangcheol"].as_game_deck(), seed=3)
    seen = list(events)
    play(st, {"a": Bot(1, "greedy"), "b": Bot(2, "greedy")}, apply, on_step=lambda s, evs, *rest: seen.extend(evs))
    rules = {}
    for e in seen:
        rules.setdefault(e["e"], set()).add(e["rule"])
    assert rules["reveal"] == {"guide 4.4 step 1"}
    assert rules["result_fp"] == {"guide 4.4 step 11"}
    assert "guide 4.4 step 12" in rules["damage"]
    assert rules["battle_end"] == {"guide 4.4 step 18"}
    assert not [r for rs in rules.values() for r in rs if STEP_AS_SECTION.search(r)]
