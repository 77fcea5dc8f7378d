"""Issue 11.7: a control action's id is spent for good, kill -9 and resume included:
the id is kept in the record, in the same transaction as what the action wrote."""

import contextlib

from fastapi.testclient import TestClient

from tests.web.conftest import AUTH, TOKEN

from hub.record.store import Store
from hub.sessions.table import Table
from hub.web.app import create_app


@contextlib.contextmanager
def hub(db):
    """A hub on ``db``, resuming its last game, as ``lumen hub --resume`` does."""
    t = Table(Store(db), admin_token=TOKEN)
    t.resume_latest()
    with TestClient(create_app(t, tick_interval=None), raise_server_exceptions=False) as c:
        c.table = t
        yield c
    t.store.close()      # what kill -9 leaves behind: the file, nothing in memory


def act(c, action_id, **command):
    return c.post("/api/control/tracker", json={"action_id": action_id, "command": command}, headers=AUTH)


def test_a_replayed_action_id_after_a_restart_is_refused_and_changes_nothing(tmp_path):
    db = str(tmp_path / "g.sqlite3")
    with hub(db) as c:
        assert c.post("/api/control/games", json={"action_id": "start-0001", "mode": "tracker"},
                      headers=AUTH).status_code == 200
        assert act(c, "act-00000001", action="adjust_health", seat="a", delta=-300).status_code == 200
    with hub(db) as c:
        before = (c.table.session.game.seat("a").health, len(c.table.store.records(c.table.session.game_id)))
        r = act(c, "act-00000001", action="adjust_health", seat="a", delta=-300)
        assert r.status_code == 409 and r.json()["error"] == "replayed", r.text
        assert (c.table.session.game.seat("a").health, len(c.table.store.records(c.table.session.game_id))) == before
        r = c.post("/api/control/games", json={"action_id": "start-0001", "mode": "tracker"}, headers=AUTH)
        assert r.status_code == 409, r.text
        assert len(c.table.store.games(100)) == 1


def test_a_refused_action_does_not_spend_its_id(tmp_path):
    with hub(str(tmp_path / "g.sqlite3")) as c:
        c.post("/api/control/games", json={"action_id": "start-0002", "mode": "tracker"}, headers=AUTH)
        # refused by the tracker (generic has no stances), not by the schema
        r = act(c, "act-00000002", action="set_stance", seat="a", stance="nope")
        assert r.status_code == 409 and r.json()["error"] == "refused", r.text
        r = act(c, "act-00000002", action="adjust_health", seat="a", delta=-100)
        assert r.status_code == 200, r.text
        assert c.table.session.game.seat("a").health == 4900


def test_an_action_that_writes_no_game_record_is_kept_all_the_same(tmp_path):
    db = str(tmp_path / "g.sqlite3")
    with hub(db) as c:
        c.post("/api/control/games", json={"action_id": "start-0003", "mode": "tracker"}, headers=AUTH)
        gid = c.table.session.game_id
        assert c.post("/api/control/games/%d/resume" % gid, json={"action_id": "resume-0003"},
                      headers=AUTH).status_code == 200
    with hub(db) as c:
        r = c.post("/api/control/games/%d/resume" % gid, json={"action_id": "resume-0003"}, headers=AUTH)
        assert r.status_code == 409, r.text
