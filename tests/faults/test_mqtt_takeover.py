"""Issue 28.2: a password can't take over another client's MQTT session. With the TD, the
hubs of tables 1 and 2 and a spectator connected to the event's real Mosquitto, every role
(each spectator, each table) connects with every other client's id (the TD's, each hub's,
each user's name): none of the four sessions is taken (none is disconnected), and the TD
records a table's result afterwards as before. A client's id is its user name.
Issue 28.9: a spectator can't publish or retain anything, under its own name or any."""

import os
import re

from hub.tournament.mqtt import Link, topic
from hub.tournament.tablelink import TableLink
from hub.tournament.td import TD

from tests.tournament.conftest import broker, event_dir, wait_for  # noqa: F401  (fixtures)

def _watch(link, counts, name):
    """Count the times ``link`` loses its connection (paho's on_disconnect)."""
    counts[name] = 0
    inner = link.client.on_disconnect

    def lost(*args):
        counts[name] += 1
        return inner(*args)
    link.client.on_disconnect = lost


VICTIM_IDS = ["td-cup", "hub-cup-table-1", "hub-cup-table-2", "td", "table-1", "table-2", "spectator"]


def takeovers(log_path):
    """(the client id whose old connection Mosquitto closed, the user name of the connection
    that closed it) for each takeover in the broker's log."""
    out, closed = [], None
    with open(log_path, encoding="utf-8", errors="replace") as f:
        for line in f:
            m = re.search(r"Client (\S+) already connected, closing old connection", line)
            if m:
                closed = m.group(1)
                continue
            m = re.search(r"New client connected from \S+ as (\S+) \(.*u'([^']*)'\)", line)
            if m and closed is not None:
                assert m.group(1) == closed, line
                out.append((closed, m.group(2)))
                closed = None
    return out


def test_no_role_takes_another_clients_session(broker, event_dir, tmp_path):  # noqa: F811
    folder, creds = event_dir
    td = TD(os.path.join(folder, "event.sqlite"), broker.url("td")).start()
    links = {n: TableLink(broker.url("table-%d" % n), "cup", n, str(tmp_path / ("outbox-%d.sqlite" % n))).start()
             for n in (1, 2)}
    watcher = Link(broker.url("spectator"), "spectator").start()
    victims = {"td": td.link, "table-1": links[1].link, "table-2": links[2].link, "spectator": watcher}
    lost = {}
    for name, v in victims.items():
        _watch(v, lost, name)
    tries = 0
    last_role = None
    try:
        for v in victims.values():
            assert v.wait_connected(30)
        for role in ["spectator", "table-1", "table-2"]:
            for cid in VICTIM_IDS:
                if cid == role:
                    continue
                for v in victims.values():
                    assert v.wait_connected(30)      # a session its own user took back is back again
                before = dict(lost)
                attacker = Link(broker.url(role), cid).start()
                try:
                    assert attacker.wait_connected(30), attacker.refused
                    attacker.publish(topic("cup", "room", "state"), {"round": 99})     # refused by the ACL anyway
                    tries += 1
                finally:
                    attacker.stop()
                # a victim's client hears its loss when it next reads the socket, which may be
                # after the next attempt began: the callbacks say that a session was lost, the
                # broker's log (below) says by whom
                taken = [name for name in victims if lost[name] != before[name] and name not in (role, last_role)]
                assert not taken, "%s with client id %r took over %s" % (role, cid, taken)
            last_role = role
        kicks = takeovers(os.path.join(broker.folder, "mosquitto.log"))
        # every session closed for a newcomer was closed for the same user's own connection,
        # whatever client id it asked for; the TD's and the hubs' requested ids never appear
        assert kicks and all(closed == user for closed, user in kicks), kicks
        assert {closed for closed, _ in kicks} <= {"spectator", "table-1", "table-2"}, kicks
        # the room still works: a result from table 1 is recorded and acknowledged
        td.pair_next()
        td.start_round()
        wait_for(lambda: links[1].match and links[1].match["started"], 60, "table 1's round")
        links[1].new_slip(1, 0)
        links[1].confirm("a")
        body = links[1].confirm("b")
        wait_for(lambda: body["result_id"] in td.answers.get(1, {}), 60, "the TD to record table 1's result")
        wait_for(lambda: not links[1].pending(), 60, "table 1's result acknowledged")
        assert lost["td"] == 0
    finally:
        for link in links.values():
            link.stop()
        watcher.stop()
        td.stop()
    print("client-id takeover: %d attempts from 3 roles, 0 sessions taken" % tries)


def test_a_spectator_publishes_and_retains_nothing(broker, event_dir):  # noqa: F811
    folder, creds = event_dir
    spectator_users = sorted(u for u in creds if u.startswith("spectator"))
    seen = []
    reader = Link(broker.url("td"), "reader")
    reader.subscribe("lumen/#", lambda t, o, m: seen.append((t, m.retain)))
    reader.start()
    spectators = [Link(broker.url(u), u).start() for u in spectator_users]
    try:
        assert reader.wait_connected(30)
        for s in spectators:
            assert s.wait_connected(30)
        for s, u in zip(spectators, spectator_users):
            for t in (topic("cup", u, "status"), topic("cup", u, "x"), topic("cup", "table-1", "status")):
                info = s.publish(t, {"junk": "x" * 100}, retain=True)
                assert s.wait_published(info).getName() == "Not authorized", (u, t)
        mark = reader.wait_published(reader.publish(topic("cup", "marker"), {"end": True}))
        assert not mark.is_failure
        wait_for(lambda: any(t.endswith("/marker") for t, _ in seen), 30, "the marker")
        assert [t for t, _ in seen if not t.endswith("/marker")] == [], seen
    finally:
        for s in spectators:
            s.stop()
        reader.stop()
