"""The tracker's table rules: hand limits, priority, traits, and what health, FP and
token changes do (KO, sudden death, the result).

Priority (guide 3.8, brief ruling 8)
    Recomputed in :meth:`TrackerGame.next_turn`, which stands for the get phase
    boundary of a real game: the players press "next turn" after the battle and
    its entries, i.e. at get phase step 2 of the turn that is ending (guide
    3.5.4), before anyone takes a list card.  Order: higher FP, then higher
    health, then more cards in hand (only if both hand counts are entered), else
    the holder is kept.
"""

from hub.sessions import roster
from hub.sessions.roster import FIRST_DROP_BONUS, HEALTH_AT_MOST, STANCE_ALL, TOGGLE, TOKEN_FULL, TOKENS_ALL_AT
from hub.sessions.tracker_game.state import SEAT_INFO, SEATS, ro_particle, signed, other

NON_RESPONSE_LIMIT = 3          # guide 3.10 step 4
SUDDEN_DEATH_HEALTH = 1000      # guide 5.1.2 step 2
SUDDEN_DEATH_TURNS = 3          # guide 5.1.2 step 7

# end reasons
HEALTH = "health"                       # guide 3.4
NON_RESPONSE = "non_response"           # guide 3.10 step 4
SD_TURNS = "sudden_death_turns"         # guide 5.1.2 steps 8-9
SD_DOUBLE_KO = "sudden_death_double_ko"  # guide 5.1.2 step 10
#: Results decided by health, which stay open while their processing unit is open.
HEALTH_ENDS = (HEALTH, SD_DOUBLE_KO)


class Rules:
    """The health, hand and token rules (mixed into :class:`~hub.sessions.tracker_game.TrackerGame`)."""

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

    def _change_health(self, seat, new, action, values, settle=True):
        st = self.seats[seat]
        old = st.health
        st.health = new
        if action == "adjust_health":
            ko = "체력 %s (%d → %d)" % (signed(new - old), old, new)
            en = "health %s (%d → %d)" % (signed(new - old), old, new)
        else:
            ko = "체력 %d%s 설정 (%d → %d)" % (new, ro_particle(new), old, new)
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
                       "특성: 체력 %d 이하, %s %s (%d → %d)" % (trait.value, spec.name, signed(got - have), have, got),
                       "trait: health %d or less, %s %s (%d → %d)" % (trait.value, spec.name_en,
                                                                   signed(got - have), have, got))
        if settle:
            self._settle()

    def _change_fp(self, seat, new, action, values):
        st = self.seats[seat]
        old = st.fp
        st.fp = new
        if action == "reset_fp":
            ko, en = "FP 0으로 초기화 (%d → 0)" % old, "FP reset to 0 (%d → 0)" % old
        else:
            ko = "FP %s (%d → %d)" % (signed(new - old), old, new)
            en = "FP %s (%d → %d)" % (signed(new - old), old, new)
        self._note(seat, action, values, ko, en)

    def _change_token(self, seat, spec, new, action, values):
        st = self.seats[seat]
        old = st.tokens[spec.name]
        st.tokens[spec.name] = new
        ko = "%s %s (%d → %d)" % (spec.name, signed(new - old), old, new)
        en = "%s %s (%d → %d)" % (spec.name_en, signed(new - old), old, new)
        if action == "set_token":
            ko = "%s %d%s 설정 (%d → %d)" % (spec.name, new, ro_particle(new), old, new)
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
                # a KO already shown this turn and now the other seat too: a trade entered as two
                # taps (guide 5.1.2: the same processing unit), not a win
                self._start_sudden_death(trade=self.end_reason == HEALTH)
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

    def _start_sudden_death(self, trade=False):
        """Guide 5.1.2 as the calculator does it: both to 1000 health, FP 0,
        priority kept, three turns from a new turn.  Hand counts that were entered
        become the 1000-band limit (step 3); tokens and non-responses stay.
        ``trade``: the second seat fell after the first one's KO was shown."""
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
        why_ko = "같은 턴에 양쪽 체력 0 이하 (동시 KO) → " if trade else ""
        why_en = "both at 0 or less in the same turn (double KO) → " if trade else ""
        self._note(None, "sudden_death", {"health": SUDDEN_DEATH_HEALTH, "turns": SUDDEN_DEATH_TURNS,
                                          "priority": self.priority, "trade": trade},
                   "%s서든 데스: 양쪽 체력 %d, FP 0, 우선권 %s 유지, %d턴 진행"
                   % (why_ko, SUDDEN_DEATH_HEALTH, label, SUDDEN_DEATH_TURNS),
                   "%ssudden death: both at %d health, FP 0, priority stays with %s, %d turns"
                   % (why_en, SUDDEN_DEATH_HEALTH, label, SUDDEN_DEATH_TURNS))

    def _end_sudden_death_by_turns(self):
        ha, hb = self.seats["a"].health, self.seats["b"].health
        winner = "draw" if ha == hb else ("a" if ha > hb else "b")
        self._finish(winner, SD_TURNS,
                     "서든 데스 %d턴 종료, 체력 %d 대 %d" % (SUDDEN_DEATH_TURNS, ha, hb),
                     "end of sudden death turn %d, health %d to %d" % (SUDDEN_DEATH_TURNS, ha, hb))
