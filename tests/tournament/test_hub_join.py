"""`lumen hub --broker URL --event NAME --table N`: the real hub process joins the event:
its display runs the TD's round clock, a tracker game's end makes a result slip that the
players confirm, the TD records it once, and a hub killed with -9 and restarted sends
nothing twice."""

import json
import os
import signal
import subprocess
import sys
import urllib.request
import uuid

from hub.tournament.broker import free_port, make_url
from hub.tournament.td import TD
from tests.tournament.conftest import wait_for
from tests.tournament.room import results_in_record

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
TOKEN = "hub-token-12345"


def call(port, path, body=None):
    req = urllib.request.Request("http://127.0.0.1:%d%s" % (port, path),
                                 data=None if body is None else json.dumps(body).encode(),
                                 headers={"Content-Type": "application/json", "Authorization": "Bearer " + TOKEN})
    try:
        with urllib.request.urlopen(req, timeout=10) as r:
            return json.loads(r.read())
    except OSError:
        return None


def spawn_hub(url, db, port):
    env = dict(os.environ, PYTHONPATH=ROOT)
    return subprocess.Popen([sys.executable, "-m", "hub.cli", "hub", "--broker", url, "--event", "cup", "--table", "1",
                             "--db", db, "--port", str(port), "--no-mdns", "--token", TOKEN, "--mode", "tracker",
                             "--resume"], cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def test_a_real_hub_joins_plays_and_reports(broker, event_dir, tmp_path):
    folder, creds = event_dir
    td = TD(os.path.join(folder, "event.sqlite"), broker.url("td")).start()
    td.pair_next()
    td.start_round()
    url = make_url("127.0.0.1", broker.port, "table-1", creds["table-1"])
    db = str(tmp_path / "hub" / "games.sqlite3")
    port = free_port()
    p = spawn_hub(url, db, port)
    try:
        view = wait_for(lambda: (call(port, "/api/tournament") or {}).get("match") and
                        call(port, "/api/tournament")["clock_left_ms"] is not None and call(port, "/api/tournament"),
                        90, "the hub to join")
        assert view["match"]["table"] == 1 and view["match"]["started"]
        # the table's display runs the TD's round clock
        wait_for(lambda: call(port, "/api/state")["timer"]["state"] == "running", 60, "the display clock")
        shown = call(port, "/api/state")["timer"]["ms_left"]
        assert 0 < shown <= 30 * 60_000
        wait_for(lambda: td.tables.get(1, {}).get("status", {}).get("round") == 1, 60, "the hub's tile")
        # the game ends (player b at 0): a slip waits for both players
        # the match's game on the table (not the one the hub opened at its start)
        wait_for(lambda: call(port, "/api/tournament")["game_id"] is not None and
                 call(port, "/api/tournament")["game_id"] == call(port, "/api/state")["view"].get("game_id"), 60,
                 "the match's game")
        r = call(port, "/api/control/tracker", {"action_id": uuid.uuid4().hex,
                                                "command": {"action": "set_health", "seat": "b", "health": 0}})
        assert r and r["ok"], r
        slip = wait_for(lambda: call(port, "/api/tournament")["slip"], 60, "the result slip")
        assert (slip["a_wins"], slip["b_wins"]) == (1, 0) and slip["confirmed"] == []
        assert call(port, "/api/control/tournament/confirm", {"who": "a"})["sent"] is False
        assert call(port, "/api/control/tournament/confirm", {"who": "b"})["sent"] is True
        wait_for(lambda: td.event.current()["results"].get(1), 60, "the TD to record it")
        res = td.event.current()["results"][1]
        assert res["confirmed_by"] == ["a", "b"] and res["detail"]["health"]["b"] == 0
        wait_for(lambda: call(port, "/api/tournament")["unsent"] == 0, 60, "the ack")
        # kill -9 and restart the hub: the match is done, nothing is sent twice
        p.send_signal(signal.SIGKILL)
        p.wait(30)
        p = spawn_hub(url, db, port)
        wait_for(lambda: (call(port, "/api/tournament") or {}).get("match"), 90, "the hub back")
        wait_for(lambda: td.tables.get(1, {}).get("online") is True, 60, "online again")
        assert call(port, "/api/tournament")["slip"] is None
        assert [b["table"] for b in results_in_record(os.path.join(folder, "event.sqlite"))] == [1]
    finally:
        p.kill()
        p.wait(30)
        td.stop()
