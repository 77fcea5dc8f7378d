"""A table's game in referee mode: the engine, the durable record and the 10-second rule.

The session is the referee. Every accepted decision is committed to the store
before the session takes it or tells anyone; ``RefereeSession.resume`` rebuilds
the same state by replaying the record. The engine advances the state in place
(validated first: an illegal answer changes nothing); if the engine or the
record fails part-way, the state is rolled back (``_restore``). Hidden
information (which card a player readied) stays inside the session: listeners
get public messages, and each seat only its own private ones.

The 10-second rule (guide 3.10): when a player's ready reaches the hub it is
stamped with the monotonic clock (ms) and, if the opponent has not readied, the
opponent's deadline starts: stamp + 10 000 ms. A ready that reaches the hub
after deadline + ``LINK_ALLOWANCE_MS`` is too late; ``tick`` turns an expired
deadline into the engine's non-response input. The allowance covers the serial
link (a press at 9.99 s on the pod is on time): see docs/referee.md.

The judge log records, for every ready: time, seat and a SHA-256 commitment
to the locked card made at lock time (``H(game:seat:card:nonce)``); the reveal
publishes card and nonce so anyone can check the commitment from the record.
"""

import weakref
from functools import partial
from typing import NamedTuple

import engine
from engine import GameState, IllegalDecision, Views, apply_checked, check, explain, new_game, other
from engine.cards import parse_card, parse_character, raise_if

from hub.sessions.changes import Step
from hub.sessions.commit_reveal import commitment, lock_entry, new_nonce
from hub.sessions.base import (LINK_ALLOWANCE_MS, LOCKED_READY, NO_PROMPT, PASS_WORDS, READY_MS, DecisionRefused,
                               SeatPrompt, SeatStatus, SessionBase, SessionError)
from hub.sessions.lazy_message import LazyMessage
from hub.sessions.display.referee import RefereeDisplay, all_lines, tail_lines

#: decisions the table display (a judge's phone) may give in a referee game; the others are
#: answered on the player's own pod
DISPLAY_DECISIONS = {"get", "combo", "catch", "nullify", "choose", "pick", "discard"}
#: engine events the narration (lumen demo's printout) leaves out
QUIET_EVENTS = frozenset({"move", "ready_start", "battle_end", "fp_spent", "phase", "setup"})


CHECKPOINT_EVERY = 16     # decisions between two copies of the state kept for a rollback


def deck_json(deck):
    return {"character": deck["character"].to_json(), "cards": list(deck["cards"]), "ultimate": deck.get("ultimate")}


class RefereeSession(SessionBase):
    """One referee-mode game of one table."""

    mode = "referee"

    def __init__(self, store, game_id, state, clock=None):
        super().__init__(store, game_id, clock)
        # the state is advanced in place (no copy a decision): it stays the same object for the
        # whole game, and ``version`` counts its changes (what a cache of it must key on)
        self.state = state
        self.version = 0
        # a failed decision is rolled back by replaying the inputs taken since a checkpoint (a
        # copy of the state every CHECKPOINT_EVERY decisions: a short replay, see _restore)
        self._checkpoint = (0, state.copy())
        self._inputs = []
        self.log = []             # public events of this game, explained (ko/en)
        self._nonce = {}          # seat -> nonce of the current hidden ready
        self._texts = _texts_for(state.cards)   # an event's items -> its explanation (see _texts_for)
        self._views = Views()     # the engine's views of this game's states (see _engine_view)
        self._seen = (None, {})   # (version, {viewer: view}) of the current state
        self._unread = []         # weak references to this version's lazy messages (see _publish)
        self._display = RefereeDisplay()    # the display parts built last (hub/sessions/display/referee.py)
        self._standing = self._standings()  # seat -> (fp, health) at the last publish: a result's deltas

    # ------------------------------------------------------------ creation and resume
    @classmethod
    def new(cls, store, cards, deck_a, deck_b, seed=0, priority=None, clock=None, table="table-1", meta=None,
            action=None):
        start = {
            "format": "lumen-referee/1", "seed": seed, "priority": priority,
            "card_table": store.put_cards(cards.values()),   # stored once per content
            "decks": {"a": deck_json(deck_a), "b": deck_json(deck_b)},
            "meta": meta or {},
        }
        st, events = new_game(cards, deck_a, deck_b, seed=seed, priority=priority)
        items = [("result", {"events": events}, None, None, False)] if events else []
        gid = store.new_game("referee", start, table, action=action, items=items)
        s = cls(store, gid, st, clock)
        s._collect(events)
        s.publish_start(events)
        return s

    @classmethod
    def resume(cls, store, game_id, clock=None):
        """Rebuild the game by replaying its record (deterministic engine). A record cut by
        an older hub (an input committed without what it produced) is repaired: the missing
        judge, result and finish records are appended, marked ``repaired``."""
        recs = store.records(game_id)
        if not recs or recs[0].kind != "start":
            raise SessionError("game %s has no start record" % game_id)
        start = recs[0].body
        cards, decks = _rebuild(start, store)
        st, events = new_game(cards, decks["a"], decks["b"], seed=start["seed"], priority=start["priority"])
        s = cls(store, game_id, st, clock)
        s._collect(events)
        already = {r.body["repaired"]["input_seq"] for r in recs
                   if isinstance(r.body.get("repaired"), dict) and "input_seq" in r.body["repaired"]}
        repairs = []
        if events and not _produced(recs, 0):
            repairs += _mark([("result", {"events": events}, None, None, False)], 0)
        for i, r in enumerate(recs):
            if r.kind != "input":
                continue
            events = apply_checked(s.state, check(s.state, r.seat, r.body["kind"], r.body["value"]))
            items, book, _ = s._effects(r.seat, r.body["kind"], r.body["value"], r.body, r.seq, r.mono_ms or 0,
                                        s.state, events)
            s._take_decision(r.seat, r.body["kind"], events, book, value=r.body["value"])
            if items and r.seq not in already and not _produced(recs, i):
                repairs += _mark(items, r.seq)
        if repairs:
            store.append_many(game_id, repairs)
        # a hub restart never costs a player time: a pending deadline starts again in full
        s.deadline = {}
        if s.state.phase == "ready" and s.locked:
            now = s.clock.now_ms()
            for seat in s.locked:
                o = other(seat)
                if o not in s.locked and _asked(s.state, o, "ready"):
                    s.deadline[o] = now + READY_MS
        return s

    # ------------------------------------------------------------ decisions
    def requests(self, seat):
        return [dict(r) for r in self.state.pending if r["player"] == seat]

    # ------------------------------------------------------------ the kernel's hooks (base.py submit)
    def _prepare(self, seat, kind, value, source, now):
        if seat not in ("a", "b"):
            raise SessionError("seat must be a or b, not %r" % (seat,))
        if self.state.winner is not None:
            raise SessionError("the game is over (winner %s)" % self.state.winner)
        self.tick(now)
        if kind == "ready" and seat in self.deadline and now > self.deadline[seat] + LINK_ALLOWANCE_MS:
            raise SessionError("ready too late: the 10-second deadline passed (guide 3.10)")
        req = next((r for r in self.state.pending if r["player"] == seat
                    and (r["kind"] == kind or (r["kind"] == "ready" and kind == "timeout"))), None)
        if req is None:
            raise IllegalDecision("%s is not being asked for %s" % (seat, kind))
        if source == "display" and req.get("hidden"):
            raise SessionError("a hidden decision is answered only on the player's own pod")
        # validate before anything is written: an illegal answer changes nothing
        return req, check(self.state, seat, kind, value)

    def _step(self, prepared, seat, kind, value, source, now, seq):
        req, answer = prepared
        body = {"kind": kind, "value": value, "source": source}
        hidden = kind in ("ready", "setup", "replenish") or bool(req.get("hidden"))
        if kind == "ready":
            body["nonce"] = new_nonce()
        self._fill_unread()          # the messages still held get this state's views before it moves on
        events = apply_checked(self.state, answer)
        items, book, messages = self._effects(seat, kind, value, body, seq, now, self.state, events)
        return Step([("input", body, seat, now, hidden)] + items, events, messages, book)

    def _rollback(self, snapshot):
        self._restore()

    def _take(self, step, seat, kind, now):
        self._take_decision(seat, kind, step.result, step.book, value=step.records[0][1]["value"])

    def tick(self, now=None):
        """Apply a non-response for every deadline expired by ``now`` (the hub is the referee)."""
        now = self.clock.now_ms() if now is None else now
        for seat, deadline in sorted(self.deadline.items()):
            if now > deadline + LINK_ALLOWANCE_MS and _asked(self.state, seat, "ready"):
                del self.deadline[seat]
                expired = ("judge", {"event": "deadline_expired", "seat": seat, "deadline_ms": deadline,
                                     "now_ms": now}, seat, now, False)
                try:
                    self.submit(seat, "timeout", True, source="hub", at_ms=now, pre=[expired])
                except Exception:
                    self.deadline[seat] = deadline      # not recorded: try again at the next tick
                    raise

    # ------------------------------------------------------------ what a decision produces
    def _effects(self, seat, kind, value, body, seq, now, new_state, events):
        """The records, bookkeeping (locks, nonces, deadlines) and messages an accepted decision
        produces, computed without changing anything: the live path commits the records
        before it takes the rest; resume recomputes them to find and repair a cut record."""
        locked, nonce, deadline = dict(self.locked), dict(self._nonce), dict(self.deadline)
        items, messages = [], []
        if kind == "ready":
            nonce[seat] = body.get("nonce")
            locked[seat] = {"seq": seq, "stamp": now}
            deadline.pop(seat, None)
            items.append(("judge", lock_entry("ready", self.game_id, seat, value, body.get("nonce"), now, seq),
                          seat, now, False))
            o = other(seat)
            if o not in locked and _asked(new_state, o, "ready") and o not in deadline:
                deadline[o] = now + READY_MS
                items.append(("judge", {"event": "deadline_start", "seat": o, "deadline_ms": now + READY_MS},
                              o, now, False))
                messages.append((o, {"t": "opponent_ready", "deadline_ms": now + READY_MS,
                                     "ms_left": max(0, now + READY_MS - self.clock.now_ms())}))
            messages.append(("public", {"t": "ready_locked", "seat": seat}))
        elif kind == "timeout":
            deadline.pop(seat, None)
        if any(e["e"] == "reveal" for e in events):
            items.append(("judge", _reveal_body(self.game_id, events, locked, nonce), None, now, False))
            locked, deadline = {}, {}
        if new_state.phase != "ready":
            deadline = {}
        if events:
            items.append(("result", {"events": events}, None, None, False))
        if new_state.winner is not None:
            items.append(("finish", {"winner": new_state.winner, "turn": new_state.turn}, None, None, False))
        return items, (locked, nonce, deadline), messages

    def _take_decision(self, seat, kind, events, book, value):
        """A decision applied to the state (in place) and recorded: the session takes it."""
        self.version += 1
        self._inputs.append((seat, kind, value))
        if len(self._inputs) % CHECKPOINT_EVERY == 0:
            self._checkpoint = (len(self._inputs), self.state.copy())
        self.answered[seat] += 1
        self.locked, self._nonce, self.deadline = book
        self._collect(events)

    def _restore(self):
        """Put the state back as it was before the decision under way, after the engine or the
        record failed part-way: the inputs taken since the last checkpoint, replayed on a copy
        of it, give the same state (the engine is deterministic; resuming from the record
        relies on it too). Rare, so it costs a short replay (at most CHECKPOINT_EVERY - 1
        decisions: a full disk retried at every tick stays cheap) instead of a copy of the
        state at every decision. The state object stays the same: whoever holds it sees it
        restored."""
        taken, at = self._checkpoint
        st = at.copy()
        for seat, kind, value in self._inputs[taken:]:
            engine.apply(st, seat, kind, value, copy=False)
        for slot in GameState.__slots__:
            setattr(self.state, slot, getattr(st, slot))

    def _publish(self, events):
        self._happened = self._happenings_of(events) if events else []
        self._send("public", {"t": "state", "view": self.public_view(), "events": self.log[-len(events):] if events else []})
        for seat in ("a", "b"):
            # a seat's view is built only if a listener reads it (the pods' links don't)
            msg = LazyMessage({"t": "you", "view": None, "requests": self.requests(seat)}, "view",
                              partial(self._view_at, self.version, seat))
            self._unread.append(weakref.ref(msg))
            self._send(seat, msg)

    def _fill_unread(self):
        """Before the state moves on: the lazy messages a listener still holds get their view of
        this version (the others are gone: nothing to build)."""
        for ref in self._unread:
            msg = ref()
            if msg is not None:
                msg.fill()
        self._unread = []

    def _view_at(self, version, seat):
        if version != self.version:      # _fill_unread runs before any change: never reached
            raise SessionError("a view of state version %d asked at version %d" % (version, self.version))
        return self.view_for(seat)

    def _collect(self, events):
        texts = self._texts
        for e in events:
            try:
                key = tuple(e.items())
                text = texts.get(key)
            except TypeError:             # a list or dict among its values: explained each time
                key = text = None
            if text is None:
                text = explain(e, self.state.cards)
                if key is not None:
                    if len(texts) >= _TEXTS_KEPT:
                        texts.clear()
                    texts[key] = text
            self.log.append(dict(e, text=text))

    # ------------------------------------------------------------ the session interface (base.py)
    @property
    def winner(self):
        return self.state.winner

    @property
    def turn(self):
        return self.state.turn

    @property
    def priority(self):
        return self.state.priority

    @property
    def engine_state(self):
        return self.state

    def seat_status(self, seat):
        pl = self.state.players[seat]
        return SeatStatus(pl.fp, pl.health, len(pl.hand), pl.character.name)

    def prompt(self, seat):
        """The seat's first question that is not a setup (setups are answered by the hub:
        ``auto_setup``), or its locked ready while the reveal is awaited."""
        st = self.state
        for r in st.pending:        # read only
            if r["player"] == seat and r["kind"] != "setup":
                kind = r["kind"]
                opts = st.players[seat].hand if kind == "discard" else r["options"]
                if type(opts) is not list:
                    opts = []
                options = tuple(o for o in opts if o not in PASS_WORDS)
                pass_value = None
                if len(options) != len(opts):
                    pass_value = next(o for o in opts if o in PASS_WORDS)
                return SeatPrompt(kind, options, pass_value, r.get("count", 0) if kind == "discard" else 0,
                                  False, False, bool(r.get("hidden")))
        if seat in self.locked and st.phase == "ready":
            return LOCKED_READY
        return NO_PROMPT

    def labels(self, options):
        cards = self.state.cards
        out = []
        for o in options:
            ids = o if isinstance(o, list) else [o]
            out.append("+".join(cards[i].name if i in cards else str(i) for i in ids))
        return out

    def auto_setup(self, submit, openings=None):
        """Answer every pending setup (game start, sudden-death rebuild) through ``submit``
        (the table's, so the pods' inputs stay in order): with the seat's registered opening
        when ``openings`` has one, else with the deck's own order (:func:`deck_order_setup`).
        Pods have no way to pick 14 cards."""
        openings = openings or {}
        while True:
            r = next((r for r in self.state.pending if r["kind"] == "setup"), None)
            if r is None:
                return
            seat = r["player"]
            submit(seat, "setup", deck_order_setup(r, openings.get(seat)), source="hub")

    def display_state(self, names):
        return self._display.build(self, *self.display_view(), names)

    def seat_change(self, old, new):
        return self._display.seat_change(old, new)

    def check_display_decision(self, seat, kind, value):
        if kind not in DISPLAY_DECISIONS:
            raise DecisionRefused(403, "forbidden", "a %s is answered only on the player's own pod" % kind)
        req = next((r for r in self.state.pending if r["player"] == seat and r["kind"] == kind), None)
        if req is not None and req.get("hidden"):
            raise DecisionRefused(403, "forbidden", "a hidden decision is answered only on the player's own pod")

    def narrate(self, msg, lang):
        if msg.get("t") != "state":
            return []
        return narrate_events(self.state, msg.get("events") or [], lang)

    def log_tail(self, n):
        return self.log[-n:]

    def display_log(self):
        return all_lines(self.log)

    def display_tail(self, n):
        return tail_lines(self.log, n)

    def _standings(self):
        return {seat: (pl.fp, pl.health) for seat, pl in self.state.players.items()}

    def _happenings_of(self, events):
        """What a pod signals of ``events`` (in this order): the reveal, non-responses, each
        seat's result of a judgment (outcome, FP and health change since the last publish),
        sudden death, the game's end."""
        kinds = {e["e"] for e in events}
        out = []
        if "reveal" in kinds:
            out.append(("reveal",))
        if "non_response" in kinds:
            out += [("non_response", e["p"], e.get("count", 0)) for e in events if e["e"] == "non_response"]
        now = self._standings()
        if "judgment" in kinds:
            outcome = self.state.last_outcome or {}
            for seat in self.seats:
                (fp0, hp0), (fp, hp) = self._standing[seat], now[seat]
                out.append(("result", seat, outcome.get(seat), fp - fp0, hp - hp0))
        self._standing = now
        if "sudden_death" in kinds:
            out.append(("sudden_death",))
        if self.state.winner is not None and kinds & {"game_over", "win", "draw"}:
            out.append(("game_over", self.state.winner))
        return out

    # ------------------------------------------------------------ views
    def public_view(self):
        v = dict(self._engine_view(None))
        v["ready"] = self.ready_status()
        v["game_id"] = self.game_id
        v["mode"] = self.mode
        return v

    def display_view(self):
        """What the display reads: (the engine's public view, the ready status), as in
        ``public_view`` without its copy of the view's top level (read-only, shared with the
        published messages)."""
        return self._engine_view(None), self.ready_status()

    def view_for(self, seat):
        v = dict(self._engine_view(seat))
        v["ready"] = self.ready_status()
        return v

    def _engine_view(self, viewer):
        """The engine's view of the current state for a viewer, built once per state version
        and viewer, when first asked (the display reads the public one; a seat's only if a
        listener reads it); engine Views serializes the characters and rules once a game.
        Callers get a fresh top level (ready, game_id, mode are added per call) over shared,
        read-only contents."""
        version, views = self._seen
        if version != self.version:
            views = {}
            self._seen = (self.version, views)
        v = views.get(viewer)
        if v is None:
            v = views[viewer] = self._views.view(self.state, viewer)
        return v


#: ids of a game's Card objects -> (those objects, {an event's items: its explanation}). An
#: explanation depends on the event and the cards it names only, and the same Card objects
#: come back game after game (a card set is parsed once per file version): a third of a game's
#: events repeat within it, more across the games of a table. The objects are held here, so
#: their ids stay theirs. Explanations are shared: read them, never change them.
class CardTexts(NamedTuple):
    cards: list         # the Card objects, held so that their ids stay theirs
    texts: dict         # an event's items -> its explanation


_TEXTS: dict[tuple, CardTexts] = {}
_TEXTS_KEPT = 2048      # explanations kept per card table (~0.5 KB each; a table sees ~1,400 in 30 games)


def _texts_for(cards):
    key = tuple(map(id, cards.values()))
    hit = _TEXTS.get(key)
    if hit is None:
        if len(_TEXTS) >= 4:
            _TEXTS.clear()
        hit = _TEXTS[key] = CardTexts(list(cards.values()), {})
    return hit.texts


def deck_order_setup(request, opening=None):
    """A setup request's answer (guide 3.4.1: the hand, then the list): the seat's chosen
    ``opening`` ({hand, list}) if given, else the deck's own order: the first non-special
    cards form the hand, the next ones the list. The one place this is decided (the pods'
    automatic setup and the registered decks of the card page both come here)."""
    if opening and opening.get("hand"):
        return {"hand": list(opening["hand"]), "list": list(opening.get("list") or [])}
    pool, h, n = list(request["options"]), request["sizes"]["hand"], request["sizes"]["list"]
    return {"hand": pool[:h], "list": pool[h:h + n]}


def narrate_events(state, events, lang):
    """The lines ``lumen demo`` prints for ``events``: each event explained (with the rule),
    and a header with both seats' standing at each turn's start."""
    out = []
    for e in events:
        if e["e"] in QUIET_EVENTS:
            continue
        text = explain(e, state.cards)[lang]
        if e["e"] == "turn_start":
            pa, pb = state.players["a"], state.players["b"]
            hand = "패" if lang == "ko" else "hand"
            pri = "우선권" if lang == "ko" else "priority"
            out.append("")
            out.append("-- %s  [1P HP %d FP %+d %s %d | 2P HP %d FP %+d %s %d | %s %s]" % (
                text, pa.health, pa.fp, hand, len(pa.hand), pb.health, pb.fp, hand, len(pb.hand), pri,
                "1P" if state.priority == "a" else "2P"))
        else:
            out.append("   " + text)
    return out


def _asked(st, seat, kind):
    return any(r["player"] == seat and r["kind"] == kind for r in st.pending)


def _reveal_body(game_id, events, locked, nonces):
    rev = next(e for e in events if e["e"] == "reveal")
    cards = {"a": rev["a_card"], "b": rev["b_card"]}
    body = {"event": "reveal", "cards": cards, "nonces": {}, "reveals": [], "verified": True}
    for seat, lock in locked.items():
        nonce = nonces.get(seat)
        body["nonces"][seat] = nonce
        body["reveals"].append(lock["seq"])
        if cards[seat] is not None and nonce is not None:
            body.setdefault("commitments", {})[seat] = commitment(game_id, seat, cards[seat], nonce)
    return body


def _produced(recs, i):
    """Whether the record at index ``i`` (an input, or the start) is followed by what it
    produced: a judge, result or finish record before the next input. A deadline's expiry
    belongs to the timeout input after it, not to the input before."""
    for r in recs[i + 1:]:
        if r.kind == "input":
            return False
        if r.kind in ("result", "finish") or (r.kind == "judge" and r.body.get("event") != "deadline_expired"):
            return True
    return False


def _mark(items, input_seq):
    return [(kind, dict(body, repaired={"input_seq": input_seq}), seat, mono, hidden)
            for kind, body, seat, mono, hidden in items]


def start_cards(start, store):
    """A start record's card table: inline in records made before issue 16, else by hash."""
    if "cards" in start:
        return start["cards"]
    return store.card_table(start["card_table"])


def _rebuild(start, store):
    cards = {}
    for cd in start_cards(start, store):
        card, problems = parse_card(cd)
        raise_if(problems)
        cards[card.id] = card
    decks = {}
    for seat, d in start["decks"].items():
        ch, problems = parse_character(d["character"])
        raise_if(problems)
        decks[seat] = {"character": ch, "cards": d["cards"], "ultimate": d.get("ultimate")}
    return cards, decks
