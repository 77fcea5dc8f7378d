"""Checking and salvaging a game record (issues 11.6, 28.5, 28.12): ``lumen doctor`` and the
hub's start.

A record can be damaged by a dying SD card or a flipped bit. The hub must not crash-loop on
it, nor throw away what can still be read: at start it runs SQLite's ``quick_check``; a file
that fails it (or can't be opened as a database, or listed) is salvaged in place: every game
that reads back whole is copied into a new record under the same ids (with the table log, so
the game on the table resumes), the damaged file is kept aside (``DB.damaged-<time>``) and
the hub goes on with the salvaged one. Only a file of which nothing reads back is replaced
by an empty record. Games it can't read are listed (skipped, the others stay playable).

Card tables (the cards a referee game is played with, stored once by content hash) are
checked against their hash: a damaged one is reported, with the games that need it;
salvage copies every sound one and rebuilds a damaged one from the bundled sample set or
the card library when their cards hash to its name.

``lumen doctor --db DB [--salvage NEW]`` reports, and copies into a new record.
"""

import hashlib
import itertools
import json
import os
import shutil
import sqlite3
import time
import urllib.parse

from hub.record import sqlite
from hub.record.cardtables import hashes_to
from hub.record.store import MIGRATIONS, Record, Store, StoreError
from hub.record.jsontext import table_text


class Report:
    def __init__(self, path):
        self.path = path
        self.problems = []       # SQLite's integrity findings, or why the file can't be opened
        self.games = []          # (id, status, detail) for every game row found
        self.tables = []         # (hash, [game ids]) of every damaged card table
        self.unopenable = False

    @property
    def damaged(self):
        return [g for g in self.games if g[1] == "damaged"]

    @property
    def ok(self):
        return not self.problems and not self.damaged and not self.unopenable and not self.tables

    def lines(self):
        out = []
        if self.unopenable:
            out.append("기록 파일을 열 수 없습니다 / the record can't be opened: %s: %s" % (self.path, "; ".join(self.problems)))
            return out
        for p in self.problems:
            out.append("무결성 검사 / integrity check: %s" % p)
        for gid, status, detail in self.games:
            if status == "damaged":
                out.append("게임 #%d 손상됨 / game #%d damaged: %s" % (gid, gid, detail))
        for digest, games in self.tables:
            who = ", ".join("#%d" % g for g in games) or "none"
            out.append("카드 표 %s 손상됨 (게임 %s) / card table %s damaged (games %s): lumen doctor --salvage NEW "
                       "rebuilds it if its card set is here" % (digest[:12], who, digest[:12], who))
        if self.ok:
            out.append("기록 정상 / record ok: %s (%d games)" % (self.path, len(self.games)))
        return out


def quick_check(db, full=False):
    """SQLite's quick_check (the hub's start) or its full integrity_check (``lumen doctor``:
    indexes against their tables too): [] when the file is sound, else its findings."""
    rows = [r[0] for r in db.execute("PRAGMA %s(20)" % ("integrity_check" if full else "quick_check")).fetchall()]
    return [] if rows == ["ok"] else rows


_COLUMNS = "game_id, seq, kind, wall_ms, mono_ms, seat, hidden, body"
#: the same, every text read as bytes and checked here (issue 39): a cell that is no longer
#: UTF-8 is a damaged record, not an error that stops the whole read
_RAW = ("game_id, seq, CAST(kind AS BLOB), wall_ms, mono_ms, CAST(seat AS BLOB), hidden, CAST(body AS BLOB), "
        "typeof(body)")


def tables_of(db):
    """The record's table names as this file has them: each of ours by its own name, or, when
    it is missing (renamed: issue 39), by another table that has all of its columns. Reading
    through this, a salvage finds the games of a ``records`` table someone renamed."""
    want, _ = sqlite.expected_schema(MIGRATIONS)
    have = {}
    for (name,) in db.execute("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'"):
        try:
            have[name] = {r[1] for r in db.execute("PRAGMA table_info(%s)" % sqlite.quote(name))}
        except (sqlite3.DatabaseError, ValueError):
            continue
    out = {}
    for name, cols in want.items():
        if name in have and set(cols) <= have[name]:
            out[name] = sqlite.quote(name)
            continue
        like = [n for n, c in sorted(have.items()) if set(cols) <= c and (n not in want or not set(want[n]) <= c)]
        out[name] = sqlite.quote(like[0]) if like else None
    return out


def _table(db, name):
    t = getattr(db, "lumen_tables", None)
    if t is None:
        try:
            t = tables_of(db)
        except (sqlite3.DatabaseError, ValueError):
            t = {}
        try:
            db.lumen_tables = t
        except AttributeError:       # a plain sqlite3.Connection takes no attributes: worked out each time
            pass
    found = t.get(name)
    if found is None:
        raise sqlite3.OperationalError("no table %s in this file" % name)
    return found


def _text(v):
    return v.decode("utf-8") if isinstance(v, bytes) else v


def _stored_row(raw):
    """A records row read with _RAW as the store has it (text as str, a compressed body as
    bytes); raises UnicodeDecodeError on a text cell that is not UTF-8."""
    gid, seq, kind, wall, mono, seat, hidden, body, body_type = raw
    return (gid, seq, _text(kind), wall, mono, _text(seat), hidden, _text(body) if body_type == "text" else body)


def _read_game(db, gid):
    """Every record of a game, parsed, and the rows as stored; raises on any damage."""
    records = _table(db, "records")
    try:
        raw = db.execute("SELECT %s FROM %s WHERE game_id = ? ORDER BY seq" % (_RAW, records), (gid,)).fetchall()
    except sqlite3.DatabaseError:      # a damaged index: the table itself may read whole
        raw = db.execute("SELECT %s FROM %s NOT INDEXED WHERE game_id = ? ORDER BY seq" % (_RAW, records),
                         (gid,)).fetchall()
    try:
        rows = [_stored_row(r) for r in raw]
    except UnicodeDecodeError as e:
        raise StoreError("game #%d: a record's text is damaged (%s)" % (gid, e)) from None
    recs = [Record(r) for r in rows]
    if not recs or recs[0].seq != 0 or recs[0].kind != "start":
        raise StoreError("game #%d has no start record" % gid)
    if [r.seq for r in recs] != list(range(len(recs))):
        raise StoreError("game #%d has gaps in its records" % gid)
    return recs, rows


def _stored_tables(db):
    """hash -> [stored texts, as bytes] of every card table (its rewritten copies included)."""
    out = {}
    for table, order in (("card_tables", ""), ("card_table_copies", " ORDER BY seq")):
        try:
            rows = db.execute("SELECT CAST(hash AS BLOB), CAST(body AS BLOB) FROM %s%s" % (_table(db, table), order))
            for raw, body in rows.fetchall():
                try:
                    digest = raw.decode("ascii")
                except (AttributeError, UnicodeDecodeError):
                    continue            # a damaged name: no game finds it by that name anyway
                out.setdefault(digest, []).append(body)
        except (sqlite3.DatabaseError, ValueError):
            continue
    return out


def _table_users(db, ids):
    """hash -> ids of the games whose start record names that card table."""
    users = {}
    for gid in ids:
        try:
            row = db.execute("SELECT CAST(body AS BLOB) FROM %s WHERE game_id = ? AND seq = 0" % _table(db, "records"),
                             (gid,)).fetchone()
            start = Record((gid, 0, "start", 0, None, None, 0, row[0].decode())).body if row else {}
        except (StoreError, sqlite3.DatabaseError, ValueError, TypeError, AttributeError):
            continue
        if isinstance(start.get("card_table"), str):
            users.setdefault(start["card_table"], []).append(gid)
    return users


def examine(path):
    """Report on the record at ``path`` (opened read-only: doctor changes nothing)."""
    rep = Report(path)
    if not os.path.exists(path):
        rep.unopenable = True
        rep.problems.append("no such file")
        return rep
    try:
        db = sqlite3.connect("file:%s?mode=ro" % urllib.parse.quote(path), uri=True, factory=_Source)
        try:
            rep.problems = quick_check(db, full=True)
            ids = [r[0] for r in db.execute("SELECT id FROM %s ORDER BY id" % _table(db, "games"))]
        except (sqlite3.DatabaseError, ValueError) as e:
            rep.unopenable = True
            rep.problems = [str(e)]
            db.close()
            return rep
        for gid in ids:
            try:
                recs, _ = _read_game(db, gid)
                done = any(r.kind == "finish" for r in recs)
                rep.games.append((gid, "finished" if done else "in_progress", "%d records" % len(recs)))
            except (StoreError, sqlite3.DatabaseError, ValueError) as e:
                rep.games.append((gid, "damaged", str(e)))
        users = _table_users(db, ids)
        stored = _stored_tables(db)
        for digest in sorted(set(stored) | set(users)):
            if not any(hashes_to(b, digest) for b in stored.get(digest, ())):
                rep.tables.append((digest, sorted(users.get(digest, []))))
        db.close()
    except (sqlite3.DatabaseError, ValueError) as e:
        rep.unopenable = True
        rep.problems = [str(e)]
    return rep


def salvage(path, dest, card_sources=None):
    """Copy every readable game of the record at ``path`` into a new record at ``dest``, with
    the card tables they name, the seats, the spent action ids, the table log and the hub's
    own games that read back. Records are copied as stored (the same text, the same
    compressed bytes). Returns (copied ids, skipped ids)."""
    if os.path.exists(dest):
        raise StoreError("%s exists: salvage writes a new record" % dest)
    src = sqlite3.connect("file:%s?mode=ro" % urllib.parse.quote(path), uri=True, factory=_Source)
    out = Store(dest)
    copied, skipped = [], []
    try:
        games = _games(src)
        _copy_card_tables(src, out, [g[0] for g in games], card_sources)
        for gid, created, mode, table in games:
            try:
                _, rows = _read_game(src, gid)
            except (StoreError, sqlite3.DatabaseError, ValueError):
                skipped.append(gid)
                continue
            with out._tx():
                out.db.execute("INSERT INTO games (id, created_ms, mode, table_name) VALUES (?, ?, ?, ?)",
                               (gid, created, mode, table))
                out.db.executemany("INSERT INTO records (%s) VALUES (?,?,?,?,?,?,?,?)" % _COLUMNS, rows)
            copied.append(gid)
        _copy_rows(src, out, "pod_seats", "table_name, board_id, seat")
        _copy_rows(src, out, "actions", "action_id, table_name, game_id, wall_ms",
                   lambda row: row[2] is None or row[2] in copied)
        _copy_rows(src, out, "auto_games", "game_id", lambda row: row[0] in copied)
        _copy_rows(src, out, "table_log", "table_name, seq, wall_ms, kind, body", _readable_text(4))
    finally:
        src.close()
        out.close()
    return copied, skipped


class _Source(sqlite3.Connection):
    """A read-only connection to the file being examined or salvaged (it remembers the names
    its tables go by: ``tables_of``)."""
    lumen_tables = None


def _games(src):
    """(id, created, mode, table) of every game row that reads (a row whose text is damaged is
    left out: its game can't be named right)."""
    games = _table(src, "games")
    try:
        ids = [r[0] for r in src.execute("SELECT id FROM %s ORDER BY id" % games).fetchall()]
    except (sqlite3.DatabaseError, ValueError):
        return []
    out = []
    for gid in ids:
        try:
            row = src.execute("SELECT id, created_ms, CAST(mode AS BLOB), CAST(table_name AS BLOB) FROM %s WHERE id = ?"
                              % games, (gid,)).fetchone()
            out.append((row[0], row[1], _text(row[2]), _text(row[3])))
        except (sqlite3.DatabaseError, ValueError, TypeError):
            continue
    return out


def _readable_text(i):
    def ok(row):
        try:
            json.loads(row[i])
            return True
        except (TypeError, ValueError):
            return False
    return ok


def _copy_rows(src, out, table_sql, cols, keep=None):
    """The rows of one of the record's small tables that read back (text read as bytes: a row
    with a damaged cell is left out, the others copied)."""
    try:
        raw = src.execute("SELECT %s FROM %s" % (", ".join("CAST(%s AS BLOB)" % c if c.strip() in _TEXT_COLUMNS else c
                                                          for c in cols.split(",")), _table(src, table_sql))).fetchall()
    except (sqlite3.DatabaseError, ValueError):
        return
    rows = []
    for r in raw:
        try:
            r = tuple(_text(v) for v in r)
        except UnicodeDecodeError:
            continue
        if keep is None or keep(r):
            rows.append(r)
    with out._tx():
        out.db.executemany("INSERT OR IGNORE INTO %s (%s) VALUES (%s)" % (table_sql, cols, ",".join("?" * len(cols.split(",")))),
                           rows)


#: the text columns of the small tables salvage copies row by row
_TEXT_COLUMNS = {"table_name", "board_id", "seat", "action_id", "kind", "body"}


def _copy_card_tables(src, out, ids, card_sources=None):
    """The card tables games name by hash (issue 16): the first stored copy of each that still
    hashes to its name; a table with none is rebuilt from the card sets at hand (the sample
    set, the card library) when some pair of them gives the same text (issue 28.5). A game
    whose table is lost still copies, and fails its resume naming that table."""
    stored = _stored_tables(src)
    wanted = set(stored) | set(_table_users(src, ids))
    missing = []
    for digest in sorted(wanted):
        body = next((b for b in stored.get(digest, ()) if hashes_to(b, digest)), None)
        if body is None:
            missing.append(digest)
            continue
        out._put_table(digest, _text(body))
    if missing:
        for digest, body in rebuilt_tables(missing, card_sources).items():
            out._put_table(digest, body)


def rebuilt_tables(digests, card_sources=None):
    """hash -> text, for those of ``digests`` that the cards of the sample set or of the card
    library (``card_sources``: a folder of set folders) rebuild exactly: a game's table is its
    first deck's set with the second's laid over it (Table.start_referee)."""
    sets = _card_sets(card_sources)
    found, want = {}, set(digests)
    for a, b in itertools.product(sets, repeat=2):
        cards = dict(a.cards)
        cards.update(b.cards)
        text = table_text([c.to_json() for c in cards.values()])
        digest = hashlib.sha256(text.encode()).hexdigest()
        if digest in want:
            found[digest] = text
            if len(found) == len(want):
                break
    return found


def _card_sets(folder):
    from engine.cards import load_cardset, load_sample
    out = []
    try:
        out.append(load_sample()[0])
    except Exception:        # a broken install: the library's sets may still do
        pass
    if folder and os.path.isdir(folder):
        for name in sorted(os.listdir(folder))[:64]:
            path = os.path.join(folder, name, "cards.yaml")
            if os.path.isfile(path):
                try:
                    cs, _ = load_cardset(path)
                except Exception:
                    cs = None
                if cs is not None:
                    out.append(cs)
    return out


def move_aside(path):
    """Move a record that can't be used (and its WAL) out of the way; returns the new name."""
    stamp = time.strftime("%Y%m%d-%H%M%S")
    dest = "%s.damaged-%s" % (path, stamp)
    n = 1
    while os.path.exists(dest):
        n += 1
        dest = "%s.damaged-%s-%d" % (path, stamp, n)
    for suffix in ("", "-wal", "-shm"):
        if os.path.exists(path + suffix):
            shutil.move(path + suffix, dest + suffix)
    return dest


def salvage_in_place(path, card_sources=None):
    """The hub's start on a record that fails its checks: move it aside, salvage what reads
    back into a new record at ``path``. Returns (where the old one is now, copied ids,
    skipped ids); copied is empty when nothing could be read (``path`` is then a new record)."""
    moved = move_aside(path)
    try:
        copied, skipped = salvage(moved, path, card_sources)
    except (StoreError, sqlite3.DatabaseError, OSError, ValueError):
        for suffix in ("", "-wal", "-shm"):
            if os.path.exists(path + suffix):
                os.unlink(path + suffix)
        return moved, [], []
    return moved, copied, skipped


def main(args, out=print):
    """``lumen doctor``: exit 0 if the record is sound, 1 if damaged (2: salvage failed)."""
    rep = examine(args.db)
    for line in rep.lines():
        out(line)
    if args.salvage:
        try:
            copied, skipped = salvage(args.db, args.salvage, getattr(args, "cards", None))
        except (StoreError, sqlite3.DatabaseError) as e:
            out("살리기 실패 / salvage failed: %s" % e)
            return 2
        out("살린 게임 / salvaged games: %s -> %s (%s)%s" % (
            args.db, args.salvage, ", ".join("#%d" % g for g in copied) or "none",
            ("; 건너뜀 / skipped: " + ", ".join("#%d" % g for g in skipped)) if skipped else ""))
        after = examine(args.salvage)
        for digest, games in after.tables:
            out("카드 표 %s를 되살리지 못했습니다 (게임 %s) / card table %s could not be rebuilt (games %s): "
                "put its card set in --cards" % (digest[:12], games, digest[:12], games))
    return 0 if rep.ok else 1
