"""Players on top of the engine: the seated ``Bot`` (players.py) with its random and greedy
policies (simple.py) and the search player (search.py: simultaneous-move search over a seat's
view, knowledge.py; its leaf value, evaluate.py; its explanations, coach.py). Pure and seeded,
budgeted by iterations. engine/bots/openspiel_game.py (the engine as an OpenSpiel game, a
checker) is not imported here: it needs the optional open_spiel package.

One namespace, imported on first use (PEP 562): a name is taken from its module the first time
it is asked for, so a hub that seats no bot and coaches no game does not import the search
(issue 36: ~6 M instructions of its start)."""

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:       # the names as the checker sees them; at run time each comes from _WHERE
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

#: each public name: (its module under engine.bots, its name there)
_WHERE = {
    "explain_choice": ("coach", "explain_choice"),
    "LEVELS": ("players", "LEVELS"), "POLICIES": ("players", "POLICIES"), "Bot": ("players", "Bot"),
    "play": ("players", "play"),
    "SEARCH_LEVELS": ("search", "LEVELS"),
    "instructions_for": ("cost", "instructions_for"),
    "Ending": ("ending", "Ending"),
    "solve_matrix": ("matrix", "solve_matrix"),
    "coach_ready": ("onebattle", "coach_ready"), "thought_json": ("onebattle", "thought_json"),
    **{name: ("search", name) for name in ("Config", "Search", "Thought", "answer_view", "answers", "fallback_answer",
                                           "iterations_for", "search_answer", "think")},
    "Unseen": ("knowledge", "Unseen"), "rebuild": ("knowledge", "rebuild"), "seat_view": ("knowledge", "seat_view"),
    "greedy_answer": ("simple", "greedy_answer"), "most_damage": ("simple", "most_damage"),
    "random_answer": ("simple", "random_answer"),
}

__all__ = ["Ending", "coach_ready", "thought_json", "explain_choice", "LEVELS", "SEARCH_LEVELS", "POLICIES", "Bot",
           "play", "Config", "Search", "Thought", "answer_view", "answers", "fallback_answer", "instructions_for",
           "iterations_for", "search_answer", "solve_matrix", "think", "Unseen", "rebuild", "seat_view", "greedy_answer",
           "most_damage", "random_answer"]


def __getattr__(name: str) -> Any:
    where = _WHERE.get(name)
    if where is None:       # also how ``from engine.bots import evaluate`` finds a submodule
        raise AttributeError("module %r has no attribute %r" % (__name__, name))
    value = getattr(importlib.import_module("%s.%s" % (__name__, where[0])), where[1])
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_WHERE))
