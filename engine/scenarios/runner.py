"""Rule-conformance scenarios (brief 4.2): set up a position, feed inputs, check what holds.

The format is fixed by the brief; this module validates it strictly (unknown
keys and wrong types are errors naming the key), checks that the start position
is one a game can reach (engine/scenarios/position.py), answers the engine's
decisions from per-player input queues, stops at ``stop`` and compares
``expect`` (engine/scenarios/expect.py). A decision the inputs do not answer,
or an input the engine never asked for, fails the scenario with a message
naming it and saying where the engine stopped.

Additions to the brief's fields (all optional): top level ``description``,
``seed`` (coin toss when ``priority`` is absent), ``turn``,
``stalled_battles``, ``sudden_death``, ``sudden_death_turn`` (1-3); per player ``non_responses`` and
``tokens``; ``start: setup`` with per player ``deck:`` (guide 3.4.1); the input key
``setup: {hand: [...], list: [...]}`` (setup, sudden death rebuild); under ``expect`` the
global keys plus ``phase``, ``rules`` (rule sections that must have been applied, e.g.
``[guide 3.10]``), ``offered`` and ``not_offered``, ``decisions`` (who was asked what, in
order), ``events`` and ``no_events``; ``stop: {end_of_turn: N}`` (the end of turn N, not the
first turn end).
"""

import json
import os

from engine.api import game
from engine.cards.model import parse_card, parse_character
from engine.cards.effects import TIMING_NAMES
from engine.core.errors import CardError, IllegalDecision, LumenError, ScenarioError
from engine.core.event_kinds import CARD, SOURCE, TIMING
from engine.core.events import explain
from engine.cards.rules import Rules
from engine.play.cardfx import HIDDEN
from engine.scenarios.expect import CHOICES, compare, validate as validate_expect
from engine.scenarios.position import ZONE_KEYS, check_sizes, check_zones, setup_deck
from engine.play.state import GameState, PlayerState
from engine.core.yamlio import LineDict, load_yaml

TOP_KEYS = {"name", "description", "rules", "cards", "players", "priority", "start", "inputs", "stop",
            "expect", "seed", "turn", "stalled_battles", "sudden_death", "sudden_death_turn"}
PLAYER_KEYS = {"character", "health", "fp", "hand", "list", "side_deck", "break_zone", "lumen_zone",
               "ultimate", "non_responses", "tokens", "deck"}
INPUT_KEYS = {"ready", "timeout", "pick", "get", "discard", "combo", "catch", "nullify", "replenish",
              "choose", "setup"}
STARTS = ("ready", "lumen", "battle", "setup")
STOPS = {"end_of_battle": "battle_end", "end_of_turn": "turn_end", "next_ready": "ready_start",
         "game_over": "game_over"}
#: the stops that take a number: ``{end_of_turn: N}`` is the end of turn N
NUMBERED_STOPS = {"end_of_turn": "turn"}
SCENARIO_SUFFIXES = (".yaml", ".yml", ".json")


class Scenario:
    __slots__ = ("name", "file", "data", "state", "inputs", "stop", "stop_at", "expect")


class Outcome:
    """What running one scenario gave."""

    def __init__(self, name, file, passed, failures, state=None, events=(), decisions=()):
        self.name = name
        self.file = file
        self.passed = passed
        self.failures = failures
        self.state = state
        self.events = list(events)
        self.decisions = list(decisions)

    def line(self):
        """``PASS name``; ``FAIL name: difference``; with several, one difference per line under
        the name."""
        if self.passed:
            return "PASS %s" % self.name
        if len(self.failures) == 1:
            return "FAIL %s: %s" % (self.name, self.failures[0])
        return "FAIL %s: %d differences\n%s" % (self.name, len(self.failures),
                                                "\n".join("  - " + f for f in self.failures))

    def to_json(self):
        d = {"name": self.name, "file": self.file, "passed": self.passed, "failures": self.failures}
        if self.state is not None:
            st = self.state
            d["state"] = {
                "players": {p: _player_summary(st, p) for p in ("a", "b")},
                "priority": st.priority, "turn": st.turn, "phase": st.phase,
                "stalled_battles": st.stalled_battles, "sudden_death": st.sudden_death,
                "winner": st.winner, "outcome": st.last_outcome,
                "pending": st.pending,
            }
            # each decision the engine asked: who, what, the options offered, the answer given
            d["decisions"] = self.decisions
            d["events"] = [dict(e, text=explain(e, st.cards)) for e in self.events]
        return d


def _player_summary(st, p):
    pl = st.players[p]
    return {"health": pl.health, "fp": pl.fp, "hand": pl.hand, "list": pl.list, "side_deck": pl.side_deck,
            "break_zone": pl.break_zone, "lumen_zone": pl.lumen_zone, "battle_zone": pl.battle_zone,
            "ultimate": pl.ultimate, "non_responses": pl.non_responses, "hand_limit": pl.hand_limit,
            "tokens": dict(pl.tokens)}


def _err(file, obj, key, msg):
    line = obj.line_of(key) if isinstance(obj, LineDict) else None
    where = "%s:%d: " % (file, line) if line else ("%s: " % file if file else "")
    return ScenarioError(where + msg)


def _check_keys(file, obj, allowed, what):
    if not isinstance(obj, dict):
        raise _err(file, None, None, "%s must be a mapping" % what)
    for key in obj:
        if key not in allowed:
            raise _err(file, obj, key, "unknown key %r in %s (allowed: %s)" % (key, what, ", ".join(sorted(allowed))))


def _seat(file, obj, key, value):
    if value not in ("a", "b"):
        raise _err(file, obj, key, "%s must be a or b, not %r" % (key, value))
    return value


def load(path):
    """Load and validate a scenario file. Raises ScenarioError / CardError."""
    path = str(path)
    if not os.path.exists(path):
        raise ScenarioError("%s: no such file" % path)
    if os.path.isdir(path):
        raise ScenarioError("%s: is a directory (expand_paths lists its scenario files)" % path)
    try:
        data = load_yaml(path)
    except OSError as exc:
        raise ScenarioError("%s: cannot read: %s" % (path, exc.strerror or exc)) from None
    except Exception as exc:  # yaml reports the position itself
        raise ScenarioError("%s: not valid YAML: %s" % (path, exc)) from None
    return build(data, path)


def build(data, file="<scenario>"):
    _check_keys(file, data, TOP_KEYS, "the scenario")
    sc = Scenario()
    sc.file = file
    sc.data = data
    sc.name = str(data.get("name") or file)
    rules_data = data.get("rules") or {}
    if not isinstance(rules_data, dict):
        raise _err(file, data, "rules", "rules must be a mapping")
    try:
        rules = Rules(**rules_data)
    except ScenarioError as exc:
        raise _err(file, data, "rules", str(exc)) from None
    cards = {}
    items = data.get("cards") or []
    if not isinstance(items, list):
        raise _err(file, data, "cards", "cards must be a list")
    problems = []
    for item in items:
        card, probs = parse_card(item, file)
        problems += probs
        if card is not None:
            if card.id in cards:
                raise _err(file, item, "id", "duplicate card id %r" % card.id)
            cards[card.id] = card
    if problems:
        raise CardError(problems)
    start = data.get("start", "ready")
    if start not in STARTS:
        raise _err(file, data, "start", "start must be one of %s, not %r" % (", ".join(STARTS), start))
    players_data = data.get("players")
    if not isinstance(players_data, dict) or set(players_data) != {"a", "b"}:
        raise _err(file, data, "players", "players must have exactly a and b")
    players = {}
    decks = {}
    for p in ("a", "b"):
        pd = players_data[p]
        _check_keys(file, pd, PLAYER_KEYS, "players.%s" % p)
        character = _character(file, pd, p)
        if start == "setup":
            decks[p] = setup_deck(file, pd, p, cards, character)
        elif "deck" in pd:
            raise _err(file, pd, "deck", "players.%s.deck is for start: setup (guide 3.4.1); this scenario starts at %s"
                       % (p, start))
        players[p] = _build_player(file, pd, p, cards, character)
    priority = data.get("priority")
    if priority is not None:
        _seat(file, data, "priority", priority)
    seed = data.get("seed", 0)
    if not isinstance(seed, int) or isinstance(seed, bool):
        raise _err(file, data, "seed", "seed must be an integer")
    st = GameState(cards, players, priority=priority, rules=rules, rng=seed, decks=decks or None)
    for key, kind in (("turn", int), ("stalled_battles", int), ("sudden_death", bool)):
        if key in data:
            if not isinstance(data[key], kind) or (kind is int and isinstance(data[key], bool)):
                raise _err(file, data, key, "%s must be %s" % (key, "an integer" if kind is int else "true or false"))
            setattr(st, key, data[key])
    if st.sudden_death:
        st.sd_turn = data.get("sudden_death_turn", 1)
        if not isinstance(st.sd_turn, int) or not 1 <= st.sd_turn <= rules.sudden_death_turns:
            raise _err(file, data, "sudden_death_turn", "sudden_death_turn must be 1..%d" % rules.sudden_death_turns)
    elif "sudden_death_turn" in data:
        raise _err(file, data, "sudden_death_turn", "sudden_death_turn needs sudden_death: true")
    if start == "setup":
        # guide 3.4.1 step 1: the agreed first priority holder (``priority``), else the seeded toss
        st.phase, st.step = "setup", "setup.ask"
    else:
        if st.priority is None:
            from engine.core.rng import coin_toss
            st.rng, st.priority = coin_toss(st.rng)
        if st.fxon:
            from engine.play.cardfx import refresh
            refresh(st)      # hand limits changed by trait functions (guide 3.3.2)
        check_sizes(file, data, st)
        if start == "lumen":
            st.phase, st.step = "lumen", "turn.start"
        else:
            st.phase, st.step = "ready", "ready.ask"
    sc.state = st
    sc.stop, sc.stop_at = _stop(file, data, st)
    sc.inputs = _build_inputs(file, data)
    sc.expect = validate_expect(file, data, known_names(st))
    return sc


def _stop(file, data, st):
    """(stop, number or None): ``end_of_battle`` ..., or ``{end_of_turn: N}``."""
    stop = data.get("stop", "end_of_battle")
    if isinstance(stop, dict):
        if len(stop) != 1 or next(iter(stop)) not in NUMBERED_STOPS:
            raise _err(file, data, "stop", "a numbered stop is {end_of_turn: N}, not %r" % (stop,))
        (key, n), = stop.items()
        if not isinstance(n, int) or isinstance(n, bool) or n < st.turn:
            raise _err(file, stop, key, "stop.%s must be a turn number, at least the scenario's turn (%d), not %r"
                       % (key, st.turn, n))
        return key, n
    if stop not in STOPS:
        raise _err(file, data, "stop", "stop must be one of %s, or {end_of_turn: N}, not %r" % (", ".join(STOPS), stop))
    return stop, None


def known_names(st):
    """What the expectations of a scenario on ``st`` may name: its card ids, the sources of effects
    (cards, the characters' traits, the hidden side-deck source), the timings, the option names
    of its ``choice`` entries."""
    cards = set(st.cards)
    traits = {pl.character.trait_id for pl in st.players.values()}
    entries = [e for c in st.cards.values() for e in c.effects]
    entries += [e for pl in st.players.values() for e in pl.character.trait_effects]
    return {CARD: cards, SOURCE: cards | traits | {HIDDEN}, TIMING: set(TIMING_NAMES), CHOICES: _choice_options(entries)}


def _choice_options(tree):
    out = set()
    if isinstance(tree, dict):
        if tree.get("do") == "choice" and isinstance(tree.get("options"), dict):
            out.update(tree["options"])
        for v in tree.values():
            out |= _choice_options(v)
    elif isinstance(tree, (list, tuple)):
        for v in tree:
            out |= _choice_options(v)
    return out


def _character(file, pd, p):
    ch = pd.get("character")
    if isinstance(ch, str):
        from engine.cards.decks import sample_character
        character = sample_character(ch)
        if character is None:
            raise _err(file, pd, "character", "unknown character %r" % ch)
        return character
    character, probs = parse_character(ch, file, where="players.%s.character" % p)
    if probs:
        raise CardError(probs)
    return character


def _build_player(file, pd, p, cards, character):
    zones = {}
    for key in ZONE_KEYS:
        v = pd.get(key) or []
        if not isinstance(v, list) or not all(isinstance(c, str) for c in v):
            raise _err(file, pd, key, "players.%s.%s must be a list of card ids, not %r" % (p, key, v))
        zones[key] = v
    ult = pd.get("ultimate")
    if ult is not None and (not isinstance(ult, str) or ult not in cards):
        raise _err(file, pd, "ultimate", "players.%s.ultimate: unknown card %r" % (p, ult))
    check_zones(file, pd, p, cards, character)
    for key in ("health", "fp", "non_responses"):
        if key in pd and (not isinstance(pd[key], int) or isinstance(pd[key], bool)):
            raise _err(file, pd, key, "players.%s.%s must be an integer" % (p, key))
    if "tokens" in pd and pd["tokens"] is not None and not isinstance(pd["tokens"], dict):
        raise _err(file, pd, "tokens", "players.%s.tokens must map token ids to counts" % p)
    return PlayerState(character, pd.get("health"), pd.get("fp", 0), zones["hand"], zones["list"],
                       zones["side_deck"], zones["break_zone"], zones["lumen_zone"], (), ult,
                       _ultimate_card(file, pd, p, cards, zones, ult), pd.get("non_responses", 0), pd.get("tokens"))


def _ultimate_card(file, pd, p, cards, zones, ult):
    """The player's ultimate card (issue 23, guide 3.3.4): the card in the ultimate zone, or a card
    marked ``ultimate: true`` wherever the player has it (taken in a get phase, then discarded to
    the list, say). A deck holds 0 or 1 (guide 3.3.4 "덱에 0장 또는 1장"): two are an error."""
    marked = [cid for key in ZONE_KEYS for cid in zones[key] if cards[cid].ultimate]
    found = list(dict.fromkeys(([ult] if ult is not None else []) + marked))
    if len(found) > 1:
        raise _err(file, pd, "ultimate" if "ultimate" in pd else None,
                   "players.%s: %s are all ultimate cards; a deck holds 0 or 1 ultimate (guide 3.3.4)"
                   % (p, ", ".join(found)))
    return found[0] if found else None


def _build_inputs(file, data):
    inputs = data.get("inputs") or []
    if not isinstance(inputs, list):
        raise _err(file, data, "inputs", "inputs must be a list")
    queues = {"a": [], "b": []}
    for i, item in enumerate(inputs):
        if not isinstance(item, dict) or "player" not in item:
            raise _err(file, data, "inputs", "inputs[%d] must be {player: a|b, KEY: VALUE}" % i)
        p = _seat(file, item, "player", item["player"])
        keys = [k for k in item if k != "player"]
        if len(keys) != 1 or keys[0] not in INPUT_KEYS:
            raise _err(file, item, keys[0] if keys else "player",
                       "inputs[%d] needs exactly one of %s" % (i, ", ".join(sorted(INPUT_KEYS))))
        queues[p].append((keys[0], item[keys[0]], i))
    return queues


def run(sc):
    """Run a built scenario. Returns an Outcome."""
    st = sc.state
    marker = STOPS[sc.stop]
    until = {marker}
    at = getattr(sc, "stop_at", None)
    field = NUMBERED_STOPS.get(sc.stop)
    stop = sc.stop if at is None else "%s %d" % (sc.stop, at)

    def stopped(evs):
        return any(e["e"] == marker and (at is None or e.get(field) == at) for e in evs)

    def past_other_stops(st, evs):
        """Paused at the stop's marker but not the stop (the end of an earlier turn): go on."""
        while at is not None and evs and evs[-1]["e"] == marker and not stopped(evs[-1:]) and not st.pending \
                and st.winner is None:
            st, more = game.advance(st, until)
            evs = evs + more
        return st, evs
    events = []
    decisions = []       # every decision asked: player, kind, options, answer (``--json``, ``offered``)
    queues = {p: list(q) for p, q in sc.inputs.items()}
    failures = []
    try:
        st, ev = past_other_stops(*game.advance(st, until))
        events += ev
        while True:
            if stopped(ev) or st.winner is not None:
                break
            if not st.pending:
                failures.append("engine paused without a decision before %s" % stop)
                break
            req = next((r for r in st.pending if queues[r["player"]]), None)
            if req is None:
                r = st.pending[0]
                failures.append("the engine asks %s for %s (options: %s) but the inputs do not answer it"
                                % (r["player"], r["kind"], _fmt_opts(r)))
                break
            p = req["player"]
            key, value, index = queues[p][0]
            want = req["kind"]
            if key != want and not (want == "ready" and key == "timeout"):
                failures.append("the engine asks %s for %s (options: %s) but inputs[%d] gives %s: %r"
                                % (p, want, _fmt_opts(req), index, key, value))
                break
            queues[p].pop(0)
            decisions.append({"player": p, "kind": want, "options": req["options"], "answer": {key: value},
                              "input": index})
            try:
                st, ev = past_other_stops(*game.apply(st, p, key, value, until))
            except IllegalDecision as exc:
                failures.append("inputs[%d] (%s %s: %r) is illegal: %s" % (index, p, key, value, exc))
                break
            events += ev
    except LumenError as exc:
        failures.append("engine error: %s" % exc)
    # the decisions still open when the run stopped were offered too (``offered`` reads them)
    decisions += [{"player": r["player"], "kind": r["kind"], "options": r["options"], "answer": None}
                  for r in st.pending]
    if not failures:
        where = None
        for p in ("a", "b"):
            for key, value, index in queues[p]:
                where = where or _where(st, stopped(events), stop)
                failures.append("inputs[%d] (%s %s: %r) was never asked for: %s" % (index, p, key, value, where))
        if st.winner is None and not stopped(events):
            failures.append("the scenario never reached %s" % stop)
        failures += compare(sc.expect, st, events, decisions)
    return Outcome(sc.name, sc.file, not failures, failures, st, events, decisions)


def _where(st, at_stop, stop):
    """Where the engine stopped, for an input it never asked for."""
    if st.winner is not None:
        return "the game was over (winner: %s, turn %d)" % (st.winner, st.turn)
    if at_stop:
        return "the run stopped at %s (turn %d, %s phase)" % (stop, st.turn, st.phase)
    if st.pending:
        return "the engine was asking %s" % "; ".join("%s for %s (options: %s)" % (r["player"], r["kind"], _fmt_opts(r))
                                                     for r in st.pending)
    return "the engine stopped in the %s phase (turn %d)" % (st.phase, st.turn)


def _fmt_opts(req):
    return ", ".join(json.dumps(o, ensure_ascii=False) if not isinstance(o, str) else o for o in req["options"])


def run_file(path):
    """Load and run one file; a malformed file is a failing Outcome, not an exception."""
    try:
        sc = load(path)
    except LumenError as exc:
        return Outcome(str(path), str(path), False, ["invalid scenario: %s" % str(exc).replace("\n", "; ")])
    return run(sc)


def expand_paths(paths):
    """Files as given; a directory gives its scenario files (``.yaml``, ``.yml``, ``.json``), recursively,
    sorted. A path that does not exist is kept, so that running it says "no such file"."""
    out = []
    for path in paths:
        path = str(path)
        if os.path.isdir(path):
            found = []
            for root, dirs, files in os.walk(path):
                dirs.sort()
                found += [os.path.join(root, f) for f in sorted(files) if f.endswith(SCENARIO_SUFFIXES)]
            out += found if found else [path]
        else:
            out.append(path)
    return out


def run_paths(paths):
    """Run every scenario under ``paths`` (files and directories). Returns the outcomes."""
    outcomes = []
    for path in expand_paths(paths):
        if os.path.isdir(path):
            outcomes.append(Outcome(path, path, False, ["invalid scenario: %s: a directory without scenario files "
                                                        "(.yaml, .yml, .json)" % path]))
        else:
            outcomes.append(run_file(path))
    return outcomes


def report(outcomes, as_json=False):
    """The text ``lumen scenario`` prints and its exit code (0 only if all pass)."""
    if as_json:
        text = json.dumps([o.to_json() for o in outcomes], ensure_ascii=False, indent=2)
    else:
        text = "\n".join(o.line() for o in outcomes)
    return text, (0 if outcomes and all(o.passed for o in outcomes) else 1)
