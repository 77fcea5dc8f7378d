"""How one action becomes a log entry and an undo step: the processing unit, undo and the log.

The processing unit (guide 3.4, 5.1.2 "같은 처리 단위")
    A battle's damage is one processing unit, but in tracker mode the players
    type it in as separate presses, one seat after the other, at whatever pace a
    tired judge keeps.  The tracker therefore treats as one unit:

    * one action: :meth:`~TrackerGame.apply_battle` changes both seats at once;
    * the *result entries* (``adjust_health``, ``set_health``, ``adjust_fp``,
      ``reset_fp``, ``token``, ``set_token``, ``apply_battle``) of one turn:
      nothing but "next turn" ends a turn, and no "next turn" is taken once a
      result is shown, so a result by health stays *open* until undo, a new game
      or a reset, however long the second entry takes (issue 22: two taps more
      than a second apart are still a trade).

    The outcome is checked after every entry that changes health, on the values
    at that moment: one seat at 0 or less while the other is at 1 or more ->
    that seat loses (guide 3.4); both at 0 or less -> sudden death (guide 5.1.2;
    in sudden death: an immediate draw, step 10).  A health result is shown at
    once and stays open: a further result entry of the same turn is still
    accepted (every other action except ``undo``, ``new_game`` and ``reset`` is
    refused while a result is set) and the outcome is checked again.  So if
    1P's entry takes 1P to 0 (2P wins) and 2P's entry, a few seconds later,
    takes 2P to 0 as well, that is a double KO (a trade) and sudden death, not a
    2P win; and a +100 correction takes the KO back.  Sudden death starts at
    once and starts a new turn.  A result that is not by health (three
    non-responses, the end of sudden death's third turn) is final; undo still
    reverts any result.

Undo
    :meth:`TrackerGame.undo` reverts the last undo step.  Presses on the same
    control (same action, seat and value: "FP -1 on 1P", "health -300 on 2P")
    each within 1 s of the previous press merge into one step, like the
    calculator.  The stack keeps the state before each step, at most
    :data:`UNDO_LIMIT` steps.  Each step is labelled with what it did as a whole
    (``undo_text``): two merged -300 presses read "2P 체력 -600 (-300 ×2, 5000 →
    4400)", a both-hit entry names both seats.  Undo appends an ``undo`` log entry
    with that label; the log is append-only: what a later entry made of an earlier one (an undo,
    a result replaced by sudden death) is marked on it, never removed (:meth:`Units._annotate`).

The log
    Every change appends ``{seq, ms, game, turn, seat, action, values, health,
    fp, text_ko, text_en}`` where ``health`` and ``fp`` are both seats' values
    after that entry.  Tracker mode holds no hidden information (the hub, not
    the tracker, keeps the ready lock), so the whole log is public.
"""

from hub.sessions.tracker_game.rules import HEALTH_ENDS
from hub.sessions.tracker_game.state import SEAT_INFO, SEATS, SeatState, TrackerError

MERGE_WINDOW_MS = 1000
UNDO_LIMIT = 200

#: Actions that form (and keep open) a processing unit; see the module docstring.
UNIT_ACTIONS = frozenset({"adjust_health", "set_health", "adjust_fp", "reset_fp",
                          "token", "set_token", "apply_battle"})


class Units:
    """Action commit, the processing unit and undo (mixed into :class:`~hub.sessions.tracker_game.TrackerGame`)."""

    def can_undo(self):
        return bool(self._undo)

    def undo(self, now_ms):
        """Revert the last undo step (presses merged within 1 s count as one)."""
        self._check_ms(now_ms)
        if not self._undo:
            raise TrackerError("nothing to undo (undo stack is empty)")
        step = self._undo.pop()
        self._load_core(step["before"])
        self._merge = None
        self._unit_ms = None
        # the step's label says what it did as a whole (merged presses, both seats of a trade)
        ko = "되돌리기: " + step["text_ko"]
        en = "undo: " + step["text_en"]
        self._pending = []
        self._note(None, "undo", {"undone": list(step["seqs"])}, ko, en)
        return self._commit(now_ms)

    def note(self, seat, action, values, ko, en, now_ms):
        """A log line for what the table did outside the tracker (the session took back a ready):
        no undo step, and it ends a run of merged presses."""
        self._check_ms(now_ms)
        self._pending = []
        self._note(seat, action, values, ko, en)
        self._merge = None
        return self._commit(now_ms)

    # ------------------------------------------------------------------ rollback

    def checkpoint(self):
        """Everything an action may change, cheaply (the log is append-only): for a caller that
        must undo an applied action whose record could not be written (issue 11.4)."""
        last = self._undo[-1] if self._undo else None
        return (self._core(), len(self.log), self._seq, list(self._undo), last, list(last["seqs"]) if last else None,
                self._merge, self._unit_ms)

    def rollback(self, cp):
        core, n_log, seq, undo, last, last_seqs, merge, unit_ms = cp
        self._load_core(core)
        del self.log[n_log:]
        self._seq = seq
        self._undo = undo
        if last is not None:
            last["seqs"] = last_seqs
        self._merge = merge
        self._unit_ms = unit_ms
        self._pending = []
        self._sd_started = False
        self._annotate()

    def _core(self):
        return {"seats": {s: self.seats[s].to_json() for s in SEATS}, "turn": self.turn,
                "priority": self.priority, "initial_priority": self.initial_priority,
                "sudden_death": self.sudden_death, "sd_turn": self.sd_turn,
                "winner": self.winner, "end_reason": self.end_reason,
                "rng": self.rng, "game": self.game}

    def _load_core(self, d):
        self.seats = {s: SeatState.from_json(d["seats"][s]) for s in SEATS}
        self.turn = d["turn"]
        self.priority = d["priority"]
        self.initial_priority = d["initial_priority"]
        self.sudden_death = d["sudden_death"]
        self.sd_turn = d["sd_turn"]
        self.winner = d["winner"]
        self.end_reason = d["end_reason"]
        self.rng = d["rng"]
        self.game = d["game"]

    def _act(self, action, seat, now_ms, do, control=None, allow_over=False):
        """Run ``do`` as one action: game-over check, rollback on error, log,
        undo step (merged with the previous press of the same control)."""
        self._check_ms(now_ms)
        unit = action in UNIT_ACTIONS
        # a result by health stays open for the result entries of its turn (the module's doc)
        if self.winner is not None and not allow_over and not (unit and self.end_reason in HEALTH_ENDS):
            raise TrackerError("the game is over (winner=%s, reason=%s): %s refused; use undo or new_game"
                               % (self.winner, self.end_reason, action))
        before = self._core()
        self._pending = []
        self._sd_started = False
        try:
            do()
        except Exception:
            self._load_core(before)
            self._pending = []
            raise
        if not self._pending:
            return []
        entries = self._commit(now_ms)
        seqs = [e["seq"] for e in entries]
        m = self._merge
        if (control is not None and m is not None and m[0] == control and self._undo
                and 0 <= now_ms - m[1] <= MERGE_WINDOW_MS):
            step = self._undo[-1]
            step["seqs"].extend(seqs)
            step["presses"] = step.get("presses", 1) + 1
            step["text_ko"], step["text_en"] = self._merged_text(step, seat, action, control)
        else:
            ko, en = self._step_text(action, entries)
            self._undo.append({"before": before, "seqs": seqs, "text_ko": ko, "text_en": en})
            del self._undo[:-UNDO_LIMIT]
        self._merge = [control, now_ms] if control is not None else None
        self._unit_ms = now_ms if unit and not self._sd_started else None
        return entries

    # ------------------------------------------------------------------ what a step did (the undo label)

    def _step_text(self, action, entries):
        """One press: its first entry says it (a KO's result line follows it); a both-hit
        entry names every seat it changed; sudden death is said."""
        if action == "apply_battle":
            parts = [e for e in entries if e["action"] in ("adjust_health", "adjust_fp")]
            ko = "동시 히트: " + " · ".join(e["text_ko"] for e in parts)
            en = "both hit: " + " · ".join(e["text_en"] for e in parts)
        else:
            ko, en = entries[0]["text_ko"], entries[0]["text_en"]
        if self._sd_started:
            ko, en = ko + " → 서든 데스", en + " → sudden death"
        return ko, en

    def _merged_text(self, step, seat, action, control):
        """Presses of one control merged into one step: the total, the press and how many,
        from the state before the first press to now (never the first press alone)."""
        n = step["presses"]
        b, st = step["before"]["seats"][seat], self.seats[seat]
        who_ko, who_en = self._prefix(seat)
        if action == "adjust_health":
            d = st.health - b["health"]
            ko = "%s 체력 %+d (%+d ×%d, %d → %d)" % (who_ko, d, d // n, n, b["health"], st.health)
            en = "%s health %+d (%+d ×%d, %d → %d)" % (who_en, d, d // n, n, b["health"], st.health)
        elif action == "adjust_fp":
            d = st.fp - b["fp"]
            ko = "%s FP %+d (%+d ×%d, %d → %d)" % (who_ko, d, d // n, n, b["fp"], st.fp)
            en = "%s FP %+d (%+d ×%d, %d → %d)" % (who_en, d, d // n, n, b["fp"], st.fp)
        else:                               # a token counter: "token|<seat>|<name>|<delta>"
            spec = st.char.token_spec(control.split("|")[2])
            old, new = b["tokens"][spec.name], st.tokens[spec.name]
            d = new - old
            ko = "%s %s %+d (%+d ×%d, %d → %d)" % (who_ko, spec.name, d, d // n, n, old, new)
            en = "%s %s %+d (%+d ×%d, %d → %d)" % (who_en, spec.name_en, d, d // n, n, old, new)
        if self.sudden_death and not step["before"]["sudden_death"]:
            ko, en = ko + " → 서든 데스", en + " → sudden death"
        return ko, en

    def _prefix(self, seat):
        """How a log line names a seat: "1P", or "1P 울프" with a character."""
        ch = self.seats[seat].char
        label = SEAT_INFO[seat]["label"]
        return (label + ("" if ch.id == "generic" else " " + ch.name),
                label + ("" if ch.id == "generic" else " " + ch.name_en))

    def _commit(self, now_ms):
        """Number the queued entries and append them to the log."""
        entries = []
        for e in self._pending:
            self._seq += 1
            e = dict(seq=self._seq, ms=now_ms, **e)
            self.log.append(e)
            entries.append(e)
        self._pending = []
        if entries:
            self._annotate()
        return entries

    def _annotate(self):
        """What later entries made of earlier ones, marked on the entries the log shows (the log
        tells the truth, issue 37): a result line that a later entry of its unit replaced (the
        other seat's KO turning it into sudden death, a correction withdrawing it) gets
        ``replaced`` (what replaced it, in both languages), and an entry an undo took back gets
        ``undone``. Worked out again from the whole log at every change, so an undo (which may
        make a replaced result stand again), a rollback or a reload always gives the same marks."""
        undone = set()
        for e in self.log:
            if e["action"] == "undo":
                undone.update(e["values"].get("undone", ()))
        replaced = {}
        standing = None                     # the result line with a winner that stands now
        for e in self.log:
            if e["seq"] in undone:
                continue
            a = e["action"]
            if a in ("new_game", "reset"):
                standing = None
            elif a == "result" or (a == "sudden_death" and e["values"].get("trade")):
                if standing is not None:
                    replaced[standing] = e
                standing = e["seq"] if a == "result" and e["values"].get("winner") else None
        for e in self.log:
            e.pop("replaced", None)
            e.pop("undone", None)
            by = replaced.get(e["seq"])
            if by is not None:
                e["replaced"] = _replaced_by(by)
            if e["seq"] in undone:
                e["undone"] = True

    def _note(self, seat, action, values, ko, en):
        """Queue a log entry with both seats' health and FP as they are now."""
        if seat is not None:
            prefix_ko, prefix_en = self._prefix(seat)
            ko, en = prefix_ko + " " + ko, prefix_en + " " + en
        self._pending.append({"game": self.game, "turn": self.turn, "seat": seat, "action": action,
                              "values": values,
                              "health": {s: self.seats[s].health for s in SEATS},
                              "fp": {s: self.seats[s].fp for s in SEATS},
                              "text_ko": ko, "text_en": en})


def _replaced_by(entry):
    """What a replaced result line says replaced it, short (the line that did it follows)."""
    if entry["action"] == "sudden_death":
        return {"ko": "같은 턴 동시 KO: 서든 데스", "en": "a double KO in the same turn: sudden death"}
    if not entry["values"].get("winner"):
        return {"ko": "결과 취소", "en": "withdrawn"}
    return {"ko": entry["text_ko"], "en": entry["text_en"]}
