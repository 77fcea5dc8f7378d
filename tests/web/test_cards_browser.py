"""The card editor and deck builder in a real browser (Debian's Chromium through selenium, as
tests/web/test_browser.py): every sample card, sample character and scenario inline card goes
through the form and comes back unchanged; a problem shows at its field while typing; and a
person creates a set, a character and cards with the form and a CSV sheet, builds a 20-card
deck, registers it for a seat with an ordered opening, starts a referee game and bots play it
to the end."""

import os
import pathlib

import pytest
import yaml

from engine.bots import Bot
from engine.cards.decks import SAMPLE_CARDS, check_path
from hub.library.sets import CardLibrary
from hub.record.store import Store
from hub.sessions.table import Table
from hub.web.server import start_in_thread
from tests import chromium
from tests.web.conftest import TOKEN
from tests.web.test_browser import ARTIFACTS, CHROMIUM, severe_console_errors, viewport, wait_for

pytestmark = pytest.mark.skipif(not os.path.exists(CHROMIUM),
                                reason="Debian's chromium is not installed at /usr/bin/chromium (CI installs it)")
ROOT = pathlib.Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    lib = CardLibrary(str(tmp_path_factory.mktemp("cards")))
    table = Table(Store(":memory:"), admin_token=TOKEN)
    handle = start_in_thread(table, tick_interval=0.1, library=lib)
    yield handle, table, lib
    handle.stop()


@pytest.fixture(scope="module")
def browser():
    driver = chromium.start(1500, 1000, console_log=True, prefix="lumen-cards-")
    driver.set_page_load_timeout(20)
    driver.set_script_timeout(120)
    viewport(driver, 1500, 1000)
    yield driver
    driver.quit()


def open_cards(driver, handle, tab="library", admin=True):
    driver.get("about:blank")
    driver.get(handle.url + "/cards#" + tab + ("&admin=" + TOKEN if admin else ""))
    wait_for(lambda: driver.execute_script("return document.body.dataset.ready === '1'"), timeout=120, what="the cards page")
    if admin:
        wait_for(lambda: driver.execute_script("return document.body.classList.contains('is-admin')"), what="admin mode")


def js(driver, body, *args):
    """Run an async script body (it may await) and return its value."""
    return driver.execute_async_script(
        "const done = arguments[arguments.length - 1]; const args = [...arguments].slice(0, -1);"
        "(async () => {" + body + "})().then(done, (e) => done({error: String(e), stack: e.stack}));", *args)


ROUND_TRIP = """
const [setId, items, what] = args;
const canon = (v) => Array.isArray(v) ? v.map(canon) : (v && typeof v === "object")
  ? Object.fromEntries(Object.keys(v).sort().map((k) => [k, canon(v[k])])) : v;
const bad = [];
let fields = 0;
for (const item of items) {
  const orig = JSON.stringify(canon(item));
  window.Cards.edit(setId, JSON.parse(JSON.stringify(item)), item.id, what);
  fields += document.querySelectorAll("#ed-form input, #ed-form select, #ed-form textarea").length;
  window.Cards.S.form.touchAll();
  const got = JSON.stringify(canon(window.Cards.S.card));
  if (got !== orig) bad.push([item.id, orig, got]);
}
return {bad: bad, fields: fields};
"""


def scenario_cards():
    out = []
    for path in sorted((ROOT / "tests" / "scenarios").rglob("*.yaml")):
        for c in (yaml.safe_load(path.read_text(encoding="utf-8")) or {}).get("cards") or []:
            out.append(c)
    return out


def test_every_card_goes_through_the_form_unchanged(server, browser):
    handle, table, lib = server
    open_cards(browser, handle, admin=False)
    sample = yaml.safe_load(open(SAMPLE_CARDS, encoding="utf-8"))
    for what, items in (("card", sample["cards"]), ("card", scenario_cards()), ("character", sample["characters"])):
        r = js(browser, ROUND_TRIP, "sample", items, what)
        assert "error" not in r, r
        assert r["bad"] == [], r["bad"][:3]
        assert r["fields"] > 10 * len(items)      # the form really drew fields for them
    # and a change in the form does change the card: the comparison above can fail
    r = js(browser, """
        window.Cards.edit("sample", JSON.parse(JSON.stringify(args[0])), "jab", "card");
        const f = document.querySelector('#ed-form input[data-field="speed"]');
        f.value = "9"; f.dispatchEvent(new Event("input"));
        return window.Cards.S.card.speed;""", sample["cards"][0])
    assert r == 9
    assert not severe_console_errors(browser)


def type_field(driver, field, text):
    el = driver.find_element("css selector", '#ed-form [data-field="%s"]:is(input, textarea)' % field)
    el.clear()
    el.send_keys(text)


def pick(driver, field, value):
    from selenium.webdriver.support.ui import Select
    Select(driver.find_element("css selector", '#ed-form select[data-field="%s"]' % field)).select_by_value(value)


def lint_settled(driver):
    return driver.execute_script("return document.getElementById('ed-lint').textContent")


def test_a_problem_shows_at_its_field_while_typing(server, browser):
    handle, table, lib = server
    open_cards(browser, handle, admin=False)
    js(browser, "await window.Cards.openCard('sample', 'serin-flash-jab');")
    wait_for(lambda: "lumen cards check" in lint_settled(browser), what="a clean lint")
    type_field(browser, "speed", "빠름")
    prob = wait_for(lambda: browser.execute_script(
        "const p = document.querySelector('#ed-form .frow[data-field=\"speed\"] .prob'); return p && p.textContent;"),
        what="the problem at the speed field")
    assert "정수" in prob                       # the page is in Korean: the checker's message too
    js(browser, "document.querySelector('fieldset.effects > button.add').click();")
    pick(browser, "effects[1].do", "fp")           # a new effect is blank: say what it does
    pick(browser, "effects[1].timing", "on_evade")
    type_field(browser, "effects[1].amount", "0")
    prob = wait_for(lambda: browser.execute_script(
        "const p = document.querySelector('#ed-form [data-field=\"effects[1].amount\"]').closest('.frow').querySelector('.prob');"
        "return p && p.textContent;"), what="the problem at effects[1].amount")
    assert "0이 아니어야" in prob


SHEET = "id,name,kind,mark,speed,position,damage,results\n" + "".join(
    "h%02d,영웅 기술 %d,공격,hero,%d,%s,%d,hit +1; counter +2 combo; guarded -1\n" % (i, i, 3 + i % 9, ("상단", "중단", "하단")[i % 3], 300 + 50 * i)
    for i in range(3, 14)) + "".join("n%02d,중립 %d,attack,neutral,6,mid,400,hit +1\n" % (i, i) for i in range(6))


def test_a_person_enters_cards_builds_a_deck_and_plays_it_in_referee_mode(server, browser):
    handle, table, lib = server
    open_cards(browser, handle)
    # a new set and its character, with the forms
    for sel, text in (("#ns-id", "club"), ("#ns-name", "동호회 세트"), ("#ns-name-en", "Club set")):
        browser.find_element("css selector", sel).send_keys(text)
    browser.find_element("css selector", "#new-set button[type=submit]").click()
    wait_for(lambda: "club" in lib.set_ids(), what="the new set")
    wait_for(lambda: browser.execute_script("return !!document.getElementById('lib-new-character')"), what="the set's characters")
    browser.find_element("id", "lib-new-character").click()
    type_field(browser, "id", "hero")
    type_field(browser, "name", "영웅")
    type_field(browser, "name_en", "Hero")
    type_field(browser, "mark", "hero")
    type_field(browser, "trait.name", "영웅의 기백")
    browser.find_element("css selector", "fieldset.trait fieldset.effects > button.add").click()
    # a new effect is blank (issue 22 point 11): the person says what it does and when
    wait_for(lambda: browser.execute_script("return document.querySelector('#ed-form select[data-field=\"trait.effects[0].do\"]').value") == "",
             what="a blank effect")
    pick(browser, "trait.effects[0].do", "fp")
    pick(browser, "trait.effects[0].timing", "on_hit")
    wait_for(lambda: "lumen cards check" in lint_settled(browser), what="a valid character")
    browser.find_element("id", "ed-save").click()
    wait_for(lambda: lib.raw("club")["characters"], what="the saved character")
    assert lib.raw("club")["characters"][0]["trait"]["effects"] == [{"do": "fp", "amount": 1, "timing": "on_hit"}]
    wait_for(lambda: browser.execute_script("return window.Cards.S.sets.find(s => s.id === 'club').characters.length"),
             what="the page to know the new character")
    # three cards typed into the editor, one of them with an effect
    for i, (pos, kind) in enumerate((("high", "attack"), ("mid", "attack"), (None, "defense"))):
        js(browser, "document.querySelector('#lib-set').value = 'club'; document.getElementById('lib-new').click();")
        wait_for(lambda: browser.execute_script("return !document.getElementById('tab-editor').hidden"), what="the editor")
        type_field(browser, "id", "h%02d" % i)
        type_field(browser, "name", "영웅 손기술 %d" % i)
        pick(browser, "kind", kind)
        pick(browser, "mark", "hero")
        if kind == "attack":
            type_field(browser, "speed", str(4 + i))
            pick(browser, "position", pos)
            type_field(browser, "damage", "500")
            type_field(browser, "results.counter.fp", "2")
        else:
            js(browser, "document.querySelector('#ed-form .judgment[data-field=\"guard\"] input[value=\"high\"]').click();"
                        "document.querySelector('#ed-form .judgment[data-field=\"guard\"] input[value=\"mid\"]').click();")
            type_field(browser, "results.guard.fp", "1")
        if i == 0:
            browser.find_element("css selector", "fieldset.effects > button.add").click()
            pick(browser, "effects[0].do", "fp")
            pick(browser, "effects[0].timing", "on_counter")
            type_field(browser, "effects[0].amount", "1")
            type_field(browser, "text.ko", "카운터 시 FP +1")
        wait_for(lambda: "lumen cards check" in lint_settled(browser), what="card h%02d to be valid" % i)
        # try it before saving: the engine judges it against the sample jab
        js(browser, "const s = document.getElementById('try-set'); s.value = 'sample'; s.dispatchEvent(new Event('change'));")
        wait_for(lambda: browser.execute_script("return document.querySelectorAll('#try-card option').length > 5"), what="opposing cards")
        browser.find_element("id", "try-go").click()
        wait_for(lambda: browser.execute_script("return document.querySelector('#try-out .rule') && document.querySelector('#try-out .rule').textContent"),
                 what="a judged battle")
        browser.find_element("id", "ed-save").click()
        wait_for(lambda: any(c["id"] == "h%02d" % i for c in lib.raw("club")["cards"]), what="card h%02d saved" % i)
    saved = {c["id"]: c for c in lib.raw("club")["cards"]}
    assert saved["h00"]["effects"] == [{"do": "fp", "amount": 1, "timing": "on_counter"}]
    assert saved["h02"]["guard"] == ["high", "mid"]
    # the rest of the stats from a community sheet, through the page
    open_cards(browser, handle, "io")
    js(browser, "const s = document.getElementById('io-csv-set'); s.value = 'club';"
                "document.getElementById('io-csv-text').value = args[0];", SHEET)
    browser.find_element("id", "io-csv-go").click()
    wait_for(lambda: len(lib.raw("club")["cards"]) == 20, what="the imported sheet")
    assert check_path(lib.root)[1] == []
    # the deck builder: 20 cards, live checks, save
    open_cards(browser, handle, "deck")
    wait_for(lambda: browser.execute_script("return !!document.getElementById('dk-set')"), what="the deck builder")
    js(browser, "const s = document.getElementById('dk-set'); s.value = 'club'; s.dispatchEvent(new Event('change'));")
    wait_for(lambda: browser.execute_script("return [...document.getElementById('dk-character').options].some(o => o.value === 'hero')"),
             what="the set's character")
    js(browser, "const s = document.getElementById('dk-character'); s.value = 'hero'; s.dispatchEvent(new Event('change'));")
    wait_for(lambda: browser.execute_script("return document.querySelectorAll('#dk-pool .add-card').length") == 20, what="the pool")
    js(browser, "for (const b of [...document.querySelectorAll('#dk-pool .add-card')].slice(0, 19)) b.click();")
    wait_for(lambda: browser.execute_script("return document.querySelector('#dk-status li[data-key=skills]').className") == "bad",
             what="the live skills check (19/20)")
    js(browser, "document.querySelectorAll('#dk-pool .add-card')[19].click();")
    wait_for(lambda: browser.execute_script("return [...document.querySelectorAll('#dk-status li')].every(l => l.className === 'ok')"),
             what="every deck check to pass: " + browser.execute_script("return document.getElementById('dk-status').textContent"))
    browser.find_element("id", "dk-id").send_keys("hero-rush")
    browser.find_element("id", "dk-name").send_keys("영웅 러시")
    browser.find_element("id", "dk-save").click()
    wait_for(lambda: "hero-rush" in lib.deck_ids("club"), what="the saved deck")
    deck = lib.deck("club", "hero-rush")
    assert len(deck.cards) == 20 and deck.character.id == "hero"
    # the deck code and its QR code (once the builder shows the saved deck)
    wait_for(lambda: browser.execute_script("return document.getElementById('dk-deck').value") == "hero-rush", what="the saved deck shown")
    browser.find_element("id", "dk-code-btn").click()
    code = wait_for(lambda: browser.execute_script("const t = document.getElementById('dk-code-text'); return t && t.value"), what="the code")
    assert code.startswith("LC1.") and browser.execute_script("return !!document.querySelector('#dk-code svg')")
    # the table: 1P the new deck with an ordered opening, 2P the sample gangcheol deck
    open_cards(browser, handle, "table")
    wait_for(lambda: browser.execute_script("return !!document.getElementById('tb-deck-a')"), what="the table tab")
    for seat, key in (("a", "club/hero-rush"), ("b", "sample/gangcheol")):
        js(browser, "const s = document.getElementById('tb-deck-' + args[0]); s.value = args[1]; s.dispatchEvent(new Event('change'));", seat, key)
    wait_for(lambda: browser.execute_script("return document.querySelectorAll('#tb-open-a button.card').length") == 20, what="1P's cards")
    opening = js(browser, """
        const ids = [];
        for (let i = 0; i < 14; i++) {
          const b = [...document.querySelectorAll('#tb-open-a button.card')].reverse()[0];   // the last cards first
          ids.push(b.dataset.card); b.click();
        }
        return ids;""")
    browser.find_element("id", "tb-register-a").click()
    wait_for(lambda: "등록됨" in browser.execute_script("return document.getElementById('tb-reg-a').textContent"), what="1P registered")
    browser.find_element("id", "tb-register-b").click()
    wait_for(lambda: "등록됨" in browser.execute_script("return document.getElementById('tb-reg-b').textContent"), what="2P registered")
    browser.find_element("id", "tb-seed").send_keys("11")
    browser.find_element("id", "tb-start").click()
    gid = int(wait_for(lambda: browser.execute_script("return document.body.dataset.game"), what="the game to start"))
    st = handle.call(lambda: table.session.state)
    assert sorted(st.players["a"].hand) == sorted(opening[:5]) and sorted(st.players["a"].list) == sorted(opening[5:])
    # the spectators' display of this game: the registered deck's side deck is nowhere in it
    public = browser.execute_async_script("const done = arguments[0]; fetch('/api/state').then(r => r.text()).then(done);")
    for cid in set(deck.cards) - set(opening):
        assert '"%s"' % cid not in public
    # bots play it out as the pods would
    bots = {"a": Bot(1, "greedy"), "b": Bot(2, "greedy")}

    def step():
        s = table.session.state
        if s.winner is not None:
            return s.winner
        req = s.pending[0]
        table.submit(req["player"], *bots[req["player"]].answer(s, req), source="pod")
        return None
    winner = wait_for(lambda: handle.call(step), timeout=300, poll=0, what="the game to end")
    assert winner in ("a", "b", "draw")
    g = handle.call(table.store.game, gid)
    assert g["status"] == "finished"
    played = handle.call(lambda: {r.body.get("value") for r in table.store.records(gid, kinds=("input",))
                                  if r.seat == "a" and isinstance(r.body.get("value"), str)})
    assert played & set(deck.cards)          # 1P played cards of the deck entered in the editor
    ARTIFACTS.mkdir(exist_ok=True)
    browser.get(handle.url + "/")
    wait_for(lambda: browser.execute_script("return document.getElementById('conn').dataset.ok === '1'"), what="the display")
    browser.save_screenshot(str(ARTIFACTS / "cards-game-over.png"))
    assert not severe_console_errors(browser)


def test_a_new_primitive_appears_in_the_editor_with_no_page_change(server, browser, monkeypatch):
    from engine.cards.effects import REGISTRY, Param, Prim
    handle, table, lib = server
    shine = Prim("shine", {"glow": Param("posint", 1, "how bright"), "colour": Param("enum", "gold", "its colour", ("gold", "blue"))},
                 "instant", "빛난다", "it shines", "{do: shine, glow: 2, timing: on_hit}", "guide 9.9")
    monkeypatch.setitem(REGISTRY, "shine", shine)      # the registry is read when the page asks for it
    open_cards(browser, handle, admin=False)
    js(browser, "await window.Cards.openCard('sample', 'jab');")
    pick(browser, "effects[0].do", "shine")
    fields = wait_for(lambda: browser.execute_script(
        "return [...document.querySelectorAll('#ed-form [data-field^=\"effects[0].\"]')].map(e => e.dataset.field)"),
        what="the new primitive's fields")
    assert "effects[0].glow" in fields and "effects[0].colour" in fields
    type_field(browser, "effects[0].glow", "3")
    assert browser.execute_script("return window.Cards.S.card.effects[0]") == {"do": "shine", "glow": 3, "timing": "on_catch"}
    wait_for(lambda: "빛난다" in browser.execute_script("return document.querySelector('#ed-face .gen li:last-child').textContent"),
             what="the generated text to read the new primitive from the registry")


# ---------------------------------------------------------------- issue 22 (points 1, 11, 14)

def pick_set(driver, set_id, character):
    wait_for(lambda: driver.execute_script("return !!document.getElementById('dk-set')"), what="the deck builder")
    js(driver, "const s = document.getElementById('dk-set'); s.value = arguments[0]; s.dispatchEvent(new Event('change'));", set_id)
    wait_for(lambda: driver.execute_script("return document.getElementById('dk-character').options.length > 1"), what="characters")
    js(driver, "const s = document.getElementById('dk-character'); s.value = arguments[0]; s.dispatchEvent(new Event('change'));", character)
    wait_for(lambda: driver.execute_script("return document.querySelectorAll('#dk-pool li').length") > 10, what="the pool")


def test_the_deck_builder_works_at_1920_wide(server, browser):
    """Point 1 at 1920x1080: the + and − buttons, the character buttons and the opening's
    clear button show (a rule for the judges' phone bar hid every .mini), and a tap on a
    pool row adds its card. Issue 37 point 6: the read-only sample set takes no card at all
    (it took 32 and refused only at save), and a deck stops at 20, each saying why at once."""
    handle, table, lib = server
    if "mine" not in lib.set_ids():
        lib.import_set(lib.export_set("sample"), set_id="mine")         # a writable copy: decks can live here
    viewport(browser, 1920, 1080)
    try:
        open_cards(browser, handle, "deck")
        pick_set(browser, "sample", "serin")
        chromium.click(browser, "#dk-pool li")
        wait_for(lambda: "읽기 전용" in (browser.execute_script("return document.getElementById('dk-why').textContent") or ""),
                 what="the read-only set said at once")
        assert browser.execute_script("return document.querySelectorAll('#dk-list li').length") == 0
        assert browser.execute_script("return [...document.querySelectorAll('#dk-pool .add-card')].every(b => b.disabled)")
        pick_set(browser, "mine", "serin")
        assert browser.execute_script("return document.getElementById('dk-why').hidden")
        # the pool may be redrawn while it is read: each check is one look at the page, waited for
        wait_for(lambda: all_shown(browser, "#dk-pool .add-card"), what="every + button shown")
        chromium.click(browser, "#dk-pool li")                                # the row itself, not its + button
        wait_for(lambda: browser.execute_script("return document.querySelectorAll('#dk-list li').length") == 1, what="one added")
        chromium.click(browser, "#dk-pool li:nth-child(2) small")             # the row's text (the pool is redrawn)
        wait_for(lambda: browser.execute_script("return window.Cards && document.querySelectorAll('#dk-list li').length") == 2,
                 what="two cards added by tapping their rows")
        wait_for(lambda: all_shown(browser, "#dk-list .remove-card") == 2, what="both − buttons shown")
        chromium.click(browser, "#dk-list .remove-card")
        wait_for(lambda: browser.execute_script("return document.querySelectorAll('#dk-list li').length") == 1, what="one removed")
        assert "20" in browser.execute_script("return document.getElementById('dk-needs').textContent")
        # a full deck: the 21st tap adds nothing and says so
        browser.execute_script("for (let i = 0; i < 25; i++) document.querySelector('#dk-pool li').click();")
        assert browser.execute_script("return document.querySelectorAll('#dk-list li').length") == 20
        assert "가득" in browser.execute_script("return document.getElementById('dk-why').textContent")
        browser.save_screenshot(str(ARTIFACTS / "cards-deck-1920x1080-ko.png"))
        # the library's character buttons (to reopen a character) and the opening's clear button
        open_cards(browser, handle)
        js(browser, "const s = document.getElementById('lib-set'); s.value = 'sample'; s.dispatchEvent(new Event('input'));")
        wait_for(lambda: browser.execute_script("return document.querySelectorAll('#lib-chars button[data-character]').length"),
                 what="the set's characters")
        wait_for(lambda: all_shown(browser, "#lib-chars button[data-character]"), what="the character buttons shown")
        open_cards(browser, handle, "table")
        wait_for(lambda: browser.execute_script("const s = document.getElementById('tb-deck-a');"
                                                "return s && [...s.options].some(o => o.value === 'sample/serin')"), what="the decks")
        js(browser, "const s = document.getElementById('tb-deck-a'); s.value = 'sample/serin'; s.dispatchEvent(new Event('change'));")
        wait_for(lambda: browser.execute_script("return document.querySelectorAll('#tb-open-a button.card').length"), what="1P's cards")
        wait_for(lambda: all_shown(browser, "#tb-open-a button.mini"), what="the opening's clear button shown")
    finally:
        viewport(browser, 1500, 1000)


def all_shown(driver, css):
    """How many elements ``css`` names, if there are some and every one is rendered (0 if any
    is hidden): read in one script, so a redraw between finding and looking can't fail it."""
    return driver.execute_script(
        "const els = [...document.querySelectorAll(arguments[0])];"
        "return els.length && els.every(e => e.getClientRects().length > 0"
        " && getComputedStyle(e).visibility !== 'hidden') ? els.length : 0;", css)


def test_new_things_start_blank_and_lint_catches_slips(server, browser):
    """Point 11: a new card is not pre-filled (nothing saved that nobody typed), a new effect
    is not "FP +1 on hit", a token effect's name is not "x"; a token no character has and a
    defense that guards, evades and offsets nothing are problems at their fields."""
    handle, table, lib = server
    if "slips" not in lib.set_ids():
        lib.create_set("slips", "실수 세트")
        raw = lib.raw("slips")
        raw["characters"] = [{"id": "wolfy", "name": "늑대", "mark": "wolfy", "health": [5000, 4000, 3000, 2000, 1000],
                              "hand_limit": [6, 7, 8, 9, 9], "tokens": [{"id": "howl", "start": 0, "max": 5}]}]
        lib._write_set("slips", raw)
    open_cards(browser, handle)
    js(browser, "await window.Cards.loadSets(); document.querySelector('#lib-set').value = 'slips'; document.getElementById('lib-new').click();")
    wait_for(lambda: browser.execute_script("return !document.getElementById('tab-editor').hidden"), what="the editor")
    card = browser.execute_script("return window.Cards.S.card")
    assert card == {"id": "", "name": "", "kind": "attack", "mark": "neutral"}
    for field in ("speed", "damage"):
        assert browser.execute_script("return document.querySelector('#ed-form input[data-field=\"%s\"]').value" % field) == ""
    browser.find_element("css selector", "fieldset.effects > button.add").click()
    wait_for(lambda: browser.execute_script("return window.Cards.S.card.effects && window.Cards.S.card.effects[0]") == {"do": ""},
             what="a blank effect")
    pick(browser, "effects[0].do", "token")
    assert browser.execute_script("return window.Cards.S.card.effects[0].name") == ""
    type_field(browser, "effects[0].name", "xyz")
    # the live lint runs again after the typing: the empty name's problem may still show first
    prob = wait_for(lambda: browser.execute_script(
        "const p = document.querySelector('#ed-form [data-field=\"effects[0].name\"]').closest('.frow').querySelector('.prob');"
        "return p && p.textContent.includes('xyz') && p.textContent;"), what="the unknown token at its field")
    assert "토큰" in prob
    pick(browser, "kind", "defense")
    prob = wait_for(lambda: browser.execute_script(
        "const p = document.querySelector('#ed-form [data-field=\"guard\"]').closest('.judgment, .frow').parentElement.querySelector('.prob');"
        "return p && /수비|방어/.test(p.textContent) && p.textContent;"), what="the defense that guards nothing")
    browser.save_screenshot(str(ARTIFACTS / "cards-lint-slips-ko.png"))


def test_csv_errors_read_in_korean_and_korean_headers_are_read(server, browser):
    """Point 11: a Korean sheet's 회피/방어 headers are columns; its problems read in Korean."""
    handle, table, lib = server
    if "sheet" not in lib.set_ids():
        lib.create_set("sheet", "시트 세트")
    open_cards(browser, handle, "io")
    js(browser, "await window.Cards.loadSets(); const s = document.getElementById('io-csv-set'); s.value = 'sheet';"
                "document.getElementById('io-csv-text').value = args[0];",
       "id,이름,종류,속도,위치,데미지\nq1,빠른 손,공격,빠름,중단,300\n")
    browser.find_element("id", "io-csv-go").click()
    out = wait_for(lambda: browser.execute_script("return document.getElementById('io-csv-out').textContent"), what="the problems")
    assert "2행" in out and "정수" in out and "must be" not in out
    js(browser, "document.getElementById('io-csv-text').value = args[0];",
       "id,이름,종류,방어,회피,결과\nd1,높은 막기,방어,상단,하단,방어 +1\n")
    browser.find_element("id", "io-csv-go").click()
    wait_for(lambda: any(c["id"] == "d1" for c in lib.raw("sheet").get("cards") or []), what="the Korean sheet imported")
    d1 = next(c for c in lib.raw("sheet")["cards"] if c["id"] == "d1")
    assert d1["guard"] == ["high"] and d1["evade"] == ["low"]


def test_the_editor_when_empty_and_try_it_say_things_once(server, browser):
    """Point 14: the editor tab with no card shows how to get one and no Save or Delete;
    try-it prints the rule once, as a badge."""
    handle, table, lib = server
    open_cards(browser, handle, "editor")
    assert browser.find_element("id", "ed-empty").is_displayed()
    assert not browser.find_element("id", "ed-save").is_displayed() and not browser.find_element("id", "ed-delete").is_displayed()
    js(browser, "await window.Cards.openCard('sample', 'serin-flash-jab');")
    wait_for(lambda: browser.find_element("id", "ed-save").is_displayed(), what="Save with a card open")
    js(browser, "const s = document.getElementById('try-set'); s.value = 'sample'; s.dispatchEvent(new Event('change'));")
    wait_for(lambda: browser.execute_script("return document.querySelectorAll('#try-card option').length > 5"), what="opposing cards")
    browser.find_element("id", "try-go").click()
    reason = wait_for(lambda: browser.execute_script("const r = document.querySelector('#try-out .reason'); return r && r.textContent"),
                      what="the judged battle")
    assert reason.count("3.6") + reason.count("4.1") + reason.count("3.") >= 1
    assert "[" not in reason and reason.count("가이드") == 1, reason


def test_the_tabs_fit_a_phone_on_one_line(server, browser):
    """Point 11 at 390x844: each tab's label on one line (the row scrolls sideways)."""
    handle, table, lib = server
    viewport(browser, 390, 844, mobile=True)
    try:
        open_cards(browser, handle)
        heights = browser.execute_script("return [...document.querySelectorAll('#tabs button')].map(b => b.getBoundingClientRect().height)")
        assert heights and max(heights) <= 48, heights
        assert browser.execute_script("return document.scrollingElement.scrollWidth <= innerWidth")
        browser.save_screenshot(str(ARTIFACTS / "cards-phone-390x844-ko.png"))
    finally:
        viewport(browser, 1500, 1000)
