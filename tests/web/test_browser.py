"""The display in a real browser: Debian's Chromium, headless, driven by Selenium through the
system chromedriver (no browser download). The page loads, shows a live update within a
second of a game event, the countdown and the match clock run, a control action works with
the token and is refused without it, the language switch persists; screenshots of the
display mid-game go to artifacts/ (git-ignored)."""

import os
import time
from pathlib import Path

import pytest

from engine.bots import Bot
from hub.record.store import Store
from hub.sessions.table import Table
from hub.sessions.timer import MatchTimer
from hub.web.server import start_in_thread
from tests import chromium
from tests.web.conftest import TOKEN

from tests.chromium import CHROMIUM
ARTIFACTS = Path(__file__).resolve().parents[2] / "artifacts"

pytestmark = pytest.mark.skipif(not os.path.exists(CHROMIUM),
                                reason="Debian's chromium is not installed at /usr/bin/chromium (CI installs it)")


@pytest.fixture(scope="module")
def server():
    table = Table(Store(":memory:"), admin_token=TOKEN)      # the real clock: countdowns really run
    handle = start_in_thread(table, tick_interval=0.1)
    yield handle, table
    handle.stop()


@pytest.fixture(scope="module")
def browser():
    driver = chromium.start(1600, 1000, console_log=True)
    driver.set_page_load_timeout(20)
    viewport(driver, 1600, 1000)
    yield driver
    driver.quit()


def viewport(driver, width, height, mobile=False):
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                           {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": mobile})


def wait_for(fn, timeout=60.0, poll=0.02, what="condition"):
    end = time.monotonic() + timeout
    while True:
        v = fn()
        if v:
            return v
        if time.monotonic() > end:
            raise AssertionError("timed out waiting for %s (last value %r)" % (what, v))
        time.sleep(poll)


def text(driver, element_id):
    return driver.execute_script("var e = document.getElementById(arguments[0]); return e ? e.textContent : null;",
                                 element_id)


def open_page(driver, handle, fragment="", lang="ko", token=None):
    driver.get("about:blank")
    driver.get(handle.url + "/")
    driver.execute_script("localStorage.setItem('lumen.lang', arguments[0]);"
                          "if (arguments[1]) localStorage.setItem('lumen.token', arguments[1]);"
                          "else localStorage.removeItem('lumen.token');", lang, token)
    driver.get("about:blank")
    driver.get(handle.url + "/" + fragment)
    wait_for(lambda: driver.execute_script("return document.getElementById('conn').dataset.ok === '1'"),
             what="the live connection")


def severe_console_errors(driver):
    """Script errors (refused control requests show up as network errors: those are expected)."""
    return [e for e in driver.get_log("browser") if e.get("level") == "SEVERE" and e.get("source") != "network"]


def test_the_page_loads_in_korean_and_goes_live(server, browser):
    handle, table = server
    open_page(browser, handle)
    assert browser.execute_script("return document.documentElement.lang") == "ko"
    assert browser.title == "루멘콘덴서"
    assert "진행 중인 게임이 없습니다" in text(browser, "banner")
    assert text(browser, "clock-text") == "30:00"
    assert not browser.find_element("id", "admin").is_displayed()
    assert not severe_console_errors(browser)


def test_a_game_event_shows_on_the_display(server, browser):
    """How fast is bench work (tests/web/bench_display.py), not an assertion here."""
    handle, table = server
    open_page(browser, handle)
    handle.call(table.start_tracker, "wolf", "rita", 1, "a")
    wait_for(lambda: text(browser, "hp-a") == "5000", what="the new game")
    handle.call(table.submit, "a", "action", {"action": "adjust_health", "seat": "a", "delta": -300}, "pod")
    wait_for(lambda: text(browser, "hp-a") == "4700", what="health 4700")
    handle.call(table.submit, "b", "action", {"action": "adjust_fp", "seat": "b", "delta": 2}, "pod")
    wait_for(lambda: text(browser, "fp-b") == "+2", what="FP +2")


def test_the_countdown_and_the_match_clock_run(server, browser):
    handle, table = server
    handle.call(table.start_tracker, "nia", "root", 2, "a")
    open_page(browser, handle)
    handle.call(table.timer_action, "round_start")
    handle.call(table.submit, "b", "ready", True, "pod")       # 2P locks: 1P's 10 seconds start
    first = float(wait_for(lambda: text(browser, "countdown-a"), what="the countdown"))
    assert 0 < first <= 10.0
    assert "레디 완료" in browser.execute_script("return document.querySelector('#ready-b .ready-state').textContent")
    clock0 = text(browser, "clock-text")
    # both run down (how soon the page shows a change depends on the machine: waited for, not timed)
    wait_for(lambda: 0 < float(text(browser, "countdown-a") or 0) <= first - 1.0, what="the countdown to run down")
    wait_for(lambda: text(browser, "clock-text") != clock0, what="the match clock to run")
    assert text(browser, "clock-text").startswith("29:")


def test_control_is_refused_without_the_token(server, browser):
    handle, table = server
    handle.call(table.start_tracker, "wolf", "rita", 3, "a")
    open_page(browser, handle)
    wait_for(lambda: text(browser, "hp-a") == "5000", what="the game")
    assert browser.execute_script("return document.querySelectorAll('#seat-a [data-cmd]').length") == 0
    status = browser.execute_async_script("""
        const done = arguments[arguments.length - 1];
        fetch('/api/control/tracker', {method: 'POST', headers: {'Content-Type': 'application/json'},
              body: JSON.stringify({action_id: 'browser-no-token-1',
                                    command: {action: 'adjust_health', seat: 'a', delta: -300}})})
          .then(r => r.json().then(j => done([r.status, j.error])));""")
    assert status == [401, "unauthorized"]
    time.sleep(0.3)
    assert text(browser, "hp-a") == "5000" and table.session.game.seat("a").health == 5000


def test_control_with_the_token_works(server, browser):
    handle, table = server
    handle.call(table.start_tracker, "wolf", "rita", 4, "a")
    handle.call(setattr, table, "timer", MatchTimer())   # idle: round start asks first while a round runs
    open_page(browser, handle, fragment="#admin=" + TOKEN)
    wait_for(lambda: browser.find_element("id", "admin").is_displayed(), what="the admin panel")
    assert "admin=" not in browser.current_url                 # the token is taken off the address bar
    button = wait_for(lambda: browser.execute_script(
        "return [...document.querySelectorAll('#seat-a [data-cmd]')].find(b => b.textContent === '-300')"),
        what="the -300 button")
    button.click()
    wait_for(lambda: text(browser, "hp-a") == "4700", what="health after the press")
    assert table.session.game.seat("a").health == 4700
    browser.execute_script("document.querySelector('[data-timer=\"round_start\"]').click()")
    wait_for(lambda: browser.execute_script("return document.getElementById('clock').dataset.state") == "running",
             what="the round to start")
    browser.execute_script("document.querySelector('[data-timer=\"pause\"]').click()")
    wait_for(lambda: table.timer.state == "paused", what="the clock to pause")
    # a wrong token stored in the browser is dropped: back to read-only
    open_page(browser, handle, token="not-the-token")
    time.sleep(0.5)
    assert not browser.find_element("id", "admin").is_displayed()


def test_the_language_switch_persists(server, browser):
    handle, table = server
    handle.call(table.start_tracker, "tao", "johan", 5, "b")
    open_page(browser, handle)
    wait_for(lambda: text(browser, "turn") == "1턴", what="Korean turn label")
    browser.find_element("id", "lang-btn").click()
    wait_for(lambda: text(browser, "turn") == "Turn 1", what="English turn label")
    assert browser.execute_script("return document.documentElement.lang") == "en"
    browser.refresh()
    wait_for(lambda: text(browser, "turn") == "Turn 1", what="English after a reload")
    assert "Priority" in browser.execute_script("return document.getElementById('seat-b').textContent")
    browser.find_element("id", "lang-btn").click()
    wait_for(lambda: text(browser, "turn") == "1턴", what="Korean again")


def test_the_api_docs_render_offline(server, browser):
    handle, table = server
    browser.get(handle.url + "/docs")
    count = wait_for(lambda: browser.execute_script("return document.querySelectorAll('.opblock').length"),
                     what="Swagger UI's operations")
    assert count >= 14
    assert "/api/control/tracker" in browser.find_element("tag name", "body").text


def _mid_game(table, seed=5, turn=5):
    """A referee game at turn ``turn``: bots play as the pods, then 1P locks a hidden ready
    (the next seed if a game ends before that turn)."""
    for seed in range(seed, seed + 20):
        table.start_referee(seed=seed)
        bots = {"a": Bot(1, "greedy"), "b": Bot(2, "greedy")}
        while table.session.state.winner is None:
            st = table.session.state
            req = st.pending[0]
            if req["kind"] == "ready" and st.turn >= turn and len(st.pending) == 2:
                req = next(r for r in st.pending if r["player"] == "a")
                card = bots["a"].answer(st, req)[1]
                table.submit("a", "ready", card, source="pod")
                table.timer_action("round_start")
                return card
            table.submit(req["player"], *bots[req["player"]].answer(st, req), source="pod")
    raise AssertionError("no sample game reached turn %d" % turn)


def test_screenshots_of_the_display_mid_game(server, browser):
    handle, table = server
    card = handle.call(_mid_game, table)
    name = table.session.state.cards[card].name
    ARTIFACTS.mkdir(exist_ok=True)
    try:
        viewport(browser, 1600, 1000)
        open_page(browser, handle)
        wait_for(lambda: text(browser, "countdown-b"), what="2P's countdown")
        wait_for(lambda: text(browser, "battle-reason"), what="the last battle")
        hidden = browser.execute_script("return [...document.querySelectorAll('#seat-a .zone')].find("
                                        "z => z.textContent.includes('배틀 존')).textContent")
        assert "?" in hidden and name not in hidden, "the readied card shows in the battle zone"
        assert "가이드" in text(browser, "battle-reason")         # the reason cites the rule section
        assert "레디 완료" in browser.execute_script("return document.getElementById('ready-a').textContent")
        time.sleep(0.3)
        assert browser.save_screenshot(str(ARTIFACTS / "display-ko.png"))
        viewport(browser, 412, 915, mobile=True)
        time.sleep(0.4)
        assert browser.save_screenshot(str(ARTIFACTS / "display-phone-ko.png"))
        viewport(browser, 1600, 1000)
        open_page(browser, handle, lang="en")
        wait_for(lambda: text(browser, "battle-reason"), what="the last battle (en)")
        time.sleep(0.3)
        assert browser.save_screenshot(str(ARTIFACTS / "display-en.png"))
    finally:
        browser.execute_script("localStorage.setItem('lumen.lang', 'ko')")
        viewport(browser, 1600, 1000)
    assert (ARTIFACTS / "display-ko.png").stat().st_size > 20_000
    assert not severe_console_errors(browser)
