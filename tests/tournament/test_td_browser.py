"""The TD page in a real browser (Debian's Chromium, headless, through the system
chromedriver): tiles per table, pairings by name, standings, a control action with the token,
the language switch, and the projector view. A screenshot goes to artifacts/."""

import os
from pathlib import Path

import pytest

from hub.tournament.broker import free_port
from hub.tournament.eventdir import new_event
from hub.tournament.td import TD
from hub.tournament.web import serve
from tests import chromium
from tests.tournament.conftest import wait_for

ARTIFACTS = Path(__file__).resolve().parents[2] / "artifacts"
TOKEN = "td-browser-token"

pytestmark = pytest.mark.skipif(not chromium.available() and os.environ.get("CI") != "true",
                                reason="Debian's chromium is not installed at /usr/bin/chromium (CI installs it)")


@pytest.fixture
def page(tmp_path):
    folder = str(tmp_path / "ev")
    new_event(folder, "봄 대회", [{"id": "p%d" % i, "name": "선수%02d" % i} for i in range(1, 10)], rounds=3, seed=3)
    td = TD(os.path.join(folder, "event.sqlite"))
    port = free_port()
    server = serve(td, TOKEN, port=port)
    driver = chromium.start(1400, 900)
    driver.set_page_load_timeout(30)
    wait_for(lambda: _up(port), 30, "the TD page")
    yield driver, td, "http://127.0.0.1:%d" % port
    driver.quit()
    server.should_exit = True


def _up(port):
    import urllib.request
    try:
        urllib.request.urlopen("http://127.0.0.1:%d/api/state" % port, timeout=2)
        return True
    except OSError:
        return False


def test_the_td_page_runs_a_round(page):
    from selenium.webdriver.common.by import By
    driver, td, url = page
    driver.get(url + "/#control")
    driver.find_element(By.ID, "token").send_keys(TOKEN)
    driver.find_element(By.CSS_SELECTOR, "[data-act=pair]").click()
    wait_for(lambda: td.event.current() is not None, 30, "the round paired from the page")
    driver.find_element(By.CSS_SELECTOR, "[data-act=start]").click()
    wait_for(lambda: td.event.current()["started"], 30, "the round started from the page")
    driver.find_element(By.CSS_SELECTOR, "[data-tab=room]").click()
    wait_for(lambda: len(driver.find_elements(By.CSS_SELECTOR, ".tile")) == 4, 30, "4 tiles")
    assert "라운드 1" in driver.find_element(By.ID, "title").text
    names = {td.event.names()[p] for m in td.event.current()["pairings"] for p in (m["a"], m["b"])}
    tiles = driver.find_element(By.ID, "tiles").text
    assert all(n in tiles for n in names)
    wait_for(lambda: ":" in driver.find_element(By.ID, "clock").text and "29:" in driver.find_element(By.ID, "clock").text,
             30, "the running round clock")
    driver.find_element(By.CSS_SELECTOR, "[data-tab=byname]").click()
    rows = wait_for(lambda: driver.find_elements(By.CSS_SELECTOR, "#ntable tr")[1:], 30, "pairings by name")
    assert len(rows) == 9 and "부전승" in driver.find_element(By.ID, "ntable").text
    # a control without the token is refused and says so
    driver.find_element(By.CSS_SELECTOR, "[data-tab=control]").click()
    driver.find_element(By.ID, "token").clear()
    driver.find_element(By.CSS_SELECTOR, "[data-act=pause]").click()
    wait_for(lambda: "401" in driver.find_element(By.ID, "msg").text, 30, "the refusal")
    assert td.clock.state == "running"
    driver.find_element(By.ID, "lang").click()
    wait_for(lambda: "Round 1" in driver.find_element(By.ID, "title").text, 30, "English")
    ARTIFACTS.mkdir(exist_ok=True)
    driver.find_element(By.CSS_SELECTOR, "[data-tab=room]").click()
    driver.save_screenshot(str(ARTIFACTS / "td-room.png"))
    driver.get(url + "/projector")
    wait_for(lambda: len(driver.find_elements(By.CSS_SELECTOR, "#names div")) == 9, 30, "the projector list")
    assert "Find your table" in driver.find_element(By.ID, "find").text


def test_the_hub_display_shows_the_match_and_the_players_confirm_there(broker, event_dir, tmp_path):
    """A hub in the event (in this process): its display shows the pairing, and the result
    slip's confirm buttons work for both players."""
    import asyncio
    from selenium.webdriver.common.by import By
    from hub.record.store import Store
    from hub.sessions.table import Table
    from hub.tournament.bridge import Bridge
    from hub.tournament.broker import make_url
    from hub.tournament.hubroutes import router
    from hub.tournament.tablelink import TableLink
    from hub.web.server import start_in_thread
    folder, creds = event_dir
    td = TD(os.path.join(folder, "event.sqlite"), broker.url("td")).start()
    td.pair_next()
    td.start_round()
    table = Table(Store(str(tmp_path / "games.sqlite3")), name="table-1", admin_token="hub-token-123456")
    link = TableLink(make_url("127.0.0.1", broker.port, "table-1", creds["table-1"]), "cup", 1,
                     str(tmp_path / "outbox.sqlite3")).start()
    bridge = Bridge(table, link, lambda t, m, n: t.start_tracker())

    async def ticker(_hub):
        while True:
            await asyncio.sleep(0.1)
            bridge.tick()
    handle = start_in_thread(table, tasks=(ticker,), routers=(router(bridge),))
    driver = chromium.start(1400, 900, lang=None)
    try:
        driver.get(handle.url + "/")
        driver.execute_script("localStorage.setItem('lumen.token', 'hub-token-123456')")
        driver.get(handle.url + "/")
        m = td.event.match(1, 1)
        names = td.event.names()
        wait_for(lambda: names[m["a"]] in chromium.text(driver, "tournament"), 60, "the pairing shown")
        wait_for(lambda: table.session is not None and table.session.mode == "tracker", 60, "the match's game")
        handle.call(lambda: table.submit("b", "action", {"action": "set_health", "seat": "b", "health": 0},
                                         source="display"))
        wait_for(lambda: driver.find_elements(By.CSS_SELECTOR, "#tournament button[data-who=a]"), 60, "the slip")
        chromium.click(driver, "#tournament button[data-who=a]")
        wait_for(lambda: link.slip is not None and "a" in link.slip.confirmed, 60, "1P confirmed")
        wait_for(lambda: driver.find_elements(By.CSS_SELECTOR, "#tournament button[data-who=b]"), 60, "2P's button")
        chromium.click(driver, "#tournament button[data-who=b]")
        wait_for(lambda: td.event.current()["results"].get(1), 60, "the TD to have the result")
        assert td.event.current()["results"][1]["confirmed_by"] == ["a", "b"]
        ARTIFACTS.mkdir(exist_ok=True)
        driver.save_screenshot(str(ARTIFACTS / "hub-tournament.png"))
    finally:
        driver.quit()
        handle.stop()
        link.stop()
        td.stop()
