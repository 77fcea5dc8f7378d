"""bench/bot.py's games: two players over paired seeds and both deck sets, at a table with or
without a clock, each result saved as it ends (a long run is a set of chunks that resume).

A table's clock is counted in turns (``clock``: time is called during that turn): the turn in
progress is played to its end and then 3 extra turns, and a game still undecided after them is
decided by ruling R-time (``engine.decide_at_time``: the larger share of one's own starting
health, then fewer non-responses, then a drawn game). Each search player is told the turns left
before that decision at every decision it makes (``turns_left``, engine/bots/ending.py). Without
a clock nothing ends a game but the rules; ``max_turns`` is then the bench's stop, scored as a
draw and counted apart ("stopped"): a game that reaches it never ended.

Paired seeds: seed k is played twice with the same deal, coin toss and seats' decks, the
players swapping places (x in seat a with deck A, then y there), so what the deal and the toss
favour cancels out; the next seed swaps the decks over, and deck sets alternate by seed pair.
"""

import json
import math
import multiprocessing
import os
import random
import time

from engine import apply, decide_at_time, new_game
from engine.bots import Bot, Config
from engine.cards import load_deck, load_sample, without_effects

HERE = os.path.dirname(os.path.abspath(__file__))
ENTERED = os.path.join(HERE, "..", "tests", "engine", "data", "entered", "decks")
EXTRA_TURNS = 3          # ruling R-time, step 2


def decksets():
    cs, decks = load_sample()
    out = {"sample": (cs.cards, decks["serin"].as_game_deck(), decks["gangcheol"].as_game_deck())}
    da, _ = load_deck(os.path.join(ENTERED, "haneul.yaml"))
    db, _ = load_deck(os.path.join(ENTERED, "mujin.yaml"))
    out["entered"] = (da.cardset.cards, da.as_game_deck(), db.as_game_deck())
    out["vanilla"] = without_effects(cs.cards, decks["serin"].as_game_deck(), decks["gangcheol"].as_game_deck())
    return out


_DECKS = None


def decks():
    global _DECKS
    if _DECKS is None:
        _DECKS = decksets()
    return _DECKS


def player(spec, seed):
    """A Bot from a player spec {"policy", "iterations", "budget", "config"} (config: Config keywords),
    or OpenSpiel's MCTS ({"policy": "mcts", "simulations": n}, bench/bot_mcts.py)."""
    if spec["policy"] == "mcts":
        import bot_mcts
        return bot_mcts.MctsPlayer(seed, spec["simulations"])
    cfg = spec.get("config")
    config = None
    if cfg:
        level = spec["policy"] if spec["policy"] in ("normal", "strong") else "strong"
        config = Config.level(level, spec.get("iterations"), spec.get("budget"))
        for k, v in cfg.items():
            if k not in Config.__slots__:
                raise ValueError("no search setting %r (settings: %s)" % (k, ", ".join(Config.__slots__)))
            setattr(config, k, v)
    return Bot(seed, spec["policy"], spec.get("iterations"), spec.get("budget"), config=config)


def play_game(g):
    """One game (a dict: deckset, x, y player specs, x_seat, x_deck_a, seed, max_turns, clock).
    Returns the result as a dict: x's score (1, 1/2, 0), how it ended ("rules", "time",
    "stopped"), the turns and battles played, and what R-time's decision said when it decided."""
    cards, da, db = decks()[g["deckset"]]
    xseat = g["x_seat"]
    yseat = "b" if xseat == "a" else "a"
    deck_x, deck_y = (da, db) if g["x_deck_a"] else (db, da)
    seat_decks = {xseat: deck_x, yseat: deck_y}
    st, _ = new_game(cards, seat_decks["a"], seat_decks["b"], seed=g["seed"])
    # each seat's bot is seeded by the game's seed and the seat: the paired game has the same ones
    bots = {xseat: player(g["x"], g["seed"] * 2 + (1 if xseat == "a" else 2)),
            yseat: player(g["y"], g["seed"] * 2 + (1 if yseat == "a" else 2))}
    clock = g.get("clock")
    last_turn = None if clock is None else clock + EXTRA_TURNS
    ended, at_time = "rules", None
    t0 = time.process_time()
    cpu = {"a": 0.0, "b": 0.0}
    asked = {"a": 0, "b": 0}
    while st.winner is None:
        if last_turn is not None and st.turn > last_turn:
            d = decide_at_time(st)
            ended, at_time = "time", d.decided_by
            winner = d.winner
            break
        if st.turn > g["max_turns"]:
            ended, winner = "stopped", "draw"
            break
        req = st.pending[0]
        left = None if last_turn is None else last_turn - st.turn + 1
        t1 = time.process_time()
        kind, value = bots[req["player"]].answer(st, req, turns_left=left)
        cpu[req["player"]] += time.process_time() - t1
        asked[req["player"]] += 1
        st, _ = apply(st, req["player"], kind, value, copy=False)
    else:
        winner = st.winner
    score = 0.5 if winner == "draw" else (1.0 if winner == xseat else 0.0)
    return {"game": g["game"], "deckset": g["deckset"], "seed": g["seed"], "x_seat": xseat, "score": score,
            "ended": ended, "at_time": at_time, "turns": st.turn, "battles": st.battles,
            "cpu": round(time.process_time() - t0, 2), "x_cpu": round(cpu[xseat], 3), "y_cpu": round(cpu[yseat], 3),
            "x_decisions": asked[xseat], "y_decisions": asked[yseat]}


def schedule(n, x, y, sets, seed0, max_turns, clock):
    """``n`` games over paired seeds (see the module's docstring), numbered from 0."""
    out = []
    k = 0
    while len(out) < n:
        ds = sets[(k // 2) % len(sets)]
        x_deck_a = k % 2 == 0
        seed = seed0 + k
        for x_seat in ("a", "b"):
            # x in seat a with deck A (or B), then the same seat and deck for y: x takes the other
            x_has_a = x_deck_a if x_seat == "a" else not x_deck_a
            if len(out) < n:
                out.append({"game": len(out), "deckset": ds, "x": x, "y": y, "x_seat": x_seat, "x_deck_a": x_has_a,
                            "seed": seed, "max_turns": max_turns, "clock": clock})
        k += 1
    return out


def score_ci(scores):
    """Mean and normal 95 % interval of per-game scores."""
    n = len(scores)
    m = sum(scores) / n
    var = sum((s - m) ** 2 for s in scores) / max(1, n - 1)
    h = 1.96 * math.sqrt(var / n)
    return m, max(0.0, m - h), min(1.0, m + h)


def paired_ci(results):
    """The mean and 95 % interval over seed pairs (a pair's mean score is one sample: the deal's
    and the toss's luck, shared by the pair, cancels within it); None without complete pairs."""
    by = {}
    for r in results:
        by.setdefault(r["seed"], []).append(r["score"])
    pairs = [sum(v) / len(v) for v in by.values() if len(v) == 2]
    return score_ci(pairs) + (len(pairs),) if len(pairs) >= 2 else None


def load_results(path):
    out = {}
    if path and os.path.exists(path):
        with open(path) as f:
            for line in f:
                line = line.strip()
                if line:
                    r = json.loads(line)
                    out[r["game"]] = r
    return out


def run_match(name, x, y, games, jobs, sets, seed0, max_turns, clock, out=None, every=50):
    """Play (or resume, from ``out``: one JSON line a finished game) and print the summary."""
    sched = schedule(games, x, y, sets, seed0, max_turns, clock)
    done = load_results(out)
    for r in done.values():
        if r["game"] < len(sched) and r["seed"] != sched[r["game"]]["seed"]:
            raise SystemExit("%s holds another schedule's games (game %d has seed %d): use a new --out"
                             % (out, r["game"], r["seed"]))
    todo = [g for g in sched if g["game"] not in done]
    t0 = time.perf_counter()
    pool = multiprocessing.Pool(jobs) if jobs > 1 and len(todo) > 1 else None
    sink = open(out, "a") if out else None
    try:
        it = pool.imap_unordered(play_game, todo, chunksize=1) if pool else map(play_game, todo)
        for r in it:
            done[r["game"]] = r
            if sink:
                sink.write(json.dumps(r) + "\n")
                sink.flush()
            got = [done[g["game"]] for g in sched if g["game"] in done]
            if every and len(got) % every == 0 and len(got) < len(sched):
                m, lo, hi = score_ci([q["score"] for q in got])
                print("  (%s: %d of %d games so far, score %.3f [%.3f-%.3f], %.0f s)"
                      % (name, len(got), len(sched), m, lo, hi, time.perf_counter() - t0), flush=True)
    finally:
        if pool is not None:
            pool.close()
            pool.join()
        if sink:
            sink.close()
    res = [done[g["game"]] for g in sched]
    summary(name, res, max_turns, clock, jobs, time.perf_counter() - t0)
    return res


def summary(name, res, max_turns, clock, jobs=1, wall=0.0):
    scores = [r["score"] for r in res]
    m, lo, hi = score_ci(scores)
    w = sum(1 for s in scores if s == 1.0)
    d = sum(1 for s in scores if s == 0.5)
    ends = {k: sum(1 for r in res if r["ended"] == k) for k in ("rules", "time", "stopped")}
    by_time = {}
    for r in res:
        if r["ended"] == "time":
            by_time[r["at_time"]] = by_time.get(r["at_time"], 0) + 1
    per = []
    for ds in dict.fromkeys(r["deckset"] for r in res):
        sub = [r["score"] for r in res if r["deckset"] == ds]
        dm, dlo, dhi = score_ci(sub) if len(sub) > 1 else (sub[0], sub[0], sub[0])
        per.append("%s %.3f [%.3f-%.3f] (%d)" % (ds, dm, dlo, dhi, len(sub)))
    pc = paired_ci(res)
    paired = "" if pc is None else "; over %d seed pairs %.3f [%.3f-%.3f]" % (pc[3], pc[0], pc[1], pc[2])
    table = "no clock, stop at %d turns" % max_turns if clock is None else "clock: time at turn %d, then %d extra turns" % (
        clock, EXTRA_TURNS)
    xc, yc = sum(r.get("x_cpu", 0) for r in res), sum(r.get("y_cpu", 0) for r in res)
    cpu = "" if not yc else "; CPU x/y %.2f" % (xc / yc)
    print("%s: %d games (%s), score %.3f [95%% CI %.3f-%.3f]%s; %d won, %d drawn, %d lost; ended by the rules %d, "
          "at time %d%s, stopped %d; %s; %.1f turns a game; %.1f CPU s a game%s; %.0f s wall, %d jobs"
          % (name, len(scores), table, m, lo, hi, paired, w, d, len(scores) - w - d, ends["rules"], ends["time"],
             " (%s)" % ", ".join("%s %d" % kv for kv in sorted(by_time.items())) if by_time else "", ends["stopped"],
             "; ".join(per), sum(r["turns"] for r in res) / len(res), sum(r["cpu"] for r in res) / len(res), cpu, wall,
             jobs),
          flush=True)
    return m, lo, hi


# ---------------------------------------------------------------- positions

def ready_positions(count, seed0=1000, sets=("sample", "entered"), policy="greedy"):
    """Real states at ready nodes (both readies pending) from seeded games of ``policy``
    bots: one position a game, at a turn drawn between 1 and 12 (or the game's end)."""
    out = []
    rnd = random.Random(seed0)
    k = 0
    while len(out) < count:
        ds = sets[k % len(sets)]
        cards, da, db = decks()[ds]
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


def seq_positions(count, seed0=300, sets=("sample", "entered")):
    """Real states where one seat makes a sequential decision (get, discard, combo, catch, ...)
    with two or more answers, from seeded greedy games: one a game."""
    out = []
    k = 0
    while len(out) < count:
        ds = sets[k % len(sets)]
        cards, da, db = decks()[ds]
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
