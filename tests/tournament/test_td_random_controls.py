"""The TD's controls driven at random, OpenSpiel's random_sim_test for an organizer's day:
seeded sequences of pairing, the clock, results, corrections (with their undo and the
conflicts' resolution), drops, reinstatements, fixed tables and late entries, valid and not,
through the page's API (docs/tournament.md), between them tables' hubs reporting results
(the MQTT intake's handler, as the broker's thread calls it: new, repeated, agreeing and
conflicting reports).

After every request: no 5xx; a refusal (4xx) says what was wrong in both languages and
changes nothing (the TD's record, the standings, the pairings read the same); the standings
add up (every match a win and a loss or a draw each, 3 points a win, 1 a draw). At the end,
a TD started again from the event's record shows the same record and standings (nothing
lost, nothing doubled)."""

import os
import random

import pytest
from fastapi.testclient import TestClient

from hub.tournament.eventdir import new_event
from hub.tournament.td import TD
from hub.tournament.web import create_app

TOKEN = "td-random-controls"
AUTH = {"Authorization": "Bearer " + TOKEN}

#: each control and how often it is tried (results and corrections most: they are the day)
OPS = {"pair": 3, "start": 3, "pause": 1, "resume": 1, "time": 1, "check": 1, "repair": 1, "extend": 1,
       "result": 8, "override": 4, "undo_correction": 2, "resolve": 2, "drop": 1, "reinstate": 1,
       "fix": 1, "add": 1, "report": 3}
#: values that are wrong for one field or another (a type, a range, a length)
ODD = [None, 0, -1, 6, 10000, "x", "", "1", 1.5, True, [], {}, "a" * 400]


def _snapshot(c):
    return c.get("/api/log").json(), c.get("/api/standings").json(), c.get("/api/pairings").json()


def _body(r, op, state, players):
    """A plausible body for ``op``: mostly aimed at the current round's tables, sometimes not."""
    rd = state.get("round") or {}
    tables = rd.get("tables") or []
    open_ = [t for t in tables if t["result"] is None] if op == "result" else []
    m = r.choice(open_ or tables) if tables and r.random() < 0.9 else None
    rn = rd.get("round", 1) if m and r.random() < 0.9 else r.choice([1, 2, 3, 4])
    tb = m["table"] if m else r.choice([1, 2, 3, 4, 5])
    a, b = r.choice([(1, 0), (0, 1)] * 6 + [(2, 1), (1, 1), (0, 0)])
    reason = r.choice(["점수 입력 실수 / wrong slip", "심판 판정 / judge's call", "ab"])
    confirm = r.choice([[], [], ["live"], ["later_round"], ["live", "later_round"]])
    who = r.choice(players + ["nobody"])
    body = {
        "repair": {"reason": reason},
        "extend": {"minutes": r.choice([1, 2, 5]), **({"table": tb} if r.random() < 0.5 else {})},
        "result": {"round": rn, "table": tb, "a_wins": a, "b_wins": b},
        "override": {"round": rn, "table": tb, "a_wins": a, "b_wins": b, "reason": reason, "confirm": confirm,
                     **({"players": [m["a"], m["b"]]} if m and r.random() < 0.4 else {})},
        "undo_correction": {"id": "c%d" % r.randint(1, 4), "reason": reason, "confirm": confirm},
        "resolve": {"id": r.choice("kc") + str(r.randint(1, 3)), "keep": r.choice(["current", "reported"]), "confirm": confirm},
        "drop": {"player": who}, "reinstate": {"player": who},
        "fix": {"player": who, **({"table": tb} if r.random() < 0.7 else {})},
        "add": {"name": r.choice(["늦은 선수", "Late Entry"])},
    }.get(op, {})
    if r.random() < 0.08:                       # one field wrong, or one too many
        if body and r.random() < 0.7:
            body[r.choice(list(body))] = r.choice(ODD)
        else:
            body["extra"] = 1
    return body


def _report(r, td, state, reports):
    """A table's hub reports a result: a new one, or one it sent before (a resend)."""
    rd = state.get("round") or {}
    if reports and r.random() < 0.3:
        table, obj = r.choice(reports)
    elif rd.get("tables"):
        m = r.choice(rd["tables"])
        a, b = r.choice([(1, 0), (0, 1)])
        table = m["table"]
        obj = {"round": rd["round"], "result_id": "hub-%d-%d" % (table, len(reports)), "a_wins": a, "b_wins": b,
               "source": "table", "confirmed_by": ["a", "b"]}
        reports.append((table, obj))
    else:
        return
    with td.lock:
        td.handle_result(table, dict(obj))


def _adds_up(rows):
    wins = sum(x["wins"] - x["byes"] for x in rows)
    assert wins == sum(x["losses"] for x in rows), rows
    assert sum(x["draws"] for x in rows) % 2 == 0, rows
    assert all(x["points"] == 3 * x["wins"] + x["draws"] for x in rows), rows


def _control(c, r, op, state, players, seen, step):
    """One control through the page's API: never a 5xx; a refusal says why and changes nothing."""
    body = _body(r, op, state, players)
    before = _snapshot(c)
    resp = c.post("/api/control/" + op, json=body, headers=AUTH)
    where = "step %d: %s %s -> %d %s" % (step, op, body, resp.status_code, resp.text[:300])
    assert resp.status_code < 500, where
    seen[resp.status_code // 100] = seen.get(resp.status_code // 100, 0) + 1
    if resp.status_code >= 400:
        err = resp.json()
        assert err["detail"] and err["message"]["ko"] and err["message"]["en"], where
        assert _snapshot(c) == before, "a refusal changed the event: " + where
    elif op == "add":
        players.append(resp.json()["player"])


@pytest.mark.parametrize("seed", range(6))
def test_random_controls_refuse_cleanly_and_survive_a_restart(tmp_path, seed):
    r = random.Random(seed)
    players = ["p%d" % i for i in range(1, r.choice([5, 6, 7, 8]) + 1)]
    folder = str(tmp_path / "ev")
    new_event(folder, "무작위 %d" % seed, [{"id": p, "name": "선수" + p[1:]} for p in players],
              rounds=r.choice([2, 3]), seed=seed)
    path = os.path.join(folder, "event.sqlite")
    seen, reports = {}, []
    td = TD(path)
    with TestClient(create_app(td, TOKEN), raise_server_exceptions=False) as c:
        for step in range(90):
            op = r.choices(list(OPS), weights=list(OPS.values()))[0]
            state = c.get("/api/state").json()
            if op == "report":
                _report(r, td, state, reports)
            else:
                _control(c, r, op, state, players, seen, step)
            _adds_up(c.get("/api/standings").json())
        final = _snapshot(c)
    assert seen.get(2, 0) >= 10 and seen.get(4, 0) >= 10, seen      # both kinds were exercised
    with TestClient(create_app(TD(path), TOKEN)) as again:
        assert _snapshot(again) == final
