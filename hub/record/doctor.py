"""Checking and salvaging a game record (issue 11.6): ``lumen doctor`` and the hub's start.

A record can be damaged by a dying SD card or a flipped bit. The hub must not crash-loop on
it: at start it runs SQLite's ``quick_check``, lists games it can't read (they are skipped,
the rest stay playable), and if the file can't be opened as a database at all it is moved
aside (``DB.damaged-<time>``) and a fresh record is started, with the command that salvages
the old one. ``lumen doctor --db DB [--salvage NEW]`` reports, and copies every game whose
records all read back into a new record, under the same ids.
"""

import hashlib
import json
import os
import shutil
import sqlite3
import time

from hub.record.store import Record, Store, StoreError


class Report:
    def __init__(self, path):
        self.path = path
        self.problems = []       # SQLite's integrity findings, or why the file can't be opened
        self.games = []          # (id, status, detail) for every game row found
        self.unopenable = False

    @property
    def damaged(self):
        return [g for g in self.games if g[1] == "damaged"]

    @property
    def ok(self):
        return not self.problems and not self.damaged and not self.unopenable

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
        if self.ok:
            out.append("기록 정상 / record ok: %s (%d games)" % (self.path, len(self.games)))
        return out


def quick_check(db, full=False):
    """SQLite's quick_check (the hub's start) or its full integrity_check (``lumen doctor``:
    indexes against their tables too): [] when the file is sound, else its findings."""
    rows = [r[0] for r in db.execute("PRAGMA %s(20)" % ("integrity_check" if full else "quick_check")).fetchall()]
    return [] if rows == ["ok"] else rows


def _read_game(db, gid):
    """Every record of a game, parsed; raises on any damage."""
    rows = db.execute("SELECT game_id, seq, kind, wall_ms, mono_ms, seat, hidden, body FROM records "
                      "WHERE game_id = ? ORDER BY seq", (gid,)).fetchall()
    recs = [Record(r) for r in rows]
    if not recs or recs[0].seq != 0 or recs[0].kind != "start":
        raise StoreError("game #%d has no start record" % gid)
    if [r.seq for r in recs] != list(range(len(recs))):
        raise StoreError("game #%d has gaps in its records" % gid)
    return recs


def examine(path):
    """Report on the record at ``path`` (opened read-only: doctor changes nothing)."""
    rep = Report(path)
    if not os.path.exists(path):
        rep.unopenable = True
        rep.problems.append("no such file")
        return rep
    try:
        db = sqlite3.connect("file:%s?mode=ro" % path, uri=True)
        try:
            rep.problems = quick_check(db, full=True)
            ids = [r[0] for r in db.execute("SELECT id FROM games ORDER BY id")]
        except (sqlite3.DatabaseError, ValueError) as e:
            rep.unopenable = True
            rep.problems = [str(e)]
            db.close()
            return rep
        for gid in ids:
            try:
                recs = _read_game(db, gid)
                done = any(r.kind == "finish" for r in recs)
                rep.games.append((gid, "finished" if done else "in_progress", "%d records" % len(recs)))
            except (StoreError, sqlite3.DatabaseError, ValueError) as e:
                rep.games.append((gid, "damaged", str(e)))
        db.close()
    except (sqlite3.DatabaseError, ValueError) as e:
        rep.unopenable = True
        rep.problems = [str(e)]
    return rep


def salvage(path, dest):
    """Copy every readable game (and the seats and spent action ids that read back) of the
    record at ``path`` into a new record at ``dest``. Returns (copied ids, skipped ids)."""
    if os.path.exists(dest):
        raise StoreError("%s exists: salvage writes a new record" % dest)
    src = sqlite3.connect("file:%s?mode=ro" % path, uri=True)
    out = Store(dest)
    copied, skipped = [], []
    try:
        try:
            games = src.execute("SELECT id, created_ms, mode, table_name FROM games ORDER BY id").fetchall()
        except (sqlite3.DatabaseError, ValueError):
            games = []
        _copy_card_tables(src, out)
        for gid, created, mode, table in games:
            try:
                recs = _read_game(src, gid)
            except (StoreError, sqlite3.DatabaseError, ValueError):
                skipped.append(gid)
                continue
            with out._tx():
                out.db.execute("INSERT INTO games (id, created_ms, mode, table_name) VALUES (?, ?, ?, ?)",
                               (gid, created, mode, table))
                for r in recs:
                    out.db.execute("INSERT INTO records (game_id, seq, kind, wall_ms, mono_ms, seat, hidden, body) "
                                   "VALUES (?,?,?,?,?,?,?,?)", (gid, r.seq, r.kind, r.wall_ms, r.mono_ms, r.seat,
                                                                int(r.hidden), json.dumps(r.body, ensure_ascii=False,
                                                                                          sort_keys=True)))
            copied.append(gid)
        for table_sql, cols in (("pod_seats", "table_name, board_id, seat"),
                                ("actions", "action_id, table_name, game_id, wall_ms")):
            try:
                rows = src.execute("SELECT %s FROM %s" % (cols, table_sql)).fetchall()
            except (sqlite3.DatabaseError, ValueError):
                continue
            with out._tx():
                for row in rows:
                    out.db.execute("INSERT OR IGNORE INTO %s (%s) VALUES (%s)" % (table_sql, cols, ",".join("?" * len(row))),
                                   row)
    finally:
        src.close()
        out.close()
    return copied, skipped


def _copy_card_tables(src, out):
    """The card tables games name by hash (issue 16): each one whose body still hashes to
    its name. A game whose table is lost fails its resume with that table's name."""
    try:
        rows = src.execute("SELECT hash, body FROM card_tables").fetchall()
    except (sqlite3.DatabaseError, ValueError):
        return
    for digest, body in rows:
        try:
            cards = json.loads(body)
        except (TypeError, ValueError):
            continue
        if hashlib.sha256(body.encode()).hexdigest() == digest:
            out.put_card_table(cards)


def move_aside(path):
    """Move a record that can't be opened (and its WAL) out of the way; returns the new name."""
    stamp = time.strftime("%Y%m%d-%H%M%S")
    dest = "%s.damaged-%s" % (path, stamp)
    for suffix in ("", "-wal", "-shm"):
        if os.path.exists(path + suffix):
            shutil.move(path + suffix, dest + suffix)
    return dest


def main(args, out=print):
    """``lumen doctor``: exit 0 if the record is sound, 1 if damaged (2: salvage failed)."""
    rep = examine(args.db)
    for line in rep.lines():
        out(line)
    if args.salvage:
        try:
            copied, skipped = salvage(args.db, args.salvage)
        except (StoreError, sqlite3.DatabaseError) as e:
            out("살리기 실패 / salvage failed: %s" % e)
            return 2
        out("살린 게임 / salvaged games: %s -> %s (%s)%s" % (
            args.db, args.salvage, ", ".join("#%d" % g for g in copied) or "none",
            ("; 건너뜀 / skipped: " + ", ".join("#%d" % g for g in skipped)) if skipped else ""))
    return 0 if rep.ok else 1
