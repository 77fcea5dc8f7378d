"""Lumen Condenser as an OpenSpiel game (optional extra ``openspiel``: ``pip install -e '.[openspiel]'``),
so OpenSpiel's own algorithms and exploitability tools can run on the engine and check the
search player (engine/bots/search.py). A validation tool for a development machine, never
needed on the Pi: nothing under hub/ imports it (tests/engine/test_bot_openspiel.py checks).

The game ``python_lumen_condenser`` is a simultaneous-move game (``Dynamics.SIMULTANEOUS``):

- a ready node (both readies pending) is a simultaneous node; every other decision is a
  sequential node of the seat deciding (player 0 = seat a, 1 = seat b);
- an action is the index of the answer in the request's answer list (``engine.bots.search.answers``:
  the options; for a discard the candidate sets), so ``num_distinct_actions`` is a cap;
- the setup is played by ``evaluate.setup_answer`` for both seats and the coin toss by the
  ``seed`` parameter: a game starts at its first ready, with no chance node;
- ``horizon`` > 0 ends the game at the ``horizon``-th ready node after the start, with returns
  ``2 * evaluate.value - 1`` for seat a (the one-turn subgames of bench/bot.py are
  ``horizon=1``); a finished game returns +1 / -1 / 0; ``max_turns`` stops a game as a draw;
- every parameter is read back from ``game.get_parameters()``, never from attributes of the
  Python object: OpenSpiel's C++ side makes its own game objects from the parameters (a state
  then meets a ``LumenGame`` whose ``__init__`` never ran: ``pyspiel.random_sim_test`` found
  it), so a game made ``from_state`` carries its start position as the ``start`` parameter
  (the state's JSON, packed: ``_pack``);
- the information is imperfect (the readies are simultaneous, side decks are hidden): a
  seat's observation string is its view (``public_view``) as JSON.

``LumenGame.from_state(state, horizon)`` starts the game at any ready node of an engine state
(the bench's sampled positions), which is how a one-turn subgame is handed to OpenSpiel.
"""

import base64
import json
import zlib

import pyspiel

from engine.bots import evaluate
from engine.bots.search import answers
from engine.cards.decks import load_sample
from engine.api.game import apply, new_game, public_view
from engine.play.state import GameState

MAX_ACTIONS = 64
SEATS = ("a", "b")

_PARAMS = {"seed": 0, "horizon": 0, "max_turns": 200, "start": "", "first_seat": "a"}

GAME_TYPE = pyspiel.GameType(
    short_name="python_lumen_condenser",
    long_name="Lumen Condenser (engine adapter)",
    dynamics=pyspiel.GameType.Dynamics.SIMULTANEOUS,
    chance_mode=pyspiel.GameType.ChanceMode.DETERMINISTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.ZERO_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=2,
    min_num_players=2,
    provides_information_state_string=False,
    provides_information_state_tensor=False,
    provides_observation_string=True,
    provides_observation_tensor=False,
    provides_factored_observation_string=False,
    parameter_specification=_PARAMS,
)


class LumenGame(pyspiel.Game):
    def __init__(self, params=None):
        params = dict(_PARAMS, **(params or {}))
        super().__init__(GAME_TYPE, pyspiel.GameInfo(
            num_distinct_actions=MAX_ACTIONS, max_chance_outcomes=0, num_players=2,
            min_utility=-1.0, max_utility=1.0, utility_sum=0.0,
            max_game_length=params["max_turns"] * 40), params)

    @classmethod
    def from_state(cls, state, horizon=1, max_turns=200, first_seat="a"):
        """The game from engine state ``state`` (a ready node or any pending decision).
        ``first_seat``: the seat that is player 0 (``pyspiel.convert_to_turn_based`` moves player
        0 first at a simultaneous node: a search of that seat's ready cannot see the other's)."""
        return cls({"horizon": horizon, "max_turns": max_turns, "start": _pack(state), "first_seat": first_seat})

    def start_state(self):
        params = self.get_parameters()
        if params["start"]:
            return _unpack(params["start"])
        cs, decks = load_sample()
        st, _ = new_game(cs.cards, decks["serin"].as_game_deck(), decks["gangcheol"].as_game_deck(), seed=params["seed"])
        while st.pending and st.pending[0]["kind"] == "setup":
            req = st.pending[0]
            apply(st, req["player"], "setup", evaluate.setup_answer(st, req), copy=False)
        return st

    def new_initial_state(self):
        return LumenState(self, self.start_state())

    def make_py_observer(self, iig_obs_type=None, params=None):
        return _Observer()


def _pack(state):
    """A state as a game parameter: OpenSpiel writes a game as ``name(key=value,...)`` and reads
    it back from that string, so the JSON (commas, brackets) goes zlib-compressed in
    URL-safe base64 without padding."""
    raw = zlib.compress(json.dumps(state.to_json(), separators=(",", ":")).encode(), 9)
    return base64.urlsafe_b64encode(raw).decode().rstrip("=")


def _unpack(text):
    raw = base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))
    return GameState.from_json(json.loads(zlib.decompress(raw)))


def _is_ready_node(st):
    return len(st.pending) == 2 and all(r["kind"] == "ready" for r in st.pending)


class LumenState(pyspiel.State):
    def __init__(self, game, st, readies=0, turn0=None):
        super().__init__(game)
        self._g = game
        params = game.get_parameters()
        self._horizon = params["horizon"]
        self._max_turns = params["max_turns"]
        self._seats = SEATS if params["first_seat"] == "a" else SEATS[::-1]     # player -> seat
        self.st = st
        self.readies = readies
        self.turn0 = st.turn if turn0 is None else turn0
        self._stopped = None       # returns when the horizon or the turn cap ended the game

    # ------------------------------------------------------------ pyspiel API
    def current_player(self):
        if self.is_terminal():
            return pyspiel.PlayerId.TERMINAL
        if _is_ready_node(self.st):
            return pyspiel.PlayerId.SIMULTANEOUS
        return self._seats.index(self.st.pending[0]["player"])

    def _request(self, player):
        seat = self._seats[player]
        for r in self.st.pending:
            if r["player"] == seat:
                return r
        return None

    def _answers(self, player):
        r = self._request(player)
        if r is None:
            return []
        if r["kind"] == "setup":
            return [evaluate.setup_answer(self.st, r)]
        return answers(self.st, r)[:MAX_ACTIONS]

    def answer_of(self, player, action):
        """The engine answer that ``action`` of ``player`` stands for."""
        return self._answers(player)[action]

    def _legal_actions(self, player):
        return list(range(len(self._answers(player))))

    def _apply(self, seat, kind, value):
        apply(self.st, seat, kind, value, copy=False)

    def _apply_action(self, action):
        player = self.current_player()
        r = self._request(player)
        self._apply(r["player"], r["kind"], self._answers(player)[action])
        self._after()

    def _apply_actions(self, actions):
        picks = [self._answers(p)[a] for p, a in enumerate(actions)]
        for p in (0, 1):
            self._apply(self._seats[p], "ready", picks[p])
        self._after()

    def _after(self):
        st = self.st
        if st.winner is not None:
            return
        if any(r["kind"] == "ready" for r in st.pending):
            self.readies += 1
            if self._horizon and self.readies >= self._horizon:
                v = 2.0 * evaluate.value(st) - 1.0
                self._stopped = [v, -v]
                return
        if st.turn - self.turn0 >= self._max_turns:
            self._stopped = [0.0, 0.0]

    def _action_to_string(self, player, action):
        ans = self._answers(player)
        return json.dumps(ans[action], ensure_ascii=False) if 0 <= action < len(ans) else str(action)

    def is_terminal(self):
        return self.st.winner is not None or self._stopped is not None

    def seat(self, player):
        return self._seats[player]

    def returns(self):
        """Per player (``first_seat`` is player 0); ``_stopped`` holds seat a's and b's."""
        if self._stopped is not None:
            ra, rb = self._stopped
        else:
            w = self.st.winner
            ra = 0.0 if w is None or w == "draw" else 1.0 if w == "a" else -1.0
            rb = -ra
        return [ra, rb] if self._seats[0] == "a" else [rb, ra]

    def clone(self):
        c = LumenState(self._g, self.st.copy(), self.readies, self.turn0)
        c._stopped = None if self._stopped is None else list(self._stopped)
        return c

    def __deepcopy__(self, memo):
        return self.clone()

    def __str__(self):
        st = self.st
        return "turn %d %s | a %d hp %d fp | b %d hp %d fp" % (
            st.turn, st.phase, st.players["a"].health, st.players["a"].fp, st.players["b"].health, st.players["b"].fp)


class _Observer:
    """A seat's observation: its view of the state (what the hub would show that seat)."""

    def __init__(self):
        self.tensor = None
        self.dict = {}

    def set_from(self, state, player):
        pass

    def string_from(self, state, player):
        return json.dumps(public_view(state.st, state.seat(player)), sort_keys=True, ensure_ascii=False)


pyspiel.register_game(GAME_TYPE, LumenGame)


def matrix_game(options_a, options_b, A):
    """A one-turn subgame's value matrix (seat a's win chance) as an OpenSpiel matrix game
    (zero-sum utilities 2A - 1), for its LP solver and exploitability tools."""
    rows = [[2.0 * v - 1.0 for v in row] for row in A]
    return pyspiel.create_matrix_game("lumen_turn", "Lumen Condenser one-turn subgame",
                                      [str(o) for o in options_a], [str(o) for o in options_b],
                                      rows, [[-x for x in r] for r in rows])
