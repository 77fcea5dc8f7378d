"""kill -9 the hub at every store call of a referee game, restart it each time: the same
game (issues 5 and 11). Not at random wall-clock times: each run of the hub (a forked
child, so no interpreter start per kill) lets exactly one write transaction commit and is
killed by SIGKILL at the next store call, alternately just before its BEGIN and just
before its COMMIT (inserts made, not committed). Whatever the machine's speed, every cut
point of the game is visited once, in order. At the end the record must hold the same
game as an uninterrupted run, its judge log must verify and its export replay."""

import os
import signal

from hub.record.store import Store
from hub.sessions.commit_reveal import verify as verify_commitments
from hub.sessions.referee import RefereeSession
from hub.sessions.replay import replay_export
from hub.sessions.table import Table

from tests.faults.referee_play import play, state_json

SEED = 21


def _hub(db, die_at):
    """One hub run in a forked child: resume the table's game (or start it) and play on;
    SIGKILL itself at its ``die_at``-th store call (BEGIN or COMMIT). Exit 0 if it finished."""
    pid = os.fork()
    if pid:
        _, status = os.waitpid(pid, 0)
        return status
    try:
        calls = 0

        def at_store_call(sql):
            nonlocal calls
            word = sql.lstrip().split(None, 1)[0].upper() if sql.strip() else ""
            if word in ("BEGIN", "COMMIT"):
                calls += 1
                if calls == die_at:
                    os.kill(os.getpid(), signal.SIGKILL)
        store = Store(db)
        store.db.set_trace_callback(at_store_call)
        table = Table(store)
        if table.resume_current() is None:
            table.start_referee(seed=SEED)
        play(table, SEED)
        os._exit(0)
    except BaseException:
        import traceback
        traceback.print_exc()
        os._exit(3)


def _game(db):
    store = Store(db)
    try:
        g = store.games(1)[0]
        s = RefereeSession.resume(store, g["id"])
        return store, g, s
    except BaseException:
        store.close()
        raise


def test_sigkill_at_every_store_call_resumes_the_same_game(tmp_path):
    clean = str(tmp_path / "clean.sqlite3")
    assert _hub(clean, die_at=0) == 0
    store, g, s = _game(clean)
    want, n_inputs = state_json(s), len(store.records(g["id"], kinds=("input",)))
    store.close()

    killed = str(tmp_path / "killed.sqlite3")
    kills = 0
    for run in range(20_000):            # a bound, far above the game's store calls
        status = _hub(killed, die_at=3 + run % 2)
        if status == 0:
            break
        assert os.WIFSIGNALED(status) and os.WTERMSIG(status) == signal.SIGKILL, "run %d: %r" % (run, status)
        kills += 1
    else:
        raise AssertionError("the game never finished")
    assert kills > n_inputs, "killed at every store call (%d kills, %d inputs)" % (kills, n_inputs)
    print("kill -9 (referee): %d kills at every store call, %d inputs" % (kills, n_inputs))

    store, g, s = _game(killed)
    try:
        assert g["status"] == "finished" and g["winner"] == s.state.winner
        assert len(store.records(g["id"], kinds=("input",))) == n_inputs
        assert state_json(s) == want
        assert not [r for r in store.records(g["id"]) if r.body.get("repaired")], "nothing was ever cut"
        checks = verify_commitments(store, g["id"])
        readies = [r for r in store.records(g["id"], kinds=("input",)) if r.body["kind"] == "ready"]
        assert checks and len(checks) == len(readies) and all(ok for _, ok in checks), checks
        ok, msg = replay_export(Table(store).export(g["id"]), out=lambda _t: None)
        assert ok, msg
    finally:
        store.close()
