"""What the table display shows: the display state, built from public views only.

:func:`display_state` adds the table's own parts (the match clock, a record that can't be
written, seat claims waiting for the judge, who is ahead at TIME) to the game's part, which the session
builds (``session.display_state``: hub/sessions/display/). Nothing here reads a seat's
private channel. The state is shared with what was sent: read it, never change it.
"""

from hub.sessions.display.common import DISPLAY_LOG, QUIET_EVENTS, SEAT_INFO, ready_view
from hub.sessions.display.referee import BATTLE_DETAIL_EVENTS, last_battle, tail_lines

__all__ = ["display_state", "seat_change", "current_turn", "game_over", "DISPLAY_LOG", "QUIET_EVENTS",
           "SEAT_INFO", "BATTLE_DETAIL_EVENTS"]

# the names tests and older callers import from here
_ready = ready_view
_last_battle = last_battle
_tail_lines = tail_lines


def _seat_claims(table):
    """Seat claims waiting for the judge (issues 11.2, 39: hub/pods/claims.py): everyone must
    see them. No board ids here (the page is public): the seat, the port, the text."""
    claims = getattr(table, "claims", None)
    return claims.public_view() if claims is not None else []


def display_state(table):
    """What the page shows, built from public views only (JSON-ready)."""
    s = table.session
    timer = table.timer_view()      # table.snapshot()'s parts, without its copy of the log
    out = {"table": table.name, "mode": s.mode if s is not None else None, "timer": timer, "game_id": None}
    err = getattr(table.store, "write_error", None)
    out["record_error"] = err.to_json() if err is not None else None   # "the record can't be written: ..."
    # the banner reads pod_conflicts (its name since issue 11.2); the judge's panel seat_claims
    out["seat_claims"] = out["pod_conflicts"] = _seat_claims(table)
    if s is None:
        out.update(seats=None, log=[], log_total=0, ready={}, pending=[], cards={}, last_battle=None, coach=None)
        return out
    out["game_id"] = s.game_id
    out.update(s.display_state(table.names))
    out["ahead"] = _ahead(out["seats"], out.get("totals")) if timer["state"] == "time" else None
    # the coach (hub/bot/coach.py): public after a reveal only, None when the game is not coached
    coach = getattr(table, "coach", None)
    out["coach"] = coach.view() if coach is not None else None
    return out


def seat_change(table, old, new):
    """The keys of display seat ``new`` that differ from ``old`` when the table's session
    built ``new`` from ``old`` (no compare needed), else None."""
    s = table.session
    return s.seat_change(old, new) if s is not None else None


def _ahead(seats, totals=None):
    """At TIME: who is ahead on health (guide: the game goes on for the extra turns, then
    health decides), "even" when level. ``totals``: side -> what a profile game compares
    at time (its ``match.at_time`` counter, a team's seats added up); ``{}``: nothing."""
    if totals == {}:
        return None
    ha, hb = (totals["a"], totals["b"]) if totals else (seats["a"]["health"], seats["b"]["health"])
    return {"seat": "a" if ha > hb else "b" if hb > ha else "even", "health": {"a": ha, "b": hb}}


def current_turn(table):
    s = table.session
    return None if s is None else s.turn


def game_over(table):
    s = table.session
    return s is None or s.winner is not None
