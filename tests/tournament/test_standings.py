"""Standings and tie-breakers (MTR appendix C), by worked examples."""

import csv
import io
import json
from fractions import Fraction as F

from hub.tournament import standings as st


def m(a, b, aw, bw, d=0):
    return {"a": a, "b": b, "a_wins": aw, "b_wins": bw, "draws": d}


# Four players, best of 3, two rounds (worked by hand, docs/tournament.md):
#   R1  A-B 2-1, C-D 2-0        R2  A-C 2-0, B-D 1-1 (a drawn match)
WORKED = [m("A", "B", 2, 1), m("C", "D", 2, 0), m("A", "C", 2, 0), m("B", "D", 1, 1)]


def test_worked_example_four_players():
    rows = {r["player"]: r for r in st.standings(["A", "B", "C", "D"], WORKED)}
    # match points 3/1/0
    assert [rows[p]["points"] for p in "ABCD"] == [6, 1, 3, 1]
    # GW%: A won 4 of 5 games (12/15); B 2 games of 5 (6/15); C 2 of 4 (6/12); D 1 of 4 -> 3/12 floored
    assert rows["A"]["gw"] == F(12, 15)
    assert rows["B"]["gw"] == F(6, 15)
    assert rows["C"]["gw"] == F(1, 2)
    assert rows["D"]["gw"] == F(33, 100)
    # OMW%: opponents' MW%, each floored at 0.33: B and D have 1/6 -> 0.33
    assert rows["A"]["omw"] == (F(33, 100) + F(1, 2)) / 2
    assert rows["B"]["omw"] == (1 + F(33, 100)) / 2
    assert rows["C"]["omw"] == (F(33, 100) + 1) / 2
    assert rows["D"]["omw"] == (F(1, 2) + F(33, 100)) / 2
    # OGW%: opponents' GW%
    assert rows["A"]["ogw"] == (F(6, 15) + F(1, 2)) / 2
    assert rows["D"]["ogw"] == (F(1, 2) + F(6, 15)) / 2
    # B and D both have 1 point: B's opponents did better (OMW 66.5 % vs 41.5 %)
    assert [r["player"] for r in st.standings(["A", "B", "C", "D"], WORKED)] == ["A", "C", "B", "D"]


def test_mtr_example_match_win_percentage():
    # MTR C: 5 wins, 1 loss, 2 draws in 8 rounds = 17 match points, 17/24 = 0.708
    ms = [m("X", "o%d" % i, 1, 0) for i in range(5)] + [m("X", "o5", 0, 1)] + \
         [m("X", "o%d" % i, 0, 0, 1) for i in (6, 7)]
    rec = st.records(["X"] + ["o%d" % i for i in range(8)], ms)
    assert rec["X"].mp == 17 and rec["X"].mw() == F(17, 24)
    # a player who lost everything is still counted at 0.33 by their opponents
    assert rec["o0"].mw() == F(33, 100)


def test_a_bye_is_a_2_0_win_and_not_an_opponent():
    ms = [{"a": "A", "b": None}, m("B", "C", 1, 0), m("A", "B", 0, 1)]
    rows = {r["player"]: r for r in st.standings(["A", "B", "C"], ms)}
    assert rows["A"]["points"] == 3 and rows["A"]["byes"] == 1
    assert rows["A"]["gw"] == F(6, 9)          # 2-0 from the bye, 0-1 against B: 6 game points of 9
    assert rows["A"]["omw"] == 1                # only B counts (2 wins of 2), the bye does not
    assert rows["B"]["omw"] == (F(1, 2) + F(33, 100)) / 2


def test_ties_fall_through_to_game_wins_then_player_id():
    # two separate pairs with identical records except game score
    ms = [m("A", "B", 2, 0), m("C", "D", 2, 1)]
    order = [r["player"] for r in st.standings(["A", "B", "C", "D"], ms)]
    assert order == ["A", "C", "D", "B"]   # A and C: same points and OMW; A's GW% is higher
    ms = [m("B", "A", 1, 0), m("D", "C", 1, 0)]
    assert [r["player"] for r in st.standings(["A", "B", "C", "D"], ms)][:2] == ["B", "D"]


def test_dropped_players_stay_and_count_as_opponents():
    rows = st.standings(["A", "B"], [m("A", "B", 1, 0)], dropped=["B"])
    assert rows[1]["dropped"] and rows[0]["omw"] == F(33, 100)


def test_csv_and_json_exports():
    rows = st.standings(["A", "B", "C", "D"], WORKED, names={"A": "김하나"})
    data = json.loads(st.dumps(rows))
    assert data[0]["name"] == "김하나" and data[0]["omw"] == 41.5 and data[0]["gw"] == 80.0
    table = list(csv.DictReader(io.StringIO(st.to_csv(rows))))
    assert [r["player"] for r in table] == ["A", "C", "B", "D"]
    assert table[2]["omw"] == "66.50" and table[0]["rank"] == "1" and table[0]["points"] == "6"


def test_the_events_standings_are_worked_out_once_per_record_and_always_current():
    """Issue 26: the standings are cached per record applied (108 ms at 4,000 players, read by
    the room's publish, the page's poll and the pairing). Every record kind that changes them
    shows at once, and a caller changing the rows it got changes nothing kept."""
    from hub.tournament.event import Event
    ev = Event()
    ev.apply("event", {"name": "cup", "rounds": 3, "round_minutes": 30, "best_of": 1, "seed": 1, "cut": 0,
                       "extra_turns": 3, "players": [{"id": "p%d" % i, "name": "선수%d" % i} for i in range(4)]})
    assert [r["points"] for r in ev.standings()] == [0, 0, 0, 0]
    body = ev.next_pairing()
    ev.apply("pair", body)
    ev.apply("round_start", {"round": 1})
    m = body["pairings"][0]
    ev.apply("result", {"round": 1, "table": m["table"], "a_wins": 1, "b_wins": 0, "draws": 0, "result_id": "r1"})
    top = ev.standings()[0]
    assert top["player"] == m["a"] and top["points"] == 3
    top["points"] = 99                                  # the caller's copy
    assert ev.standings()[0]["points"] == 3
    ev.apply("override", {"round": 1, "table": m["table"], "a_wins": 0, "b_wins": 1, "draws": 0, "reason": "slip"})
    assert ev.standings()[0]["player"] == m["b"], "an override shows at once"
    ev.apply("drop", {"player": m["a"]})
    assert next(r for r in ev.standings() if r["player"] == m["a"])["dropped"]
    ev.apply("player_add", {"id": "late", "name": "지각"})
    assert "late" in {r["player"] for r in ev.standings()}
