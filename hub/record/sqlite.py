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

A file is created 0600 (issue 39: a record holds the hidden readies of games in play, the
TD's outbox its results): SQLite gives its -wal and -shm files the same mode. ``schema_check``
compares a file's tables, columns and triggers with what its migrations make: a table
missing or renamed is damage (the file is salvaged, never written into), a dropped trigger
is put back.
"""

import os
import sqlite3
from collections.abc import Callable, Sequence

#: a migration: SQL text (one or more statements), or a function of the connection
Migration = str | Callable[[sqlite3.Connection], None]


class SchemaTooNew(sqlite3.DatabaseError):
    """The file was written by a newer version of this program."""


def connect(path: str, durable: bool = False, foreign_keys: bool = False, readonly: bool = False) -> sqlite3.Connection:
    """Open (creating its folder) an SQLite file in autocommit mode for explicit
    transactions, shared across threads, in WAL mode. ``durable``: ``synchronous=FULL``
    (each commit reaches the disk: survives a power cut); else ``NORMAL`` (survives any
    process crash, the commit may be lost with the power). ``readonly``: the file must
    exist and is never written (the reading commands: ``lumen games``, ``export``)."""
    if readonly:
        if not os.path.isfile(path):
            raise FileNotFoundError("no record at %s" % path)
        from urllib.parse import quote
        # no -wal file: nobody is writing it, and immutable=1 reads it without making -wal/-shm files beside it
        live = os.path.exists(path + "-wal")
        db = sqlite3.connect("file:%s?mode=ro%s" % (quote(os.path.abspath(path)), "" if live else "&immutable=1"),
                             uri=True, isolation_level=None, check_same_thread=False)
        if foreign_keys:
            db.execute("PRAGMA foreign_keys=ON")
        return db
    if path != ":memory:":
        os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
        create_private(path)
    db = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
    db.execute("PRAGMA journal_mode=WAL")
    db.execute("PRAGMA synchronous=%s" % ("FULL" if durable else "NORMAL"))
    if foreign_keys:
        db.execute("PRAGMA foreign_keys=ON")
    return db


def create_private(path: str) -> None:
    """Make ``path`` an empty file, 0600 whatever the umask, unless something is there already
    (SQLite then makes it a database; its -wal and -shm files take the same mode)."""
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_CLOEXEC, 0o600)
    except (FileExistsError, IsADirectoryError):
        return
    except OSError:
        return              # a folder we may not write: SQLite says so in its own words
    os.close(fd)


def tighten(path: str) -> None:
    """Take away what every user of the machine may read of a record made before files were
    created 0600 (and of its -wal and -shm): the owner and its group keep theirs."""
    for p in (path, path + "-wal", path + "-shm"):
        try:
            mode = os.stat(p).st_mode
            if mode & 0o007:
                os.chmod(p, mode & 0o7770)
        except OSError:
            pass


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


#: the SQLite errors that say the file can't be written (as opposed to a schema or SQL error)
UNWRITABLE = {"SQLITE_READONLY", "SQLITE_FULL", "SQLITE_IOERR", "SQLITE_CANTOPEN", "SQLITE_PERM", "SQLITE_BUSY",
              "SQLITE_LOCKED", "SQLITE_NOLFS", "SQLITE_AUTH"}


def unwritable(e: BaseException) -> bool:
    """Whether ``e`` says the file can't be written or opened (the disk, the permissions, a
    lock), not that its contents are wrong."""
    name = getattr(e, "sqlite_errorname", None)
    if name:      # SQLITE_IOERR_SHORT_READ is an SQLITE_IOERR
        return "_".join(name.split("_")[:2]) in UNWRITABLE
    return isinstance(e, OSError)


_EXPECTED: dict[tuple, tuple[dict[str, list[str]], dict[str, str]]] = {}


def expected_schema(migrations: Sequence[Migration]) -> tuple[dict[str, list[str]], dict[str, str]]:
    """(table -> its columns, trigger -> its SQL) of a file made by ``migrations`` (worked out
    once, on an in-memory database)."""
    key = tuple(id(m) for m in migrations)
    hit = _EXPECTED.get(key)
    if hit is None:
        db = sqlite3.connect(":memory:", isolation_level=None)
        try:
            migrate(db, migrations)
            hit = _EXPECTED[key] = _schema_of(db)
        finally:
            db.close()
    return hit


def _schema_of(db: sqlite3.Connection) -> tuple[dict[str, list[str]], dict[str, str]]:
    tables, triggers = {}, {}
    for kind, name, sql in db.execute("SELECT type, name, sql FROM sqlite_master WHERE type IN ('table', 'trigger')"):
        if kind == "trigger":
            triggers[name] = sql
        elif not name.startswith("sqlite_"):
            tables[name] = [r[1] for r in db.execute("PRAGMA table_info(%s)" % quote(name))]
    return tables, triggers


def quote(name: str) -> str:
    return '"%s"' % name.replace('"', '""')


def schema_check(db: sqlite3.Connection, migrations: Sequence[Migration]) -> tuple[list[str], list[str]]:
    """(problems, the SQL of missing triggers) of ``db`` against what ``migrations`` make: a
    table missing (dropped, renamed) or lacking a column is a problem; extra tables and
    columns are not (a newer program's, a renamed copy). Raises what reading the schema
    raises (a damaged file)."""
    want_tables, want_triggers = expected_schema(migrations)
    have_tables, have_triggers = _schema_of(db)
    problems = []
    for name, cols in want_tables.items():
        have = have_tables.get(name)
        if have is None:
            problems.append("table %s is missing" % name)
        else:
            lost = [c for c in cols if c not in have]
            if lost:
                problems.append("table %s has lost its column(s) %s" % (name, ", ".join(lost)))
    missing = [sql for name, sql in want_triggers.items() if name not in have_triggers]
    return problems, missing
