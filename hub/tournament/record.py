"""The TD's record: an append-only SQLite log of every decision of one event.

Like the hub's game record (``hub/store``): every record is committed before it
is applied, records are never updated or deleted (triggers refuse it), and the
event is rebuilt by replaying them, so ``kill -9`` of the TD at any moment and a
restart give the same event (same pairings, same results, same clock).
"""

import json
import os
import sqlite3
import time

from .event import Event

SCHEMA = """
CREATE TABLE IF NOT EXISTS records (
    seq      INTEGER PRIMARY KEY,
    kind     TEXT NOT NULL,
    wall_ms  INTEGER NOT NULL,
    body     TEXT NOT NULL
);
CREATE TRIGGER IF NOT EXISTS records_no_update BEFORE UPDATE ON records
    BEGIN SELECT RAISE(ABORT, 'the event record is append-only'); END;
CREATE TRIGGER IF NOT EXISTS records_no_delete BEFORE DELETE ON records
    BEGIN SELECT RAISE(ABORT, 'the event record is append-only'); END;
"""


class EventRecord:
    def __init__(self, path, durable=False):
        self.path = path
        if path != ":memory:":
            os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
        self.db = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
        self.db.execute("PRAGMA journal_mode=WAL")
        self.db.execute("PRAGMA synchronous=%s" % ("FULL" if durable else "NORMAL"))
        self.db.executescript(SCHEMA)

    def close(self):
        self.db.close()

    def append(self, kind, body):
        """Commit one record; returns its sequence number."""
        cur = self.db.execute("INSERT INTO records (kind, wall_ms, body) VALUES (?, ?, ?)",
                              (kind, int(time.time() * 1000), json.dumps(body, ensure_ascii=False, sort_keys=True)))
        return cur.lastrowid

    def records(self, kinds=None):
        q = "SELECT seq, kind, wall_ms, body FROM records"
        args = []
        if kinds:
            q += " WHERE kind IN (%s)" % ",".join("?" * len(kinds))
            args = list(kinds)
        q += " ORDER BY seq"
        return [{"seq": s, "kind": k, "wall_ms": w, "body": json.loads(b)} for s, k, w, b in self.db.execute(q, args)]

    def last_seq(self):
        return self.db.execute("SELECT COALESCE(MAX(seq), 0) FROM records").fetchone()[0]

    def load(self):
        """The event as its records make it (and the seq of the last record)."""
        ev = Event()
        last = 0
        for r in self.records():
            ev.apply(r["kind"], r["body"])
            last = r["seq"]
        return ev, last
