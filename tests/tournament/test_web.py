"""The TD page's API: open reads, token-guarded controls, refusals that change nothing."""

import csv
import io
import os

import pytest
from fastapi.testclient import TestClient

from hub.tournament.eventdir import new_event
from hub.tournament.td import TD
from hub.tournament.web import create_app

TOKEN = "td-token-123456"
AUTH = {"Authorization": "Bearer " + TOKEN}


@pytest.fixture
def client(tmp_path):
    folder = str(tmp_path / "ev")
    new_event(folder, "봄 대회", [{"id": "p%d" % i, "name": "선수%d" % i} for i in range(1, 8)], rounds=3, seed=5)
    td = TD(os.path.join(folder, "event.sqlite"))
    with TestClient(create_app(td, TOKEN)) as c:
        c.td = td
        yield c


def test_controls_need_the_token(client):
    assert client.post("/api/control/pair", json={}).status_code == 401
    r = client.post("/api/control/pair", json={}, headers={"Authorization": "Bearer wrong-token"})
    assert r.status_code == 403 and "read-only" in r.json()["detail"]
    assert client.post("/api/control/check", json={}, headers=AUTH).json() == {"ok": True}
    assert client.td.event.current() is None


def test_a_round_through_the_page(client):
    assert client.get("/").status_code == 200 and "td.js" in client.get("/").text
    assert "Find your table" in client.get("/projector").text
    r = client.post("/api/control/pair", json={}, headers=AUTH)
    assert r.status_code == 200 and len(r.json()["tables"]) == 3 and r.json()["bye_name"]
    st = client.get("/api/state").json()
    assert len(st["tiles"]) == 3 and st["clock"]["state"] == "idle"
    by_name = client.get("/api/pairings", params={"by": "name"}).json()
    assert [p["name"] for p in by_name] == sorted(p["name"] for p in by_name) and len(by_name) == 7
    # a result before the round starts is refused and changes nothing
    r = client.post("/api/control/result", json={"round": 1, "table": 1, "a_wins": 1, "b_wins": 0}, headers=AUTH)
    assert r.status_code == 409 and "not started" in r.json()["detail"]
    assert client.post("/api/control/start", json={}, headers=AUTH).json()["state"] == "running"
    assert client.post("/api/control/extend", json={"minutes": 2, "table": 2}, headers=AUTH).json()["table_ext"] == {"2": 120000}
    for t in (1, 2, 3):
        r = client.post("/api/control/result", json={"round": 1, "table": t, "a_wins": 1, "b_wins": 0}, headers=AUTH)
        assert r.status_code == 200
    r = client.post("/api/control/override", json={"round": 1, "table": 2, "a_wins": 0, "b_wins": 1, "reason": "x"},
                    headers=AUTH)
    assert r.status_code == 422                     # a reason of 3+ characters
    r = client.post("/api/control/override", json={"round": 1, "table": 2, "a_wins": 0, "b_wins": 1,
                                                   "reason": "점수 입력 실수 / wrong slip"}, headers=AUTH)
    assert r.status_code == 200
    log = client.get("/api/log").json()
    ov = [x for x in log if x["kind"] == "override"]
    assert ov and ov[0]["body"]["reason"] == "점수 입력 실수 / wrong slip"
    rows = list(csv.DictReader(io.StringIO(client.get("/api/standings.csv").text)))
    assert len(rows) == 7 and sum(int(r["points"]) for r in rows) == 4 * 3
    assert client.get("/api/standings").json()[0]["rank"] == 1
    r = client.post("/api/control/add", json={"name": "늦은 선수"}, headers=AUTH)
    pid = r.json()["player"]
    assert client.post("/api/control/drop", json={"player": "p1"}, headers=AUTH).status_code == 200
    nxt = client.post("/api/control/pair", json={}, headers=AUTH).json()
    names = {x for m in nxt["tables"] for x in (m["a"], m["b"])} | {nxt["bye"]}
    assert pid in names and "p1" not in names


def test_bad_requests_name_the_problem(client):
    r = client.post("/api/control/extend", json={"minutes": "3"}, headers=AUTH)
    assert r.status_code == 422 and "minutes" in r.json()["detail"]
    r = client.post("/api/control/pair", json={"extra": 1}, headers=AUTH)
    assert r.status_code == 422 and "extra" in r.json()["detail"]
    r = client.post("/api/control/start", json={}, headers=AUTH)
    assert r.status_code == 409 and "pair a round first" in r.json()["detail"]
    assert client.get("/api/pairings", params={"by": "seat"}).status_code == 422


def test_a_player_kept_at_one_table(client):
    r = client.post("/api/control/fix", json={"player": "p3", "table": 2}, headers=AUTH)
    assert r.status_code == 200
    r = client.post("/api/control/fix", json={"player": "p4", "table": 2}, headers=AUTH)
    assert r.status_code == 409 and "already kept" in r.json()["detail"]
    rnd = client.post("/api/control/pair", json={}, headers=AUTH).json()
    at2 = [m for m in rnd["tables"] if m["table"] == 2][0]
    assert "p3" in (at2["a"], at2["b"]) or rnd["bye"] == "p3"
    assert sorted(m["table"] for m in rnd["tables"]) == [1, 2, 3]


def test_errors_carry_a_sentence_for_the_td_and_a_drop_can_be_undone(client):
    """Issue 22 point 12: every error says what to do in Korean and English; reinstate."""
    r = client.post("/api/control/repair", json={"reason": "x"}, headers=AUTH)
    assert r.status_code == 422 and r.json()["message"] == {"ko": "사유를 3자 이상 적으세요.",
                                                            "en": "Enter a reason of at least 3 characters."}
    r = client.post("/api/control/start", json={}, headers=AUTH)
    assert r.status_code == 409 and r.json()["message"]["ko"].startswith("먼저")
    assert client.post("/api/control/pair", json={}).json()["message"]["en"].startswith("Enter the admin token")
    assert client.post("/api/control/drop", json={"player": "p2"}, headers=AUTH).status_code == 200
    r = client.post("/api/control/drop", json={"player": "p2"}, headers=AUTH)
    assert r.status_code == 409 and "이미 기권" in r.json()["message"]["ko"]
    assert client.post("/api/control/reinstate", json={"player": "p2"}, headers=AUTH).status_code == 200
    assert not client.td.event.players["p2"]["dropped"]
    r = client.post("/api/control/reinstate", json={"player": "p2"}, headers=AUTH)
    assert r.status_code == 409 and "기권하지 않은" in r.json()["message"]["ko"]
    # the reinstated player is paired again
    r = client.post("/api/control/pair", json={}, headers=AUTH).json()
    assert "p2" in {t[k] for t in r["tables"] for k in ("a", "b")} | {r["bye"]}
    # the record replays to the same after a restart
    from hub.tournament.td import TD
    again = TD(client.td.record.path)
    assert not again.event.players["p2"]["dropped"] and again.event.current()["number"] == 1
    again.record.close()
