"""A hub process for the SIGKILL test: plays one referee game into DB with
deterministic players, resuming whatever unfinished game the record holds.

    python3 -m tests.hub.killable DB SEED PAUSE_MS

Each decision is a function of (seed, how many decisions were taken, who, what),
never of the process's history, so a killed-and-restarted run takes exactly the
decisions an uninterrupted one does."""

import json
import random
import sys
import time

from engine.bots import random_answer
from hub.record.store import Store
from hub.sessions.table import Table


def main():
    db, seed, pause = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]) / 1000
    table = Table(Store(db))
    if table.resume_latest() is None:
        table.start_referee(seed=seed)
    s = table.session
    while s.state.winner is None:
        req = s.state.pending[0]
        n = sum(s.answered.values())
        rnd = random.Random("%d:%d:%s:%s" % (seed, n, req["player"], req["kind"]))
        kind, value = random_answer(s.state, req, rnd)
        if kind == "timeout":
            kind, value = "ready", req["options"][0]
        s.submit(req["player"], kind, value)
        time.sleep(pause)
    print(json.dumps({"winner": s.state.winner, "game": s.game_id}))


if __name__ == "__main__":
    main()
