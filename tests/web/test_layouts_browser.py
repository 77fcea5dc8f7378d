"""Every mode read on a TV across the room and a phone in the hand (issue 37), in Debian's
Chromium: one browser for every size (the window is resized, not restarted) and one table
that plays each mode of tests/web/views.py in turn.

- TV 1920x1080 (point 1): every text a player needs at 24 px or more, secondary text (marked
  ``sec``) at 18 px or more, and nothing cut: every line of text inside every box that hides
  what overflows it, and inside the screen (what does not fit is paged, never cut).
- Phone 390x844 (point 2): the judge's sticky bar with next turn / beat, undo and the clock in
  every mode and profile, what stays stuck at the top under a fifth of the screen, nothing wider
  than the phone, and no label cut mid-word (no ellipsis, no word split across lines).
- Laptop 1280x800 and all three: axe-core finds nothing critical or serious (point 5).
- The log's truths on the phone and the TV (point 4), BattleCON with no card data (point 3),
  one way to draw (point 7): a change redraws only the regions it touched.
Screenshots go to artifacts/ (git-ignored); docs/display.md's come from tests/web/screenshots.py.
"""

import json
import os
import re
from pathlib import Path

import pytest

from hub.bot.coach import Coach
from hub.record.store import Store
from hub.sessions.table import Table
from hub.web.server import start_in_thread
from tests import chromium
from tests.web import a11y
from tests.web.conftest import TOKEN
from tests.web.test_browser import ARTIFACTS, wait_for
from tests.web.views import VIEWS

pytestmark = pytest.mark.skipif(not chromium.available(),
                                reason="Debian's chromium is not installed at /usr/bin/chromium (CI installs it)")

TV, PHONE, LAPTOP = (1920, 1080), (390, 844), (1280, 800)
STATIC = Path(__file__).resolve().parents[2] / "hub" / "web" / "static"

#: every line of text on the page: its size (main text 24 px, "sec" 18 px on a TV) and whether
#: a box that hides its overflow, or the screen, cuts it
TEXT = """
const main = arguments[0], sec = arguments[1];
const out = {small: [], cut: [], lines: 0};
const W = innerWidth, H = innerHeight;
const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
let n;
while ((n = walker.nextNode())) {
  const text = n.textContent.trim();
  if (!text) continue;
  const el = n.parentElement;
  if (el.closest("[hidden], .off-page, script, style, option")) continue;
  const cs = getComputedStyle(el);
  if (cs.visibility === "hidden" || !el.getClientRects().length) continue;
  const range = document.createRange();
  range.selectNodeContents(n);
  const rects = [...range.getClientRects()].filter(r => r.width && r.height);
  if (!rects.length) continue;
  out.lines++;
  const px = parseFloat(cs.fontSize), isSec = !!el.closest(".sec");
  if (px < (isSec ? sec : main) - 0.01) out.small.push(Math.round(px * 10) / 10 + (isSec ? "px sec: " : "px: ") + text.slice(0, 40));
  // a line's box is the font's whole height: a tight line-height lets it pass its line by that much
  const lh = cs.lineHeight === "normal" ? 1.2 * px : parseFloat(cs.lineHeight);
  let why = null;
  for (const r of rects) {
    const dy = Math.max(1, (r.height - lh) / 2 + 1);
    if (r.left < -1 || r.top < -dy || r.right > W + 1 || r.bottom > H + dy) why = "off the screen";
    for (let a = el; a && a !== document.body && !why; a = a.parentElement) {
      const s = getComputedStyle(a);
      if (s.overflowX === "visible" && s.overflowY === "visible") continue;
      const b = a.getBoundingClientRect();
      if (r.left < b.left - 1 || r.top < b.top - dy || r.right > b.right + 1 || r.bottom > b.bottom + dy)
        why = "cut by " + (a.id ? "#" + a.id : a.tagName.toLowerCase() + "." + a.className);
    }
  }
  if (why) out.cut.push(why + ": " + text.slice(0, 40));
}
return out;
"""

#: labels cut mid-word: a button, label or pill whose text overflows its box, ends in an
#: ellipsis, or has a word split over two lines
CUT_LABELS = """
const out = [];
const els = [...document.querySelectorAll("button, label, .pill, .mini-seat, .brand, select, .tool, .undo, .ready-state, .badge, .prio")];
for (const el of els) {
  if (el.closest("[hidden]") || !el.getClientRects().length || getComputedStyle(el).visibility === "hidden") continue;
  const cs = getComputedStyle(el);
  const name = (el.id ? "#" + el.id : el.tagName.toLowerCase()) + " " + (el.textContent || "").trim().slice(0, 30);
  if (el.tagName !== "SELECT" && (el.scrollWidth > el.clientWidth + 1) && cs.overflowX !== "visible") out.push("overflows: " + name);
  if (cs.textOverflow === "ellipsis" && el.scrollWidth > el.clientWidth + 1) out.push("ellipsis: " + name);
  if (el.tagName === "SELECT") {
    const o = el.options[el.selectedIndex];
    if (o) {     // the closed select shows its option whole
      const probe = document.createElement("span");
      probe.style.cssText = "position:absolute;visibility:hidden;white-space:nowrap;font:" + cs.font;
      probe.textContent = o.text; document.body.appendChild(probe);
      const need = probe.getBoundingClientRect().width; probe.remove();
      if (need > el.clientWidth - 20) out.push("select cut: " + name + " (" + o.text + ")");
    }
    continue;
  }
  const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
  let n;
  while ((n = walker.nextNode())) {
    const re = /\\S+/g;
    let m;
    while ((m = re.exec(n.textContent))) {
      const range = document.createRange();
      range.setStart(n, m.index); range.setEnd(n, m.index + m[0].length);
      const tops = new Set([...range.getClientRects()].filter(r => r.width > 0).map(r => Math.round(r.top)));
      if (tops.size > 1) out.push("word split: " + m[0] + " in " + name);
    }
  }
}
return out;
"""

#: what stays at the top of a phone when the page scrolls (the judge's bar or the top bar)
STUCK = """
window.scrollTo(0, 400);
const stuck = [...document.querySelectorAll("body *")].filter(e => {
  if (!e.getClientRects().length) return false;
  const p = getComputedStyle(e).position;
  return (p === "sticky" || p === "fixed") && e.getBoundingClientRect().top <= 1 && e.getBoundingClientRect().bottom > 0
    && !e.classList.contains("toast") && !e.classList.contains("modal");
});
const bottom = Math.max(0, ...stuck.map(e => e.getBoundingClientRect().bottom));
window.scrollTo(0, 0);
return {bottom: bottom, who: stuck.map(e => e.id || e.className)};
"""


@pytest.fixture(scope="module")
def hub():
    table = Table(Store(":memory:"), admin_token=TOKEN)      # the real clock: the countdowns run
    coach = Coach(table, iterations=16)
    handle = start_in_thread(table, tick_interval=0.1, tasks=(coach.run,))
    yield handle, table, coach
    handle.stop()


@pytest.fixture(scope="module")
def browser():
    driver = chromium.start(*TV, console_log=True, prefix="lumen-layouts-")
    driver.set_page_load_timeout(30)
    yield driver
    driver.quit()


def size(driver, wh):
    w, h = wh
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                           {"width": w, "height": h, "deviceScaleFactor": 1, "mobile": w < 500})


def js(driver, script, *args):
    return driver.execute_script(script, *args)


def load(driver, handle, wh, fragment="", admin=False, lang="ko"):
    """The display at ``wh``, settled: the live state drawn and the whole log fetched."""
    size(driver, wh)
    driver.get("about:blank")
    driver.get(handle.url + "/manifest.webmanifest")
    js(driver, "localStorage.setItem('lumen.lang', arguments[0]);"
               "if (arguments[1]) localStorage.setItem('lumen.token', arguments[1]); else localStorage.removeItem('lumen.token');",
       lang, TOKEN if admin else None)
    driver.get(handle.url + "/" + fragment)
    settle(driver, admin)


def settle(driver, admin=False):
    wait_for(lambda: js(driver, "const d = window.lumenDisplay; return !!(d && d.started() && d.state() && (d.settled ? d.settled() : true)"
                                " && document.getElementById('conn').dataset.ok === '1')"), what="the page, live and settled")
    if admin:
        wait_for(lambda: js(driver, "return window.lumenDisplay.admin()"), what="admin mode")


def assert_reads_on_a_tv(driver, what):
    found = js(driver, TEXT, 24, 18)
    assert found["lines"] > 20, (what, found)
    assert not found["small"], "%s: text under 24 px (secondary under 18): %s" % (what, found["small"][:12])
    assert not found["cut"], "%s: text cut: %s" % (what, found["cut"][:12])


def assert_accessible(driver, what):
    bad = a11y.blocking(a11y.violations(driver))
    assert not bad, "%s:\n%s" % (what, a11y.describe(bad))


def shot(driver, name):
    ARTIFACTS.mkdir(exist_ok=True)
    assert driver.save_screenshot(str(ARTIFACTS / name))


@pytest.fixture(scope="module")
def axe_ready():
    return a11y.source()


# ---------------------------------------------------------------- point 1: the TV, every mode

@pytest.mark.parametrize("view", list(VIEWS))
def test_every_mode_reads_on_a_tv_at_3_m_with_nothing_cut(hub, browser, axe_ready, view):
    """Point 1 at 1920x1080: the referee TV had 132 of 163 texts under 24 px and a centre
    column (the coach) cut at 913 px; BattleCON's 70 of 88. In every mode and profile now
    every text reads from 3 m and nothing is cut; axe finds nothing critical or serious."""
    handle, table, coach = hub
    handle.call(VIEWS[view], table)
    if view == "referee":           # the coach's lines: paged on the TV, never cut
        wait_for(lambda: handle.call(lambda: bool(coach.entries) and not coach.thinking), timeout=120, what="the coach's analysis")
    load(browser, handle, TV, "?tv")
    if view == "referee":
        wait_for(lambda: js(browser, "return !document.getElementById('coach').hidden"), what="the coach on the TV")
    assert_reads_on_a_tv(browser, view)
    assert js(browser, "return [...document.querySelectorAll('button, input, select')].filter(b => b.getClientRects().length).length") == 0
    assert_accessible(browser, view + " TV")
    shot(browser, "layout-tv-%s.png" % view)
    if view == "referee":
        # every page of what is paged (the coach's entries) reads the same way, and in English
        pages = int((js(browser, "return document.getElementById('battle').dataset.page || '1/1'")).split("/")[1])
        assert pages > 1           # the coach's entries do not fit beside the battle: they are paged
        for k in range(pages):
            js(browser, "window.lumenExtras.nextPage()")
            assert_reads_on_a_tv(browser, "referee page %d" % (k + 1))
        assert "고르는 비율" in js(browser, "return document.getElementById('coach').textContent")    # point 6: the mix, in words
        load(browser, handle, TV, "?tv", lang="en")
        assert_reads_on_a_tv(browser, "referee (en)")


def test_the_projector_reads_from_the_back_of_the_room(browser, tmp_path):
    """Point 1, the projector: a 120-player room's names at 28 px or more, a page at a time
    when one screen cannot hold them all, nothing cut."""
    from hub.tournament.broker import free_port
    from hub.tournament.eventdir import new_event
    from hub.tournament.td import TD
    from hub.tournament.web import serve
    folder = str(tmp_path / "ev")
    new_event(folder, "봄 대회", [{"id": "p%d" % i, "name": "선수%03d" % i} for i in range(1, 121)], rounds=3, seed=3)
    td = TD(os.path.join(folder, "event.sqlite"))
    td.pair_next()
    port = free_port()
    server = serve(td, "td-layout-token", port=port)
    try:
        size(browser, TV)
        url = "http://127.0.0.1:%d/projector" % port
        wait_for(lambda: _get(browser, url), what="the projector")
        wait_for(lambda: js(browser, "return document.querySelectorAll('#names .pname').length") > 10, what="the names")
        assert_reads_on_a_tv(browser, "projector")
        assert "/" in js(browser, "return document.getElementById('names').dataset.page || ''")     # 120 names: pages
        assert js(browser, "return parseFloat(getComputedStyle(document.getElementById('names')).fontSize)") >= 28
        assert_accessible(browser, "projector")
        for tab in ("room", "pairings", "standings", "control"):
            for wh in (LAPTOP, PHONE):
                size(browser, wh)
                _get(browser, "http://127.0.0.1:%d/#%s" % (port, tab))
                wait_for(lambda: "봄 대회" in js(browser, "return document.getElementById('title').textContent"), what="the TD page")
                assert_accessible(browser, "TD %s at %s" % (tab, wh))
    finally:
        server.should_exit = True


def _get(driver, url):
    try:
        driver.get(url)
        return True
    except Exception:
        return False


# ---------------------------------------------------------------- point 2: the phone, every mode

@pytest.mark.parametrize("view", list(VIEWS))
def test_every_mode_on_a_phone_has_the_judges_bar_and_a_short_header(hub, browser, axe_ready, view):
    """Point 2 at 390x844: other games had no sticky bar ("다음 턴" at y=1,394 for 요정전승,
    "다음 격투" at 1,750 for BattleCON) and the referee page's sticky header took ~335 px. Now
    the judge's bar holds next turn / beat, undo and the clock from the first screen in every
    mode, what sticks is under a fifth of the screen, and no label is cut mid-word. The
    spectator's phone the same (its top bar), and the laptop in between; axe at each."""
    handle, table, coach = hub
    handle.call(VIEWS[view], table)
    load(browser, handle, PHONE, admin=True)
    stuck = js(browser, STUCK)
    assert stuck["bottom"] <= 0.2 * PHONE[1] + 1, (view, stuck)
    assert "mini" in stuck["who"], stuck
    wanted = ["#mini-clock-btn"] + (["#mini-undo", "#mini .mini-next"] if view != "referee" else [])
    for css in wanted:
        box = js(browser, "const e = document.querySelector(arguments[0]);"
                          "return e && e.getClientRects().length ? e.getBoundingClientRect().toJSON() : null", css)
        assert box and box["top"] >= 0 and box["bottom"] <= PHONE[1], (view, css, box)
    assert js(browser, "return document.scrollingElement.scrollWidth") <= PHONE[0], view
    cut = js(browser, CUT_LABELS)
    assert not cut, (view, cut[:10])
    assert_accessible(browser, view + " phone (judge)")
    shot(browser, "layout-phone-%s.png" % view)
    size(browser, LAPTOP)
    settle(browser, admin=True)
    assert js(browser, "return document.scrollingElement.scrollWidth") <= LAPTOP[0], view
    assert not js(browser, CUT_LABELS), view
    assert_accessible(browser, view + " laptop (judge)")
    load(browser, handle, PHONE)
    stuck = js(browser, STUCK)
    assert 0 < stuck["bottom"] <= 0.2 * PHONE[1] + 1, (view, stuck)
    assert not js(browser, CUT_LABELS), view
    assert_accessible(browser, view + " phone (spectator)")


# ---------------------------------------------------------------- point 3: BattleCON with no card data

def test_battlecon_without_card_data_shows_no_null(hub, browser):
    """Point 3: every BattleCON chip read "우선권 null" when no card data gives the numbers."""
    handle, table, coach = hub
    handle.call(lambda: table.start("profile", profile="battlecon", seed=3, priority="a"))
    load(browser, handle, LAPTOP, admin=True)
    wait_for(lambda: js(browser, "return document.querySelectorAll('#profile .pcard').length") > 4, what="the chips")
    body = js(browser, "return document.body.innerText")
    assert "null" not in body and "undefined" not in body


# ---------------------------------------------------------------- point 4: the log tells the truth

def test_a_win_turned_into_sudden_death_is_replaced_and_undo_names_it_whole(hub, browser):
    """Point 4 at 390x844 and 1920x1080: between the two lethal taps of a double KO the log
    (and the TV) kept "2P 승리 (1P 체력 0 이하)" through the sudden death after it; the phone's
    undo label was cut to "2P 타오 체력 -300 (30..."; a "−" at 0 logged "+0" and undo named it."""
    handle, table, coach = hub
    handle.call(lambda: table.start_tracker("generic", "tao", seed=1, priority="a"))

    def act(**c):
        handle.call(table.submit, c.get("seat"), "action", c, "display")
    act(action="set_health", seat="a", health=300)
    act(action="set_health", seat="b", health=100)
    load(browser, handle, PHONE, admin=True)
    js(browser, "[...document.querySelectorAll('#seat-a [data-cmd]')].find(b => b.textContent === '-300').click()")
    wait_for(lambda: "2P 승리" in js(browser, "return document.getElementById('log').innerText"), what="1P's KO: 2P wins")
    js(browser, "[...document.querySelectorAll('#seat-b [data-cmd]')].find(b => b.textContent === '-300').click()")
    wait_for(lambda: handle.call(lambda: table.session.game.sudden_death), what="the trade: sudden death")
    wait_for(lambda: js(browser, "return !!document.querySelector('#log li.struck s')"), what="the win struck through")
    line = js(browser, "return document.querySelector('#log li.struck').innerText")
    assert "2P 승리" in line and "서든 데스" in line, line
    undo = js(browser, "const u = document.getElementById('mini-undo'); return [u.innerText, u.scrollWidth <= u.clientWidth + 1]")
    assert "서든 데스" in undo[0] and undo[1], undo
    assert not js(browser, CUT_LABELS)
    shot(browser, "layout-phone-undo-sudden-death.png")
    load(browser, handle, TV, "?tv")
    assert js(browser, "return !!document.querySelector('#log li.struck s')")
    assert "2P 승리" not in js(browser, "return document.getElementById('banner').innerText")
    # a tap that changes nothing is neither offered, logged nor undoable (요정전승: life at 0)
    handle.call(lambda: table.start("profile", profile="yojeong", players=4, seed=2, priority="a"))
    handle.call(table.submit, "a", "action", {"action": "adjust", "seat": "a", "counter": "life", "delta": -20}, "display")
    load(browser, handle, PHONE, admin=True)
    minus = '[data-seat="a"] [data-counter="life"] .pbtn'
    assert js(browser, "return document.querySelector(arguments[0]).disabled", minus)
    n = handle.call(lambda: len(table.session.game.log))
    js(browser, "document.querySelector(arguments[0]).click()", minus)
    assert handle.call(lambda: len(table.session.game.log)) == n
    assert "+0" not in js(browser, "return document.getElementById('log').innerText")


# ---------------------------------------------------------------- point 7: one way to draw

def test_the_page_code_draws_one_way_and_a_change_redraws_only_its_regions(hub, browser):
    """Point 7: app.js built HTML strings (9 innerHTML, 59 esc()) beside the card pages' DOM
    calls, and every delta redrew every region. Now no page script builds markup from strings,
    and a change to 2P's health redraws 2P's seat, the log and what shows health, nothing else."""
    scripts = sorted(STATIC.glob("*.js")) + [STATIC.parents[1] / "tournament" / "static" / "td.js"]
    for path in scripts:
        src = path.read_text(encoding="utf-8")
        assert not re.search(r"\.(innerHTML|outerHTML)\s*=|insertAdjacentHTML|document\.write", src), path.name
        assert "esc(" not in src, path.name
    handle, table, coach = hub
    handle.call(lambda: table.start_tracker("wolf", "tao", seed=1, priority="a"))
    load(browser, handle, LAPTOP, admin=True)
    v = js(browser, "return LumenLive.kept().v")
    handle.call(table.submit, "b", "action", {"action": "adjust_health", "seat": "b", "delta": -300}, "display")
    wait_for(lambda: js(browser, "return LumenLive.kept().v") > v, what="the delta")
    wait_for(lambda: js(browser, "return document.getElementById('hp-b').textContent") == "4700", what="2P's health drawn")
    drawn = set(js(browser, "return window.lumenDisplay.drawn()"))
    assert {"seat-b", "log"} <= drawn, drawn
    touched = js(browser, "return window.lumenDisplay.touched()")
    assert not drawn & {"seat-a", "admin", "top", "chrome", "profile", "coach", "battle"}, (drawn, touched)


def test_the_card_pages_are_accessible_at_every_size(hub, browser, axe_ready):
    """Point 5: /cards had a critical violation (the #lib-kind and #lib-position selects had no
    name) and a table a keyboard could not scroll on a phone."""
    handle, table, coach = hub
    for wh in (TV, PHONE, LAPTOP):
        size(browser, wh)
        for tab in ("library", "editor", "deck", "table", "io"):
            browser.get("about:blank")
            browser.get(handle.url + "/cards#" + tab + "&admin=" + TOKEN)
            wait_for(lambda: js(browser, "return document.body.dataset.ready === '1' && document.body.classList.contains('is-admin')"),
                     what="the cards page")
            if tab in ("deck", "table"):
                wait_for(lambda: js(browser, "return document.querySelector('#tab-%s select') !== null" % tab), what="the %s tab" % tab)
            assert_accessible(browser, "/cards#%s at %s" % (tab, wh))
            assert not js(browser, CUT_LABELS) or wh != PHONE or tab not in ("library",), tab


def test_scrollable_regions_take_the_keyboard(hub, browser):
    """Point 5: the 요정전승 phone page's scrollable log took no keyboard focus."""
    handle, table, coach = hub
    handle.call(VIEWS["yojeong"], table)
    load(browser, handle, PHONE)
    scrollers = js(browser, "return [...document.querySelectorAll('*')].filter(e => { const s = getComputedStyle(e);"
                            " return /(auto|scroll)/.test(s.overflowY + s.overflowX) && (e.scrollHeight > e.clientHeight + 1 ||"
                            " e.scrollWidth > e.clientWidth + 1) && e.getClientRects().length; }).map(e => [e.id || e.className, e.tabIndex])")
    assert scrollers and all(ti >= 0 for _, ti in scrollers), scrollers
    js(browser, "document.getElementById('log').focus()")
    assert js(browser, "return document.activeElement.id") == "log"


def test_severe_console_errors_none(browser):
    """Whatever the tests above drew, the page logged no script error."""
    errors = [e for e in browser.get_log("browser") if e.get("level") == "SEVERE" and e.get("source") != "network"]
    assert not errors, json.dumps(errors[:5], ensure_ascii=False)


def test_the_judges_page_answers_another_games_public_questions(hub, browser):
    """Point 3: the antes, who leads and a beat's end were asked of the pods only; a table
    without them stopped. The judge's page lists what the table waits for and answers the
    public questions; a hidden pick says it is made on the pod."""
    handle, table, coach = hub
    handle.call(lambda: table.start("profile", "haneul", "bada", profile="battlecon", seed=7, priority="a"))
    load(browser, handle, PHONE, admin=True)
    wait_for(lambda: "포드에서" in (js(browser, "return (document.getElementById('pwait') || {}).innerText") or ""),
             what="the picks said to be on the pods")
    # "다음 격투" stayed on during the picks and was refused with the fallback sentence: it is off, and says when it comes
    assert js(browser, "return document.querySelector('#mini .mini-next').disabled && document.getElementById('p-next').disabled")
    assert "공개된 뒤에" in js(browser, "return document.getElementById('p-next-why').textContent")
    # a refusal says why and what to do, in the page's language
    js(browser, "window.lumenDisplay.control('/api/control/profile', {command: {action: 'new_game'}})")
    wait_for(lambda: "끝나지 않았습니다" in js(browser, "var t = document.getElementById('toast'); return t.hidden ? '' : t.textContent"),
             what="the refusal's sentence")
    assert "허브가 이 동작을 받지 않았습니다" not in js(browser, "return document.getElementById('toast').textContent")
    js(browser, "document.getElementById('toast').hidden = true")
    for seat, cards in (("a", ("haneul-flame", "hold")), ("b", ("bada-tide", "charge"))):
        for c in cards:
            handle.call(table.submit, seat, "ready", c, "pod")
    def answered(css, what):
        n = handle.call(lambda: len(table.session.game.log))
        wait_for(lambda: js(browser, "return !!document.querySelector(arguments[0])", css), what=what)
        chromium.click(browser, css)
        wait_for(lambda: handle.call(lambda: len(table.session.game.log)) > n, what=what + " taken")
    for _ in range(2):                  # the antes, the leader first: both pass from the page
        answered("#pwait .pask[data-kind=ante] button:last-child", "an ante")
    wait_for(lambda: handle.call(lambda: table.session.game.st["phase"]) == "resolve", what="the reveal")
    for _ in range(2):                  # the beat's end: both seats' done from the page
        answered("#pwait .pask[data-kind=end_turn] button", "a done")
    wait_for(lambda: handle.call(lambda: table.session.game.turn) == 2, what="beat 2")
    assert not js(browser, CUT_LABELS)
