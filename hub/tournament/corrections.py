"""Corrections and conflicts: how a result that is already in changes (issue 38).

A correction names its game: the round, the table, the players at it (``players``: the
pairing's a and b) and the result it replaces (``before``: null for a game still without a
result). A correction whose names do not match the event is refused: a form left on the
wrong round, or a result that changed since the TD looked, never lands on another game.
Every correction is an entry (who, why, before, after, when) and can itself be undone
while it is still the table's result.

A correction can hit a game that is still being played (no result yet, its round started),
or a Swiss round whose next round has started (its pairings were made from the old result
and stay). Both are allowed, but a new record must say it knows (``confirm``: the warnings
it accepts); records already in the log replay as they were written.

A conflict: a table's report that disagrees with the result already in (a correction, the
judge's entry or an earlier report). Nothing is decided silently: it stays open, with both
results, their sources and times, until the TD keeps one (``resolve``).

Record bodies (``event.py`` applies them):
  override        {round, table, a_wins, b_wins, draws, reason, by, players?, before?, confirm?}
  undo_correction {id, reason, by, confirm?}           id: the correction's ("c1", "c2", ...)
  conflict        {round, table, result_id, reported: {a_wins, b_wins, draws, source, confirmed_by}}
  resolve         {id, keep: current|reported, by, reason?, confirm?}   id: the conflict's ("k1", ...)
"""

SCORE = ("a_wins", "b_wins", "draws")
#: what a correction may have to confirm: the game is still being played; a later round started
WARNINGS = ("live", "later_round")


class CorrectionError(ValueError):
    pass


def score(res):
    return None if res is None else {k: res.get(k, 0) for k in SCORE}


def show(res):
    """A result as the page shows it: the score, where it came from, who, why, when."""
    if res is None:
        return None
    out = score(res)
    for k in ("source", "by", "reason", "at_ms", "confirmed_by", "result_id"):
        if res.get(k) is not None:
            out[k] = res[k]
    return out


def warnings(ev, round_no, table):
    """What a correction of this game must be confirmed for (see WARNINGS)."""
    r = ev.round(round_no)
    out = []
    if r["started"] and table not in r["results"]:
        out.append("live")
    nxt = ev.rounds[round_no] if round_no < len(ev.rounds) else None
    if nxt is not None and (nxt["started"] or nxt["results"]):
        out.append("later_round")
    return out


def _locked(ev, round_no):
    """An elimination result cannot change once its winner plays the next round."""
    r = ev.round(round_no)
    nxt = ev.rounds[round_no] if round_no < len(ev.rounds) else None
    if r["stage"] == "cut" and nxt is not None and (nxt["started"] or nxt["results"]):
        raise CorrectionError("round %d has started: a result of round %d can no longer change (the winner plays on)"
                              % (nxt["number"], round_no))


def _confirmed(ev, body, round_no, table, strict):
    if not strict:
        return
    need = [w for w in warnings(ev, round_no, table) if w not in (body.get("confirm") or [])]
    if need:
        raise CorrectionError("confirm needed: %s (round %d, table %d)" % (", ".join(need), round_no, table))


def check_override(ev, body, strict):
    m = ev.match(body.get("round"), body.get("table"))
    r = ev.round(body["round"])
    if not isinstance(body.get("reason"), str) or len(body["reason"].strip()) < 3:
        raise CorrectionError("an override needs a reason (at least 3 characters)")
    _locked(ev, body["round"])
    players = body.get("players")
    if players is not None and list(players) != [m["a"], m["b"]]:
        names = ev.names()
        raise CorrectionError("table %d of round %d is %s vs %s, not the players the correction names"
                              % (m["table"], r["number"], names[m["a"]], names[m["b"]]))
    if "before" in body:
        now = score(r["results"].get(m["table"]))
        if body["before"] != now:
            raise CorrectionError("table %d of round %d has changed since: its result is now %s"
                                  % (m["table"], r["number"], _text(now)))
    _confirmed(ev, body, r["number"], m["table"], strict)


def _text(s):
    return "none" if s is None else "%d-%d%s" % (s["a_wins"], s["b_wins"], "-%d" % s["draws"] if s["draws"] else "")


def apply_override(ev, body, at_ms):
    r = ev.round(body["round"])
    prev = r["results"].get(body["table"])
    new = dict(body, source="override", replaced=prev, at_ms=at_ms)
    new.pop("confirm", None)
    r["results"][body["table"]] = new
    c = _entry(ev, "override", body, prev, new, at_ms)
    new["correction"] = c["id"]         # the table's result is this correction's, until changed again
    return c


def _entry(ev, kind, body, prev, new, at_ms, conflict=None):
    c = {"id": "c%d" % (len(ev.corrections) + 1), "kind": kind, "round": body["round"], "table": body["table"],
         "before": show(prev), "after": show(new), "reason": body.get("reason"), "by": body.get("by") or "TD",
         "at_ms": at_ms, "undone": None, "prev": prev, "conflict": conflict}
    ev.corrections.append(c)
    return c


def correction(ev, cid):
    for c in ev.corrections:
        if c["id"] == cid:
            return c
    raise CorrectionError("no correction %r" % (cid,))


def check_undo(ev, body, strict):
    c = correction(ev, body.get("id"))
    if c["undone"]:
        raise CorrectionError("correction %s has already been undone" % c["id"])
    if not isinstance(body.get("reason"), str) or len(body["reason"].strip()) < 3:
        raise CorrectionError("an undo needs a reason (at least 3 characters)")
    r = ev.round(c["round"])
    if (r["results"].get(c["table"]) or {}).get("correction") != c["id"]:
        raise CorrectionError("table %d of round %d has changed since correction %s: undo the later change first"
                              % (c["table"], c["round"], c["id"]))
    _locked(ev, c["round"])
    nxt = ev.rounds[c["round"]] if c["round"] < len(ev.rounds) else None
    if strict and nxt is not None and (nxt["started"] or nxt["results"]) and \
            "later_round" not in (body.get("confirm") or []):
        raise CorrectionError("confirm needed: later_round (round %d, table %d)" % (c["round"], c["table"]))


def apply_undo(ev, body, at_ms):
    c = correction(ev, body["id"])
    r = ev.round(c["round"])
    if c["prev"] is None:
        r["results"].pop(c["table"], None)
    else:
        r["results"][c["table"]] = c["prev"]
    c["undone"] = {"by": body.get("by") or "TD", "reason": body["reason"], "at_ms": at_ms}
    if c["conflict"]:
        conflict(ev, c["conflict"])["resolved"] = None     # taken back: the conflict is open again


def check_conflict(ev, body):
    r = ev.round(body.get("round"))
    ev.match(r["number"], body.get("table"))
    if not isinstance(body.get("result_id"), str) or not isinstance(body.get("reported"), dict):
        raise CorrectionError("a conflict names the result_id and the reported result")
    from .event import check_score
    check_score(body["reported"], ev.settings["best_of"])


def apply_conflict(ev, body, at_ms):
    r = ev.round(body["round"])
    k = {"id": "k%d" % (len(ev.conflicts) + 1), "round": body["round"], "table": body["table"],
         "result_id": body["result_id"], "reported": dict(body["reported"], at_ms=at_ms),
         "current": show(r["results"].get(body["table"])), "at_ms": at_ms, "resolved": None}
    ev.conflicts.append(k)
    return k


def conflict(ev, kid):
    for k in ev.conflicts:
        if k["id"] == kid:
            return k
    raise CorrectionError("no conflict %r" % (kid,))


def check_resolve(ev, body, strict):
    k = conflict(ev, body.get("id"))
    if k["resolved"]:
        raise CorrectionError("conflict %s has already been resolved" % k["id"])
    if body.get("keep") not in ("current", "reported"):
        raise CorrectionError("keep must be current or reported, got %r" % (body.get("keep"),))
    if body["keep"] == "reported":
        from .event import check_score
        r = ev.round(k["round"])
        check_score(k["reported"], ev.settings["best_of"], elimination=r["stage"] == "cut")
        _locked(ev, k["round"])
        _confirmed(ev, body, k["round"], k["table"], strict)


def apply_resolve(ev, body, at_ms):
    k = conflict(ev, body["id"])
    k["resolved"] = {"keep": body["keep"], "by": body.get("by") or "TD", "reason": body.get("reason"), "at_ms": at_ms}
    if body["keep"] == "reported":
        r = ev.round(k["round"])
        prev = r["results"].get(k["table"])
        rep = k["reported"]
        new = {"round": k["round"], "table": k["table"], **score(rep), "source": rep.get("source", "table"),
               "confirmed_by": rep.get("confirmed_by", []), "result_id": k["result_id"], "replaced": prev,
               "reason": body.get("reason") or "conflict %s: the table's report kept" % k["id"],
               "by": body.get("by") or "TD", "at_ms": at_ms}
        r["results"][k["table"]] = new
        new["correction"] = _entry(ev, "resolve", new, prev, new, at_ms, conflict=k["id"])["id"]
