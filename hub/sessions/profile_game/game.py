"""A game played by a profile (hub/profiles/): counters, turns, teams, the end, and the
hidden pick of each turn (picks.py). Pure like the engine and the tracker: no I/O, no
clock (every input brings ``now_ms``, used for the log only), seeded randomness only;
the whole state is plain JSON (``to_json``/``from_json``) and the same inputs always give
the same state. There is no rules engine: the players resolve what the cards do and
enter the numbers; the game keeps what the profile describes.

Inputs (``answer(seat, kind, value, now_ms)``: a seat's decision; ``perform(cmd,
now_ms)``: a table command from the display or a pod's HP/FP page):

=============== ======================================================================
``ready``       a hidden pick of the seat's current part (an option id), locked
``ante``        ``ante``, an alternative's id (the finisher) or ``pass``
``priority``    who leads after the reveal (``a``, ``b``) or ``clash``, when no card
                data says it
``end_turn``    ``done``: the seat is finished with this turn (all seats playing it:
                the turn ends)
``adjust``      ``{seat, counter, delta}``; ``set`` ``{seat, counter, value}``
``next_turn``   the turn ends now (the display)
``lose``        ``{seat}``: the seat lost by the game's rules (a concession, a deck out,
                battle damage with no shield, a card's effect)
``new_game``    the match's next game (duel); ``undo`` the last table command
=============== ======================================================================

Each returns the log entries it appended; a refused input raises
:class:`~hub.sessions.profile_game.state.ProfileGameError` and changes nothing.
"""

import copy

from engine import next_u64

from hub.sessions.profile_game.picks import PICK_PHASES, Picks
from hub.sessions.profile_game.state import Checks, ProfileGameError, seat_options

FORMAT = "lumen-profile-game/1"
UNDO_LIMIT = 100
COMMANDS = ("adjust", "set", "next_turn", "lose", "new_game", "undo")
ANSWERS = ("ready", "ante", "priority", "end_turn")


class ProfileGame(Picks, Checks):
    """``ProfileGame(profile, players=2, characters=None, seed=0, first=None, alts=None)``:
    ``characters``: seat -> a card set's character (its cards), or None for the profile's
    own options; ``first``: the seat that goes first (None: the profile's rule); ``alts``:
    seat -> the alternative (finisher) it chose at the setup."""

    def __init__(self, profile, players=2, characters=None, seed=0, first=None, now_ms=0, alts=None):
        if players not in profile.players:
            raise ProfileGameError("%s is played by %s seats, not %r" % (profile.id, " or ".join(map(str, profile.players)),
                                                                        players))
        if not isinstance(seed, int) or isinstance(seed, bool):
            raise ProfileGameError("seed must be an integer, not %r" % (seed,))
        self.profile = profile
        self.seats = profile.seats(players)
        if first is not None:
            self._check_seat(first)
        self.characters = {s: (characters or {}).get(s) for s in self.seats}
        self.options = {s: seat_options(profile, self.characters[s]) for s in self.seats}
        self.by_id = {s: {o["id"]: o for opts in self.options[s].values() for o in opts} for s in self.seats}
        self.teams = profile.teams(players)
        self.alts = dict(alts or {})
        self.log = []
        self._seq = 0
        self._undo = []
        self._pending = []
        self.st = {"game": 0, "wins": {}, "rng": seed & ((1 << 64) - 1), "draws": 0}
        self._check_ms(now_ms)
        self._new_game(first)
        self._commit(now_ms)

    # ------------------------------------------------------------------ the game's frame
    def _new_game(self, first=None):
        st = self.st
        st["game"] += 1
        turn = self.profile.turn
        if first is None:
            first = turn["first"]
        if first == "coin":
            st["rng"], z = next_u64(st["rng"])
            first = self.teams[z % len(self.teams)][0]
        order = self.profile.turn_order(len(self.seats))
        i = order.index(first)
        st["order"] = order[i:] + order[:i]
        st["turn"] = 1
        st["leader"] = first
        st["turn_player"] = first if turn["player"] == "rotate" else None
        st["out"] = []
        st["winner"] = st["end_reason"] = None
        st["confirmed"] = []
        st["counters"] = {s: {c["id"]: self._start_value(c, s) for c in self.profile.counters} for s in self.seats}
        self._start_picks()
        self._note(None, "new_game", {"game": st["game"], "first": first},
                   "게임 %d 시작 · 먼저: %s" % (st["game"], self.label(first)),
                   "game %d begins · first: %s" % (st["game"], self.label(first)))

    def _start_value(self, c, seat):
        v = c["start"]
        if isinstance(v, list):
            return v[self.st["order"].index(seat) % len(v)]
        return v

    def label(self, seat):
        return self.profile.seat_info(seat)["label"] if seat else ""

    def team_of(self, seat):
        for t in self.teams:
            if seat in t:
                return t[0]
        return seat

    @property
    def winner(self):
        return self.st["winner"]

    @property
    def turn(self):
        return self.st["turn"]

    @property
    def priority(self):
        """Who holds the lead the pods show: the turn player, or the last turn's leader ([선])."""
        return self.st["turn_player"] or self.st["leader"]

    def value(self, seat, cid):
        return self.st["counters"][seat][cid]

    def playing(self):
        """The seats that play the current turn (not out)."""
        if self.st["turn_player"] is not None:
            return [self.st["turn_player"]]
        return [s for s in self.st["order"] if s not in self.st["out"]]

    # ------------------------------------------------------------------ inputs
    def answer(self, seat, kind, value, now_ms):
        """A seat's decision (see the module docstring)."""
        self._check_ms(now_ms)
        self._check_seat(seat)
        if kind not in ANSWERS:
            raise ProfileGameError("a seat answers %s, not %r" % (", ".join(ANSWERS), kind))
        self._check_live(kind)
        return self._run(lambda: getattr(self, "_answer_" + kind)(seat, value), now_ms, undoable=False)

    def perform(self, cmd, now_ms):
        """A table command: ``{action: adjust|set|next_turn|lose|new_game|undo, ...}``."""
        self._check_ms(now_ms)
        if not isinstance(cmd, dict) or cmd.get("action") not in COMMANDS:
            raise ProfileGameError("a command is {action: %s, ...}, not %r" % (" | ".join(COMMANDS), cmd))
        action = cmd["action"]
        allowed = {"adjust": {"seat", "counter", "delta"}, "set": {"seat", "counter", "value"}, "lose": {"seat"},
                   "next_turn": set(), "new_game": set(), "undo": set()}[action]
        extra = set(cmd) - allowed - {"action"}
        if extra:
            raise ProfileGameError("%s takes %s, not %s" % (action, ", ".join(sorted(allowed)) or "nothing",
                                                             ", ".join(sorted(extra))))
        if action == "undo":
            return self.undo(now_ms)
        if action == "new_game":
            if self.st["winner"] is None:
                raise ProfileGameError("this game is not over: finish it (or enter a loss) before the next one")
            return self._run(self._new_game, now_ms, undoable=False)
        self._check_live(action)
        if action in ("adjust", "set"):
            seat = self._check_seat(cmd.get("seat"))
            c = self._check_counter(cmd.get("counter"))
            if action == "adjust":
                d = self._check_int("delta", cmd.get("delta"))
                target = self.value(seat, c["id"]) + d
            else:
                target = self._check_int("value", cmd.get("value"))
            self._check_range(c, target)
            return self._run(lambda: self._change(seat, c, target, action), now_ms, undoable=True)
        if action == "lose":
            seat = self._check_seat(cmd.get("seat"))
            return self._run(lambda: self._out(seat, "declared"), now_ms, undoable=True)
        return self._run(lambda: self._end_turn(by="table"), now_ms, undoable=True)

    def _run(self, fn, now_ms, undoable):
        before = self._core()
        self._pending = []
        try:
            fn()
        except Exception:
            self._load(before)
            self._pending = []
            raise
        if not self._pending:
            return []
        entries = self._commit(now_ms)
        if undoable:
            self._undo.append({"before": before, "text_ko": entries[0]["text_ko"], "text_en": entries[0]["text_en"]})
            del self._undo[:-UNDO_LIMIT]
        else:
            self._undo = []         # a decision is not taken back by the display's undo
        return entries

    def undo(self, now_ms):
        if not self._undo:
            raise ProfileGameError("nothing to undo (the entries since the last decision are undone already)")
        step = self._undo.pop()
        self._load(step["before"])
        self._pending = []
        self._note(None, "undo", {}, "되돌리기: " + step["text_ko"], "undo: " + step["text_en"])
        return self._commit(now_ms)

    # ------------------------------------------------------------------ counters and the end
    def _check_range(self, c, target):
        lo, hi = c["min"], c["max"]
        if c["beyond"] == "refuse" and ((lo is not None and target < lo) or (hi is not None and target > hi)):
            raise ProfileGameError("%s must stay %s..%s: %d is refused" % (c["id"], lo, hi, target))

    def _change(self, seat, c, target, action):
        lo, hi = c["min"], c["max"]
        kept = target
        if lo is not None and target < lo:
            kept = lo
        if hi is not None and target > hi:
            kept = hi
        old = self.value(seat, c["id"])
        if kept == old:
            return          # a tap that changes nothing (−1 at 0, +1 at the most) is not logged nor undoable
        self.st["counters"][seat][c["id"]] = kept
        n = c["name"]
        d = kept - old
        ko = "%s %s %+d → %d" % (self.label(seat), n["ko"], d, kept)
        en = "%s %s %+d → %d" % (self.label(seat), n["en"], d, kept)
        if kept != target:
            ko += " (%s 최대 %d: 넘지 않음)" % (n["ko"], hi) if kept == hi else " (최소 %d)" % lo
            en += " (%s cannot exceed %d)" % (n["en"], hi) if kept == hi else " (at least %d)" % lo
        self._note(seat, action, {"counter": c["id"], "value": kept, "asked": target}, ko, en)
        if c["at_min"] == "lose" and kept == lo and seat not in self.st["out"]:
            self._out(seat, c["id"])

    def _out(self, seat, why):
        st = self.st
        if seat in st["out"]:
            raise ProfileGameError("%s is already out" % self.label(seat))
        st["out"].append(seat)
        c = self.profile.counter(why)
        what_ko = "%s %d" % (c["name"]["ko"], c["min"]) if c else "패배 선언"
        what_en = "%s %d" % (c["name"]["en"], c["min"]) if c else "a loss entered"
        self._note(seat, "out", {"why": why}, "%s 탈락 (%s)" % (self.label(seat), what_ko),
                   "%s is out (%s)" % (self.label(seat), what_en))
        alive = [t for t in self.teams if any(s not in st["out"] for s in t)]
        if len(alive) == 1:
            self._finish(alive[0][0], "out")
        elif not alive:
            self._finish("draw", "out")
        elif st["turn_player"] == seat:
            self._end_turn(by="out")

    def _finish(self, winner, reason):
        st = self.st
        st["winner"], st["end_reason"] = winner, reason
        st["phase"] = "over"
        if winner == "draw":
            st["draws"] += 1
            ko, en = "무승부", "a draw"
        else:
            st["wins"][winner] = st["wins"].get(winner, 0) + 1
            ko, en = "%s 승리" % self.team_label(winner), "%s wins" % self.team_label(winner)
        why = {"out": ("", ""), "turn_limit": (" (%d%s 종료)" % (st["turn"], self.profile.turn["name"]["ko"]),
                                                " (end of %s %d)" % (self.profile.turn["name"]["en"], st["turn"]))}[reason]
        self._note(None, "finish", {"winner": winner, "reason": reason}, ko + why[0], en + why[1])

    def team_label(self, lead):
        t = next((t for t in self.teams if t[0] == lead), [lead])
        return "·".join(self.label(s) for s in t)

    def match_winner(self):
        need = self.profile.match["best_of"] // 2 + 1
        for team, n in self.st["wins"].items():
            if n >= need:
                return team
        return None

    def _end_turn(self, by="pods"):
        """The turn ends (``by``: the pods' confirmations, the table's command, a clash with
        nothing left, the turn player out): the discard piles cycle (picks.py), the next
        turn begins, or the turn limit decides the game."""
        st = self.st
        if st["phase"] in PICK_PHASES and by != "clash":
            raise ProfileGameError("the %s's pick is not over: its reveal comes first" % self.profile.turn["name"]["en"])
        if self.profile.picks and st["phase"] != "over":
            self._recycle()
        limit = self.profile.turn["limit"]
        ended = st["turn"]
        self._note(None, "end_turn", {"turn": ended}, "%s %d 종료" % (self.profile.turn["name"]["ko"], ended),
                   "%s %d ends" % (self.profile.turn["name"]["en"], ended))
        if limit is not None and ended >= limit:
            rule = self.profile.turn["at_limit"]
            self._decide_by(rule["higher"] if rule else None, "turn_limit")
            return
        st["turn"] += 1
        st["confirmed"] = []
        if st["turn_player"] is not None:
            order = [s for s in st["order"] if s not in st["out"]]
            i = st["order"].index(st["turn_player"])
            nxt = next(s for s in st["order"][i + 1:] + st["order"][:i + 1] if s in order)
            st["turn_player"] = nxt
            for c in self.profile.counters:
                if c["refill"] == "own_turn" and self.value(nxt, c["id"]) != c["start"]:
                    self._change(nxt, c, self._start_value(c, nxt), "refill")
            st["phase"] = "play"
        self._begin_turn()

    def _decide_by(self, cid, reason):
        if cid is None:
            self._finish("draw", reason)
            return
        totals = {t[0]: sum(self.value(s, cid) for s in t) for t in self.teams}
        best = max(totals.values())
        top = [t for t, v in totals.items() if v == best]
        self._finish(top[0] if len(top) == 1 else "draw", reason)

    def _answer_end_turn(self, seat, value):
        st = self.st
        if value != "done":
            raise ProfileGameError("end_turn takes done, not %r" % (value,))
        if st["phase"] not in ("resolve", "play") or seat not in self.playing():
            raise ProfileGameError("%s is not playing a turn it could end now" % self.label(seat))
        if seat in st["confirmed"]:
            raise ProfileGameError("%s has already ended this turn" % self.label(seat))
        st["confirmed"].append(seat)
        self._note(seat, "end_turn_ok", {}, "%s %s 끝" % (self.label(seat), self.profile.turn["name"]["ko"]),
                   "%s is done with this %s" % (self.label(seat), self.profile.turn["name"]["en"]))
        if all(s in st["confirmed"] for s in self.playing()):
            self._end_turn()

    # ------------------------------------------------------------------ state and log
    def _core(self):
        return copy.deepcopy(self.st)

    def _load(self, core):
        self.st = core

    def checkpoint(self):
        return (self._core(), len(self.log), self._seq, list(self._undo))

    def rollback(self, cp):
        core, n, seq, undo = cp
        self._load(core)
        del self.log[n:]
        self._seq = seq
        self._undo = undo
        self._pending = []

    def _note(self, seat, action, values, ko, en):
        self._pending.append({"game": self.st["game"], "turn": self.st["turn"], "seat": seat, "action": action,
                              "values": values, "text_ko": ko, "text_en": en})

    def _commit(self, now_ms):
        out = []
        for e in self._pending:
            self._seq += 1
            e = dict(seq=self._seq, ms=now_ms, **e)
            self.log.append(e)
            out.append(e)
        self._pending = []
        return out

    def to_json(self):
        """The whole state (hidden picks included: for the hub only, never published)."""
        return {"format": FORMAT, "profile": self.profile.id, "seats": list(self.seats), "alts": dict(self.alts),
                "st": copy.deepcopy(self.st),
                "log": list(self.log), "seq": self._seq, "undo": copy.deepcopy(self._undo)}

    @classmethod
    def from_json(cls, d, profile, characters=None):
        g = cls.__new__(cls)
        g.profile = profile
        g.seats = tuple(d["seats"])
        g.characters = {s: (characters or {}).get(s) for s in g.seats}
        g.options = {s: seat_options(profile, g.characters[s]) for s in g.seats}
        g.by_id = {s: {o["id"]: o for opts in g.options[s].values() for o in opts} for s in g.seats}
        g.teams = profile.teams(len(g.seats))
        g.alts = dict(d.get("alts") or {})
        g.st = copy.deepcopy(d["st"])
        g.log = list(d["log"])
        g._seq = d["seq"]
        g._undo = copy.deepcopy(d["undo"])
        g._pending = []
        return g


def public_view(game):
    """What anyone may see of a profile game (JSON-ready): counters, turn, phase, who has
    locked (never what) and, once revealed, the picks; hands and discard piles (public:
    the piles are face up, a hand is the seat's cards less its piles)."""
    st = game.st
    picks = game.profile.picks
    seats = {}
    for s in game.seats:
        d = dict(game.profile.seat_info(s), seat=s, team=game.team_of(s), counters=dict(st["counters"][s]),
                 out=s in st["out"], locked=game.locked(s))
        if picks is not None:
            d["picked"] = len(st["pick"][s]) if st["phase"] == "select" else None
            d["revealed"] = dict(st["pick"][s]) if st["revealed"] else None
            d["clash"] = list(st["clash"][s]) if st["revealed"] else []
            a = st["alt"].get(s) or {}
            d["alt"] = {"id": a.get("id"), "used": bool(a.get("used")), "active": bool(a.get("active")),
                        "ready": game.alt_ready(s)} if picks["alternative"] else None
            d["hand"] = {p: list(v) for p, v in st["hands"][s].items()}
            d["piles"] = [list(p) for p in st["piles"][s]]
            d["priority_value"] = game.priority_of(s)
        seats[s] = d
    ante = st.get("ante")
    return {"profile": game.profile.id, "seats": seats, "turn": st["turn"], "turn_limit": game.profile.turn["limit"],
            "phase": st["phase"], "leader": st["leader"], "turn_player": st["turn_player"], "order": list(st["order"]),
            "winner": st["winner"], "end_reason": st["end_reason"], "game": st["game"], "wins": dict(st["wins"]),
            "draws": st["draws"], "match_winner": game.match_winner(), "best_of": game.profile.match["best_of"],
            "clashes": st.get("clashes", 0), "ante": dict(ante) if ante else None, "confirmed": list(st["confirmed"]),
            "can_undo": bool(game._undo), "undo_text": ({"ko": game._undo[-1]["text_ko"], "en": game._undo[-1]["text_en"]}
                                                       if game._undo else None)}
