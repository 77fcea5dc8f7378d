"""The ``lumen`` command line."""

import argparse
import json
import os
import sys
import time

DEFAULT_DB = os.environ.get("LUMEN_DB", os.path.join(os.path.expanduser("~"), ".local", "share", "lumen", "games.sqlite3"))


def _scenario(args):
    from engine.scenario import report, run_paths
    text, code = report(run_paths(args.files), as_json=args.json)   # directories expanded
    print(text)
    return code


def _cards_check(args):
    from engine.decks import check_path
    status = 0
    for path in args.paths:
        checked, problems = check_path(path)
        for p in problems:
            print(p)
        if problems:
            status = 1
        elif not checked:
            print("%s: no card or deck files found" % path)
            status = 1
        else:
            for f in checked:
                print("OK %s" % f)
    if status:
        print("문제가 있습니다 / problems found", file=sys.stderr)
    return status


def _demo(args):
    if args.text:
        from hub.cli.demo import run_text_demo
        return run_text_demo(seed=args.seed, lang=args.lang, games=args.games or 1, quiet=args.quiet)
    from hub.cli.demo import run_table_demo
    if args.bots and args.play:
        print("--bots and --play cannot go together: --bots means bots play both pods", file=sys.stderr)
        return 2
    forever = args.bots and args.games is None and args.port is not None
    return run_table_demo(seed=args.seed, lang=args.lang, games=args.games or 1, mode=args.mode,
                          port=args.port if args.port is not None else 8000, serve=not args.no_serve,
                          quiet=args.quiet, play=args.play, pace=args.pace, forever=forever, db=args.db,
                          host=args.host)


def _hub(args):
    from hub.cli.hub import run_hub
    return run_hub(args)


def _tournament(args):
    from hub.tournament.cli import run
    return run(args)


def _open_store(path):
    from hub.record.store import Store
    return Store(path, probe=False)      # reading: a read-only record is fine


def _doctor(args):
    from hub.record.doctor import main as doctor_main
    return doctor_main(args)


def _games(args):
    import sqlite3
    from hub.record.store import StoreError, public_start
    try:
        store = _open_store(args.db)
        rows = store.games(args.limit)
    except (StoreError, sqlite3.DatabaseError) as e:
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


def _export(args):
    from hub.sessions.table import Table
    table = Table(_open_store(args.db))
    try:
        data = table.export(args.game)
    except Exception as e:
        print("export failed: %s" % e, file=sys.stderr)
        return 1
    text = json.dumps(data, ensure_ascii=False, indent=1)
    if args.out and args.out != "-":
        with open(args.out, "w", encoding="utf-8") as f:
            f.write(text)
        print("wrote %s (%s)" % (args.out, "complete" if data["complete"] else "public part only: unfinished"))
    else:
        print(text)
    return 0


def _replay(args):
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


def _pod_flash(args):
    try:
        from hub.pods.flash import main as flash_main
    except ImportError:
        print("lumen pod flash is not available in this build", file=sys.stderr)
        return 2
    return flash_main(args.rest)


def build_parser():
    ap = argparse.ArgumentParser(prog="lumen", description="루멘콘덴서 table companion / Lumen Condenser table companion")
    sub = ap.add_subparsers(dest="command", required=True)

    sp = sub.add_parser("scenario", help="run rule-conformance scenario files (PASS/FAIL per file)")
    sp.add_argument("files", nargs="+", metavar="FILE", help="scenario files or directories (every .yaml, .yml, .json under them)")
    sp.add_argument("--json", action="store_true", help="print the full outcome of each scenario as JSON")
    sp.set_defaults(func=_scenario)

    cp = sub.add_parser("cards", help="card and deck files")
    csub = cp.add_subparsers(dest="cards_command", required=True)
    chk = csub.add_parser("check", help="validate card set / deck files; prints file:line errors")
    chk.add_argument("paths", nargs="+", metavar="PATH", help="card set or deck files, or folders of them")
    chk.set_defaults(func=_cards_check)

    dp = sub.add_parser("demo", help="the whole table simulated on this machine: hub, two pods running the real "
                                     "firmware under MicroPython, and the display on localhost")
    dp.add_argument("--seed", type=int, default=1, help="seed of the first game (the same seed plays the same game)")
    dp.add_argument("--lang", choices=("ko", "en"), default="ko", help="language of the printed game (default ko)")
    dp.add_argument("--games", type=int, default=None, help="games to play (default 1; with --bots --port and no "
                                                             "--games: keep playing until stopped)")
    dp.add_argument("--bots", action="store_true",
                    help="bots play both pods (as without --play); with --port and no --games they keep playing "
                         "games, serving the display, until stopped")
    dp.add_argument("--mode", choices=("referee", "tracker"), default="referee",
                    help="referee: the engine judges every battle; tracker: the health/FP tracker (default referee)")
    dp.add_argument("--port", type=int, default=None, help="serve the display on this port (default 8000)")
    dp.add_argument("--host", default="127.0.0.1",
                    help="display address (0.0.0.0: phones on the network can open it; default 127.0.0.1)")
    dp.add_argument("--no-serve", action="store_true", help="do not serve the display")
    dp.add_argument("--play", choices=("a", "b"), help="play this seat yourself from the terminal")
    dp.add_argument("--pace", type=float, default=None, help="seconds scale of the bots' button presses (0 = flat out)")
    dp.add_argument("--db", default=None, help="keep the game record in this SQLite file (default: a temporary one)")
    dp.add_argument("--quiet", action="store_true", help="print only each game's result")
    dp.add_argument("--text", action="store_true", help="engine only: no pods, no display (fast)")
    dp.set_defaults(func=_demo)

    hp = sub.add_parser("hub", help="run the hub against real pods on serial ports (auto-detected)")
    hp.add_argument("--db", default=DEFAULT_DB, help="the game record (SQLite, append-only)")
    hp.add_argument("--durable", action="store_true", help="fsync every record (power-loss safe on an SD card)")
    hp.add_argument("--host", default="127.0.0.1", help="display address (0.0.0.0 for phones on the network)")
    hp.add_argument("--port", type=int, default=8000, help="display port")
    hp.add_argument("--serial", action="append", metavar="DEV", help="a pod's serial port (repeat); default: auto-detect")
    hp.add_argument("--mode", choices=("referee", "tracker"), default="tracker",
                    help="mode of new games (referee needs both decks)")
    hp.add_argument("--decks", nargs=2, metavar=("DECK_1P", "DECK_2P"), default=("serin", "gangcheol"),
                    help="referee mode: sample deck ids or deck files")
    hp.add_argument("--resume", action="store_true",
                    help="resume the game this table was playing (the Pi service uses it); default: start a new game")
    hp.add_argument("--broker", metavar="URL", help="join a tournament: mqtt://table-N:PASSWORD@host:port "
                                                    "(the password is in the event's credentials.json)")
    hp.add_argument("--event", metavar="NAME", help="the tournament's name (with --broker)")
    hp.add_argument("--table", default="table-1", help="this table's name (record, admin token file, lumen-<table>.local)")
    hp.add_argument("--token", default=None,
                    help="admin token for this run (or LUMEN_ADMIN_TOKEN); default: the one kept beside the record "
                         "(<db>.<table>.token, made once, mode 0600)")
    hp.add_argument("--rotate-token", action="store_true",
                    help="replace the kept admin token with a new one (old admin links stop working)")
    hp.add_argument("--no-mdns", action="store_true",
                    help="with --host 0.0.0.0: do not announce lumen-<table>.local on the network")
    hp.add_argument("--light", default=None, metavar="PIN", help="NeoPixel status light on this Blinka pin (e.g. D18)")
    hp.add_argument("--light-pixels", type=int, default=16, help="pixels on the status light's ring (default 16)")
    hp.set_defaults(func=_hub)

    from hub.tournament.cli import add_parser as tournament_parser
    tournament_parser(sub).set_defaults(func=_tournament)

    gp = sub.add_parser("games", help="recent games in a game record")
    gp.add_argument("--db", default=DEFAULT_DB, help="the game record (default %(default)s)")
    gp.add_argument("--limit", type=int, default=10, help="how many games (default 10)")
    gp.set_defaults(func=_games)

    dr = sub.add_parser("doctor", help="check a game record (SQLite integrity, every game readable); --salvage copies "
                                       "the readable games into a new record")
    dr.add_argument("--db", default=DEFAULT_DB, help="the game record to check (default %(default)s)")
    dr.add_argument("--salvage", metavar="NEW_DB", default=None, help="write the readable games to this new file")
    dr.set_defaults(func=_doctor)

    ep = sub.add_parser("export", help="export a match as JSON")
    ep.add_argument("game", type=int, help="the game's number (as lumen games lists it)")
    ep.add_argument("--db", default=DEFAULT_DB, help="the game record (default %(default)s)")
    ep.add_argument("-o", "--out", default="-", help="write the JSON to this file (default: print it)")
    ep.set_defaults(func=_export)

    rp = sub.add_parser("replay", help="replay an exported match through the engine and check its result")
    rp.add_argument("file", help="a match export (lumen export ID -o FILE)")
    rp.add_argument("--lang", choices=("ko", "en"), default="ko", help="language of the replayed log (default ko)")
    rp.add_argument("--quiet", action="store_true", help="print only whether the replay matches")
    rp.set_defaults(func=_replay)

    pp = sub.add_parser("pod", help="pod tools")
    psub = pp.add_subparsers(dest="pod_command", required=True)
    fl = psub.add_parser("flash", help="copy the firmware to a pod with mpremote", add_help=False)
    fl.add_argument("rest", nargs=argparse.REMAINDER, help="options of the flash tool (lumen pod flash --help)")
    fl.set_defaults(func=_pod_flash)
    return ap


def main(argv=None):
    argv = sys.argv[1:] if argv is None else list(argv)
    if argv[:2] == ["pod", "flash"]:
        # the flash tool parses its own options (--port, --help, ...)
        from hub.pods.flash import main as flash_main
        return flash_main(argv[2:])
    args = build_parser().parse_args(argv)
    try:
        return args.func(args)
    except BrokenPipeError:
        return 0
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(main())
