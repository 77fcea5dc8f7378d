"""The display of a tracker game (no card data): seats, turn, priority, the log."""

from hub.sessions import roster
from hub.sessions.display.common import DISPLAY_LOG, SEAT_INFO, log_line, ready_view

#: The guide section behind a tracker log line, for its rule badge (a learner taps it:
#: hub/web/rules_index.yaml). A result names its own by how the game ended.
ACTION_RULES = {"new_game": "guide 3.4.1", "reset": "guide 3.4.1", "next_turn": "guide 3.8",
                "sudden_death": "guide 5.1.2", "record_non_response": "guide 3.10",
                "set_hand_count": "guide 3.3.1", "reset_fp": "guide 3.7"}
RESULT_RULES = {"health": "guide 3.4", "non_response": "guide 3.10", "sudden_death_turns": "guide 5.1.2",
                "sudden_death_double_ko": "guide 5.1.2"}


def tracker_line(entry):
    """A tracker log entry as a display line, with the rule it follows where there is one."""
    line = log_line(entry)
    if entry.get("action") == "result":
        line["rule"] = RESULT_RULES.get(str((entry.get("values") or {}).get("reason")))
    else:
        line["rule"] = ACTION_RULES.get(entry.get("action"))
    # what a later entry made of it (hub/sessions/tracker_game/unit.py, _annotate): the page
    # strikes it through, with what replaced it
    if entry.get("replaced"):
        line["replaced"] = entry["replaced"]
    if entry.get("undone"):
        line["undone"] = True
    return line


def tracker_display(session, view, names):
    seats = {}
    for s in ("a", "b"):
        v = view["seats"][s]
        ch = roster.get(v["character"])
        seats[s] = dict(SEAT_INFO[s], character=ch.id, name=ch.name, name_en=ch.name_en, health=v["health"],
                        start_health=ch.start_health, bands=list(ch.health_bands), hand_limits=list(ch.hand_limits),
                        hand_limit=v["hand_limit"], hand_count=v["hand_count"], over_limit=v["over_limit"],
                        fp=v["fp"], tokens=v["tokens"], stance=v["stance"], active_stances=v["active_stances"],
                        stances=[{"name": x.name, "name_en": x.name_en} for x in ch.stances],
                        trait=ch.trait.to_json() if ch.trait else None, trait_on=v["trait_on"],
                        non_responses=v["non_responses"], flags=v["flags"], player=names.get(s))
    log = session.game.log
    lines = [tracker_line(e) for e in log[-DISPLAY_LOG:]]
    return {"seats": seats, "turn": view["turn"], "phase": view["phase"], "priority": view["priority"],
            "next_priority": view["next_priority"], "next_priority_reason": view["next_priority_reason"],
            "sudden_death": view["sudden_death"], "sd_turn": view["sudden_death_turn"], "winner": view["winner"],
            "end_reason": view["end_reason"], "game_number": view["game"], "can_undo": view["can_undo"],
            "undo_text": view.get("undo_text"),
            "pending": [], "ready": ready_view(view.get("ready")), "last_battle": None, "log": lines,
            "log_total": len(log), "cards": {}}
