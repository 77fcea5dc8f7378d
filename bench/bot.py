"""The search player's figures (issues 24, 35): strength, how its games end, equilibrium quality,
the coach, cost. Prints figures with their intervals; asserts nothing (docs/performance.md
"Search player" keeps them with the commands).

    python3 bench/bot.py match --x strong --y normal --games 200 --clock 40 --out /tmp/sn.jsonl
    python3 bench/bot.py match --x strong --y mcts --y-simulations 20 --games 100    # OpenSpiel's MCTS
    python3 bench/bot.py budget --level strong --games 200 --clock 40 --out /tmp/b   # 2x vs 1x at the level's budget
    python3 bench/bot.py exploit --positions 200 [--level strong]   # the one-battle LP (scipy) against the ready mix
    python3 bench/bot.py coach --positions 100                      # verdicts vs the exact solution, over 5 seeds
    python3 bench/bot.py cost [--positions 12]      # callgrind instructions per decision, each level, the coach
    python3 bench/bot.py calibrate [--positions 12] # callgrind: fits engine/bots/cost.py (prints it)
    python3 bench/bot.py playouts [--seconds 6] [--count]   # random playouts from a first ready
    python3 bench/bot.py fit-eval --games 400       # refits engine/bots/evaluate.py WEIGHTS and the clock constants
    python3 bench/bot.py --smoke                    # every command, small (CI): seconds, figures meaningless

Games (bench/bot_games.py): paired seeds over both deck sets ("sample": the bundled Serin and
Gangcheol; "entered": the two decks of tests/engine/data/entered, written as a player enters
cards), each player taking each seat and deck equally often. ``--clock T``: a table with a clock
(time during turn T, 3 extra turns, ruling R-time), the bots told the turns left; without it
only the rules end a game and ``--max-turns`` stops it (counted as "stopped"). Scores count a draw
as half; intervals are normal 95 % intervals, per game and over seed pairs. ``--out`` saves each
finished game (JSON lines): a long run is split into chunks that resume where they stopped.
Long runs share a machine: run them with ``nice``, one at a time.
"""

import argparse
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, ".."))

from engine.bots import SEARCH_LEVELS  # noqa: E402

import bot_games  # noqa: E402


def _spec(policy, iterations, budget_m, config, simulations=None):
    return {"policy": policy, "iterations": iterations, "budget": None if budget_m is None else budget_m * 1e6,
            "config": config, "simulations": simulations}


def _label(spec):
    s = spec["policy"]
    if spec.get("simulations"):
        s += "@%d simulations" % spec["simulations"]
    if spec.get("iterations"):
        s += "@%d" % spec["iterations"]
    if spec.get("budget"):
        s += "@%gM" % (spec["budget"] / 1e6)
    if spec.get("config"):
        s += json.dumps(spec["config"], separators=(",", ":"))
    return s


def parser():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--smoke", action="store_true", help="run every command small (seconds): CI's check that it runs")
    sub = ap.add_subparsers(dest="cmd")
    m = sub.add_parser("match")
    m.add_argument("--x", default="strong")
    m.add_argument("--y", default="greedy")
    for side in ("x", "y"):
        m.add_argument("--%s-iterations" % side, type=int)
        m.add_argument("--%s-budget" % side, type=float, help="M estimated instructions a ready decision")
        m.add_argument("--%s-config" % side, type=json.loads, help='search settings, JSON: {"horizon": 2}')
        m.add_argument("--%s-simulations" % side, type=int, help="OpenSpiel MCTS simulations a decision (mcts)")
    b = sub.add_parser("budget")
    b.add_argument("--level", default="strong")
    b.add_argument("--budgets", default=None, help="1x budgets, M estimated instructions (default: the level's)")
    for p in (m, b):
        p.add_argument("--games", type=int, default=200)
        p.add_argument("--jobs", type=int, default=1)
        p.add_argument("--decks", default="sample,entered")
        p.add_argument("--seed", type=int, default=0)
        p.add_argument("--max-turns", type=int, default=120, help="the stop of a game without a clock")
        p.add_argument("--clock", type=int, default=None,
                       help="time is called during this turn (then 3 extra turns and ruling R-time); default: no clock")
        p.add_argument("--out", help="a JSON-lines file of finished games: a run resumes from it")
    e = sub.add_parser("exploit")
    e.add_argument("--positions", type=int, default=200)
    e.add_argument("--level", default="strong")
    e.add_argument("--iterations", type=int)
    e.add_argument("--per-pair", type=int, default=400)
    e.add_argument("--seed", type=int, default=1000)
    co = sub.add_parser("coach")
    co.add_argument("--positions", type=int, default=100)
    co.add_argument("--seeds", type=int, default=5)
    co.add_argument("--per-pair", type=int, default=400)
    co.add_argument("--seed", type=int, default=2000)
    for name in ("cost", "cost-worker"):
        c = sub.add_parser(name)
        c.add_argument("--positions", type=int, default=12)
    for name in ("calibrate", "calibrate-worker"):
        cb = sub.add_parser(name)
        cb.add_argument("--positions", type=int, default=12)
        cb.add_argument("--sizes", default="20,80,240", help="iterations of the counted searches")
        cb.add_argument("--save", help="keep the counts (JSON) to refit with --load")
        cb.add_argument("--load", help="refit from counts kept by --save (no counting)")
    pl = sub.add_parser("playouts")
    pl.add_argument("--seconds", type=float, default=6.0)
    pl.add_argument("--count", action="store_true", help="also count instructions (callgrind)")
    sub.add_parser("playouts-worker")
    f = sub.add_parser("fit-eval")
    f.add_argument("--games", type=int, default=400)
    f.add_argument("--search-games", type=int, default=100)
    f.add_argument("--jobs", type=int, default=1)
    f.add_argument("--clock", type=int, default=40)
    f.add_argument("--per-game", type=int, default=12)
    return ap


def run(args):
    if args.cmd == "match":
        x = _spec(args.x, args.x_iterations, args.x_budget, args.x_config, args.x_simulations)
        y = _spec(args.y, args.y_iterations, args.y_budget, args.y_config, args.y_simulations)
        bot_games.run_match("%s vs %s" % (_label(x), _label(y)), x, y, args.games, args.jobs, args.decks.split(","),
                            args.seed, args.max_turns, args.clock, args.out)
    elif args.cmd == "budget":
        # budgets in millions of estimated instructions a ready decision (engine/bots/cost.py; a
        # sequential decision gets a quarter): 2x against 1x at each, the level's search otherwise
        budgets = [float(v) for v in args.budgets.split(",")] if args.budgets else \
            [SEARCH_LEVELS[args.level]["budget"] / 1e6]
        for n in budgets:
            x = _spec(args.level, None, 2 * n, None)
            y = _spec(args.level, None, n, None)
            out = None if not args.out else "%s.%g" % (args.out, n)
            bot_games.run_match("%s vs %s" % (_label(x), _label(y)), x, y, args.games, args.jobs,
                                args.decks.split(","), args.seed, args.max_turns, args.clock, out)
    elif args.cmd in ("exploit", "coach"):
        import bot_exact
        fn = bot_exact.cmd_exploit if args.cmd == "exploit" else bot_exact.cmd_coach
        fn(args, bot_games.ready_positions)
    elif args.cmd == "fit-eval":
        import bot_fit
        bot_fit.cmd_fit(args)
    else:
        import bot_cost
        {"cost": bot_cost.cmd_cost, "cost-worker": bot_cost.cost_worker, "calibrate": bot_cost.cmd_calibrate,
         "calibrate-worker": bot_cost.calibrate_worker, "playouts": bot_cost.cmd_playouts,
         "playouts-worker": lambda a: bot_cost.playouts_worker(a)}[args.cmd](args)


SMOKE = [
    ["match", "--x", "strong", "--x-iterations", "12", "--y", "normal", "--y-iterations", "6", "--games", "2",
     "--clock", "3"],
    ["match", "--x", "normal", "--x-iterations", "6", "--y", "greedy", "--games", "2", "--max-turns", "4"],
    ["budget", "--level", "normal", "--budgets", "2", "--games", "2", "--clock", "2"],
    ["exploit", "--positions", "2", "--iterations", "8", "--per-pair", "10"],
    ["coach", "--positions", "2", "--seeds", "2", "--per-pair", "10"],
    ["playouts", "--seconds", "0.3"],
    ["fit-eval", "--games", "2", "--search-games", "1", "--clock", "3", "--per-game", "3"],
]


def smoke():
    """Every command small, counted instructions left out (callgrind takes minutes): a bench
    that no longer runs is seen by CI. The OpenSpiel MCTS match runs where open_spiel is installed."""
    ap = parser()
    cmds = list(SMOKE)
    try:
        import pyspiel  # noqa: F401
        cmds.append(["match", "--x", "normal", "--x-iterations", "6", "--y", "mcts", "--y-simulations", "2",
                     "--games", "2", "--clock", "2"])
    except ImportError:
        print("smoke: open_spiel is not installed: the MCTS match is left out")
    for argv in cmds:
        print("smoke: bench/bot.py %s" % " ".join(argv), flush=True)
        run(ap.parse_args(argv))


def main(argv=None):
    ap = parser()
    args = ap.parse_args(argv)
    if args.smoke:
        smoke()
    elif args.cmd is None:
        ap.error("a command is needed (or --smoke)")
    else:
        run(args)


if __name__ == "__main__":
    main()
