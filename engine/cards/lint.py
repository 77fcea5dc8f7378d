"""The linter of card effects (engine/cards/effects.py's vocabulary): every problem of an ``effects:``
list as (message, object, key, field), so ``lumen cards check`` can name the file, line, card and
field (``effects[1].amount``) of each."""

from collections.abc import Iterable, Iterator
from typing import Any

from engine.cards.effects import (COMMON, CONDITIONS, COUNT_KEYS, COUNT_ZONES, EVENT_TIMINGS, LABELS, NESTED, PHASE_TIMINGS, REGISTRY, TARGETS, TIMING_NAMES, TIMING_ZONES, USED_KEYS, ZONES_BY_KIND, entry_zone)


#: one problem: (message, the object it is in, the key there, the field path like effects[1].amount)
Finding = tuple[str, Any, Any, str]


def _cond_problems(cond: Any, field: str) -> Iterator[Finding]:
    if not isinstance(cond, dict):
        yield ("conditions must be a mapping (keys: %s)" % ", ".join(CONDITIONS), cond, None, field)
        return
    for key, v in cond.items():
        f = "%s.%s" % (field, key)
        if key not in CONDITIONS:
            yield ("unknown condition %r (known: %s)" % (key, ", ".join(CONDITIONS)), cond, key, f)
            continue
        t = CONDITIONS[key][0]
        bad = None
        if t == "int":
            if not isinstance(v, int) or isinstance(v, bool):
                bad = "must be an integer"
        elif t == "bool":
            if not isinstance(v, bool):
                bad = "must be true or false"
        elif t == "labels":
            if not isinstance(v, list) or not v or any(x not in LABELS for x in v):
                bad = "must be a list of outcome labels (%s)" % ", ".join(LABELS)
        elif t == "count":
            if not isinstance(v, dict) or v.get("zone") not in COUNT_ZONES or any(k not in COUNT_KEYS for k in v) \
                    or v.get("who", "self") not in TARGETS \
                    or any(not isinstance(v.get(k, 0), int) for k in ("min", "max")):
                bad = "must be {zone: %s, who: self|opponent, min: N, max: N}" % "|".join(COUNT_ZONES)
        elif t == "tokens":
            if not isinstance(v, dict) or not all(isinstance(b, dict) and set(b) <= {"min", "max"} and
                                                  all(isinstance(x, int) for x in b.values()) for b in v.values()):
                bad = "must be {token id: {min: N, max: N}}"
        elif t == "card":
            if not isinstance(v, dict) or any(k not in USED_KEYS for k in v):
                bad = "must be a mapping with keys among %s" % ", ".join(USED_KEYS)
        elif t == "broken":
            if not isinstance(v, dict) or any(k not in USED_KEYS + ("from",) for k in v):
                bad = "must be a mapping with keys among %s, from" % ", ".join(USED_KEYS)
        if bad:
            yield (bad, cond, key, f)


def check_effects(effects: Iterable[Any], kind: str, ultimate: bool = False) -> Iterator[Finding]:
    """Yield (message, obj, key, field) for every problem in a card's (or trait's) effects list.
    ``kind`` is attack, defense, special or trait."""
    for i, entry in enumerate(effects):
        yield from _check_entry(entry, kind, "effects[%d]" % i, top=True, ultimate=ultimate)


def _check_entry(entry: Any, kind: str, field: str, top: bool, ultimate: bool = False) -> Iterator[Finding]:
    if not isinstance(entry, dict):
        yield ("an effect must be a mapping like {do: <primitive>, ...}", None, None, field)
        return
    name = entry.get("do")
    if not isinstance(name, str) or name not in REGISTRY:     # `do: {..}` is a problem to name, not a crash
        yield ("unknown effect %r (known primitives: %s)" % (name, ", ".join(sorted(REGISTRY))), entry, "do", field)
        return
    prim = REGISTRY[name]
    if not top and prim.mode == "static":
        yield ("%s is a function the rules read: not inside then/choice" % name, entry, "do", field + ".do")
    if kind not in prim.kinds:
        yield ("%s is not allowed on a %s (only on: %s)" % (name, kind, ", ".join(prim.kinds)), entry, "do", field + ".do")
    allowed = set(prim.params) | (set(COMMON) if top else set(NESTED))
    for key in entry:
        if key not in allowed:
            where = "" if top else " inside then/choice (allowed there: %s and the parameters)" % ", ".join(NESTED)
            yield ("unknown parameter %r for effect %r%s" % (key, name, where), entry, key, field + "." + str(key))
    for key, param in prim.params.items():
        if key in entry:
            if entry[key] is None and not param.required:
                continue
            msg = param.problem(entry[key])
            if msg:
                yield (msg, entry, key, "%s.%s" % (field, key))
        elif param.required:
            yield ("missing parameter %r for effect %r" % (key, name), entry, "do", "%s.%s" % (field, key))
    if name == "use_condition":
        if "if" not in entry:
            yield ("use_condition needs its condition under if:", entry, "do", field)
        for k in ("number", "optional", "zone", "then", "duration"):
            if k in entry:
                yield ("a use condition is a rule of the card, not an effect: no %s" % k, entry, k, field + "." + k)
    if name == "forbid" and entry.get("cards") is not None and entry.get("action") != "ready":
        yield ("cards: only with action: ready", entry, "cards", field + ".cards")
    if name == "deck_rule" and not any(k in entry for k in prim.params):
        yield ("deck_rule names no item (skills, own_mark_min, same_name_max)", entry, "do", field)
    if name == "fp" and entry.get("amount") == 0 or name == "token" and entry.get("amount") == 0:
        yield ("amount must not be 0", entry, "amount", field + ".amount")
    if name == "break" and entry.get("from") == "side_deck" and (entry.get("target") == "opponent" or entry.get("chooser") == "target"):
        yield ("a side deck is hidden: only its owner breaks from it (target: self, chooser: self)", entry, "from", field + ".from")
    if name == "move" and entry.get("from") == "battle_zone" and entry.get("card") != "this":
        yield ("from: battle_zone goes with card: this (where this card goes at battle end)", entry, "from", field + ".from")
    if name == "move" and entry.get("to") == "lumen_zone" and entry.get("card") != "this":
        yield ("to: lumen_zone is only for card: this", entry, "to", field + ".to")
    if name == "add_judgment" and entry.get("positions") is None and entry.get("speed_min") is None \
            and entry.get("speed_max") is None:
        yield ("add_judgment needs positions or a speed bound", entry, "judgment", field)
    if "if" in entry:
        yield from _cond_problems(entry["if"], field + ".if")
    if "then" in entry:
        v = entry["then"]
        if not isinstance(v, list) or not v:
            yield ("then must be a non-empty list of effect entries", entry, "then", field + ".then")
        else:
            for j, sub in enumerate(v):
                yield from _check_entry(sub, kind, "%s.then[%d]" % (field, j), top=False)
    if name == "choice" and isinstance(entry.get("options"), dict):
        for oname, subs in entry["options"].items():
            of = "%s.options.%s" % (field, oname)
            if oname in ("use", "pass") or not isinstance(oname, str):
                yield ("option name %r is reserved or not a string" % (oname,), entry["options"], oname, of)
            if not isinstance(subs, list) or not subs:
                yield ("an option is a non-empty list of effect entries", entry["options"], oname, of)
                continue
            for j, sub in enumerate(subs):
                yield from _check_entry(sub, kind, "%s[%d]" % (of, j), top=False)
    if not top:
        return
    timing = entry.get("timing")
    if timing is not None and timing not in TIMING_NAMES:
        yield ("unknown timing %r (known: %s)" % (timing, ", ".join(TIMING_NAMES)), entry, "timing", field + ".timing")
    if prim.mode == "instant" and timing is None:
        yield ("%s needs a timing (it happens once, at a moment)" % name, entry, "do", field + ".timing")
    if prim.mode == "static" and timing is not None:
        yield ("%s is a function the rules read: no timing" % name, entry, "timing", field + ".timing")
    if "duration" in entry and entry["duration"] is not None and timing is None:
        yield ("duration needs a timing (a continuous function lasts while its card is in place)", entry, "duration", field + ".duration")
    zone = entry.get("zone")
    if zone is not None and zone not in ZONES_BY_KIND[kind]:
        yield ("zone %r is not possible on a %s (possible: %s)" % (zone, kind, ", ".join(ZONES_BY_KIND[kind])),
               entry, "zone", field + ".zone")
    elif zone == "ultimate" and kind in ("attack", "defense") and not ultimate:
        yield ("zone ultimate: this card is not an ultimate, so it is never in the ultimate zone (guide 3.3.4)",
               entry, "zone", field + ".zone")
    elif isinstance(timing, str) and timing in TIMING_ZONES and kind != "trait":
        z = entry_zone(entry, kind, ultimate)
        if z not in TIMING_ZONES[timing]:
            why = ("no battle is going on at %s" % timing if timing in PHASE_TIMINGS and z == "battle" else
                   "a timed effect is found in one zone" if z == "any" else
                   "a card in the break zone triggers nothing (but its own on_break)" if z == "break_zone" else "")
            yield ("timing %r works in %s, not in %s%s%s" % (timing, ", ".join(TIMING_ZONES[timing]), z,
                                                             " (the default for a %s)" % kind if zone is None else "",
                                                             ": " + why if why else ""),
                   entry, "zone" if zone is not None else "timing", field + (".zone" if zone is not None else ".timing"))
    if name == "use_special" and zone not in (None, "side_deck", "ultimate"):
        yield ("use_special works from the side deck or the ultimate zone", entry, "zone", field + ".zone")
    if "interrupt" in entry:
        if not isinstance(entry["interrupt"], bool):
            yield ("interrupt must be true or false", entry, "interrupt", field + ".interrupt")
        elif entry["interrupt"] and timing not in EVENT_TIMINGS:
            yield ("interrupt (끼어들기, guide 5.4) is for timings something triggers: %s" % ", ".join(sorted(EVENT_TIMINGS)),
                   entry, "interrupt", field + ".interrupt")
    cond = entry.get("if")      # not a mapping: said by _cond_problems
    if isinstance(cond, dict) and "broken" in cond and timing not in EVENT_TIMINGS:
        yield ("the broken condition reads the card whose break triggered the effect: only with %s"
               % ", ".join(sorted(EVENT_TIMINGS)), cond, "broken", field + ".if.broken")
    if "optional" in entry and not isinstance(entry["optional"], bool):
        yield ("optional must be true or false", entry, "optional", field + ".optional")
    if "number" in entry and (not isinstance(entry["number"], int) or isinstance(entry["number"], bool) or entry["number"] < 1):
        yield ("number must be 1 or more (the ① ② of the card text)", entry, "number", field + ".number")


