"""One table: its current game (referee or tracker), the match clock, the admin
token, recent games and match export. The web display, the pods and the CLI all
talk to a Table; it fans every change out to subscribers as
``(audience, message)`` with audience "public", "a" or "b".
"""

import json
import secrets

from engine.decks import load_sample

from hub.sessions.referee import MonotonicClock, RefereeSession, SessionError
from hub.record.store import public_start
from hub.sessions.timer import MatchTimer, TimerError
from hub.sessions.tracker import TrackerSession

EXPORT_FORMAT = "lumen-match/1"


class Table:
    def __init__(self, store, name="table-1", clock=None, admin_token=None):
        self.store = store
        self.name = name
        self.clock = clock or MonotonicClock()
        self.admin_token = admin_token or secrets.token_urlsafe(12)
        self.timer = MatchTimer()
        self.session = None
        self.listeners = []
        self._seen_actions = set()

    # ------------------------------------------------------------ listeners
    def subscribe(self, fn):
        self.listeners.append(fn)

    def _relay(self, audience, msg):
        if msg.get("t") in ("state",) and audience == "public":
            msg = dict(msg, timer=self.timer.view(self.clock.now_ms()))
        for fn in list(self.listeners):
            fn(audience, msg)

    def _attach(self, session):
        self.session = session
        session.subscribe(self._relay)
        self._relay("public", {"t": "game", "game_id": session.game_id, "mode": session.mode})
        self._relay("public", {"t": "state", "view": session.public_view(), "events": []})
        return session

    # ------------------------------------------------------------ games
    def start_referee(self, deck_a="serin", deck_b="gangcheol", seed=None, priority=None):
        """A referee game with two decks (sample decks by character id, or Deck objects)."""
        cs, decks = load_sample()
        da = decks.get(deck_a) if isinstance(deck_a, str) else deck_a
        db = decks.get(deck_b) if isinstance(deck_b, str) else deck_b
        if da is None or db is None:
            raise SessionError("unknown deck %r (sample decks: %s)" % (deck_a if da is None else deck_b, ", ".join(sorted(decks))))
        if priority not in (None, "a", "b"):
            raise SessionError("priority must be a, b or null")
        seed = secrets.randbits(32) if seed is None else seed
        cards = dict(da.cardset.cards)
        cards.update(db.cardset.cards)
        s = RefereeSession.new(self.store, cards, da.as_game_deck(), db.as_game_deck(), seed=seed,
                               priority=priority, clock=self.clock, table=self.name,
                               meta={"decks": {"a": da.name, "b": db.name}})
        return self._attach(s)

    def start_tracker(self, a="generic", b="generic", seed=None, priority=None):
        seed = secrets.randbits(32) if seed is None else seed
        try:
            s = TrackerSession.new(self.store, a, b, seed=seed, priority=priority, clock=self.clock, table=self.name)
        except Exception as e:   # an unknown character names itself
            raise SessionError(str(e)) from None
        return self._attach(s)

    def resume(self, game_id):
        g = self.store.game(game_id)
        if g is None:
            raise SessionError("no game %r" % (game_id,))
        cls = RefereeSession if g["mode"] == "referee" else TrackerSession
        s = cls.resume(self.store, game_id, clock=self.clock)
        timer = self.store.records(game_id, kinds=("timer",))
        if timer:
            self.timer = MatchTimer.from_json(timer[-1].body["timer"], self.clock.now_ms())
        return self._attach(s)

    def resume_latest(self):
        g = self.store.latest_unfinished(self.name)
        return self.resume(g["id"]) if g else None

    def games(self, limit=10):
        return [dict(g, start=public_start(g["start"] or {})) for g in self.store.games(limit, self.name)]

    # ------------------------------------------------------------ input
    def submit(self, seat, kind, value=True, source="pod"):
        if self.session is None:
            raise SessionError("no game is running at this table")
        return self.session.submit(seat, kind, value, source=source)

    def tick(self):
        now = self.clock.now_ms()
        if self.timer.update(now):
            self._timer_changed("time")
        if self.session is not None:
            self.session.tick()

    def claim_action(self, action_id):
        """A control action is applied once: a replayed id is refused (idempotency key)."""
        if not isinstance(action_id, str) or not 8 <= len(action_id) <= 80:
            raise SessionError("action_id must be a string of 8-80 characters")
        if action_id in self._seen_actions:
            raise SessionError("action %s was already applied" % action_id)
        self._seen_actions.add(action_id)

    # ------------------------------------------------------------ the match clock
    def timer_action(self, action, **kw):
        now = self.clock.now_ms()
        t = self.timer
        try:
            if action == "round_start":
                t.round_start(now, kw.get("duration_ms"), kw.get("extra_turns"))
            elif action == "pause":
                t.pause(now)
            elif action == "resume":
                t.resume(now)
            elif action == "extend":
                t.extend(kw.get("ms"), now)
            elif action == "call_time":
                t.call_time(now, kw.get("extra_turns"))
            elif action == "turn_ended":
                t.turn_ended()
            else:
                raise TimerError("unknown timer action %r" % (action,))
        except TimerError as e:
            raise SessionError(str(e)) from None
        self._timer_changed(action)
        return t.view(now)

    def _timer_changed(self, action):
        now = self.clock.now_ms()
        if self.session is not None:
            self.store.append(self.session.game_id, "timer", {"action": action, "timer": self.timer.to_json(now)},
                              mono_ms=now)
        self._relay("public", {"t": "timer", "timer": self.timer.view(now)})

    # ------------------------------------------------------------ views and export
    def snapshot(self):
        now = self.clock.now_ms()
        out = {"table": self.name, "timer": self.timer.view(now), "mode": None, "view": None, "log": []}
        if self.session is not None:
            out["mode"] = self.session.mode
            out["view"] = self.session.public_view()
            if self.session.mode == "referee":
                out["log"] = self.session.log[-40:]
        return out

    def export(self, game_id):
        """A match as JSON. A finished game exports everything (every hidden pick has
        been revealed); an unfinished one only what a spectator may see."""
        g = self.store.game(game_id)
        if g is None:
            raise SessionError("no game %r" % (game_id,))
        finished = g["status"] == "finished"
        if finished:
            records = [r.to_json() for r in self.store.records(game_id)]
        else:
            records = self.store.public_records(game_id)
        return {"format": EXPORT_FORMAT, "complete": finished, "game": dict(g, start=public_start(g["start"] or {})),
                "records": records}


def replay_export(data, out=print, lang="ko"):
    """Re-run an exported finished match through the engine and check it ends the same.
    Returns (ok, message)."""
    from hub.record.store import Store
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
    cls = RefereeSession if mode == "referee" else TrackerSession
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


def load_export(path):
    with open(path, encoding="utf-8") as f:
        return json.load(f)
