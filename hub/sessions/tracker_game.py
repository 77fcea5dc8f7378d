"""Tracker mode: the table companion without card data (brief section 2).

Players resolve battles themselves and enter health / FP changes; the tracker
keeps health, FP, hand counts, character tokens, turn, priority, sudden death,
the win, undo and a game log.  It does everything the community phone
calculator does (brief section 6) and adds computed priority, hand limits and
non-responses.

Pure Python: no I/O, no clock.  Every action takes ``now_ms``, a monotonic
millisecond stamp from the caller, which is used only for the log, for merging
undo steps and for the processing unit (below).  The whole object round-trips
through :meth:`TrackerGame.to_json` / :meth:`TrackerGame.from_json`, and the same
actions with the same stamps always give the same state.

Seats are ``"a"`` (1P, blue) and ``"b"`` (2P, red).

Actions
    Each action method validates all of its input first; bad input raises
    :class:`TrackerError` with a message naming the field and value and leaves
    the state untouched.  An action returns the list of log entries it appended;
    an action that would change nothing (FP reset at 0, a delta of 0, setting the
    value already there) appends nothing, returns ``[]`` and is no undo step.

Priority (guide 3.8, brief ruling 8)
    Recomputed in :meth:`TrackerGame.next_turn`, which stands for the get phase
    boundary of a real game: the players press "next turn" after the battle and
    its entries, i.e. at get phase step 2 of the turn that is ending (guide
    3.5.4), before anyone takes a list card.  Order: higher FP, then higher
    health, then more cards in hand (only if both hand counts are entered), else
    the holder is kept.

The processing unit (guide 3.4, 5.1.2 "같은 처리 단위")
    A battle's damage is one processing unit, but in tracker mode the players
    type it in as separate presses.  The tracker therefore treats as one unit:

    * one action: :meth:`~TrackerGame.apply_battle` changes both seats at once;
    * a run of *result entries* (``adjust_health``, ``set_health``,
      ``adjust_fp``, ``reset_fp``, ``token``, ``set_token``, ``apply_battle``),
      each within :data:`MERGE_WINDOW_MS` (1000 ms, inclusive) of the previous
      one, with no other action in between: the same window as the undo merge.

    The outcome is checked after every entry that changes health, on the values
    at that moment: one seat at 0 or less while the other is at 1 or more ->
    that seat loses (guide 3.4); both at 0 or less -> sudden death (guide 5.1.2;
    in sudden death: an immediate draw, step 10).  A health result is shown at
    once but stays *open* while its unit is open: a further result entry inside
    the window is still accepted (every other action except ``undo``,
    ``new_game`` and ``reset`` is refused while a result is set) and the outcome
    is checked again.  So if 1P's entry takes 1P to 0 (2P wins) and 0.4 s later
    2P's entry takes 2P to 0 as well, that is sudden death, not a 2P win; and a
    +100 correction inside the window takes the KO back.  Sudden death starts
    at once and closes the unit.  After the window the result is final (undo
    still reverts it).  A stamp earlier than the previous one (the hub's
    monotonic clock restarted) is never inside a window.

Undo
    :meth:`TrackerGame.undo` reverts the last undo step.  Presses on the same
    control (same action, seat and value: "FP -1 on 1P", "health -300 on 2P")
    each within 1 s of the previous press merge into one step, like the
    calculator.  The stack keeps the state before each step, at most
    :data:`UNDO_LIMIT` steps.  Undo appends an ``undo`` log entry; the log is
    append-only.

The log
    Every change appends ``{seq, ms, game, turn, seat, action, values, health,
    fp, text_ko, text_en}`` where ``health`` and ``fp`` are both seats' values
    after that entry.  Tracker mode holds no hidden information (the hub, not
    the tracker, keeps the ready lock), so the whole log is public.
"""

import copy
from dataclasses import dataclass, field

from engine.rng import coin_toss

from hub.sessions import roster
from hub.sessions.roster import (FIRST_DROP_BONUS, HEALTH_AT_MOST, STANCE_ALL, TOGGLE, TOKEN_FULL,
                     TOKENS_ALL_AT, Character, UnknownCharacter)

SEATS = ("a", "b")
SEAT_INFO = {"a": {"label": "1P", "color": "blue"}, "b": {"label": "2P", "color": "red"}}
#: The calculator's health quick buttons (brief section 6); any integer is allowed.
HEALTH_BUTTONS = (-300, -400, -500, -600, 100, 200, -100, -200)
MERGE_WINDOW_MS = 1000
UNDO_LIMIT = 200
NON_RESPONSE_LIMIT = 3          # guide 3.10 step 4
SUDDEN_DEATH_HEALTH = 1000      # guide 5.1.2 step 2
SUDDEN_DEATH_TURNS = 3          # guide 5.1.2 step 7
FORMAT = "lumen-tracker"
VERSION = 1

#: Actions that form (and keep open) a processing unit; see the module docstring.
UNIT_ACTIONS = frozenset({"adjust_health", "set_health", "adjust_fp", "reset_fp",
                          "token", "set_token", "apply_battle"})
#: Actions that :meth:`TrackerGame.perform` dispatches.
ACTIONS = ("adjust_health", "set_health", "adjust_fp", "reset_fp", "set_hand_count", "token",
           "set_token", "set_stance", "set_trait", "apply_battle", "next_turn",
           "record_non_response", "set_character", "new_game", "reset", "undo")

# end reasons
HEALTH = "health"                       # guide 3.4
NON_RESPONSE = "non_response"           # guide 3.10 step 4
SD_TURNS = "sudden_death_turns"         # guide 5.1.2 steps 8-9
SD_DOUBLE_KO = "sudden_death_double_ko"  # guide 5.1.2 step 10
#: Results decided by health, which stay open while their processing unit is open.
HEALTH_ENDS = (HEALTH, SD_DOUBLE_KO)


class TrackerError(ValueError):
    """An action was refused; the message names the field and the value."""


def other(seat):
    return "b" if seat == "a" else "a"


def _is_int(v):
    return isinstance(v, int) and not isinstance(v, bool)


def _signed(n):
    return "%+d" % n


def _ro(n):
    """The Korean particle 으로/로 after the number ``n`` read aloud (칠백으로, 이로)."""
    return "으로" if abs(n) % 10 in (0, 3, 6) else "로"


@dataclass
class SeatState:
    """One player's table state.  Read it freely; change it only through actions."""

    character: str
    health: int
    fp: int = 0
    hand_count: int | None = None
    tokens: dict = field(default_factory=dict)
    stance: str | None = None
    trait_on: bool = False          # toggle traits (키메라)
    bonus_given: bool = False       # first-drop bonus already given (요한)
    non_responses: int = 0

    @classmethod
    def fresh(cls, char):
        return cls(character=char.id, health=char.start_health,
                   tokens={t.name: t.start for t in char.tokens})

    @property
    def char(self):
        return roster.get(self.character)

    def to_json(self):
        return {"character": self.character, "health": self.health, "fp": self.fp,
                "hand_count": self.hand_count, "tokens": dict(self.tokens), "stance": self.stance,
                "trait_on": self.trait_on, "bonus_given": self.bonus_given,
                "non_responses": self.non_responses}

    @classmethod
    def from_json(cls, d):
        return cls(character=d["character"], health=d["health"], fp=d["fp"],
                   hand_count=d["hand_count"], tokens=dict(d["tokens"]), stance=d["stance"],
                   trait_on=d["trait_on"], bonus_given=d["bonus_given"],
                   non_responses=d["non_responses"])


class TrackerGame:
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

    def seat(self, seat):
        """The :class:`SeatState` of ``seat`` (read-only by convention)."""
        return self.seats[self._check_seat(seat)]

    def character(self, seat):
        return roster.get(self.seat(seat).character)

    def hand_limit(self, seat):
        """Hand limit from the character's band for the current health (guide
        3.3.1; roster module docstring).  In sudden death both start in the 1000
        band (guide 5.1.2 step 3) and follow their health from there."""
        st = self.seat(seat)
        return st.char.hand_limit(st.health, st.trait_on)

    def over_limit(self, seat):
        """True/False when the hand count is entered, None when unknown.  Over the
        limit, the excess is discarded right after the effect (guide 3.3.1)."""
        st = self.seat(seat)
        if st.hand_count is None:
            return None
        return st.hand_count > self.hand_limit(seat)

    def next_priority(self):
        """``(holder, reason)`` if priority were recomputed now (guide 3.8).

        reason is ``"fp"``, ``"health"``, ``"hand"`` or ``"kept"``.  Hand counts
        count only when both are entered.
        """
        a, b = self.seats["a"], self.seats["b"]
        if a.fp != b.fp:
            return ("a" if a.fp > b.fp else "b"), "fp"
        if a.health != b.health:
            return ("a" if a.health > b.health else "b"), "health"
        if a.hand_count is not None and b.hand_count is not None and a.hand_count != b.hand_count:
            return ("a" if a.hand_count > b.hand_count else "b"), "hand"
        return self.priority, "kept"

    def trait_active(self, seat):
        """Whether the character's trait shows as on (brief section 6):
        울프 하울링 at 5, 타오 조화 (양 and 음 both 4), 리타 빛의 루멘 stance,
        요한 bonus given, 무영 health <= 2500, 키메라 toggled on."""
        st = self.seat(seat)
        trait = st.char.trait
        if trait is None:
            return False
        if trait.kind == TOKEN_FULL:
            return st.tokens.get(trait.token) == trait.value
        if trait.kind == TOKENS_ALL_AT:
            return all(v == trait.value for v in st.tokens.values())
        if trait.kind == STANCE_ALL:
            return st.stance == trait.name
        if trait.kind == FIRST_DROP_BONUS:
            return st.bonus_given
        if trait.kind == HEALTH_AT_MOST:
            return st.health <= trait.value
        if trait.kind == TOGGLE:
            return st.trait_on
        return False

    def active_stances(self, seat):
        """The basic stances in effect (리타: 빛의 루멘 = all three)."""
        st = self.seat(seat)
        if st.stance is None:
            return ()
        return st.char.stance(st.stance).covers

    def flags(self, seat):
        """Short flag ids for the display: ``trait_on``, ``over_limit``."""
        out = []
        if self.trait_active(seat):
            out.append("trait_on")
        if self.over_limit(seat):
            out.append("over_limit")
        return out

    @property
    def over(self):
        return self.winner is not None

    def can_undo(self):
        return bool(self._undo)

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

    def undo(self, now_ms):
        """Revert the last undo step (presses merged within 1 s count as one)."""
        self._check_ms(now_ms)
        if not self._undo:
            raise TrackerError("nothing to undo (undo stack is empty)")
        step = self._undo.pop()
        self._load_core(step["before"])
        self._merge = None
        self._unit_ms = None
        more = len(step["seqs"]) - 1
        ko = "되돌리기: " + step["text_ko"] + (" 외 %d건" % more if more else "")
        en = "undo: " + step["text_en"] + (" and %d more" % more if more else "")
        self._pending = []
        self._note(None, "undo", {"undone": list(step["seqs"])}, ko, en)
        return self._commit(now_ms)

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
        return g

    def __eq__(self, other_game):
        if not isinstance(other_game, TrackerGame):
            return NotImplemented
        return self.to_json() == other_game.to_json()

    __hash__ = None

    # ------------------------------------------------------------------ internals

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
        unit_open = unit and self._unit_ms is not None and 0 <= now_ms - self._unit_ms <= MERGE_WINDOW_MS
        if self.winner is not None and not allow_over and not (unit_open and self.end_reason in HEALTH_ENDS):
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
            self._undo[-1]["seqs"].extend(seqs)
        else:
            self._undo.append({"before": before, "seqs": seqs,
                               "text_ko": entries[0]["text_ko"], "text_en": entries[0]["text_en"]})
            del self._undo[:-UNDO_LIMIT]
        self._merge = [control, now_ms] if control is not None else None
        self._unit_ms = now_ms if unit and not self._sd_started else None
        return entries

    def _commit(self, now_ms):
        """Number the queued entries and append them to the log."""
        entries = []
        for e in self._pending:
            self._seq += 1
            e = dict(seq=self._seq, ms=now_ms, **e)
            self.log.append(e)
            entries.append(e)
        self._pending = []
        return entries

    def _note(self, seat, action, values, ko, en):
        """Queue a log entry with both seats' health and FP as they are now."""
        if seat is not None:
            st = self.seats[seat]
            ch = st.char
            prefix_ko = SEAT_INFO[seat]["label"] + ("" if ch.id == "generic" else " " + ch.name)
            prefix_en = SEAT_INFO[seat]["label"] + ("" if ch.id == "generic" else " " + ch.name_en)
            ko, en = prefix_ko + " " + ko, prefix_en + " " + en
        self._pending.append({"game": self.game, "turn": self.turn, "seat": seat, "action": action,
                              "values": values,
                              "health": {s: self.seats[s].health for s in SEATS},
                              "fp": {s: self.seats[s].fp for s in SEATS},
                              "text_ko": ko, "text_en": en})

    def _change_health(self, seat, new, action, values, settle=True):
        st = self.seats[seat]
        old = st.health
        st.health = new
        if action == "adjust_health":
            ko = "체력 %s (%d → %d)" % (_signed(new - old), old, new)
            en = "health %s (%d → %d)" % (_signed(new - old), old, new)
        else:
            ko = "체력 %d%s 설정 (%d → %d)" % (new, _ro(new), old, new)
            en = "health set to %d (%d → %d)" % (new, old, new)
        self._note(seat, action, values, ko, en)
        trait = st.char.trait
        if (trait is not None and trait.kind == FIRST_DROP_BONUS and not st.bonus_given
                and old > trait.value >= new):
            # 요한 (brief section 6): +1 token the first time health drops to 2000 or less
            st.bonus_given = True
            spec = st.char.token_spec(trait.token)
            have = st.tokens[spec.name]
            got = have + trait.bonus if spec.max is None else min(spec.max, have + trait.bonus)
            st.tokens[spec.name] = got
            self._note(seat, "trait_bonus", {"name": spec.name, "delta": got - have},
                       "특성: 체력 %d 이하, %s %s (%d → %d)" % (trait.value, spec.name, _signed(got - have), have, got),
                       "trait: health %d or less, %s %s (%d → %d)" % (trait.value, spec.name_en,
                                                                   _signed(got - have), have, got))
        if settle:
            self._settle()

    def _change_fp(self, seat, new, action, values):
        st = self.seats[seat]
        old = st.fp
        st.fp = new
        if action == "reset_fp":
            ko, en = "FP 0으로 초기화 (%d → 0)" % old, "FP reset to 0 (%d → 0)" % old
        else:
            ko = "FP %s (%d → %d)" % (_signed(new - old), old, new)
            en = "FP %s (%d → %d)" % (_signed(new - old), old, new)
        self._note(seat, action, values, ko, en)

    def _change_token(self, seat, spec, new, action, values):
        st = self.seats[seat]
        old = st.tokens[spec.name]
        st.tokens[spec.name] = new
        ko = "%s %s (%d → %d)" % (spec.name, _signed(new - old), old, new)
        en = "%s %s (%d → %d)" % (spec.name_en, _signed(new - old), old, new)
        if action == "set_token":
            ko = "%s %d%s 설정 (%d → %d)" % (spec.name, new, _ro(new), old, new)
            en = "%s set to %d (%d → %d)" % (spec.name_en, new, old, new)
        trait = st.char.trait
        if trait is not None and trait.kind in (TOKEN_FULL, TOKENS_ALL_AT) and self.trait_active(seat):
            ko += " · %s: %s" % (trait.name, trait.note_ko)
            en += " · %s: %s" % (trait.name_en, trait.note_en)
        self._note(seat, action, values, ko, en)

    def _settle(self):
        """Check the outcome after a health change (guide 3.4, 5.1.2)."""
        down = [s for s in SEATS if self.seats[s].health <= 0]
        if len(down) == 2:
            if self.sudden_death:
                self._finish("draw", SD_DOUBLE_KO, "서든 데스 중 양쪽 체력 0 이하",
                             "both at 0 or less in sudden death")
            else:
                self._start_sudden_death()
        elif len(down) == 1:
            loser = down[0]
            self._finish(other(loser), HEALTH, "%s 체력 0 이하" % SEAT_INFO[loser]["label"],
                         "%s at 0 health or less" % SEAT_INFO[loser]["label"])
        elif self.end_reason in HEALTH_ENDS:
            # a correction inside the open unit took the KO back
            self.winner = self.end_reason = None
            self._note(None, "result", {"winner": None, "reason": None},
                       "결과 취소: 게임 계속", "result withdrawn: the game goes on")

    def _finish(self, winner, reason, why_ko, why_en):
        if (winner, reason) == (self.winner, self.end_reason):
            return
        self.winner, self.end_reason = winner, reason
        if winner == "draw":
            ko, en = "무승부 (%s)" % why_ko, "draw (%s)" % why_en
        else:
            ko = "%s 승리 (%s)" % (SEAT_INFO[winner]["label"], why_ko)
            en = "%s wins (%s)" % (SEAT_INFO[winner]["label"], why_en)
        self._note(None, "result", {"winner": winner, "reason": reason}, ko, en)

    def _start_sudden_death(self):
        """Guide 5.1.2 as the calculator does it: both to 1000 health, FP 0,
        priority kept, three turns from a new turn.  Hand counts that were entered
        become the 1000-band limit (step 3); tokens and non-responses stay."""
        self.sudden_death = True
        self.sd_turn = 1
        self.turn += 1
        self.winner = self.end_reason = None
        self._sd_started = True
        for s in SEATS:
            st = self.seats[s]
            st.health = SUDDEN_DEATH_HEALTH
            st.fp = 0
            if st.hand_count is not None:
                st.hand_count = self.hand_limit(s)
        label = SEAT_INFO[self.priority]["label"]
        self._note(None, "sudden_death", {"health": SUDDEN_DEATH_HEALTH, "turns": SUDDEN_DEATH_TURNS,
                                          "priority": self.priority},
                   "서든 데스: 양쪽 체력 %d, FP 0, 우선권 %s 유지, %d턴 진행"
                   % (SUDDEN_DEATH_HEALTH, label, SUDDEN_DEATH_TURNS),
                   "sudden death: both at %d health, FP 0, priority stays with %s, %d turns"
                   % (SUDDEN_DEATH_HEALTH, label, SUDDEN_DEATH_TURNS))

    def _end_sudden_death_by_turns(self):
        ha, hb = self.seats["a"].health, self.seats["b"].health
        winner = "draw" if ha == hb else ("a" if ha > hb else "b")
        self._finish(winner, SD_TURNS,
                     "서든 데스 %d턴 종료, 체력 %d 대 %d" % (SUDDEN_DEATH_TURNS, ha, hb),
                     "end of sudden death turn %d, health %d to %d" % (SUDDEN_DEATH_TURNS, ha, hb))

    @staticmethod
    def _check_new_game(priority, seed):
        if priority is not None and priority not in SEATS:
            raise TrackerError("priority must be 'a', 'b' or None (coin toss), got %r" % (priority,))
        if seed is not None and not _is_int(seed):
            raise TrackerError("seed must be an integer, got %r" % (seed,))

    def _initial_priority(self, priority, seed):
        """Guide 3.4.1 step 1: the chosen holder, or a coin toss (engine.rng)."""
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
        self._note(None, action, {"a": ca.id, "b": cb.id, "priority": first, "toss": toss},
                   "%s %d: 1P %s 대 2P %s, 우선권 %s (%s)"
                   % (verb_ko, self.game, ca.name, cb.name, SEAT_INFO[first]["label"], how_ko),
                   "%s %d: 1P %s vs 2P %s, priority %s (%s)"
                   % (verb_en, self.game, ca.name_en, cb.name_en, SEAT_INFO[first]["label"], how_en))

    # validation helpers -------------------------------------------------------

    @staticmethod
    def _check_ms(now_ms):
        if not _is_int(now_ms):
            raise TrackerError("now_ms must be an integer millisecond stamp, got %r" % (now_ms,))

    @staticmethod
    def _check_seat(seat):
        if seat not in SEATS:
            raise TrackerError("seat must be 'a' (1P) or 'b' (2P), got %r" % (seat,))
        return seat

    @staticmethod
    def _check_int(name, value):
        if not _is_int(value):
            raise TrackerError("%s must be an integer, got %r" % (name, value))

    @staticmethod
    def _lookup(seat, key):
        try:
            return roster.get(key)
        except UnknownCharacter:
            raise TrackerError("character for seat %s must be a roster id or Korean name, got %r"
                               % (seat, key)) from None

    def _check_character(self, seat, key):
        if isinstance(key, Character):
            key = key.id
        return self._lookup(seat, key)

    def _check_deltas(self, name, deltas):
        if deltas is None:
            return {}
        if not isinstance(deltas, dict):
            raise TrackerError("%s must map seats to integer deltas, got %r" % (name, deltas))
        for s, v in deltas.items():
            if s not in SEATS:
                raise TrackerError("%s: seat must be 'a' or 'b', got %r" % (name, s))
            if not _is_int(v):
                raise TrackerError("%s[%s] must be an integer, got %r" % (name, s, v))
        return dict(deltas)

    def _token_spec(self, seat, name):
        ch = self.character(seat)
        spec = ch.token_spec(name)
        if spec is None:
            names = ", ".join(t.name for t in ch.tokens) or "none"
            raise TrackerError("token name %r is not a counter of %s (%s); counters: %s"
                               % (name, ch.name, ch.id, names))
        return spec

    def _check_token_value(self, seat, spec, new, field_name, given):
        if new < 0 or (spec.max is not None and new > spec.max):
            bound = "0..%d" % spec.max if spec.max is not None else "0 or more"
            raise TrackerError("%s=%r would put %s at %d; it must stay %s"
                               % (field_name, given, spec.name, new, bound))
