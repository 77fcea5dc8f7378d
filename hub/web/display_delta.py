"""The display's changes between two states, and applying them (the page protocol, docs/display.md).

:func:`diff` compares two display states part by part: the top-level keys, each seat's
keys, the log window (lines dropped off its front, lines appended) and the card catalogue
(entries added, ids dropped). Unchanged parts are usually the same objects
(hub/web/display.py keeps them), so most comparisons stop at ``is``; the rest are C-level
``==`` on small dicts and lists. :func:`apply` is the reference applier: the page's
(hub/web/static/live.js) does the same, and the tests check both against the full state.
"""

#: Parts with their own delta form; every other top-level key is replaced whole ("set").
OWN_FORM = frozenset({"seats", "log", "cards"})
_TOP: dict[tuple, tuple] = {}           # a state's keys -> those replaced whole
#: Keys of a message, not of the display state.
MESSAGE_KEYS = ("t", "v", "base", "cause")


class Gap(Exception):
    """A delta that does not apply to the state at hand (a message was missed)."""


def diff(old, new, derived=None):
    """What turns display state ``old`` into ``new``: ``{"set": {key: value}, "seats": {seat:
    {key: value}}, "log": {"drop": n, "add": [lines]}, "cards": {"add": {id: entry}, "drop":
    [ids]}}`` with only the non-empty parts (``{}``: nothing changed), or None when the shape
    changed (another game or mode, seats appearing, other keys): send the whole state then."""
    if old is None or old.keys() != new.keys() or old["game_id"] != new["game_id"] or old["mode"] != new["mode"]:
        return None
    out = {}
    keys = tuple(new)
    top = _TOP.get(keys)
    if top is None:
        top = _TOP[keys] = tuple(k for k in keys if k not in OWN_FORM)
    changed = _changed(old, new, top)
    if changed:
        out["set"] = changed
    so, sn = old["seats"], new["seats"]
    if so is not sn:
        if so is None or sn is None or so.keys() != sn.keys():
            return None
        seats = {}
        for s, p in sn.items():
            q = so[s]
            if p is q:
                continue
            part = derived(q, p) if derived is not None else None
            if part is None:
                if p.keys() != q.keys():
                    return None
                part = _changed(q, p, p)
            if part:
                seats[s] = part
        if seats:
            out["seats"] = seats
    lo, ln = old["log"], new["log"]
    if lo is not ln and lo != ln:
        out["log"] = _log_change(lo, ln)
    co, cn = old["cards"], new["cards"]
    if co is not cn and co != cn:
        drop = sorted(co.keys() - cn.keys())
        add = {c: cn[c] for c in sorted(cn.keys() - co.keys())}
        out["cards"] = {"add": add, "drop": drop}
    return out


def _changed(old, new, keys):
    """``{key: new value}`` for the ``keys`` whose values differ: the same object (as kept
    parts are) is not compared at all, anything else by a C-level ``!=``."""
    return {k: v for k in keys if (v := new[k]) is not (o := old[k]) and v != o}


def _log_change(lo, ln):
    """The log window moved: the fewest lines to drop off ``lo``'s front so that the rest
    starts ``ln``, and the lines after them (all of ``ln`` if nothing is shared). The
    candidates are where ``ln``'s first line stands in ``lo`` (found in C)."""
    n = len(lo)
    k = -1
    while ln:
        try:
            k = lo.index(ln[0], k + 1)
        except ValueError:
            break
        if lo[k:] == ln[:n - k]:
            return {"drop": k, "add": ln[n - k:]}
    return {"drop": n, "add": list(ln)}


def apply(state, msg):
    """The state after message ``msg`` (a ``state``, ``delta`` or ``clock`` message) given
    the state before (with its ``v``). A full state needs nothing before it; a delta or a
    versioned clock whose ``base`` is not ``state["v"]`` raises :class:`Gap`. ``state`` is
    not changed: the result shares what did not change."""
    t = msg.get("t")
    if t == "state":
        return dict(msg)
    if t not in ("delta", "clock"):
        raise ValueError("not a display message: %r" % (t,))
    if state is None or "base" not in msg or msg["base"] != state.get("v"):
        raise Gap("delta on %r, the state is at %r" % (msg.get("base"), None if state is None else state.get("v")))
    out = dict(state, v=msg["v"])
    if t == "clock":
        out.update(timer=msg["timer"], ready=msg["ready"])
        return out
    out["cause"] = msg.get("cause", [])
    out.update(msg.get("set", {}))
    if "seats" in msg:
        out["seats"] = {s: dict(p, **msg["seats"][s]) if s in msg["seats"] else p for s, p in state["seats"].items()}
    if "log" in msg:
        out["log"] = state["log"][msg["log"]["drop"]:] + msg["log"]["add"]
    if "cards" in msg:
        cards = dict(state["cards"])
        for c in msg["cards"]["drop"]:
            del cards[c]
        cards.update(msg["cards"]["add"])
        out["cards"] = cards
    return out


def content(state):
    """A kept or full state without the message's own keys: what ``display_state`` returns."""
    return {k: v for k, v in state.items() if k not in MESSAGE_KEYS}
