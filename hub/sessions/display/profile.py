"""The display of a profile game (hub/web/static/profile.js renders it): the profile's
counters and words, each seat's counters, who has locked (never what), the revealed
picks, the discard piles and hand (public: the piles are face up), the clash, the turn
and its limit, the match. Built from the public view only."""

from hub.profiles.cards import KINDS
from hub.sessions.display.common import DISPLAY_LOG, log_line, ready_view


def _frame(profile, players, teams):
    """What does not change during a game: the profile's names, counters, parts."""
    picks = profile.picks
    body = profile.body
    return {"id": profile.id, "name": profile.name, "hash": profile.hash, "turn_name": profile.turn["name"],
            "turn_player": profile.turn["player"], "players": players, "teams": teams,
            "counters": [{"id": c["id"], "name": c["name"], "min": c["min"], "max": c["max"], "low_at": c["low_at"],
                          "primary": c["primary"]} for c in profile.counters],
            "parts": [{"id": p["id"], "name": p["name"]} for p in picks["parts"]] if picks else [],
            "alt": picks["alternative"]["name"] if picks and picks["alternative"] else None,
            "ante": picks["ante"]["name"] if picks and picks["ante"] else None,
            "clash": picks["clash"]["name"] if picks and picks["clash"] else None,
            "clash_part": picks["clash"]["repick"] if picks and picks["clash"] else None,
            "priority": picks["priority"]["name"] if picks and picks["priority"] else None,
            "piles": picks["cycle"]["piles"] if picks and picks["cycle"] else 0,
            "stats": ({"ko": KINDS[body["cards"]]["ko"], "en": KINDS[body["cards"]]["en"]} if body["cards"] else None),
            "words": {w: profile.word(w) for w in ("leader", "trailer", "pile", "hand", "recycle", "done", "pass")},
            "best_of": profile.match["best_of"], "source": body["source"]}


def _catalogue(game):
    """Every card or option of the seats (constant for the game: nothing in it depends on a pick)."""
    out: dict[str, dict] = {}
    for s in game.seats:
        for cid, o in game.by_id[s].items():
            out.setdefault(cid, {k: o.get(k) for k in ("name", "name_en", "part", "range", "power", "priority",
                                                       "stun_guard", "text")})
    return out


def profile_display(session, view, names):
    game = session.game
    cache = getattr(session, "_display_frame", None)
    if cache is None:
        cache = session._display_frame = (_frame(session.profile, len(game.seats), game.teams), _catalogue(game))
    frame, cards = cache
    seats = {}
    pending = []
    for s in game.seats:
        v = view["seats"][s]
        d = game.decision(s)
        asked = None
        if d is not None:
            asked = {"kind": d["kind"], "part": d.get("part"), "locked": bool(d["locked"])}
            if not d["locked"]:
                pending.append({"player": s, "kind": d["kind"], "part": d.get("part"), "hidden": d["hidden"],
                                "options": [] if d["hidden"] else list(d["options"]), "pass": d["pass"]})
        seats[s] = dict(v, player=names.get(s), name=v["character"] if game.characters.get(s) else None, asked=asked,
                        unavailable=_greyed(game, s) if session.profile.picks else {})
    rule = session.profile.match["at_time"]
    totals = {}
    if rule is not None and len(game.teams) == 2:
        totals = {t[0]: sum(view["seats"][s]["counters"][rule["higher"]] for s in t) for t in game.teams}
        totals = {"a": totals.get("a", 0), "b": totals.get("b", 0)}
    return {"view": "profile", "profile": frame, "seats": seats, "turn": view["turn"], "turn_limit": view["turn_limit"],
            "phase": view["phase"], "priority": game.priority, "leader": view["leader"],
            "turn_player": view["turn_player"], "order": view["order"], "winner": view["winner"],
            "end_reason": view["end_reason"], "game_number": view["game"], "wins": view["wins"], "draws": view["draws"],
            "match_winner": view["match_winner"], "best_of": view["best_of"], "clashes": view["clashes"],
            "ante": view["ante"], "confirmed": view["confirmed"], "can_undo": view["can_undo"],
            "undo_text": view["undo_text"], "sudden_death": False, "totals": totals,
            "pending": pending, "ready": ready_view(view.get("ready")), "last_battle": None,
            "log": [log_line(e) for e in game.log[-DISPLAY_LOG:]], "log_total": len(game.log), "cards": cards}


def _greyed(game, seat):
    """Per part, the seat's cards it may not pick this turn (in a pile, used): greyed."""
    out = {}
    alt = game.st["alt"].get(seat) or {}
    for part in game.options[seat]:
        hand = set(game.st["hands"][seat].get(part, []))
        if part == game._alt_part() and alt.get("used"):
            hand.discard(alt.get("id"))
        out[part] = [o["id"] for o in game.options[seat][part] if o["id"] not in hand]
    return out
