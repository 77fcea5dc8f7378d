"""Issue 28.9: the TD stores only what it uses of what a table sends. A table (with its own,
real password: a hub gone rogue) retains a 16 MB status (the broker refuses it: message
size limit), then a 200 KB one full of junk (the TD keeps the tile's fields only), sends 500
fake results (refused: at most 16 notes kept for the table), and each answer the TD sends
is about one result (it used to repeat them all: quadratic). The TD's page stays small."""

import json
import os

import pytest

from hub.tournament.mqtt import Link, TooLarge, topic
from hub.tournament.td import TD
from hub.tournament.web import room_view

from tests.tournament.conftest import broker, event_dir, wait_for  # noqa: F401  (fixtures)


def test_what_a_rogue_table_sends_is_bounded_at_the_td(broker, event_dir):  # noqa: F811
    folder, creds = event_dir
    td = TD(os.path.join(folder, "event.sqlite"), broker.url("td")).start()
    rogue = Link(broker.url("table-1"), "hub-cup-table-1").start()
    acks = []
    watcher = Link(broker.url("spectator"), "watch")
    watcher.subscribe(topic("cup", "td", "table-1", "ack", "#"), lambda t, o, m: acks.append(len(m.payload)))
    watcher.subscribe(topic("cup", "td", "table-1", "ack"), lambda t, o, m: acks.append(len(m.payload)))
    watcher.start()
    try:
        assert td.link.wait_connected(30) and rogue.wait_connected(30) and watcher.wait_connected(30)
        td.pair_next()
        td.start_round()
        status = topic("cup", "table-1", "status")
        huge = {"turn": 1, "junk": "x" * (16 * 1024 * 1024)}
        with pytest.raises(TooLarge, match="at most"):       # our own link never sends it (issue 26)
            rogue.publish(status, huge, retain=True)
        # a rogue's own client does: the broker drops the connection for it, and paho sends it
        # again at every reconnect, dropped each time (the link is useless from then on)
        rogue.client.publish(status, json.dumps(huge).encode(), qos=1, retain=True)
        wait_for(lambda: not rogue.connected.is_set(), 60, "the broker to drop the rogue for it")
        rogue.stop(graceful=False)
        rogue = Link(broker.url("table-1"), "hub-cup-table-1").start()
        assert rogue.wait_connected(30)
        assert rogue.wait_published(rogue.publish(status, {"turn": 2, "mode": "tracker", "junk": ["y" * 1000] * 200,
                                                           "characters": {"a": "z" * 5000}}, retain=True))
        wait_for(lambda: (td.tables.get(1, {}).get("status") or {}).get("turn") == 2, 60, "the TD to see turn 2")
        tile = td.tables[1]["status"]
        assert "junk" not in tile and len(tile["characters"]["a"]) <= 40, tile
        fakes = 500
        for n in range(fakes):
            rogue.publish(topic("cup", "table-1", "result"), {"result_id": "fake-%04d" % n, "round": 7,
                                                              "a_wins": 1, "b_wins": 0, "detail": {"x": "y" * 2000}})
        last = rogue.publish(topic("cup", "table-1", "result"), {"result_id": "fake-last", "round": 7,
                                                                 "a_wins": 1, "b_wins": 0})
        assert rogue.wait_published(last)
        wait_for(lambda: td.stats["refused"] + td.stats.get("dropped", 0) >= fakes + 1, 120, "the TD to hear them all")
        notes = [r for r in td.record.records(("note",)) if r["body"].get("table") == 1]
        assert len(notes) <= 16, len(notes)
        view = json.dumps(room_view(td))
        assert len(view) < 64 * 1024, len(view)
        assert len([p for p in room_view(td)["problems"] if p["table"] == 1]) <= 16
        wait_for(lambda: len(acks) >= 16, 60, "the TD's answers")
        assert max(acks) < 1024, "an answer of %d bytes" % max(acks)
        print("TD intake: a 16 MB status refused, a 200 KB one cut to its %d fields, %d fake results: %d notes kept, "
              "page %d bytes, largest answer %d bytes" % (len(tile), fakes + 1, len(notes), len(view), max(acks)))
    finally:
        watcher.stop()
        rogue.stop()
        td.stop()
