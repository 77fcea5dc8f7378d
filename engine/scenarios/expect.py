"""The ``expect:`` block of a scenario (brief 4.2): its schema and the comparison.

Every key is type-checked when the scenario is loaded, so ``expect: {list: a-x}`` is
a schema error naming the key, not a value mismatch at the end of the run. The
comparison gives one message per difference (the runner prints one per line).

Additions to the brief: ``phase``, ``rules`` (rule sections that must have been
applied, e.g. ``[guide 3.10]``), ``offered`` / ``not_offered``: options the engine offered,
e.g. ``offered: {catch: [a-jab]}`` (either player) or ``not_offered: {a: {catch: [a-slow]}}``.
``offered`` reads the last decision of that kind, which must have been asked; ``not_offered``
reads every decision of that kind (none asked: nothing was offered). Each option must be
something that kind of decision can offer in this scenario (its card ids, the fixed words),
or the check could never fail. ``decisions``: who was asked what, in order, the whole run.
``events`` / ``no_events``: the order of what happened (engine/scenarios/patterns.py).
"""

import json
from collections import Counter

from engine.scenarios import patterns as scenario_events
from engine.core.decisions import KINDS
from engine.core.event_kinds import CARD, SOURCE
from engine.core.errors import ScenarioError
from engine.core.yamlio import LineDict

OUTCOMES = {"hit", "counter", "guard", "evade", "guarded", "evaded", "countered", "was_hit", "trade",
            "offset", "both_defend", "both_evade"}
PHASES = ("setup", "lumen", "ready", "battle", "get", "recovery", "over")
LIST_KEYS = ("hand", "list", "side_deck", "break_zone", "lumen_zone", "battle_zone")
INT_KEYS = ("health", "fp", "non_responses", "hand_limit")
PLAYER_KEYS = frozenset(LIST_KEYS + INT_KEYS + ("character", "ultimate", "tokens"))
GLOBAL_KEYS = {"outcome", "players", "winner", "priority", "turn", "stalled_battles", "sudden_death",
               "phase", "rules", "offered", "not_offered", "events", "no_events", "decisions"}
DECISION_KINDS = tuple(k for k in KINDS if k != "timeout")
#: the words a decision offers besides card ids (engine/core/decisions.py); combo options are lists
WORDS = {"get": ("ultimate", "skip"), "combo": ("end",), "catch": ("pass",), "nullify": ("pass",),
         "replenish": ("pass",), "choose": ("use", "pass")}
#: what ``known`` holds besides the event_kinds marks: the option names of the scenario's ``choice`` entries
CHOICES = "choice"
DECISION_KEYS = {"player", "kind", "options"}


def _err(file, obj, key, msg):
    line = obj.line_of(key) if isinstance(obj, LineDict) else None
    where = "%s:%d: " % (file, line) if line else ("%s: " % file if file else "")
    return ScenarioError(where + msg)


def _is_int(v):
    return isinstance(v, int) and not isinstance(v, bool)


def _mapping(file, parent, key, v, allowed, what):
    if not isinstance(v, dict):
        raise _err(file, parent, key, "%s must be a mapping, not %r" % (what, v))
    for k in v:
        if k not in allowed:
            raise _err(file, v, k, "unknown key %r in %s (allowed: %s)" % (k, what, ", ".join(sorted(allowed))))


def validate(file, data, known=None):
    """Check the types of ``expect`` (``data`` is the scenario mapping). Returns the expect mapping.
    ``known``: what the scenario has (``{CARD: card ids, SOURCE: card and trait ids, TIMING: timing
    names, CHOICES: choice option names}``); without it names are not checked."""
    known = known or {}
    expect = data.get("expect")
    if expect is None:
        return {}
    _mapping(file, data, "expect", expect, GLOBAL_KEYS, "expect")
    for key, v in expect.items():
        what = "expect.%s" % key
        if key == "players":
            _mapping(file, expect, key, v, {"a", "b"}, what)
            for p, e in v.items():
                _mapping(file, v, p, e, PLAYER_KEYS, "expect.players.%s" % p)
                for k, x in e.items():
                    _player_value(file, e, k, x, "expect.players.%s.%s" % (p, k))
        elif key == "outcome":
            if v is None:
                continue
            _mapping(file, expect, key, v, {"a", "b"}, what)
            for p, label in v.items():
                if label not in OUTCOMES:
                    raise _err(file, v, p, "unknown outcome label %r (known: %s)" % (label, ", ".join(sorted(OUTCOMES))))
        elif key == "winner":
            if v not in ("a", "b", "draw", None):
                raise _err(file, expect, key, "winner must be a, b, draw or null")
        elif key == "priority":
            if v not in ("a", "b"):
                raise _err(file, expect, key, "expect.priority must be a or b, not %r" % (v,))
        elif key in ("turn", "stalled_battles"):
            if not _is_int(v):
                raise _err(file, expect, key, "%s must be an integer, not %r" % (what, v))
        elif key == "sudden_death":
            if not isinstance(v, bool):
                raise _err(file, expect, key, "%s must be true or false, not %r" % (what, v))
        elif key == "phase":
            if v not in PHASES:
                raise _err(file, expect, key, "%s must be one of %s, not %r" % (what, ", ".join(PHASES), v))
        elif key == "rules":
            if not isinstance(v, list) or not all(isinstance(r, str) for r in v):
                raise _err(file, expect, key, "%s must be a list of rule sections like \"guide 3.10\", not %r" % (what, v))
        elif key in scenario_events.KEYS:
            scenario_events.validate(file, expect, key, known)
        elif key == "decisions":
            _decisions(file, expect, key, v, known)
        else:   # offered / not_offered
            _offers(file, expect, key, v, what, known)
    return expect


def _player_value(file, parent, key, v, what):
    if key in LIST_KEYS:
        if not isinstance(v, list) or not all(isinstance(c, str) for c in v):
            raise _err(file, parent, key, "%s must be a list of card ids, not %r" % (what, v))
    elif key in INT_KEYS:
        if not _is_int(v):
            raise _err(file, parent, key, "%s must be an integer, not %r" % (what, v))
    elif key == "ultimate":
        if v is not None and not isinstance(v, str):
            raise _err(file, parent, key, "%s must be a card id or null, not %r" % (what, v))
    elif key == "tokens":
        if not isinstance(v, dict) or not all(_is_int(n) for n in v.values()):
            raise _err(file, parent, key, "%s must map token ids to integers, not %r" % (what, v))
    elif key == "character":
        if not isinstance(v, (str, dict)):
            raise _err(file, parent, key, "%s must be a character id or a mapping, not %r" % (what, v))


def _offers(file, expect, key, v, what, known):
    if not isinstance(v, dict) or not v:
        raise _err(file, expect, key, "%s must map a decision kind (or a or b, then kinds) to options, not %r" % (what, v))
    for k, x in v.items():
        if k in ("a", "b"):
            if not isinstance(x, dict) or not x:
                raise _err(file, v, k, "%s.%s must map decision kinds to options, not %r" % (what, k, x))
            for kind, opts in x.items():
                _offer_list(file, x, kind, opts, "%s.%s.%s" % (what, k, kind), known)
        else:
            _offer_list(file, v, k, x, "%s.%s" % (what, k), known)


def _offer_list(file, parent, kind, opts, what, known):
    if kind not in DECISION_KINDS:
        raise _err(file, parent, kind, "%s: unknown decision kind %r (known: %s)" % (what, kind, ", ".join(DECISION_KINDS)))
    if not isinstance(opts, list) or not opts:
        raise _err(file, parent, kind, "%s must be a non-empty list of options, not %r" % (what, opts))
    for i, o in enumerate(opts):
        wrong = _option_problem(kind, o, known)
        if wrong:
            raise _err(file, parent, kind, "%s[%d]: %s can never be offered: %s" % (what, i, _fmt_opt(o), wrong))


def _option_problem(kind, o, known):
    """Why ``o`` is not something a ``kind`` decision can offer in this scenario, or None."""
    cards = known.get(CARD)
    words = WORDS.get(kind, ())

    def card_or_word(x):
        if isinstance(x, str) and (x in words or cards is None or x in cards):
            return None
        if kind == "choose" and isinstance(x, str) and (x in known.get(CHOICES, ()) or _effect_name(x, known)):
            return None
        ids = sorted(cards or ())
        have = ["a card id of this scenario (%s)" % (", ".join(ids[:12]) + (", ..." if len(ids) > 12 else ""))] + list(words)
        if kind == "choose":
            have += ["<card or trait id>:<n> (an effect)", "an option of a choice entry"]
        return "a %s decision offers %s" % (kind, ", ".join(have))
    if kind == "combo":
        if o == "end":
            return None
        if not isinstance(o, list) or not 1 <= len(o) <= 2:
            return "a combo option is [id, id] (first and second combo) or [id] (the next one), or end"
        return next((w for w in map(card_or_word, o) if w), None)
    return card_or_word(o)


def _effect_name(x, known):
    """``card-id:n``: an entry of a card's or trait's ``effects:`` (the ``order`` question)."""
    src, _, n = x.rpartition(":")
    return n.isdigit() and int(n) >= 1 and (SOURCE not in known or src in known[SOURCE])


def _decisions(file, expect, key, v, known):
    if not isinstance(v, list):
        raise _err(file, expect, key, "expect.decisions must be a list of {player: a|b, kind: KIND}, in the order "
                                      "asked, not %r" % (v,))
    for i, d in enumerate(v):
        what = "expect.decisions[%d]" % i
        _mapping(file, expect, key, d, DECISION_KEYS, what)
        if d.get("player") not in ("a", "b"):
            raise _err(file, d, "player" if "player" in d else None, "%s.player must be a or b, not %r" % (what, d.get("player")))
        kind = d.get("kind")
        if kind not in DECISION_KINDS:
            raise _err(file, d, "kind" if "kind" in d else None, "%s.kind: unknown decision kind %r (known: %s)"
                       % (what, kind, ", ".join(DECISION_KINDS)))
        if "options" in d:
            if not isinstance(d["options"], list) or not d["options"]:
                raise _err(file, d, "options", "%s.options must be a non-empty list of options, not %r" % (what, d["options"]))
            for j, o in enumerate(d["options"]):
                wrong = _option_problem(kind, o, known)
                if wrong:
                    raise _err(file, d, "options", "%s.options[%d]: %s can never be offered: %s" % (what, j, _fmt_opt(o), wrong))


# ------------------------------------------------------------------ comparing

def _hashable(x):
    return json.dumps(x, sort_keys=True) if isinstance(x, (list, dict)) else x


def _multiset_eq(a, b):
    return Counter(map(_hashable, a)) == Counter(map(_hashable, b))


def _fmt_outcome(o):
    return "{a: %s, b: %s}" % (o.get("a"), o.get("b"))


def _fmt_list(v):
    if isinstance(v, list):
        return "[%s]" % ", ".join(sorted(map(str, v)))
    return repr(v)


def _fmt_opt(o):
    return json.dumps(o, ensure_ascii=False) if not isinstance(o, str) else o


def compare(expect, st, events, decisions=()):
    """One message per difference between ``expect`` and the final state."""
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
        out += _compare_player(st, p, want)
    for key in ("offered", "not_offered"):
        if key in expect:
            out += _compare_offers(key, expect[key], decisions)
    if "decisions" in expect:
        out += _compare_decisions(expect["decisions"], decisions)
    out += scenario_events.compare(expect, events)
    return out


def _compare_player(st, p, want):
    out = []
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
        got = getattr(pl, key)
        if isinstance(got, list):
            if not _multiset_eq(got, value):
                out.append("players.%s.%s: expected %s, got %s" % (p, key, _fmt_list(value), _fmt_list(got)))
        elif got != value:
            out.append("players.%s.%s: expected %r, got %r" % (p, key, value, got))
    return out


def _compare_offers(key, spec, decisions):
    """``offered``: each option is among those of the last decision of its kind (and player);
    ``not_offered``: no decision of its kind (and player) offered it, all of them read."""
    out = []
    checks = []
    for k, x in spec.items():
        if k in ("a", "b"):
            checks += [(k, kind, opts) for kind, opts in x.items()]
        else:
            checks.append((None, k, x))
    for p, kind, opts in checks:
        asked = [(i, d) for i, d in enumerate(decisions) if d["kind"] == kind and (p is None or d["player"] == p)]
        who = "%s's " % p if p else ""
        if key == "offered":
            if not asked:
                out.append("offered.%s: %s%s decision was never asked" % (kind, who, kind))
                continue
            last = asked[-1][1]
            got = {_hashable(o) for o in last["options"]}
            for o in opts:
                if _hashable(o) not in got:
                    out.append("offered.%s: %s was not offered to %s (options: %s)"
                               % (kind, _fmt_opt(o), last["player"], ", ".join(map(_fmt_opt, last["options"]))))
            continue
        for o in opts:
            for i, d in asked:
                if _hashable(o) in {_hashable(x) for x in d["options"]}:
                    out.append("not_offered.%s: %s was offered to %s in decisions[%d] (options: %s)"
                               % (kind, _fmt_opt(o), d["player"], i, ", ".join(map(_fmt_opt, d["options"]))))
                    break
    return out


def _fmt_decision(d):
    return "%s %s" % (d["player"], d["kind"])


def _compare_decisions(want, decisions):
    """The decisions asked, in order, against ``expect.decisions``: one message, at the first
    difference, with the run's whole sequence."""
    got = "; ".join(_fmt_decision(d) for d in decisions) or "none"
    for i, w in enumerate(want):
        if i >= len(decisions):
            return ["decisions[%d]: expected %s, but the run asked only %d decision(s): %s"
                    % (i, _fmt_decision(w), len(decisions), got)]
        d = decisions[i]
        if (d["player"], d["kind"]) != (w["player"], w["kind"]):
            return ["decisions[%d]: expected %s, got %s (the run asked: %s)" % (i, _fmt_decision(w), _fmt_decision(d), got)]
        if "options" in w and not _multiset_eq(w["options"], d["options"]):
            return ["decisions[%d].options: expected %s, got %s" % (i, ", ".join(map(_fmt_opt, w["options"])),
                                                                   ", ".join(map(_fmt_opt, d["options"])))]
    if len(decisions) > len(want):
        return ["decisions: expected %d, the run asked %d: %s" % (len(want), len(decisions), got)]
    return []
