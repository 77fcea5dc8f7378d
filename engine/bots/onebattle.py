"""The one-battle game of a ready, solved: what the coach's verdict rests on (issue 35).

At a ready node of a seat's view (rebuilt as the search rebuilds it, engine/bots/knowledge.py)
every pair of ready cards is played by the engine. The choices the battle then asks (combo,
catch, nullify, replenish, an effect's choice, a pick) are searched exactly: each seat takes
the answer best for it (``EXACT_KINDS``, up to ``EXPANSIONS`` a pair); the get phase and a
discard are played by the search's default policy; the position at the next ready node is
valued by the search's own leaf (engine/bots/ending.py: a finished game, the table's clock and
loops included). That matrix is a zero-sum game, solved by RM+ (engine/bots/matrix.py): each
option's value is its win chance against the opponent's equilibrium mix, so a card in the
equilibrium's support is worth the game's value and any other card what it gives up.

No sampling noise but the opponent's side deck: a pair is played in one sampled world, and in
every world (``WORLDS``) only when it replaced a card of the opponent's from their side deck
(the one thing a world changes); each option's standard error comes from those worlds. The
same view gives the same values for any seed that samples the same side decks, which is why
the coach's verdict does not move with the seed.

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

EXACT_KINDS = frozenset(("combo", "catch", "nullify", "replenish", "choose", "pick"))
EXPANSIONS = 64          # exact search a pair: past it the default policy answers
WORLDS = 4               # sampled side decks of the opponent (used only where a pair reaches one)
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
    __slots__ = ("left",)

    def __init__(self, n):
        self.left = n


def _play_out(st, seat, ending, rnd, budget):
    """The seat's win chance from ``st`` (in place where nothing branches) to the next ready node."""
    while True:
        if st.winner is not None or any(r["kind"] == "ready" for r in st.pending):
            v = ending.leaf(st)
            return v if seat == "a" else 1.0 - v
        req = st.pending[0]
        kind = req["kind"]
        if kind not in EXACT_KINDS or budget.left <= 0 or len(req["options"]) < 2:
            k, value = evaluate.default_answer(st, req, rnd)
            apply(st, req["player"], k, value, copy=False)
            continue
        best = None
        for ans in answers(st, req):
            budget.left -= 1
            s2 = st.copy()
            apply(s2, req["player"], kind, ans, copy=False)
            v = _play_out(s2, seat, ending, rnd, budget)
            if req["player"] != seat:
                v = -v
            if best is None or v > best:
                best = v
        return best if req["player"] == seat else -best


def _pair(world, seat, mine, theirs, ending, seed):
    """(the seat's value, the judgment event or None, did the opponent's side deck matter)."""
    st = world.copy()
    opp = other(seat)
    side = list(st.players[opp].side_deck)
    judgment = None
    for r in list(st.pending):
        p = r["player"]
        _, events = apply(st, p, "ready", mine if p == seat else theirs, copy=False)
        for e in events:
            if e["e"] == "judgment" and judgment is None:
                judgment = e
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
    v = _play_out(st, seat, ending, random.Random(seed), _Budget(EXPANSIONS))
    return v, judgment, st.players[opp].side_deck != side


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
    ws = [rb.world(rnd) for _ in range(max(1, worlds))]
    ending = Ending(ws[0], turns_left)
    opts, their = list(mine[0]["options"]), list(theirs[0]["options"])
    A, var, J = [], [], {}
    pairs = 0
    for i, x in enumerate(opts):
        row, vrow = [], []
        for j, y in enumerate(their):
            v, e, deep = _pair(ws[0], seat, x, y, ending, seed + 1000 * i + j)
            pairs += 1
            vals = [v]
            if deep:
                for w in ws[1:]:
                    vals.append(_pair(w, seat, x, y, ending, seed + 1000 * i + j)[0])
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
