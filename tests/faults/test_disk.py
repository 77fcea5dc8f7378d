"""Issue 11.4: a record that can't be written (full disk, read-only database) is a clear
error at start and on the page, and never a silent divergence: tracker mode applies only
what was committed (a failed action leaves the display as it was and a resume agrees)."""

import os

import pytest
from fastapi.testclient import TestClient

from tests.faults.conftest import fill
from tests.web.conftest import AUTH, TOKEN, aid

from hub.record.store import Store, StoreError
from hub.sessions.table import Table
from hub.web.app import create_app
from hub.web.display import display_state


def _act(c, delta):
    return c.post("/api/control/tracker", json={"action_id": aid(), "command": {
        "action": "adjust_health", "seat": "a", "delta": delta}}, headers=AUTH)


def _game_view(state):
    return {k: state[k] for k in ("seats", "turn", "phase", "winner", "log")}


def test_a_full_disk_refuses_the_action_and_changes_nothing(tiny_fs):
    db = str(tiny_fs / "g.sqlite3")
    t = Table(Store(db), admin_token=TOKEN)
    t.start_tracker()
    with TestClient(create_app(t, tick_interval=None), raise_server_exceptions=False) as c:
        assert _act(c, -100).status_code == 200
        fill(tiny_fs)
        for i in range(400):        # sooner or later a record needs a page the disk hasn't got
            before = _game_view(c.get("/api/state").json()["display"])
            r = _act(c, -1 if i % 2 else 1)
            if r.status_code != 200:
                break
        else:
            pytest.fail("a full disk never refused a record")
        assert r.status_code == 503, r.text
        assert r.json()["error"] == "record_unwritable"
        assert "can't be written" in r.json()["detail"] or "기록할 수 없" in r.json()["detail"]
        page = c.get("/api/state").json()["display"]
        assert _game_view(page) == before, "the display changed though the record refused the action"
        assert page["record_error"] and "full" in page["record_error"]["en"]
        shown = display_state(t)
    t.store.close()
    os.remove(str(tiny_fs / "filler"))
    t2 = Table(Store(db))
    t2.resume_latest()
    assert _game_view(display_state(t2))["seats"] == _game_view(shown)["seats"], "a resume agrees with the page"
    t2.store.close()


def test_a_read_only_record_is_a_clear_error_at_start(read_only_dir):
    d, make_ro = read_only_dir
    db = str(d / "g.sqlite3")
    t = Table(Store(db))
    t.start_tracker()
    t.store.close()
    make_ro()
    with pytest.raises(StoreError) as e:
        Store(db)
    assert "can't be written" in str(e.value) and db in str(e.value)


def test_lumen_hub_on_a_read_only_record_says_so_and_exits(read_only_dir):
    from hub.cli.main import build_parser
    d, make_ro = read_only_dir
    db = str(d / "g.sqlite3")
    Store(db).close()
    make_ro()
    args = build_parser().parse_args(["hub", "--db", db, "--resume", "--port", "0"])
    lines = []
    assert args.func.__module__   # the hub command exists
    from hub.cli.hub import run_hub
    assert run_hub(args, out=lines.append) != 0
    assert any("can't be written" in line for line in lines), lines


def test_a_referee_decision_the_full_record_refuses_is_not_applied(tmp_path):
    """The same as a full disk, without root: SQLite's max_page_count caps the file where it is."""
    from hub.record.store import RecordUnwritable
    from hub.sessions.referee import RefereeSession
    from tests.faults.referee_play import next_decision, state_json
    db = str(tmp_path / "g.sqlite3")
    t = Table(Store(db))
    t.start_referee(seed=9)
    s = t.session
    pages = t.store.db.execute("PRAGMA page_count").fetchone()[0]
    t.store.db.execute("PRAGMA max_page_count = %d" % pages)
    for _ in range(2000):
        seat, kind, value = next_decision(s, 9)
        before = (state_json(s), len(s.log), dict(s.answered), dict(s.locked), dict(s.deadline))
        try:
            t.submit(seat, kind, value)
        except RecordUnwritable as e:
            assert "full" in str(e) and "can't be written" in str(e)
            break
        assert s.state.winner is None, "the game ended before the record filled up"
    else:
        pytest.fail("the capped record never refused a decision")
    assert (state_json(s), len(s.log), dict(s.answered), dict(s.locked), dict(s.deadline)) == before
    assert t.store.write_error is not None
    t.store.db.execute("PRAGMA max_page_count = 1073741823")
    t.submit(seat, kind, value)             # room again: the same decision is accepted now
    assert t.store.write_error is None
    live = state_json(s)
    t.store.close()
    again = Store(db)
    assert state_json(RefereeSession.resume(again, s.game_id)) == live
    again.close()
