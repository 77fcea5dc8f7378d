"""The one-battle game of a ready, solved: what the coach's verdict rests on (issue 35).

At a ready node of a seat's view (rebuilt as the search rebuilds it, engine/bots/knowledge.py)
every pair of ready cards is played by the engine. The choices the battle then asks (combo,
catch, nullify, an effect's choice, a pick) are searched exactly: each seat takes the answer
best for it (``EXACT_KINDS``, up to ``EXPANSIONS`` a pair); in the get phase, a discard and a
replenish the player deciding takes the answer best for it with the rest of the turn played by
the search's default policy (``GREEDY_KINDS``, one ply); the position at the next ready node is
valued by the search's own leaf (engine/bots/ending.py: a finished game, the table's clock and
loops included). That matrix is a zero-sum game, solved by RM+ (engine/bots/matrix.py): each
option's value is its win chance against the opponent's equilibrium mix, so a card in the
equilibrium's support is worth the game's value and any other card what it gives up.

No sampling noise but the opponent's side deck, which only its size shows. When a card the
opponent might hold there can act from it (a hidden trigger, guide 5.2.2: 호흡 정돈 at turn end)
every pair is played in each of ``WORLDS`` worlds, drawn stratified (each card of the possible
side deck in its share of the worlds); otherwise in one world, and in all only when a line of
play replaced a card of the opponent's from their side deck. The battle's decisions are
searched in the first world; the others play that line again (``_replay``). Each option's
standard error comes from the worlds. Nothing else is random, which is why the verdict does not move with the
seed.

Every pair's judgment (its event: rule and reason, engine/core/events.py) is kept, so the
coach's "why" quotes the engine's own ruling of the very battle it judged.
"""

import math
import random

from engine.api.game import apply
from engine.bots import evaluate
from engine.bots.coach import explain_choice
from engine.bots.ending import Ending
from engine.bots.knowledge import Unseen, rebuild
from engine.bots.search import answers
from engine.bots.matrix import floor_mix, row_values, solve_matrix
from engine.core.events import explain
from engine.play.state import other

EXACT_KINDS = frozenset(("combo", "catch", "nullify", "choose", "pick"))
GREEDY_KINDS = frozenset(("get", "discard", "replenish"))    # one ply: each answer played on by the default policy
EXPANSIONS = 32          # exact search a pair: past it the default policy answers
WORLDS = 8               # sampled side decks of the opponent (stratified: knowledge.Rebuilt.worlds)
SOLVE = 3000             # RM+ iterations on the matrix
FLOOR = 0.02             # an equilibrium share below this is noise of the solver, not strategy


class Analysis:
    """A ready solved from one seat's view: ``options`` and the opponent's, the ``matrix`` (the
    seat's win chance for each pair), both equilibrium mixes, each option's ``values`` (against
    the opponent's mix) and standard error ``se``, the game's ``value``, and ``judgments``
    ((mine, theirs) -> the judgment as {"outcome", "rule", "ko", "en"}, or None if the game
    ended first)."""

    __slots__ = ("seat", "options", "their_options", "matrix", "mix", "their_mix", "values", "se", "value",
                 "judgments", "pairs")

    def support(self, option):
        return self.mix[self.options.index(option)] >= FLOOR

    def loss(self, option):
        return max(0.0, self.value - self.values[self.options.index(option)])

    def best_reply(self, option):
        """The opponent's card that does best against ``option`` (their best reply to it)."""
        row = self.matrix[self.options.index(option)]
        j = min(range(len(row)), key=lambda k: (row[k], k))
        return self.their_options[j], row[j]


class _Budget:
    """Expansions left, and whether any line played reached the opponent's side deck (a card of
    it replaced, or asked of them): then the sampled world mattered."""
    __slots__ = ("left", "side", "opp", "deep")

    def __init__(self, n, opp, side):
        self.left = n
        self.opp = opp
        self.side = side
        self.deep = False


def _play_out(st, seat, ending, rnd, budget):
    """(the seat's win chance, the answers of its line of play) from ``st`` (advanced in place
    where nothing branches) to the next ready node; the line is the exactly searched answers."""
    while True:
        if st.winner is not None or any(r["kind"] == "ready" for r in st.pending):
            if st.players[budget.opp].side_deck != budget.side:
                budget.deep = True
            v = ending.leaf(st)
            return (v if seat == "a" else 1.0 - v), []
        req = st.pending[0]
        kind = req["kind"]
        if kind == "replenish" and req["player"] == budget.opp:
            budget.deep = True
        if kind in GREEDY_KINDS and budget.left > 0:
            k, value = _greedy(st, req, ending, rnd, budget)
            apply(st, req["player"], k, value, copy=False)
            continue
        if kind not in EXACT_KINDS or budget.left <= 0 or len(req["options"]) < 2:
            k, value = evaluate.default_answer(st, req, rnd)
            apply(st, req["player"], k, value, copy=False)
            continue
        best, line = None, None
        for ans in answers(st, req):
            budget.left -= 1
            s2 = st.copy()
            apply(s2, req["player"], kind, ans, copy=False)
            v, rest = _play_out(s2, seat, ending, rnd, budget)
            if req["player"] != seat:
                v = -v
            if best is None or v > best:
                best, line = v, [(kind, ans)] + rest
        return (best if req["player"] == seat else -best), line


def _greedy(st, req, ending, rnd, budget):
    """The answer best for the player deciding a get, a discard or a replenish when the rest of
    the turn is played by the default policy (one ply: the two players' gets barely interact,
    and a full search of them costs ten times the battle's)."""
    opts = answers(st, req)
    if len(opts) < 2:
        return evaluate.default_answer(st, req, rnd)
    best, pick = None, None
    for ans in opts:
        budget.left -= 1
        s2 = st.copy()
        apply(s2, req["player"], req["kind"], ans, copy=False)
        while s2.winner is None and not any(r["kind"] == "ready" for r in s2.pending):
            r2 = s2.pending[0]
            apply(s2, r2["player"], *evaluate.default_answer(s2, r2, rnd), copy=False)
        v = ending.leaf(s2)
        if req["player"] == "b":
            v = 1.0 - v
        if best is None or v > best:
            best, pick = v, ans
    return req["kind"], pick


def _start(world, seat, mine, theirs):
    """A copy of ``world`` with the pair readied, and the first judgment event (or None)."""
    st = world.copy()
    judgment = None
    for r in list(st.pending):
        p = r["player"]
        _, events = apply(st, p, "ready", mine if p == seat else theirs, copy=False)
        if judgment is None:
            judgment = next((e for e in events if e["e"] == "judgment"), None)
    return st, judgment


def _pair(world, seat, mine, theirs, ending, seed):
    """(the seat's value, the judgment event or None, the line of play, did the opponent's side
    deck matter) of the pair played in ``world``, the battle's decisions searched exactly."""
    st, judgment = _start(world, seat, mine, theirs)
    if judgment is None:
        # the judgment comes after a decision (a pick, an effect's choice): the first line of play
        probe = st.copy()
        rnd = random.Random(seed)
        for _ in range(40):
            if probe.winner is not None or not probe.pending or any(r["kind"] == "ready" for r in probe.pending):
                break
            req = probe.pending[0]
            k, value = evaluate.default_answer(probe, req, rnd)
            _, events = apply(probe, req["player"], k, value, copy=False)
            judgment = next((e for e in events if e["e"] == "judgment"), None)
            if judgment is not None:
                break
    opp = other(seat)
    budget = _Budget(EXPANSIONS, opp, list(st.players[opp].side_deck))
    v, line = _play_out(st, seat, ending, random.Random(seed), budget)
    return v, judgment, line, budget.deep


def _replay(world, seat, mine, theirs, line, ending, seed):
    """The seat's value of the pair in another ``world``: the line found in the first world
    played again where it is legal, the default policy elsewhere (no search: a world changes
    only what the opponent's hidden side deck does)."""
    st, _ = _start(world, seat, mine, theirs)
    rnd = random.Random(seed)
    line = list(line)
    while st.winner is None and not any(r["kind"] == "ready" for r in st.pending):
        req = st.pending[0]
        kind = req["kind"]
        if line and line[0][0] == kind and kind in EXACT_KINDS:
            ans = line.pop(0)[1]
            if ans in answers(st, req):
                apply(st, req["player"], kind, ans, copy=False)
                continue
        k, value = evaluate.default_answer(st, req, rnd)
        apply(st, req["player"], k, value, copy=False)
    v = ending.leaf(st)
    return v if seat == "a" else 1.0 - v


def solve(view, seat, cards, seed=0, deck=None, turns_left=None, worlds=WORLDS):
    """The ``Analysis`` of ``seat``'s ready in ``view`` (``seat_view``; a GameState is read
    through its view by the caller). Raises knowledge.Unseen where the view is not a ready node
    the search can rebuild."""
    rb = rebuild(view, seat, cards, deck)
    mine = [r for r in rb.base.pending if r["player"] == seat and r["kind"] == "ready"]
    theirs = [r for r in rb.base.pending if r["player"] == other(seat) and r["kind"] == "ready"]
    if not mine or not theirs:
        raise Unseen("not a ready node of both seats")
    rnd = random.Random(seed)
    ws = rb.worlds(rnd, max(1, worlds))
    ending = Ending(ws[0], turns_left)
    hidden = any(_acts_from_side_deck(cards[c]) for c in set(rb.pool) if c in cards)
    opts, their = list(mine[0]["options"]), list(theirs[0]["options"])
    A, var, J = [], [], {}
    pairs = 0
    for i, x in enumerate(opts):
        row, vrow = [], []
        for j, y in enumerate(their):
            v, e, line, deep = _pair(ws[0], seat, x, y, ending, seed + 1000 * i + j)
            pairs += 1
            vals = [v]
            if deep or hidden:
                for w in ws[1:]:
                    vals.append(_replay(w, seat, x, y, line, ending, seed + 1000 * i + j))
                    pairs += 1
            m = sum(vals) / len(vals)
            row.append(m)
            vrow.append(sum((u - m) ** 2 for u in vals) / (len(vals) - 1) / len(vals) if len(vals) > 1 else 0.0)
            J[(x, y)] = None if e is None else _judgment(e, seat, cards)
        A.append(row)
        var.append(vrow)
    xa, xb = solve_matrix(A, SOLVE)
    an = Analysis()
    an.seat, an.options, an.their_options, an.matrix = seat, opts, their, A
    an.mix, an.their_mix = floor_mix(xa, FLOOR), floor_mix(xb, FLOOR)
    an.values = row_values(A, xb)
    # the best reply's value against the opponent's mix: the game's value, up to RM+'s error
    # (the solver's gap, ``max(values) - min(col_values)``, is under 0.002 at SOLVE iterations)
    an.value = max(an.values)
    an.se = [math.sqrt(sum(p * p * var[i][j] for j, p in enumerate(xb))) for i in range(len(opts))]
    an.judgments = J
    an.pairs = pairs
    return an


def _acts_from_side_deck(card):
    """Can ``card`` do anything while it sits in its owner's side deck (a hidden trigger)?"""
    return any(z in ("side_deck", "any") for z in (card.zfx or ())) or \
        any(z in ("side_deck", "any") for z in (card.zcont or ()))


def _judgment(e, seat, cards):
    text = explain(e, cards)
    return {"outcome": e.get(seat), "rule": e["rule"], "ko": text["ko"], "en": text["en"]}


def coach_ready(view, seat, cards, chosen=None, seed=0, picked=False, deck=None, turns_left=None):
    """The coach on ``seat``'s ready in ``view`` (what the seat saw when asked): the analysis as
    thought JSON (what the display's table shows) and, for the card ``chosen`` (None: none),
    ``coach.explain_choice``'s line (``picked``: the opponent picked it after a non-response)."""
    an = solve(view, seat, cards, seed, deck, turns_left)
    line = None
    if chosen is not None and chosen in an.options:
        line = explain_choice(an, chosen, cards, picked)
    return an, line


def thought_json(an):
    """An analysis in the shape of a search ``Thought.to_json`` (hub/bot/coach.py reads it)."""
    pick = an.options[max(range(len(an.options)), key=lambda i: (an.mix[i], -i))]
    return {"seat": an.seat, "kind": "ready", "options": an.options, "mix": [round(p, 4) for p in an.mix],
            "values": [round(v, 4) for v in an.values], "se": [round(e, 4) for e in an.se], "pick": pick,
            "visits": None, "iterations": an.pairs, "applies": None, "cost": None,
            "opponent": {"options": an.their_options, "mix": [round(p, 4) for p in an.their_mix]},
            "explanation": None}
