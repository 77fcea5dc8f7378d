"""Engine figures (issue 2, card effects): battles per second, complete random games
per second, and the JSON round trip of a mid-game state. Single core, random legal
players, the sample decks twice: "vanilla" (every card effect and trait function
stripped, the decks of the core issue) and "effects" (the effect-rich sample set).
Prints figures; asserts nothing (targets live in docs/performance.md).

    python3 bench/engine.py [--games 1000] [--battles 20000] [--decks vanilla|effects|both] [--count-games 20]

Beside the wall-clock figures, instruction counts (bench/icount.py: callgrind or perf,
skipped where neither runs): complete games played in a worker process, per game, per
battle and per decision; ``--count-games 0`` leaves them out.
"""

import argparse
import json
import os
import random
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))

import icount  # noqa: E402  (bench/, beside this file)

from engine.bots import Bot, play  # noqa: E402
from engine.cards import load_sample, without_effects  # noqa: E402
from engine import apply, new_game  # noqa: E402
from engine import GameState  # noqa: E402


class Cards:
    def __init__(self, cards):
        self.cards = cards


def setup(kind="effects"):
    cs, decks = load_sample()
    da, db = decks["serin"].as_game_deck(), decks["gangcheol"].as_game_deck()
    if kind == "effects":
        return cs, da, db
    cards, da, db = without_effects(cs.cards, da, db)     # vanilla: no effect, trait function or token
    return Cards(cards), da, db


def games_per_second(cs, da, db, n, copy, repeats=5):
    """Play n games ``repeats`` times over (the same seeds); report the fastest pass,
    as timeit does, because a shared machine only ever adds noise."""
    best = None
    for _ in range(repeats):
        battles = decisions = 0
        t0 = time.perf_counter()
        for seed in range(n):
            st, _ = new_game(cs.cards, da, db, seed=seed)
            counter = [0]

            def count(state, events, *rest):
                counter[0] += 1
            st = play(st, {"a": Bot(seed * 2 + 1), "b": Bot(seed * 2 + 2)}, apply, copy=copy, on_step=count)
            battles += st.battles
            decisions += counter[0]
        dt = time.perf_counter() - t0
        if best is None or dt < best[0]:
            best = (dt, battles, decisions)
    dt, battles, decisions = best
    return n / dt, battles / dt, decisions / dt, battles / n


def mid_game_states(cs, da, db, count=50):
    out = []
    for seed in range(count):
        st, _ = new_game(cs.cards, da, db, seed=seed)
        bots = {"a": Bot(seed), "b": Bot(seed + 1)}
        for _ in range(40):
            if st.winner is not None:
                break
            req = st.pending[0]
            st, _ = apply(st, req["player"], *bots[req["player"]].answer(st, req))
        out.append(st)
    return out


def battles_per_second(cs, da, db, n):
    """Only the battle: from a ready phase, both players lock a card; the engine runs
    the 18 steps (and any combo/catch/replenish decisions by random players) to the
    battle's end. Measured on fresh copies of mid-game ready states."""
    starts = [s for s in mid_game_states(cs, da, db) if s.winner is None and s.pending and s.pending[0]["kind"] == "ready"]
    best = None
    for _ in range(3):
        rnd = random.Random(1)
        bots = {"a": Bot(1), "b": Bot(2)}
        done = 0
        t_total = 0.0
        while done < n:
            st = starts[done % len(starts)].copy()
            t0 = time.perf_counter()
            while st.winner is None:
                req = st.pending[0]
                kind, value = bots[req["player"]].answer(st, req)
                if kind == "timeout":
                    kind, value = "ready", rnd.choice(req["options"])
                st, events = apply(st, req["player"], kind, value, until=("battle_end",), copy=False)
                if any(e["e"] == "battle_end" for e in events):
                    break
            t_total += time.perf_counter() - t0
            done += 1
        best = t_total if best is None else min(best, t_total)
    return n / best


def json_roundtrip_ms(cs, da, db):
    states = [s for s in mid_game_states(cs, da, db) if s.winner is None]
    reps = 20
    t0 = time.perf_counter()
    for _ in range(reps):
        for st in states:
            text = json.dumps(st.to_json())
            GameState.from_json(json.loads(text), st.cards)
    per = (time.perf_counter() - t0) / (reps * len(states)) * 1000
    t0 = time.perf_counter()
    for _ in range(reps):
        for st in states:
            text = json.dumps(st.to_json())
            GameState.from_json(json.loads(text))
    per_full = (time.perf_counter() - t0) / (reps * len(states)) * 1000
    size = sum(len(json.dumps(s.to_json())) for s in states) / len(states)
    return per, per_full, size


def count_worker(kind, n):
    """Worker (bench/icount.py): n complete games, in-place apply, random legal players."""
    cs, da, db = setup(kind)
    games_per_second(cs, da, db, 2, copy=False, repeats=1)      # warm up
    icount.mark("begin", "games")
    battles = decisions = 0
    for seed in range(n):
        st, _ = new_game(cs.cards, da, db, seed=seed)
        counter = [0]

        def count(state, events, *rest):
            counter[0] += 1
        st = play(st, {"a": Bot(seed * 2 + 1), "b": Bot(seed * 2 + 2)}, apply, copy=False, on_step=count)
        battles += st.battles
        decisions += counter[0]
    icount.mark("end", "games")
    icount.info("games", {"games": n, "battles": battles, "decisions": decisions})


def counts(kind, n):
    c, infos = icount.run_worker(os.path.abspath(__file__), ["--count-worker", kind, str(n)])
    g = infos["games"]
    total = c["games"]
    per = (lambda k: None if total is None else total / g[k])
    print("  instructions (%s, %d games): %s per game, %s per battle, %s per decision"
          % (icount.counter() or "no counter here", g["games"], icount.fmt(per("games")), icount.fmt(per("battles")),
             icount.fmt(per("decisions"))))


def main():
    if len(sys.argv) == 4 and sys.argv[1] == "--count-worker":
        count_worker(sys.argv[2], int(sys.argv[3]))
        return
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=1000)
    ap.add_argument("--battles", type=int, default=20000)
    ap.add_argument("--decks", choices=("vanilla", "effects", "both"), default="both")
    ap.add_argument("--count-games", type=int, default=20)
    ap.add_argument("--smoke", action="store_true", help="every part, small: CI's check that it runs (figures meaningless)")
    args = ap.parse_args()
    if args.smoke:
        args.games, args.battles, args.count_games = 20, 200, 1
    for kind in (("vanilla", "effects") if args.decks == "both" else (args.decks,)):
        cs, da, db = setup(kind)
        print("engine benchmark, %s sample decks (single core, %s vs %s, random legal players)"
              % (kind, da["character"].id, db["character"].id))
        g, b, d, per = games_per_second(cs, da, db, args.games, copy=False)
        print("  complete games/s (in-place apply):   %8.0f   (%.0f battles/s, %.0f decisions/s, %.1f battles/game)"
              % (g, b, d, per))
        g, b, d, per = games_per_second(cs, da, db, max(100, args.games // 4), copy=True, repeats=3)
        print("  complete games/s (copying apply):    %8.0f   (%.0f battles/s, %.0f decisions/s)" % (g, b, d))
        print("  battles/s (ready -> battle end):     %8.0f" % battles_per_second(cs, da, db, args.battles))
        per, per_full, size = json_roundtrip_ms(cs, da, db)
        print("  JSON round trip, mid-game state:     %8.3f ms (card table shared), %.3f ms (cards re-parsed), %.0f bytes"
              % (per, per_full, size))
        if args.count_games:
            counts(kind, args.count_games)


if __name__ == "__main__":
    main()
