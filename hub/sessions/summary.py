"""What the recent games list says of a game: the characters as played, the players' names,
each seat's health and the turn (issue 22 point 8: not "Generic vs Generic" for a game
played as 울프 vs 타오).

A referee game's characters are in its start record and never change; its health is the
newest public event that states a seat's health. A tracker game's characters may change
in turn 1 (and its health is not in the record at all): it is replayed, which is cheap
(no engine; the table caches the answer per record count). Public information only: the
start record's public part and public events.
"""

from hub.record.store import public_start

SEATS = ("a", "b")


def game_summary(store, g):
    """``{"seats": {seat: {"name", "name_en", "health", "player"}}, "turn"}`` for the
    summary ``g`` (hub.record.store.Store.games), or None when its record can't tell."""
    start = g.get("start") or {}
    fn = _BY_MODE.get(g.get("mode"))
    try:
        out = fn(store, g["id"], start) if fn is not None else None
    except Exception:           # a damaged or foreign record: listed without the details
        return None
    if out is not None:
        names = public_start(start).get("names") or {}
        for s in SEATS:
            out["seats"][s]["player"] = names.get(s)
    return out


def session_summary(session, names):
    """The same for the game being played (its live standing)."""
    seats = {}
    for s in SEATS:
        st = session.seat_status(s)
        seats[s] = {"name": st.character, "name_en": None, "health": st.health, "player": names.get(s)}
    return {"seats": seats, "turn": session.turn}


def _referee(store, gid, start):
    decks = start.get("decks") or {}
    seats = {}
    for s in SEATS:
        ch = (decks.get(s) or {}).get("character") or {}
        bands = ch.get("health") or [None]
        seats[s] = {"name": ch.get("name"), "name_en": ch.get("name_en"), "health": bands[0]}
    turn = None
    missing = set(SEATS)
    for r in reversed(store.records(gid, kinds=("result",))):
        for e in reversed(r.body.get("events") or []):
            if turn is None and e.get("e") == "turn_start":
                turn = e.get("turn")
            p = e.get("p")
            if p in missing and isinstance(e.get("health"), int):
                seats[p]["health"] = e["health"]
                missing.discard(p)
        if not missing and turn is not None:
            break
    return {"seats": seats, "turn": turn or 1}


def _tracker(store, gid, start):
    from hub.sessions.tracker import TrackerSession
    s = TrackerSession.resume(store, gid)
    seats = {}
    for seat in SEATS:
        ch, st = s.game.character(seat), s.game.seat(seat)
        seats[seat] = {"name": ch.name, "name_en": ch.name_en, "health": st.health}
    return {"seats": seats, "turn": s.game.turn}


_BY_MODE = {"referee": _referee, "tracker": _tracker}
