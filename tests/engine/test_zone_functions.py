"""Functions in every zone (guide 5.6.1, ruling R44) and the speeds of hand cards (ruling R38):
what the scenarios cannot see (hidden names, purity of the what-if computation)."""

import json
import os

from engine.play.livefx import hand_speeds
from engine.core.events import explain
from engine.scenarios.runner import load, run

ROOT = os.path.join(os.path.dirname(__file__), "..", "scenarios")


def test_a_side_deck_function_is_never_named():
    out = run(load(os.path.join(ROOT, "functions", "003_5_6_1_function_in_side_deck_slows_the_opponent.yaml")))
    assert out.passed, out.line()
    text = json.dumps(out.events, ensure_ascii=False)
    assert "a-weight" not in text                      # the hidden card's id is in no event
    change = next(e for e in out.events if e["e"] == "speed_change")
    assert explain(change, out.state.cards)["en"].startswith("2P's 중단 차기 B: a face-down side-deck card's effect")


def _catch_position():
    """The battle of catch/007 paused at its catch decision (a lasting 'slower 2' on a)."""
    sc = load(os.path.join(ROOT, "catch", "007_4_3_r38_lasting_slower_puts_a_catch_out_of_reach.yaml"))
    sc.inputs["a"] = sc.inputs["a"][:1]     # ready only: the run stops asking for the catch
    out = run(sc)
    assert out.state.pending and out.state.pending[0]["kind"] == "catch"
    return out.state


def test_hand_speeds_reads_the_lasting_effect_and_changes_nothing():
    st = _catch_position()
    before = json.dumps(st.to_json(), sort_keys=True)
    speeds = hand_speeds(st, "a", ["a-jab", "a-flash"], "catch")
    assert speeds == {"a-jab": (5, 5), "a-flash": (3, 3)}
    assert json.dumps(st.to_json(), sort_keys=True) == before


def test_without_effects_the_printed_speeds_are_read():
    st = _catch_position()
    st.lasting = []
    assert hand_speeds(st, "a", ["a-jab", "a-flash"], "catch") == {"a-jab": (3, 3), "a-flash": (1, 1)}
