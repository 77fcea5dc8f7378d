"""bench/bot.py's costs, in instructions counted by callgrind (bench/icount.py): each level's
decisions, the coach's analysis, the cost model of engine/bots/cost.py (fitted here) and random
playouts. The worker side runs under the counter (``python3 bench/bot.py <name>-worker``)."""

import json
import os
import random
import sys
import time

from engine import apply, new_game
from engine.bots import SEARCH_LEVELS, Bot, Config, Search, onebattle, random_answer, rebuild, seat_view
from engine.bots import cost as cost_model

import bot_games
import icount

BOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "bot.py")
RATE = cost_model.A53_IPS


def _request(st):
    return st.pending[0] if st.pending[0]["kind"] != "ready" else [r for r in st.pending if r["player"] == "a"][0]


def cost_worker(args):
    """Each level's decisions at ready nodes (and sequential decisions), and the coach's analysis, counted."""
    pos = bot_games.ready_positions(args.positions, seed0=77) + bot_games.seq_positions(max(1, args.positions // 2))
    for level in ("easy", "normal", "strong"):
        for k, (ds, st) in enumerate(pos):
            req = _request(st)
            bot = Bot(k, level)
            name = "%s-%s-%d" % (level, "ready" if req["kind"] == "ready" else "seq", k)
            icount.mark("begin", name)
            bot.answer(st, req)
            icount.mark("end", name)
            t = bot.last
            icount.info("it-" + name, [t.iterations, t.applies, t.cost] if t is not None else None)
    for k, (ds, st) in enumerate(pos):
        if st.pending[0]["kind"] != "ready":
            continue
        name = "coach-ready-%d" % k
        view = seat_view(st, "a")
        icount.mark("begin", name)
        an = onebattle.solve(view, "a", st.cards, seed=k)
        icount.mark("end", name)
        icount.info("it-" + name, [an.pairs, None, None])


def cmd_cost(args):
    counts, infos = icount.run_worker(BOT, ["cost-worker", "--positions", str(args.positions)])
    print("instructions per decision (%s; %d ready nodes and %d sequential decisions of greedy games, sample and "
          "entered decks; x86-64 CPython %s); seconds at %.0f M instructions/s (the A53 estimate, engine/bots/cost.py); "
          "the search's own estimate in brackets:" % (icount.counter() or "no counter", args.positions,
                                                     max(1, args.positions // 2), sys.version.split()[0], RATE / 1e6))
    for level in ("easy", "normal", "strong", "coach"):
        for part in ("ready", "seq"):
            keys = [k for k in counts if k.startswith("%s-%s-" % (level, part))]
            vals = [counts[k] for k in keys]
            if not vals:
                continue
            if vals[0] is None:
                print("  %s %s: not counted" % (level, part))
                continue
            its = [infos.get("it-" + k) for k in keys]
            mean = sum(vals) / len(vals)
            extra = ""
            est = [(v, i[2]) for v, i in zip(vals, its) if i and i[2]]
            if est:
                err = [(e - v) / v for v, e in est]
                iters = [i[0] for i in its if i]
                extra = " [estimated mean %s, max %s; the estimate %+.1f %% to %+.1f %% of the count; %d-%d iterations]" % (
                    icount.fmt(sum(e for _, e in est) / len(est)), icount.fmt(max(e for _, e in est)),
                    100 * min(err), 100 * max(err), min(iters), max(iters))
            elif level == "coach":
                extra = " [%d-%d pairs played]" % (min(i[0] for i in its), max(i[0] for i in its))
            print("  %-6s %-5s mean %s, max %s: mean %.3f s, max %.3f s%s"
                  % (level, part, icount.fmt(mean), icount.fmt(max(vals)), mean / RATE, max(vals) / RATE, extra),
                  flush=True)


def calibrate_worker(args):
    """Searches of several sizes at each position, counted, with the work they did."""
    pos = bot_games.ready_positions(args.positions, seed0=900) + \
        bot_games.seq_positions(max(1, args.positions // 2), seed0=700)
    sizes = [int(x) for x in args.sizes.split(",")]
    for k, (ds, st) in enumerate(pos):
        seat = st.pending[0]["player"]
        view = seat_view(st, seat)
        for n in sizes:
            name = "%d-%d" % (k, n)
            level = "strong" if k % 2 == 0 else "normal"
            cfg = Config.level(level, iterations=n)
            icount.mark("begin", name)
            rb = rebuild(view, seat, st.cards)
            mine = [r for r in rb.base.pending if r["player"] == seat][0]
            s = Search(rb, mine, cfg, k)
            s.run(n)
            work = [s.done, s.applies, s.events]
            t = s.thought()
            icount.mark("end", name)
            ready = t.kind == "ready"
            cells = len(s.root.opts[0]) * len(s.root.opts[1]) if ready else 0
            icount.info("w-" + name, [ready] + work + [cells, ds, s.effects])


def cmd_calibrate(args):
    """Non-negative least squares for engine/bots/cost.py, a ready root and a sequential root
    apart, relative errors weighted equally (each row divided by its count), so that a small
    search's error counts as much as a large one's."""
    from scipy.optimize import nnls
    if args.load:
        with open(args.load) as f:
            counts, infos = json.load(f)
    else:
        counts, infos = icount.run_worker(BOT, ["calibrate-worker", "--positions", str(args.positions),
                                                "--sizes", args.sizes])
        if args.save:
            with open(args.save, "w") as f:
                json.dump([counts, infos], f)
    rows = []
    for name, c in counts.items():
        w = infos.get("w-" + name)
        if c is None or w is None:
            continue
        ready, it, applies, events, cells, ds = w[:6]
        part = cost_model.work(it, applies, events, cells if ready else 0, w[6] if len(w) > 6 else 0.0)
        rows.append((bool(ready), [part[k] for k in cost_model.PARTS], float(c), w))
    if not rows:
        print("not counted (no instruction counter here)")
        return
    print("cost model from %d counted searches (%d positions x sizes %s; %s, x86-64 CPython %s):"
          % (len(rows), len(rows) // len(args.sizes.split(",")), args.sizes, icount.counter(), sys.version.split()[0]))
    for ready, name, now in ((True, "READY", cost_model.READY), (False, "SEQ", cost_model.SEQ)):
        sub = [r for r in rows if r[0] == ready]
        if not sub:
            continue
        # every part of the model is work done: none can cost less than nothing
        coef, _ = nnls([[x / c for x in r] for _, r, c, _ in sub], [1.0] * len(sub))
        fitted = dict(zip(cost_model.PARTS, (float(x) for x in coef)))
        for label, cf in (("fitted", fitted), ("engine/bots/cost.py now", now)):
            err = [(sum(cf[k] * x for k, x in zip(cost_model.PARTS, r)) - c) / c for _, r, c, _ in sub]
            print("  %s roots, %s: the estimate %+.1f %% to %+.1f %% of the count (mean |error| %.1f %%), %d searches"
                  % (name.lower(), label, 100 * min(err), 100 * max(err), 100 * sum(abs(e) for e in err) / len(err),
                     len(sub)))
        print("  %s = {%s}" % (name, ", ".join('"%s": %.4g' % kv for kv in fitted.items())))


# ---------------------------------------------------------------- playouts

def _random_answer(st, req, rnd):
    kind, value = random_answer(st, req, rnd)
    if kind == "timeout":       # a playout of the game's moves, not of players who forget
        return "ready", rnd.choice(req["options"])
    return kind, value


def _playout_starts(name):
    cards, da, db = bot_games.decks()[name]
    starts = []
    for seed in range(20):
        st, _ = new_game(cards, da, db, seed=seed)
        bots = {"a": Bot(seed, "random"), "b": Bot(seed + 1, "random")}
        while not (len(st.pending) == 2 and all(r["kind"] == "ready" for r in st.pending)):
            req = st.pending[0]
            st, _ = apply(st, req["player"], *bots[req["player"]].answer(st, req), copy=False)
        starts.append(st)
    return starts


def _playout(start, rnd):
    st = start.copy()
    while st.winner is None:
        req = st.pending[0]
        kind, value = _random_answer(st, req, rnd)
        apply(st, req["player"], kind, value, copy=False)


def playouts_worker(args):
    for name in ("vanilla", "sample"):
        starts = _playout_starts(name)
        rnd = random.Random(0)
        icount.mark("begin", name)
        for st in starts:
            _playout(st, rnd)
        icount.mark("end", name)
        icount.info("n-" + name, len(starts))


def cmd_playouts(args):
    if args.count:
        counts, infos = icount.run_worker(BOT, ["playouts-worker"])
        for name in ("vanilla", "sample"):
            n, c = infos.get("n-" + name), counts.get(name)
            if c is None or not n:
                print("  %s: not counted" % name)
                continue
            print("random playouts, first ready to the end (%s decks, %d playouts, %s): %s a playout; at %.0f M "
                  "instructions/s (the A53 estimate) %.0f playouts/s" % (name, n, icount.counter(), icount.fmt(c / n),
                                                                         RATE / 1e6, RATE / (c / n)))
    for name in ("vanilla", "sample"):
        starts = _playout_starts(name)
        best = None
        for rep in range(3):
            n = 0
            t0 = time.perf_counter()
            rnd = random.Random(rep)
            while time.perf_counter() - t0 < args.seconds / 3:
                _playout(starts[n % len(starts)], rnd)
                n += 1
            rate = n / (time.perf_counter() - t0)
            best = rate if best is None else max(best, rate)
        print("random playouts/s from a first ready to the end (%s decks): %.0f (best of 3; wall clock on this machine)"
              % (name, best), flush=True)


def levels_line():
    return ", ".join("%s %g M" % (k, v["budget"] / 1e6) for k, v in SEARCH_LEVELS.items())
