"""루멘콘덴서 (Lumen Condenser)'s rules engine: a pure library, state + decision -> new state + events.

    >>> from engine import apply, new_game
    >>> from engine.cards import load_sample
    >>> cardset, decks = load_sample()
    >>> st, events = new_game(cardset.cards, decks["serin"].as_game_deck(), decks["gangcheol"].as_game_deck(), seed=7)
    >>> req = st.pending[0]                 # who must decide what, with the legal options
    >>> req["player"], req["kind"], req["sizes"]
    ('a', 'setup', {'hand': 5, 'list': 9})
    >>> pool = req["options"]
    >>> st2, events = apply(st, "a", "setup", {"hand": pool[:5], "list": pool[5:14]})
    >>> st2 is st, st.pending[0]["kind"]    # apply works on a copy: the state given is unchanged
    (False, 'setup')

No I/O, no clock, no global state; randomness is seeded; every state round-trips through JSON;
every result cites the rule it applied (``event["rule"]``). The layers, each importing only
those before it (tests/engine/test_layers.py keeps it so):

- ``engine.core``: errors, events and their text, decisions, the seeded RNG, YAML reading;
- ``engine.cards``: the card model, the effect vocabulary, card sets and decks (public API in
  ``engine.cards``);
- ``engine.play``: the game itself: state, turn, battle, judgments, effects at work;
- ``engine.api``: the game's front door, re-exported here;
- ``engine.bots`` and ``engine.scenarios``: players and the conformance runner, on top (their
  public APIs in ``engine.bots`` and ``engine.scenarios``; imported on their own).
"""

from engine.api.at_time import AtTime, decide_at_time
from engine.api.game import (Answer, Event, GameDeck, advance, apply, apply_checked, catalogue, check, new_game,
                             requests_for)
from engine.api.views import Views, public_view, public_views
from engine.cards.rules import Rules
from engine.core.decisions import KINDS as DECISION_KINDS
from engine.core.decisions import Request
from engine.core.errors import CardError, IllegalDecision, LumenError, Problem, ScenarioError
from engine.core.events import OUTCOME_EN, OUTCOME_KO, explain, josa
from engine.core import kept
from engine.core.rng import coin_toss, next_u64
from engine.core.yamlio import line_of, load_yaml, load_yaml_text
from engine.play.state import SEATS, GameState, PlayerState, other

__all__ = [
    "AtTime", "decide_at_time",
    "Answer", "Event", "GameDeck", "advance", "apply", "apply_checked", "catalogue", "check", "new_game", "requests_for",
    "Views", "public_view", "public_views", "Rules", "DECISION_KINDS", "Request",
    "CardError", "IllegalDecision", "LumenError", "Problem", "ScenarioError",
    "OUTCOME_EN", "OUTCOME_KO", "explain", "josa", "coin_toss", "next_u64", "line_of", "load_yaml", "load_yaml_text",
    "kept",
    "SEATS", "GameState", "PlayerState", "other",
]
