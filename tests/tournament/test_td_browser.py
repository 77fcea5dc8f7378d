"""The TD page in a real browser (Debian's Chromium, headless, through the system
chromedriver): tiles per table, pairings by name, standings, a control action with the token,
the language switch, and the projector view. A screenshot goes to artifacts/."""

import os
import shutil
import tempfile
from pathlib import Path

import pytest

from hub.tournament.broker import free_port
from hub.tournament.eventdir import new_event
from hub.tournament.td import TD
from hub.tournament.web import serve
from tests.tournament.conftest import wait_for

CHROMIUM = "/usr/bin/chromium"
CHROMEDRIVER = "/usr/bin/chromedriver"
ARTIFACTS = Path(__file__).resolve().parents[2] / "artifacts"
TOKEN = "td-browser-token"

pytestmark = pytest.mark.skipif(not os.path.exists(CHROMIUM) and os.environ.get("CI") != "true",
                                reason="Debian's chromium is not installed at /usr/bin/chromium (CI installs it)")


@pytest.fixture
def page(tmp_path):
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service
    folder = str(tmp_path / "ev")
    new_event(folder, "봄 대회", [{"id": "p%d" % i, "name": "선수%02d" % i} for i in range(1, 10)], rounds=3, seed=3)
    td = TD(os.path.join(folder, "event.sqlite"))
    port = free_port()
    server = serve(td, TOKEN, port=port)
    profile = tempfile.mkdtemp(prefix="lumen-chromium-")
    opts = webdriver.ChromeOptions()
    opts.binary_location = CHROMIUM
    for arg in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--no-first-run",
                "--user-data-dir=" + profile, "--window-size=1400,900", "--lang=ko-KR"):
        opts.add_argument(arg)
    driver = webdriver.Chrome(service=Service(CHROMEDRIVER), options=opts)
    driver.set_page_load_timeout(30)
    wait_for(lambda: _up(port), 30, "the TD page")
    yield driver, td, "http://127.0.0.1:%d" % port
    driver.quit()
    server.should_exit = True
    shutil.rmtree(profile, ignore_errors=True)


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
