"""Ruling R-time (docs/rulings.md): a game undecided after the end of round's extra turns goes to
the larger share of one's own starting health, then to fewer non-responses (guide 3.10), else
it is a drawn game; a game the rules decided keeps its winner."""

import pytest

from engine import GameState, decide_at_time, explain, new_game
from engine.cards import load_sample


@pytest.fixture
def game():
    cs, decks = load_sample()
    st, _ = new_game(cs.cards, decks["serin"].as_game_deck(), decks["gangcheol"].as_game_deck(), seed=3)
    return cs.cards, st


def with_figures(st, health, start, non_responses):
    st = GameState.from_json(st.to_json())
    for seat in "ab":
        st.players[seat].health = health[seat]
        st.players[seat].non_responses = non_responses[seat]
        assert st.players[seat].character.start_health == start[seat]
    return st


def test_the_share_of_ones_own_starting_health_decides_not_the_raw_number(game):
    cards, st = game
    start = {s: st.players[s].character.start_health for s in "ab"}
    assert start["a"] != start["b"]           # the sample characters start apart: a raw compare would differ
    lo, hi = sorted("ab", key=lambda s: start[s])
    # the smaller character keeps 60 %, the bigger 55 %: more raw health for the bigger, a larger share for the smaller
    health = {lo: start[lo] * 60 // 100, hi: start[hi] * 55 // 100}
    assert health[hi] > health[lo]
    d = decide_at_time(with_figures(st, health, start, {"a": 0, "b": 0}))
    assert (d.winner, d.decided_by, d.rule) == (lo, "health_fraction", "ruling R-time")
    text = explain(d.event(), cards)
    assert "ruling R-time" in text["en"] and "R-time" in text["ko"]
    assert "{" not in text["ko"] + text["en"] and "_" not in text["en"].split("[")[0]


def test_equal_shares_go_to_fewer_non_responses_then_a_draw(game):
    _, st = game
    start = {s: st.players[s].character.start_health for s in "ab"}
    half = {s: start[s] // 2 for s in "ab"}
    assert half["a"] * start["b"] == half["b"] * start["a"]      # exactly equal shares
    d = decide_at_time(with_figures(st, half, start, {"a": 2, "b": 1}))
    assert (d.winner, d.decided_by) == ("b", "non_responses")
    d = decide_at_time(with_figures(st, half, start, {"a": 1, "b": 1}))
    assert (d.winner, d.decided_by) == ("draw", "draw")
    assert d.to_json()["figures"]["a"] == {"health": half["a"], "start": start["a"], "non_responses": 1}


def test_a_game_the_rules_decided_keeps_its_winner(game):
    _, st = game
    st = GameState.from_json(st.to_json())
    st.winner = "b"
    st.players["b"].health = 1
    assert (decide_at_time(st).winner, decide_at_time(st).decided_by) == ("b", "rules")


def test_deciding_reads_the_state_and_changes_nothing(game):
    _, st = game
    before = st.to_json()
    decide_at_time(st)
    assert st.to_json() == before
