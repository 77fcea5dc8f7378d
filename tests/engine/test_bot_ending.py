"""How the search player's game ends at the table (issue 35): health read as a share of one's
own starting health, a position that repeats (잔영난무 against 철벽, guide 5.1.1: the effect that
fires keeps the stalled-battle count at 0) counted as the table ends it, the at-time decision of
ruling R-time past the last turn, and a looping game between two search players that now ends.
Budgets are small iteration counts; strength is measured by bench/bot.py, never here."""

import pytest

from engine import apply, decide_at_time, new_game
from engine.api.game import advance
from engine.bots import Bot, Ending, evaluate, think
from engine.bots.ending import END_HAZARD, clock_value, position_key
from engine.cards import load_sample

PD, IW = "serin-phantom-dance", "gangcheol-iron-wall"


def _sample(seed=1):
    cs, decks = load_sample()
    st, _ = new_game(cs.cards, decks["serin"].as_game_deck(), decks["gangcheol"].as_game_deck(), seed=seed)
    while st.pending and st.pending[0]["kind"] == "setup":
        req = st.pending[0]
        apply(st, req["player"], "setup", evaluate.setup_answer(st, req), copy=False)
    return st


def _standoff(health_a=None, health_b=None):
    """The sample decks' standoff (issue 35: every battle from turn 2 on): Serin (a) holds her
    ultimate 잔영난무 (evades every position; on use it nullifies the opponent's effects), Gangcheol
    (b) his 철벽 (guards every position). Both hands at their limit: a ready node of turn 3."""
    st = _sample()
    a, b = st.players["a"], st.players["b"]
    a.hand = ["serin-sliding-slash", "serin-skyward-leap", "serin-blazing-heel", "serin-swallow-kick",
              "serin-gale-kicks", PD]
    b.hand = ["gangcheol-mountain-toss", "gangcheol-quake-smash", "gangcheol-bear-hug", "gangcheol-earth-stomp",
              "gangcheol-mountain-collapse", IW]
    for pl, ids in ((a, a.hand), (b, b.hand)):
        pl.list = [c for c in pl.list if c not in ids]
        pl.ultimate = None
    if health_a is not None:
        a.health = health_a
    if health_b is not None:
        b.health = health_b
    st.turn = 3
    st.pending, st.step, st.phase = [], "ready.ask", "ready"
    st, _ = advance(st, copy=False)
    assert sorted(r["player"] for r in st.pending if r["kind"] == "ready") == ["a", "b"]
    return st


def test_health_counts_as_a_share_of_ones_own_start():
    """Serin starts at 4,800, Gangcheol at 5,500: at full health neither leads (the raw difference
    made Serin 0.43 to win from the characters alone)."""
    st = _sample()
    assert st.players["a"].health != st.players["b"].health
    f = evaluate.features(st)
    assert f["health"] == 0.0 and f["low"] == 0.0
    st.players["a"].health -= 480           # a tenth of Serin's
    st.players["b"].health -= 550           # a tenth of Gangcheol's
    assert evaluate.features(st)["health"] == pytest.approx(0.0)


def test_a_repeated_position_is_a_loop_and_ends_as_the_table_ends_it():
    st = _standoff(health_a=4800, health_b=3000)
    again = st.copy()
    again.turn += 1                          # only the turn number moved: the pair repeats it
    assert position_key(again) == position_key(st)
    assert Ending(st).leaf(again) == 0.5                            # no clock: a game nobody ends is drawn
    assert Ending(st, turns_left=10).leaf(again) == 1.0             # a clock: R-time, Serin's larger share
    moved = again.copy()
    moved.stalled_battles = 1                                       # a stall that counts is progress, not a loop
    assert Ending(st).leaf(moved) != 0.5 or position_key(moved) != position_key(st)
    assert position_key(moved) != position_key(st)


def test_past_the_last_turn_the_at_time_decision_counts():
    st = _standoff(health_a=2400, health_b=5500)
    end = Ending(st, turns_left=2)                 # turns 3 and 4, then the decision
    later = st.copy()
    later.turn = 5
    assert end.past_time(later) and not end.past_time(st)
    assert decide_at_time(later).winner == "b"
    assert end.leaf(later) == 0.0
    with pytest.raises(ValueError, match="turns_left"):
        Ending(st, turns_left=0)


def test_the_clock_weighs_the_share_lead_more_as_turns_run_out():
    st = _standoff(health_a=4800, health_b=3300)           # Serin leads by 0.4 of a start
    p = 0.3                                                   # whatever the position's value says
    near, far = clock_value(st, 1, p), clock_value(st, 40, p)
    assert near > far > p
    assert near > 0.9
    level = _standoff()                                       # no lead: time favours nobody
    assert clock_value(level, 1, p) == pytest.approx(p + (0.5 - p) * (1 - END_HAZARD))


@pytest.mark.parametrize("ahead", ["a", "b"])
def test_ahead_at_the_standoff_near_time_the_bot_runs_the_clock_out(ahead):
    """With one turn left the seat a little ahead on share keeps its lead: its wall (잔영난무 / 철벽),
    which nothing the other can ready damages, is worth a win chance of 1 (at time ruling R-time
    gives it the game), and it never plays a card that a hit could cost the lead with."""
    st = _standoff(health_a=4800 if ahead == "a" else 4600, health_b=5200 if ahead == "a" else 5500)
    wall = PD if ahead == "a" else IW
    t = think(st, ahead, seed=3, iterations=80, turns_left=1)
    assert t.values[t.options.index(wall)] > 0.99
    assert min(v for v, m in zip(t.values, t.mix) if m > 0) > 0.99
    assert min(t.values) < 0.9                   # some card would have risked the lead


def test_a_looping_game_between_search_players_now_ends():
    """The sample decks between two search players looped on 잔영난무 against 철벽 to the
    120-turn stop (issue 35, 8 of 8 strong-vs-normal games). Now the game ends by the rules."""
    cs, decks = load_sample()
    st, _ = new_game(cs.cards, decks["serin"].as_game_deck(), decks["gangcheol"].as_game_deck(), seed=1)
    bots = {"a": Bot(1, "normal", iterations=24), "b": Bot(2, "normal", iterations=24)}
    while st.winner is None and st.turn <= 60:
        req = st.pending[0]
        kind, value = bots[req["player"]].answer(st, req)
        st, _ = apply(st, req["player"], kind, value, copy=False)
    assert st.winner in ("a", "b", "draw"), "turn %d: %s" % (st.turn, {p: pl.health for p, pl in st.players.items()})
