"""Issue 23 point 7: the catch's damage step must not overwrite where the engine goes after its
health check. No card text in the vocabulary can bring the catcher to 0 at that moment (every
effect is followed by its own health check, ruling R6), so the test puts the state there by
hand: a catch that would start sudden death goes to the sudden-death rebuild, not to step 18
of a battle that no longer exists."""

import os

from engine.api import game
from engine.scenarios.runner import load

HERE = os.path.dirname(__file__)
CATCH = os.path.join(HERE, "..", "scenarios", "catch", "001_plus_fp_catch.yaml")


def _at_the_catch():
    sc = load(CATCH)
    st, _ = game.advance(sc.state)
    st, _ = game.apply(st, "a", "ready", "a-kick")
    st, _ = game.apply(st, "b", "ready", "b-low-guard")
    assert st.pending[0]["kind"] == "catch"
    return st


def test_a_catch_that_takes_both_to_zero_starts_sudden_death_cleanly():
    st = _at_the_catch()
    st.players["a"].health = 0          # not reachable by card text: the hypothetical of point 7
    st.players["b"].health = 200        # a-jab's damage
    st, events = game.apply(st, "a", "catch", "a-jab")
    kinds = [e["e"] for e in events]
    assert "sudden_death" in kinds and st.sudden_death
    assert st.battle is None and st.winner is None
    # the rebuild had no choice here (forced), so the first sudden-death turn already asks the ready
    assert st.sd_turn == 1 and st.turn == 2 and st.phase == "ready"
    assert {r["kind"] for r in st.pending} == {"ready"}
    assert "battle_end" in kinds and "sudden_death" in kinds and kinds.index("battle_end") > kinds.index("sudden_death")
    assert (st.players["a"].health, st.players["b"].health) == (1000, 1000)


def test_a_catch_that_wins_ends_the_game_there():
    st = _at_the_catch()
    st.players["b"].health = 200
    st, events = game.apply(st, "a", "catch", "a-jab")
    assert st.winner == "a" and events[-1]["e"] == "game_over"
