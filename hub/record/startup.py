"""The record at a hub's start: whatever is at its path, the hub comes up (issues 11.6, 28.12, 39).

Under systemd (``Restart=always``) a start that fails is a crash loop and a dark table, so
nothing the file can be stops the start:

* something that is not a file where the record goes (a directory, a FIFO, a device) is moved
  aside, and a new record started;
* a file that can't be opened as a database, fails SQLite's quick_check, lacks one of the
  record's tables (dropped, renamed), was written by a newer version of the program, or can
  no longer be written though its folder can (its permissions) is **salvaged in place**:
  moved aside whole (``DB.damaged-<time>``, for ``lumen doctor``) and every game that reads
  back copied, under the same ids, into a new record at ``DB`` (``doctor.salvage_in_place``);
* a dropped trigger (the append-only guard) is put back where it was.

Nothing readable is thrown away: the old file is kept whole, and its readable games go on.
Only a folder the hub can't write at all (a read-only file system) stops the start, with a
message that says so: nothing it would show could be kept.
"""

import os
import stat

from hub.record import doctor
from hub.record.sqlite import SchemaTooNew
from hub.record.store import RecordUnwritable, Store


def clear_the_path(path, out):
    """Move aside whatever is at ``path`` that is not a regular file (a directory, a FIFO, a
    socket, a device), so the record can be made there; SQLite would refuse a directory and
    wait forever on a FIFO. Returns where it went, or None."""
    try:
        st = os.stat(path)
    except OSError:
        return None             # nothing there (or a dangling link: SQLite makes the file it names)
    if stat.S_ISREG(st.st_mode):
        return None
    what = "directory" if stat.S_ISDIR(st.st_mode) else "FIFO" if stat.S_ISFIFO(st.st_mode) else "special file"
    try:
        moved = doctor.move_aside(path)
    except OSError as e:        # a folder that can't be written: nothing could be kept there
        raise RecordUnwritable(path, e) from None
    out("기록 자리에 파일이 아닌 것(%s)이 있어 옆으로 옮기고 새 기록을 시작합니다 / a %s was where the record goes: "
        "moved to %s, a new record started" % (what, what, moved))
    return moved


def _read_only_file(path):
    """Whether ``path`` is a file this process may not write in a folder it may (its own
    permissions, or an immutable copy restored from a backup): salvaged into a new file."""
    folder = os.path.dirname(os.path.abspath(path))
    return os.path.exists(path) and not os.access(path, os.W_OK) and os.access(folder, os.W_OK)


def open_record(path, durable, out, lock=None, cards=None, check=True):
    """The record for this hub, opened or, failing that, salvaged in place (see the module's
    note): games and card tables that can't be read are reported (those games are skipped).
    ``lock``: the RecordLock held on ``path``, moved to the salvaged file. ``check=False``
    (``lumen hub``'s start, issue 26): the file is opened, not read whole; the whole-file
    check runs once the display serves (hub/cli/hub.py ``record_check``), or at once if the
    start stumbles (``start_table``), so a start costs the same at 10 games or 10,000.
    Raises RecordUnwritable only when the record's folder can't be written."""
    store, why = None, None
    try:
        store = Store(path, durable=durable)
        if check:
            why = "; ".join(doctor.quick_check(store.db)) or None
    except RecordUnwritable as e:
        if not _read_only_file(path):
            raise
        why = "the file can't be written (%s)" % e.cause
    except SchemaTooNew as e:
        why = "%s; the file is kept whole for that version" % e
    except Exception as e:      # sqlite3.DatabaseError, a table gone, a page that garbles even its message
        why = "%s: %s" % (type(e).__name__, e)
    if why is not None:
        store = salvage(path, durable, out, why, store, lock, cards)
    for line in store.repaired:
        out("기록의 트리거를 복구했습니다 / the record was repaired: %s" % line)
    if check:
        try:
            games = store.games(limit=1000)
        except Exception as e:    # a start that checks: the file was sound a moment ago
            store = salvage(path, durable, out, "%s: %s" % (type(e).__name__, e), store, lock, cards)
            games = store.games(limit=1000)
        report_damaged(((g["id"], g.get("damage")) for g in games if g["status"] == "damaged"), out)
    try:
        damaged_tables = store.damaged_card_tables()
    except Exception as e:       # reported by the games that need them, as they are resumed
        damaged_tables = []
        out("카드 표를 확인할 수 없습니다 / the card tables can't be checked: %s" % e)
    rebuilt = _rebuild(store, damaged_tables, cards, out)
    for digest in damaged_tables:
        if digest not in rebuilt:
            out("카드 표 %s 손상됨: 같은 카드로 게임을 시작하면 다시 씁니다 / card table %s is damaged: the games played "
                "with it resume once a game with the same cards is started (lumen doctor --db %s)"
                % (digest[:12], digest[:12], path))
    return store


def _rebuild(store, digests, cards, out):
    """Write again, now, the damaged card tables that the sample set or the card library
    rebuild exactly (issue 39: the game on the table resumes at this start, not only once
    a new game with the same cards has rewritten its table). Returns the hashes rebuilt."""
    if not digests:
        return set()
    try:
        found = doctor.rebuilt_tables(digests, cards)
        for digest, text in found.items():
            store._put_table(digest, text)
    except Exception as e:       # the games that need them say so as they are resumed
        out("카드 표를 다시 쓸 수 없습니다 / the card tables can't be rebuilt: %s" % e)
        return set()
    for digest in found:
        out("카드 표 %s 손상됨: 같은 카드로 다시 썼습니다 / card table %s was damaged: written again from the same "
            "cards (the sample set or the card library)" % (digest[:12], digest[:12]))
    return set(found)


def _short(why, lines=3):
    """A finding of SQLite's check, kept to a few lines' worth on one line."""
    parts = [p.strip() for p in str(why).replace("\n", "; ").split("; ") if p.strip() and not p.startswith("***")]
    more = len(parts) - lines
    return "; ".join(parts[:lines]) + ("; %d more" % more if more > 0 else "")


def salvage(path, durable, out, why, store=None, lock=None, cards=None):
    """The record at ``path`` failed its check (``why``): closed, salvaged in place, reopened."""
    if store is not None:
        try:
            store.close()
        except Exception:
            pass
    moved, copied, skipped = doctor.salvage_in_place(path, cards)
    if lock is not None:
        lock.follow(path)       # the lock held the old file: hold the new one now
    why = _short(why)
    if copied:
        out("기록을 그대로 쓸 수 없어 읽을 수 있는 게임을 새 기록으로 살렸습니다 / the record can't be used as it is "
            "(%s): games %s were salvaged and go on%s; the old file is kept whole as %s (lumen doctor --db %s)"
            % (why, ", ".join("#%d" % g for g in copied),
               ("; games %s could not be read" % ", ".join("#%d" % g for g in skipped)) if skipped else "",
               moved, moved))
    else:
        out("기록을 그대로 쓸 수 없고 읽을 수 있는 게임이 없어 옆으로 옮겼습니다 / the record can't be used as it is "
            "(%s) and no game could be read from it: kept whole as %s, a new record started (lumen doctor --db %s)"
            % (why, moved, moved))
    return Store(path, durable=durable)


def start_afresh(path, durable, out, why, store=None, lock=None):
    """The last resort of a start (issue 39): the record, even salvaged, does not start a
    game (``why``); it is moved aside whole and the table starts on a new one."""
    if store is not None:
        try:
            store.close()
        except Exception:
            pass
    moved = doctor.move_aside(path)
    if lock is not None:
        lock.follow(path)
    out("기록으로 게임을 시작할 수 없어 옆으로 옮기고 새 기록을 시작합니다 / no game starts on the record (%s): "
        "it is kept whole as %s, a new record started (lumen doctor --db %s)" % (_short(why), moved, moved))
    return Store(path, durable=durable)


def report_damaged(damaged, out):
    for gid, why in damaged:
        out("게임 #%d 손상됨, 건너뜀 / game #%d is damaged, skipped: %s" % (gid, gid, why))


def whole_check(store):
    """quick_check now, on the store's own connection: the findings as one line, or None."""
    try:
        return "; ".join(doctor.quick_check(store.db)) or None
    except Exception as e:
        return "%s: %s" % (type(e).__name__, e)
