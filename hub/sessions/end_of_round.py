"""The end of a round, per game profile (issue 38): what decides a game still undecided when
the match clock's procedure is over.

The procedure (a profile's ``match``: hub/profiles/data/*.yaml, docs/games.md): at "time"
the turn in progress is played to its end, then the extra turns or the extra time,
whichever comes first (the match clock counts them: hub/sessions/timer.py). A game that
ends by its rules meanwhile is decided by them. Still undecided: the tiebreak steps in
order, each reading the game's counters, until one tells the sides apart (the last is
``random``, seeded from the game's seed, or ``draw``).

What each kind of game gives the steps (:func:`figures`): a tracker game (Lumen Condenser,
no card data) its counters as the players entered them (health with the character's
starting health, guide 3.10's non-responses); a profile game its counters, a team's seats
added up; a referee game asks the engine (:func:`decide_referee`: ruling R-time, one rule
in one place for the referee, the tracker's profile, the slip and the bots).

The table's side is :class:`RoundEnd` (one per table): after every change of the game it
counts the turns that ended after time on the match clock and, when the procedure is over,
decides the game and records how (a ``finish`` record with ``at_time``: the step, the
figures and the rule). Pure functions apart from that class; the class touches only the
table it is given.
"""

import random
from fractions import Fraction

SIDES = ("a", "b")


# ---------------------------------------------------------------- the steps (pure)

def decide(steps, figures, seed=0, ruling=None):
    """The tiebreak ``steps`` over ``figures`` (side -> {measure: value, measure + "_start":
    its start}), first step that tells the sides apart. Returns ``{"winner": "a"|"b"|"draw",
    "step": i, "by": kind, "name": the step's name, "values": side -> the value it compared,
    "figures": figures, "rule": ruling}``."""
    for i, st in enumerate(steps):
        by = st["by"]
        values = None
        if by == "draw":
            winner = "draw"
        elif by == "random":
            # seeded from the game's seed: the same game always draws the same side (recorded)
            winner = random.Random("end-of-round:%d" % seed).choice(SIDES)
            values = {"seed": seed}
        else:
            values = {s: _value(st, figures[s]) for s in SIDES}
            if values["a"] == values["b"]:
                continue
            hi = "a" if values["a"] > values["b"] else "b"
            winner = hi if by != "fewer" else ("b" if hi == "a" else "a")
        return {"winner": winner, "step": i, "by": by, "name": st.get("name"), "counters": st.get("counters"),
                "values": values, "figures": figures, "rule": ruling}
    return {"winner": "draw", "step": len(steps), "by": "draw", "name": None, "counters": None, "values": None,
            "figures": figures, "rule": ruling}


def _value(step, fig):
    names = step.get("counters") or []
    total = sum(fig.get(c, 0) for c in names)
    if step["by"] != "higher_share":
        return total
    start = sum(fig.get(c + "_start", 0) for c in names)
    # exact: 3000/5000 and 2700/4500 tie (as they should), where floats could tell them apart
    return Fraction(total, start) if start > 0 else Fraction(0)


def how_decided(d, lang="ko"):
    """What decided it: the step's name and what it compared ("시작 체력 대비 체력 60.0% : 62.2%")."""
    name = (d.get("name") or {}).get(lang) or d["by"]
    vals = d.get("values") or {}
    if d["by"] in ("higher", "fewer", "higher_share") and vals:
        show = (lambda v: "%.1f%%" % (float(Fraction(v)) * 100)) if d["by"] == "higher_share" else str
        return "%s %s : %s" % (name, show(vals["a"]), show(vals["b"]))
    if d["by"] == "random":
        return name
    return "동점" if lang == "ko" else "level on every step"


def describe(d, lang="ko", provisional=False):
    """One line for the slip and the display: who won at time and by what (``provisional``:
    who would, were the game to end now)."""
    if d is None:
        return None
    who = {"a": "1P", "b": "2P", "draw": "무승부" if lang == "ko" else "a drawn game"}[d["winner"]]
    how = how_decided(d, lang)
    rule = (d.get("rule") or {}).get(lang)
    if provisional:
        if d["by"] in ("draw", "random"):
            who = "동점" if lang == "ko" else "level"
        head = "지금 끝나면" if lang == "ko" else "if it ended now"
        return "%s: %s (%s)" % (head, who, how)
    head = "시간 종료" if lang == "ko" else "time"
    won = ("%s 승" % who if d["winner"] != "draw" else who) if lang == "ko" else \
        ("%s wins" % who if d["winner"] != "draw" else who)
    return "%s: %s (%s%s)" % (head, won, how, " · " + rule if rule else "")


# ---------------------------------------------------------------- what each game gives them

def profile_of(session):
    """The game's profile (a referee or tracker game: Lumen Condenser's)."""
    from hub.profiles import profile as profiles
    return getattr(session, "profile", None) or profiles.get("lumen")


def figures(session):
    """side -> the measures the steps read, from the session's public state."""
    mode = session.mode
    if mode == "tracker":
        out = {}
        for s in SIDES:
            st = session.game.seats[s]
            # the character's starting health, as the engine reads it (engine.decide_at_time)
            out[s] = {"health": max(0, st.health), "health_start": st.char.start_health,
                      "non_responses": st.non_responses}
        return out
    if mode == "profile":
        game = session.game
        prof = game.profile
        out = {}
        for team in game.teams[:2]:
            side = team[0]
            fig = {}
            for c in prof.counters:
                fig[c["id"]] = sum(game.value(s, c["id"]) for s in team)
                fig[c["id"] + "_start"] = sum(_start(c, game.st["order"], s) for s in team)
            out[side] = fig
        return out
    raise ValueError("a %s game's figures come from its engine (decide_referee)" % mode)


#: the engine's steps (engine.decide_at_time ``decided_by``) as the Lumen profile's tiebreak steps
ENGINE_STEPS = {"health_fraction": (0, "higher_share"), "non_responses": (1, "fewer"), "draw": (2, "draw")}


def _start(counter, order, seat):
    """A counter's start for a seat (a list is by turn-order place, as the game starts it)."""
    v = counter["start"]
    return v[order.index(seat) % len(v)] if isinstance(v, list) else v


def decide_referee(state, seed=0):
    """A referee game at time: the engine decides (``engine.decide_at_time``, ruling R-time: one
    rule in one place for the referee, the bots and the slip), told here the way the profile's
    steps are (the Lumen profile states the same steps for a tracker game)."""
    from engine import decide_at_time
    at = decide_at_time(state)
    proc = profile_of(None).procedure()
    figs = {s: {"health": f.health, "health_start": f.start, "non_responses": f.non_responses}
            for s, f in at.figures.items()}
    step, by = ENGINE_STEPS.get(at.decided_by, (len(proc["tiebreak"]), "draw"))
    values = None
    if by == "higher_share":
        values = {s: Fraction(f["health"], f["health_start"]) for s, f in figs.items()}
    elif by == "fewer":
        values = {s: f["non_responses"] for s, f in figs.items()}
    st = proc["tiebreak"][step] if step < len(proc["tiebreak"]) else {}
    return {"winner": at.winner, "step": step, "by": by, "name": st.get("name"), "counters": st.get("counters"),
            "values": values, "figures": figs, "rule": proc["ruling"], "engine": at.to_json()}


def decide_session(session, seed=0):
    """How the game on a table is decided at time (its mode's figures, its profile's steps)."""
    if session.mode == "referee":
        return decide_referee(session.engine_state, seed)
    proc = profile_of(session).procedure()
    return decide(proc["tiebreak"], figures(session), seed, proc["ruling"])


def game_seed(store, game_id):
    """The seed in the game's start record (the random step's, recorded with the decision)."""
    recs = store.records(game_id)
    start = recs[0].body if recs else {}
    for where in (start, start.get("tracker") or {}):
        if isinstance(where.get("seed"), int):
            return where["seed"]
    return 0


# ---------------------------------------------------------------- the table's side

class RoundEnd:
    """The end of round at one table: ``after_change()`` after every change of the game (the
    table calls it after each input and tick): each turn that ended after "time" is counted
    on the match clock, and when the procedure is over a game still undecided is decided
    (``decided``: how; recorded in the game as a ``finish`` with ``at_time``). A clock put
    back before time (a judge's undo) reopens it."""

    def __init__(self, table):
        self.table = table
        self.seen = (None, None)      # (game id, turn) last seen
        self.decided = None           # the current game's decision at time, or None
        self._busy = False

    def attach(self, session):
        """A game came to the table (new or resumed): its decision at time, if it has one."""
        self.seen = (session.game_id, session.turn) if session is not None else (None, None)
        self.decided = None
        if session is None:
            return
        for r in reversed(self.table.store.records(session.game_id, kinds=("finish", "reopen"))):
            if r.kind == "finish" and r.body.get("at_time"):
                self.decided = r.body["at_time"]
            break

    def after_change(self, undo=False):
        """``undo``: the judge took a clock action back (a decision at time the clock no longer
        reaches is reopened; a new round's start is not an undo and leaves the last game decided)."""
        if self._busy:            # counting a turn is itself a clock change: not again inside it
            return self.decided
        self._busy = True
        try:
            return self._after_change(undo)
        finally:
            self._busy = False

    def _after_change(self, undo):
        t = self.table
        s = t.session
        if s is None:
            return None
        gid, turn = s.game_id, s.turn
        last_gid, last_turn = self.seen
        self.seen = (gid, turn)
        timer = t.timer
        if gid == last_gid and turn is not None and last_turn is not None and turn > last_turn \
                and timer.state == "time":
            for _ in range(turn - last_turn):
                if not timer.finished:
                    t.timer_action("turn_ended", by="hub")
        if s.winner is not None:
            self.decided = None            # the rules decided it (the session recorded its finish)
        elif self.decided is not None and not timer.finished:
            if undo:
                self._reopen(s)
        elif timer.finished:
            self._decide(s)
        return self.decided

    def _decide(self, s):
        """Decide (again: a tracker's counters corrected after the decision change it)."""
        t = self.table
        d = decide_session(s, game_seed(t.store, s.game_id))
        d = dict(d, figures=_plain(d["figures"]), values=_plain(d["values"]))
        old = self.decided
        if old is not None and (old["winner"], old["step"], old["values"], old["figures"]) == \
                (d["winner"], d["step"], d["values"], d["figures"]):
            return
        d["turn"] = s.turn
        t.store.append(s.game_id, "finish", {"winner": d["winner"], "turn": s.turn, "at_time": d},
                       mono_ms=t.clock.now_ms())
        self.decided = d
        t.announce({"t": "decided", "game_id": s.game_id, "decided": d,
                    "text": {"ko": describe(d, "ko"), "en": describe(d, "en")}})

    def _reopen(self, s):
        t = self.table
        t.store.append(s.game_id, "reopen", {"turn": s.turn, "was": self.decided["winner"], "at_time": True},
                       mono_ms=t.clock.now_ms())
        self.decided = None
        t.announce({"t": "decided", "game_id": s.game_id, "decided": None})


def _plain(v):
    """Fractions as "n/d" strings, so the record and the slip keep them exact and JSON."""
    if isinstance(v, Fraction):
        return float(v) if v.denominator == 1 else "%d/%d" % (v.numerator, v.denominator)
    if isinstance(v, dict):
        return {k: _plain(x) for k, x in v.items()}
    return v
