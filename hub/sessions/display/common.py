"""What the display builders share: seat colours and labels, log lines, the ready status."""

from hub.profiles import profile as profiles

#: Engine events the display log leaves out (card moves are shown as zones instead).
QUIET_EVENTS = frozenset({"move", "battle_end", "phase", "ready_start"})
DISPLAY_LOG = 40
SEAT_INFO = {s: profiles.get("lumen").seat_info(s) for s in ("a", "b")}    # hub/profiles/data/lumen.yaml


def log_line(entry):
    """An engine log event or a tracker log entry as a display log line."""
    if "text" in entry:
        line = {"e": entry.get("e"), "seat": entry.get("p"), "rule": entry.get("rule"), "text": entry["text"]}
        if entry.get("e") == "turn_start":
            line["turn"] = entry.get("turn")
        return line
    return {"e": entry.get("action"), "seat": entry.get("seat"), "rule": None, "turn": entry.get("turn"),
            "text": {"ko": entry.get("text_ko", ""), "en": entry.get("text_en", "")}}


def ready_view(ready):
    """Who is ready (never what) and the countdown: no hub clock values."""
    return {s: {"locked": bool(r.get("locked")), "ms_left": r.get("ms_left")} for s, r in (ready or {}).items()}
