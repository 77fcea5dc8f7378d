"""bench/bot.py's outside opponent: OpenSpiel's own MCTS (``open_spiel.python.algorithms.mcts``,
UCT with random rollouts to the end of the game) playing through the engine's OpenSpiel adapter
(engine/bots/openspiel_game.py), against the search player at equal CPU.

The MCTS player sees what a seat sees, as the search player does: each decision starts from
the seat's view rebuilt with the opponent's side deck sampled (``engine.bots.rebuild``), as an
OpenSpiel game whose player 0 is that seat, turned into a turn-based game by OpenSpiel
(``pyspiel.convert_to_turn_based``), which asks player 0 first at a simultaneous node: MCTS
never sees the opponent's ready before choosing its own. Rollouts are uniformly random legal
moves to the end (a game stopped at ``MAX_TURNS`` more turns counts 0).
"""

import random
import time

import numpy as np
import pyspiel
from open_spiel.python.algorithms import mcts

from engine.bots import rebuild, seat_view
from engine.bots import openspiel_game

MAX_TURNS = 60


class MctsPlayer:
    """A seated player like ``engine.bots.Bot`` (``answer(st, req, turns_left=None)``):
    ``simulations`` MCTS simulations a decision (a ready or any decision with two or more answers)."""

    def __init__(self, seed, simulations, uct_c=2.0):
        self.rnd = random.Random(seed)
        self.simulations = simulations
        self.uct_c = uct_c
        self.cpu = 0.0            # CPU seconds spent deciding
        self.decisions = 0

    def answer(self, st, req, turns_left=None):
        t0 = time.process_time()
        try:
            return self._answer(st, req)
        finally:
            self.cpu += time.process_time() - t0
            self.decisions += 1

    def _answer(self, st, req):
        seat = req["player"]
        opts = req["options"] if req["kind"] != "discard" else None
        if req["kind"] == "setup" or (opts is not None and len(opts) == 1):
            from engine.bots import fallback_answer
            return fallback_answer(seat_view(st, seat), seat, st.cards, self.rnd.getrandbits(32), req["kind"])
        world = rebuild(seat_view(st, seat), seat, st.cards).world(self.rnd)
        game = openspiel_game.LumenGame.from_state(world, horizon=0, max_turns=MAX_TURNS, first_seat=seat)
        tb = pyspiel.convert_to_turn_based(game)
        state = tb.new_initial_state()
        if state.current_player() != 0:
            raise RuntimeError("the rebuilt game does not ask %s first" % seat)
        rs = np.random.RandomState(self.rnd.getrandbits(32))
        bot = mcts.MCTSBot(tb, self.uct_c, self.simulations, mcts.RandomRolloutEvaluator(1, rs), solve=False,
                           random_state=rs)
        action = bot.step(state)
        inner = game.new_initial_state()
        answer = inner.answer_of(0, action)
        return req["kind"], answer
