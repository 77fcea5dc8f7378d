"""What the table display shows: the display state, built from public views only.

:func:`display_state` adds the table's own parts (the match clock, a record that can't be
written, refused pod claims, who is ahead at TIME) to the game's part, which the session
builds (``session.display_state``: hub/sessions/display/). Nothing here reads a seat's
private channel. The state is shared with what was sent: read it, never change it.
"""

from fractions import Fraction

from hub.sessions.display.common import DISPLAY_LOG, QUIET_EVENTS, SEAT_INFO
from hub.sessions.display.referee import BATTLE_DETAIL_EVENTS
from hub.sessions.end_of_round import decide_session, describe, how_decided

__all__ = ["display_state", "seat_change", "current_turn", "game_over", "DISPLAY_LOG", "QUIET_EVENTS",
           "SEAT_INFO", "BATTLE_DETAIL_EVENTS"]


def _pod_conflicts(table):
    """Devices refused a seat they claimed with a connected pod's id (issue 11.2): the judge
    must see them. No board ids here (the page is public): the seat and the port."""
    pods = getattr(table, "pods", None)
    out = []
    for c in (pods.conflicts_view() if pods is not None else []):
        seat = SEAT_INFO.get(c.get("seat"), {}).get("label", "?")
        out.append({"seat": c.get("seat"), "port": c.get("port"),
                    "text": {"ko": "좌석 가로채기 거부: %s 포드라고 하는 다른 장치(%s) — 심판 확인 필요" % (seat, c.get("port")),
                             "en": "seat takeover refused: another device (%s) says it is the %s pod — judge, please check"
                                   % (c.get("port"), seat)}})
    return out


def display_state(table):
    """What the page shows, built from public views only (JSON-ready)."""
    s = table.session
    timer = table.timer_view()      # table.snapshot()'s parts, without its copy of the log
    out = {"table": table.name, "mode": s.mode if s is not None else None, "timer": timer, "game_id": None}
    err = getattr(table.store, "write_error", None)
    out["record_error"] = err.to_json() if err is not None else None   # "the record can't be written: ..."
    out["pod_conflicts"] = _pod_conflicts(table)
    if s is None:
        out.update(seats=None, log=[], log_total=0, ready={}, pending=[], cards={}, last_battle=None, coach=None)
        return out
    out["game_id"] = s.game_id
    out.update(s.display_state(table.names))
    decided = table.round_end.decided
    out["decided"] = None if decided is None else dict(decided, text={"ko": describe(decided, "ko"),
                                                                      "en": describe(decided, "en")})
    out["ahead"] = _ahead(table, out["seats"], out.get("totals")) if timer["state"] == "time" and decided is None \
        and s.winner is None else None
    # the coach (hub/bot/coach.py): public after a reveal only, None when the game is not coached
    coach = getattr(table, "coach", None)
    out["coach"] = coach.view() if coach is not None else None
    return out


def seat_change(table, old, new):
    """The keys of display seat ``new`` that differ from ``old`` when the table's session
    built ``new`` from ``old`` (no compare needed), else None."""
    s = table.session
    return s.seat_change(old, new) if s is not None else None


def _ahead(table, seats, totals=None):
    """At TIME: who the game's procedure would decide for if it ended now (its first tiebreak
    step that tells the sides apart: hub/sessions/end_of_round.py), "even" when none does
    before a draw or a random step. ``health``: what the first step compares, per side."""
    try:
        d = decide_session(table.session)
    except (ValueError, KeyError, AttributeError):
        return None
    if d["by"] in ("draw", "random"):
        seat = "even"
    else:
        seat = d["winner"]
    first = d if d["values"] and "a" in d["values"] else None
    vals = first["values"] if first else {"a": None, "b": None}
    shown = {k: (round(float(Fraction(v)) * 100, 1) if d["by"] == "higher_share" else v) for k, v in vals.items()}
    return {"seat": seat, "health": shown, "by": d["by"], "name": d.get("name"),
            "how": {"ko": how_decided(d, "ko"), "en": how_decided(d, "en")},
            "text": {"ko": describe(d, "ko", True), "en": describe(d, "en", True)}}


def current_turn(table):
    s = table.session
    return None if s is None else s.turn


def game_over(table):
    """The game ended: by its rules, or decided at time by its procedure."""
    s = table.session
    return s is None or s.winner is not None or table.round_end.decided is not None
