"""The hidden pick of each turn, as a profile describes it (``picks:``): parts picked in
order and locked, antes, the reveal, who leads, the clash and the discard piles.

BattleCON's beat (seeds/004 2.A-G) is the example every step is written for:

* **select** (2.A): every seat picks its parts in order (style, then base), hidden; a
  locked part stays locked. Options in a discard pile (or used up) are not offered.
* **ante** (2.B): the last beat's leader ([선]) first, then the other, until both pass in
  a row; at life 7 or less the finisher (the alternative) is played here instead of the
  pair (C-1-a).
* **reveal** (C-1..C-3): the picks become public together; the higher sum of priorities
  leads; with no card data the players say who leads on a pod (or that it is a clash).
* **clash** (C-3-1): a tie: every seat picks a base it has not used this beat, hidden,
  revealed together on top of the last; compared again, until priorities differ. A seat
  with no base left ends the beat at once: straight to the recycle. A finisher wins a tie;
  two finishers tied pick new pairs and reveal again (no antes).
* **resolve** (D-F): the players play the beat and enter life; each pod confirms the
  end (or the display ends it).
* **recycle** (G): pile 2 back to hand, pile 1 to pile 2, the beat's top style and top
  base to pile 1 (after a clash only the top ones: the other bases come back to hand), the
  beat counter goes up.
"""

from hub.sessions.profile_game.state import ProfileGameError

PICK_PHASES = ("select", "ante", "priority", "clash")


class Picks:
    """The pick flow (mixed into :class:`~hub.sessions.profile_game.game.ProfileGame`)."""

    # ------------------------------------------------------------------ setting up
    def _start_picks(self):
        """The hands and piles of a new game; each seat's alternative (the finisher) is the
        one chosen at the setup (seed 004 1.E: "원하는 피니셔 카드를 선택하여 앞면으로 내려놓는다"),
        else its first."""
        st = self.st
        picks = self.profile.picks
        st["hands"], st["piles"], st["alt"] = {}, {}, {}
        if picks is not None:
            piles = picks["cycle"]["piles"] if picks["cycle"] else 0
            for s in self.seats:
                hand, pile = {}, [[] for _ in range(piles)]
                for part, opts in self.options[s].items():
                    hand[part] = []
                    for o in opts:
                        d = o.get("discard")
                        if piles and d is not None and d <= piles and part != self._alt_part():
                            pile[d - 1].append(o["id"])
                        else:
                            hand[part].append(o["id"])
                st["hands"][s] = hand
                st["piles"][s] = pile
                alt = picks["alternative"]
                chosen = None
                if alt and hand.get(alt["part"]):
                    want = (self.alts or {}).get(s)
                    if want is not None and want not in hand[alt["part"]]:
                        raise ProfileGameError("%s has no %s %r (it has %s)" % (self.label(s), alt["part"], want,
                                                                             ", ".join(hand[alt["part"]])))
                    chosen = want or hand[alt["part"]][0]
                st["alt"][s] = {"id": chosen, "used": False, "active": False}
        self._begin_turn()

    def _alt_part(self):
        alt = self.profile.picks["alternative"] if self.profile.picks else None
        return alt["part"] if alt else None

    def _begin_turn(self):
        st = self.st
        st["pick"] = {s: {} for s in self.seats}
        st["clash"] = {s: [] for s in self.seats}
        st["clash_pick"] = {}
        st["clashes"] = 0
        st["revealed"] = False
        st["redo"] = False
        st["confirmed"] = []
        st["ante"] = None
        for a in st["alt"].values():
            a["active"] = False
        if self.profile.picks is not None:
            st["phase"] = "select"
        else:
            st["phase"] = "play" if st["turn_player"] is not None else "resolve"

    # ------------------------------------------------------------------ what a seat may pick
    def _parts(self):
        return [p["id"] for p in self.profile.picks["parts"]]

    def part_name(self, part):
        picks = self.profile.picks
        for p in picks["parts"]:
            if p["id"] == part:
                return p["name"]
        return picks["alternative"]["name"]

    def available(self, seat, part):
        """The options of ``part`` the seat may pick now, in slot order: in its hand, and
        in a clash not used this beat."""
        hand = list(self.st["hands"][seat].get(part, []))
        if self.st["phase"] == "clash":
            used = set(self.st["clash"][seat]) | {self.st["pick"][seat].get(part)}
            hand = [o for o in hand if o not in used]
        return hand

    def unavailable(self, seat, part):
        """The options of ``part`` the seat has but may not pick now (in a pile, used): the
        pods leave them out, the display greys them."""
        can = set(self.available(seat, part))
        return [o["id"] for o in self.options[seat].get(part, []) if o["id"] not in can]

    def current_part(self, seat):
        """The part the seat picks next (None: it has locked everything asked)."""
        st = self.st
        if st["phase"] == "clash":
            return self.profile.picks["clash"]["repick"] if seat not in st["clash_pick"] else None
        if st["phase"] != "select":
            return None
        for part in self._parts():
            if part not in st["pick"][seat] and self.available(seat, part):
                return part             # a part with nothing left to pick is skipped
        return None

    def locked(self, seat):
        st = self.st
        if st["phase"] == "select":
            return self.current_part(seat) is None
        if st["phase"] == "clash":
            return seat in st["clash_pick"]
        return False

    def decision(self, seat):
        """What the seat is asked now: ``{kind, part?, options, pass, hidden, locked}`` or None."""
        st = self.st
        if st["winner"] is not None or seat in st["out"]:
            return None
        ph = st["phase"]
        if ph in ("select", "clash"):
            part = self.current_part(seat)
            if part is None:
                return {"kind": "ready", "locked": True, "hidden": True, "options": [], "pass": None}
            return {"kind": "ready", "part": part, "options": self.available(seat, part),
                    "unavailable": self.unavailable(seat, part), "pass": None, "hidden": True, "locked": False}
        if ph == "ante":
            if st["ante"]["turn"] != seat:
                return None
            return {"kind": "ante", "options": ["ante"] + ([st["alt"][seat]["id"]] if self.alt_ready(seat) else []),
                    "pass": "pass", "hidden": False, "locked": False}
        if ph == "priority":
            return {"kind": "priority", "options": list(self.seats) + (["clash"] if self.profile.picks["clash"] else []),
                    "pass": None, "hidden": False, "locked": False}
        if ph in ("resolve", "play") and self.profile.turn["confirm_end"]:
            if seat in self.playing() and seat not in st["confirmed"]:
                return {"kind": "end_turn", "options": ["done"], "pass": None, "hidden": False, "locked": False}
        return None

    def alt_ready(self, seat):
        """The alternative (finisher) may be played now: unlocked by its counter, not used."""
        alt = self.profile.picks["alternative"] if self.profile.picks else None
        a = self.st["alt"].get(seat)
        if not alt or not a or a["id"] is None or a["active"] or (alt["once"] and a["used"]):
            return False
        return self.value(seat, alt["unlock"]["counter"]) <= alt["unlock"]["at_most"]

    # ------------------------------------------------------------------ answers
    def _answer_ready(self, seat, value):
        st = self.st
        if st["phase"] not in ("select", "clash"):
            raise ProfileGameError("no hidden pick is asked now (the turn is at %s)" % st["phase"])
        part = self.current_part(seat)
        if part is None:
            raise ProfileGameError("%s has already locked its pick" % self.label(seat))
        can = self.available(seat, part)
        if value not in can:
            raise ProfileGameError("%s cannot pick %r as its %s (it may pick %s)"
                                   % (self.label(seat), value, part, ", ".join(can) or "nothing"))
        name = self.part_name(part)
        if st["phase"] == "clash":
            st["clash_pick"][seat] = value
            self._note(seat, "pick", {"part": part, "clash": True}, "%s %s 다시 고름 (숨김)" % (self.label(seat), name["ko"]),
                       "%s picked another %s (hidden)" % (self.label(seat), name["en"]))
            if all(s in st["clash_pick"] for s in self._pickers()):
                self._reveal_clash()
            return
        st["pick"][seat][part] = value
        self._note(seat, "pick", {"part": part}, "%s %s 고름 (숨김)" % (self.label(seat), name["ko"]),
                   "%s picked a %s (hidden)" % (self.label(seat), name["en"]))
        if all(self.locked(s) for s in self._pickers()):
            if self.profile.picks["ante"] and not st["redo"]:
                st["phase"] = "ante"
                st["ante"] = {"turn": st["leader"], "passes": 0}
            else:
                self._reveal()

    def _pickers(self):
        return [s for s in self.seats if s not in self.st["out"]]

    def _answer_ante(self, seat, value):
        st = self.st
        if st["phase"] != "ante" or st["ante"]["turn"] != seat:
            raise ProfileGameError("it is not %s's ante" % self.label(seat))
        name = self.profile.picks["ante"]["name"]
        if value == "pass":
            st["ante"]["passes"] += 1
            self._note(seat, "ante", {"ante": "pass"}, "%s %s 패스" % (self.label(seat), name["ko"]),
                       "%s passes (%s)" % (self.label(seat), name["en"]))
        elif value == "ante":
            st["ante"]["passes"] = 0
            self._note(seat, "ante", {"ante": "ante"}, "%s %s" % (self.label(seat), name["ko"]),
                       "%s antes" % self.label(seat))
        elif self.alt_ready(seat) and value == st["alt"][seat]["id"]:
            st["ante"]["passes"] = 0
            a = st["alt"][seat]
            a["active"] = a["used"] = True
            o = self.by_id[seat][value]
            alt = self.profile.picks["alternative"]["name"]
            self._note(seat, "ante", {"ante": value}, "%s %s: %s" % (self.label(seat), alt["ko"], o["name"]),
                       "%s plays the %s: %s" % (self.label(seat), alt["en"], o.get("name_en") or o["name"]))
        else:
            can = ["ante", "pass"] + ([st["alt"][seat]["id"]] if self.alt_ready(seat) else [])
            raise ProfileGameError("%s may answer %s to the ante, not %r" % (self.label(seat), ", ".join(can), value))
        if st["ante"]["passes"] >= len(self._pickers()):
            self._reveal()
        else:
            others = self._pickers()
            st["ante"]["turn"] = others[(others.index(seat) + 1) % len(others)]

    def _answer_priority(self, seat, value):
        st = self.st
        if st["phase"] != "priority":
            raise ProfileGameError("priority is not asked now")
        if value in self.seats:
            self._lead(value, None)
        elif value == "clash" and self.profile.picks["clash"]:
            self._tie(None)
        else:
            raise ProfileGameError("priority is %s, not %r" % (", ".join(list(self.seats) + ["clash"]), value))

    # ------------------------------------------------------------------ the reveal
    def card_text(self, seat, cid):
        o = self.by_id[seat].get(cid) or {"name": cid}
        return o["name"], o.get("name_en") or o["name"]

    def _reveal(self):
        st = self.st
        st["revealed"] = True
        for s in self._pickers():
            if st["alt"][s]["active"]:
                ko, en = self.card_text(s, st["alt"][s]["id"])
            else:
                names = [self.card_text(s, st["pick"][s][p]) for p in self._parts() if st["pick"][s].get(p)]
                ko, en = " + ".join(n[0] for n in names), " + ".join(n[1] for n in names)
            self._note(s, "reveal", {"pick": dict(st["pick"][s]), "alt": st["alt"][s]["active"]},
                       "%s 공개: %s" % (self.label(s), ko), "%s reveals %s" % (self.label(s), en))
        self._compare()

    def _reveal_clash(self):
        st = self.st
        for s in self._pickers():
            st["clash"][s].append(st["clash_pick"][s])
            ko, en = self.card_text(s, st["clash_pick"][s])
            self._note(s, "reveal", {"clash": st["clash_pick"][s]}, "%s 상쇄 공개: %s" % (self.label(s), ko),
                       "%s reveals %s in the clash" % (self.label(s), en))
        st["clash_pick"] = {}
        self._compare()

    def priority_of(self, seat):
        """The seat's priority after the reveal (the card data's numbers), or None if a card
        has none (then the players say who leads)."""
        st = self.st
        pr = self.profile.picks["priority"]
        if pr is None or not st["revealed"]:
            return None
        if st["alt"][seat]["active"]:
            return self.by_id[seat][st["alt"][seat]["id"]].get("priority")
        total = 0
        repick = self.profile.picks["clash"]["repick"] if self.profile.picks["clash"] else None
        for part in pr["sum"]:
            cid = st["clash"][seat][-1] if part == repick and st["clash"][seat] else st["pick"][seat].get(part)
            if cid is None:
                continue
            v = self.by_id[seat][cid].get("priority")
            if v is None:
                return None
            total += v
        return total

    def _compare(self):
        st = self.st
        if self.profile.picks["priority"] is None:
            st["phase"] = "resolve"
            return
        values = {s: self.priority_of(s) for s in self._pickers()}
        if any(v is None for v in values.values()):
            st["phase"] = "priority"         # no card data: the players say it on a pod
            return
        a, b = self._pickers()
        if values[a] != values[b]:
            self._lead(a if values[a] > values[b] else b, values)
        else:
            self._tie(values)

    def _lead(self, seat, values):
        st = self.st
        st["leader"] = seat
        st["phase"] = "resolve"
        pr = self.profile.picks["priority"]["name"]
        lead = self.profile.word("leader")
        nums = " (%s)" % " 대 ".join("%s %d" % (self.label(s), values[s]) for s in self._pickers()) if values else ""
        nums_en = " (%s)" % " to ".join("%s %d" % (self.label(s), values[s]) for s in self._pickers()) if values else ""
        self._note(seat, "lead", {"priority": values}, "%s: %s %s%s" % (pr["ko"], self.label(seat), lead["ko"], nums),
                   "%s: %s leads%s" % (pr["en"], self.label(seat), nums_en))

    def _tie(self, values):
        st = self.st
        alt = self.profile.picks["alternative"]
        active = [s for s in self._pickers() if st["alt"][s]["active"]]
        if alt and alt["wins_ties"] and len(active) == 1:
            self._lead(active[0], values)
            return
        clash = self.profile.picks["clash"]
        cname = clash["name"] if clash else {"ko": "동률", "en": "tie"}
        if alt and len(active) == len(self._pickers()):
            # two finishers tied: new pairs, picked and revealed again from the reveal (C-3-1)
            self._note(None, "clash", {"redo": True}, "%s: 양쪽 %s, 새 공격쌍을 골라 다시 공개" % (cname["ko"], alt["name"]["ko"]),
                       "%s of two %ss: both pick new pairs and reveal again" % (cname["en"], alt["name"]["en"]))
            st["pick"] = {s: {} for s in self.seats}
            for s in active:
                st["alt"][s]["active"] = False
            st["revealed"] = False
            st["redo"] = True
            st["phase"] = "select"
            return
        if not clash:
            st["phase"] = "resolve"
            return
        st["clashes"] += 1
        nums = " (%s %d)" % (self.profile.picks["priority"]["name"]["ko"], next(iter(values.values()))) if values else ""
        self._note(None, "clash", {"n": st["clashes"], "priority": values}, "%s%s" % (cname["ko"], nums),
                   "%s%s" % (cname["en"], nums.replace(self.profile.picks["priority"]["name"]["ko"],
                                                       self.profile.picks["priority"]["name"]["en"])))
        st["phase"] = "clash"
        st["clash_pick"] = {}
        part = clash["repick"]
        empty = [s for s in self._pickers() if not self.available(s, part)]
        if empty:
            pname = self.part_name(part)
            self._note(empty[0], "clash_out", {"seats": empty},
                       "%s: 더 낼 %s 없음 → 바로 %s" % ("·".join(self.label(s) for s in empty), pname["ko"],
                                                   self.profile.word("recycle")["ko"]),
                       "%s: no %s left → straight to the %s" % ("·".join(self.label(s) for s in empty), pname["en"],
                                                              self.profile.word("recycle")["en"]))
            self._end_turn(by="clash")

    # ------------------------------------------------------------------ the recycle
    def _recycle(self):
        st = self.st
        picks = self.profile.picks
        cyc = picks["cycle"]
        for s in self.seats:
            a = st["alt"].get(s)
            finisher = bool(a and a["active"])     # C-1-a: the pair was not revealed; it goes back to hand
            if a:
                a["active"] = False
            if not cyc or s in st["out"]:
                continue
            top = []
            if st["revealed"] and not finisher:
                for part in cyc["discard"]:
                    cid = st["clash"][s][-1] if (picks["clash"] and part == picks["clash"]["repick"] and st["clash"][s]) \
                        else st["pick"][s].get(part)
                    if cid is not None:
                        top.append((part, cid))
            piles = st["piles"][s]
            back = piles[-1]
            for cid in back:
                st["hands"][s][self.by_id[s][cid]["part"]].append(cid)
            for part, cid in top:
                st["hands"][s][part].remove(cid)
            st["piles"][s] = [[cid for _p, cid in top]] + piles[:-1]
            for part in st["hands"][s]:
                order = [o["id"] for o in self.options[s][part]]
                st["hands"][s][part].sort(key=order.index)
            ko = ", ".join(self.card_text(s, c)[0] for _p, c in top) or "없음"
            en = ", ".join(self.card_text(s, c)[1] for _p, c in top) or "nothing"
            pile = self.profile.word("pile")
            self._note(s, "recycle", {"pile1": [c for _p, c in top], "to_hand": back},
                       "%s %s: %s 1 ← %s; %s ← %d장" % (self.label(s), self.profile.word("recycle")["ko"], pile["ko"], ko,
                                                      self.profile.word("hand")["ko"], len(back)),
                       "%s %s: %s 1 ← %s; %d back to hand" % (self.label(s), self.profile.word("recycle")["en"], pile["en"],
                                                               en, len(back)))
