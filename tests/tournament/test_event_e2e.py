"""A whole event through the real broker: the TD and simulated tables (real hub tables
with their records, bots playing referee games) play Swiss rounds and a top cut; every
message that crosses the broker is scanned for hidden information."""

import json
import re

import pytest

from engine.decks import load_sample
from hub.tournament.mqtt import Link, topic
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
