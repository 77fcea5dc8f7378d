"""What the TD's page reads (``web.py`` serves it): the room in one read, the pairings by
name, and one game as the correction form shows it (its players, result, corrections and
conflicts)."""

from . import corrections as fix
from . import human
from . import standings as st
from .event import EventError


class ViewError(ValueError):
    pass


def correction(c):
    return {k: v for k, v in c.items() if k != "prev"}


def conflict(td, k):
    """An open or resolved conflict with the game's players and the result it has now."""
    ev = td.event
    m = ev.match(k["round"], k["table"])
    names = ev.names()
    return dict(k, a=m["a"], b=m["b"], a_name=names[m["a"]], b_name=names[m["b"]],
                now=fix.show(ev.round(k["round"])["results"].get(k["table"])))


def default_round(ev, table):
    """The round a correction of ``table`` most likely means: one with an open conflict at
    it, else the latest round in which it has a result, else the current round."""
    for k in reversed(ev.conflicts):
        if not k["resolved"] and k["table"] == table:
            return k["round"]
    for r in reversed(ev.rounds):
        if table in r["results"]:
            return r["number"]
    return len(ev.rounds) or None


def match_view(td, table, round_no=None):
    """One game as the correction form shows it: its players, its result (where from, who,
    when), whether it is still being played, what a correction must confirm, its
    corrections and conflicts. ``round_no`` None: :func:`default_round`."""
    with td.lock:
        ev = td.event
        round_no = default_round(ev, table) if round_no is None else round_no
        if round_no is None:
            raise ViewError("pair a round first")
        try:
            m = ev.match(round_no, table)
        except EventError as e:
            raise ViewError(str(e)) from None
        r = ev.round(round_no)
        names = ev.names()
        return {"round": round_no, "table": table, "stage": r["stage"], "a": m["a"], "b": m["b"],
                "a_name": names[m["a"]], "b_name": names[m["b"]], "result": fix.show(r["results"].get(table)),
                "live": r["started"] and table not in r["results"], "started": r["started"],
                "warnings": fix.warnings(ev, round_no, table), "rounds": [x["number"] for x in ev.rounds],
                "corrections": [correction(c) for c in ev.corrections if c["round"] == round_no and c["table"] == table],
                "conflicts": [conflict(td, k) for k in ev.conflicts if k["round"] == round_no and k["table"] == table]}


#: corrections the page lists (newest first; the whole list is in /api/log)
RECENT_CORRECTIONS = 30


def room_view(td):
    """Everything the page shows, in one read."""
    with td.lock:
        ev = td.event
        rnd = ev.public_round()
        now = td.now()
        tiles = []
        for m in (rnd or {}).get("tables", []):
            tab = td.tables.get(m["table"], {})
            status = tab.get("status") or {}
            tiles.append(dict(m, online=tab.get("online"), status=status if status.get("round") == rnd["round"] else {},
                              ms_left=td.clock.left(now, m["table"]) if td.clock.round == rnd["round"] else None))
        # results the event refused (a conflict has a view of its own: both results side by side)
        problems = [{"table": t, "result_id": rid, "status": a["status"], "error": a.get("error"),
                     "message": human.message(409, "refused", a.get("error"))}
                    for t, answers in sorted(td.answers.items()) for rid, a in answers.items()
                    if a["status"] == "refused"]
        return {"room": td.room_state(), "problems": problems, "round": rnd, "clock": dict(td.clock.to_json(), td_ms=now),
                "tiles": tiles, "standings": st.to_json(ev.standings()),
                "players": [dict(p) for p in ev.players.values()], "by_name": pairings_by_name(ev),
                "stats": dict(td.stats),
                "conflicts": [conflict(td, k) for k in ev.open_conflicts()],
                "corrections": [correction(c) for c in ev.corrections[-RECENT_CORRECTIONS:]][::-1],
                # the demo's autopilot: when it will pair or start the next round (the TD page says
                # until when results can still be corrected); None when a person runs the event
                "autopilot": getattr(td, "autopilot", None)}


def pairings_by_name(ev):
    r = ev.current()
    if r is None:
        return []
    names = ev.names()
    out = []
    for m in r["pairings"]:
        out.append({"player": m["a"], "name": names[m["a"]], "table": m["table"], "seat": "a",
                    "opponent": names[m["b"]]})
        out.append({"player": m["b"], "name": names[m["b"]], "table": m["table"], "seat": "b",
                    "opponent": names[m["a"]]})
    if r["bye"]:
        out.append({"player": r["bye"], "name": names[r["bye"]], "table": None, "seat": None, "opponent": None})
    return sorted(out, key=lambda x: x["name"])
