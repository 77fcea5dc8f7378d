"""Rule-conformance scenarios (brief 4.2): set up a position, feed inputs, check what holds.

The format is fixed by the brief; this module validates it strictly (unknown
keys are errors), builds the position, answers the engine's decisions from
per-player input queues, stops at ``stop`` and compares ``expect``. A
decision the inputs do not answer, or an input the engine never asked for,
fails the scenario with a message naming it.

Additions to the brief's fields (all optional): top level ``description``,
``seed`` (coin toss when ``priority`` is absent), ``turn``,
``stalled_battles``, ``sudden_death``, ``sudden_death_turn`` (1-3); per player ``non_responses`` and
``tokens``; the input key ``setup: {hand: [...], list: [...]}`` (sudden death
rebuild); under ``expect`` the global keys plus ``phase`` and ``rules``
(rule sections that must have been applied, e.g. ``[guide 3.10]``).
"""

import json
from collections import Counter

from . import game
from .cards import parse_card, parse_character
from .errors import IllegalDecision, LumenError, ScenarioError
from .events import explain
from .rules import Rules
from .state import GameState, PlayerState
from .yamlio import LineDict, load_yaml

TOP_KEYS = {"name", "description", "rules", "cards", "players", "priority", "start", "inputs", "stop",
            "expect", "seed", "turn", "stalled_battles", "sudden_death", "sudden_death_turn"}
PLAYER_KEYS = {"character", "health", "fp", "hand", "list", "side_deck", "break_zone", "lumen_zone",
               "ultimate", "non_responses", "tokens"}
ZONE_KEYS = ("hand", "list", "side_deck", "break_zone", "lumen_zone")
INPUT_KEYS = {"ready", "timeout", "pick", "get", "discard", "combo", "catch", "nullify", "replenish",
              "choose", "setup"}
STARTS = ("ready", "lumen", "battle")
STOPS = {"end_of_battle": "battle_end", "end_of_turn": "turn_end", "next_ready": "ready_start",
         "game_over": "game_over"}
EXPECT_KEYS = {"outcome", "players", "winner", "priority", "turn", "stalled_battles", "sudden_death",
               "phase", "rules"}
EXPECT_PLAYER_KEYS = PLAYER_KEYS | {"battle_zone", "hand_limit"}
OUTCOMES = {"hit", "counter", "guard", "evade", "guarded", "evaded", "countered", "was_hit", "trade",
            "offset", "both_defend", "both_evade"}


class Scenario:
    __slots__ = ("name", "file", "data", "state", "inputs", "stop", "expect")


class Outcome:
    """What running one scenario gave."""

    def __init__(self, name, file, passed, failures, state=None, events=()):
        self.name = name
        self.file = file
        self.passed = passed
        self.failures = failures
        self.state = state
        self.events = list(events)

    def line(self):
        if self.passed:
            return "PASS %s" % self.name
        return "FAIL %s: %s" % (self.name, "; ".join(self.failures))

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
            d["events"] = [dict(e, text=explain(e, st.cards)) for e in self.events]
        return d


def _player_summary(st, p):
    pl = st.players[p]
    return {"health": pl.health, "fp": pl.fp, "hand": pl.hand, "list": pl.list, "side_deck": pl.side_deck,
            "break_zone": pl.break_zone, "lumen_zone": pl.lumen_zone, "battle_zone": pl.battle_zone,
            "ultimate": pl.ultimate, "non_responses": pl.non_responses, "hand_limit": pl.hand_limit}


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
    try:
        data = load_yaml(path)
    except Exception as exc:  # yaml reports the position itself
        raise ScenarioError("%s: not valid YAML: %s" % (path, exc)) from None
    return build(data, str(path))


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
    from .errors import CardError
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
    players_data = data.get("players")
    if not isinstance(players_data, dict) or set(players_data) != {"a", "b"}:
        raise _err(file, data, "players", "players must have exactly a and b")
    players = {}
    for p in ("a", "b"):
        pd = players_data[p]
        _check_keys(file, pd, PLAYER_KEYS, "players.%s" % p)
        players[p] = _build_player(file, pd, p, cards)
    priority = data.get("priority")
    if priority is not None:
        _seat(file, data, "priority", priority)
    seed = data.get("seed", 0)
    if not isinstance(seed, int):
        raise _err(file, data, "seed", "seed must be an integer")
    st = GameState(cards, players, priority=priority, rules=rules, rng=seed)
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
    if st.priority is None:
        from .rng import coin_toss
        st.rng, st.priority = coin_toss(st.rng)
    if st.fxon:
        from .windows import refresh
        refresh(st)      # hand limits changed by trait functions (guide 3.3.2)
    start = data.get("start", "ready")
    if start not in STARTS:
        raise _err(file, data, "start", "start must be one of %s, not %r" % (", ".join(STARTS), start))
    if start == "lumen":
        st.phase, st.step = "lumen", "turn.start"
    else:
        st.phase, st.step = "ready", "ready.ask"
    sc.state = st
    stop = data.get("stop", "end_of_battle")
    if stop not in STOPS:
        raise _err(file, data, "stop", "stop must be one of %s, not %r" % (", ".join(STOPS), stop))
    sc.stop = stop
    sc.inputs = _build_inputs(file, data)
    expect = data.get("expect") or {}
    _check_keys(file, expect, EXPECT_KEYS, "expect")
    if "players" in expect:
        ep = expect["players"]
        _check_keys(file, ep, {"a", "b"}, "expect.players")
        for p, e in ep.items():
            _check_keys(file, e, EXPECT_PLAYER_KEYS, "expect.players.%s" % p)
    if "outcome" in expect and expect["outcome"] is not None:
        _check_keys(file, expect["outcome"], {"a", "b"}, "expect.outcome")
        for p, label in expect["outcome"].items():
            if label not in OUTCOMES:
                raise _err(file, expect["outcome"], p, "unknown outcome label %r (known: %s)"
                           % (label, ", ".join(sorted(OUTCOMES))))
    if "winner" in expect and expect["winner"] not in ("a", "b", "draw", None):
        raise _err(file, expect, "winner", "winner must be a, b, draw or null")
    sc.expect = expect
    return sc


def _build_player(file, pd, p, cards):
    ch = pd.get("character")
    if isinstance(ch, str):
        from .decks import sample_character
        character = sample_character(ch)
        if character is None:
            raise _err(file, pd, "character", "unknown character %r" % ch)
    else:
        character, probs = parse_character(ch, file, where="players.%s.character" % p)
        if probs:
            from .errors import CardError
            raise CardError(probs)
    zones = {}
    for key in ZONE_KEYS:
        v = pd.get(key) or []
        if not isinstance(v, list):
            raise _err(file, pd, key, "players.%s.%s must be a list of card ids" % (p, key))
        for cid in v:
            if cid not in cards:
                raise _err(file, pd, key, "players.%s.%s: unknown card %r (define it under cards:)" % (p, key, cid))
            if key in ("hand", "list") and cards[cid].kind == "special":
                raise _err(file, pd, key, "players.%s.%s: %r is a special skill; specials can only be in the side "
                                          "deck, lumen zone, ultimate zone or break zone (guide 3.3.3)" % (p, key, cid))
        zones[key] = v
    ult = pd.get("ultimate")
    if ult is not None and ult not in cards:
        raise _err(file, pd, "ultimate", "players.%s.ultimate: unknown card %r" % (p, ult))
    for key in ("health", "fp", "non_responses"):
        if key in pd and (not isinstance(pd[key], int) or isinstance(pd[key], bool)):
            raise _err(file, pd, key, "players.%s.%s must be an integer" % (p, key))
    return PlayerState(character, pd.get("health"), pd.get("fp", 0), zones["hand"], zones["list"],
                       zones["side_deck"], zones["break_zone"], zones["lumen_zone"], (), ult, ult,
                       pd.get("non_responses", 0), pd.get("tokens"))


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
    events = []
    queues = {p: list(q) for p, q in sc.inputs.items()}
    failures = []
    try:
        st, ev = game.advance(st, until)
        events += ev
        while True:
            if _stopped(ev, marker) or st.winner is not None:
                break
            if not st.pending:
                failures.append("engine paused without a decision before %s" % sc.stop)
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
            try:
                st, ev = game.apply(st, p, key, value, until)
            except IllegalDecision as exc:
                failures.append("inputs[%d] (%s %s: %r) is illegal: %s" % (index, p, key, value, exc))
                break
            events += ev
    except LumenError as exc:
        failures.append("engine error: %s" % exc)
    if not failures:
        for p in ("a", "b"):
            for key, value, index in queues[p]:
                failures.append("inputs[%d] (%s %s: %r) was never asked for" % (index, p, key, value))
        if st.winner is None and not _stopped(events, marker):
            failures.append("the scenario never reached %s" % sc.stop)
        failures += compare(sc.expect, st, events)
    return Outcome(sc.name, sc.file, not failures, failures, st, events)


def _stopped(events, marker):
    return any(e["e"] == marker for e in events)


def _fmt_opts(req):
    return ", ".join(json.dumps(o, ensure_ascii=False) if not isinstance(o, str) else o for o in req["options"])


def _multiset_eq(a, b):
    return Counter(map(_hashable, a)) == Counter(map(_hashable, b))


def _hashable(x):
    return json.dumps(x, sort_keys=True) if isinstance(x, (list, dict)) else x


def compare(expect, st, events):
    out = []
    if "outcome" in expect:
        want = expect["outcome"]
        got = st.last_outcome
        if want is None:
            if got is not None:
                out.append("outcome: expected none, got %s" % _fmt_outcome(got))
        elif got is None:
            out.append("outcome: expected %s, got no judged battle" % _fmt_outcome(want))
        else:
            for p, label in want.items():
                if got.get(p) != label:
                    out.append("outcome.%s: expected %s, got %s" % (p, label, got.get(p)))
    if "winner" in expect and expect["winner"] != st.winner:
        out.append("winner: expected %s, got %s" % (expect["winner"], st.winner))
    for key in ("priority", "turn", "stalled_battles", "sudden_death", "phase"):
        if key in expect and expect[key] != getattr(st, key):
            out.append("%s: expected %r, got %r" % (key, expect[key], getattr(st, key)))
    if "rules" in expect:
        applied = {e.get("rule") for e in events}
        for rule in expect["rules"] or []:
            if rule not in applied:
                out.append("rules: %s was never applied" % rule)
    for p, want in (expect.get("players") or {}).items():
        pl = st.players[p]
        for key, value in want.items():
            if key == "character":
                got = pl.character.to_json()
                if isinstance(value, str):
                    ok = value in (pl.character.id, pl.character.name)
                else:
                    ok = all(got.get(k) == (list(v) if isinstance(v, (list, tuple)) else v) for k, v in value.items())
                if not ok:
                    out.append("players.%s.character: expected %r, got %r" % (p, value, got))
                continue
            if key == "hand_limit":
                got = pl.hand_limit
            else:
                got = getattr(pl, key)
            if isinstance(got, list):
                if not isinstance(value, list) or not _multiset_eq(got, value):
                    out.append("players.%s.%s: expected %s, got %s" % (p, key, _fmt_list(value), _fmt_list(got)))
            elif got != value:
                out.append("players.%s.%s: expected %r, got %r" % (p, key, value, got))
    return out


def _fmt_outcome(o):
    return "{a: %s, b: %s}" % (o.get("a"), o.get("b"))


def _fmt_list(v):
    if isinstance(v, list):
        return "[%s]" % ", ".join(sorted(map(str, v)))
    return repr(v)


def run_file(path):
    """Load and run one file; a malformed file is a failing Outcome, not an exception."""
    try:
        sc = load(path)
    except LumenError as exc:
        return Outcome(str(path), str(path), False, ["invalid scenario: %s" % str(exc).replace("\n", "; ")])
    return run(sc)
