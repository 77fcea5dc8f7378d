"""The TD's record: an append-only SQLite log of every decision of one event.

Like the hub's game record (``hub/store``): every record is committed before it
is applied, records are never updated or deleted (triggers refuse it), and the
event is rebuilt by replaying them, so ``kill -9`` of the TD at any moment and a
restart give the same event (same pairings, same results, same clock).
"""

import json
import time

from hub.record import sqlite

from .event import Event

SCHEMA = """
CREATE TABLE IF NOT EXISTS records (
    seq      INTEGER PRIMARY KEY,
    kind     TEXT NOT NULL,
    wall_ms  INTEGER NOT NULL,
    body     TEXT NOT NULL
);
""" + sqlite.append_only("records", "the event record is append-only")
MIGRATIONS = [SCHEMA]


class EventRecord:
    def __init__(self, path, durable=False):
        self.path = path
        self.db = sqlite.connect(path, durable=durable)
        sqlite.migrate(self.db, MIGRATIONS, "event record")

    def close(self):
        self.db.close()

    def append(self, kind, body, wall_ms=None):
        """Commit one record (stamped ``wall_ms``, default now); returns its sequence number."""
        wall_ms = int(time.time() * 1000) if wall_ms is None else int(wall_ms)
        cur = self.db.execute("INSERT INTO records (kind, wall_ms, body) VALUES (?, ?, ?)",
                              (kind, wall_ms, json.dumps(body, ensure_ascii=False, sort_keys=True)))
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
            ev.apply(r["kind"], r["body"], at_ms=r["wall_ms"])
            last = r["seq"]
        return ev, last
