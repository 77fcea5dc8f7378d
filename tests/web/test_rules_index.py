"""The rules index for learners (issue 22 point 10): every guide section the engine and the
tracker cite, found in hub/web/rules_index.yaml, Korean and English, in our own words.

The cited sections are collected two ways: from what the engine and the hub actually say
(every event's rule and every explanation's "[가이드 …]" in the rule-conformance scenarios
and in bot games, the tracker's display lines, the effect registry's sections), and from
every "guide N.N" written in their source (a section cited in a docstring or a message
that no game above happened to reach)."""

import glob
import re
from pathlib import Path

import pytest

from engine.scenarios import runner as scenario
from engine.bots import Bot, play
from engine.cards.decks import load_sample
from engine.core.events import explain
from engine.api.game import apply, new_game
from hub.sessions.display.tracker import ACTION_RULES, RESULT_RULES
from hub.web import rules

ROOT = Path(__file__).resolve().parents[2]
SEED = ROOT.parent / "shared" / "seeds" / "000_8f02279aa7b13bd3.txt"
HANGUL = re.compile(r"[\uac00-\ud7a3]")


def _cited_by_events(events, cards):
    out = set()
    for e in events:
        if e.get("rule"):
            out.update(rules.sections_in(e["rule"]))
        text = explain(e, cards)
        out.update(rules.sections_in(text["ko"]) + rules.sections_in(text["en"]))
    return out


@pytest.fixture(scope="module")
def cited_in_play():
    """Sections cited while playing: every scenario, and bot games between the sample decks."""
    out = set()
    for o in scenario.run_paths(sorted(glob.glob(str(ROOT / "tests" / "scenarios" / "*" / "*.yaml")))):
        out |= _cited_by_events(o.events or [], o.state.cards if o.state is not None else None)
    cs, decks = load_sample()
    names = sorted(decks)
    for seed in range(4):
        a, b = decks[names[seed % len(names)]], decks[names[(seed + 1) % len(names)]]
        st, events = new_game(cs.cards, a.as_game_deck(), b.as_game_deck(), seed=seed)
        seen = list(events)
        play(st, {"a": Bot(seed * 2 + 1, "greedy"), "b": Bot(seed * 2 + 2, "greedy")}, apply,
             on_step=lambda state, evs, *rest: seen.extend(evs))
        out |= _cited_by_events(seen, cs.cards)
    return out


def _cited_in_source():
    out = {}
    for path in list((ROOT / "engine").rglob("*.py")) + list((ROOT / "hub").rglob("*.py")) + \
            list((ROOT / "engine" / "data").rglob("*.yaml")) + list((ROOT / "hub" / "web" / "static").glob("*.js")):
        for section in rules.sections_in(path.read_text(encoding="utf-8")):
            out.setdefault(section, str(path.relative_to(ROOT)))
    return out


def test_every_section_cited_in_play_is_in_the_index(cited_in_play):
    index = rules.index()
    assert len(cited_in_play) > 30          # the games reached a good part of the guide
    missing = sorted(cited_in_play - set(index))
    assert not missing, "sections the engine cites with no entry in the rules index: %s" % missing


def test_every_section_cited_in_the_source_is_in_the_index():
    index = rules.index()
    missing = {s: where for s, where in _cited_in_source().items() if s not in index}
    assert not missing, "sections cited in the source with no entry in the rules index: %s" % missing


def test_the_tracker_and_the_effect_registry_cite_only_indexed_sections():
    from engine.cards.effects import REGISTRY, TIMINGS
    refs = list(ACTION_RULES.values()) + list(RESULT_RULES.values())
    refs += [p.guide for p in REGISTRY.values()] + [guide for _, _, guide, _ in TIMINGS]
    # every reference is a guide section, or names its other source (the brief, our rulings)
    assert not [r for r in refs if not rules.sections_in(r) and not r.startswith(("brief", "ruling"))]
    for ref in refs:
        for section in rules.sections_in(ref):
            assert section in rules.index(), ref


def test_entries_are_korean_and_english_and_in_our_own_words():
    seed = SEED.read_text(encoding="utf-8") if SEED.exists() else ""
    compact = re.sub(r"\s+", "", seed)
    for section, e in rules.index().items():
        assert HANGUL.search(e["ko"]) and HANGUL.search(e["title"]["ko"]), section
        assert not HANGUL.search(e["en"]) and not HANGUL.search(e["title"]["en"]), section
        if compact:
            # written by us: no 30-character run of the rule text copied (spaces aside)
            ko = re.sub(r"\s+", "", e["ko"])
            copied = [ko[i:i + 30] for i in range(0, max(0, len(ko) - 30)) if ko[i:i + 30] in compact]
            assert not copied, (section, copied[:1])


def test_a_lower_speed_is_faster_where_it_matters():
    index = rules.index()
    for section in ("3.6.2.2", "3.7", "4.2.1", "4.4.7", "5.3.2"):
        e = index[section]
        assert re.search(r"낮(을수록|춰|추고|은 쪽|은)", e["ko"]) and re.search(r"(?i)lower", e["en"]), section


def test_lookup_reads_every_form_a_badge_takes():
    assert rules.lookup("가이드 3.6.2.2")["section"] == "3.6.2.2"
    assert rules.lookup("guide 4.4 step 7")["section"] == "4.4.7"
    assert rules.lookup("guide 3.10")["title"]["en"].startswith("Non-response")
    assert rules.lookup("3.6.2.9")["section"] == "3.6.2"     # an unknown subsection: its parent
    assert rules.lookup("nothing") is None


def test_the_api_serves_the_index(client):
    r = client.get("/api/rules")
    assert r.status_code == 200 and r.json()["sections"]["5.1.2"]["en"].startswith("If both players")
