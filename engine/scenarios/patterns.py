"""Ordered event expectations of a scenario (issue 23): ``expect.events`` and ``expect.no_events``.

The rest of ``expect`` compares the final state, where lists are multisets: it cannot say that
the priority holder took first in the get phase (guide 3.5.4 step 3) or that the used cards came
back in the order used (5.3.4). ``events`` can:

    expect:
      events:                       # a subsequence of the run's events, in this order
        - {e: get, p: b}            # each item: the event kind `e` and any fields it must have
        - {e: get, p: a, card: a-jab}
        - battle_end                # a bare string is a kind with no fields
      no_events:                    # none of these may happen anywhere in the run
        - {e: result_fp, p: a}

An item matches an event of its kind whose every listed field is equal (a list equal as a list,
in order). The items are matched in order, each after the event the one before it matched, so
other events may come between them. The event kinds, their fields and the fields' types are
declared in ``engine/core/event_kinds.py`` (``lumen scenario --json`` prints every event of a
run). A pattern that could never match is refused when the scenario is loaded, naming the field:
a field its kind never has (``{e: damage, pp: a}``), a value of the wrong type (``amount: "500"``),
a card id the scenario does not have. Without that, ``no_events`` would pass whatever happened.
"""

import json
from collections.abc import Collection, Mapping, Sequence
from typing import Any

from engine.core.errors import ScenarioError
from engine.core.event_fields import FIELDS
from engine.core.events import Event
from engine.core.yamlio import LineDict

KEYS = ("events", "no_events")


#: a pattern: {"e": kind, field: value, ...}
Pattern = dict[str, Any]
#: what marked strings may name in this scenario (engine/core/event_kinds.py CARD, SOURCE, TIMING)
Known = Mapping[str, Collection[str]]


def _err(file: str | None, obj: Any, key: Any, msg: str) -> ScenarioError:
    line = obj.line_of(key) if isinstance(obj, LineDict) else None
    where = "%s:%d: " % (file, line) if line else ("%s: " % file if file else "")
    return ScenarioError(where + msg)


def pattern(item: str | Mapping[str, Any]) -> Pattern:
    """The pattern of one item: {"e": kind, field: value, ...}."""
    return {"e": item} if isinstance(item, str) else dict(item)


def validate(file: str | None, expect: Mapping[str, Any], key: str, known: Known | None = None) -> None:
    """Type-check ``expect[key]`` (a list of event patterns) against the declared event kinds; a
    wrong one is an error naming it. ``known``: the values marked strings may take in this
    scenario (``{event_kinds.CARD: card ids, ...}``)."""
    items = expect[key]
    what = "expect.%s" % key
    if not isinstance(items, list) or not items:
        raise _err(file, expect, key, "%s must be a non-empty list of events ({e: kind, field: value, ...} or a "
                                      "kind), not %r" % (what, items))
    for i, item in enumerate(items):
        if isinstance(item, dict):
            kind = item.get("e")
        elif isinstance(item, str):
            kind = item
        else:
            raise _err(file, expect, key, "%s[%d] must be an event kind or {e: kind, ...}, not %r" % (what, i, item))
        if kind not in FIELDS:
            raise _err(file, item if isinstance(item, dict) else expect, "e" if isinstance(item, dict) else key,
                       "%s[%d]: unknown event kind %r (engine/core/event_kinds.py; `lumen scenario --json` lists a "
                       "run's events)" % (what, i, kind))
        if isinstance(item, dict):
            _check_fields(file, item, kind, "%s[%d]" % (what, i), known or {})


def _check_fields(file: str | None, item: Mapping[str, Any], kind: str, what: str, known: Known) -> None:
    """Every field of a pattern is one its kind has, with a value it can take."""
    fields = FIELDS[kind]
    for k, v in item.items():
        if k == "e":
            continue
        f = fields.get(k)
        if f is None:
            raise _err(file, item, k, "%s: %s event has no field %r, so this pattern could never match (its fields: "
                                      "%s)" % (what, _a(kind), k, ", ".join(n for n in fields if n != "e")))
        wrong = f.problem(v, known)
        if wrong is not None:
            raise _err(file, item, k, "%s.%s: %s can never be %s event's %s, which is %s"
                       % (what, k, json.dumps(v, ensure_ascii=False), _a(kind), k, wrong))


def _a(word: str) -> str:
    return ("an " if word[0] in "aeiou" else "a ") + word


def matches(pat: Pattern, event: Event) -> bool:
    if event.get("e") != pat["e"]:
        return False
    for k, v in pat.items():
        if k != "e" and event.get(k, _ABSENT) != v:
            return False
    return True


_ABSENT = object()


def _fmt(pat: Mapping[str, Any]) -> str:
    """The kind first, then the fields as written (a YAML dump may have sorted them)."""
    d = {"e": pat.get("e")}
    d.update((k, v) for k, v in pat.items() if k != "e")
    return json.dumps(d, ensure_ascii=False)


def compare(expect: Mapping[str, Any], events: Sequence[Event]) -> list[str]:
    """One message per expectation that does not hold."""
    out = []
    if "events" in expect:
        pats = [pattern(x) for x in expect["events"]]
        at = 0           # the next event that may match
        for i, pat in enumerate(pats):
            k = at
            while k < len(events) and not matches(pat, events[k]):
                k += 1
            if k < len(events):
                at = k + 1
                continue
            same = [e for e in events[at:] if e.get("e") == pat["e"]][:3]
            before = [e for e in events[:at] if matches(pat, e)]
            where = "after events[%d]" % (i - 1) if i else "in the run"
            msg = "events[%d] %s did not happen %s" % (i, _fmt(pat), where)
            if before:
                msg += " (it happened earlier, out of order)"
            elif same:
                msg += "; the %s events there: %s" % (pat["e"], "; ".join(_fmt(_plain(e)) for e in same))
            out.append(msg)
            break          # the rest of the order cannot be judged after a miss
    for i, item in enumerate(expect.get("no_events") or ()):
        pat = pattern(item)
        hit = next((e for e in events if matches(pat, e)), None)
        if hit is not None:
            out.append("no_events[%d] %s happened: %s" % (i, _fmt(pat), _fmt(_plain(hit))))
    return out


def _plain(e: Event) -> Event:
    return {k: v for k, v in e.items() if k not in ("rule",)}
