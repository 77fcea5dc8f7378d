"""The recent-games list over a long record (issue 12). Prints figures; asserts nothing.

    python3 bench/recent_games.py [--games 5000]

A table restarted many times holds many games the hub opened by itself; the list leaves
those out (while nothing is entered in them) and must stay quick however many there are.
Half the games here are such blank ones, half have an input.
"""

import argparse
import os
import statistics
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))

from hub.record.store import Store  # noqa: E402


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=5000, help="games in the record (default 5000)")
    ap.add_argument("--smoke", action="store_true", help="every part, small: CI's check that it runs (figures meaningless)")
    args = ap.parse_args()
    if args.smoke:
        args.games = 50
    with tempfile.TemporaryDirectory() as tmp:
        store = Store(os.path.join(tmp, "games.sqlite3"))
        start = {"format": "lumen-tracker/1", "tracker": {"a": "generic", "b": "generic", "seed": 0, "priority": None}}
        for i in range(args.games):
            gid = store.new_game("tracker", start)
            store.set_current("table-1", gid, auto=i % 2 == 0)
            if i % 2:
                store.append(gid, "input", {"kind": "action", "value": {"action": "next_turn"}})
        times = []
        for _ in range(50):
            t0 = time.perf_counter()
            games = store.games(10, "table-1", keep=(store.current_game("table-1"),))
            times.append((time.perf_counter() - t0) * 1000)
        print("recent games (%d listed) over %d games, half of them blank: median %.2f ms, max %.2f ms (%d runs)"
              % (len(games), args.games, statistics.median(times), max(times), len(times)))
        store.close()


if __name__ == "__main__":
    main()
