"""A table's game played by a profile (hub/profiles/: BattleCON, 요정전승, the Gundam card
game): the hidden picks on the pods, the counters, turns and the end
(hub/sessions/profile_game/), the record. Durable like the other modes: every input is
committed before anyone hears of it, and ``resume`` replays the record.

The record's mode is ``profile``; its start record names the profile (id and hash) and
keeps the whole profile and each seat's card data, so a game resumes as it started even
if a file changed since. A hidden pick is an ``input`` marked hidden, with a salted
SHA-256 commitment in the judge log (``H(game:seat:option:nonce)``, as a referee's ready);
the reveal's judge record names the picks it revealed (``reveals``: their seqs) with
their options and nonces, so the record's public reads show them from then on only.
"""

from hub.profiles import cards as card_sets
from hub.profiles import profile as profiles
from hub.sessions.changes import Step
from hub.sessions.commit_reveal import lock_entry, new_nonce
from hub.sessions.base import NO_PROMPT, DecisionRefused, MonotonicClock, SeatPrompt, SeatStatus, SessionBase, SessionError
from hub.sessions.display.common import log_line
from hub.sessions.display.profile import profile_display
from hub.sessions.profile_game import ANSWERS, ProfileGame, ProfileGameError, public_view

START_FORMAT = "lumen-profile-game/1"
LOCKED = SeatPrompt("ready", locked=True, hidden=True)
#: a pod's HP/FP page entries (hub/pods/protocol.py ADJUST) and the pod page each reads
POD_PAGES = {"hp_add": "hp", "fp_add": "fp", "fp_set": "fp"}


class ProfileSession(SessionBase):
    mode = "profile"
    takes_actions = True
    #: the pods treat a profile game as a tracker: READY locks, and the HP/FP pages enter counters
    pod_mode = "tracker"

    def __init__(self, store, game_id, game, clock=None):
        super().__init__(store, game_id, clock)
        self.game = game
        self.profile = game.profile
        self.seats = game.seats
        self.answered = {s: 0 for s in self.seats}
        self._hidden = {}           # seq of a hidden pick input -> {seat, part, value, nonce}, until its reveal
        self._revealed = False

    # ------------------------------------------------------------ starting and resuming
    @classmethod
    def new(cls, store, profile, players=2, characters=None, seed=0, first=None, clock=None, table="table-1",
            names=None, card_set=None, alts=None):
        """``characters``: seat -> a character of ``card_set`` (a CardSet) or None; ``alts``:
        seat -> the finisher it chose at the setup (seed 004 1.E)."""
        clock = clock or MonotonicClock()
        chars = {s: c for s, c in (characters or {}).items() if c is not None}
        now = clock.now_ms()
        try:
            game = ProfileGame(profile, players, chars, seed=seed, first=first, now_ms=now, alts=alts)
        except ProfileGameError as e:
            raise SessionError(str(e)) from None
        start = {"format": START_FORMAT,
                 "profile": {"id": profile.id, "hash": profile.hash, "body": profile.body},
                 "players": players, "seed": seed, "first": first, "alts": dict(alts or {}), "mono_ms": now,
                 "characters": {s: c for s, c in chars.items()},
                 "card_set": ({"id": card_set.id, "kind": card_set.kind} if card_set is not None and chars else None)}
        if names:
            start["names"] = names
        gid = store.new_game("profile", start, table)
        s = cls(store, gid, game, clock)
        s.publish_start([])
        return s

    @classmethod
    def resume(cls, store, game_id, clock=None):
        recs = store.records(game_id)
        start = recs[0].body
        if start.get("format") != START_FORMAT:
            raise SessionError("game %s's start record is not a profile game's (%r)" % (game_id, start.get("format")))
        profile = profiles.from_body(start["profile"]["body"])
        game = ProfileGame(profile, start["players"], start.get("characters") or {}, seed=start["seed"],
                           first=start.get("first"), now_ms=start.get("mono_ms") or 0, alts=start.get("alts"))
        s = cls(store, game_id, game, clock)
        for r in recs[1:]:
            if r.kind == "input":
                s._apply(r.seat, r.body["kind"], r.body.get("value"), r.mono_ms or 0)
                if r.hidden:
                    s._hidden[r.seq] = {"seat": r.seat, "value": r.body.get("value"), "nonce": r.body.get("nonce")}
            elif r.kind == "judge" and r.body.get("event") == "reveal":
                for q in r.body.get("reveals", []):
                    s._hidden.pop(q, None)
        s._revealed = False
        return s

    # ------------------------------------------------------------ input
    # ------------------------------------------------------------ the kernel's hooks (base.py submit)
    def _prepare(self, seat, kind, value, source, now):
        """``kind``: a seat's answer (``ready``: a hidden pick, from its own device only;
        ``ante``, ``priority``, ``end_turn``) or ``action`` (a table command mapping)."""
        if kind != "action":
            if seat not in self.seats:
                raise SessionError("seat must be one of %s, not %r" % (", ".join(self.seats), seat))
            if kind not in ANSWERS:
                raise SessionError("a %s game takes %s or action, not %r" % (self.profile.id, ", ".join(ANSWERS), kind))
            if kind == "ready" and source == "display":
                raise SessionError("a hidden pick is made only on the player's own pod")
        elif not isinstance(value, dict):
            raise SessionError("an action is a command mapping, e.g. {action: adjust, seat: a, counter: life, delta: -3}")
        return None

    def _snapshot(self):
        return self.game.checkpoint()

    def _step(self, prepared, seat, kind, value, source, now, seq):
        body = {"kind": kind, "value": value, "source": source}
        hidden = kind == "ready"
        if hidden:
            body["nonce"] = new_nonce()
        part = self.game.current_part(seat) if hidden else None
        winner_before = self.game.winner
        try:
            entries = self._apply(seat, kind, value, now)
        except ProfileGameError as e:
            raise SessionError(str(e)) from None
        items = [("input", body, seat, now, hidden)]
        hidden_now = dict(self._hidden)
        if hidden:
            hidden_now[seq] = {"seat": seat, "part": part, "value": value, "nonce": body["nonce"]}
            items.append(("judge", lock_entry("pick", self.game_id, seat, value, body["nonce"], now, seq, part=part),
                          seat, now, False))
        revealed = any(e["action"] == "reveal" for e in entries)
        if revealed:
            items.append(("judge", {"event": "reveal", "reveals": sorted(hidden_now),
                                    "picks": {str(q): v for q, v in sorted(hidden_now.items())}}, None, now, False))
        if entries:
            items.append(("result", {"entries": entries}, None, None, False))
        w = self.game.winner
        if w is not None and w != winner_before:
            items.append(("finish", {"winner": w, "turn": self.game.turn, "game": self.game.st["game"],
                                     "match_winner": self.game.match_winner()}, None, None, False))
        elif w is None and winner_before is not None:
            items.append(("reopen", {"turn": self.game.turn, "was": winner_before}, None, None, False))
        return Step(items, entries, book=(hidden_now, revealed))

    def _rollback(self, snapshot):
        self.game.rollback(snapshot)

    def _take(self, step, seat, kind, now):
        hidden_now, revealed = step.book
        self._hidden = {} if revealed else hidden_now
        self._revealed = revealed
        if kind != "action":
            self.answered[seat] += 1

    def _apply(self, seat, kind, value, now):
        if kind == "action":
            return self.game.perform(value, now)
        return self.game.answer(seat, kind, value, now)

    def tick(self, now=None):
        """No pick deadline in a profile game (the rule texts have none): nothing to expire."""

    def ready_status(self):
        return {s: {"locked": self.game.locked(s), "deadline_ms": None, "ms_left": None} for s in self.seats}

    def requests(self, seat):
        d = self.game.decision(seat)
        if d is None or d.get("locked"):
            return []
        return [{"player": seat, "kind": d["kind"], "options": list(d["options"]), "hidden": d["hidden"],
                 "part": d.get("part")}]

    def _publish(self, entries):
        self.version += 1
        self._happened = ([("reveal",)] if self._revealed else []) + (
            [("game_over", self.game.winner)] if self.game.winner is not None else [])
        self._revealed = False
        self._send("public", {"t": "state", "view": self.public_view(), "entries": entries})
        for seat in self.seats:
            self._send(seat, {"t": "you", "view": self.view_for(seat), "requests": self.requests(seat)})

    def public_view(self):
        v = public_view(self.game)
        v.update(mode="profile", name=self.profile.name, ready=self.ready_status(), game_id=self.game_id,
                 log=self.game.log[-10:], priority=self.game.priority)
        primary = self.profile.primary
        for s, d in v["seats"].items():
            d["health"] = d["counters"][primary["id"]] if primary else None
            fp = self.profile.pod_counter("fp")
            d["fp"] = d["counters"][fp["id"]] if fp else 0
            d["character"] = self._character_name(s)
        return v

    def view_for(self, seat):
        """A seat's own view: the public one and its own picks (its pod's channel only)."""
        v = self.public_view()
        v["mine"] = {"pick": dict(self.game.st["pick"][seat]) if self.profile.picks else {},
                     "clash_pick": (self.game.st.get("clash_pick") or {}).get(seat)}
        return v

    def _character_name(self, seat):
        ch = self.game.characters.get(seat)
        return ch["name"] if ch else self.profile.name["ko"]

    # ------------------------------------------------------------ the session interface (base.py)
    @property
    def winner(self):
        return self.game.winner

    @property
    def turn(self):
        return self.game.turn

    @property
    def priority(self):
        return self.game.priority

    @property
    def clock_defaults(self):
        return self.profile.clock_defaults()

    def side_of(self, seat):
        return self.game.team_of(seat)

    def seat_status(self, seat):
        hp = self.profile.pod_counter("hp")
        fp = self.profile.pod_counter("fp")
        hand = 0
        if self.profile.picks is not None:
            hand = sum(len(v) for p, v in self.game.st["hands"][seat].items() if p != self.game._alt_part())
        return SeatStatus(self.game.value(seat, fp["id"]) if fp else 0, self.game.value(seat, hp["id"]) if hp else 0,
                          hand, self._character_name(seat))

    def prompt(self, seat):
        """The seat's question: a hidden pick's available options (the ones in a discard
        pile or used are not offered: skipped slots), the lock while the others pick, the
        ante, who leads, the end of the turn."""
        d = self.game.decision(seat)
        if d is None:
            return NO_PROMPT
        if d["locked"]:
            return LOCKED
        return SeatPrompt(d["kind"], tuple(d["options"]), pass_value=d["pass"], hidden=d["hidden"])

    def labels(self, options):
        out = []
        for o in options:
            name = None
            for s in self.seats:
                card = self.game.by_id[s].get(o)
                if card is not None:
                    name = card["name"]
                    break
            if name is None:
                name = self._word(o)
            out.append(name)
        return out

    def _word(self, o):
        if o in self.seats:
            return "%s %s" % (self.profile.seat_info(o)["label"], self.profile.word("leader")["ko"])
        picks = self.profile.picks or {}
        if o == "clash" and picks.get("clash"):
            return picks["clash"]["name"]["ko"]
        if o == "ante" and picks.get("ante"):
            return picks["ante"]["name"]["ko"]
        if o in ("done", "pass"):
            return self.profile.word(o)["ko"]
        return str(o)

    def display_state(self, names):
        return profile_display(self, self.public_view(), names)

    def seat_change(self, old, new):
        return None

    def adjust_command(self, seat, what, value):
        page = POD_PAGES.get(what)
        if page is None:
            raise SessionError("unknown pod entry %r (one of %s)" % (what, ", ".join(POD_PAGES)))
        c = self.profile.pod_counter(page)
        if c is None:
            raise SessionError("%s keeps no counter on the pod's %s page" % (self.profile.name["en"], page.upper()))
        scale = c["pod_scale"]
        if what == "fp_set":
            return {"action": "set", "seat": seat, "counter": c["id"], "value": value}
        if value % scale:
            raise SessionError("the pod's step %d is not a whole number of %s (1 = %d)" % (value, c["id"], scale))
        return {"action": "adjust", "seat": seat, "counter": c["id"], "delta": value // scale}

    def check_display_decision(self, seat, kind, value):
        if kind == "ready":
            raise DecisionRefused(403, "hidden", "a hidden pick is made only on the player's own pod")
        if kind not in ANSWERS:
            raise DecisionRefused(422, "invalid_request", "a %s game takes %s here" % (self.profile.id,
                                                                                  ", ".join(a for a in ANSWERS if a != "ready")))

    def narrate(self, msg, lang):
        if msg.get("t") == "state":
            return ["   " + (e["text_ko"] if lang == "ko" else e["text_en"]) for e in msg.get("entries") or []]
        return []

    def log_tail(self, n):
        return self.game.log[-n:]

    def display_log(self):
        return [log_line(e) for e in self.game.log]

    def display_tail(self, n):
        return [log_line(e) for e in self.game.log[-n:]]


def start_characters(card_set, sides):
    """seat -> the card set's character (its cards, plain data) for ``sides`` (seat -> id or
    Korean name); raises SessionError naming an unknown one."""
    out = {}
    for seat, cid in (sides or {}).items():
        if cid is None:
            continue
        if card_set is None:
            raise SessionError("character %r needs card data: this profile has none loaded" % (cid,))
        try:
            out[seat] = card_set.character(cid)
        except KeyError as e:
            raise SessionError(str(e.args[0])) from None
    return out


def card_set_for(profile, set_id=None, known=None):
    """The card set a game of ``profile`` uses: ``set_id`` among ``known`` (id -> CardSet;
    default the bundled ones), or the first of the profile's kind, or None."""
    if profile.body["cards"] is None:
        return None
    sets = [s for s in (known if known is not None else card_sets.bundled()).values() if s.kind == profile.body["cards"]]
    if set_id is not None:
        for s in sets:
            if s.id == set_id:
                return s
        raise SessionError("no %s card set %r (card sets: %s)" % (profile.body["cards"], set_id,
                                                                  ", ".join(s.id for s in sets) or "none"))
    return sets[0] if sets else None
