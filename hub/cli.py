"""The ``lumen`` command line."""

import argparse
import json
import sys


def _scenario(args):
    from engine.scenario import run_file
    outcomes = [run_file(path) for path in args.files]
    if args.json:
        print(json.dumps([o.to_json() for o in outcomes], ensure_ascii=False, indent=2))
    else:
        for o in outcomes:
            print(o.line())
    return 0 if outcomes and all(o.passed for o in outcomes) else 1


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
    from hub.demo import run_text_demo
    return run_text_demo(seed=args.seed, lang=args.lang, games=args.games, quiet=args.quiet)


def _pod_flash(args):
    try:
        from hub.podflash import main as flash_main
    except ImportError:
        print("lumen pod flash is not available in this build", file=sys.stderr)
        return 2
    return flash_main(args.rest)


def build_parser():
    ap = argparse.ArgumentParser(prog="lumen", description="루멘콘덴서 table companion / Lumen Condenser table companion")
    sub = ap.add_subparsers(dest="command", required=True)

    sp = sub.add_parser("scenario", help="run rule-conformance scenario files (PASS/FAIL per file)")
    sp.add_argument("files", nargs="+", metavar="FILE")
    sp.add_argument("--json", action="store_true", help="print the full outcome of each scenario as JSON")
    sp.set_defaults(func=_scenario)

    cp = sub.add_parser("cards", help="card and deck files")
    csub = cp.add_subparsers(dest="cards_command", required=True)
    chk = csub.add_parser("check", help="validate card set / deck files; prints file:line errors")
    chk.add_argument("paths", nargs="+", metavar="PATH")
    chk.set_defaults(func=_cards_check)

    dp = sub.add_parser("demo", help="play a whole simulated game on this machine (no hardware)")
    dp.add_argument("--seed", type=int, default=1)
    dp.add_argument("--lang", choices=("ko", "en"), default="ko")
    dp.add_argument("--games", type=int, default=1)
    dp.add_argument("--bots", action="store_true", help="bots play both seats (the default for now)")
    dp.add_argument("--quiet", action="store_true", help="print only each game's result")
    dp.set_defaults(func=_demo)

    pp = sub.add_parser("pod", help="pod tools")
    psub = pp.add_subparsers(dest="pod_command", required=True)
    fl = psub.add_parser("flash", help="copy the firmware to a pod with mpremote", add_help=False)
    fl.add_argument("rest", nargs=argparse.REMAINDER)
    fl.set_defaults(func=_pod_flash)
    return ap


def main(argv=None):
    args = build_parser().parse_args(argv)
    try:
        return args.func(args)
    except BrokenPipeError:
        return 0
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(main())
