"""The durable game record: an append-only event log in SQLite (WAL).

Every input the hub accepts is written (and committed) *before* it is applied,
so killing the hub at any moment loses nothing: on restart the engine replays
the log and arrives at the same state. Records are never updated or deleted
(triggers refuse it); a game's status is derived from its records.

Record kinds: ``start`` (mode, decks, seed: all the engine needs to rebuild the
initial state; a referee game's card table by its content hash, see ``card_tables``),
``input`` (seat, decision kind, value), ``judge`` (the judge log: ready stamps, hash
commitments, reveals, deadlines), ``result`` (public events after an input; stored
zlib-compressed when long, see ``stored_body``: ``Record`` reads either form),
``finish`` (winner), ``reopen`` (an undo or a correction took the result back: the game
goes on), ``timer`` (the match clock's anchor after a change), ``note`` (anything else
worth keeping).

The table log (``table_log``, append-only too) says which game each table is playing:
a ``current`` entry whenever a game is started or resumed, so a restart resumes the game
that was on the table, not merely the newest unfinished one.

Hidden information: a ready ``input`` holds the locked card, because a restart
must restore the lock. It is marked ``hidden`` and only the hub reads it;
``public_records`` leaves hidden bodies out until the reveal record exists.
"""

import json
import os
import sqlite3
import time
import zlib

import orjson

from hub.record import sqlite
from hub.record.cardtables import CardTables
from hub.record.errors import DamagedRecord, DamagedSchema, RecordUnwritable, StoreError
from hub.record.jsontext import encode_json

SCHEMA = """
CREATE TABLE IF NOT EXISTS games (
    id          INTEGER PRIMARY KEY,
    created_ms  INTEGER NOT NULL,      -- wall clock, for people
    mode        TEXT NOT NULL,         -- referee | tracker | profile
    table_name  TEXT NOT NULL DEFAULT 'table-1'
);
CREATE TABLE IF NOT EXISTS records (
    game_id     INTEGER NOT NULL REFERENCES games(id),
    seq         INTEGER NOT NULL,
    kind        TEXT NOT NULL,
    wall_ms     INTEGER NOT NULL,
    mono_ms     INTEGER,               -- monotonic stamp (the 10-s rule), when relevant
    seat        TEXT,
    hidden      INTEGER NOT NULL DEFAULT 0,
    body        TEXT NOT NULL,
    PRIMARY KEY (game_id, seq)
);
CREATE TABLE IF NOT EXISTS pod_seats (      -- which seat a pod (by board id) sits in; not game record
    table_name  TEXT NOT NULL,
    board_id    TEXT NOT NULL,
    seat        TEXT NOT NULL,
    PRIMARY KEY (table_name, board_id)
);
CREATE TABLE IF NOT EXISTS table_log (      -- per table: which game is on it (newest entry wins)
    table_name  TEXT NOT NULL,
    seq         INTEGER NOT NULL,
    wall_ms     INTEGER NOT NULL,
    kind        TEXT NOT NULL,         -- current | seat_deck
    body        TEXT NOT NULL,
    PRIMARY KEY (table_name, seq)
);
CREATE TRIGGER IF NOT EXISTS table_log_no_update BEFORE UPDATE ON table_log
    BEGIN SELECT RAISE(ABORT, 'the table log is append-only'); END;
CREATE TRIGGER IF NOT EXISTS table_log_no_delete BEFORE DELETE ON table_log
    BEGIN SELECT RAISE(ABORT, 'the table log is append-only'); END;
CREATE TABLE IF NOT EXISTS auto_games (     -- games the hub opened by itself (listed once something is entered)
    game_id     INTEGER PRIMARY KEY REFERENCES games(id)
);
CREATE TRIGGER IF NOT EXISTS auto_games_no_delete BEFORE DELETE ON auto_games
    BEGIN SELECT RAISE(ABORT, 'the record is append-only'); END;
CREATE TABLE IF NOT EXISTS actions (        -- control action ids spent (idempotency keys), kept across restarts
    action_id   TEXT PRIMARY KEY,
    table_name  TEXT NOT NULL,
    game_id     INTEGER,
    wall_ms     INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS card_tables (   -- each card table once, by content: games name it by hash
    hash        TEXT PRIMARY KEY,      -- SHA-256 of body
    body        TEXT NOT NULL,         -- the card definitions, a JSON list
    created_ms  INTEGER NOT NULL
);
CREATE TRIGGER IF NOT EXISTS card_tables_no_update BEFORE UPDATE ON card_tables
    BEGIN SELECT RAISE(ABORT, 'the game record is append-only'); END;
CREATE TRIGGER IF NOT EXISTS card_tables_no_delete BEFORE DELETE ON card_tables
    BEGIN SELECT RAISE(ABORT, 'the game record is append-only'); END;
CREATE TRIGGER IF NOT EXISTS records_no_update BEFORE UPDATE ON records
    BEGIN SELECT RAISE(ABORT, 'the game record is append-only'); END;
CREATE TRIGGER IF NOT EXISTS records_no_delete BEFORE DELETE ON records
    BEGIN SELECT RAISE(ABORT, 'the game record is append-only'); END;
CREATE TRIGGER IF NOT EXISTS games_no_update BEFORE UPDATE ON games
    BEGIN SELECT RAISE(ABORT, 'the game record is append-only'); END;
CREATE TRIGGER IF NOT EXISTS games_no_delete BEFORE DELETE ON games
    BEGIN SELECT RAISE(ABORT, 'the game record is append-only'); END;
"""


#: 2 (issue 28.5): a card table whose stored text no longer hashes to its name (a damaged
#: byte) is stored again here by the next game that saves the same cards; ``card_tables``
#: itself stays append-only, and a reader takes the first copy that hashes right
CARD_TABLE_COPIES = """
CREATE TABLE IF NOT EXISTS card_table_copies (
    hash        TEXT NOT NULL,         -- the name games use: SHA-256 of body
    seq         INTEGER NOT NULL,
    body        TEXT NOT NULL,
    created_ms  INTEGER NOT NULL,
    PRIMARY KEY (hash, seq)
);
""" + sqlite.append_only("card_table_copies", "the game record is append-only")

#: the record's schema, one migration a version (hub/record/sqlite.py: ``PRAGMA user_version``)
MIGRATIONS = [SCHEMA, CARD_TABLE_COPIES]

class Record:
    __slots__ = ("game_id", "seq", "kind", "wall_ms", "mono_ms", "seat", "hidden", "body")

    def __init__(self, row):
        (self.game_id, self.seq, self.kind, self.wall_ms, self.mono_ms, self.seat, hidden, body) = row
        self.hidden = bool(hidden)
        try:
            if isinstance(body, bytes):       # a compressed result (see stored_body)
                body = zlib.decompress(body).decode()
            self.body = json.loads(body)
        except (TypeError, ValueError, zlib.error) as e:
            raise DamagedRecord("game #%s record %s (%s) is damaged: %s" % (self.game_id, self.seq, self.kind, e)) from None
        if not isinstance(self.body, dict):
            raise DamagedRecord("game #%s record %s (%s) is damaged: not an object" % (self.game_id, self.seq, self.kind))

    def to_json(self):
        return {"seq": self.seq, "kind": self.kind, "wall_ms": self.wall_ms, "mono_ms": self.mono_ms,
                "seat": self.seat, "hidden": self.hidden, "body": self.body}


class Store(CardTables):
    """One SQLite file holding every game of a table (or of several tables).

    ``durable=True`` uses ``synchronous=FULL`` (survives power loss on the Pi's SD
    card); the default ``NORMAL`` in WAL mode survives any process crash, which is
    what ``kill -9`` tests, at a fraction of the cost.
    """

    def __init__(self, path, durable=False, probe=True, readonly=False):
        self.path = path
        self.write_error = None      # the last write the record refused (RecordUnwritable), until one succeeds
        self._pending_action = None  # (table, action id) to keep with the next write (see spending)
        self._card_tables = {}       # hash -> parsed JSON list (None: known stored, not read yet)
        self._next = {}              # game id -> next seq, as of this store's last committed append
        self.repaired = []           # what the opening put back (a dropped trigger), for the hub to say
        self.db = None
        if readonly and not os.path.isfile(path):
            raise FileNotFoundError("no record at %s" % path)      # a reader never makes one
        try:
            self.db = sqlite.connect(path, durable=durable, foreign_keys=True, readonly=readonly)
            probe = probe and not readonly
            try:
                sqlite.migrate(self.db, MIGRATIONS, "game record")
            except sqlite3.OperationalError:
                if probe:
                    raise
                # a reader (probe=False) of a read-only record at an older version: what it
                # has reads as it is (a table a later migration adds is read as empty)
            if probe and path != ":memory:":
                self._check_schema()
                self._probe()
                sqlite.tighten(path)
        except BaseException as e:
            if self.db is not None:
                self.db.close()
            if isinstance(e, (sqlite3.OperationalError, OSError)) and sqlite.unwritable(e):
                raise RecordUnwritable(path, e) from None
            raise       # damage (a table gone, a page that does not read): the hub's start salvages it

    @classmethod
    def reader(cls, db, path):
        """A Store reading through a connection of the caller's (hub/record/check.py: a
        read-only one in the check's thread). Only its reading methods are for use."""
        self = cls.__new__(cls)
        self.path, self.db = path, db
        self.write_error, self._pending_action, self._card_tables, self._next = None, None, {}, {}
        return self

    def _check_schema(self):
        """Issue 39: a table missing or renamed (no game would read back, and the hub crashed
        at its first query) is damage, raised before anything is written; a dropped trigger
        (the append-only guard) is put back."""
        problems, missing = sqlite.schema_check(self.db, MIGRATIONS)
        if problems:
            raise DamagedSchema("the record's tables are damaged: %s" % "; ".join(problems))
        if missing:
            with self._tx():
                for sql in missing:
                    self.db.execute(sql)
            self.repaired.append("put back %d dropped trigger(s) that keep the record append-only" % len(missing))

    def _probe(self):
        """A write that changes nothing, at start: a read-only file or file system says so now,
        not at the first ready. (A disk that fills up later is reported when it does.)"""
        self.db.execute("BEGIN IMMEDIATE")
        try:
            self.db.execute("INSERT INTO actions (action_id, table_name, wall_ms) VALUES ('-probe-', '', 0)")
        finally:
            self.db.execute("ROLLBACK")

    def close(self):
        self.db.close()

    # ------------------------------------------------------------ writing
    def new_game(self, mode, start_body, table_name="table-1", action=None, items=()):
        """Create a game with its ``start`` record (and ``items``, as for append_many: what
        the start produced) in one transaction. Returns its id."""
        if mode not in MODES:
            raise StoreError("mode must be one of %s, not %r" % (", ".join(MODES), mode))
        now = int(time.time() * 1000)
        with self._tx():
            cur = self.db.execute("INSERT INTO games (created_ms, mode, table_name) VALUES (?, ?, ?)",
                                  (now, mode, table_name))
            gid = cur.lastrowid
            self._insert(gid, 0, "start", None, None, False, start_body, now)
            for seq, (kind, body, seat, mono_ms, hidden) in enumerate(items, 1):
                self._insert(gid, seq, kind, seat, mono_ms, hidden, body, now)
            self._spend(action, gid, now)
        return gid

    def append(self, game_id, kind, body, seat=None, mono_ms=None, hidden=False, action=None):
        """Append one record; returns its sequence number. Committed when this returns."""
        return self.append_many(game_id, [(kind, body, seat, mono_ms, hidden)], action=action)

    def append_many(self, game_id, items, action=None):
        """Append several records in one transaction: items of (kind, body, seat, mono_ms, hidden).
        ``action``: (table name, action id) spent in the same transaction. Returns the last seq."""
        now = int(time.time() * 1000)
        try:
            with self._tx():
                first = self.next_seq(game_id)
                self.db.executemany(_INSERT, [(game_id, seq, kind, now, mono_ms, seat, 1 if hidden else 0,
                                               stored_body(kind, body))
                                              for seq, (kind, body, seat, mono_ms, hidden) in enumerate(items, first)])
                self._spend(action, game_id, now)
        except BaseException:
            self._next.pop(game_id, None)       # whatever happened, ask the file next time
            raise
        self._next[game_id] = first + len(items)
        return first + len(items) - 1

    def next_seq(self, game_id):
        """The seq the next record of a game gets (the hub is the record's only writer: issue 11.5).
        After this store's own committed append it is known without asking the file (two
        queries a decision less); a record written past it some other way makes the next
        append fail on the primary key, never overwrite or skip a seq."""
        seq = self._next.get(game_id)
        if seq is not None:
            return seq
        row = self.db.execute("SELECT MAX(seq) FROM records WHERE game_id = ?", (game_id,)).fetchone()
        if row[0] is None:
            raise StoreError("no game %r" % (game_id,))
        return row[0] + 1

    # ------------------------------------------------------------ control action ids (idempotency keys)
    def action_spent(self, action_id):
        return self.db.execute("SELECT 1 FROM actions WHERE action_id = ?", (action_id,)).fetchone() is not None

    def spend_action(self, action):
        """Keep an action id that wrote nothing else (e.g. resuming a game)."""
        with self._tx():
            self._spend(action, None, int(time.time() * 1000))

    def spending(self, table_name, action_id):
        """``with store.spending(table, id):`` the id is kept with the first write made inside
        the block (in its transaction), or alone at the end if nothing was written; an error
        inside the block keeps nothing, so a refused action does not spend its id."""
        return _Spending(self, (table_name, action_id))

    def _spend(self, action, game_id, now):
        if action is None and self._pending_action is not None:
            action, self._pending_action = self._pending_action, None
        if action is not None:
            table_name, action_id = action
            self.db.execute("INSERT INTO actions (action_id, table_name, game_id, wall_ms) VALUES (?, ?, ?, ?)",
                            (action_id, table_name, game_id, now))

    def _tx(self):
        return _tx(self)

    def _insert(self, gid, seq, kind, seat, mono_ms, hidden, body, now):
        self.db.execute(_INSERT, (gid, seq, kind, now, mono_ms, seat, 1 if hidden else 0, stored_body(kind, body)))

    # ------------------------------------------------------------ pod seats (not part of the game record)
    def seat_of(self, table_name, board_id):
        row = self.db.execute("SELECT seat FROM pod_seats WHERE table_name = ? AND board_id = ?",
                              (table_name, board_id)).fetchone()
        return row[0] if row else None

    def seats(self, table_name):
        return dict(self.db.execute("SELECT board_id, seat FROM pod_seats WHERE table_name = ?", (table_name,)).fetchall())

    def remember_seat(self, table_name, board_id, seat):
        with self._tx():
            self.db.execute("DELETE FROM pod_seats WHERE table_name = ? AND seat = ?", (table_name, seat))
            self.db.execute("INSERT OR REPLACE INTO pod_seats (table_name, board_id, seat) VALUES (?, ?, ?)",
                            (table_name, board_id, seat))

    def forget_seats(self, table_name):
        with self._tx():
            self.db.execute("DELETE FROM pod_seats WHERE table_name = ?", (table_name,))

    # ------------------------------------------------------------ the table log
    def set_current(self, table_name, game_id, auto=False):
        """Remember that ``table_name`` is playing ``game_id`` (committed when this returns).
        ``auto``: the hub opened it by itself (at start), not a judge: while nothing is entered
        in it, the recent games leave it out."""
        if self.current_game(table_name) == game_id:
            return
        with self._tx():
            row = self.db.execute("SELECT COALESCE(MAX(seq), -1) FROM table_log WHERE table_name = ?",
                                  (table_name,)).fetchone()
            self.db.execute("INSERT INTO table_log (table_name, seq, wall_ms, kind, body) VALUES (?, ?, ?, 'current', ?)",
                            (table_name, row[0] + 1, int(time.time() * 1000), json.dumps({"game_id": game_id, "auto": bool(auto)})))
            if auto:
                self.db.execute("INSERT OR IGNORE INTO auto_games (game_id) VALUES (?)", (game_id,))

    def register_seat_deck(self, table_name, seat, entry):
        """Remember the deck registered for a table's seat (the card page: set, deck, name,
        opening or none): a ``seat_deck`` entry in the table log, the newest per seat wins."""
        with self._tx():
            row = self.db.execute("SELECT COALESCE(MAX(seq), -1) FROM table_log WHERE table_name = ?",
                                  (table_name,)).fetchone()
            self.db.execute("INSERT INTO table_log (table_name, seq, wall_ms, kind, body) VALUES (?, ?, ?, 'seat_deck', ?)",
                            (table_name, row[0] + 1, int(time.time() * 1000), dumps({"seat": seat, "entry": entry})))

    def seat_decks(self, table_name):
        """Seat -> the deck last registered for it at ``table_name`` (see register_seat_deck)."""
        out = {}
        for (body,) in self.db.execute("SELECT body FROM table_log WHERE table_name = ? AND kind = 'seat_deck' "
                                       "ORDER BY seq", (table_name,)):
            try:
                b = json.loads(body)
                out[b["seat"]] = b["entry"]
            except (ValueError, KeyError, TypeError):      # a damaged entry: the others still count
                continue
        return out

    def current_game(self, table_name):
        """The game ``table_name`` was last playing, or None."""
        # read as bytes (issue 39): a damaged entry is skipped, the one before it counts
        for (body,) in self.db.execute("SELECT CAST(body AS BLOB) FROM table_log WHERE table_name = ? AND "
                                       "kind = 'current' ORDER BY seq DESC LIMIT 16", (table_name,)):
            try:
                gid = json.loads(body)["game_id"]
            except (TypeError, ValueError, KeyError):
                continue
            if isinstance(gid, int):
                return gid
        return None

    # ------------------------------------------------------------ reading
    def records(self, game_id, kinds=None):
        q = "SELECT game_id, seq, kind, wall_ms, mono_ms, seat, hidden, body FROM records WHERE game_id = ?"
        args = [game_id]
        if kinds:
            q += " AND kind IN (%s)" % ",".join("?" * len(kinds))
            args += list(kinds)
        q += " ORDER BY seq"
        try:
            return [Record(r) for r in self.db.execute(q, args)]
        except (sqlite3.DatabaseError, UnicodeDecodeError) as e:    # a torn page, a garbled text cell
            raise DamagedRecord("game #%s can't be read: %s" % (game_id, e)) from None

    def game(self, game_id):
        row = self.db.execute("SELECT id, created_ms, mode, table_name FROM games WHERE id = ?", (game_id,)).fetchone()
        if row is None:
            return None
        return self._summary(row)

    def _summary(self, row):
        try:
            return self._read_summary(row)
        except (DamagedRecord, sqlite3.DatabaseError, ValueError, TypeError, AttributeError) as e:
            # a damaged game is listed as such and skipped; the others stay readable (issue 11.6)
            gid, created, mode, table = row
            return {"id": gid, "created_ms": created or 0, "mode": mode, "table": table, "status": "damaged",
                    "winner": None, "records": 0, "last_ms": None, "start": None, "damage": str(e)}

    def _read_summary(self, row):
        gid, created, mode, table = row
        if mode not in MODES:
            raise DamagedRecord("game #%s: its mode is damaged (%r)" % (gid, mode))
        # the newest finish or reopen decides: an undone KO reopens the game
        fin = self.db.execute("SELECT body, kind FROM records WHERE game_id = ? AND kind IN ('finish', 'reopen') "
                              "ORDER BY seq DESC LIMIT 1", (gid,)).fetchone()
        count = self.db.execute("SELECT COUNT(*), MAX(wall_ms) FROM records WHERE game_id = ?", (gid,)).fetchone()
        start = self.db.execute("SELECT body FROM records WHERE game_id = ? AND seq = 0", (gid,)).fetchone()
        finish = json.loads(fin[0]) if fin and fin[1] == "finish" else None
        start = json.loads(start[0]) if start else None
        if not isinstance(start, dict) or (finish is not None and not isinstance(finish, dict)):
            raise DamagedRecord("game #%s: its start or finish record is damaged" % gid)
        return {"id": gid, "created_ms": created, "mode": mode, "table": table,
                "status": "finished" if finish else "in_progress",
                "winner": finish.get("winner") if finish else None,
                "records": count[0], "last_ms": count[1], "start": start}

    def games(self, limit=10, table_name=None, keep=()):
        """The most recent games, newest first (the calculator keeps the last 10). A game the
        hub opened by itself (``set_current(auto=True)``) with nothing entered is left out
        unless its id is in ``keep`` (the one on the table): a restart never pushes a played
        game off the list."""
        keep = [k for k in keep if k is not None]
        q = ("SELECT id, created_ms, mode, table_name FROM games g WHERE (NOT EXISTS (SELECT 1 FROM auto_games a "
             "WHERE a.game_id = g.id) OR EXISTS (SELECT 1 FROM records r WHERE r.game_id = g.id AND r.kind = 'input')%s)" % (
                 " OR g.id IN (%s)" % ",".join("?" * len(keep)) if keep else ""))
        args = list(keep)
        if table_name:
            q += " AND table_name = ?"
            args.append(table_name)
        q += " ORDER BY id DESC LIMIT ?"
        args.append(limit)
        try:
            rows = self.db.execute(q, args).fetchall()
        except (sqlite3.DatabaseError, ValueError):
            # a cell that does not read (issue 39: a name no longer UTF-8): the ids, then each row
            # by itself, its text as bytes; one damaged row is listed as damaged, not the list lost
            ids = self.db.execute(q.replace("SELECT id, created_ms, mode, table_name", "SELECT id", 1), args).fetchall()
            rows = [self._raw_game_row(gid) for (gid,) in ids]
        return [self._summary(r) for r in rows]

    def _raw_game_row(self, gid):
        row = self.db.execute("SELECT id, created_ms, CAST(mode AS BLOB), CAST(table_name AS BLOB) FROM games "
                              "WHERE id = ?", (gid,)).fetchone()
        return (row[0], row[1]) + tuple(v.decode("utf-8", "replace") if isinstance(v, bytes) else v for v in row[2:])

    def latest_unfinished(self, table_name="table-1"):
        """For a record written before the table log: the newest unfinished game."""
        for g in self.games(limit=50, table_name=table_name):
            if g["status"] == "in_progress":
                return g
        return None

    def public_records(self, game_id):
        """The log as a spectator may read it: a hidden record's body is left out until
        its reveal (a ``judge`` record with ``event: reveal`` naming its seq)."""
        recs = self.records(game_id)
        revealed = set()
        for r in recs:
            if r.kind == "judge" and r.body.get("event") == "reveal":
                revealed.update(r.body.get("reveals", []))
        out = []
        for r in recs:
            d = r.to_json()
            if r.kind == "start":
                d["body"] = public_start(r.body)
            elif r.hidden and r.seq not in revealed:
                d["body"] = {"hidden": True, "kind": r.body.get("kind")}
            out.append(d)
        return out


#: the modes a game's record may have (hub/sessions/table.py SESSIONS plays each)
MODES = ("referee", "tracker", "profile")
_INSERT = "INSERT INTO records (game_id, seq, kind, wall_ms, mono_ms, seat, hidden, body) VALUES (?,?,?,?,?,?,?,?)"


_SORTED = orjson.OPT_SORT_KEYS


def _utf8(body):
    """A body's stored JSON as UTF-8 bytes: orjson (a sixth of the C json encoder's
    instructions on these small sorted bodies, issue 16). The same text as ``json.dumps``
    (``encode_json``) for the plain data the hub records (a test checks every body of several
    games), the same value read back for any body (a float with an exponent is written
    ``1e16``, not ``1e+16``); what orjson refuses (a key that is not a string, an integer
    past 64 bits) or writes as ``null`` (also NaN, infinity) goes through ``encode_json``, as
    before (a few bodies in a hundred have a null)."""
    try:
        raw = orjson.dumps(body, option=_SORTED)
    except TypeError:
        return encode_json(body).encode()
    if b"null" in raw:          # None, or a NaN / infinity orjson writes as null (json: NaN): json's text
        return encode_json(body).encode()
    return raw


def dumps(body):
    """A record body as stored: compact JSON, keys sorted, UTF-8 text (Korean stays readable)."""
    return _utf8(body).decode()


#: ``result`` bodies longer than this (bytes of JSON) are stored zlib-compressed (a BLOB): they
#: are the public events of each decision, ~60 % of a game's record as text and half that
#: compressed (issue 16: the record under 40 KB a game). Every other kind stays readable JSON text.
COMPRESS_RESULTS_OVER = 200
#: how: a fast level and a 4 KB window (a result is ~0.8 KB of text): half the instructions of
#: ``zlib.compress(text, 9)`` for ~4 % more bytes; any zlib reader inflates it (the stream's
#: header names its window), so records written either way read the same.
ZLIB_LEVEL, ZLIB_WBITS, ZLIB_MEMLEVEL = 3, 12, 4


def stored_body(kind, body):
    raw = _utf8(body)
    if kind == "result" and len(raw) > COMPRESS_RESULTS_OVER:
        z = zlib.compressobj(ZLIB_LEVEL, zlib.DEFLATED, ZLIB_WBITS, ZLIB_MEMLEVEL)
        return z.compress(raw) + z.flush()
    return raw.decode()


def _refused_write(exc):
    """A write error that is the record's, not the caller's (a duplicate key or the
    append-only trigger is the caller's: those stay as they are)."""
    return isinstance(exc, sqlite3.DatabaseError) and not isinstance(exc, sqlite3.IntegrityError)


class _tx:
    """BEGIN IMMEDIATE ... COMMIT, rolled back on error (autocommit connection). A write the
    database refuses (full, read-only, I/O) becomes RecordUnwritable, kept on the store for
    the page until a write succeeds."""

    def __init__(self, store):
        self.store = store
        self.db = store.db

    def __enter__(self):
        try:
            self.db.execute("BEGIN IMMEDIATE")
        except sqlite3.DatabaseError as e:
            raise self._unwritable(e) from None

    def __exit__(self, exc_type, exc, tb):
        if exc_type is None:
            try:
                self.db.execute("COMMIT")
            except sqlite3.DatabaseError as e:
                self._rollback()
                raise self._unwritable(e) from None
            self.store.write_error = None
            return False
        self._rollback()
        if _refused_write(exc):
            raise self._unwritable(exc) from None
        return False

    def _rollback(self):
        if self.db.in_transaction:
            try:
                self.db.execute("ROLLBACK")
            except sqlite3.Error:
                pass

    def _unwritable(self, e):
        err = RecordUnwritable(self.store.path, e)
        self.store.write_error = err
        return err


class _Spending:
    def __init__(self, store, action):
        self.store, self.action = store, action

    def __enter__(self):
        self.store._pending_action = self.action

    def __exit__(self, exc_type, exc, tb):
        pending = self.store._pending_action
        self.store._pending_action = None
        if exc_type is None and pending is not None:
            self.store.spend_action(pending)
        return False


def public_start(body):
    """The public part of a start record: no deck lists (the side deck is face down)."""
    out = {k: body[k] for k in ("format", "meta", "priority", "names") if k in body}
    decks = body.get("decks") or {}
    out["characters"] = {seat: (d.get("character") or {}).get("name") for seat, d in decks.items()}
    out["ultimates"] = {seat: d.get("ultimate") for seat, d in decks.items()}
    if "tracker" in body:
        out["tracker"] = body["tracker"]
    if "profile" in body:           # a profile game: which profile (its id and hash), how many seats, who plays what
        p = body["profile"]
        out["profile"] = {"id": p.get("id"), "hash": p.get("hash"), "name": (p.get("body") or {}).get("name")}
        out["players"] = body.get("players")
        out["characters"] = {seat: (c or {}).get("name") for seat, c in (body.get("characters") or {}).items()}
        out["card_set"] = body.get("card_set")
    return out
