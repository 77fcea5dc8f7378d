"""The coach in a real browser (issue 24): a practice game against the hub's bot started from
the admin page, 1P played as a pod would; the coach's panel is absent until the first reveal,
shows after it what the search thought of 1P's ready (the mix, the chosen card against the
best, the sentence with its rule) and what the bot thought, and never anything of a battle
before its reveal. Screenshots go to artifacts/ (git-ignored)."""

import os
import time
from pathlib import Path

import pytest

from engine.bots import Bot
from hub.bot.coach import Coach
from hub.bot.seat import BotSeat
from hub.record.store import Store
from hub.sessions.table import Table
from hub.web.server import start_in_thread
from tests import chromium
from tests.chromium import CHROMIUM
from tests.web.conftest import TOKEN
from tests.web.test_browser import browser, open_page, severe_console_errors, viewport, wait_for  # noqa: F401  (browser: the fixture)

ARTIFACTS = Path(__file__).resolve().parents[2] / "artifacts"

pytestmark = pytest.mark.skipif(not os.path.exists(CHROMIUM),
                                reason="Debian's chromium is not installed at /usr/bin/chromium (CI installs it)")

COACH = "var c = document.getElementById('coach'); return c && !c.hidden ? c.innerText : null;"


@pytest.fixture(scope="module")
def server():
    table = Table(Store(":memory:"), admin_token=TOKEN)
    table.auto_setup = True              # as when pods serve the table: the hub answers the setups
    coach = Coach(table, iterations=24)
    # the bot locks 3 s after a ready is asked at the earliest: 1P, quicker, locks first, and the
    # page is read while the bot's lock is still to come
    bot = BotSeat(table, iterations=24, pace_ms=3000, step_ms=0, coach=coach)
    handle = start_in_thread(table, tick_interval=0.1, tasks=(bot.run, coach.run))
    yield handle, table, bot, coach
    handle.stop()




def _human_ready(table, human):
    """1P readies (as its pod would) if it is asked to; the card, else None."""
    s = table.session
    req = next((r for r in s.engine_state.pending if r["player"] == "a" and r["kind"] == "ready"), None)
    if req is None:
        return None
    card = human.answer(s.engine_state, req)[1]
    if card is True or card not in req["options"]:
        card = req["options"][0]
    table.submit("a", "ready", card, source="pod")
    return card


def _human_other(table, human):
    """1P's other decisions (get, discard, combo, ...), as its pod would give them."""
    s = table.session
    req = next((r for r in s.engine_state.pending if r["player"] == "a" and r["kind"] not in ("ready", "setup")), None)
    if req is not None:
        table.submit("a", *human.answer(s.engine_state, req), source="pod")
        return True
    return False


def test_the_coach_shows_after_the_reveal_and_not_before(server, browser):
    handle, table, bot, coach = server
    ARTIFACTS.mkdir(exist_ok=True)
    open_page(browser, handle, fragment="#admin=" + TOKEN)
    wait_for(lambda: browser.execute_script("return !!document.getElementById('pr-go')"), what="the practice form")
    browser.execute_script("document.getElementById('pr-seat').value = 'b';"
                           "document.getElementById('pr-level').value = 'strong';"
                           "document.getElementById('pr-coach').checked = true;")
    chromium.click(browser, "#pr-go")
    wait_for(lambda: table.session is not None and table.bot_seats() == {"b"}, what="the practice game")
    s = table.session
    assert table.meta["coach"] == ["a", "b"] and table.meta["bot"] == {"seat": "b", "level": "strong"}
    human = Bot(9, "greedy")
    wait_for(lambda: handle.call(lambda: any(r["player"] == "a" and r["kind"] == "ready" for r in s.engine_state.pending)),
             what="1P's first ready")
    # before the first reveal: no coach at all, even with 1P locked and the bot deciding
    assert browser.execute_script(COACH) is None
    card = handle.call(_human_ready, table, human)
    assert card is not None
    time.sleep(0.2)
    if s.engine_state.phase == "ready":
        assert browser.execute_script(COACH) is None, "the coach shows before the reveal"
    wait_for(lambda: s.engine_state.turn > 1 or s.engine_state.phase != "ready", what="the first reveal")
    # after it: 1P's analysis (with the card it chose) and the bot's thought, citing rules
    wait_for(lambda: browser.execute_script(COACH) and browser.execute_script(
        "return document.querySelectorAll('#coach .coach-entry[data-seat=\"a\"][data-who=\"player\"]').length") == 1,
        timeout=120, what="1P's coach line")
    shown = browser.execute_script(COACH)
    name = s.engine_state.cards[card].name
    assert name in shown
    assert "가이드" in shown and "%" in shown
    assert browser.execute_script("return document.querySelectorAll('#coach .coach-entry[data-who=\"bot\"][data-kind=\"ready\"]').length") == 1
    assert browser.execute_script("return document.querySelectorAll('#coach .coach-mix tr.chosen').length") >= 1
    time.sleep(0.3)
    assert browser.save_screenshot(str(ARTIFACTS / "coach-ko.png"))

    # the next battles: while 1P's next ready is locked, the coach holds the battles fought only
    checked = 0
    for _ in range(6):
        wait_for(lambda: handle.call(lambda: _human_other(table, human) or any(
            r["player"] == "a" and r["kind"] == "ready" for r in s.engine_state.pending) or s.winner is not None),
            timeout=120, what="1P's next ready")
        if s.winner is not None:
            break
        if not handle.call(lambda: any(r["player"] == "a" and r["kind"] == "ready" for r in s.engine_state.pending)):
            continue
        fought = handle.call(lambda: sum(1 for e in s.log if e["e"] == "reveal"))
        wait_for(lambda: not coach.thinking, timeout=120, what="the last analysis")
        handle.call(_human_ready, table, human)
        # the page first, the hub after: if no reveal had happened by then, none had when the page was read
        shown = browser.execute_script("var c = window.lumenDisplay.state().coach; return c && c.battle")
        if handle.call(lambda: sum(1 for e in s.log if e["e"] == "reveal")) == fought:
            assert shown is None or shown <= fought, "the coach shows battle %s before its reveal" % shown
            checked += 1
    assert checked >= 1
    # English, and the phone layout (the learner's own phone on the admin page)
    open_page(browser, handle, fragment="#admin=" + TOKEN, lang="en")
    wait_for(lambda: browser.execute_script(COACH), timeout=120, what="the coach (en)")
    assert "guide" in browser.execute_script(COACH)
    time.sleep(0.3)
    assert browser.save_screenshot(str(ARTIFACTS / "coach-en.png"))
    viewport(browser, 412, 915, mobile=True)
    browser.execute_script("document.getElementById('coach').scrollIntoView()")
    time.sleep(0.4)
    assert browser.save_screenshot(str(ARTIFACTS / "coach-phone-en.png"))
    viewport(browser, 1600, 1000)
    browser.execute_script("localStorage.setItem('lumen.lang', 'ko')")
    assert bot.submitted >= 2 and coach.analysed >= 1
    assert not severe_console_errors(browser)
