"""A BattleCON beat on the table display in a real browser (Debian's Chromium, headless,
through the system chromedriver): the profile's board replaces the Lumen seats; who has
locked shows, never what; the reveal shows both pairs with their priorities and who leads;
a clash says so; the judge's −/+ buttons change life; cards in a discard pile are greyed.
Screenshots go to artifacts/ (git-ignored)."""

import os

import pytest

from hub.record.store import Store
from hub.sessions.table import Table
from hub.web.server import start_in_thread
from tests import chromium
from tests.chromium import CHROMIUM
from tests.web.conftest import TOKEN
from tests.web.test_browser import ARTIFACTS, open_page, severe_console_errors, viewport, wait_for

pytestmark = pytest.mark.skipif(not os.path.exists(CHROMIUM),
                                reason="Debian's chromium is not installed at /usr/bin/chromium (CI installs it)")


def js(driver, script, *args):
    return driver.execute_script(script, *args)


def text_of(driver, css):
    return js(driver, "var e = document.querySelector(arguments[0]); return e ? e.innerText : null;", css)


def test_a_battlecon_beat_on_the_display():
    table = Table(Store(":memory:"), admin_token=TOKEN)
    handle = start_in_thread(table, tick_interval=0.1)
    driver = chromium.start(1600, 1000, console_log=True)
    try:
        driver.set_page_load_timeout(20)
        viewport(driver, 1600, 1000)

        def submit(*a):
            handle.call(lambda: table.submit(*a, source="pod"))
        handle.call(lambda: table.start("profile", "haneul", "bada", profile="battlecon", seed=7, priority="a",
                                        names={"a": "민지", "b": "Alex"}))
        open_page(driver, handle)
        wait_for(lambda: js(driver, "return !document.getElementById('profile').hidden"), what="the profile board")
        assert js(driver, "return getComputedStyle(document.getElementById('seat-a')).display") == "none"
        assert text_of(driver, "#turn") == "격투 1/15" and "배틀콘" in text_of(driver, "#mode")
        assert text_of(driver, '[data-seat="a"] .pcounter.primary b') == "20"
        # the discard piles' cards are greyed in the hand (1.F's [1] and [2])
        assert js(driver, "return document.querySelectorAll('[data-seat=\"a\"] .phand .pcard.grey').length") == 4
        # 1P locks its pair: "잠금", and nothing of which cards
        submit("a", "ready", "haneul-flame")
        wait_for(lambda: "1/2" in (text_of(driver, "#pstate-a") or ""), what="1P's first part locked")
        submit("a", "ready", "hold")
        wait_for(lambda: "잠금" in (text_of(driver, "#pstate-a") or ""), what="1P locked")
        assert text_of(driver, "#prevealed-a") is None
        submit("b", "ready", "bada-tide")
        submit("b", "ready", "charge")
        wait_for(lambda: "앤티" in (text_of(driver, "#pnote") or ""), what="the antes")
        assert "불꽃" not in text_of(driver, "#pstate-a") and "불꽃" not in text_of(driver, "#log")
        submit("a", "ante", "pass")
        submit("b", "ante", "pass")
        # the reveal: both pairs, their priorities, [선] 1P (2+5 against 1+4)
        wait_for(lambda: text_of(driver, "#prevealed-a"), what="the reveal")
        assert "불꽃" in text_of(driver, "#prevealed-a") and "붙잡기" in text_of(driver, "#prevealed-a")
        assert "우선권 7" in text_of(driver, "#prevealed-a") and "우선권 5" in text_of(driver, "#prevealed-b")
        assert js(driver, "return document.querySelector('.pseat[data-seat=\"a\"]').classList.contains('lead')")
        assert "우선권: 1P 선" in text_of(driver, "#log")
        ARTIFACTS.mkdir(exist_ok=True)
        driver.save_screenshot(str(ARTIFACTS / "profile-battlecon-reveal.png"))
        # the judge: −/+ on life (the token in the browser)
        open_page(driver, handle, token=TOKEN)
        wait_for(lambda: js(driver, "return !!document.querySelector('[data-seat=\"b\"] [data-pcmd]')"), what="the judge's buttons")
        for _ in range(3):
            chromium.click(driver, '[data-seat="b"] .pcounter.primary .pbtn')          # the first is −
        wait_for(lambda: text_of(driver, '[data-seat="b"] .pcounter.primary b') == "17", what="2P at 17")
        submit("a", "end_turn", "done")
        submit("b", "end_turn", "done")
        wait_for(lambda: text_of(driver, "#turn") == "격투 2/15", what="beat 2")
        # beat 2: a clash (mirror+charge 1+4 against reef+hold 0+5)
        submit("a", "ready", "haneul-mirror")
        submit("a", "ready", "charge")
        submit("b", "ready", "bada-reef")
        submit("b", "ready", "hold")
        submit("a", "ante", "pass")
        submit("b", "ante", "pass")
        wait_for(lambda: "상쇄 ×1" in (text_of(driver, "#pnote") or ""), what="the clash")
        # 1P's flame and hold went to pile 1 in beat 1: greyed; the clash re-pick is hidden until both
        assert "불꽃" in text_of(driver, '[data-seat="a"] .ppile[data-pile="1"]')
        submit("a", "ready", "blast")
        wait_for(lambda: "잠금" in (text_of(driver, "#pstate-a") or ""), what="1P's clash pick locked")
        assert "폭발" not in (text_of(driver, "#prevealed-a") or "")
        driver.save_screenshot(str(ARTIFACTS / "profile-battlecon-clash.png"))
        submit("b", "ready", "step")
        wait_for(lambda: "폭발" in (text_of(driver, "#prevealed-a") or ""), what="the clash's reveal")
        assert "우선권 9" in text_of(driver, "#prevealed-b")          # reef 0 + step 9: 2P leads
        assert js(driver, "return document.querySelectorAll('#prevealed-a .pcard.buried').length") == 1
        assert not severe_console_errors(driver)
    finally:
        driver.quit()
        handle.stop()
