"""The stores' shared SQLite helper (hub/record/sqlite.py): numbered migrations by
``PRAGMA user_version``, a newer file refused, append-only triggers, one transaction a step."""

import sqlite3

import pytest

from hub.record import sqlite
from hub.record.store import MIGRATIONS, Store
from hub.tournament.delivery import Outbox
from hub.tournament.record import EventRecord


def test_migrations_run_once_each_and_count_the_version(tmp_path):
    path = str(tmp_path / "x.sqlite3")
    steps = ["CREATE TABLE a (x INTEGER);" + sqlite.append_only("a", "a is append-only"),
             "ALTER TABLE a ADD COLUMN y TEXT;",
             lambda db: db.execute("INSERT INTO a (x, y) VALUES (1, 'one')")]
    db = sqlite.connect(path)
    assert sqlite.migrate(db, steps[:2]) == 2 and sqlite.version(db) == 2
    assert sqlite.migrate(db, steps) == 3          # only the new step runs
    assert sqlite.migrate(db, steps) == 3          # and never again
    assert db.execute("SELECT x, y FROM a").fetchall() == [(1, "one")]
    with pytest.raises(sqlite3.IntegrityError, match="a is append-only"):
        db.execute("DELETE FROM a")
    with pytest.raises(sqlite3.IntegrityError, match="a is append-only"):
        db.execute("UPDATE a SET x = 2")


def test_a_failed_step_leaves_the_file_at_the_version_before(tmp_path):
    db = sqlite.connect(str(tmp_path / "x.sqlite3"))
    sqlite.migrate(db, ["CREATE TABLE a (x INTEGER);"])
    with pytest.raises(sqlite3.OperationalError):
        sqlite.migrate(db, ["CREATE TABLE a (x INTEGER);", "INSERT INTO a VALUES (1); INSERT INTO nowhere VALUES (2);"])
    assert sqlite.version(db) == 1 and db.execute("SELECT COUNT(*) FROM a").fetchone() == (0,)


def test_a_record_from_a_newer_hub_is_refused_not_written(tmp_path):
    path = str(tmp_path / "games.sqlite3")
    Store(path).close()
    db = sqlite3.connect(path)
    db.execute("PRAGMA user_version = %d" % (len(MIGRATIONS) + 1))
    db.close()
    with pytest.raises(sqlite.SchemaTooNew, match="update the program"):
        Store(path)


def test_a_record_made_before_versions_were_counted_takes_version_1_unchanged(tmp_path):
    path = str(tmp_path / "old.sqlite3")
    db = sqlite3.connect(path)
    db.executescript(MIGRATIONS[0])          # what every older hub wrote, at user_version 0
    db.execute("INSERT INTO games (created_ms, mode, table_name) VALUES (1, 'tracker', 'table-1')")
    db.commit()
    db.close()
    s = Store(path)
    assert sqlite.version(s.db) == len(MIGRATIONS) and [g["id"] for g in s.games()] == [1]


def test_all_three_stores_are_numbered(tmp_path):
    for make in (lambda p: Store(p), lambda p: EventRecord(p), lambda p: Outbox(p)):
        path = str(tmp_path / ("%d.sqlite3" % id(make)))
        store = make(path)
        assert sqlite.version(store.db) >= 1
        assert store.db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        store.close()
