"""bench/bot.py's exact one-battle games: the reference the search's ready mix and the coach are
measured against.

At a ready node of a real game (the true state: both hands, both side decks) every pair of
ready cards is played by the engine and the rest of the turn is searched exactly (max for the
seat deciding, min for the other, every answer of every decision: combo, catch, get, discard,
...; past ``per_pair`` expansions a pair the default policy plays on), the leaf being the
search's own leaf at the next ready node (engine/bots/ending.py: without a clock, the position's
value; a loop back to the position, a draw). The matrix game is solved by linear programming
(scipy's HiGHS: a bench and test dependency only, never on the Pi).

- ``exploit``: what a best reply gains against a player's ready mix in that game;
- ``coach``: the coach's verdicts (engine/bots/coach.py on engine/bots/onebattle.py, from the
  seat's view) against the exact solution, and the same verdicts over 5 seeds.
"""

import random
import time

from engine import apply
from engine.bots import Ending, answers, coach, evaluate, onebattle, seat_view, think

PRAISE_LOSS = 0.05     # a "good choice" that gives up more than this is wrong (issue 35's check)
BEST = 0.01            # an exact loss up to this is "as good as the best" (1 %, the display's unit)


class Budget:
    def __init__(self, n):
        self.left = n


def _turn_value(st, ending, budget, rnd):
    """Seat a's value of ``st`` with every remaining decision of this turn searched exactly."""
    if st.winner is not None or any(r["kind"] == "ready" for r in st.pending):
        return ending.leaf(st)
    req = st.pending[0]
    if req["kind"] == "setup" or budget.left <= 0:
        kind, value = evaluate.default_answer(st, req, rnd)
        s2 = st.copy()
        apply(s2, req["player"], kind, value, copy=False)
        return _turn_value(s2, ending, budget, rnd)
    best = None
    for ans in answers(st, req):
        budget.left -= 1
        s2 = st.copy()
        apply(s2, req["player"], req["kind"], ans, copy=False)
        v = _turn_value(s2, ending, budget, rnd)
        if req["player"] == "b":
            v = -v
        if best is None or v > best:
            best = v
    return best if req["player"] == "a" else -best


def exact_matrix(st, per_pair=400, seed=0):
    """The one-battle game at ready node ``st``: (a's options, b's options, A) with A[i][j] seat
    a's value after the pair (a's option i, b's option j), the rest of the turn searched exactly."""
    rnd = random.Random(seed)
    ending = Ending(st)
    ra = [r for r in st.pending if r["player"] == "a"][0]
    rb = [r for r in st.pending if r["player"] == "b"][0]
    A = []
    for x in ra["options"]:
        row = []
        for y in rb["options"]:
            s2 = st.copy()
            apply(s2, "a", "ready", x, copy=False)
            apply(s2, "b", "ready", y, copy=False)
            row.append(_turn_value(s2, ending, Budget(per_pair), rnd))
        A.append(row)
    return ra["options"], rb["options"], A


def for_seat(oa, ob, A, seat):
    """The game as ``seat`` sees it: (its options, the opponent's, its values)."""
    if seat == "a":
        return oa, ob, A
    return ob, oa, [[1.0 - A[i][j] for i in range(len(A))] for j in range(len(A[0]))]


def solve_lp(A):
    """(value, row mix) of the zero-sum matrix game A (rows maximize), by scipy's HiGHS LP."""
    from scipy.optimize import linprog
    n, m = len(A), len(A[0])
    # maximize v s.t. sum_i x_i A_ij >= v for all j, sum x = 1, x >= 0
    c = [0.0] * n + [-1.0]
    A_ub = [[-A[i][j] for i in range(n)] + [1.0] for j in range(m)]
    res = linprog(c, A_ub=A_ub, b_ub=[0.0] * m, A_eq=[[1.0] * n + [0.0]], b_eq=[1.0],
                  bounds=[(0, None)] * n + [(None, None)], method="highs")
    if res.status != 0:
        raise RuntimeError("linprog: %s" % res.message)
    return -res.fun, list(res.x[:n])


def exploitability(A, x):
    """What a best reply gains against row mix ``x`` in A: the game's value minus x's worst case."""
    v, _ = solve_lp(A)
    worst = min(sum(x[i] * A[i][j] for i in range(len(A))) for j in range(len(A[0])))
    return max(0.0, v - worst)


def exact_losses(A):
    """Each row's loss in the zero-sum game A, over the opponent's equilibria: (the least, the
    most), i.e. the game's value minus the row's best and worst value against an optimal column
    mix. A game often has many optimal mixes; a row that loses nothing against some of them and
    something against others is judged by both (a card is in an optimal mix of its seat exactly
    when it loses nothing against every optimal mix of the opponent)."""
    from scipy.optimize import linprog
    v, _ = solve_lp(A)
    n, m = len(A), len(A[0])
    # the opponent's optimal mixes: y >= 0, sum y = 1, every row's value against y at most v
    A_ub = [list(A[i]) for i in range(n)]
    b_ub = [v + 1e-9] * n
    out = []
    for i in range(n):
        vals = []
        for sign in (-1.0, 1.0):       # maximize, then minimize row i's value
            res = linprog([sign * A[i][j] for j in range(m)], A_ub=A_ub, b_ub=b_ub, A_eq=[[1.0] * m], b_eq=[1.0],
                          bounds=[(0, None)] * m, method="highs")
            vals.append(sign * res.fun if res.status == 0 else v)
        best, worst = vals[0], vals[1]
        out.append((max(0.0, v - best), max(0.0, v - worst)))
    return out, v


def cmd_exploit(args, positions):
    t0 = time.perf_counter()
    pos = positions(args.positions, seed0=args.seed)
    ex, ex_u, gaps = [], [], []
    for k, (ds, st) in enumerate(pos):
        seat = "a" if k % 2 == 0 else "b"
        mine, theirs, A = for_seat(*exact_matrix(st, per_pair=args.per_pair, seed=k), seat)
        t = think(st, seat, seed=k, level=args.level, iterations=args.iterations)
        x = [t.mix[t.options.index(o)] for o in mine]
        ex.append(exploitability(A, x))
        ex_u.append(exploitability(A, [1.0 / len(mine)] * len(mine)))
        gaps.append(max(max(r) for r in A) - min(min(r) for r in A))
    ex.sort()
    n = len(ex)
    mean = sum(ex) / n
    sd = (sum((e - mean) ** 2 for e in ex) / max(1, n - 1)) ** 0.5
    print("exploitability of the %s ready mix%s on %d one-battle games (LP, scipy HiGHS; every decision of the turn "
          "searched exactly up to %d expansions a pair; leaf: the search's): mean %.4f [95%% CI %.4f-%.4f], median "
          "%.4f, 90th pct %.4f, max %.4f; %d of %d within 0.05. Uniform mix: mean %.4f. Value spread in a matrix: "
          "mean %.3f. %.0f s" % (args.level, "" if not args.iterations else " (%d iterations)" % args.iterations, n,
                                 args.per_pair, mean, max(0.0, mean - 1.96 * sd / n ** 0.5), mean + 1.96 * sd / n ** 0.5,
                                 ex[n // 2], ex[int(n * 0.9)], ex[-1], sum(1 for e in ex if e <= 0.05), n,
                                 sum(ex_u) / n, sum(gaps) / n, time.perf_counter() - t0), flush=True)


def _replays(st, seat, mine, theirs, cited):
    """Does the cited judgment come out of the true state for that pair (the same outcome and rule)?"""
    if cited is None:
        return True
    e = coach.judge_pair(st, seat, mine, theirs, random.Random(0))
    return e is not None and e.get(seat) == cited["outcome"] and e["rule"] == cited["rule"]


def cmd_coach(args, positions):
    """The coach's verdict on every option of each position (as if the player had chosen it),
    against the exact one-battle solution of the true state, and over 5 seeds."""
    t0 = time.perf_counter()
    pos = positions(args.positions, seed0=args.seed)
    seeds = list(range(args.seeds))
    n_opt = stable_pos = best_stable = 0
    praised_loss = blamed_best = agree = 0
    why_wins = why_reply = why_bad = replay_bad = 0
    pairs = cpu = 0.0
    worst, blamed = [], []
    for k, (ds, st) in enumerate(pos):
        seat = "a" if k % 2 == 0 else "b"
        mine, theirs, A = for_seat(*exact_matrix(st, per_pair=args.per_pair, seed=k), seat)
        losses, _ = exact_losses(A)
        view = seat_view(st, seat)
        verdicts, bests = [], []
        for s in seeds:
            c0 = time.process_time()
            an = onebattle.solve(view, seat, st.cards, seed=1000 * k + s)
            cpu += time.process_time() - c0
            pairs += an.pairs
            verdicts.append({o: coach.verdict(an, o)[0] for o in an.options})
            bests.append(max(an.options, key=lambda o: (an.values[an.options.index(o)], an.mix[an.options.index(o)])))
            if s == seeds[0]:
                first = an
        stable_pos += all(v == verdicts[0] for v in verdicts)
        best_stable += all(b == bests[0] for b in bests)
        for o in first.options:
            n_opt += 1
            good = verdicts[0][o]
            least, most = losses[mine.index(o)]
            if good and least > PRAISE_LOSS:
                praised_loss += 1
                worst.append((round(least, 3), ds, k, o))
            if not good and most <= BEST:
                blamed_best += 1
                blamed.append((round(most, 4), round(coach.verdict(first, o)[1], 4), ds, k, o))
            agree += (good and least <= BEST) or (not good and most > PRAISE_LOSS) or \
                (BEST < least and most <= PRAISE_LOSS) or (least <= BEST and most > BEST and most <= PRAISE_LOSS) or \
                (least <= PRAISE_LOSS < most)
            line = coach.explain_choice(first, o, st.cards)
            why = line["why"]
            if why["how"] == "wins":
                why_wins += 1
                if why["judgment"] is None or why["judgment"]["outcome"] not in coach.WINS:
                    why_bad += 1
            else:
                why_reply += 1
            if not _replays(st, seat, o, why["reply"], why.get("judgment")):
                replay_bad += 1
    n = len(pos)
    print("coach on %d positions (%d options, each as if chosen; the seat's view, %d seeds): the verdict the same over "
          "the %d seeds at %d of %d positions (%.1f %%), the named best card at %d (%.1f %%). Against the exact one-battle "
          "solution (true state, LP; %d expansions a pair; a card's loss against the opponent's optimal mixes, the "
          "least and the most): 'good choice' giving up more than %.2f against every one: %d; 'you lost' on a card "
          "giving up at most %.2f against any: %d; verdicts agreeing (good where the least loss is <= %.2f, not good "
          "where the most is > %.2f, either between): %d of %d. Why: %d cite a judgment the card wins (%d of them not a win), %d the opponent's best "
          "reply; %d citations do not replay on the true state. %.0f pairs an analysis, %.3f CPU s an analysis here; "
          "%.0f s" % (n, n_opt, len(seeds), len(seeds), stable_pos, n, 100.0 * stable_pos / n, best_stable,
                      100.0 * best_stable / n, args.per_pair, PRAISE_LOSS, praised_loss, BEST, blamed_best, BEST,
                      PRAISE_LOSS, agree, n_opt, why_wins, why_bad, why_reply, replay_bad, pairs / (n * len(seeds)),
                      cpu / (n * len(seeds)), time.perf_counter() - t0), flush=True)
    if worst:
        print("  'good' cards losing more than %.2f against every optimal opponent: %s"
              % (PRAISE_LOSS, sorted(worst, reverse=True)[:8]))
    if blamed:
        print("  'you lost' cards losing at most %.2f against any optimal opponent (exact, the coach's): %s"
              % (BEST, sorted(blamed)[:8]))
