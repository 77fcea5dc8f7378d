"""``lumen cards check PATH...``: validate card set and deck files; prints file:line errors."""

import sys


def check(args):
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
