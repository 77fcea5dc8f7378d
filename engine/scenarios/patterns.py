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
other events may come between them. The event kinds and their fields are those of
``engine/core/events.py`` (``lumen scenario --json`` prints every event of a run).
"""

import json

from engine.core.errors import ScenarioError
from engine.core.events import TEMPLATES
from engine.core.yamlio import LineDict

KEYS = ("events", "no_events")


def _err(file, obj, key, msg):
    line = obj.line_of(key) if isinstance(obj, LineDict) else None
    where = "%s:%d: " % (file, line) if line else ("%s: " % file if file else "")
    return ScenarioError(where + msg)


def pattern(item):
    """The pattern of one item: {"e": kind, field: value, ...}."""
    return {"e": item} if isinstance(item, str) else dict(item)


def validate(file, expect, key):
    """Type-check ``expect[key]`` (a list of event patterns); a wrong one is an error naming it."""
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
        if kind not in TEMPLATES:
            raise _err(file, item if isinstance(item, dict) else expect, "e" if isinstance(item, dict) else key,
                       "%s[%d]: unknown event kind %r (engine/core/events.py; `lumen scenario --json` lists a run's "
                       "events)" % (what, i, kind))


def matches(pat, event):
    if event.get("e") != pat["e"]:
        return False
    for k, v in pat.items():
        if k != "e" and event.get(k, _ABSENT) != v:
            return False
    return True


_ABSENT = object()


def _fmt(pat):
    """The kind first, then the fields as written (a YAML dump may have sorted them)."""
    d = {"e": pat.get("e")}
    d.update((k, v) for k, v in pat.items() if k != "e")
    return json.dumps(d, ensure_ascii=False)


def compare(expect, events):
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


def _plain(e):
    return {k: v for k, v in e.items() if k not in ("rule",)}
