"""Table day, second pass (issue 22) in a real browser: Debian's Chromium through its
chromedriver, at the size where each point failed (the judge's phone at 390x844, the TV at
1920x1080). A tired judge's slips (a double KO typed as two taps, a clock double tap, a
ready on the wrong seat, call time), undo labels, the phone's tap counts, the TV with
nothing clipped (every element's box checked against its panel), rule badges that open
the rules index, the whole game's log. Screenshots go to artifacts/ (git-ignored)."""

import json
import os
import time

import pytest
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support import expected_conditions as EC
from selenium.webdriver.support.ui import WebDriverWait

from hub.record.store import Store
from hub.sessions.table import Table
from hub.web.server import start_in_thread
from tests.web.conftest import TOKEN
from tests.web.test_browser import (ARTIFACTS, CHROMIUM, _mid_game, browser, open_page,  # noqa: F401
                                    severe_console_errors, text, viewport, wait_for)
from tests.web.test_table_day_browser import admin_on, button, js, qr_texts, server, shot  # noqa: F401

pytestmark = pytest.mark.skipif(not os.path.exists(CHROMIUM),
                                reason="Debian's chromium is not installed at /usr/bin/chromium (CI installs it)")

PHONE = (390, 844)
TV = (1920, 1080)

#: every element of the board (and the top bar, the banner) whose box sticks out of its panel,
#: and every panel that hides overflow (the TV's seats and panels do) with more content than
#: its box: what a TV would clip. The log's list scrolls by design (newest first), so its
#: lines are left out; the list itself is not.
CLIPPED = """
const out = [];
const panels = [...document.querySelectorAll("main#board > section, .topbar, .banner")].filter(e => e.offsetParent !== null);
for (const p of panels) {
  const pr = p.getBoundingClientRect(), cs = getComputedStyle(p);
  const hides = cs.overflowX !== "visible" || cs.overflowY !== "visible";
  if (hides && (p.scrollHeight > p.clientHeight + 1 || p.scrollWidth > p.clientWidth + 1))
    out.push({panel: p.id || p.className, scroll: [p.scrollWidth, p.clientWidth, p.scrollHeight, p.clientHeight]});
  for (const e of p.querySelectorAll("*")) {
    if (e.closest("#log") && e.id !== "log") continue;
    if (e.offsetParent === null) continue;
    const r = e.getBoundingClientRect();
    if (r.width === 0 && r.height === 0) continue;
    if (r.bottom > pr.bottom + 1 || r.right > pr.right + 1 || r.top < pr.top - 1 || r.left < pr.left - 1)
      out.push({panel: p.id || p.className, el: e.tagName + "." + e.className, text: (e.textContent || "").slice(0, 40),
                box: [r.left, r.top, r.right, r.bottom].map(Math.round), in: [pr.left, pr.top, pr.right, pr.bottom].map(Math.round)});
  }
}
const s = document.scrollingElement;
if (s.scrollWidth > innerWidth || s.scrollHeight > innerHeight) out.push({page: [s.scrollWidth, s.scrollHeight, innerWidth, innerHeight]});
return out;
"""


def assert_nothing_clipped(driver, timeout=30):
    """Wait for the page to settle with nothing clipped (a layout can move after a render, e.g.
    while fonts arrive, and the TV fits itself again); fail with what is still clipped."""
    seen = []

    def fits():
        seen[:] = js(driver, CLIPPED)
        return not seen
    try:
        wait_for(fits, timeout=timeout, what="nothing clipped")
    except AssertionError:
        raise AssertionError(json.dumps(seen[:6], ensure_ascii=False)) from None


def act(handle, table, **cmd):
    return handle.call(table.submit, cmd.get("seat"), "action", cmd, "display")


def health(handle, table):
    return handle.call(lambda: (table.session.game.seat("a").health, table.session.game.seat("b").health))


def seat_button(driver, seat, label):
    return button(driver, "[...document.querySelectorAll('#seat-%s [data-cmd]')].find(b => b.textContent === '%s')"
                  % (seat, label), "%s's %s" % (seat, label))


def on_first_screen(driver, el, height):
    r = el.rect
    return r["y"] >= 0 and r["y"] + r["height"] <= height and el.is_displayed()


def phone(driver, handle):
    viewport(driver, *PHONE, mobile=True)
    open_page(driver, handle, fragment="#admin=" + TOKEN)
    wait_for(lambda: js(driver, "return !document.getElementById('mini').hidden"), what="the mini scoreboard")


# ---------------------------------------------------------------- a single slip (points 2-6)

def test_a_double_ko_from_two_taps_on_the_phone_is_sudden_death(server, browser):
    """Point 2 at 390x844: 1P's -300 KOs 1P (2P's win shows at once), 2P's -300 seconds later
    KOs 2P: a trade, sudden death (guide 5.1.2), both at 1000; undo brings back the first KO."""
    handle, table = server
    handle.call(table.start_tracker)
    act(handle, table, action="set_health", seat="a", health=300)
    act(handle, table, action="set_health", seat="b", health=300)
    try:
        phone(browser, handle)
        seat_button(browser, "a", "-300").click()
        wait_for(lambda: "2P 승리" in text(browser, "banner"), what="2P's win, shown at once")
        assert text(browser, "hp-a") == "0" and js(browser, "return !document.querySelector('#seat-a [data-f=ko]').hidden")
        shot(browser, "phone-first-ko-390x844-ko.png")
        time.sleep(1.5)             # the second tap comes well after the old 1-s window
        seat_button(browser, "b", "-300").click()
        wait_for(lambda: "서든 데스" in text(browser, "banner"), what="the sudden death banner")
        assert handle.call(lambda: (table.session.game.sudden_death, table.session.game.winner)) == (True, None)
        assert health(handle, table) == (1000, 1000)
        wait_for(lambda: "동시 KO" in text(browser, "log"), what="the log saying it was a double KO")
        assert "서든 데스" in js(browser, "return document.getElementById('mini-undo').textContent")
        shot(browser, "phone-double-ko-390x844-ko.png")
        js(browser, "document.getElementById('mini-undo').click()")
        wait_for(lambda: handle.call(lambda: table.session.game.winner) == "b", what="the first KO back")
        assert health(handle, table) == (0, 300)
    finally:
        viewport(browser, 1600, 1000)


def test_a_clock_double_tap_on_the_phone_is_one_tap(server, browser):
    """Point 3 at 390x844: a double tap on the mini bar's pause (it turns into resume under
    the finger) leaves the clock paused; a double tap on resume leaves it running."""
    handle, table = server
    handle.call(table.start_tracker)
    handle.call(table.timer_action, "round_start")
    try:
        phone(browser, handle)
        pause = button(browser, "document.querySelector('#mini [data-timer=\"pause\"]')", "the mini bar's pause")
        ActionChains(browser).double_click(pause).perform()
        wait_for(lambda: js(browser, "return document.querySelector('#mini [data-timer=\"resume\"]')"), what="resume offered")
        # let both taps reach the hub, then look: one pause, the clock paused
        handle.call(table.submit, "a", "action", {"action": "adjust_fp", "seat": "a", "delta": 1}, "display")
        assert handle.call(lambda: table.timer.state) == "paused"
        actions = handle.call(lambda: [r.body["action"] for r in table.store.records(table.session.game_id, kinds=("timer",))])
        assert actions.count("pause") == 1 and "resume" not in actions
        shot(browser, "phone-clock-paused-390x844-ko.png")
        time.sleep(1.1)             # a second later a tap is a decision again
        resume = button(browser, "document.querySelector('#mini [data-timer=\"resume\"]')", "the mini bar's resume")
        ActionChains(browser).double_click(resume).perform()
        wait_for(lambda: handle.call(lambda: table.timer.state) == "running", what="the clock running")
        handle.call(table.submit, "a", "action", {"action": "adjust_fp", "seat": "a", "delta": 1}, "display")
        assert handle.call(lambda: table.timer.state) == "running"
    finally:
        viewport(browser, 1600, 1000)


def test_call_time_is_not_one_stray_tap_away(server, browser):
    """Point 4: call time is gone from the sticky bar; in the clock panel it asks first, and a
    dismissed question changes nothing."""
    handle, table = server
    handle.call(table.start_tracker)
    handle.call(table.timer_action, "round_start")
    try:
        phone(browser, handle)
        assert js(browser, "return document.querySelector('#mini [data-timer=\"call_time\"]')") is None
        js(browser, "document.querySelector('#admin [data-timer=\"call_time\"]').click()")
        alert = WebDriverWait(browser, 10).until(EC.alert_is_present())
        assert "타임을 선언할까요" in alert.text
        alert.dismiss()
        time.sleep(0.3)
        assert handle.call(lambda: table.timer.state) == "running"
    finally:
        viewport(browser, 1600, 1000)


def test_a_ready_tapped_on_the_wrong_seat_is_undone(server, browser):
    """Point 5 at 390x844: 2P's ready tapped for 1P's: undo names it and takes it back (no
    countdown runs on, no non-response), the -300 before it stays."""
    handle, table = server
    handle.call(table.start_tracker)
    try:
        phone(browser, handle)
        seat_button(browser, "a", "-300").click()
        wait_for(lambda: health(handle, table)[0] == 4700, what="1P's -300")
        button(browser, "document.querySelector('#seat-b [data-ready]')", "2P's ready").click()
        wait_for(lambda: "레디 완료" in text(browser, "ready-b"), what="2P shown ready")
        wait_for(lambda: js(browser, "return !!document.getElementById('countdown-a').textContent"), what="1P's countdown")
        wait_for(lambda: "2P 레디" in js(browser, "return document.getElementById('mini-undo').textContent"),
                 what="undo naming the ready")
        shot(browser, "phone-wrong-ready-390x844-ko.png")
        js(browser, "document.getElementById('mini-undo').click()")
        wait_for(lambda: handle.call(lambda: not table.session.locked and not table.session.deadline), what="the ready undone")
        wait_for(lambda: not js(browser, "return document.getElementById('countdown-a').textContent"), what="no countdown")
        assert health(handle, table) == (4700, 5000)
        assert "1P 체력 -300" in js(browser, "return document.getElementById('mini-undo').textContent")
    finally:
        viewport(browser, 1600, 1000)


def test_undo_labels_say_what_they_undo(server, browser):
    """Point 6 at 1920x1080: a double-tapped -300 is undone as -600, three token taps as +3,
    both hit names both seats; Ctrl+Z undoes like the button; Esc closes the both-hit box."""
    handle, table = server
    handle.call(table.start_tracker, "wolf", "generic", 1, "a")
    viewport(browser, *TV)
    try:
        open_page(browser, handle, fragment="#admin=" + TOKEN)
        wait_for(lambda: admin_on(browser), what="admin mode")
        ActionChains(browser).double_click(seat_button(browser, "b", "-300")).perform()
        wait_for(lambda: "-600" in text(browser, "undo-btn"), what="the label -600")
        assert health(handle, table)[1] == 4400 and "-300 ×2" in text(browser, "undo-btn")
        plus = button(browser, "[...document.querySelectorAll('#seat-a .token button.plus')][0]", "1P's howl +")
        for _ in range(3):
            plus.click()
        wait_for(lambda: "+3" in text(browser, "undo-btn"), what="the label +3")
        assert "하울링" in text(browser, "undo-btn")
        ActionChains(browser).key_down(Keys.CONTROL).send_keys("z").key_up(Keys.CONTROL).perform()
        wait_for(lambda: handle.call(lambda: table.session.game.seat("a").tokens["하울링"]) == 0, what="Ctrl+Z")
        browser.find_element("id", "both-btn").click()
        js(browser, "document.getElementById('both-a').value = '300'; document.getElementById('both-b').value = '500';")
        ActionChains(browser).send_keys(Keys.ESCAPE).perform()
        wait_for(lambda: js(browser, "return document.getElementById('both-dialog').hidden"), what="Esc to close")
        browser.find_element("id", "both-btn").click()
        js(browser, "document.getElementById('both-a').value = '300'; document.getElementById('both-b').value = '500';"
                    "document.querySelector('#both-form button[type=submit]').click()")
        wait_for(lambda: "동시 히트" in text(browser, "undo-btn"), what="the both-hit label")
        label = text(browser, "undo-btn")
        assert "1P 울프 체력 -300" in label and "2P 체력 -500" in label
        shot(browser, "desk-undo-label-1920x1080-ko.png")
    finally:
        viewport(browser, 1600, 1000)


# ---------------------------------------------------------------- the phone (point 7)

def test_the_phones_common_actions_are_one_tap_each(server, browser):
    """Point 7 at 390x844, from the first screen (no scrolling, no tab switch): health on
    either seat, undo, starting the round clock are one tap each; a game comes back with the
    page (0 taps), an earlier one with one tap on its Resume (docs/display.md, "Tap counts")."""
    handle, table = server
    handle.call(table.start_tracker, "wolf", "tao", 1, "a", names={"a": "김서린", "b": "Alex"})
    earlier = handle.call(lambda: table.session.game_id)
    act(handle, table, action="adjust_health", seat="b", delta=-300)
    handle.call(table.start_tracker)
    w, h = PHONE
    try:
        phone(browser, handle)
        assert js(browser, "return [document.scrollingElement.scrollWidth, innerWidth]")[0] <= w
        taps = {}
        for seat in ("a", "b"):
            b = seat_button(browser, seat, "-300")
            assert on_first_screen(browser, b, h), (seat, b.rect)
            b.click()
            taps["health %s" % seat] = 1
        wait_for(lambda: health(handle, table) == (4700, 4700), what="both seats' -300, one tap each")
        undo = browser.find_element("id", "mini-undo")
        assert on_first_screen(browser, undo, h)
        undo.click()
        taps["undo"] = 1
        wait_for(lambda: health(handle, table) == (4700, 5000), what="one undo")
        start = browser.find_element("id", "mini-clock-btn")
        assert on_first_screen(browser, start, h) and start.get_attribute("data-timer") == "round_start"
        start.click()
        taps["round clock"] = 1
        wait_for(lambda: handle.call(lambda: table.timer.state) == "running", what="the round clock, one tap")
        shot(browser, "phone-judge-390x844-ko.png")
        # the game comes back with the page: nothing to tap
        gid = handle.call(lambda: table.session.game_id)
        browser.refresh()
        wait_for(lambda: js(browser, "return window.lumenDisplay.started() && window.lumenDisplay.state().game_id") == gid,
                 what="the same game after a reload")
        # an earlier game: one tap on Resume in Recent games, which shows what was played
        li = button(browser, "[...document.querySelectorAll('#games li')].find(l => l.textContent.includes('#%d'))" % earlier,
                    "the earlier game")
        assert "김서린" in li.text and "울프" in li.text and "타오" in li.text and "4700" in li.text
        js(browser, "arguments[0].scrollIntoView({block: 'center'})", li)
        shot(browser, "phone-recent-games-390x844-ko.png")
        li.find_element("css selector", "[data-resume]").click()
        taps["resume a game"] = 1
        wait_for(lambda: handle.call(lambda: table.session.game_id) == earlier, what="the earlier game resumed")
        assert max(taps.values()) == 1
    finally:
        viewport(browser, 1600, 1000)


def test_a_game_nobody_finishes_can_be_closed(server, browser):
    """Point 8: abandoned games leave the recent games on a tap (after a question)."""
    handle, table = server
    handle.call(table.start_tracker)
    stale = handle.call(lambda: table.session.game_id)
    act(handle, table, action="adjust_health", seat="a", delta=-300)
    handle.call(table.start_tracker)
    open_page(browser, handle, fragment="#admin=" + TOKEN)
    close = button(browser, "document.querySelector('#games [data-close=\"%d\"]')" % stale, "the stale game's close")
    close.click()
    WebDriverWait(browser, 10).until(EC.alert_is_present()).accept()
    wait_for(lambda: not js(browser, "return document.querySelector('#games [data-close=\"%d\"]')" % stale),
             what="the stale game gone from the list")
    assert stale not in [g["id"] for g in handle.call(table.games)]


# ---------------------------------------------------------------- the TV (points 9, 13)

def test_the_referee_tv_at_1080p_clips_nothing(server, browser):
    """Point 9: mid-game in referee mode (hands, lists of 9, tokens, ultimate, trait) every
    element of both seat panels, the battle and the log panel is inside its box, in Korean
    and in English."""
    handle, table = server
    handle.call(_mid_game, table)
    viewport(browser, *TV)
    try:
        for lang in ("ko", "en"):
            open_page(browser, handle, fragment="?tv", lang=lang)
            wait_for(lambda: text(browser, "battle-reason"), what="the last battle")
            wait_for(lambda: js(browser, "return document.querySelectorAll('#seat-b .zone .card').length") > 5, what="the zones")
            assert_nothing_clipped(browser)
            for s in ("a", "b"):
                for zone in ("zone_list", "zone_hand", "zone_ultimate", "trait"):
                    word = js(browser, "return window.lumenDisplay.t(arguments[0])", zone)
                    assert word in js(browser, "return document.getElementById('seat-%s').innerText" % s), (s, zone)
            shot(browser, "tv-referee-1920x1080-%s.png" % lang)
    finally:
        js(browser, "localStorage.setItem('lumen.lang', 'ko')")
        viewport(browser, 1600, 1000)


def test_the_tracker_tv_reads_from_across_the_room(server, browser):
    """Point 13 at 1920x1080: a KO shows 0 and KO (the log keeps -200); paused is a badge
    of 36 px or more; the seats' numbers fill their half; log text at 24 px or more; nothing
    clipped; a hub that phones cannot reach shows no QR code and no developer text."""
    handle, table = server
    handle.call(table.start_tracker, "wolf", "tao", 1, "a", names={"a": "김서린", "b": "Alex"})
    act(handle, table, action="set_health", seat="b", health=100)
    act(handle, table, action="adjust_health", seat="b", delta=-300)
    handle.call(table.timer_action, "round_start")
    handle.call(table.timer_action, "pause")
    viewport(browser, *TV)
    try:
        open_page(browser, handle, fragment="?tv")
        wait_for(lambda: text(browser, "hp-b") == "0", what="0 on the TV")
        assert js(browser, "return !document.querySelector('#seat-b [data-f=ko]').hidden")
        assert "-200" in text(browser, "log")
        badge = js(browser, "var s = document.getElementById('clock-note'); return [s.textContent, parseFloat(getComputedStyle(s).fontSize)]")
        assert badge[0] == "일시정지" and badge[1] >= 36, badge
        hp = js(browser, "return parseFloat(getComputedStyle(document.getElementById('hp-a')).fontSize)")
        seat_h = js(browser, "return document.getElementById('seat-a').getBoundingClientRect().height")
        assert hp >= 180 and hp >= seat_h / 5, (hp, seat_h)
        assert js(browser, "return parseFloat(getComputedStyle(document.getElementById('log')).fontSize)") >= 24
        assert js(browser, "return document.getElementById('battle').offsetParent") is None
        assert_nothing_clipped(browser)
        assert js(browser, "return document.getElementById('tv-qr').offsetParent") is None
        assert "--host" not in js(browser, "return document.body.innerText")
        shot(browser, "tv-tracker-ko-paused-1920x1080-ko.png")
    finally:
        viewport(browser, 1600, 1000)


def test_the_tv_qr_code_sits_beside_the_log_not_over_it(browser):
    """Point 13 (QR): a hub phones can reach (listening on every address) shows the spectators'
    code inside the log panel, under the log: no line is covered, and a phone reads it."""
    table = Table(Store(":memory:"), admin_token=TOKEN)
    handle = start_in_thread(table, host="0.0.0.0", tick_interval=0.1)
    try:
        handle.call(table.start_tracker)
        for i in range(30):
            act(handle, table, action="adjust_fp", seat="a" if i % 2 else "b", delta=1)
        viewport(browser, *TV)
        open_page(browser, handle, fragment="?tv")
        wait_for(lambda: js(browser, "var q = document.getElementById('tv-qr'); var i = q.querySelector('img');"
                                     "return q.offsetParent !== null && i.complete && i.naturalWidth > 0"), what="the QR code")
        reach = js(browser, "return fetch('/api/reach').then(r => r.json())")
        if not reach["phones"]:
            pytest.skip("this machine has no LAN address: phones could not reach any hub here")
        q = js(browser, "return document.getElementById('tv-qr').getBoundingClientRect().toJSON()")
        log = js(browser, "return document.getElementById('log').getBoundingClientRect().toJSON()")
        panel = js(browser, "return document.querySelector('.log-panel').getBoundingClientRect().toJSON()")
        assert q["top"] >= log["bottom"] - 1 and q["bottom"] <= panel["bottom"] + 1, (q, log, panel)
        assert_nothing_clipped(browser)
        shot(browser, "tv-qr-1920x1080-ko.png")
        assert qr_texts(ARTIFACTS / "tv-qr-1920x1080-ko.png") == {reach["spectator"]}
    finally:
        viewport(browser, 1600, 1000)
        handle.stop()


# ---------------------------------------------------------------- learners (point 10)

def test_a_rule_badge_shows_what_the_rule_says(server, browser):
    """Point 10: a tap on a rule badge (the last battle's, a log line's) opens the rules
    index entry, Korean with the English below; Esc closes it. On the phone too."""
    handle, table = server
    handle.call(_mid_game, table)
    try:
        for size, mobile in ((TV, False), (PHONE, True)):
            viewport(browser, *size, mobile=mobile)
            open_page(browser, handle)
            badge = button(browser, "document.querySelector('#battle-reason .rule')", "the battle's rule badge")
            ref = badge.get_attribute("data-rule")
            js(browser, "arguments[0].scrollIntoView({block: 'center'})", badge)
            badge.click()
            wait_for(lambda: js(browser, "return !document.getElementById('rule-dialog').hidden"), what="the rule")
            section = ref.split()[-1]
            assert section in text(browser, "rule-title")
            ko, en = text(browser, "rule-text"), text(browser, "rule-other")
            assert len(ko) > 20 and any("\uac00" <= c <= "\ud7a3" for c in ko) and not any("\uac00" <= c <= "\ud7a3" for c in en)
            shot(browser, "rule-%dx%d-ko.png" % size)
            ActionChains(browser).send_keys(Keys.ESCAPE).perform()
            wait_for(lambda: js(browser, "return document.getElementById('rule-dialog').hidden"), what="Esc to close")
            # a log line's badge (a spectator's page: no admin needed)
            js(browser, "document.querySelector('#log .rule').click()")
            wait_for(lambda: js(browser, "return !document.getElementById('rule-dialog').hidden"), what="the log line's rule")
            js(browser, "document.getElementById('rule-close').click()")
    finally:
        viewport(browser, 1600, 1000)
    assert not severe_console_errors(browser)


def test_the_log_keeps_the_whole_game_scrollable(server, browser):
    """Point 10: past the live window's 40 lines the page shows the whole game, scrollable;
    the tracker's lines carry their rule badge; the log names the game as the display does."""
    handle, table = server
    handle.call(table.start_tracker)
    gid = handle.call(lambda: table.session.game_id)
    for i in range(60):
        act(handle, table, action="adjust_fp", seat="a" if i % 2 else "b", delta=1 if i % 4 < 2 else -1)
    open_page(browser, handle)
    wait_for(lambda: js(browser, "return document.querySelectorAll('#log li').length") == 61, what="all 61 lines")
    first = js(browser, "var l = document.querySelectorAll('#log li'); return l[l.length - 1].textContent")
    assert first.startswith("새 게임:") and "새 게임 1" not in first and "#%d" % gid in text(browser, "mode")
    assert js(browser, "var l = document.getElementById('log'); return l.scrollHeight > l.clientHeight")
    act(handle, table, action="next_turn")
    wait_for(lambda: js(browser, "return document.querySelectorAll('#log li').length") == 62, what="the next line on top")
    assert "우선권" in js(browser, "return document.querySelector('#log li').textContent")
    assert js(browser, "return document.querySelector('#log li .rule').dataset.rule") == "guide 3.8"
