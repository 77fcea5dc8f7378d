"""Corrections that name their game and conflicts the TD can see (issue 38 items 1-2): the
TD page in Debian's Chromium (tests/chromium.py), the TD service on a real event record.

On the page of before: the correction form had no round (td.js sent the current round),
no confirmation and no view of the game, so a correction meant for round 1 made during
round 2 set round 2's live table; a conflict was one untranslated line."""

import os

import pytest

from hub.tournament.eventdir import new_event
from hub.tournament.td import TD, ConfirmNeeded
from hub.tournament.broker import free_port
from hub.tournament.web import serve
from tests import chromium
from tests.tournament.conftest import wait_for
from tests.tournament.test_td_browser import ARTIFACTS, _up

TOKEN = "td-corrections-token"

pytestmark = pytest.mark.skipif(not chromium.available() and os.environ.get("CI") != "true",
                                reason="Debian's chromium is not installed at /usr/bin/chromium (CI installs it)")


def two_rounds(td):
    """Round 1 played (every table reported 1-0 by its hub), round 2 paired and started."""
    td.pair_next()
    td.start_round()
    for m in td.event.current()["pairings"]:
        td.handle_result(m["table"], {"round": 1, "result_id": "r1-%d" % m["table"], "a_wins": 1, "b_wins": 0,
                                      "source": "table", "confirmed_by": ["a", "b"]})
    td.pair_next()
    td.start_round()


@pytest.fixture
def page(tmp_path):
    folder = str(tmp_path / "ev")
    new_event(folder, "봄 대회", [{"id": "p%d" % i, "name": "선수%02d" % i} for i in range(1, 9)], rounds=3, seed=5)
    td = TD(os.path.join(folder, "event.sqlite"))
    two_rounds(td)
    port = free_port()
    server = serve(td, TOKEN, port=port)
    driver = chromium.start(1400, 1000)
    wait_for(lambda: _up(port), 30, "the TD page")
    yield driver, td, "http://127.0.0.1:%d" % port
    driver.quit()
    server.should_exit = True


def _alert(driver):
    from selenium.webdriver.support import expected_conditions as EC
    from selenium.webdriver.support.ui import WebDriverWait
    return WebDriverWait(driver, 30).until(EC.alert_is_present())


def _fill(driver, **values):
    from selenium.webdriver.common.by import By
    for k, v in values.items():
        el = driver.find_element(By.ID, k)
        el.clear()
        el.send_keys(str(v))


def test_a_late_correction_reaches_its_round_and_a_live_game_asks_twice(page):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select
    driver, td, url = page
    r1, r2 = td.event.round(1), td.event.round(2)
    names = td.event.names()
    m1, m2 = td.event.match(1, 1), td.event.match(2, 1)
    driver.get(url + "/#admin=" + TOKEN)
    wait_for(lambda: driver.find_element(By.ID, "control").is_displayed(), 30, "the control tab")
    _fill(driver, rtable=1)
    # the form defaults to the round that has table 1's result (round 1), and names its game
    game = lambda: chromium.text(driver, "game")        # noqa: E731
    wait_for(lambda: "라운드 1 · 테이블 1" in game(), 30, "round 1's game named")
    assert names[m1["a"]] in game() and names[m1["b"]] in game() and "1-0" in game() and "테이블 보고" in game()
    _fill(driver, ra=0, rb=1, rreason="점수 기입 실수", rby="김심판")
    driver.find_element(By.CSS_SELECTOR, "[data-act=override]").click()
    ask = _alert(driver)
    assert names[m1["a"]] in ask.text and names[m1["b"]] in ask.text and "1-0" in ask.text and "0-1" in ask.text
    assert "라운드 2" in ask.text, "the round played now is named: its pairings stay"
    ask.accept()
    wait_for(lambda: r1["results"][1]["b_wins"] == 1, 30, "round 1's result corrected")
    assert 1 not in r2["results"], "round 2's table 1 is still being played: untouched"
    c = td.event.corrections[-1]
    assert (c["round"], c["by"], c["reason"], c["before"]["a_wins"], c["after"]["b_wins"]) == (1, "김심판", "점수 기입 실수", 1, 1)
    wait_for(lambda: "라운드 1 테이블 1의 결과를 바꿨습니다" in chromium.text(driver, "msg"), 30, "the correction said")
    # round 2's table 1 is live: the page says so loudly, and a correction asks twice
    Select(driver.find_element(By.ID, "rround")).select_by_value("2")
    wait_for(lambda: "진행 중인 경기" in game() and names[m2["a"]] in game(), 30, "the live game's warning")
    assert "live" in driver.find_element(By.ID, "game").get_attribute("class")
    _fill(driver, ra=1, rb=0, rreason="기권 처리")
    driver.find_element(By.CSS_SELECTOR, "[data-act=override]").click()
    _alert(driver).accept()
    second = _alert(driver)
    assert "진행 중" in second.text and names[m2["a"]] in second.text
    second.dismiss()                                # the second question says no: nothing changes
    assert 1 not in r2["results"] and len(td.event.corrections) == 1
    driver.find_element(By.CSS_SELECTOR, "[data-act=override]").click()
    _alert(driver).accept()
    _alert(driver).accept()
    wait_for(lambda: 1 in r2["results"], 30, "the live game's result set, twice confirmed")
    ARTIFACTS.mkdir(exist_ok=True)
    driver.save_screenshot(str(ARTIFACTS / "td-correction.png"))
    # a correction can itself be undone (the record keeps both)
    chromium.click(driver, "button[data-undo=c2]")
    ask = _alert(driver)
    ask.send_keys("잘못 입력")
    ask.accept()
    wait_for(lambda: 1 not in r2["results"], 30, "the correction undone: the game has no result again")
    assert td.event.corrections[-1]["undone"]["reason"] == "잘못 입력"
    wait_for(lambda: "되돌림" in chromium.text(driver, "ctable"), 30, "the undone correction listed")


def test_a_conflict_shows_both_results_and_resolves_with_one_tap(page):
    from selenium.webdriver.common.by import By
    driver, td, url = page
    m = td.event.match(2, 3)
    names = td.event.names()
    td.override(2, 3, 1, 0, reason="no-show, said the judge", by="김심판", confirm=["live"])
    # the table's own result arrives afterwards, and disagrees
    td.handle_result(3, {"round": 2, "result_id": "r2-3", "a_wins": 0, "b_wins": 1, "source": "table",
                         "confirmed_by": ["a", "b"]})
    assert td.answers[3]["r2-3"]["status"] == "conflict"
    driver.get(url + "/#room")
    box = lambda: chromium.text(driver, "conflicts")     # noqa: E731
    wait_for(lambda: "결과 충돌" in box(), 30, "the conflict shown")
    text = box()
    for want in (names[m["a"]], names[m["b"]], "지금 결과: 1-0", "테이블 보고: 0-1", "김심판", "no-show", "1P·2P"):
        assert want in text, (want, text)
    assert "already has a result" not in chromium.text(driver, "room"), "no untranslated tail"
    driver.find_element(By.ID, "lang").click()
    wait_for(lambda: "Conflicting results" in box() and "Table's report: 0-1" in box(), 30, "the conflict in English")
    ARTIFACTS.mkdir(exist_ok=True)
    driver.save_screenshot(str(ARTIFACTS / "td-conflict.png"))
    driver.execute_script("localStorage.setItem('lumen.td.token', arguments[0])", TOKEN)
    chromium.click(driver, ".conflict button[data-resolve=reported]")
    wait_for(lambda: td.event.round(2)["results"][3]["b_wins"] == 1, 30, "the table's report kept")
    assert td.event.conflicts[0]["resolved"]["keep"] == "reported"
    wait_for(lambda: "Conflicting" not in box(), 30, "the conflict gone from the room")


def test_a_correction_of_a_live_game_or_of_another_game_is_refused_without_its_names(tmp_path):
    """The API behind the page (what an old page, a script or a stale form sends)."""
    from fastapi.testclient import TestClient
    from hub.tournament.web import create_app
    folder = str(tmp_path / "ev")
    new_event(folder, "cup", [{"id": "p%d" % i, "name": "P%d" % i} for i in range(1, 9)], rounds=3, seed=5)
    td = TD(os.path.join(folder, "event.sqlite"))
    two_rounds(td)
    client = TestClient(create_app(td, TOKEN))
    auth = {"Authorization": "Bearer " + TOKEN}
    # what the page of before sent: the current round, no names: round 2's table 1 is live
    r = client.post("/api/control/override", json={"round": 2, "table": 1, "a_wins": 1, "b_wins": 0,
                                                   "reason": "meant for round 1"}, headers=auth)
    assert r.status_code == 409 and r.json()["error"] == "confirm_needed" and r.json()["warnings"] == ["live"], r.text
    assert "진행 중" in r.json()["message"]["ko"]
    assert 1 not in td.event.round(2)["results"]
    m = td.event.match(1, 1)
    other = td.event.match(1, 2)
    r = client.post("/api/control/override", json={"round": 1, "table": 1, "a_wins": 0, "b_wins": 1, "reason": "slip",
                                                   "players": [other["a"], other["b"]], "confirm": ["later_round"]},
                    headers=auth)
    assert r.status_code == 409 and "players the correction names" in r.json()["detail"], r.text
    r = client.post("/api/control/override", json={"round": 1, "table": 1, "a_wins": 0, "b_wins": 1, "reason": "slip",
                                                   "players": [m["a"], m["b"]], "before": {"a_wins": 0, "b_wins": 0},
                                                   "confirm": ["later_round"]}, headers=auth)
    assert r.status_code == 409 and "changed since" in r.json()["detail"], "a stale form is refused"
    assert td.event.round(1)["results"][1]["a_wins"] == 1 and not td.event.corrections
    view = client.get("/api/match", params={"table": 1}).json()
    assert (view["round"], view["live"], view["warnings"]) == (1, False, ["later_round"])
    assert client.get("/api/match", params={"table": 1, "round": 2}).json()["live"] is True
    # the same result from a second report agrees: no conflict
    td.handle_result(2, {"round": 1, "result_id": "again-2", "a_wins": 1, "b_wins": 0})
    assert td.answers[2]["again-2"] == {"status": "ok", "agrees": True} and not td.event.conflicts
    # undoing a correction of round 1 once round 2 started asks too
    with pytest.raises(ConfirmNeeded):
        td.undo_correction(td.override(1, 1, 0, 1, reason="slip", confirm=["later_round"])["id"], "back")
