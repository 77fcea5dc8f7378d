"""Built-in players: the random and greedy ones (engine/bots/simple.py) and the search player's
"normal" and "strong" levels (engine/bots/search.py) behind one seated ``Bot``. All are seeded
and deterministic."""

import random

from engine.bots.search import search_answer
from engine.bots.simple import greedy_answer, random_answer

LEVELS = ("easy", "normal", "strong")
POLICIES = ("random", "greedy") + LEVELS


class Bot:
    """A seated player. ``policy``: "random", "greedy" (= "easy"), "normal" or "strong";
    ``iterations`` (a count) or ``budget`` (estimated instructions) overrides a search level's budget. A search bot reads only its seat's view
    of the state (engine/bots/knowledge.py); ``last`` keeps its last ``Thought`` (None elsewhere)."""

    def __init__(self, seed, policy="random", iterations=None, budget=None, config=None):
        self.rnd = random.Random(seed)
        self.level = policy
        self.iterations = iterations
        self.budget = budget
        self.config = config          # a search Config instead of the level's (the benches' variants)
        self.last = None
        if policy in ("normal", "strong"):
            self.policy = self._search
        else:
            self.policy = random_answer if policy == "random" else greedy_answer

    def answer(self, st, req, turns_left=None):
        """(kind, value) for request ``req`` of ``st``. ``turns_left``: at a table with a clock,
        the turns still to play before the at-time decision (ruling R-time), the turn in
        progress included; None without a clock (engine/bots/ending.py)."""
        if self.policy == self._search:
            return self._search(st, req, self.rnd, turns_left)
        return self.policy(st, req, self.rnd)

    def _search(self, st, req, rnd, turns_left=None):
        kind, value, self.last = search_answer(st, req, rnd.getrandbits(64), self.level, self.iterations,
                                               budget=self.budget, turns_left=turns_left, config=self.config)
        return kind, value


def play(st, bots, apply, max_steps=100000, on_step=None, copy=True):
    """Play until the game is over. ``bots`` maps seat -> Bot. Returns the final state."""
    steps = 0
    while st.winner is None:
        req = st.pending[0]
        kind, value = bots[req["player"]].answer(st, req)
        st, events = apply(st, req["player"], kind, value, copy=copy)
        if on_step is not None:
            on_step(st, events, req, kind, value)
        steps += 1
        if steps > max_steps:
            raise RuntimeError("game did not end within %d decisions" % max_steps)
    return st
