"""``lumen cards check PATH...``: validate card set and deck files; prints file:line errors."""

import sys


def check(args):
    from engine.cards import check_path
    return report(args.paths, check_path, "card or deck")


def report(paths, check_path, what):
    """Check each path (``check_path(path) -> (files checked, problems)``), print the
    problems (file:line) or OK per file; 0 if all are clean."""
    status = 0
    for path in paths:
        checked, problems = check_path(path)
        for p in problems:
            print(p)
        if problems:
            status = 1
        elif not checked:
            print("%s: no %s files found" % (path, what))
            status = 1
        else:
            for f in checked:
                print("OK %s" % f)
    if status:
        print("문제가 있습니다 / problems found", file=sys.stderr)
    return status
