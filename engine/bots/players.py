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

    def __init__(self, seed, policy="random", iterations=None, budget=None):
        self.rnd = random.Random(seed)
        self.level = policy
        self.iterations = iterations
        self.budget = budget
        self.last = None
        if policy in ("normal", "strong"):
            self.policy = self._search
        else:
            self.policy = random_answer if policy == "random" else greedy_answer

    def answer(self, st, req):
        return self.policy(st, req, self.rnd)

    def _search(self, st, req, rnd):
        kind, value, self.last = search_answer(st, req, rnd.getrandbits(64), self.level, self.iterations,
                                                  budget=self.budget)
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
