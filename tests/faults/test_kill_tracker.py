"""kill -9 at every store call of a tracker game too (issue 11.4: the tracker applies only
what was committed): each forked hub commits one transaction and is killed at its next
store call; the resumed game equals an uninterrupted one, action for action."""

import json
import os
import random
import signal

from hub.record.store import Store
from hub.sessions.base import FakeClock
from hub.sessions.table import Table
from hub.sessions.tracker import TrackerSession

ACTIONS = 60


def _command(n):
    """The n-th thing the players do, a function of n only."""
    rnd = random.Random(n)
    step = n % 6
    if step == 0:
        return "a", "ready", True
    if step == 1:
        return "b", "ready", True
    if step == 2:
        return None, "action", {"action": "adjust_health", "seat": rnd.choice("ab"), "delta": -rnd.choice((300, 400))}
    if step == 3:
        return None, "action", {"action": "adjust_fp", "seat": rnd.choice("ab"), "delta": rnd.choice((-1, 1, 2))}
    if step == 4:
        return None, "action", ({"action": "undo"} if rnd.random() < 0.3 else
                                {"action": "adjust_health", "seat": "b", "delta": 100})
    return None, "action", {"action": "next_turn"}


def _inputs(store, gid):
    return len(store.records(gid, kinds=("input",)))


def _hub(db, die_at):
    pid = os.fork()
    if pid:
        return os.waitpid(pid, 0)[1]
    try:
        calls = 0

        def at_store_call(sql):
            nonlocal calls
            if sql.lstrip()[:6].upper() in ("BEGIN ", "COMMIT"):
                calls += 1
                if calls == die_at:
                    os.kill(os.getpid(), signal.SIGKILL)
        store = Store(db)
        games = store.games(1)
        # the players' clock: each action 2 s after the last (no double taps, no deadline runs out)
        clock = FakeClock(1_000_000 + 2000 * (_inputs(store, games[0]["id"]) if games else 0))
        store.db.set_trace_callback(at_store_call)
        table = Table(store, clock=clock)
        if table.resume_current() is None:
            table.start_tracker(seed=3)
        s = table.session
        while _inputs(store, s.game_id) < ACTIONS and s.game.winner is None:
            n = _inputs(store, s.game_id)
            clock.t = 1_000_000 + 2000 * n
            seat, kind, value = _command(n)
            table.submit(seat, kind, value, source="display")
        os._exit(0)
    except BaseException:
        import traceback
        traceback.print_exc()
        os._exit(3)


def _final(db):
    store = Store(db)
    try:
        g = store.games(1)[0]
        s = TrackerSession.resume(store, g["id"])
        return json.dumps(s.game.to_json(), sort_keys=True), _inputs(store, g["id"])
    finally:
        store.close()


def test_sigkill_at_every_store_call_of_a_tracker_game(tmp_path):
    clean = str(tmp_path / "clean.sqlite3")
    assert _hub(clean, 0) == 0
    want, n = _final(clean)
    assert n > 20
    killed = str(tmp_path / "killed.sqlite3")
    kills = 0
    for run in range(10_000):
        status = _hub(killed, 3 + run % 2)
        if status == 0:
            break
        assert os.WIFSIGNALED(status) and os.WTERMSIG(status) == signal.SIGKILL, status
        kills += 1
    assert kills >= n
    assert _final(killed) == (want, n)
    print("kill -9 (tracker): %d kills at every store call, %d inputs" % (kills, n))
