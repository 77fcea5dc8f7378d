"""Players on top of the engine: the seated ``Bot`` (players.py) with its random and greedy
policies (simple.py) and the search player (search.py: simultaneous-move search over a seat's
view, knowledge.py; its leaf value, evaluate.py; its explanations, coach.py). Pure and seeded,
budgeted by iterations. engine/bots/openspiel_game.py (the engine as an OpenSpiel game, a
checker) is not imported here: it needs the optional open_spiel package."""

from engine.bots.coach import explain_choice
from engine.bots.players import LEVELS, POLICIES, Bot, play
from engine.bots.search import LEVELS as SEARCH_LEVELS
from engine.bots.cost import instructions_for
from engine.bots.ending import Ending
from engine.bots.matrix import solve_matrix
from engine.bots.onebattle import coach_ready, thought_json
from engine.bots.search import (Config, Search, Thought, answer_view, answers, fallback_answer, iterations_for,
                                search_answer, think)
from engine.bots.knowledge import Unseen, rebuild, seat_view
from engine.bots.simple import greedy_answer, most_damage, random_answer

__all__ = ["Ending", "coach_ready", "thought_json", "explain_choice", "LEVELS", "SEARCH_LEVELS", "POLICIES", "Bot",
           "play", "Config", "Search", "Thought", "answer_view", "answers", "fallback_answer", "instructions_for",
           "iterations_for", "search_answer", "solve_matrix", "think", "Unseen", "rebuild", "seat_view", "greedy_answer",
           "most_damage", "random_answer"]
