"""``lumen games``, ``lumen export`` and ``lumen replay``: the game record from the command line."""

from engine import josa
import json
import sys
import time


NO_RECORD = ("기록이 없습니다 / no record at %s: %s is not a file (lumen hub keeps its record in "
             "~/.local/share/lumen/games.sqlite3, or --db; lumen demo keeps one only with --db)")


def _open_store(path):
    """The record, opened read-only: a reading command never writes, and a path that holds no
    record (a typo, a folder that isn't there) is an error, not a new empty record (issue 34.6)."""
    from hub.record.store import Store
    return Store(path, probe=False, readonly=True)


def games(args):
    import sqlite3
    from hub.record.store import StoreError, public_start
    try:
        store = _open_store(args.db)
        rows = store.games(args.limit)
    except FileNotFoundError:
        print(NO_RECORD % (args.db, args.db), file=sys.stderr)
        return 1
    except (StoreError, sqlite3.DatabaseError, ValueError, OSError) as e:
        print("기록을 읽을 수 없습니다 / the record can't be read: %s: %s (lumen doctor --db %s)" % (args.db, e, args.db),
              file=sys.stderr)
        return 1
    if not rows:
        print("기록된 게임이 없습니다 / no games recorded in %s" % args.db)
    for g in rows:
        if g["status"] == "damaged":
            print("#%d  %s  damaged / 손상됨: %s (lumen doctor --db %s)" % (
                g["id"], g["mode"], g.get("damage"), args.db))
            continue
        chars = public_start(g["start"] or {}).get("characters") or {}
        print("#%d  %s  %-8s  %-11s  %s  winner=%s  records=%d" % (
            g["id"], time.strftime("%Y-%m-%d %H:%M", time.localtime(g["created_ms"] / 1000)), g["mode"],
            g["status"], " vs ".join(str(chars.get(s) or (g["start"] or {}).get("tracker", {}).get(s) or "?") for s in "ab"),
            g["winner"], g["records"]))
    return 0


def export(args):
    """``lumen export``: a damaged record is an error message naming it, never a traceback
    (issue 28.12); a game it can't read is named with what is wrong."""
    try:
        from hub.sessions.table import Table
        try:
            store = _open_store(args.db)
        except FileNotFoundError:
            print(NO_RECORD % (args.db, args.db), file=sys.stderr)
            return 1
        try:
            if store.game(args.game) is None:
                print(josa("기록에 게임 #%d이(가) 없습니다 / no game #%d in %s" % (args.game, args.game, args.db)), file=sys.stderr)
                return 1
            data = Table(store).export(args.game)
            text = json.dumps(data, ensure_ascii=False, indent=1)
        finally:
            store.close()
    except Exception as e:       # sqlite3.DatabaseError, DamagedRecord, a garbled cell: all the same to the user
        print("내보내기 실패 / export failed: %s: %s: %s (lumen doctor --db %s)" % (args.db, type(e).__name__, e, args.db),
              file=sys.stderr)
        return 1
    if args.out and args.out != "-":
        try:
            with open(args.out, "w", encoding="utf-8") as f:
                f.write(text)
        except OSError as e:
            print("%s: cannot write: %s" % (args.out, e.strerror or e), file=sys.stderr)
            return 1
        print("wrote %s (%s)" % (args.out, "complete" if data["complete"] else "public part only: unfinished"))
    else:
        print(text)
    return 0


def replay(args):
    from hub.record.export import load_export
    from hub.sessions.replay import replay_export
    try:
        data = load_export(args.file)
    except (OSError, ValueError) as e:
        print("%s: cannot read a match export: %s" % (args.file, e), file=sys.stderr)
        return 1
    out = (lambda s: None) if args.quiet else print
    ok, message = replay_export(data, out=out, lang=args.lang)
    print(("OK " if ok else "MISMATCH ") + message)
    return 0 if ok else 1
