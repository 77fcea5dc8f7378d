"""Tracker mode: the table companion without card data (brief section 2).

Players resolve battles themselves and enter health / FP changes; the tracker
keeps health, FP, hand counts, character tokens, turn, priority, sudden death,
the win, undo and a game log.  It does everything the community phone
calculator does (brief section 6) and adds computed priority, hand limits and
non-responses.

Pure Python: no I/O, no clock.  Every action takes ``now_ms``, a monotonic
millisecond stamp from the caller, which is used only for the log, for merging
undo steps and for the processing unit (unit.py).  The whole object round-trips
through :meth:`TrackerGame.to_json` / :meth:`TrackerGame.from_json`, and the same
actions with the same stamps always give the same state.

Seats are ``"a"`` (1P, blue) and ``"b"`` (2P, red).

Actions
    Each action method validates all of its input first; bad input raises
    :class:`TrackerError` with a message naming the field and value and leaves
    the state untouched.  An action returns the list of log entries it appended;
    an action that would change nothing (FP reset at 0, a delta of 0, setting the
    value already there) appends nothing, returns ``[]`` and is no undo step.

The rules live beside this module: ``rules.py`` (health, hand, tokens, priority,
sudden death), ``unit.py`` (the processing unit, action commit, undo, the log),
``state.py`` (seats and input checks).
"""

import copy

from engine import coin_toss

from hub.sessions import roster
from hub.sessions.roster import TOGGLE, UnknownCharacter
from hub.sessions.tracker_game.rules import NON_RESPONSE, NON_RESPONSE_LIMIT, SUDDEN_DEATH_TURNS, Rules
from hub.sessions.tracker_game.state import SEAT_INFO, SEATS, Checks, SeatState, TrackerError, other
from hub.sessions.tracker_game.unit import Units

FORMAT = "lumen-tracker"
VERSION = 1

#: Actions that :meth:`TrackerGame.perform` dispatches.
ACTIONS = ("adjust_health", "set_health", "adjust_fp", "reset_fp", "set_hand_count", "token",
           "set_token", "set_stance", "set_trait", "apply_battle", "next_turn",
           "record_non_response", "set_character", "new_game", "reset", "undo")


class TrackerGame(Rules, Units, Checks):
    """A two-seat tracker game.  See the module docstring for the rules it keeps.

    ``TrackerGame(a, b, priority=None, seed=0, now_ms=0)``: characters by id or
    Korean name (default the generic character); ``priority`` ``"a"``/``"b"`` or
    None for a coin toss from ``seed`` (guide 3.4.1 step 1).
    """

    def __init__(self, a="generic", b="generic", priority=None, seed=0, now_ms=0):
        self.log = []
        self._seq = 0
        self._undo = []             # [{"before", "seqs", "text_ko", "text_en"}]
        self._merge = None          # [control, ms] of the last mergeable press
        self._unit_ms = None        # ms of the last result entry while a unit is open
        self._sd_started = False    # set by _start_sudden_death during one action
        self.game = 0
        self.rng = 0
        self._check_ms(now_ms)
        chars = (self._lookup("a", a), self._lookup("b", b))
        self._check_new_game(priority, seed)
        self._pending = []
        self._start_game(chars, *self._initial_priority(priority, seed))
        self._commit(now_ms)

    # ------------------------------------------------------------------ reading

    @property
    def over(self):
        return self.winner is not None

    def view(self):
        """A public, JSON-ready summary for the table display."""
        seats = {}
        for s in SEATS:
            st = self.seats[s]
            ch = st.char
            seats[s] = dict(SEAT_INFO[s], character=ch.id, name=ch.name, name_en=ch.name_en,
                            health=st.health, fp=st.fp, hand_count=st.hand_count,
                            hand_limit=self.hand_limit(s), over_limit=self.over_limit(s),
                            tokens=[{"name": t.name, "name_en": t.name_en, "value": st.tokens[t.name],
                                     "max": t.max} for t in ch.tokens],
                            stance=st.stance, active_stances=list(self.active_stances(s)),
                            trait_on=self.trait_active(s), non_responses=st.non_responses,
                            flags=self.flags(s))
        nxt, why = self.next_priority()
        return {"seats": seats, "turn": self.turn, "priority": self.priority,
                "next_priority": nxt, "next_priority_reason": why,
                "sudden_death": self.sudden_death, "sudden_death_turn": self.sd_turn,
                "winner": self.winner, "end_reason": self.end_reason, "game": self.game,
                "can_undo": self.can_undo(),
                # what "undo" would take back, so the button can name it ("되돌리기: 2P 체력 -300")
                "undo_text": ({"ko": self._undo[-1]["text_ko"], "en": self._undo[-1]["text_en"]}
                              if self._undo else None)}

    # ------------------------------------------------------------------ actions

    def adjust_health(self, seat, delta, now_ms):
        """Health +/- ``delta`` (the calculator's quick buttons, any integer)."""
        self._check_seat(seat)
        self._check_int("delta", delta)

        def do():
            if delta:
                self._change_health(seat, self.seats[seat].health + delta, "adjust_health", {"delta": delta})
        return self._act("adjust_health", seat, now_ms, do, control="adjust_health|%s|%d" % (seat, delta))

    def set_health(self, seat, health, now_ms):
        """Set health to an exact value (may be 0 or less)."""
        self._check_seat(seat)
        self._check_int("health", health)

        def do():
            if health != self.seats[seat].health:
                self._change_health(seat, health, "set_health", {"health": health})
        return self._act("set_health", seat, now_ms, do)

    def adjust_fp(self, seat, delta, now_ms):
        """FP +/- ``delta`` (guide 3.7; FP may be negative)."""
        self._check_seat(seat)
        self._check_int("delta", delta)

        def do():
            if delta:
                self._change_fp(seat, self.seats[seat].fp + delta, "adjust_fp", {"delta": delta})
        return self._act("adjust_fp", seat, now_ms, do, control="adjust_fp|%s|%d" % (seat, delta))

    def reset_fp(self, seat, now_ms):
        """Tap-to-zero: FP to 0 (after a battle uses it up, guide 3.7)."""
        self._check_seat(seat)

        def do():
            if self.seats[seat].fp:
                self._change_fp(seat, 0, "reset_fp", {})
        return self._act("reset_fp", seat, now_ms, do)

    def set_hand_count(self, seat, count, now_ms):
        """Cards in hand, or None for unknown.  Used for priority ties (guide 3.8
        step 3) and the over-limit flag; never changed by the tracker except at
        the start of sudden death."""
        self._check_seat(seat)
        if count is not None:
            self._check_int("count", count)
            if count < 0:
                raise TrackerError("count must be 0 or more, got %r" % (count,))

        def do():
            st = self.seats[seat]
            if count == st.hand_count:
                return
            st.hand_count = count
            lim = self.hand_limit(seat)
            if count is None:
                ko, en = "패 수 지움", "hand count cleared"
            else:
                ko = "패 %d장 (상한 %d)" % (count, lim)
                en = "hand %d card%s (limit %d)" % (count, "" if count == 1 else "s", lim)
                if count > lim:
                    ko += " · 초과 %d장 버리기" % (count - lim)
                    en += " · discard %d over the limit" % (count - lim)
            self._note(seat, "set_hand_count", {"count": count}, ko, en)
        return self._act("set_hand_count", seat, now_ms, do)

    def token(self, seat, name, delta, now_ms):
        """Counter ``name`` +/- ``delta``, kept within 0..max (brief section 6).

        ``name`` is the Korean or English counter name, or None for a
        character's only counter.  Leaving the bounds is refused, not clamped.
        Nothing is spent automatically (울프's trait at 5 is shown as a flag).
        """
        self._check_seat(seat)
        self._check_int("delta", delta)
        spec = self._token_spec(seat, name)
        self._check_token_value(seat, spec, self.seats[seat].tokens[spec.name] + delta, "delta", delta)

        def do():
            if delta:
                self._change_token(seat, spec, self.seats[seat].tokens[spec.name] + delta, "token",
                                   {"name": spec.name, "delta": delta})
        return self._act("token", seat, now_ms, do, control="token|%s|%s|%d" % (seat, spec.name, delta))

    def set_token(self, seat, name, value, now_ms):
        """Counter ``name`` to ``value`` (0..max)."""
        self._check_seat(seat)
        self._check_int("value", value)
        spec = self._token_spec(seat, name)
        self._check_token_value(seat, spec, value, "value", value)

        def do():
            if value != self.seats[seat].tokens[spec.name]:
                self._change_token(seat, spec, value, "set_token", {"name": spec.name, "value": value})
        return self._act("set_token", seat, now_ms, do)

    def set_stance(self, seat, stance, now_ms):
        """리타's stance: 가디언, 어쌔신, 팔라딘 or 빛의 루멘 (all three), Korean or
        English; None clears it."""
        self._check_seat(seat)
        ch = self.character(seat)
        if not ch.stances:
            raise TrackerError("character %s (%s) has no stances (stance=%r)" % (ch.name, ch.id, stance))
        st_spec = None
        if stance is not None:
            st_spec = ch.stance(stance)
            if st_spec is None:
                raise TrackerError("stance must be one of %s or None, got %r"
                                   % (", ".join(s.name for s in ch.stances), stance))

        def do():
            st = self.seats[seat]
            new = st_spec.name if st_spec else None
            if new == st.stance:
                return
            st.stance = new
            if st_spec is None:
                self._note(seat, "set_stance", {"stance": None}, "스탠스 해제", "stance cleared")
            else:
                ko = "스탠스: %s" % st_spec.name
                en = "stance: %s" % st_spec.name_en
                if len(st_spec.covers) > 1:
                    ko += " (%s)" % "·".join(st_spec.covers)
                    en += " (all three)"
                self._note(seat, "set_stance", {"stance": new}, ko, en)
        return self._act("set_stance", seat, now_ms, do)

    def set_trait(self, seat, on, now_ms):
        """Switch a toggle trait (키메라: hand limit +1 while on)."""
        self._check_seat(seat)
        ch = self.character(seat)
        if ch.trait is None or ch.trait.kind != TOGGLE:
            raise TrackerError("character %s (%s) has no trait toggle (on=%r)" % (ch.name, ch.id, on))
        if not isinstance(on, bool):
            raise TrackerError("on must be true or false, got %r" % (on,))

        def do():
            st = self.seats[seat]
            if on == st.trait_on:
                return
            st.trait_on = on
            lim = self.hand_limit(seat)
            self._note(seat, "set_trait", {"on": on},
                       "특성 %s (패 상한 %d)" % ("켜짐" if on else "꺼짐", lim),
                       "trait %s (hand limit %d)" % ("on" if on else "off", lim))
        return self._act("set_trait", seat, now_ms, do)

    def apply_battle(self, health=None, fp=None, *, now_ms):
        """Enter a whole battle at once: ``health`` and ``fp`` map seats to deltas.

        One action, one processing unit and one undo step, so a trade (동시히트)
        that takes both to 0 or less starts sudden death (guide 3.4, 5.1.2).
        FP changes are applied before health (guide 4.4: FP before damage).
        """
        health = self._check_deltas("health", health)
        fp = self._check_deltas("fp", fp)

        def do():
            for s in SEATS:
                if fp.get(s):
                    self._change_fp(s, self.seats[s].fp + fp[s], "adjust_fp", {"delta": fp[s]})
            for s in SEATS:
                if health.get(s):
                    self._change_health(s, self.seats[s].health + health[s], "adjust_health",
                                        {"delta": health[s]}, settle=False)
            if any(health.values()):
                self._settle()
        return self._act("apply_battle", None, now_ms, do)

    def next_turn(self, now_ms):
        """End the turn: recompute priority (get phase step 2, guide 3.5.4 and
        3.8), then start the next turn.  In sudden death the end of its third
        turn decides the game by health (guide 5.1.2 steps 8-9)."""

        def do():
            holder, why = self.next_priority()
            self.priority = holder
            ko_why = {"fp": "FP가 더 높음", "health": "체력이 더 높음", "hand": "패가 더 많음",
                      "kept": "모두 같아 유지"}[why]
            en_why = {"fp": "higher FP", "health": "higher health", "hand": "more cards in hand",
                      "kept": "all equal: kept"}[why]
            label = SEAT_INFO[holder]["label"]
            if self.sudden_death and self.sd_turn >= SUDDEN_DEATH_TURNS:
                self._note(None, "next_turn", {"priority": holder, "reason": why, "turn": None},
                           "턴 %d 종료 · 우선권 %s (%s)" % (self.turn, label, ko_why),
                           "turn %d ends · priority %s (%s)" % (self.turn, label, en_why))
                self._end_sudden_death_by_turns()
                return
            self.turn += 1
            if self.sudden_death:
                self.sd_turn += 1
                ko_turn = "서든 데스 %d/%d턴" % (self.sd_turn, SUDDEN_DEATH_TURNS)
                en_turn = "sudden death turn %d/%d" % (self.sd_turn, SUDDEN_DEATH_TURNS)
            else:
                ko_turn, en_turn = "", ""
            ko = "턴 %d 시작%s · 우선권 %s (%s)" % (self.turn, " (%s)" % ko_turn if ko_turn else "", label, ko_why)
            en = "turn %d begins%s · priority %s (%s)" % (self.turn, " (%s)" % en_turn if en_turn else "",
                                                           label, en_why)
            self._note(None, "next_turn", {"priority": holder, "reason": why, "turn": self.turn}, ko, en)
        return self._act("next_turn", None, now_ms, do)

    def record_non_response(self, seat, now_ms):
        """The seat did not respond (guide 3.10); the third in a game loses it.
        Sudden death continues the same game, so the count carries over."""
        self._check_seat(seat)

        def do():
            st = self.seats[seat]
            st.non_responses += 1
            n = st.non_responses
            self._note(seat, "record_non_response", {"count": n},
                       "대응하지 않음 (%d/%d)" % (n, NON_RESPONSE_LIMIT),
                       "did not respond (%d/%d)" % (n, NON_RESPONSE_LIMIT))
            if n >= NON_RESPONSE_LIMIT:
                self._finish(other(seat), NON_RESPONSE,
                             "%s 대응하지 않음 %d회" % (SEAT_INFO[seat]["label"], n),
                             "%s did not respond %d times" % (SEAT_INFO[seat]["label"], n))
        return self._act("record_non_response", seat, now_ms, do)

    def set_character(self, seat, character, now_ms):
        """Pick the seat's character; only during turn 1 of a game (before the
        first turn ends, outside sudden death) or after :meth:`reset`.  The seat's
        health, tokens, stance and trait restart from the new character; FP, hand
        count and non-responses are kept."""
        self._check_seat(seat)
        ch = self._check_character(seat, character)
        if self.turn != 1 or self.sudden_death:
            raise TrackerError("character can change only before the first turn ends (turn=%d%s); use reset"
                               % (self.turn, ", sudden death" if self.sudden_death else ""))

        def do():
            st = self.seats[seat]
            if ch.id == st.character:
                return
            fresh = SeatState.fresh(ch)
            st.character, st.health, st.tokens = ch.id, fresh.health, fresh.tokens
            st.stance, st.trait_on, st.bonus_given = None, False, False
            self._note(seat, "set_character", {"character": ch.id},
                       "캐릭터: %s (체력 %d)" % (ch.name, ch.start_health),
                       "character: %s (health %d)" % (ch.name_en, ch.start_health))
        return self._act("set_character", seat, now_ms, do)

    def new_game(self, a=None, b=None, priority=None, seed=None, *, now_ms):
        """Start a new game: characters (default: the current ones), initial
        priority ``"a"``/``"b"`` or None for a coin toss (guide 3.4.1 step 1)
        from the tracker's seeded generator (``seed`` reseeds it).  Undoable."""
        self._check_ms(now_ms)
        chars = (self._lookup("a", a if a is not None else self.seats["a"].character),
                 self._lookup("b", b if b is not None else self.seats["b"].character))
        self._check_new_game(priority, seed)

        def do():
            self._start_game(chars, *self._initial_priority(priority, seed))
        return self._act("new_game", None, now_ms, do, allow_over=True)

    def reset(self, now_ms):
        """Restart the current game: same characters, same initial priority."""
        self._check_ms(now_ms)
        args = ((self.character("a"), self.character("b")), self.initial_priority, False)
        return self._act("reset", None, now_ms, lambda: self._start_game(*args, action="reset"),
                         allow_over=True)

    def perform(self, command, now_ms):
        """Run one action from a JSON command, e.g.
        ``{"action": "adjust_health", "seat": "a", "delta": -300}``."""
        if not isinstance(command, dict) or command.get("action") not in ACTIONS:
            got = command.get("action") if isinstance(command, dict) else command
            raise TrackerError("action must be one of %s, got %r" % (", ".join(ACTIONS), got))
        kwargs = {k: v for k, v in command.items() if k != "action"}
        try:
            return getattr(self, command["action"])(now_ms=now_ms, **kwargs)
        except TypeError as e:
            raise TrackerError("bad arguments for %s: %s" % (command["action"], e)) from None

    # ------------------------------------------------------------------ JSON

    def to_json(self):
        """The whole tracker as JSON-ready data (state, log, undo stack, merge
        and unit windows), so a restarted hub resumes exactly here."""
        return copy.deepcopy({"format": FORMAT, "version": VERSION, "state": self._core(), "log": self.log,
                              "seq": self._seq, "undo": self._undo, "merge": self._merge,
                              "unit_ms": self._unit_ms})

    @classmethod
    def from_json(cls, data):
        if not isinstance(data, dict) or data.get("format") != FORMAT:
            raise TrackerError("not a tracker game (format=%r)" % (data.get("format") if isinstance(data, dict) else data,))
        if data.get("version") != VERSION:
            raise TrackerError("unsupported tracker version %r" % (data.get("version"),))
        data = copy.deepcopy(data)
        g = cls.__new__(cls)
        try:
            g._load_core(data["state"])
            g.log = data["log"]
            g._seq = data["seq"]
            g._undo = data["undo"]
            g._merge = data["merge"]
            g._unit_ms = data["unit_ms"]
            for s in SEATS:
                roster.get(g.seats[s].character)
        except (KeyError, TypeError, UnknownCharacter) as e:
            raise TrackerError("tracker JSON is incomplete or invalid: %r" % (e,)) from None
        g._pending = []
        g._sd_started = False
        g._annotate()
        return g

    def __eq__(self, other_game):
        if not isinstance(other_game, TrackerGame):
            return NotImplemented
        return self.to_json() == other_game.to_json()

    __hash__ = None  # type: ignore[assignment]  # equal by value: not hashable

    # ------------------------------------------------------------------ internals

    def _initial_priority(self, priority, seed):
        """Guide 3.4.1 step 1: the chosen holder, or a coin toss (engine.core.rng)."""
        if seed is not None:
            self.rng = seed
        if priority is not None:
            return priority, False
        self.rng, first = coin_toss(self.rng)
        return first, True

    def _start_game(self, chars, first, toss, action="new_game"):
        self.seats = {s: SeatState.fresh(c) for s, c in zip(SEATS, chars)}
        self.turn = 1
        self.priority = self.initial_priority = first
        self.sudden_death = False
        self.sd_turn = 0
        self.winner = self.end_reason = None
        self.game += 1
        ca, cb = chars
        how_ko, how_en = ("코인 토스", "coin toss") if toss else ("지정", "chosen")
        verb_ko, verb_en = ("새 게임", "new game") if action == "new_game" else ("다시 시작", "restart")
        # self.game counts the games of this tracker (one record), not the hub's game number
        # the display shows ("#10"): only a second game in the same record is numbered
        if self.game > 1:
            verb_ko, verb_en = "%s (이 기록의 %d번째 게임)" % (verb_ko, self.game), "%s (game %d of this record)" % (verb_en, self.game)
        self._note(None, action, {"a": ca.id, "b": cb.id, "priority": first, "toss": toss},
                   "%s: 1P %s 대 2P %s, 우선권 %s (%s)"
                   % (verb_ko, ca.name, cb.name, SEAT_INFO[first]["label"], how_ko),
                   "%s: 1P %s vs 2P %s, priority %s (%s)"
                   % (verb_en, ca.name_en, cb.name_en, SEAT_INFO[first]["label"], how_en))
