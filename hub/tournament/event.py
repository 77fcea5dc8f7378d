"""One tournament as a state machine rebuilt from its records.

The TD service writes every decision as a record first (``record.py``) and then
applies it here, so replaying the records after a crash gives the same event.
Pairings are stored in their record (not recomputed on replay), so a resumed
event never depends on the matching library giving the same answer twice.

Record kinds and bodies:
  event       {name, rounds, round_minutes, best_of, seed, cut, extra_turns, players: [{id, name}],
               profile}                      the game played (hub/profiles/; absent: lumen)
  player_add  {id, name}                     a late entry (0 points, paired from the next round)
  drop        {player, reason}
  reinstate   {player, reason}               a dropped player comes back (from the next round)
  pair        {round, stage, pairings: [{table, a, b}], bye}
  unpair      {round, reason}                re-pair before the round starts
  round_start {round}
  result      {round, table, result_id, a_wins, b_wins, draws, source, confirmed_by, detail}
  override    {round, table, a_wins, b_wins, draws, reason, by, players?, before?, confirm?}
  undo_correction, conflict, resolve        corrections and conflicts (``corrections.py``)
  clock       {action, clock}                the round clock (``clock.py``), kept for resume
  fix_table   {player, table}                always seat this player at this table (null: no more)
Every check happens in ``check`` before anything changes: a refused record
changes nothing, and its error names what was wrong. ``check(strict=False)`` is how a
record already in the log is checked on replay: what a new record must also confirm
(a correction of a game still in play) was confirmed when it was written, or written
before the rule existed.
"""

import copy

from hub.profiles import profile as profiles

from . import corrections as fix
from . import pairing
from . import standings as st

STAGES = ("swiss", "cut")


class EventError(ValueError):
    pass


def _int(body, key, lo, hi):
    v = body.get(key)
    if not isinstance(v, int) or isinstance(v, bool) or not lo <= v <= hi:
        raise EventError("%s must be an integer %d..%d, got %r" % (key, lo, hi, v))
    return v


def check_score(body, best_of, elimination=False):
    """A match score: games won by a and b, drawn games; a best-of-N score cannot
    exceed what N games allow. An elimination match needs a winner."""
    aw = _int(body, "a_wins", 0, best_of)
    bw = _int(body, "b_wins", 0, best_of)
    dr = _int(body, "draws", 0, best_of)
    need = best_of // 2 + 1
    if aw > need or bw > need or (aw == need and bw == need):
        raise EventError("a best-of-%d match cannot end %d-%d" % (best_of, aw, bw))
    if elimination and aw == bw:
        raise EventError("an elimination match needs a winner: a drawn match is replayed")
    return aw, bw, dr


class Event:
    def __init__(self):
        self.settings = None
        self.players = {}          # id -> {id, name, dropped, entered}
        self.order = []            # entry order
        self.rounds = []           # [{number, stage, pairings, bye, started, results{table: result}}]
        self.clock = None          # the last clock record body (the TD restores its RoundClock from it)
        self.result_ids = {}       # result_id -> (round, table): a repeated report is recognised
        self.fixed = {}            # player -> table (an accessible place)
        self.corrections = []      # every correction, undone ones too (corrections.py)
        self.conflicts = []        # every conflict, resolved ones too
        self.changes = 0           # records applied: what the cached standings were worked out at
        self._standings = (-1, [])

    # ------------------------------------------------------------ reading
    @property
    def name(self):
        return self.settings["name"] if self.settings else None

    def current(self):
        return self.rounds[-1] if self.rounds else None

    def active(self):
        return [p for p in self.order if not self.players[p]["dropped"]]

    def names(self):
        return {p: v["name"] for p, v in self.players.items()}

    def match(self, round_no, table):
        r = self.round(round_no)
        for m in r["pairings"]:
            if m["table"] == table:
                return m
        raise EventError("round %d has no table %r" % (round_no, table))

    def round(self, round_no):
        if not isinstance(round_no, int) or not 1 <= round_no <= len(self.rounds):
            raise EventError("no round %r (the event has %d)" % (round_no, len(self.rounds)))
        return self.rounds[round_no - 1]

    def complete(self, r):
        return all(m["table"] in r["results"] for m in r["pairings"])

    def finished_matches(self, stage="swiss"):
        out = []
        for r in self.rounds:
            if r["stage"] != stage:
                continue
            if r["bye"] is not None:
                out.append({"a": r["bye"], "b": None})
            for m in r["pairings"]:
                res = r["results"].get(m["table"])
                if res:
                    out.append({"a": m["a"], "b": m["b"], "a_wins": res["a_wins"], "b_wins": res["b_wins"],
                                "draws": res["draws"]})
        return out

    def standings(self):
        """The standings (fresh row dicts: a caller may change them). Worked out once per
        record applied: 20 ms at 1,000 players, 108 ms at 4,000 (the exact fractions), and the
        room's publish, the page's poll and the next pairing each read them (issue 26)."""
        at, rows = self._standings
        if at != self.changes:
            dropped = [p for p in self.order if self.players[p]["dropped"]]
            rows = st.standings(self.order, self.finished_matches("swiss"), dropped=dropped, names=self.names())
            self._standings = (self.changes, rows)
        return [dict(r) for r in rows]

    def swiss_done(self):
        sw = [r for r in self.rounds if r["stage"] == "swiss"]
        return len(sw) >= self.settings["rounds"] and all(self.complete(r) for r in sw)

    def finished(self):
        if not self.swiss_done():
            return False
        if not self.settings["cut"]:
            return True
        cut = [r for r in self.rounds if r["stage"] == "cut"]
        return bool(cut) and len(cut[-1]["pairings"]) == 1 and self.complete(cut[-1])

    def winner_of(self, m, res):
        return m["a"] if res["a_wins"] > res["b_wins"] else m["b"] if res["b_wins"] > res["a_wins"] else None

    # ------------------------------------------------------------ the next round
    def pairing_ranking(self, rows=None):
        """The active players in the order the next Swiss round ranks them: the standings
        (``rows``, when already worked out), or before round 1 (everyone on 0 points) a
        shuffle seeded by the event's seed."""
        active = set(self.active())
        if not self.rounds:
            return sorted(active, key=lambda p: (pairing._jitter(self.settings["seed"], 0, p, ""), p))
        return st.ranking(self.standings() if rows is None else rows, active)

    def next_pairing(self):
        """The body of the next ``pair`` record (computed, not yet applied)."""
        if self.settings is None:
            raise EventError("no event yet")
        cur = self.current()
        if cur is not None and not self.complete(cur):
            raise EventError("round %d still has tables without a result" % cur["number"])
        if self.finished():
            raise EventError("the event is over")
        number = len(self.rounds) + 1
        s = self.settings
        if not self.swiss_done():
            rows = self.standings()
            ranking = self.pairing_ranking(rows)
            points = {r["player"]: r["points"] for r in rows}
            played = [(m["a"], m["b"]) for m in self.finished_matches("swiss") if m["b"] is not None]
            played += [(m["a"], m["b"]) for r in self.rounds for m in r["pairings"]]
            had_bye = [r["bye"] for r in self.rounds if r["bye"] is not None]
            try:
                pairs, bye = pairing.swiss(ranking, points, played, had_bye, seed=s["seed"], round_no=number)
            except pairing.PairingError as e:
                raise EventError(str(e)) from None
            stage = "swiss"
        else:
            cut = [r for r in self.rounds if r["stage"] == "cut"]
            try:
                if not cut:
                    pairs = pairing.top_cut(st.ranking(self.standings(), set(self.active())), s["cut"])
                else:
                    last = cut[-1]
                    pairs = pairing.next_cut_round([self.winner_of(m, last["results"][m["table"]])
                                                    for m in last["pairings"]])
            except pairing.PairingError as e:
                raise EventError(str(e)) from None
            bye, stage = None, "cut"
        active = set(self.active())
        fixed = {p: t for p, t in self.fixed.items() if p in active}
        return {"round": number, "stage": stage, "pairings": pairing.assign_tables(pairs, fixed=fixed), "bye": bye}

    # ------------------------------------------------------------ records
    def check(self, kind, body, strict=True):
        """Raise EventError if this record cannot be applied now; change nothing."""
        try:
            self._check(kind, body, strict)
        except fix.CorrectionError as e:
            raise EventError(str(e)) from None

    def _check(self, kind, body, strict):
        if not isinstance(body, dict):
            raise EventError("a %s record body must be an object" % kind)
        if kind == "event":
            if self.settings is not None:
                raise EventError("the event is already set up")
            if not isinstance(body.get("name"), str) or not body["name"].strip():
                raise EventError("name must be a non-empty string")
            _int(body, "rounds", 1, 20)
            _int(body, "round_minutes", 1, 240)
            if body.get("best_of") not in (1, 3, 5):
                raise EventError("best_of must be 1, 3 or 5, got %r" % (body.get("best_of"),))
            if body.get("cut") not in (0, 2, 4, 8, 16):
                raise EventError("cut must be 0, 2, 4, 8 or 16, got %r" % (body.get("cut"),))
            _int(body, "extra_turns", 0, 10)
            if body.get("profile", "lumen") not in profiles.bundled():
                raise EventError("profile must be one of %s, got %r" % (", ".join(sorted(profiles.bundled())),
                                                                        body.get("profile")))
            ids = [p.get("id") for p in body.get("players") or []]
            if len(ids) < 2 or len(set(ids)) != len(ids) or not all(isinstance(i, str) and i for i in ids):
                raise EventError("players must be at least 2 entries with distinct non-empty ids")
            return
        if self.settings is None:
            raise EventError("set up the event first")
        cur = self.current()
        if kind == "player_add":
            if body.get("id") in self.players or not isinstance(body.get("id"), str) or not body["id"]:
                raise EventError("a new player needs an id not already in the event, got %r" % (body.get("id"),))
            if not isinstance(body.get("name"), str) or not body["name"].strip():
                raise EventError("a new player needs a name")
            if self.swiss_done():
                raise EventError("the Swiss rounds are over: no late entries")
        elif kind == "drop":
            p = self.players.get(body.get("player"))
            if p is None:
                raise EventError("no player %r" % (body.get("player"),))
            if p["dropped"]:
                raise EventError("%s has already dropped" % p["name"])
        elif kind == "reinstate":
            p = self.players.get(body.get("player"))
            if p is None:
                raise EventError("no player %r" % (body.get("player"),))
            if not p["dropped"]:
                raise EventError("%s has not dropped" % p["name"])
        elif kind == "pair":
            if body.get("round") != len(self.rounds) + 1:
                raise EventError("the next round is %d, not %r" % (len(self.rounds) + 1, body.get("round")))
            if body.get("stage") not in STAGES:
                raise EventError("stage must be swiss or cut")
            if cur is not None and not self.complete(cur):
                raise EventError("round %d still has tables without a result" % cur["number"])
            seen = set()
            for m in body.get("pairings") or []:
                for p in (m.get("a"), m.get("b")):
                    if p not in self.players or p in seen:
                        raise EventError("pairing names an unknown or repeated player %r" % (p,))
                    seen.add(p)
        elif kind == "unpair":
            if cur is None or cur["number"] != body.get("round"):
                raise EventError("only the latest round can be re-paired")
            if cur["started"] or cur["results"]:
                raise EventError("round %d has started: it can no longer be re-paired" % cur["number"])
        elif kind == "round_start":
            if cur is None or cur["number"] != body.get("round"):
                raise EventError("round %r is not the round that was paired last" % (body.get("round"),))
            if cur["started"]:
                raise EventError("round %d has already started" % cur["number"])
        elif kind in ("result", "override"):
            m = self.match(body.get("round"), body.get("table"))
            r = self.round(body["round"])
            if kind == "result" and not r["started"]:
                raise EventError("round %d has not started" % r["number"])
            check_score(body, self.settings["best_of"], elimination=r["stage"] == "cut")
            if kind == "result":
                if not isinstance(body.get("result_id"), str) or not body["result_id"]:
                    raise EventError("a result needs a result_id")
                if m["table"] in r["results"]:
                    raise EventError("table %d of round %d already has a result" % (m["table"], r["number"]))
            else:
                if strict and not r["started"]:
                    raise EventError("round %d has not started" % r["number"])
                fix.check_override(self, body, strict)
        elif kind == "undo_correction":
            fix.check_undo(self, body, strict)
        elif kind == "conflict":
            fix.check_conflict(self, body)
        elif kind == "resolve":
            fix.check_resolve(self, body, strict)
        elif kind == "fix_table":
            if body.get("player") not in self.players:
                raise EventError("no player %r" % (body.get("player"),))
            t = body.get("table")
            if t is not None and (not isinstance(t, int) or isinstance(t, bool) or not 1 <= t <= 9999):
                raise EventError("table must be a table number or null, got %r" % (t,))
            if t is not None and any(q != body["player"] and v == t for q, v in self.fixed.items()):
                raise EventError("table %d is already kept for another player" % t)
        elif kind == "clock":
            if not isinstance(body.get("clock"), dict):
                raise EventError("a clock record needs the clock")
        elif kind == "note":
            pass
        else:
            raise EventError("unknown record kind %r" % (kind,))

    def apply(self, kind, body, at_ms=None):
        """Apply a record (checked again, as one already written: ``strict=False``);
        ``at_ms``: the record's wall-clock time (what the page shows of when)."""
        self.check(kind, body, strict=False)
        body = copy.deepcopy(body)
        self.changes += 1
        if kind == "event":
            self.settings = {k: body[k] for k in ("name", "rounds", "round_minutes", "best_of", "seed", "cut",
                                                  "extra_turns")}
            self.settings["profile"] = body.get("profile", "lumen")    # the game played (an event made before: Lumen)
            for p in body["players"]:
                self._add(p["id"], p.get("name") or p["id"], 0)
        elif kind == "player_add":
            self._add(body["id"], body["name"], len(self.rounds))
        elif kind == "drop":
            self.players[body["player"]]["dropped"] = True
        elif kind == "reinstate":
            self.players[body["player"]]["dropped"] = False
        elif kind == "pair":
            self.rounds.append({"number": body["round"], "stage": body["stage"], "pairings": body["pairings"],
                                "bye": body.get("bye"), "started": False, "results": {}})
        elif kind == "unpair":
            self.rounds.pop()
        elif kind == "round_start":
            self.current()["started"] = True
        elif kind == "result":
            r = self.round(body["round"])
            r["results"][body["table"]] = dict(body, at_ms=at_ms)
            self.result_ids[body["result_id"]] = (body["round"], body["table"])
        elif kind == "override":
            fix.apply_override(self, body, at_ms)
        elif kind == "undo_correction":
            fix.apply_undo(self, body, at_ms)
        elif kind == "conflict":
            fix.apply_conflict(self, body, at_ms)
        elif kind == "resolve":
            fix.apply_resolve(self, body, at_ms)
        elif kind == "note" and body.get("what") == "result_conflict" and isinstance(body.get("body"), dict):
            self._old_conflict(body, at_ms)
        elif kind == "clock":
            self.clock = body["clock"]
        elif kind == "fix_table":
            if body["table"] is None:
                self.fixed.pop(body["player"], None)
            else:
                self.fixed[body["player"]] = body["table"]

    def _old_conflict(self, note, at_ms):
        """A conflict noted by a TD of before issue 38: open, like one recorded now."""
        b = note["body"]
        k = {"round": b.get("round"), "table": b.get("table"), "result_id": note.get("result_id"),
             "reported": {x: b.get(x) for x in ("a_wins", "b_wins", "draws", "source", "confirmed_by")}}
        try:
            fix.check_conflict(self, k)
        except (fix.CorrectionError, EventError):
            return
        fix.apply_conflict(self, k, at_ms)

    def open_conflicts(self):
        return [k for k in self.conflicts if not k["resolved"]]

    def _add(self, pid, name, entered):
        self.players[pid] = {"id": pid, "name": name, "dropped": False, "entered": entered}
        self.order.append(pid)

    # ------------------------------------------------------------ public views
    def public_round(self, r=None):
        r = r or self.current()
        if r is None:
            return None
        names = self.names()
        tables = []
        for m in r["pairings"]:
            res = r["results"].get(m["table"])
            tables.append({"table": m["table"], "a": m["a"], "b": m["b"], "a_name": names[m["a"]],
                           "b_name": names[m["b"]],
                           "result": None if res is None else {k: res[k] for k in ("a_wins", "b_wins", "draws")}
                           | {"source": res.get("source"), "corrected": bool(res.get("correction")),
                              "at_time": [g.get("text") for g in (res.get("detail") or {}).get("at_time") or []]}})
        return {"round": r["number"], "stage": r["stage"], "started": r["started"], "tables": tables,
                "bye": r["bye"], "bye_name": names.get(r["bye"]) if r["bye"] else None,
                "complete": self.complete(r)}
