"""``lumen replay``: re-run an exported match through the sessions (and so the engine)
and check that it ends the way the record says."""

from hub.record.export import EXPORT_FORMAT
from hub.record.store import Store
from hub.sessions.profile import ProfileSession
from hub.sessions.referee import RefereeSession
from hub.sessions.tracker import TrackerSession

SESSIONS = {"referee": RefereeSession, "tracker": TrackerSession, "profile": ProfileSession}


def replay_export(data, out=print, lang="ko"):
    """Re-run an exported finished match through the engine and check it ends the same.
    Returns (ok, message)."""
    if not isinstance(data, dict) or data.get("format") != EXPORT_FORMAT:
        return False, "not a match export (format %r)" % (data.get("format") if isinstance(data, dict) else None)
    if not data.get("complete"):
        return False, "the export is of an unfinished game: hidden picks are not in it"
    recs = data["records"]
    store = Store(":memory:")
    mode = data["game"]["mode"]
    gid = store.new_game(mode, recs[0]["body"])
    for r in recs[1:]:
        if r["kind"] == "input":
            store.append(gid, "input", r["body"], seat=r["seat"], mono_ms=r["mono_ms"], hidden=r["hidden"])
    cls = SESSIONS.get(mode)
    if cls is None:
        return False, "a %r game, which this hub does not know" % (mode,)
    s = cls.resume(store, gid)
    if mode == "referee":
        for e in s.log:
            if e["e"] not in ("move", "phase", "ready_start", "battle_end", "fp_spent"):
                out(e["text"][lang])
        winner = s.state.winner
    else:
        for e in s.game.log:
            out(e["text_ko"] if lang == "ko" else e["text_en"])
        winner = s.game.winner
    fin = [r for r in recs if r["kind"] == "finish"]
    want = fin[-1]["body"]["winner"] if fin else None
    if winner != want:
        return False, "replay ended with winner %s, the record says %s" % (winner, want)
    return True, "replay matches the record: winner %s" % winner
