"""The record's whole-file check, run once the table is serving (issue 26).

SQLite's ``quick_check`` reads every page of the file: 0.76 G instructions at 1,000 stored
games and 2.84 G at 10,000 (seconds on a Pi Zero 2 W), which the hub's start used to pay
before the display served. Now the start reads only what it needs (the schema, the table
log, the game it resumes or the one it opens) and checks the whole file only when that
stumbles (hub/cli/hub.py ``start_table``); this check runs after the display serves, on a
read-only connection of its own in a worker thread (SQLite works outside the GIL), over one
consistent snapshot while the table goes on writing. A file that fails it is salvaged in
place by the table's loop at once (``salvage_live``), as a failing start is: the hub never
goes on writing into a file with a broken b-tree.
"""

import sqlite3
import urllib.parse

from hub.record import doctor

#: how many recent games' summaries are read for damage (what the start reported before)
RECENT = 1000


def _reader(path):
    uri = "file:%s?mode=ro" % urllib.parse.quote(path)
    return sqlite3.connect(uri, uri=True, isolation_level=None, check_same_thread=False)


def check_file(path, recent=RECENT):
    """(problems, damaged): SQLite's quick_check findings ([] when the file is sound) and the
    (id, why) of the recent games whose own records don't read back (a damaged byte inside a
    body, which quick_check can't see). Never raises: a file that can't be read at all is a
    problem."""
    from hub.record.store import Store
    try:
        db = _reader(path)
    except sqlite3.Error as e:
        return ["%s: %s" % (type(e).__name__, e)], []
    try:
        try:
            problems = doctor.quick_check(db)
        except sqlite3.DatabaseError as e:
            return ["%s: %s" % (type(e).__name__, e)], []
        if problems:
            return problems, []
        try:
            games = Store.reader(db, path).games(limit=recent)
        except sqlite3.DatabaseError as e:
            return ["%s: %s" % (type(e).__name__, e)], []
        return [], [(g["id"], g.get("damage")) for g in games if g["status"] == "damaged"]
    finally:
        db.close()
