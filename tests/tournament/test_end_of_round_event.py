"""A round that hits time runs its profile's procedure to a result on the slip (issue 38 item
3), through the real broker: the TD calls time, the table's hub (in this process, with its
display) plays the turn in progress and the 3 extra turns, the tracker game is decided from
its counters by ruling R-time, the slip on the table's display says how, the judge confirms,
and the TD's page shows the result with how it was decided. Debian's Chromium reads both pages.

Before: the bridge decided an unfinished game by raw health after the profile's extra turns
(0 for Lumen), nothing on the slip said how, and the TD's tile showed a bare 1-0."""

import asyncio
import os

import pytest

from hub.tournament.broker import free_port
from hub.tournament.td import TD
from hub.tournament.web import serve
from tests import chromium
from tests.tournament.conftest import wait_for
from tests.tournament.test_td_browser import ARTIFACTS, _up

pytestmark = pytest.mark.skipif(not chromium.available() and os.environ.get("CI") != "true",
                                reason="Debian's chromium is not installed at /usr/bin/chromium (CI installs it)")


def test_a_round_at_time_ends_by_the_profiles_procedure_with_how_on_the_slip(broker, event_dir, tmp_path):
    from hub.record.store import Store
    from hub.sessions.base import FakeClock
    from hub.sessions.table import Table, WallClock
    from hub.tournament.bridge import Bridge
    from hub.tournament.broker import make_url
    from hub.tournament.hubroutes import router
    from hub.tournament.tablelink import TableLink
    from hub.web.server import start_in_thread
    folder, creds = event_dir
    td = TD(os.path.join(folder, "event.sqlite"), broker.url("td")).start()
    td.pair_next()
    td.start_round()
    # the players' clock moves by hand (a "next turn" within 1 s is a double tap); the match
    # clock is the wall clock the TD's round clock is in
    table = Table(Store(str(tmp_path / "games.sqlite3")), name="table-1", admin_token="hub-token-123456",
                  clock=FakeClock(), wall=WallClock())
    link = TableLink(make_url("127.0.0.1", broker.port, "table-1", creds["table-1"]), "cup", 1,
                     str(tmp_path / "outbox.sqlite3")).start()
    bridge = Bridge(table, link, lambda t, m, n: t.start_tracker("generic", "muyeong"))

    async def ticker(_hub):
        while True:
            await asyncio.sleep(0.1)
            bridge.tick()
    handle = start_in_thread(table, tasks=(ticker,), routers=(router(bridge),))
    port = free_port()
    server = serve(td, "td-token-end-of-round", port=port)
    driver = chromium.start(1400, 900, lang=None)
    try:
        wait_for(lambda: table.session is not None and table.session.mode == "tracker", 60, "the match's game")

        def entry(**cmd):
            return handle.call(lambda: table.submit(cmd.get("seat"), "action", cmd, source="display"))
        entry(action="set_health", seat="a", health=3000)          # 3000 of 5000: 60 %
        entry(action="set_health", seat="b", health=2800)          # 2800 of 4500 (무영): 62.2 %, less health
        td.call_time()
        wait_for(lambda: table.timer.state == "time", 60, "the table to follow the TD's time")
        assert table.timer.finishing and table.timer.extra_turns == 3
        for n in range(4):                                          # the turn in progress, then 3 extra turns
            assert table.round_end.decided is None and link.slip is None
            handle.call(lambda: table.clock.advance(1_500))
            entry(action="next_turn")
        wait_for(lambda: link.slip is not None, 60, "the slip")
        slip = link.slip.body
        assert (slip["a_wins"], slip["b_wins"]) == (0, 1)
        (how,) = slip["detail"]["at_time"]
        assert how["by"] == "higher_share" and "판정 R-time" in how["text"]["ko"]
        driver.get(handle.url + "/")
        driver.execute_script("localStorage.setItem('lumen.token', 'hub-token-123456')")
        driver.get(handle.url + "/")
        wait_for(lambda: "판정 R-time" in chromium.text(driver, "tournament"), 60, "the slip saying how")
        bar = chromium.text(driver, "tournament")
        assert "2P 승" in bar and "62.2%" in bar and "60.0%" in bar, bar
        ARTIFACTS.mkdir(exist_ok=True)
        driver.save_screenshot(str(ARTIFACTS / "hub-slip-at-time.png"))
        chromium.click(driver, "#tournament button[data-who=judge]")
        wait_for(lambda: td.event.current()["results"].get(1), 60, "the TD to have the result")
        res = td.event.current()["results"][1]
        assert res["detail"]["at_time"][0]["by"] == "higher_share"
        wait_for(lambda: _up(port), 30, "the TD page")
        driver.get("http://127.0.0.1:%d/#room" % port)
        wait_for(lambda: "판정 R-time" in chromium.text(driver, "tiles"), 60, "the TD's tile saying how")
        driver.save_screenshot(str(ARTIFACTS / "td-result-at-time.png"))
    finally:
        driver.quit()
        server.should_exit = True
        handle.stop()
        link.stop()
        td.stop()
