"""A whole event through the real broker: the TD and simulated tables (real hub tables
with their records, bots playing referee games) play Swiss rounds and a top cut; every
message that crosses the broker is scanned for hidden information."""

import json
import re


from engine.cards.decks import load_sample
from hub.tournament.mqtt import Link
from hub.tournament.td import TD
from tests.tournament.conftest import wait_for
from tests.tournament.room import results_in_record
from tests.tournament.simroom import Driver


class Scanner:
    """Every payload published by any client of this process, and every message a
    spectator receives from the broker."""

    def __init__(self, broker):
        self.sent, self.seen = [], []
        Link.on_publish_hook = lambda t, p: self.sent.append((t, p))
        self.spec = Link(broker.url("spectator"), "spectator-scan")
        self.spec.subscribe("lumen/#", lambda t, o, m: self.seen.append((t, m.payload)))
        self.spec.start()
        assert self.spec.wait_connected(30)

    def close(self):
        Link.on_publish_hook = None
        self.spec.stop()


def hidden_words():
    """Everything a table keeps hidden: card ids and names of every deck (a hand, a ready,
    a side deck), never on MQTT (the tiles carry health, FP, turn and whether a ready is locked)."""
    cs, decks = load_sample()
    words = set()
    for card in cs.cards.values():
        words.add(card.id)
        if getattr(card, "name", None):
            words.add(card.name)
    return {w for w in words if isinstance(w, str) and len(w) >= 3}


def wait_round(td, n, timeout=300):
    wait_for(lambda: td.event.current()["number"] == n and td.event.complete(td.event.current()), timeout,
             "round %d complete" % n)


def test_three_swiss_rounds_through_the_broker(broker, event_dir, tmp_path):
    folder, creds = event_dir
    td = TD(folder + "/event.sqlite", broker.url("td")).start()
    scan = Scanner(broker)
    drv = Driver(broker, creds, str(tmp_path), tables=4, pace=0.002).start()
    try:
        for rnd in (1, 2, 3):
            td.pair_next()
            td.start_round()
            wait_round(td, rnd)
        assert td.event.swiss_done()
        results = results_in_record(folder + "/event.sqlite")
        assert sorted((b["round"], b["table"]) for b in results) == [(r, t) for r in (1, 2, 3) for t in (1, 2, 3, 4)]
        # the tables' own records hold the games behind each result
        for s in drv.sims:
            assert len(s.store.games(limit=50, table_name=s.table.name)) >= 3
        rows = td.standings_json()["rows"]
        assert sum(r["points"] for r in rows) == sum(3 if b["a_wins"] != b["b_wins"] else 2 for b in results)
        # every table's tile reached the TD
        wait_for(lambda: all(td.tables.get(n, {}).get("status", {}).get("round") == 3 for n in (1, 2, 3, 4)), 60,
                 "tiles")
    finally:
        drv.stop()
        scan.close()
        td.stop()
    assert drv.error is None
    words = hidden_words()
    assert words
    for t, payload in scan.sent + scan.seen:
        text = payload.decode()
        json.loads(text)
        strings = set(re.findall(r'"((?:[^"\\]|\\.)*)"', text))
        leaked = strings & words
        assert not leaked, "%s published hidden card information: %s" % (t, sorted(leaked)[:5])
    assert any("/status" in t for t, _ in scan.seen) and any("/result" in t for t, _ in scan.sent)


def test_time_is_called_and_every_table_ends_by_the_end_of_round_rule(broker, event_dir, tmp_path):
    folder, creds = event_dir
    td = TD(folder + "/event.sqlite", broker.url("td")).start()
    drv = Driver(broker, creds, str(tmp_path), tables=4, pace=0.05)
    drv.start()
    try:
        td.pair_next()
        td.start_round()
        td.extend(600_000, table=3)         # a judge's extension: table 3 plays on
        for s in drv.sims:
            wait_for(lambda: s.table.session is not None and s.table.session.public_view()["turn"] >= 2, 120,
                     "table %d playing" % s.number)
        td.call_time()
        wait_for(lambda: all(td.event.current()["results"].get(t) for t in (1, 2, 4)), 300, "results at time")
        for t in (1, 2, 4):
            res = td.event.current()["results"][t]
            assert len(res["detail"]["games"]) == 1
            assert drv.sims[t - 1].table.timer.state == "time"     # the table followed the TD's call
            h = res["detail"]["health"]
            if min(h.values()) > 0:       # ended by the rule: more health wins, equal draws
                want = "a" if h["a"] > h["b"] else "b" if h["b"] > h["a"] else "draw"
                assert res["detail"]["games"] == [want]
        # table 3 has ten more minutes: its game ends by itself, and its clock still runs
        wait_for(lambda: td.event.current()["results"].get(3), 300, "table 3's result")
        res3 = td.event.current()["results"][3]
        assert min(res3["detail"]["health"].values()) <= 0 and res3["a_wins"] != res3["b_wins"]
        assert drv.sims[2].table.timer.state == "running"
    finally:
        drv.stop()
        td.stop()


def test_a_restarted_hub_resumes_its_match_game_and_counts_earlier_games(broker, tmp_path):
    """Best of 3: game 1 done, game 2 under way, the hub dies. The restarted hub (same record,
    same outbox) resumes game 2, still counts game 1, and starts no stray game."""
    from hub.record.store import Store
    from hub.sessions.table import Table
    from hub.tournament.bridge import Bridge
    from hub.tournament.broker import make_url
    from hub.tournament.eventdir import new_event
    from hub.tournament.tablelink import TableLink
    folder = str(tmp_path / "bo3")
    creds = new_event(folder, "cup", [{"id": "p%d" % i, "name": "p%d" % i} for i in range(4)], rounds=2, best_of=3,
                      seed=1)
    broker.credentials.update({k: v for k, v in creds.items() if k != "admin_token"})
    broker.restart()
    td = TD(folder + "/event.sqlite", broker.url("td")).start()
    td.pair_next()
    td.start_round()
    url = make_url("127.0.0.1", broker.port, "table-1", creds["table-1"])
    db, outbox = str(tmp_path / "games.sqlite3"), str(tmp_path / "outbox.sqlite3")

    def join():
        table = Table(Store(db), name="table-1")
        link = TableLink(url, "cup", 1, outbox).start()
        return table, link, Bridge(table, link, lambda t, m, n: t.start_tracker())

    table, link, bridge = join()
    try:
        wait_for(lambda: (bridge.tick(), bridge.game_id is not None)[1], 60, "game 1")
        game1 = bridge.game_id
        table.submit("b", "action", {"action": "set_health", "seat": "b", "health": 0}, source="display")
        # game 1 is counted at one tick and game 2 started at a later one: wait for both
        wait_for(lambda: (bridge.tick(), bridge.games == ["a"] and bridge.game_id not in (None, game1))[1], 60,
                 "game 2")
        game2 = bridge.game_id
        assert game2 not in bridge.counted and table.session.game_id == game2
        link.stop(graceful=False)            # the hub dies
        table.store.close()
        table, link, bridge = join()
        table.resume(game2)                  # `lumen hub --resume`
        wait_for(lambda: (bridge.tick(), bridge.game_id is not None)[1], 60, "the match again")
        assert bridge.game_id == game2 and bridge.games == ["a"]
        table.submit("a", "action", {"action": "set_health", "seat": "a", "health": 0}, source="display")
        wait_for(lambda: (bridge.tick(), bridge.games == ["a", "b"] and bridge.game_id not in (None, game2))[1], 60,
                 "game 3")
        table.submit("b", "action", {"action": "set_health", "seat": "b", "health": 0}, source="display")
        wait_for(lambda: (bridge.tick(), link.slip is not None)[1], 60, "the slip")
        assert (link.slip.body["a_wins"], link.slip.body["b_wins"]) == (2, 1)
    finally:
        link.stop()
        td.stop()
