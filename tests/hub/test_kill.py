"""kill -9 the hub at random points of a game, restart it: the same final state
(issue 5: the durable record replays deterministically)."""

import json
import os
import random
import signal
import subprocess
import sys

from hub.sessions.referee import RefereeSession
from hub.record.store import Store

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def start(db, seed, pause_ms):
    return subprocess.Popen([sys.executable, "-m", "tests.hub.killable", db, str(seed), str(pause_ms)],
                            cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def final_state(db):
    store = Store(db)
    try:
        g = store.games(1)[0]
        assert g["status"] == "finished"
        s = RefereeSession.resume(store, g["id"])
        return json.dumps(s.state.to_json(), sort_keys=True), len(store.records(g["id"], kinds=("input",)))
    finally:
        store.close()


def test_sigkill_at_random_points_resumes_the_same_game(tmp_path):
    seed = 21
    clean = str(tmp_path / "clean.sqlite3")
    p = start(clean, seed, 0)
    out, err = p.communicate(timeout=120)
    assert p.returncode == 0, err
    want, n_inputs = final_state(clean)

    killed = str(tmp_path / "killed.sqlite3")
    rnd = random.Random(5)
    kills = 0
    for attempt in range(60):
        p = start(killed, seed, 15)
        try:
            p.wait(timeout=rnd.uniform(0.3, 1.2))
        except subprocess.TimeoutExpired:
            p.send_signal(signal.SIGKILL)
            p.wait()
            kills += 1
            continue
        assert p.returncode == 0, p.stderr.read()
        break
    else:
        raise AssertionError("the game never finished")
    assert kills >= 3, "the hub was killed mid-game several times"
    got, got_inputs = final_state(killed)
    assert got_inputs == n_inputs
    assert got == want
