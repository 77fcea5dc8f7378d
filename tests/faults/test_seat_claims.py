"""Issue 39.8: a device using an unplugged pod's board id silently took that seat (and with it
the seat's hand: hidden information). Now it is shown to the judge as a claim to confirm
(hub/pods/claims.py): on the display (the seat and the port, no board id: the page is public)
and in the judge's list with the details, and it is seated only when the judge confirms;
a refused device stays unseated however often it says hello. The same registry takes any
other kind of claimant (a phone's seat, issue 40)."""

import httpx

from hub.cli.demo import BOARD_IDS
from hub.pods.protocol import Message, encode
from hub.web.display import display_state

from tests.faults.podtable import TOKEN, t10, wait  # noqa: F401  (t10 is a fixture)
from tests.faults.test_rogue_device import RoguePort, hello

AUTH = {"Authorization": "Bearer " + TOKEN}


def _claims(t10):
    r = httpx.get(t10.server.url + "/api/admin/claims", headers=AUTH)
    assert r.status_code == 200, r.text
    return r.json()["claims"]


def _decide(t10, how, claim, n):
    return httpx.post(t10.server.url + "/api/control/claims/" + how,
                      json={"action_id": "claim-%s-%04d" % (how, n), "claim": claim}, headers=AUTH)


def test_a_device_saying_an_unplugged_pods_id_waits_for_the_judge(t10):
    real = t10.hub.seated("a")
    t10.sims["a"].kill()
    wait(lambda: real.closed or not real.link.up, "the hub to notice 1P gone")
    rogue = RoguePort("usb:stranger")
    conn = t10.hub.add(rogue)
    rogue.say(hello(BOARD_IDS["a"], boot=78))
    wait(lambda: _claims(t10), "the claim for the judge")
    assert t10.hub.seated("a") is None and conn.seat is None, "the device took 1P's seat on its word"
    # the display shows it to everyone, with no board id; the judge's list has the details
    page = t10.server.call(lambda: display_state(t10.table))
    assert [c["seat"] for c in page["seat_claims"]] == ["a"] and page["pod_conflicts"] == page["seat_claims"]
    assert BOARD_IDS["a"] not in str(page["seat_claims"]) and "usb:stranger" in str(page["seat_claims"])
    assert "judge" in page["seat_claims"][0]["text"]["en"] and page["seat_claims"][0]["text"]["ko"]
    claim = _claims(t10)[0]
    assert claim["seat"] == "a" and claim["why"] == "unplugged" and claim["detail"]["board_id"] == BOARD_IDS["a"]
    assert httpx.get(t10.server.url + "/api/admin/claims").status_code == 401      # spectators can't list them
    # what it says as if seated is not heard
    rogue.say(encode(Message("ready", {"prompt": 1, "slot": 0}, seq=1, ack=0)))
    t10.sims["b"].press("ready")
    wait(lambda: "b" in t10.server.call(lambda: dict(t10.table.session.locked)), "2P's ready")
    assert "a" not in t10.server.call(lambda: dict(t10.table.session.locked))
    # the judge refuses: it stays unseated, and saying hello again asks nothing
    r = _decide(t10, "refuse", claim["id"], 1)
    assert r.status_code == 200 and r.json()["claims"] == [], r.text
    rogue.say(hello(BOARD_IDS["a"], boot=79))
    rogue.say(b"\x00" + hello("00112233445566ee"))          # a marker read after it
    wait(lambda: conn.board_id == "00112233445566ee", "the marker hello")
    assert not _claims(t10) and t10.hub.seated("a") is None
    assert _decide(t10, "confirm", claim["id"], 2).status_code == 404              # nothing waits any more
    # another device (the spare pod the judge brought) with that id: the judge confirms, it sits
    spare = RoguePort("usb:spare")
    spare_conn = t10.hub.add(spare)
    spare.say(hello(BOARD_IDS["a"], boot=80))
    wait(lambda: _claims(t10), "the spare's claim")
    r = _decide(t10, "confirm", _claims(t10)[0]["id"], 3)
    assert r.status_code == 200, r.text
    wait(lambda: t10.hub.seated("a") is spare_conn, "the judge's confirm seats the spare")
    assert not t10.table.claims.pending() and t10.server.call(lambda: display_state(t10.table))["seat_claims"] == []
    assert ("pod:1", "refused") in t10.table.claims.decided


def test_a_new_pod_asking_for_a_seat_that_has_played_waits_for_the_judge(tmp_path):
    """A fresh pod's READY takes a free seat; a seat whose pod is gone in a game where that
    seat has played (its hand is at stake) is handed over only by the judge."""
    from hub.pods.claims import claims_of
    from hub.pods.pod_hub import PodConn, PodHub
    from hub.record.store import Store
    from hub.sessions.table import Table

    from tests.faults.referee_play import next_decision
    table = Table(Store(str(tmp_path / "g.sqlite3")))
    table.auto_setup = True
    lines = []
    hub = PodHub(table, out=lines.append)
    table.start_referee(seed=5)
    table.store.remember_seat(table.name, BOARD_IDS["a"], "a")
    s = table.session
    while not s.answered["a"]:
        table.submit(*next_decision(s, 5))
    c = PodConn(RoguePort("usb:newcomer"))
    c.board_id = "00aa00aa00aa00aa"
    hub.conns.append(c)
    hub._claim(c, 0)
    assert c.seat is None, "a new pod took the seat of a game in play"
    pending = claims_of(table).pending()
    assert [(p.seat, p.why) for p in pending] == [("a", "seat")] and "00aa00aa00aa00aa" not in str(pending[0].public())
    claims_of(table).confirm(pending[0].id)
    assert c.seat == "a" and table.store.seat_of(table.name, "00aa00aa00aa00aa") == "a"
    # between games (no decision of that seat yet) a READY takes a free seat at once, as before
    table.start_referee(seed=6)
    d = PodConn(RoguePort("usb:other"))
    d.board_id = "00bb00bb00bb00bb"
    hub.conns.append(d)
    hub._claim(d, 0)
    assert d.seat == "b" and not claims_of(table).pending()
    for x in (c, d):
        x.port.close()
    table.store.close()


def test_the_judge_confirms_a_claim_on_the_admin_page(t10, tmp_path):
    """The page: the claim in the banner for everyone, and on the judge's page a panel with
    the claim's text and its two buttons; the judge's Confirm hands the seat over."""
    import pytest

    from tests import chromium
    if not chromium.available():
        pytest.skip("needs Debian's chromium and chromedriver")
    real = t10.hub.seated("a")
    t10.sims["a"].kill()
    wait(lambda: real.closed or not real.link.up, "the hub to notice 1P gone")
    spare = RoguePort("usb:spare")
    conn = t10.hub.add(spare)
    spare.say(hello(BOARD_IDS["a"], boot=81))
    wait(lambda: _claims(t10), "the claim")
    driver = chromium.start(1280, 900)
    try:
        driver.get(t10.server.url + "/")
        driver.execute_script("localStorage.setItem('lumen.lang', 'en'); localStorage.setItem('lumen.token', arguments[0]);",
                              TOKEN)
        driver.get(t10.server.url + "/")
        wait(lambda: driver.execute_script("var e = document.getElementById('claims'); return e && !e.hidden"),
             "the judge's claim panel")
        text = chromium.text(driver, "claims")
        assert "usb:spare" in text and "1P" in text and "Confirm" in text and "Refuse" in text, text
        assert "usb:spare" in chromium.text(driver, "banner")
        assert BOARD_IDS["a"] not in driver.page_source
        driver.save_screenshot(str(tmp_path / "claim.png"))
        chromium.click(driver, '#claims button[data-claim-do="confirm"]')
        wait(lambda: t10.hub.seated("a") is conn, "the judge's confirm on the page")
        wait(lambda: driver.execute_script("return document.getElementById('claims').hidden"), "the panel gone")
    finally:
        driver.quit()
