"""A table's results on their way to the TD: stored on the hub first, re-published
until the TD acknowledges them.

The outbox is an append-only SQLite log beside the hub's game record: a ``result``
row is committed before the result is first published; an ``ack`` row when the
TD's acknowledgement arrives. What is pending is every result without an ack, so
after a hub crash, a broker restart or a Wi-Fi drop the same result (same
``result_id``) is sent again, and the TD, which keys results by that id, records
it once. Nothing is lost (it is on the hub's disk before anyone is told) and
nothing is doubled (the id makes every repeat a no-op at the TD).

Before a result there is its slip (issue 28.3): a ``slip`` row when the match is decided
(its score, its detail: the result's ``result_id`` is the slip's id), a ``confirm`` row per
player's (or the judge's) confirmation. A hub killed before the players confirm rebuilds
the slip with its confirmations, and knows the match is decided: no game is started for it.
"""

import json
import threading
import time
import uuid

from hub.record import sqlite

SCHEMA = """
CREATE TABLE IF NOT EXISTS outbox (
    seq        INTEGER PRIMARY KEY,
    kind       TEXT NOT NULL,          -- result | ack | start, game (a match's games) | slip, confirm
    result_id  TEXT NOT NULL,
    wall_ms    INTEGER NOT NULL,
    body       TEXT NOT NULL
);
""" + sqlite.append_only("outbox", "the outbox is append-only")
MIGRATIONS = [SCHEMA]


class _Rows(list):
    def fetchone(self):
        return self[0] if self else None

    def fetchall(self):
        return list(self)


class _Serial:
    """One connection used from the table's loop (the bridge) and the link's thread (resends,
    acks): each statement runs whole, with its rows fetched, under a lock, so two threads never
    share a cursor of it."""

    def __init__(self, db):
        self.db, self.lock = db, threading.Lock()

    def execute(self, sql, args=()):
        with self.lock:
            return _Rows(self.db.execute(sql, args).fetchall())

    def close(self):
        with self.lock:
            self.db.close()


class Outbox:
    def __init__(self, path):
        db = sqlite.connect(path)
        sqlite.migrate(db, MIGRATIONS, "outbox")
        self.db = _Serial(db)

    def close(self):
        self.db.close()

    def add(self, body):
        """Store a result (a new ``result_id`` unless the body has one); returns the body."""
        body = dict(body)
        body.setdefault("result_id", uuid.uuid4().hex)
        self.db.execute("INSERT INTO outbox (kind, result_id, wall_ms, body) VALUES ('result', ?, ?, ?)",
                        (body["result_id"], int(time.time() * 1000), json.dumps(body, ensure_ascii=False, sort_keys=True)))
        return body

    def acked(self, result_id, answer):
        """Record the TD's acknowledgement (once per id)."""
        if self.is_acked(result_id) or not self.has(result_id):
            return False
        self.db.execute("INSERT INTO outbox (kind, result_id, wall_ms, body) VALUES ('ack', ?, ?, ?)",
                        (result_id, int(time.time() * 1000), json.dumps(answer, ensure_ascii=False, sort_keys=True)))
        return True

    def has(self, result_id):
        return self.db.execute("SELECT 1 FROM outbox WHERE kind = 'result' AND result_id = ?",
                               (result_id,)).fetchone() is not None

    def is_acked(self, result_id):
        return self.db.execute("SELECT 1 FROM outbox WHERE kind = 'ack' AND result_id = ?",
                               (result_id,)).fetchone() is not None

    def pending(self):
        rows = self.db.execute(
            "SELECT body FROM outbox r WHERE kind = 'result' AND NOT EXISTS "
            "(SELECT 1 FROM outbox a WHERE a.kind = 'ack' AND a.result_id = r.result_id) ORDER BY seq").fetchall()
        return [json.loads(b) for (b,) in rows]

    def results(self):
        return [json.loads(b) for (b,) in self.db.execute("SELECT body FROM outbox WHERE kind = 'result' ORDER BY seq")]

    def note_start(self, round_no, game_id):
        """A game started for the current match (a restarted hub resumes it, not a stray game)."""
        self.db.execute("INSERT INTO outbox (kind, result_id, wall_ms, body) VALUES ('start', ?, ?, ?)",
                        ("r%d-g%s" % (round_no, game_id), int(time.time() * 1000),
                         json.dumps({"round": round_no, "game_id": game_id})))

    def note_game(self, round_no, game_id, winner, time_called=False, at_time=None):
        """A finished game of the current match (a restarted hub counts it again); ``at_time``:
        how the end-of-round procedure decided it (hub/sessions/end_of_round.py), if it did."""
        body = {"round": round_no, "game_id": game_id, "winner": winner, "time_called": bool(time_called)}
        if at_time is not None:
            body["at_time"] = at_time
        self._insert("game", "r%d-g%s" % (round_no, game_id), body)

    def add_slip(self, body):
        """The match's result waiting for confirmation; returns its id (its result's id too)."""
        body = dict(body)
        body.setdefault("slip_id", uuid.uuid4().hex)
        self._insert("slip", body["slip_id"], body)
        return body["slip_id"]

    def confirmed(self, slip_id, who):
        self._insert("confirm", slip_id, {"who": who})

    def slip_for(self, round_no):
        """(slip body, who confirmed) of the round's latest slip, or None."""
        rows = self.db.execute("SELECT result_id, body FROM outbox WHERE kind = 'slip' ORDER BY seq").fetchall()
        found = None
        for sid, b in rows:
            body = json.loads(b)
            if body.get("round") == round_no:
                found = body
        if found is None:
            return None
        who = {json.loads(b)["who"] for (b,) in self.db.execute(
            "SELECT body FROM outbox WHERE kind = 'confirm' AND result_id = ? ORDER BY seq", (found["slip_id"],))}
        return found, who

    def _insert(self, kind, key, body):
        self.db.execute("INSERT INTO outbox (kind, result_id, wall_ms, body) VALUES (?, ?, ?, ?)",
                        (kind, key, int(time.time() * 1000), json.dumps(body, ensure_ascii=False, sort_keys=True)))

    def games(self, round_no, kind="game"):
        rows = self.db.execute("SELECT body FROM outbox WHERE kind = ? ORDER BY seq", (kind,)).fetchall()
        return [g for g in (json.loads(b) for (b,) in rows) if g["round"] == round_no]

    def result_for(self, round_no):
        for b in self.results():
            if b.get("round") == round_no:
                return b
        return None

    def answer(self, result_id):
        row = self.db.execute("SELECT body FROM outbox WHERE kind = 'ack' AND result_id = ?", (result_id,)).fetchone()
        return json.loads(row[0]) if row else None
