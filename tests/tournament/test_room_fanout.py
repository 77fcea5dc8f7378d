"""What each hub reads of the room (issue 26): its own match (``room/round/table-N``), the
room's state, clock and TD presence, never the whole round or the standings. With every hub
reading those after every result, 256 tables decoded 256 x ~100 KB a result (the bench's
largest cost) and the broker sent 6.5 GB a round. Pages and spectators still get the whole
round and the standings (docs/tournament.md §4)."""

import threading


from hub.tournament.mqtt import Link, topic
from tests.tournament.conftest import wait_for


def count_topics(link):
    """Every topic a table's MQTT connection receives from now on (its paho callback)."""
    seen, lock = [], threading.Lock()
    inner = link.link._message

    def counting(client, userdata, msg):
        with lock:
            seen.append((msg.topic, len(msg.payload)))
        inner(client, userdata, msg)
    link.link.client.on_message = counting
    return seen


def test_a_hub_reads_its_own_match_and_the_pages_the_whole_room(room, broker):
    r = room(tables=4)
    spectator = Link(broker.url("spectator"), "spectator")
    whole = {}
    spectator.subscribe(topic("cup", "room", "+"), lambda t, o, m: whole.__setitem__(t.rsplit("/", 1)[1], o))
    spectator.start()
    try:
        td = r.start_td()
        seen = count_topics(r.links[2])
        r.start_tables()
        td.pair_next()
        td.start_round()
        r.wait_round_started(1)
        mine = r.links[2].match
        expect = next(m for m in td.event.public_round()["tables"] if m["table"] == 2)
        assert {k: mine[k] for k in ("table", "a", "b", "a_name", "b_name")} == \
            {k: expect[k] for k in ("table", "a", "b", "a_name", "b_name")}
        assert mine["round"] == 1 and mine["started"] and mine["result"] is None

        r.report_all(tables=[1, 3, 4])
        for n in (1, 3, 4):
            wait_for(lambda: not r.links[n].pending(), 60, "table %d acknowledged" % n)
        wait_for(lambda: sum(1 for m in (whole.get("round") or {}).get("tables", []) if m["result"]) == 3, 60,
                 "the page's whole round with three results")
        assert len((whole.get("standings") or {}).get("rows", [])) == 8, "the page still gets the standings"

        r.report_all(tables=[2])
        wait_for(lambda: (r.links[2].match or {}).get("result"), 60, "table 2's own result in its match")
        assert r.links[2].match["result"]["a_wins"] == 1
        wait_for(lambda: (whole.get("state") or {}).get("complete"), 60, "the round complete")

        topics = {t for t, _ in seen}
        room_topics = {t for t in topics if "/room/" in t}
        assert room_topics <= {topic("cup", "room", w) for w in ("state", "clock", "td")} | \
            {topic("cup", "room", "round", "table-2")}, room_topics
        assert topic("cup", "room", "round", "table-2") in room_topics
        # its match was sent when it changed (paired, started, its own result), not at others' results
        mine_msgs = [t for t, _ in seen if t == topic("cup", "room", "round", "table-2")]
        assert len(mine_msgs) <= 4, mine_msgs
    finally:
        spectator.stop()


def test_a_table_without_a_match_this_round_is_told_so_by_a_restarted_td(room):
    """Round 1 seats four tables; two players drop and round 2 seats three. The TD restarted in
    between still tells table 4 it has no match (its round-1 match stays retained otherwise)."""
    r = room(tables=4)
    td = r.start_td()
    r.start_tables()
    td.pair_next()
    td.start_round()
    r.wait_round_started(1)
    r.report_all()
    r.wait_all_acked()
    r.stop_td()
    td = r.start_td()
    four = next(m for m in td.event.public_round()["tables"] if m["table"] == 4)
    td.drop(four["a"])
    td.drop(four["b"])
    td.pair_next()
    td.start_round()
    for n in (1, 2, 3):
        link = r.links[n]
        wait_for(lambda: link.match and link.match["round"] == 2 and link.match["started"], 60,
                 "table %d's round-2 match" % n)
    wait_for(lambda: (r.links[4].room or {}).get("round") == 2, 60, "table 4 to see round 2")
    wait_for(lambda: r.links[4].my_round and r.links[4].my_round["round"] == 2, 60, "table 4 told of round 2")
    assert r.links[4].match is None


def test_a_td_of_before_issue_26_still_seats_the_table(room, broker):
    """A TD that publishes only the whole round (no ``table_rounds`` in its state): the hub reads
    its match from the whole round, as before."""
    r = room(tables=2)
    old_td = Link(broker.url("td"), "old-td").start()
    try:
        assert old_td.wait_connected(30)
        rnd = {"round": 1, "stage": "swiss", "started": True, "bye": None, "bye_name": None, "complete": False,
               "tables": [{"table": 1, "a": "p01", "b": "p02", "a_name": "선수01", "b_name": "선수02", "result": None},
                          {"table": 2, "a": "p03", "b": "p04", "a_name": "선수03", "b_name": "선수04", "result": None}]}
        old_td.wait_published(old_td.publish(topic("cup", "room", "round"), rnd, retain=True))
        old_td.wait_published(old_td.publish(topic("cup", "room", "state"), {"event": "cup", "round": 1,
                                                                              "best_of": 1}, retain=True))
        r.start_tables()
        wait_for(lambda: r.links[2].match, 60, "table 2's match from the whole round")
        assert r.links[2].match["a"] == "p03" and r.links[2].match["started"]
    finally:
        old_td.stop()


def test_results_pouring_in_are_published_together_and_none_is_left_out(room, broker):
    """A burst of results (the end of a round) is one publish of the whole round and standings
    per ROOM_EVERY_S, not one each (at 256 tables ~30 ms of work each queued results for
    seconds); the last publish includes every result. The results arrive while the TD's lock
    is held, so no flush can come between them, however slow the machine."""
    r = room(tables=4)
    spectator = Link(broker.url("spectator"), "spectator")
    standings = []
    spectator.subscribe(topic("cup", "room", "standings"), lambda t, o, m: standings.append(o))
    spectator.start()
    try:
        td = r.start_td()
        td.pair_next()
        td.start_round()
        assert spectator.wait_connected(30)
        wait_for(lambda: standings and standings[-1]["version"] == td.version, 60, "the standings of round 1's start")
        before = len(standings)
        with td.lock:
            for m in td.event.public_round()["tables"]:
                td.handle_result(m["table"], {"result_id": "burst-%d" % m["table"], "round": 1, "a_wins": 1,
                                              "b_wins": 0, "draws": 0, "source": "table", "confirmed_by": ["a", "b"],
                                              "detail": {}})
            last = td.version
        wait_for(lambda: standings[-1]["version"] == last, 60, "standings with all four results")
        got = standings[before:]
        assert len(got) <= 2, [s["version"] for s in got]
        assert sum(row["points"] for row in got[-1]["rows"]) == 4 * 3, "four wins in the last standings"
    finally:
        spectator.stop()


def test_a_room_of_2000_players_fits_the_brokers_limit_and_the_td_stays_connected(broker, tmp_path):
    """Issue 26: the standings of 2,000 players are ~339 KB, over the broker's 256 KB message
    limit. Sent whole, the broker dropped the TD's connection for them, and paho sent them again
    at every reconnect: no result was answered from then on. Now room/standings carries the rows
    from the top that fit and says where the whole list is (the TD's HTTP API, which has it
    all); room/round fits whole at this size (~114 KB); a result is answered as before."""
    import os
    from hub.tournament import broker as brk
    from hub.tournament.broker import MESSAGE_LIMIT
    from hub.tournament.eventdir import new_event
    from hub.tournament.td import TD
    folder = str(tmp_path / "big")
    n = 2000
    creds = new_event(folder, "cup", [{"id": "p%04d" % i, "name": "선수%04d" % i} for i in range(n)],
                      rounds=3, round_minutes=30, best_of=1, seed=11)
    big = brk.LocalBroker(os.path.join(folder, "broker"), {k: v for k, v in creds.items() if k != "admin_token"})
    big.start()
    got, sizes = {}, {}
    spectator = Link(big.url("spectator"), "spectator")
    for what in ("round", "standings"):
        spectator.subscribe(topic("cup", "room", what),
                            lambda t, o, m, what=what: (got.__setitem__(what, o), sizes.__setitem__(what, len(m.payload))))
    acks = []
    table = Link(big.url("table-7"), "hub-cup-table-7")
    table.subscribe(topic("cup", "td", "table-7", "ack", "+"), lambda t, o, m: acks.append(o))
    td = TD(os.path.join(folder, "event.sqlite"), big.url("td")).start()
    spectator.start()
    table.start()
    try:
        assert td.link.wait_connected(30) and spectator.wait_connected(30) and table.wait_connected(30)
        td.pair_next()
        td.start_round()
        wait_for(lambda: (got.get("standings") or {}).get("version") == td.version
                 and (got.get("round") or {}).get("started"), 120, "the round's start as a spectator sees it")
        cut = got["standings"]["truncated"]
        assert cut["total"] == n and cut["kept"] == len(got["standings"]["rows"]) > n // 2, cut
        assert cut["whole_at"] == "/api/standings"
        assert got["standings"]["rows"] == td.standings_json()["rows"][:cut["kept"]], "the top rows, in order"
        assert len(got["round"]["tables"]) == n // 2 and "truncated" not in got["round"]
        assert max(sizes.values()) <= MESSAGE_LIMIT
        # the TD's connection carries on: table 7's result is answered
        m = next(m for m in got["round"]["tables"] if m["table"] == 7)
        table.publish(topic("cup", "table-7", "result"), {"result_id": "big-7", "round": 1, "a_wins": 1,
                                                           "b_wins": 0, "draws": 0})
        wait_for(lambda: any("big-7" in (a.get("answers") or {}) for a in acks), 60, "table 7's answer")
        wait_for(lambda: (got.get("round") or {}) and next(t for t in got["round"]["tables"] if t["table"] == 7)["result"],
                 60, "the result in the round a spectator sees")
        assert m["result"] is None, "no result before table 7's"
    finally:
        spectator.stop()
        table.stop()
        td.stop()
        big.kill()
