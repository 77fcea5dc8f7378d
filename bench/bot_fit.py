"""bench/bot.py fit-eval: the search's leaf value (engine/bots/evaluate.py WEIGHTS) and its
clock constants (engine/bots/ending.py END_HAZARD, SHARE_SPREAD), fitted on seeded games.

Games of greedy and random players (half each) and of the normal search player against itself,
on both deck sets, at a table with a clock (time during turn ``clock``, 3 extra turns, then
ruling R-time): each game's label is who won it, by the rules or at time (a draw 1/2). Each
game gives at most ``per_game`` positions (ready nodes drawn evenly over its length), so a long
game of two players repeating one pair does not outweigh the games that end; each position is
also seen from the other seat (every feature but the bias is a difference: the model knows no
seat, only the position).

The clock constants come from the search games: the chance that a turn ends the game by the
rules, and the spread of one turn's change of the health-share lead (a / start a - b / start b).
"""

import json
import math
import multiprocessing
import random

from engine import apply, decide_at_time, new_game
from engine.bots import Bot, evaluate

import bot_games

EXTRA = bot_games.EXTRA_TURNS


def _share_lead(st):
    pa, pb = st.players["a"], st.players["b"]
    return pa.health / pa.character.start_health - pb.health / pb.character.start_health


def fit_game(spec):
    """(positions [(features, label)], turns played, ended by the rules?, the per-turn lead changes)."""
    ds, seed, policy, clock, per_game = spec
    cards, da, db = bot_games.decks()[ds]
    st, _ = new_game(cards, da, db, seed=seed)
    bots = {"a": Bot(seed * 3 + 1, policy), "b": Bot(seed * 3 + 2, policy)}
    rows, leads = [], []
    last = clock + EXTRA
    winner = None
    while st.winner is None:
        if st.turn > last:
            winner = decide_at_time(st).winner
            break
        pend = st.pending
        if len(pend) == 2 and all(r["kind"] == "ready" for r in pend):
            f = evaluate.features(st)
            rows.append([f[k] for k in evaluate.FEATURES])
            leads.append(_share_lead(st))
        req = pend[0]
        left = last - st.turn + 1
        kind, value = bots[req["player"]].answer(st, req, turns_left=left)
        st, _ = apply(st, req["player"], kind, value, copy=False)
    by_rules = winner is None
    if by_rules:
        winner = st.winner
    y = 0.5 if winner == "draw" else (1.0 if winner == "a" else 0.0)
    if len(rows) > per_game:
        rnd = random.Random(seed)
        rows = [rows[i] for i in sorted(rnd.sample(range(len(rows)), per_game))]
    data = [(r, y) for r in rows] + [([r[0]] + [-x for x in r[1:]], 1.0 - y) for r in rows]
    steps = [b - a for a, b in zip(leads, leads[1:])]
    return data, st.turn, by_rules, steps


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
        step = solve_linear(H, g)
        w = [wi - si for wi, si in zip(w, step)]
        if max(abs(s) for s in step) < 1e-6:
            break
    return w


def solve_linear(A, b):
    """Gaussian elimination with partial pivoting (A x = b)."""
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


def log_loss(data, weights):
    s = 0.0
    for x, y in data:
        z = sum(weights[k] * xi for k, xi in zip(evaluate.FEATURES, x))
        p = min(1 - 1e-9, max(1e-9, 1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, z))))))
        s -= y * math.log(p) + (1 - y) * math.log(1 - p)
    return s / len(data)


def cmd_fit(args):
    sp = [(ds, 5000 + i, "greedy" if i % 2 == 0 else "random", args.clock, args.per_game)
          for i in range(args.games) for ds in ("sample", "entered")]
    sp += [(ds, 9000 + i, "normal", args.clock, args.per_game) for i in range(args.search_games)
           for ds in ("sample", "entered")]
    if args.jobs > 1:
        with multiprocessing.Pool(args.jobs) as pool:
            parts = pool.map(fit_game, sp, chunksize=4)
    else:
        parts = [fit_game(s) for s in sp]
    data = [row for p in parts for row in p[0]]
    w = logistic_fit(data)
    fitted = dict(zip(evaluate.FEATURES, w))
    print("fitted on %d positions (at most %d a game, each from both seats) from %d greedy, random and normal games "
          "(sample and entered decks; clock: time at turn %d, %d extra turns, ruling R-time): log loss %.4f (constant "
          "0.5: %.4f; the weights in engine/bots/evaluate.py now: %.4f)"
          % (len(data), args.per_game, len(sp), args.clock, EXTRA, log_loss(data, fitted), math.log(2),
             log_loss(data, evaluate.WEIGHTS)))
    print(json.dumps({k: round(v, 4) for k, v in fitted.items()}, indent=1))
    search = parts[2 * args.games:]
    if search:
        turns = sum(p[1] for p in search)
        ended = sum(1 for p in search if p[2])
        steps = [d for p in search for d in p[3]]
        spread = math.sqrt(sum(d * d for d in steps) / len(steps)) if steps else float("nan")
        print("clock constants from the %d normal-vs-normal games (engine/bots/ending.py): END_HAZARD = %.4f "
              "(%d ended by the rules in %d turns), SHARE_SPREAD = %.4f (root mean square of %d turns' change of "
              "the health-share lead)" % (len(search), ended / turns, ended, turns, spread, len(steps)))
