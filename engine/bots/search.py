"""The search player: simultaneous-move Monte Carlo tree search over what a seat may see.

Lumen Condenser is nearly a perfect-information game around one simultaneous hidden choice a
turn (the ready), so the search is SM-MCTS (Lanctot, Lisý and Winands, *Monte Carlo Tree
Search in Simultaneous Move Games*, 2013) over determinizations (ISMCTS, Cowling, Powley and
Whitehouse 2012):

- every iteration plays one *world*: the seat's view rebuilt with the opponent's side deck
  sampled (engine/bots/knowledge.py); a fixed set of worlds is drawn once per search, stratified,
  and used in turn, so the search never reads the opponent's readied card or their side deck;
- at a **ready node** (both readies pending) each seat plays regret matching (RM+, linear
  averaging) on the matrix of the node's mean values, one full-information update per visit;
  the ready pair to play is drawn from each seat's current strategy mixed with exploration.
  At the root the pairs are first tried once each (round robin), and the final mix is the
  equilibrium of the root's value matrix, solved with more RM+ iterations once the
  iterations are spent (no engine calls);
- the root's other decisions (combo, catch, get, discard, nullify, replenish, pick, an effect's
  choose) and, below the root, the battle's own (``Config.branch``) are **sequential nodes**:
  UCB1 for the seat deciding, below the root opening answers one by one (progressive widening,
  the default policy's first); the decisions not branched on are played by the default policy;
- below the tree, the fast greedy policy of engine/bots/evaluate.py plays to the **horizon** (the
  next ready node, ``horizon`` ready nodes deep), where the leaf is valued as the table ends the
  game (engine/bots/ending.py): a finished game 1, 0 or 1/2; past the table's last turn, ruling
  R-time; a loop back to the root's position, its end; else ``evaluate.value`` (a's win chance),
  blended with the standing at time when the table has a clock.

Pure and seeded: no clock, no I/O; the same view, request, seed and budget give the same
``Thought``. The engine is used only through engine.api.game (``apply`` in place on a copy of a
world per iteration: one ``GameState.copy``, no undo) and the state's JSON.

A search is budgeted in estimated instructions (engine/bots/cost.py: what it did, counted, no
clock) or in iterations; ``LEVELS`` says why the levels think as long as they do.
"""

import itertools
import math
import random

from engine.bots import cost, evaluate
from engine.bots.coach import explain_thought
from engine.bots.ending import Ending
from engine.bots.matrix import draw, floor_mix, rm_step, rm_strategy, solve_matrix
from engine.bots.knowledge import Unseen, rebuild, seat_view
from engine.api.game import apply
from engine.play.state import SEATS, GameState, PlayerState

# The levels a table offers (easy is the greedy bot of engine/bots/players.py; no search), budgeted in
# estimated x86-64 instructions a decision (engine/bots/cost.py). One search, two amounts of thought,
# chosen by measurement (bench/bot.py budget, docs/performance.md "Search player"): doubling the
# budget wins 0.79 of the games at 25 M, 0.68 at 50 M, 0.51 at 100 M and 0.51 at 200 M, so strength
# stops growing near 100 M: strong stops there (~0.24 s of a Cortex-A53 core at cost.A53_IPS, far
# inside the second a ready may take), and normal thinks 40 % as long.
# Below the root the tree branches on the battle's own decisions only (BATTLE_KINDS): the get
# phase, discards and replenishes are played by the default policy, which beat branching on them
# (at 400 M: 0.56 against a horizon-2 search, which beat today's normal 0.62).
BATTLE_KINDS = ("combo", "catch", "nullify", "choose", "pick", "replenish")
LEVELS = {
    "normal": {"budget": 40e6, "horizon": 1, "branch": BATTLE_KINDS},
    "strong": {"budget": 100e6, "horizon": 1, "branch": BATTLE_KINDS},
}

SEQ_SHARE = 4      # a sequential decision gets 1/SEQ_SHARE of the level's budget
SEQ_MIN = 16

# the mean cost of one iteration at a ready decision (calibrate's searches), for iterations_for
INSTRUCTIONS_PER_ITERATION = 1.25e6


def iterations_for(seconds, instructions_per_second=cost.A53_IPS, per_iteration=INSTRUCTIONS_PER_ITERATION,
                   fixed=cost.READY["fixed"]):
    """How many iterations a ready decision can run in ``seconds`` of one core at
    ``instructions_per_second`` (on average: a position with more options costs more; a
    budget in instructions, ``Config(budget=instructions_for(seconds))``, holds at each one)."""
    return max(1, int((seconds * instructions_per_second - fixed) / per_iteration))


class Config:
    """Search parameters. The budget is ``iterations`` when given, else ``budget`` (estimated
    instructions: ``estimate``); the rest rarely needs changing."""

    __slots__ = ("iterations", "budget", "horizon", "explore", "ucb", "worlds", "final_rm", "floor", "branch")

    def __init__(self, iterations=None, budget=None, horizon=1, explore=0.2, ucb=0.4, worlds=8, final_rm=400,
                 floor=0.03, branch=None):
        if iterations is None and budget is None:
            budget = LEVELS["strong"]["budget"]
        self.iterations = iterations
        self.budget = budget          # estimated instructions a decision (when no iteration count is given)
        self.horizon = horizon        # ready nodes below the root before the leaf value counts
        self.explore = explore        # uniform share of the pair drawn at a ready node
        self.ucb = ucb                # UCB1 exploration constant (values are win chances)
        self.worlds = worlds          # determinizations drawn per search
        self.final_rm = final_rm      # RM+ iterations on the root matrix at the end
        self.floor = floor            # root mix entries below this are dropped (noise, not strategy)
        self.branch = branch          # sequential kinds the tree branches on below the root (None: all)

    def copy(self):
        c = Config.__new__(Config)
        for k in Config.__slots__:
            setattr(c, k, getattr(self, k))
        return c

    @classmethod
    def level(cls, name, iterations=None, budget=None):
        if name not in LEVELS:
            raise ValueError("unknown level %r (levels: %s)" % (name, ", ".join(LEVELS)))
        kw = dict(LEVELS[name])
        if iterations is not None:
            kw["iterations"] = iterations
        if budget is not None:
            kw["budget"] = budget
        return cls(**kw)


def _key(o):
    return tuple(o) if isinstance(o, list) else o


def _signature(st):
    """What the next decision is: ("over",), ("ready", opts a, opts b), (player, kind, answers),
    or ("auto",) for a decision the tree does not branch on (a sudden-death setup)."""
    if st.winner is not None:
        return ("over",)
    pend = st.pending
    if len(pend) == 2 and pend[0]["kind"] == "ready" and pend[1]["kind"] == "ready":
        ra, rb = (pend[0], pend[1]) if pend[0]["player"] == "a" else (pend[1], pend[0])
        return ("ready", tuple(ra["options"]), tuple(rb["options"]))
    r = pend[0]
    if r["kind"] == "setup":
        return ("auto",)
    if r["kind"] == "discard":
        # the hand and the count say which sets ``answers`` would offer, without ranking them
        # (a ranking of every set of the hand at every visit cost more than the engine's work)
        return (r["player"], "discard", r["count"], tuple(sorted(st.players[r["player"]].hand)))
    return (r["player"], r["kind"], tuple(_key(o) for o in r["options"]))


DISCARD_CANDIDATES = 8


def answers(st, req):
    """The answers a node branches on: the options, or for a discard of ``count`` cards the
    distinct sets of that size, the ``DISCARD_CANDIDATES`` least valuable first."""
    if req["kind"] != "discard":
        return req["options"]
    hand = st.players[req["player"]].hand
    count = req["count"]
    if count == 1:
        return [[c] for c in dict.fromkeys(hand)]
    seen = {}
    for combo in itertools.combinations(sorted(hand), count):
        if combo not in seen:
            seen[combo] = sum(evaluate.card_value(st, c) for c in combo)
    ranked = sorted(seen, key=lambda c: (seen[c], c))[:DISCARD_CANDIDATES]
    return [list(c) for c in ranked]


def _auto(st, rnd, search=None, branch=None):
    """Play the decisions the tree does not branch on (setups; with ``branch``, the sequential
    kinds not in it) with the default policy."""
    while st.winner is None and st.pending and (
            st.pending[0]["kind"] == "setup" or
            (branch is not None and st.pending[0]["kind"] not in branch and st.pending[0]["kind"] != "ready")):
        req = st.pending[0]
        kind, value = evaluate.default_answer(st, req, rnd)
        _, events = apply(st, req["player"], kind, value, copy=False)
        if search is not None:
            search.applies += 1
            search.events += len(events)
    return _signature(st)


# ---------------------------------------------------------------- nodes

class SimNode:
    """A ready node: both seats choose at once. Values are seat a's."""

    __slots__ = ("opts", "W", "N", "ra", "rb", "sa", "sb", "t", "visits", "vsum", "children", "robin", "prior")

    def __init__(self, opts_a, opts_b, prior=None):
        self.opts = (list(opts_a), list(opts_b))
        n, m = len(opts_a), len(opts_b)
        self.W = [[0.0] * m for _ in range(n)]
        self.N = [[0] * m for _ in range(n)]
        self.ra, self.rb = [0.0] * n, [0.0] * m
        self.sa, self.sb = [0.0] * n, [0.0] * m
        self.t = 0
        self.visits = 0
        self.vsum = 0.0
        self.children = {}
        self.robin = None
        self.prior = prior          # below the root: the node's leaf value when it was reached first

    def q(self):
        prior = self.prior if self.prior is not None else self.vsum / self.visits if self.visits else 0.5
        return [[(w / c if c else prior) for w, c in zip(wr, nr)] for wr, nr in zip(self.W, self.N)]

    def estimate(self):
        """The node's value (a's) with both seats playing their average RM+ strategies on its
        matrix: what a ready node below the root passes up, rather than the value of the one
        pair an iteration happened to draw there (uniform at first: the value of random play)."""
        ta, tb = sum(self.sa), sum(self.sb)
        if ta <= 0.0 or tb <= 0.0:
            return self.prior if self.prior is not None else 0.5
        q = self.q()
        v = 0.0
        for i, row in enumerate(q):
            pa = self.sa[i]
            if pa:
                acc = 0.0
                for x, pb in zip(row, self.sb):
                    acc += x * pb
                v += pa * acc
        return v / (ta * tb)

    def select(self, rnd, explore):
        if self.robin is not None and self.robin < len(self.opts[0]) * len(self.opts[1]):
            k = self.robin
            self.robin += 1
            return divmod(k, len(self.opts[1]))
        return (draw(rm_strategy(self.ra), explore, rnd), draw(rm_strategy(self.rb), explore, rnd))

    def update(self, action, v):
        i, j = action
        self.W[i][j] += v
        self.N[i][j] += 1
        self.visits += 1
        self.vsum += v
        self.t += 1
        rm_step(self.q(), self.ra, self.rb, self.sa, self.sb, float(self.t))


class SeqNode:
    """One seat decides (UCB1 on that seat's win chance). Below the root the options open one
    by one (progressive widening: 1 + sqrt(visits) of them, the default policy's answer first),
    so that a get phase of ten cards does not take ten iterations before the tree goes deeper."""

    __slots__ = ("player", "kind", "opts", "W", "N", "visits", "vsum", "children", "order")

    def __init__(self, player, kind, opts, first=None):
        self.player = player
        self.kind = kind
        self.opts = list(opts)
        self.W = [0.0] * len(opts)
        self.N = [0] * len(opts)
        self.visits = 0
        self.vsum = 0.0
        self.children = {}
        # None: every option open at once (the root: each option's value is wanted)
        self.order = None if first is None else [first] + [i for i in range(len(opts)) if i != first]

    def select(self, rnd, c):
        order = self.order
        if order is None:
            open_ = range(len(self.N))
        else:
            open_ = order[:1 + int(math.sqrt(self.visits))]
        for i in open_:
            if self.N[i] == 0:
                return i
        logn = math.log(self.visits)
        flip = self.player == "b"
        best, best_s = 0, -1.0
        for i in open_:
            w, n = self.W[i], self.N[i]
            mean = w / n
            if flip:
                mean = 1.0 - mean
            s = mean + c * math.sqrt(logn / n)
            if s > best_s:
                best, best_s = i, s
        return best

    def update(self, action, v):
        self.W[action] += v
        self.N[action] += 1
        self.visits += 1
        self.vsum += v


def _new_node(st, sig, prior=None, rnd=None):
    """The node of decision ``sig`` at ``st``: below the root (``rnd`` given) a sequential node
    opens the default policy's answer first."""
    if sig[0] == "ready":
        return SimNode(sig[1], sig[2], prior)
    r = st.pending[0]
    opts = answers(st, r)
    first = None
    if rnd is not None:
        _, value = evaluate.default_answer(st, r, rnd)
        key = _key(sorted(value) if r["kind"] == "discard" else value)
        keys = [_key(sorted(o) if r["kind"] == "discard" else o) for o in opts]
        first = keys.index(key) if key in keys else 0
    return SeqNode(r["player"], r["kind"], opts, first)


# ---------------------------------------------------------------- the search

class Search:
    """One decision's search. ``run(n)`` adds n iterations (anytime); ``thought()`` reads it."""

    def __init__(self, rebuilt, request, config, seed, turns_left=None):
        self.rb = rebuilt
        self.seat = rebuilt.seat
        self.request = request
        self.cfg = config
        self.rnd = random.Random(seed)
        self.worlds = rebuilt.worlds(self.rnd, max(1, config.worlds))     # stratified: knowledge.Rebuilt.worlds
        self.done = 0
        self.applies = 0          # engine decisions applied: with ``done``, what the search has cost
        self.events = 0           # the events they emitted (the engine's work: judgments, damage, moves)
        st = self.worlds[0]
        self.ending = Ending(st, turns_left)     # how this table ends the game (engine/bots/ending.py)
        self.effects = cost.effect_share(st)      # the cost model's (engine/bots/cost.py)
        sig = _signature(st)
        if sig[0] == "over":
            raise Unseen("the game is over")
        self.root = _new_node(st, sig)
        if isinstance(self.root, SimNode):
            self.root.robin = 0
        self.sig = sig

    def run(self, iterations):
        for _ in range(iterations):
            st = self.worlds[self.done % len(self.worlds)].copy()
            self._iterate(st)
            self.done += 1

    def cost(self):
        """The instructions this search has spent so far, estimated from what it did
        (engine/bots/cost.py): the budget a level is given is counted in these."""
        root = self.root
        if isinstance(root, SimNode):
            return cost.estimate(True, self.done, self.applies, self.events, len(root.opts[0]) * len(root.opts[1]),
                                 self.effects)
        return cost.estimate(False, self.done, self.applies, self.events, 0, self.effects)

    def run_budget(self, instructions, cap=None):
        """Iterate until the estimated cost reaches ``instructions`` (at least one iteration;
        at most ``cap``). Deterministic: the estimate counts work done, it reads no clock."""
        while self.done == 0 or (self.cost() < instructions and (cap is None or self.done < cap)):
            self.run(1)

    def _play(self, st, node, action):
        if isinstance(node, SimNode):
            i, j = action
            a, b = node.opts[0][i], node.opts[1][j]
            for r in list(st.pending):
                p = r["player"]
                _, events = apply(st, p, "ready", a if p == "a" else b, copy=False)
                self.applies += 1
                self.events += len(events)
        else:
            _, events = apply(st, node.player, node.kind, node.opts[action], copy=False)
            self.applies += 1
            self.events += len(events)

    def _iterate(self, st):
        cfg, rnd, ending = self.cfg, self.rnd, self.ending
        node = self.root
        path = []
        readies = 0
        while True:
            if isinstance(node, SimNode):
                action = node.select(rnd, cfg.explore)
            else:
                action = node.select(rnd, cfg.ucb)
            self._play(st, node, action)
            path.append((node, action))
            sig = _signature(st)
            if sig[0] == "auto" or (cfg.branch is not None and sig[0] in SEATS and sig[1] not in cfg.branch):
                sig = _auto(st, rnd, self, cfg.branch)
            if sig[0] == "over":
                v = ending.leaf(st)
                break
            if sig[0] == "ready" or any(r["kind"] == "ready" for r in st.pending):
                readies += 1
                # the horizon, the at-time decision, or a loop back to the root's position
                if readies >= cfg.horizon or ending.stops(st):
                    v = ending.leaf(st)
                    break
            child = node.children.get((action, sig))
            if child is None:
                if sig[0] == "ready":
                    # a ready node below the root, reached first: its leaf value (a random pair
                    # played on from it would say less), and the prior of its unvisited pairs
                    v = ending.leaf(st)
                    node.children[(action, sig)] = _new_node(st, sig, v)
                else:
                    node.children[(action, sig)] = _new_node(st, sig, rnd=rnd)
                    v = self._rollout(st)
                break
            node = child
        root = self.root
        for n, a in reversed(path):
            n.update(a, v)
            if n is not root and isinstance(n, SimNode):
                v = n.estimate()

    def _rollout(self, st):
        """The default policy from a new sequential node to the next ready node (or the end)."""
        rnd = self.rnd
        while st.winner is None:
            pend = st.pending
            if any(r["kind"] == "ready" for r in pend):
                break
            req = pend[0]
            kind, value = evaluate.default_answer(st, req, rnd)
            _, events = apply(st, req["player"], kind, value, copy=False)
            self.applies += 1
            self.events += len(events)
        return self.ending.leaf(st)

    # ------------------------------------------------------------ reading the result
    def thought(self):
        seat, root = self.seat, self.root
        if isinstance(root, SimNode):
            q = root.q()
            mix_a, mix_b = solve_matrix(q, self.cfg.final_rm)
            mine, theirs = (mix_a, mix_b) if seat == "a" else (mix_b, mix_a)
            opts = root.opts[0] if seat == "a" else root.opts[1]
            their_opts = root.opts[1] if seat == "a" else root.opts[0]
            mine = floor_mix(mine, self.cfg.floor)
            values = []
            for k in range(len(opts)):
                if seat == "a":
                    v = sum(q[k][j] * mix_b[j] for j in range(len(mix_b)))
                else:
                    v = 1.0 - sum(q[i][k] * mix_a[i] for i in range(len(mix_a)))
                values.append(v)
            visits = [sum(r) for r in root.N] if seat == "a" else [sum(root.N[i][k] for i in range(len(root.N))) for k in range(len(opts))]
            pick = opts[draw(mine, 0.0, self.rnd)]
            t = Thought(seat, "ready", opts, mine, values, pick, visits, self.done,
                        opponent={"options": their_opts, "mix": theirs})
            t.matrix = q if seat == "a" else [[1.0 - q[i][j] for i in range(len(q))] for j in range(len(q[0]))]
        else:
            opts = root.opts
            flip = root.player == "b"
            values = [((w / n) if not flip else 1.0 - w / n) if n else None for w, n in zip(root.W, root.N)]
            total = sum(root.N) or 1
            mix = [n / total for n in root.N]
            best = max(range(len(opts)), key=lambda i: (root.N[i], values[i] if values[i] is not None else -1.0, -i))
            t = Thought(seat, root.kind, opts, mix, values, opts[best], list(root.N), self.done)
        t.applies = self.applies
        t.cost = self.cost()
        explain_thought(t, self)
        return t


class Thought:
    """What the search thought about one decision: its mix over the options, each option's
    value (the deciding seat's win chance against the opponent's mix at a ready, the mean
    of its searched outcomes elsewhere), the pick, and ``explanation`` (engine/bots/coach.py)."""

    __slots__ = ("seat", "kind", "options", "mix", "values", "pick", "visits", "iterations",
                 "opponent", "matrix", "explanation", "applies", "cost")

    def __init__(self, seat, kind, options, mix, values, pick, visits, iterations, opponent=None):
        self.seat = seat
        self.kind = kind
        self.options = options
        self.mix = mix
        self.values = values
        self.pick = pick
        self.visits = visits
        self.iterations = iterations
        self.opponent = opponent
        self.matrix = None
        self.explanation = None
        self.applies = 0          # engine decisions the search applied
        self.cost = None          # its estimated instructions (``estimate``)

    def answer(self):
        """The (kind, value) to give engine.api.game.apply."""
        return self.kind, self.pick

    def to_json(self):
        return {"seat": self.seat, "kind": self.kind, "options": self.options,
                "mix": [round(p, 4) for p in self.mix],
                "values": [None if v is None else round(v, 4) for v in self.values],
                "pick": self.pick, "visits": self.visits, "iterations": self.iterations, "applies": self.applies,
                "cost": None if self.cost is None else int(self.cost),
                "opponent": None if self.opponent is None else
                {"options": self.opponent["options"], "mix": [round(p, 4) for p in self.opponent["mix"]]},
                "explanation": self.explanation}


def think(state, seat, request=None, seed=0, iterations=None, level="strong", cards=None, deck=None, config=None,
          budget=None, turns_left=None):
    """Search the decision ``request`` of ``seat`` (default: the seat's pending one) and
    return a ``Thought``. ``state`` is a GameState (only its ``seat_view`` is read) or such a
    view (then ``cards``, the game's card table, is needed). ``iterations`` overrides the
    level's budget; ``deck`` is the opponent's deck list if the table published it.
    ``turns_left``: at a table with a clock, the turns still to play before the at-time
    decision of ruling R-time, the turn in progress included (engine/bots/ending.py); None
    at a table without one.

    Raises Unseen where the view cannot be searched (a setup; a step the view does not
    rebuild): the caller then answers with ``evaluate.default_answer``."""
    if isinstance(state, GameState):
        cards = state.cards
        view = seat_view(state, seat)
    else:
        view = state
        if cards is None:
            raise ValueError("think() on a view needs the card table (cards=)")
    cfg = config or Config.level(level, iterations, budget)
    if iterations is not None:
        cfg.iterations = iterations
    rebuilt = rebuild(view, seat, cards, deck)
    mine = [r for r in rebuilt.base.pending if r["player"] == seat]
    if request is not None and request["kind"] != mine[0]["kind"]:
        raise ValueError("the request %r is not what %s is asked now (%r)" % (request["kind"], seat, mine[0]["kind"]))
    s = Search(rebuilt, mine[0], cfg, seed, turns_left)
    if isinstance(s.root, SeqNode) and s.root.player != seat:
        raise Unseen("the next decision is not %s's" % seat)
    # a sequential decision's tree is a few options deep before the horizon: a quarter of the
    # ready's budget finds its best answer (the ready, a matrix, needs the rest)
    seq = isinstance(s.root, SeqNode)
    if cfg.iterations is not None:
        n = cfg.iterations
        if seq and iterations is None:
            n = max(SEQ_MIN, n // SEQ_SHARE)
        s.run(n)
    else:
        s.run_budget(cfg.budget / SEQ_SHARE if seq else cfg.budget)
    return s.thought()


def search_answer(state, req, seed, level="strong", iterations=None, deck=None, budget=None, turns_left=None,
                  config=None):
    """(kind, value, Thought or None) for request ``req`` of a search bot: the search where
    the seat's view can be searched, else the greedy default (a setup, a one-option ready, a
    step the view does not rebuild). Reads only the seat's view of ``state``."""
    seat = req["player"]
    return answer_view(seat_view(state, seat), seat, state.cards, seed, level, iterations, deck, budget, req["kind"],
                       turns_left, config)


def answer_view(view, seat, cards, seed, level="strong", iterations=None, deck=None, budget=None, kind=None,
                turns_left=None, config=None):
    """``search_answer`` from the seat's view alone (``seat_view``, or that view read back
    from JSON: what the hub's bot process is given) and the game's card table: the answer to
    the seat's pending request (of ``kind`` if given). ``turns_left``: see ``think``;
    ``config``: a ``Config`` instead of the level's (the benches' variants)."""
    own = [r for r in view["pending"] if r["player"] == seat and (kind is None or r["kind"] == kind)]
    if not own:
        raise ValueError("%s is asked nothing%s in this view" % (seat, "" if kind is None else " of kind %s" % kind))
    req = own[0]
    if req["kind"] == "ready" and len(req["options"]) == 1:
        return "ready", req["options"][0], None
    if req["kind"] != "setup":
        try:
            t = think(view, seat, req, seed=seed, level=level, iterations=iterations, cards=cards, deck=deck,
                      budget=budget, turns_left=turns_left, config=None if config is None else config.copy())
            k, value = t.answer()
            return k, value, t
        except Unseen:
            pass
    k, value = fallback_answer(view, seat, cards, seed, req["kind"])
    return k, value, None


def fallback_answer(view, seat, cards, seed, kind=None):
    """The greedy default (``evaluate.default_answer``) for the seat's pending request in its
    view: instant, never a timeout. What a table answers when a search cannot finish in time."""
    req = [r for r in view["pending"] if r["player"] == seat and (kind is None or r["kind"] == kind)][0]
    return evaluate.default_answer(_OwnSide(view, seat, cards), req, random.Random(seed))


class _OwnSide:
    """What ``default_answer`` reads outside a search: the card table, the seat's own player
    state (from its view) and its hand limit; nothing of the opponent's."""

    __slots__ = ("cards", "players")

    def __init__(self, view, seat, cards):
        self.cards = cards
        self.players = {seat: PlayerState.from_json(view["players"][seat])}
