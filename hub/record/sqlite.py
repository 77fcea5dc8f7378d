"""What the three append-only SQLite stores share (the game record, hub/record/store.py; the
TD's event record, hub/tournament/record.py; a table's outbox to the TD,
hub/tournament/delivery.py): how a file is opened, the triggers that keep a table
append-only, and the schema migrations, numbered by ``PRAGMA user_version``.

A store lists its migrations in order: migration 1 is its schema as first written
(``CREATE ... IF NOT EXISTS``, so a file made before migrations were counted, at
user_version 0, takes it without change); each later one moves a file one version on. A
migration runs in its own transaction with the version bump, so a kill in the middle
leaves the file at the version before it. A file whose version is newer than the code
knows is refused: an older hub must not write into a newer record.
"""

import os
import sqlite3
from collections.abc import Callable, Sequence

#: a migration: SQL text (one or more statements), or a function of the connection
Migration = str | Callable[[sqlite3.Connection], None]


class SchemaTooNew(sqlite3.DatabaseError):
    """The file was written by a newer version of this program."""


def connect(path: str, durable: bool = False, foreign_keys: bool = False) -> sqlite3.Connection:
    """Open (creating its folder) an SQLite file in autocommit mode for explicit
    transactions, shared across threads, in WAL mode. ``durable``: ``synchronous=FULL``
    (each commit reaches the disk: survives a power cut); else ``NORMAL`` (survives any
    process crash, the commit may be lost with the power)."""
    if path != ":memory:":
        os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
    db = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
    db.execute("PRAGMA journal_mode=WAL")
    db.execute("PRAGMA synchronous=%s" % ("FULL" if durable else "NORMAL"))
    if foreign_keys:
        db.execute("PRAGMA foreign_keys=ON")
    return db


def append_only(table: str, message: str, update: bool = True) -> str:
    """The triggers that refuse an UPDATE (unless ``update`` is False) and a DELETE on
    ``table`` with ``message``."""
    out = []
    if update:
        out.append("CREATE TRIGGER IF NOT EXISTS %s_no_update BEFORE UPDATE ON %s\n"
                   "    BEGIN SELECT RAISE(ABORT, '%s'); END;" % (table, table, message))
    out.append("CREATE TRIGGER IF NOT EXISTS %s_no_delete BEFORE DELETE ON %s\n"
               "    BEGIN SELECT RAISE(ABORT, '%s'); END;" % (table, table, message))
    return "\n".join(out) + "\n"


def version(db: sqlite3.Connection) -> int:
    return db.execute("PRAGMA user_version").fetchone()[0]


def migrate(db: sqlite3.Connection, migrations: Sequence[Migration], what: str = "record") -> int:
    """Bring ``db`` to ``len(migrations)``, running the ones it has not had, each with its
    version bump in one transaction. Returns the version. Raises :class:`SchemaTooNew`."""
    have, want = version(db), len(migrations)
    if have > want:
        raise SchemaTooNew("this %s is at schema version %d; this program knows up to %d: "
                           "update the program before opening it" % (what, have, want))
    for n in range(have, want):
        step = migrations[n]
        db.execute("BEGIN IMMEDIATE")
        try:
            if callable(step):
                step(db)
            else:
                for statement in _statements(step):
                    db.execute(statement)
            db.execute("PRAGMA user_version = %d" % (n + 1))
            db.execute("COMMIT")
        except BaseException:
            if db.in_transaction:
                db.execute("ROLLBACK")
            raise
    return want


def _statements(sql: str) -> list[str]:
    """SQL text as statements (``executescript`` would commit the open transaction): cut at
    each ``;`` that ends a complete statement (a trigger's body holds ``;`` inside it)."""
    out, start = [], 0
    for i, ch in enumerate(sql):
        if ch == ";" and sqlite3.complete_statement(sql[start:i + 1]):
            out.append(sql[start:i + 1].strip())
            start = i + 1
    if sql[start:].strip():
        out.append(sql[start:].strip())
    return out
