"""The page's delta applier in Debian's Chromium (hub/web/static/live.js): over whole bot
games the state the page keeps and renders from is ``display_state(table)`` at every point
it is checked; a page that follows the deltas renders exactly what a page loaded afresh (one
whole state) renders; a delta that does not follow its version makes it ask for the whole
state and show it, never a wrong one. The display, the TV kiosk (?tv) and the judge's
phone layout all run on it."""

import json
import os

import pytest

from engine.bots import Bot
from hub.record.store import Store
from hub.sessions.base import FakeClock
from hub.sessions.table import Table
from hub.web.display import display_state
from hub.web.server import start_in_thread
from tests import chromium
from tests.web.conftest import TOKEN
from tests.web.test_browser import wait_for

pytestmark = pytest.mark.skipif(not os.path.exists(chromium.CHROMIUM),
                                reason="Debian's chromium is not installed at /usr/bin/chromium (CI installs it)")

#: What the page shows of the game, as a tree (tag, attributes in name order, text): a region a
#: delta redrew in place (hub/web/static/draw.js patches it) may hold its attributes in another
#: order than one drawn afresh, and that is not something a person sees. The countdowns are left
#: out (interpolated from the time a message came, so two pages differ by milliseconds).
SHOWN = """
function tree(e) {
  if (e.nodeType === 3) return e.textContent;
  if (e.nodeType !== 1 || e.classList.contains("cdbar")) return null;
  const attrs = [...e.attributes].map(a => a.name + "=" + a.value).sort();
  const kids = /^countdown-/.test(e.id) ? [] : [...e.childNodes].map(tree).filter(x => x !== null);
  return [e.tagName, attrs, kids];
}
var out = {};
["turn", "phase", "mode", "banner", "board", "battle", "log"].forEach(function (id) {
  var e = document.getElementById(id);
  if (e) out[id] = tree(e);
});
return JSON.stringify(out);
"""


@pytest.fixture(scope="module")
def server():
    # the table's clock is fake: no 10-second deadline runs out while the browser catches up
    table = Table(Store(":memory:"), clock=FakeClock(), admin_token=TOKEN)
    handle = start_in_thread(table, port=0, tick_interval=0.1)
    yield handle, table
    handle.stop()


@pytest.fixture(scope="module")
def browser():
    driver = chromium.start(1600, 1000)
    driver.set_page_load_timeout(30)
    yield driver
    driver.quit()


def open_page(driver, handle, fragment="", token=None):
    driver.get("about:blank")
    driver.get(handle.url + "/")
    driver.execute_script("localStorage.setItem('lumen.lang', 'ko');"
                          "if (arguments[0]) localStorage.setItem('lumen.token', arguments[0]);"
                          "else localStorage.removeItem('lumen.token');", token)
    driver.get("about:blank")
    driver.get(handle.url + "/" + fragment)
    wait_for(lambda: driver.execute_script("return !!(window.LumenLive && LumenLive.kept())"), what="the first state")


def kept(driver):
    return json.loads(driver.execute_script("return JSON.stringify(LumenLive.kept())") or "null")


def caught_up(driver, handle):
    """The page's state once it holds the hub's latest version and has drawn it, with nothing
    on its way (the whole game's log, fetched once). The hub's version is read again at every
    look: while a ready countdown runs a clock message (a version of its own) goes out every
    second, so on a slow machine the page can pass a version read once. Waiting for the log's
    fetch too is what made a page followed by deltas differ from a fresh one under load: the
    fresh page was read before its /api/log answer came."""
    def same():
        v = handle.call(lambda: handle.hub.feed.v)
        k = kept(driver)
        settled = driver.execute_script("return !!(window.lumenDisplay && window.lumenDisplay.settled()"
                                        " && window.lumenDisplay.state() && window.lumenDisplay.state().v === arguments[0])", v)
        return k if k is not None and k.get("v") == v and settled else None
    return wait_for(same, what="the page to hold the hub's latest version")


def content(state):
    return {k: v for k, v in state.items() if k not in ("t", "v", "base", "cause")}


def check(driver, handle, table):
    """The kept state is the hub's display state, and it is what the page rendered from."""
    got = caught_up(driver, handle)
    want = json.loads(json.dumps(handle.call(display_state, table), ensure_ascii=False))
    assert content(got) == want
    # what app.js rendered from (a clock message updates its timer and ready in place)
    rendered = json.loads(driver.execute_script("return JSON.stringify(lumenDisplay.state())"))
    assert content(rendered) == content(got)


def play(handle, table, seed, every=6, on_check=None, limit=None):
    """Play the table's referee game with bots; call ``on_check`` every ``every`` decisions."""
    s = table.session
    bots = {"a": Bot(seed, "greedy"), "b": Bot(seed + 1, "greedy")}
    n = 0
    while s.state.winner is None and (limit is None or n < limit):
        req = s.state.pending[0]
        if req["kind"] == "setup":
            pool = list(req["options"])
            h, m = req["sizes"]["hand"], req["sizes"]["list"]
            handle.call(table.submit, req["player"], "setup", {"hand": pool[:h], "list": pool[h:h + m]}, "hub")
        else:
            kind, value = handle.call(lambda: bots[req["player"]].answer(s.state, req))
            handle.call(table.submit, req["player"], kind, value, "pod")
        n += 1
        if on_check and n % every == 0:
            on_check()
    return n


def test_the_display_follows_whole_games_by_deltas(server, browser):
    handle, table = server
    open_page(browser, handle)
    for seed in (41, 42):
        handle.call(table.start_referee, seed=seed, names={"a": "김철수", "b": "이영희"})
        sent = handle.hub.sent
        n = play(handle, table, seed, on_check=lambda: check(browser, handle, table))
        check(browser, handle, table)
        assert n > 20 and handle.hub.sent - sent > n // 2
        assert kept(browser)["winner"] is not None


def test_a_page_following_deltas_shows_what_a_fresh_page_shows(server, browser):
    handle, table = server
    handle.call(table.start_referee, seed=43)
    open_page(browser, handle)
    for limit in (9, 17, None):
        play(handle, table, 43, limit=limit)
        caught_up(browser, handle)
        followed = json.loads(browser.execute_script(SHOWN))
        open_page(browser, handle)                  # a fresh page: one whole state
        caught_up(browser, handle)
        assert kept(browser)["cause"] == ["hello"]
        assert json.loads(browser.execute_script(SHOWN)) == followed
        assert "board" in followed and followed["log"]


def test_a_missed_delta_makes_the_page_ask_for_the_whole_state(server, browser):
    handle, table = server
    handle.call(table.start_referee, seed=44)
    open_page(browser, handle)
    play(handle, table, 44, limit=12)
    now = caught_up(browser, handle)
    shown_turn = browser.execute_script("return document.getElementById('turn').textContent")
    # a delta two versions ahead, as if one had been lost: the page must not apply it
    browser.execute_script("LumenLive.receive({t: 'delta', v: arguments[0] + 2, base: arguments[0] + 1,"
                           " cause: ['state'], set: {turn: 999}})", now["v"])
    wait_for(lambda: (kept(browser) or {}).get("cause") == ["asked"], what="the whole state, asked for")
    check(browser, handle, table)
    assert "999" not in browser.execute_script("return document.getElementById('turn').textContent")
    assert browser.execute_script("return document.getElementById('turn').textContent") == shown_turn
    play(handle, table, 44, limit=10)               # and the deltas after it apply
    check(browser, handle, table)


@pytest.mark.parametrize("fragment,token,width", [("?tv", None, 1920), ("", TOKEN, 390)])
def test_the_tv_kiosk_and_the_judges_phone_follow_the_deltas(server, browser, fragment, token, width):
    handle, table = server
    browser.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                            {"width": width, "height": 1080 if width > 1000 else 844, "deviceScaleFactor": 1,
                             "mobile": width < 1000})
    try:
        handle.call(table.start_referee, seed=45)
        open_page(browser, handle, fragment, token)
        play(handle, table, 45, every=10, on_check=lambda: check(browser, handle, table))
        check(browser, handle, table)
    finally:
        browser.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})
