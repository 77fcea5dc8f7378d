"""The search player's figures (issue 24): strength, equilibrium quality, cost, playout speed.
Prints figures; asserts nothing (docs/performance.md "Search player" keeps them).

    python3 bench/bot.py match --x strong --y greedy --games 400 [--jobs 2] [--decks sample,entered]
    python3 bench/bot.py budget --level strong --games 200 --budgets 55,110,220  # 2x vs 1x at each (M instructions)
    python3 bench/bot.py exploit --positions 200 [--level strong] [--iterations N]
    python3 bench/bot.py cost [--positions 12]      # callgrind instructions per decision, each level
    python3 bench/bot.py calibrate [--positions 12] # callgrind: engine/bots/search.py's cost model (prints it)
    python3 bench/bot.py playouts [--seconds 6] [--count]   # random playouts/s from a first ready; --count: callgrind
    python3 bench/bot.py fit-eval --games 600       # refit engine/bots/evaluate.py WEIGHTS (prints them)

Games: both deck sets ("sample": the bundled Serin and Gangcheol; "entered": the two decks of
tests/engine/data/entered, written as a player enters cards), each player taking each deck
and each seat equally often. A game that reaches ``--max-turns`` (default 120) is stopped and
scored as a draw (counted and printed: two bots that both stall would otherwise never end).
Scores count a draw as half; the 95 % interval is the normal one on the per-game score.
"""

import argparse
import json
import math
import multiprocessing
import os
import random
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, ".."))

from engine.bots import evaluate  # noqa: E402
from engine.bots import SEARCH_LEVELS, Config, Search, solve_matrix, think  # noqa: E402
from engine.bots import rebuild, seat_view  # noqa: E402
from engine.bots import Bot  # noqa: E402
from engine.cards import load_deck, load_sample, without_effects  # noqa: E402
from engine import apply, new_game  # noqa: E402

ENTERED = os.path.join(HERE, "..", "tests", "engine", "data", "entered", "decks")


def decksets():
    cs, decks = load_sample()
    out = {"sample": (cs.cards, decks["serin"].as_game_deck(), decks["gangcheol"].as_game_deck())}
    da, _ = load_deck(os.path.join(ENTERED, "haneul.yaml"))
    db, _ = load_deck(os.path.join(ENTERED, "mujin.yaml"))
    out["entered"] = (da.cardset.cards, da.as_game_deck(), db.as_game_deck())
    out["vanilla"] = without_effects(cs.cards, decks["serin"].as_game_deck(), decks["gangcheol"].as_game_deck())
    return out


_DECKS = None


def _decks():
    global _DECKS
    if _DECKS is None:
        _DECKS = decksets()
    return _DECKS


# ---------------------------------------------------------------- games

def play_game(spec):
    """One game: spec = (deckset, x policy, x iterations, y policy, y iterations, x seat,
    x takes deck a?, seed, max turns[, x budget, y budget]): iterations or budgets (estimated
    instructions) override a search level's. Returns (x's score 1/0.5/0, battles, capped)."""
    deckset, xp, xi, yp, yi, xseat, xdeck_a, seed, max_turns = spec[:9]
    xb, yb = (spec[9], spec[10]) if len(spec) > 9 else (None, None)
    cards, da, db = _decks()[deckset]
    # deck a goes to whoever takes it; seats are a/b in the engine
    deck_x, deck_y = (da, db) if xdeck_a else (db, da)
    yseat = "b" if xseat == "a" else "a"
    seat_decks = {xseat: deck_x, yseat: deck_y}
    st, _ = new_game(cards, seat_decks["a"], seat_decks["b"], seed=seed)
    bots = {xseat: Bot(seed * 2 + 1, xp, xi, xb), yseat: Bot(seed * 2 + 2, yp, yi, yb)}
    while st.winner is None:
        if st.turn > max_turns:
            return 0.5, st.battles, True
        req = st.pending[0]
        kind, value = bots[req["player"]].answer(st, req)
        st, _ = apply(st, req["player"], kind, value, copy=False)
    score = 0.5 if st.winner == "draw" else (1.0 if st.winner == xseat else 0.0)
    return score, st.battles, False


def specs(n, x, xi, y, yi, sets, seed0, max_turns, xb=None, yb=None):
    out = []
    k = 0
    while len(out) < n:
        for ds in sets:
            for xseat in ("a", "b"):
                for xdeck_a in (True, False):
                    if len(out) < n:
                        out.append((ds, x, xi, y, yi, xseat, xdeck_a, seed0 + k, max_turns, xb, yb))
                    k += 1
    return out


def score_ci(scores):
    n = len(scores)
    m = sum(scores) / n
    var = sum((s - m) ** 2 for s in scores) / max(1, n - 1)
    h = 1.96 * math.sqrt(var / n)
    return m, max(0.0, m - h), min(1.0, m + h)


def run_match(x, xi, y, yi, games, jobs, sets, seed0, max_turns, label=None, xb=None, yb=None, every=50):
    sp = specs(games, x, xi, y, yi, sets, seed0, max_turns, xb, yb)
    name = label or "%s%s vs %s%s" % (x, "" if xi is None else "@%d" % xi, y, "" if yi is None else "@%d" % yi)
    t0 = time.perf_counter()
    res = []
    pool = multiprocessing.Pool(jobs) if jobs > 1 else None
    try:
        for r in (pool.imap(play_game, sp, chunksize=1) if pool else map(play_game, sp)):
            res.append(r)
            if every and len(res) % every == 0 and len(res) < len(sp):     # a long run says how it goes
                m, lo, hi = score_ci([q[0] for q in res])
                print("  (%s: %d of %d games so far, score %.3f [%.3f-%.3f], %.0f s)"
                      % (name, len(res), len(sp), m, lo, hi, time.perf_counter() - t0), flush=True)
    finally:
        if pool is not None:
            pool.close()
            pool.join()
    dt = time.perf_counter() - t0
    scores = [r[0] for r in res]
    m, lo, hi = score_ci(scores)
    w = sum(1 for s in scores if s == 1.0)
    d = sum(1 for s in scores if s == 0.5)
    capped = sum(1 for r in res if r[2])
    by = {}
    for s, r in zip(sp, res):
        by.setdefault(s[0], []).append(r[0])
    per = ", ".join("%s %.3f (%d)" % (k, sum(v) / len(v), len(v)) for k, v in by.items())
    print("%s: %d games, score %.3f [95%% CI %.3f-%.3f]; %d won, %d drawn (%d stopped at %d turns), %d lost; %s; "
          "%.1f battles a game; %.0f s wall, %d jobs" % (name, len(scores), m, lo, hi, w, d, capped, max_turns,
                                                        len(scores) - w - d, per,
                                                        sum(r[1] for r in res) / len(res), dt, jobs), flush=True)
    return m, lo, hi


# ---------------------------------------------------------------- positions

def ready_positions(count, seed0=1000, sets=("sample", "entered"), policy="greedy"):
    """Real states at ready nodes (both readies pending) from seeded games of ``policy``
    bots: one position a game, at a turn drawn between 1 and the game's length."""
    out = []
    rnd = random.Random(seed0)
    k = 0
    while len(out) < count:
        ds = sets[k % len(sets)]
        cards, da, db = _decks()[ds]
        st, _ = new_game(cards, da, db, seed=seed0 + k)
        bots = {"a": Bot(seed0 + 2 * k + 1, policy), "b": Bot(seed0 + 2 * k + 2, policy)}
        want = rnd.randint(1, 12)
        k += 1
        seen = 0
        while st.winner is None:
            pend = st.pending
            if len(pend) == 2 and all(r["kind"] == "ready" for r in pend):
                seen += 1
                if seen == want:
                    out.append((ds, st.copy()))
                    break
            req = pend[0]
            kind, value = bots[req["player"]].answer(st, req)
            st, _ = apply(st, req["player"], kind, value, copy=False)
    return out


# ---------------------------------------------------------------- exact one-turn subgames

class Budget:
    def __init__(self, n):
        self.left = n


def _turn_value(st, budget, rnd):
    """Seat a's value of ``st`` with every remaining decision of this turn searched exactly
    (max for the deciding seat, min for the other), the leaf being ``evaluate.value`` at the
    next ready node. Past ``budget`` expansions the default policy plays on."""
    if st.winner is not None or any(r["kind"] == "ready" for r in st.pending):
        return evaluate.value(st)
    req = st.pending[0]
    if req["kind"] == "setup" or budget.left <= 0:
        kind, value = evaluate.default_answer(st, req, rnd)
        s2 = st.copy()
        apply(s2, req["player"], kind, value, copy=False)
        return _turn_value(s2, budget, rnd)
    from engine.bots import answers
    best = None
    for ans in answers(st, req):
        budget.left -= 1
        s2 = st.copy()
        apply(s2, req["player"], req["kind"], ans, copy=False)
        v = _turn_value(s2, budget, rnd)
        if req["player"] == "b":
            v = -v
        if best is None or v > best:
            best = v
    return best if req["player"] == "a" else -best


def exact_matrix(st, per_pair=400, seed=0):
    """The one-turn subgame at ready node ``st``: A[i][j] = seat a's value after the pair
    (a's option i, b's option j) with the rest of the turn searched exactly."""
    rnd = random.Random(seed)
    ra = [r for r in st.pending if r["player"] == "a"][0]
    rb = [r for r in st.pending if r["player"] == "b"][0]
    A = []
    for x in ra["options"]:
        row = []
        for y in rb["options"]:
            s2 = st.copy()
            apply(s2, "a", "ready", x, copy=False)
            apply(s2, "b", "ready", y, copy=False)
            row.append(_turn_value(s2, Budget(per_pair), rnd))
        A.append(row)
    return ra["options"], rb["options"], A


def solve_lp(A):
    """The value of zero-sum matrix game A (rows maximize) and row's optimal mix: scipy's LP
    (HiGHS) if scipy is installed, else 20,000 RM+ iterations."""
    try:
        from scipy.optimize import linprog
    except ImportError:
        x, y = solve_matrix(A, 20000)
        return min(sum(x[i] * A[i][j] for i in range(len(A))) for j in range(len(A[0]))), x, "rm+ 20000"
    n, m = len(A), len(A[0])
    # maximize v s.t. sum_i x_i A_ij >= v for all j, sum x = 1, x >= 0
    c = [0.0] * n + [-1.0]
    A_ub = [[-A[i][j] for i in range(n)] + [1.0] for j in range(m)]
    b_ub = [0.0] * m
    A_eq = [[1.0] * n + [0.0]]
    res = linprog(c, A_ub=A_ub, b_ub=b_ub, A_eq=A_eq, b_eq=[1.0], bounds=[(0, None)] * n + [(None, None)],
                  method="highs")
    return -res.fun, list(res.x[:n]), "linprog highs"


def exploitability(A, x, seat="a"):
    """How much a best response gains against mix ``x`` of ``seat`` in A, relative to the value."""
    if seat == "a":
        v, _, _ = solve_lp(A)
        worst = min(sum(x[i] * A[i][j] for i in range(len(A))) for j in range(len(A[0])))
        return v - worst
    At = [[1.0 - A[i][j] for i in range(len(A))] for j in range(len(A[0]))]
    return exploitability(At, x, "a")


def cmd_exploit(args):
    t0 = time.perf_counter()
    pos = ready_positions(args.positions, seed0=args.seed)
    ex, ex_u, gaps = [], [], []
    method = None
    for k, (ds, st) in enumerate(pos):
        seat = "a" if k % 2 == 0 else "b"
        oa, ob, A = exact_matrix(st, per_pair=args.per_pair, seed=k)
        v, xa, method = solve_lp(A)
        t = think(st, seat, seed=k, level=args.level, iterations=args.iterations)
        mine_opts = oa if seat == "a" else ob
        x = [t.mix[t.options.index(o)] for o in mine_opts]
        e = exploitability(A, x, seat)
        u = exploitability(A, [1.0 / len(mine_opts)] * len(mine_opts), seat)
        ex.append(e)
        ex_u.append(u)
        gaps.append(max(max(r) for r in A) - min(min(r) for r in A))
    ex.sort()
    n = len(ex)
    print("exploitability of the %s ready mix (%s iterations) on %d one-turn subgames (%s; sequential decisions "
          "searched exactly up to %d expansions a pair, leaf = evaluate.value): mean %.4f, median %.4f, 90th pct %.4f, "
          "max %.4f; %d of %d within 0.05. Uniform mix for comparison: mean %.4f. Value spread in a matrix: mean %.3f. "
          "%.0f s" % (args.level, args.iterations or SEARCH_LEVELS[args.level]["iterations"], n, method, args.per_pair,
                      sum(ex) / n, ex[n // 2], ex[int(n * 0.9)], ex[-1], sum(1 for e in ex if e <= 0.05), n,
                      sum(ex_u) / n, sum(gaps) / n, time.perf_counter() - t0), flush=True)


# ---------------------------------------------------------------- cost (callgrind)

def seq_positions(count, seed0=300, sets=("sample", "entered")):
    """Real states where one seat makes a sequential decision (get, discard, combo, catch, ...)
    with two or more answers, from seeded greedy games: one a game."""
    out = []
    k = 0
    while len(out) < count:
        ds = sets[k % len(sets)]
        cards, da, db = _decks()[ds]
        st, _ = new_game(cards, da, db, seed=seed0 + k)
        bots = {"a": Bot(seed0 + 2 * k + 1, "greedy"), "b": Bot(seed0 + 2 * k + 2, "greedy")}
        skip = k % 5
        k += 1
        while st.winner is None:
            req = st.pending[0]
            if req["kind"] not in ("ready", "setup", "timeout") and len(req["options"]) >= 2:
                if skip == 0:
                    out.append((ds, st.copy()))
                    break
                skip -= 1
            kind, value = bots[req["player"]].answer(st, req)
            st, _ = apply(st, req["player"], kind, value, copy=False)
    return out


def cost_worker(args):
    """Each level's decisions at ready nodes (and a sequential decision each), counted."""
    import icount
    pos = ready_positions(args.positions, seed0=77) + seq_positions(max(1, args.positions // 2))
    for level in ("easy", "normal", "strong"):
        for k, (ds, st) in enumerate(pos):
            req = st.pending[0] if st.pending[0]["kind"] != "ready" else [r for r in st.pending if r["player"] == "a"][0]
            bot = Bot(k, level)
            name = "%s-%s-%d" % (level, "ready" if req["kind"] == "ready" else "seq", k)
            icount.mark("begin", name)
            bot.answer(st, req)
            icount.mark("end", name)
            t = bot.last
            icount.info("it-" + name, [t.iterations, t.applies, t.cost] if t is not None else None)


def cmd_cost(args):
    import icount
    counts, infos = icount.run_worker(os.path.abspath(__file__), ["cost-worker", "--positions", str(args.positions)])
    print("instructions per decision (%s; %d ready nodes and %d sequential decisions of greedy games, sample and "
          "entered decks; x86-64 CPython %s); the budget the search counted in brackets:"
          % (icount.counter() or "no counter", args.positions, max(1, args.positions // 2), sys.version.split()[0]))
    for level in ("easy", "normal", "strong"):
        for part in ("ready", "seq"):
            keys = [k for k in counts if k.startswith("%s-%s-" % (level, part))]
            vals = [counts[k] for k in keys]
            if not vals or vals[0] is None:
                print("  %s %s: not counted" % (level, part))
                continue
            its = [infos.get("it-" + k) for k in keys]
            est = [i[2] for i in its if i]
            iters = [i[0] for i in its if i]
            mean = sum(vals) / len(vals)
            extra = ""
            if est:
                err = [abs(v - e) / v for v, i, e in zip(vals, its, [i[2] if i else None for i in its]) if e]
                extra = " [estimated mean %s, max %s; estimate off by %.0f %% at most; %d-%d iterations]" % (
                    icount.fmt(sum(est) / len(est)), icount.fmt(max(est)), 100 * max(err), min(iters), max(iters))
            print("  %-6s %-5s mean %s, max %s; at 500 M instructions/s (the docs' Pi Zero 2 W estimate) mean %.3f s, "
                  "max %.3f s%s" % (level, part, icount.fmt(mean), icount.fmt(max(vals)), mean / 500e6, max(vals) / 500e6,
                                    extra), flush=True)


def calibrate_worker(args):
    """Searches of two sizes at each position, counted, with the work they did."""
    import icount
    from engine.bots import Search
    pos = ready_positions(args.positions, seed0=900) + seq_positions(max(1, args.positions // 2), seed0=700)
    for k, (ds, st) in enumerate(pos):
        seat = st.pending[0]["player"]
        view = seat_view(st, seat)
        for n in (args.small, args.large):
            name = "%d-%d" % (k, n)
            icount.mark("begin", name)
            rb = rebuild(view, seat, st.cards)
            mine = [r for r in rb.base.pending if r["player"] == seat][0]
            s = Search(rb, mine, Config(iterations=n), k)
            s.run(n)
            t = s.thought()
            icount.mark("end", name)
            root = len(s.root.opts[0]) * len(s.root.opts[1]) if t.kind == "ready" else len(s.root.opts)
            icount.info("w-" + name, [n, s.applies, root, s.events, t.kind == "ready"])


def cmd_calibrate(args):
    """Least squares for engine/bots/search.py's cost model: instructions = a fixed part (one at
    a ready root, one at a sequential root) + per engine event the search's decisions emitted."""
    import icount
    counts, infos = icount.run_worker(os.path.abspath(__file__), [
        "calibrate-worker", "--positions", str(args.positions), "--small", str(args.small), "--large", str(args.large)])
    rows = []
    for name, c in counts.items():
        w = infos.get("w-" + name)
        if c is None or w is None:
            continue
        n, applies, root, events, ready = w
        rows.append(([1.0 if ready else 0.0, 0.0 if ready else 1.0, float(events)], float(c), w))
    if not rows:
        print("not counted (no instruction counter here)")
        return
    X = [r[0] for r in rows]
    y = [r[1] for r in rows]
    k = len(X[0])
    XtX = [[sum(x[i] * x[j] for x in X) for j in range(k)] for i in range(k)]
    Xty = [sum(x[i] * v for x, v in zip(X, y)) for i in range(k)]
    coef = _solve(XtX, Xty)
    pred = [sum(c * xi for c, xi in zip(coef, x)) for x in X]
    err = [(p - v) / v for p, v in zip(pred, y)]
    print("cost model from %d counted searches (%d positions x %d and %d iterations; %s, x86-64 CPython %s):"
          % (len(rows), len(rows) // 2, args.small, args.large, icount.counter(), sys.version.split()[0]))
    print("  COST_FIXED_READY = %.3g\n  COST_FIXED_SEQ = %.3g\n  COST_PER_EVENT = %.3g" % tuple(coef))
    print("  fit: the estimate is off by %.1f %% on average, %.1f %% at most (%.1f %% over at most, %.1f %% under at most)"
          % (100 * sum(abs(e) for e in err) / len(err), 100 * max(abs(e) for e in err), 100 * max(err), -100 * min(err)))
    for (x, v, w), p in zip(rows, pred):
        print("    %s root %2d, %4d iterations, %6d applies, %6d events: %s counted, %s estimated"
              % ("ready" if w[4] else "seq  ", w[2], w[0], w[1], w[3], icount.fmt(v), icount.fmt(p)))


# ---------------------------------------------------------------- playouts

def _playout_starts(name):
    cards, da, db = _decks()[name]
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
    import icount
    for name in ("vanilla", "sample"):
        starts = _playout_starts(name)
        rnd = random.Random(0)
        icount.mark("begin", name)
        for st in starts:
            _playout(st, rnd)
        icount.mark("end", name)
        icount.info("n-" + name, len(starts))


def cmd_playouts_counted():
    import icount
    counts, infos = icount.run_worker(os.path.abspath(__file__), ["playouts-worker"])
    for name in ("vanilla", "sample"):
        n = infos.get("n-" + name)
        c = counts.get(name)
        if c is None or not n:
            print("  %s: not counted" % name)
            continue
        print("random playouts, first ready to the end (%s decks, %d playouts, %s): %s a playout; at 500 M "
              "instructions/s (the Pi Zero 2 W estimate) %.0f playouts/s" % (name, n, icount.counter(),
                                                                             icount.fmt(c / n), 500e6 / (c / n)))


def cmd_playouts(args):
    if args.count:
        cmd_playouts_counted()
    for name in ("vanilla", "sample"):
        cards, da, db = _decks()[name]
        starts = []
        for seed in range(20):
            st, _ = new_game(cards, da, db, seed=seed)
            bots = {"a": Bot(seed, "random"), "b": Bot(seed + 1, "random")}
            while not (len(st.pending) == 2 and all(r["kind"] == "ready" for r in st.pending)):
                req = st.pending[0]
                st, _ = apply(st, req["player"], *bots[req["player"]].answer(st, req), copy=False)
            starts.append(st)
        best = None
        for rep in range(3):
            n = 0
            t0 = time.perf_counter()
            rnd = random.Random(rep)
            while time.perf_counter() - t0 < args.seconds / 3:
                st = starts[n % len(starts)].copy()
                while st.winner is None:
                    req = st.pending[0]
                    kind, value = _random_answer(st, req, rnd)
                    apply(st, req["player"], kind, value, copy=False)
                n += 1
            rate = n / (time.perf_counter() - t0)
            best = rate if best is None else max(best, rate)
        print("random playouts/s from a first ready to the end (%s decks): %.0f (best of 3; one state copy a "
              "playout, then apply(copy=False) in place; no undo)" % (name, best), flush=True)


def _random_answer(st, req, rnd):
    from engine.bots import random_answer
    kind, value = random_answer(st, req, rnd)
    if kind == "timeout":       # a playout of the game's moves, not of players who forget
        return "ready", rnd.choice(req["options"])
    return kind, value


# ---------------------------------------------------------------- fitting the evaluation

def _fit_positions(spec):
    ds, seed, policy = spec
    cards, da, db = _decks()[ds]
    st, _ = new_game(cards, da, db, seed=seed)
    bots = {"a": Bot(seed * 3 + 1, policy), "b": Bot(seed * 3 + 2, policy)}
    rows = []
    while st.winner is None and st.turn <= 200:
        pend = st.pending
        if any(r["kind"] == "ready" for r in pend):
            f = evaluate.features(st)
            rows.append([f[k] for k in evaluate.FEATURES])
        req = pend[0]
        kind, value = bots[req["player"]].answer(st, req)
        st, _ = apply(st, req["player"], kind, value, copy=False)
    y = 0.5 if st.winner in (None, "draw") else (1.0 if st.winner == "a" else 0.0)
    # each position also seen from the other seat (every feature but the bias is a difference):
    # the model then knows no seat, only the position
    return [(r, y) for r in rows] + [([r[0]] + [-x for x in r[1:]], 1.0 - y) for r in rows]


def logistic_fit(data, l2=1.0, iters=25):
    """Newton's method for L2-regularized logistic regression (labels in [0, 1])."""
    k = len(data[0][0])
    w = [0.0] * k
    for _ in range(iters):
        g = [0.0] * k
        H = [[0.0] * k for _ in range(k)]
        for x, y in data:
            z = sum(wi * xi for wi, xi in zip(w, x))
            p = 1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, z))))
            d = p - y
            s = p * (1 - p)
            for i in range(k):
                g[i] += d * x[i]
                xi = s * x[i]
                Hi = H[i]
                for j in range(k):
                    Hi[j] += xi * x[j]
        for i in range(1, k):
            g[i] += l2 * w[i]
            H[i][i] += l2
        step = _solve(H, g)
        w = [wi - si for wi, si in zip(w, step)]
        if max(abs(s) for s in step) < 1e-6:
            break
    return w


def _solve(A, b):
    n = len(b)
    M = [row[:] + [b[i]] for i, row in enumerate(A)]
    for c in range(n):
        p = max(range(c, n), key=lambda r: abs(M[r][c]))
        M[c], M[p] = M[p], M[c]
        if abs(M[c][c]) < 1e-12:
            M[c][c] = 1e-12
        for r in range(n):
            if r != c:
                f = M[r][c] / M[c][c]
                if f:
                    M[r] = [a - f * bb for a, bb in zip(M[r], M[c])]
    return [M[i][n] / M[i][i] for i in range(n)]


def cmd_fit(args):
    # greedy players (random readies, greedy elsewhere) and random players, half each, and
    # --search-games games of the normal search player against itself
    sp = [(ds, 5000 + i, "greedy" if i % 2 == 0 else "random") for i in range(args.games)
          for ds in ("sample", "entered")]
    sp += [(ds, 9000 + i, "normal") for i in range(args.search_games) for ds in ("sample", "entered")]
    with multiprocessing.Pool(args.jobs) as pool:
        parts = pool.map(_fit_positions, sp, chunksize=4)
    data = [row for p in parts for row in p]
    w = logistic_fit(data)
    fitted = dict(zip(evaluate.FEATURES, w))
    # log loss of the fitted model on its data, and of the constant 0.5
    def loss(weights):
        s = 0.0
        for x, y in data:
            z = sum(weights[k] * xi for k, xi in zip(evaluate.FEATURES, x))
            p = min(1 - 1e-9, max(1e-9, 1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, z))))))
            s -= y * math.log(p) + (1 - y) * math.log(1 - p)
        return s / len(data)
    print("fitted on %d positions from %d greedy, random and normal games, each from both seats (sample and entered "
          "decks): log loss %.4f (constant 0.5: %.4f; the weights in engine/bots/evaluate.py now: %.4f)"
          % (len(data), len(sp), loss(fitted), math.log(2), loss(evaluate.WEIGHTS)))
    print(json.dumps({k: round(v, 4) for k, v in fitted.items()}, indent=1))


# ---------------------------------------------------------------- main

def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True)
    m = sub.add_parser("match")
    m.add_argument("--x", default="strong")
    m.add_argument("--y", default="greedy")
    m.add_argument("--x-iterations", type=int)
    m.add_argument("--y-iterations", type=int)
    b = sub.add_parser("budget")
    b.add_argument("--level", default="strong")
    b.add_argument("--budgets", default="55,110,220", help="1x budgets, millions of estimated instructions")
    for p in (m, b):
        p.add_argument("--games", type=int, default=400)
        p.add_argument("--jobs", type=int, default=2)
        p.add_argument("--decks", default="sample,entered")
        p.add_argument("--seed", type=int, default=0)
        p.add_argument("--max-turns", type=int, default=120)
    e = sub.add_parser("exploit")
    e.add_argument("--positions", type=int, default=200)
    e.add_argument("--level", default="strong")
    e.add_argument("--iterations", type=int)
    e.add_argument("--per-pair", type=int, default=400)
    e.add_argument("--seed", type=int, default=1000)
    c = sub.add_parser("cost")
    c.add_argument("--positions", type=int, default=12)
    cw = sub.add_parser("cost-worker")
    cw.add_argument("--positions", type=int, default=12)
    for name in ("calibrate", "calibrate-worker"):
        cb = sub.add_parser(name)
        cb.add_argument("--positions", type=int, default=12)
        cb.add_argument("--small", type=int, default=40)
        cb.add_argument("--large", type=int, default=200)
    pl = sub.add_parser("playouts")
    pl.add_argument("--seconds", type=float, default=6.0)
    pl.add_argument("--count", action="store_true", help="also count instructions (callgrind)")
    sub.add_parser("playouts-worker")
    f = sub.add_parser("fit-eval")
    f.add_argument("--games", type=int, default=600)
    f.add_argument("--search-games", type=int, default=50)
    f.add_argument("--jobs", type=int, default=2)
    args = ap.parse_args(argv)
    if args.cmd == "match":
        run_match(args.x, args.x_iterations, args.y, args.y_iterations, args.games, args.jobs,
                  args.decks.split(","), args.seed, args.max_turns)
    elif args.cmd == "budget":
        # budgets in millions of estimated instructions a ready decision (engine/bots/search.py
        # ``estimate``; a sequential decision gets a quarter): 2x against 1x at each
        for n in [int(x) for x in args.budgets.split(",")]:
            run_match(args.level, None, args.level, None, args.games, args.jobs, args.decks.split(","),
                      args.seed + 100000 * n, args.max_turns, label="%s@%dM vs %s@%dM" % (args.level, 2 * n, args.level, n),
                      xb=2 * n * 1e6, yb=n * 1e6)
    elif args.cmd == "exploit":
        cmd_exploit(args)
    elif args.cmd == "cost":
        cmd_cost(args)
    elif args.cmd == "cost-worker":
        cost_worker(args)
    elif args.cmd == "calibrate":
        cmd_calibrate(args)
    elif args.cmd == "calibrate-worker":
        calibrate_worker(args)
    elif args.cmd == "playouts-worker":
        playouts_worker(args)
    elif args.cmd == "playouts":
        cmd_playouts(args)
    elif args.cmd == "fit-eval":
        cmd_fit(args)


if __name__ == "__main__":
    main()

# keep the names the docstring promises importable for tests of the bench itself
__all__ = ["play_game", "exact_matrix", "solve_lp", "exploitability", "ready_positions", "Config", "Search",
           "rebuild", "seat_view"]
