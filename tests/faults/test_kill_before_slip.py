"""Issue 28.3: a hub killed before the players confirm the slip loses nothing. The real
``lumen hub --broker ...`` plays a best-of-1 match to its end; it is killed with -9 with the
slip unconfirmed, again after player a's confirmation, and once more after the result was
sent: each time it comes back with the same slip and the confirmations given, starts no game
for the decided match, takes the remaining confirmation, and the TD records the result
once. And no error ends the bridge's tick: a game that can't be started is tried again."""

import os
import signal
import uuid

from hub.record.store import Store
from hub.sessions.table import Table
from hub.tournament.bridge import Bridge
from hub.tournament.broker import free_port, make_url
from hub.tournament.tablelink import TableLink
from hub.tournament.td import TD

from tests.tournament.conftest import broker, event_dir, wait_for  # noqa: F401  (fixtures)
from tests.tournament.room import results_in_record
from tests.tournament.test_hub_join import call, spawn_hub


def _games(db):
    s = Store(db, probe=False)
    try:
        return [g["id"] for g in s.games(limit=100, keep=(s.current_game("table-1"),))]
    finally:
        s.close()


def _back(p, url, db, port):
    p.send_signal(signal.SIGKILL)
    p.wait(30)
    p = spawn_hub(url, db, port)
    wait_for(lambda: (call(port, "/api/tournament") or {}).get("match"), 90, "the hub back in the event")
    return p


def test_a_hub_killed_before_the_slip_is_confirmed_keeps_it(broker, event_dir, tmp_path):  # noqa: F811
    folder, creds = event_dir
    td = TD(os.path.join(folder, "event.sqlite"), broker.url("td")).start()
    td.pair_next()
    td.start_round()
    url = make_url("127.0.0.1", broker.port, "table-1", creds["table-1"])
    db = str(tmp_path / "hub" / "games.sqlite3")
    port = free_port()
    p = spawn_hub(url, db, port)
    kills = 0
    try:
        wait_for(lambda: (call(port, "/api/tournament") or {}).get("match"), 90, "the hub to join")
        # the match's game on the table (not the one the hub opened at its start)
        wait_for(lambda: (call(port, "/api/tournament") or {}).get("game_id") is not None and
                 call(port, "/api/tournament")["game_id"] == (call(port, "/api/state") or {}).get("view", {}).get("game_id"), 60,
                 "the match's game")
        r = call(port, "/api/control/tracker", {"action_id": uuid.uuid4().hex,
                                                "command": {"action": "set_health", "seat": "b", "health": 0}})
        assert r and r["ok"], r
        slip = wait_for(lambda: call(port, "/api/tournament")["slip"], 60, "the result slip")
        games = _games(db)

        p = _back(p, url, db, port)           # killed with the slip unconfirmed
        kills += 1
        again = wait_for(lambda: call(port, "/api/tournament")["slip"], 60, "the slip after the restart")
        assert (again["a_wins"], again["b_wins"], again["confirmed"]) == (slip["a_wins"], slip["b_wins"], [])
        assert _games(db) == games, "no game is started for a decided match"
        assert call(port, "/api/control/tournament/confirm", {"who": "a"})["sent"] is False

        p = _back(p, url, db, port)           # killed after player a confirmed
        kills += 1
        again = wait_for(lambda: call(port, "/api/tournament")["slip"], 60, "the slip after the restart")
        assert again["confirmed"] == ["a"]
        assert call(port, "/api/control/tournament/confirm", {"who": "b"})["sent"] is True
        wait_for(lambda: td.event.current()["results"].get(1), 60, "the TD to record it")
        wait_for(lambda: call(port, "/api/tournament")["unsent"] == 0, 60, "the ack")

        p = _back(p, url, db, port)           # killed after the result went out
        kills += 1
        wait_for(lambda: td.tables.get(1, {}).get("online") is True, 60, "online again")
        assert call(port, "/api/tournament")["slip"] is None
        assert _games(db) == games
        results = [b for b in results_in_record(os.path.join(folder, "event.sqlite")) if b["table"] == 1]
        assert len(results) == 1 and (results[0]["a_wins"], results[0]["b_wins"]) == (1, 0), results
        assert results[0]["confirmed_by"] == ["a", "b"]
        print("kill before the slip: %d kills -9, 1 result, recorded once, %d games played" % (kills, len(games)))
    finally:
        p.kill()
        p.wait(30)
        td.stop()


def test_no_error_ends_the_bridges_tick(broker, event_dir, tmp_path):  # noqa: F811
    folder, creds = event_dir
    td = TD(os.path.join(folder, "event.sqlite"), broker.url("td")).start()
    link = TableLink(broker.url("table-1"), "cup", 1, str(tmp_path / "outbox.sqlite")).start()
    table = Table(Store(str(tmp_path / "g.sqlite3")))
    tries = []

    def new_game(t, match, game_no):
        tries.append(game_no)
        if len(tries) == 1:
            raise RuntimeError("the deck file went missing")      # a hub-side failure, once
        return t.start("tracker", None, None)
    bridge = Bridge(table, link, new_game)
    try:
        assert link.link.wait_connected(30)
        td.pair_next()
        td.start_round()
        wait_for(lambda: link.match and link.match["started"], 60, "the round")
        bridge.tick()                 # the failure: logged, not raised
        assert bridge.errors == 1 and table.session is None
        wait_for(lambda: (bridge.tick() or table.session is not None), 30, "the game, on a later tick")
        assert tries == [1, 1]
        table.submit(None, "action", {"action": "set_health", "seat": "b", "health": 0}, source="display")
        wait_for(lambda: (bridge.tick() or link.slip is not None), 30, "the slip")
        wait_for(lambda: (bridge.tick() or (td.tables.get(1, {}).get("status") or {}).get("result_pending")), 60,
                 "the tile's status")
    finally:
        link.stop()
        td.stop()
        table.store.close()

