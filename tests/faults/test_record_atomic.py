"""Issue 11.3: the referee record is written atomically. One transaction per accepted
decision holds the input and everything it produced (judge, result, finish records), so
no kill can leave a game "in progress" with a winner or a commitment that can't be
verified; and a record cut that way by an older hub version is repaired on resume."""

from hub.sessions.commit_reveal import verify as verify_commitments
from hub.sessions.referee import RefereeSession
from hub.record.store import Store
from hub.sessions.replay import replay_export
from hub.sessions.table import Table

from tests.faults.referee_play import copy_game, next_decision, play, state_json

SEED = 7


def _write_transactions(store):
    seen = []
    store.db.set_trace_callback(lambda sql: seen.append(sql) if sql.strip().upper().startswith("BEGIN") else None)
    return seen


def test_every_accepted_decision_is_one_transaction():
    t = Table(Store(":memory:"))
    t.start_referee(seed=SEED)
    begins = _write_transactions(t.store)
    s = t.session
    decisions = 0
    while s.state.winner is None:
        seat, kind, value = next_decision(s, SEED)
        before = len(begins)
        t.submit(seat, kind, value)
        decisions += 1
        assert len(begins) - before == 1, "decision %d (%s %s) took %d transactions" % (
            decisions, seat, kind, len(begins) - before)
    assert decisions > 20


def _finished_game():
    t = Table(Store(":memory:"))
    t.start_referee(seed=SEED)
    s = play(t, SEED)
    return t, s


def _check_whole(store, gid, want_state):
    s = RefereeSession.resume(store, gid)
    assert state_json(s) == want_state
    g = store.game(gid)
    assert g["status"] == "finished" and g["winner"] == s.state.winner
    checks = verify_commitments(store, gid)
    assert checks and all(ok for _, ok in checks), checks
    readies = [r for r in store.records(gid, kinds=("input",)) if r.body["kind"] == "ready"]
    assert len(checks) == len(readies), "every ready's commitment is verified at its reveal"
    ok, msg = replay_export(Table(store).export(gid), out=lambda _t: None)
    assert ok, msg


def test_resume_repairs_a_record_cut_after_its_winning_input():
    """The older hub committed the winning input, then was killed before the judge,
    result and finish records: the game stayed "in progress" with a winner, forever."""
    t, s = _finished_game()
    want = state_json(s)
    recs = t.store.records(s.game_id)
    last_input = max(r.seq for r in recs if r.kind == "input")
    cut = Store(":memory:")
    gid = copy_game(t.store, cut, s.game_id, skip={r.seq for r in recs if r.seq > last_input})
    assert cut.game(gid)["status"] == "in_progress"
    Table(cut).resume(gid)          # the repair happens here
    _check_whole(cut, gid, want)


def test_resume_repairs_a_record_cut_in_the_middle():
    """The older hub was killed after a ready's input, before its commitment; restarted,
    it played on. The missing commitment and results are appended, marked repaired."""
    t, s = _finished_game()
    want = state_json(s)
    recs = t.store.records(s.game_id)
    ready = next(r for r in recs if r.kind == "input" and r.body["kind"] == "ready" and r.seq > 10)
    nxt = next(r.seq for r in recs if r.kind == "input" and r.seq > ready.seq)
    skip = {r.seq for r in recs if ready.seq < r.seq < nxt}
    assert skip, "the ready produced records"
    cut = Store(":memory:")
    gid = copy_game(t.store, cut, s.game_id, skip=skip)
    Table(cut).resume(gid)
    repaired = [r for r in cut.records(gid) if r.body.get("repaired")]
    assert repaired and all(r.body["repaired"]["input_seq"] == ready.seq for r in repaired)
    _check_whole(cut, gid, want)
    # resuming again repairs nothing more
    n = len(cut.records(gid))
    Table(cut).resume(gid)
    assert len(cut.records(gid)) == n
