"""What the TD takes from a table (issue 28.9): only the fields it uses, of the types it
expects, of bounded size. A table once retained a 16 MB status (the TD's page then polled
16.8 MB a second) and sent 500 fake results (500 conflict notes in the record).

``status``: the tile's fields (hub/tournament/bridge.py ``table_status`` and ``Bridge._status``),
nothing else. ``result``: the fields a result record has, its ``detail`` reduced to what the
standings and the log show. A ``result_id`` is 1-80 of ``A-Za-z0-9._:-`` (it names an MQTT
topic: the TD acknowledges each result on a topic of its own).
"""

import re

RESULT_ID = re.compile(r"^[A-Za-z0-9._:\-]{1,80}$")
#: conflicting or refused results kept per table (each a note in the record and a line on the
#: TD's page); past that they are counted, not kept
MAX_PROBLEMS_PER_TABLE = 16
SEATS = ("a", "b")


def _text(v, n):
    return v[:n] if isinstance(v, str) else None


def _int(v, lo=-10**9, hi=10**9):
    return v if isinstance(v, int) and not isinstance(v, bool) and lo <= v <= hi else None


def _per_seat(v, fn):
    v = v if isinstance(v, dict) else {}
    return {s: fn(v.get(s)) for s in SEATS}


def clean_status(obj):
    """A table's retained status, whitelisted (what the TD's tile shows)."""
    out = {"mode": _text(obj.get("mode"), 16), "game_id": _int(obj.get("game_id"), 0, 2**63 - 1),
           "turn": _int(obj.get("turn"), 0, 10**6), "winner": _text(obj.get("winner"), 8),
           "phase": _text(obj.get("phase"), 32), "sudden_death": bool(obj.get("sudden_death")),
           "ready": _per_seat(obj.get("ready"), bool), "health": _per_seat(obj.get("health"), _int),
           "fp": _per_seat(obj.get("fp"), _int), "characters": _per_seat(obj.get("characters"), lambda v: _text(v, 40)),
           "round": _int(obj.get("round"), 0, 999), "result_pending": bool(obj.get("result_pending")),
           "unsent": _int(obj.get("unsent"), 0, 10**6), "table": _int(obj.get("table"), 0, 9999)}
    games = obj.get("games")
    out["games"] = [g for g in games[:9] if g in ("a", "b", "draw")] if isinstance(games, list) else []
    players = obj.get("players")
    out["players"] = [_text(p, 80) for p in players[:2]] if isinstance(players, list) else None
    timer = obj.get("timer")
    if isinstance(timer, dict):
        out["timer"] = {"state": _text(timer.get("state"), 16), "ms_left": _int(timer.get("ms_left")),
                        "turns_left": _int(timer.get("turns_left"), 0, 99), "finishing": bool(timer.get("finishing")),
                        "extra_ms_left": _int(timer.get("extra_ms_left"), 0, 3600_000)}
    return out


def clean_detail(d):
    """A result's detail: the games, the last game's health, the mode, the table's game ids."""
    d = d if isinstance(d, dict) else {}
    games = d.get("games")
    out = {"games": [g for g in games[:9] if g in ("a", "b", "draw")] if isinstance(games, list) else []}
    if isinstance(d.get("health"), dict):
        out["health"] = _per_seat(d["health"], _int)
    if isinstance(d.get("mode"), str):
        out["mode"] = d["mode"][:16]
    ids = d.get("game_ids")
    if isinstance(ids, list):
        out["game_ids"] = [i for i in (_int(x, 0, 2**63 - 1) for x in ids[:9]) if i is not None]
    if isinstance(d.get("at_time"), list):
        out["at_time"] = [x for x in (_at_time(g) for g in d["at_time"][:9]) if x is not None]
    return out


AT_TIME_BY = ("higher", "higher_share", "fewer", "random", "draw")


def _at_time(g):
    """How a game was decided at time (hub/tournament/bridge.py ``_short_decision``): the winner,
    the step, the sentence and the rule in both languages, each cut to size."""
    if not isinstance(g, dict) or g.get("winner") not in ("a", "b", "draw") or g.get("by") not in AT_TIME_BY:
        return None
    def text(v, n):
        v = v if isinstance(v, dict) else {}
        return {k: _text(v.get(k), n) or "" for k in ("ko", "en")}
    return {"game": _int(g.get("game"), 1, 9), "winner": g["winner"], "by": g["by"], "step": _int(g.get("step"), 0, 9),
            "text": text(g.get("text"), 200), "rule": text(g.get("rule"), 100)}


def clean_confirmed(v):
    return sorted({w for w in v if w in ("a", "b", "judge")}) if isinstance(v, list) else []
