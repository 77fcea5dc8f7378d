"""One table: its current game (referee or tracker), the match clock, the admin
token, recent games and match export. The web display, the pods and the CLI all
talk to a Table; it fans every change out to subscribers as
``(audience, message)`` with audience "public", "a" or "b" (``subscribe``), or as one
:class:`hub.sessions.changes.ChangeSet` a change (``subscribe_changes``: a decision's
messages together, what it did for the pods in ``happenings``; a message of the table's own,
such as the clock's, is a change set of one).

What a restart must bring back is in the record: which game is on the table (the
store's table log, written whenever a game is started or resumed) and the match clock
(its anchor, a ``timer`` record in the current game after every change, carried into
the next game when the table moves on).
"""

import contextlib
import logging
from dataclasses import replace
import secrets
import time

from engine.cards import load_sample

from hub.record.export import export_game
from hub.record.store import RecordUnwritable, public_start
from hub.record.token import TokenKeeper
from hub.sessions import roster
from hub.profiles import cards as profile_cards
from hub.profiles import profile as profiles
from hub.sessions.base import LINK_ALLOWANCE_MS, MonotonicClock, NotFound, SessionError
from hub.sessions.changes import ChangeSet
from hub.sessions.end_of_round import RoundEnd, profile_of
from hub.sessions.profile import ProfileSession, card_set_for, start_characters
from hub.sessions.referee import RefereeSession
from hub.sessions.summary import game_summary, session_summary
from hub.sessions.table_clock import TableClock, timer_for
from hub.sessions.timer import MatchTimer
from hub.sessions.tracker import TrackerSession

#: the session classes by the mode a game's record names
SESSIONS: dict[str, type[RefereeSession] | type[TrackerSession] | type[ProfileSession]] = {
    "referee": RefereeSession, "tracker": TrackerSession, "profile": ProfileSession}
SNAPSHOT_LOG = 40           # log entries in a snapshot (/api/state)
CLOSED_LOOKAHEAD = 30       # closed games the recent list may skip to fill its slots
log = logging.getLogger("lumen.table")


class WallClock:
    """Wall-clock milliseconds: the match clock's anchor must mean the same after a restart."""

    def now_ms(self):
        return time.time_ns() // 1_000_000


class Table(TableClock):
    """``clock``: the sessions' monotonic clock (the 10-second rule); ``wall``: the match
    clock's (defaults to ``clock`` when a test gives one, so one fake clock drives both).
    ``tokens``: a :class:`TokenKeeper` (where the admin token is kept); ``admin_token``
    alone gives one for this run only."""

    def __init__(self, store, name="table-1", clock=None, admin_token=None, wall=None, tokens=None):
        self.store = store
        self.name = name
        self.wall = wall or clock or WallClock()
        self.clock = clock or MonotonicClock()
        self.tokens = tokens or TokenKeeper(override=admin_token)
        self.timer = timer_for(None)
        self._timer_from_td = False     # the TD's round clock set it: a new game keeps its length
        self._clock_for = profiles.get("lumen").clock_defaults()    # the game whose defaults the clock has
        self._timer_undo = []           # [{"action", "before"}]: the judge's clock actions, newest last
        self._timer_seen = None         # (what a stopped clock's view was built from, the view)
        self._last_clock = None         # (action, monotonic ms) of the judge's last clock action
        self._summaries = {}            # game id -> ((id, record count), its summary): see games()
        self.session = None
        self.round_end = RoundEnd(self)     # time's procedure: extra turns counted, an undecided game decided
        self.names = {}                 # seat -> the player's name, as the game's start record keeps it
        self.meta = {}                  # the current game's start meta (decks, a bot's seat, coached seats)
        # the hub's bot player and coach (hub/bot), when the hub runs them: the display shows
        # ``coach.view()``; the table itself never calls either
        self.bot = None
        self.coach = None
        self.listeners = []
        self.change_listeners = []
        self.pods = None                # the pods' links while they serve (hub.pods.pod_hub.PodHub): drain()
        # setups nobody can enter on a pod (game start, sudden-death rebuild) answered by the
        # table with the deck's order (or a registered opening): on while pods serve the table
        self.auto_setup = False
        self._settling = False
        self._openings = {}             # seat -> the registered opening of the game on the table
        self._table_setups = False      # the table answers this game's setups (it was started from registered decks)
        self.registered = store.seat_decks(name)     # seat -> the deck registered for it (the card page)
        # the profile games' card data this table knows: the bundled sets and the players' own files
        self.card_sets = dict(profile_cards.bundled())

    @property
    def admin_token(self):
        return self.tokens.token

    @admin_token.setter
    def admin_token(self, token):
        """Changing the token stores it (when the table has a token file)."""
        self.tokens.change(token)

    # ------------------------------------------------------------ listeners
    def subscribe(self, fn):
        """fn(audience, message): every message, in order."""
        self.listeners.append(fn)

    def subscribe_changes(self, fn):
        """fn(change): each change once, after its messages went to ``subscribe``'s listeners:
        a session's decision as the session built it (its public state with the table's
        clock, as every listener sees it), a message of the table's own as a change of one."""
        self.change_listeners.append(fn)

    def _with_timer(self, audience, msg):
        # the audience first: a seat's message may be lazy (its get is Python), a public one never
        if audience == "public" and msg.get("t") == "state":
            return dict(msg, timer=self.timer_view())
        return msg

    def _relay(self, audience, msg):
        """A message of the table's own (or outside a session's change): a change of one."""
        self._deliver(ChangeSet(self.session.version if self.session is not None else 0,
                                messages=[(audience, self._with_timer(audience, msg))]))

    def _relay_change(self, change):
        """A session's change set: its public state joined by the table's clock, once."""
        if any(a == "public" and m.get("t") == "state" for a, m in change.messages):
            # the table's copy: the session's own change set stays as the session built it
            change = replace(change, messages=[(a, self._with_timer(a, m)) for a, m in change.messages])
        self._deliver(change)

    def _deliver(self, change):
        if self.listeners:
            for audience, msg in change.messages:
                for fn in list(self.listeners):
                    fn(audience, msg)
        for fn in list(self.change_listeners):
            fn(change)

    def announce(self, msg):
        """A public message from a part of the table (the pods' links: a refused pod claim)."""
        self._relay("public", msg)

    def attach_pods(self, pods):
        """The pods' links serve this table: the table's tick and submit take what the pods
        said first (``pods.drain()``), and setups are answered by the table (``auto_setup``)."""
        self.pods = pods
        self.auto_setup = True
        self._settle_setups()

    def detach_pods(self, pods):
        if self.pods is pods:
            self.pods = None

    def _settle_setups(self):
        """Answer the pending setups (``auto_setup`` on, or the game was started from
        registered openings): the session decides how (RefereeSession.auto_setup)."""
        s = self.session
        if s is None or self._settling or not (self.auto_setup or self._table_setups):
            return
        self._settling = True
        try:
            s.auto_setup(self.submit, self._openings)
        except SessionError as e:
            log.warning("automatic setup refused: %s", e)
        finally:
            self._settling = False

    def _attach(self, session, new=False, carry=True, auto=False):
        self.session = session
        self.names = self._names_in_record(session.game_id)
        self.meta = self._meta_in_record(session.game_id)
        self.store.set_current(self.name, session.game_id, auto=auto)
        if new and self.timer.state == "time":
            # a new game never inherits the last round's TIME: the clock waits for a round start
            self.timer = MatchTimer(self.timer.duration_ms, self.timer.extra_turns, self.timer.extra_ms,
                                    self.timer.finish_turn)
            self._timer_undo = []
        defaults = session.clock_defaults
        if new and self.timer.state == "idle" and not self._timer_from_td and defaults != self._clock_for:
            # another game: a clock that is not running takes the length and the end-of-round
            # procedure of its profile (a judge's settings for the same game's last round stay)
            self.timer = timer_for(session)
        elif new and self._timer_from_td and defaults != self._clock_for and self.timer.state != "time":
            # a tournament's clock: the TD's length and extra turns, the game's own extra time
            proc = profile_of(session).procedure()
            self.timer.procedure(None, proc["extra_ms"], proc["finish_turn"])
        self._clock_for = defaults
        self.round_end.attach(session)
        if carry and (self._timer_undo or self.timer.to_json() != timer_for(session).to_json()):
            # the table's clock goes on with the table: the new game's record holds it from now
            self._record_timer("carry", None, history=True)
        session.subscribe_changes(self._relay_change)
        # the game on the table, and its state: one change (no decision: nothing happened for the pods)
        self._deliver(ChangeSet(session.version, messages=[
            ("public", {"t": "game", "game_id": session.game_id, "mode": session.mode}),
            ("public", self._with_timer("public", {"t": "state", "view": session.public_view(), "events": []}))]))
        self._settle_setups()
        return session

    # ------------------------------------------------------------ decks registered for the seats
    def register_deck(self, seat, entry):
        """Register a deck for a seat (the card page: set, deck, its name, and an opening
        hand + list or none), kept in the record's table log so a restart keeps it. Admin
        only until the game starts: the opening is hidden information."""
        if seat not in ("a", "b"):
            raise SessionError("seat must be a or b, not %r" % (seat,))
        self.store.register_seat_deck(self.name, seat, entry)
        self.registered = dict(self.registered, **{seat: dict(entry)})
        return self.registered
    # ------------------------------------------------------------ games
    def start(self, mode, a=None, b=None, seed=None, priority=None, names=None, auto=False, profile=None,
              players=None, sides=None, card_set=None, meta=None):
        """A new game in ``mode`` (``referee``: sample deck ids, default serin vs gangcheol;
        ``tracker``: roster characters, default the generic one; ``profile``: the game
        ``profile`` (an id, hub/profiles/data/) with ``players`` seats, ``sides`` seat ->
        card-data character (``a``/``b`` too), ``priority``: who goes first). Unknown decks or
        characters raise :class:`NotFound` before anything is written. ``meta``: kept in a
        referee game's start record (a bot's seat and level, the coached seats: hub/bot)."""
        if meta and mode != "referee":
            raise SessionError("a bot and the coach play referee games only (they need the cards)")
        if mode == "profile":
            sides = dict(sides or {})
            for seat, v in (("a", a), ("b", b)):
                if v is not None:
                    sides.setdefault(seat, v)
            return self.start_profile(profile or "battlecon", players=players, sides=sides, seed=seed, first=priority,
                                      names=names, auto=auto, card_set=card_set)
        if mode == "referee":
            return self.start_referee(a or "serin", b or "gangcheol", seed=seed, priority=priority, names=names,
                                      auto=auto, meta=meta)
        if mode == "tracker":
            return self.start_tracker(a or "generic", b or "generic", seed=seed, priority=priority, names=names,
                                      auto=auto)
        raise SessionError("mode must be one of %s, not %r" % (", ".join(SESSIONS), mode))

    def start_referee(self, deck_a="serin", deck_b="gangcheol", seed=None, priority=None, auto=False, names=None,
                      openings=None, meta=None):
        """A referee game with two decks (sample decks by character id, or Deck objects).
        ``auto``: the hub opens it by itself (not listed while nothing is entered).
        ``openings``: seat -> {hand, list} answering that seat's setup (registered decks)."""
        cs, decks = load_sample()
        da = decks.get(deck_a) if isinstance(deck_a, str) else deck_a
        db = decks.get(deck_b) if isinstance(deck_b, str) else deck_b
        if da is None or db is None:
            raise NotFound("unknown deck %r (sample decks: %s)" % (deck_a if da is None else deck_b, ", ".join(sorted(decks))))
        if priority not in (None, "a", "b"):
            raise SessionError("priority must be a, b or null")
        seed = secrets.randbits(32) if seed is None else seed
        cards = dict(da.cardset.cards)
        cards.update(db.cardset.cards)
        names = _names(names)
        s = RefereeSession.new(self.store, cards, da.as_game_deck(), db.as_game_deck(), seed=seed,
                               priority=priority, clock=self.clock, table=self.name,
                               meta=dict({"decks": {"a": da.name, "b": db.name}}, **({"names": names} if names else {}),
                                         **(meta or {})))
        self._openings = {seat: o for seat, o in (openings or {}).items() if o is not None}
        self._table_setups = openings is not None
        return self._attach(s, new=True, auto=auto)

    def start_tracker(self, a="generic", b="generic", seed=None, priority=None, auto=False, names=None):
        seed = secrets.randbits(32) if seed is None else seed
        for side in (a, b):
            try:
                roster.get(side)
            except roster.UnknownCharacter:
                raise NotFound("unknown character %r (roster ids: %s)"
                               % (side, ", ".join(c.id for c in roster.ROSTER))) from None
        self._openings, self._table_setups = {}, False
        try:
            s = TrackerSession.new(self.store, a, b, seed=seed, priority=priority, clock=self.clock, table=self.name,
                                   names=_names(names))
        except Exception as e:   # an unknown character names itself
            raise SessionError(str(e)) from None
        return self._attach(s, new=True, auto=auto)

    def start_profile(self, profile_id, players=None, sides=None, seed=None, first=None, names=None, auto=False,
                      card_set=None):
        """A game of another game's profile (hub/profiles/: ``battlecon``, ``yojeong``,
        ``gundam``). ``sides``: seat -> a character of the profile's card set (``card_set``:
        its id, or a CardSet; default the first bundled one of the profile's kind), for the
        names and priorities of the cards; none: the profile's own options."""
        try:
            prof = profiles.get(profile_id) if isinstance(profile_id, str) else profile_id
        except KeyError as e:
            raise NotFound(str(e.args[0])) from None
        if prof.rules != "profile":
            raise SessionError("profile %s is played in %s mode, not as a profile game" % (prof.id, prof.rules))
        players = players or prof.players[0]
        if players not in prof.players:
            raise SessionError("%s is played by %s seats, not %r" % (prof.id, " or ".join(map(str, prof.players)), players))
        cs = card_set if card_set is None or not isinstance(card_set, str) else None
        if cs is not None:
            self.card_sets.setdefault(cs.id, cs)        # the players' own file: listed from now on
        elif any(v is not None for v in (sides or {}).values()):
            cs = card_set_for(prof, card_set if isinstance(card_set, str) else None, self.card_sets)
        chars = start_characters(cs, {k: v for k, v in (sides or {}).items() if k in prof.seats(players)})
        seed = secrets.randbits(32) if seed is None else seed
        self._openings, self._table_setups = {}, False
        s = ProfileSession.new(self.store, prof, players, chars, seed=seed, first=first, clock=self.clock,
                               table=self.name, names=_names(names), card_set=cs)
        return self._attach(s, new=True, auto=auto)

    def resume(self, game_id):
        g = self.store.game(game_id)
        if g is None:
            raise SessionError("no game %r" % (game_id,))
        cls = SESSIONS.get(g["mode"])
        if cls is None:
            raise SessionError("game %s is a %r game, which this hub does not know" % (game_id, g["mode"]))
        s = cls.resume(self.store, game_id, clock=self.clock)
        if self._closed(game_id):
            self.store.append(game_id, "note", {"event": "reopened", "by": "judge"}, mono_ms=self.clock.now_ms())
        self._openings = self._registered_openings(game_id)
        self._table_setups = bool(self._openings)
        restart = self.session is None
        if restart:
            # a restart: the clock comes back from the record (resuming another game from the
            # display keeps the table's clock running as it is, and carries it into that game)
            self._restore_timer(game_id)
        return self._attach(s, carry=not restart)

    def _registered_openings(self, game_id):
        """A game started from the registered decks, resumed before its setups were answered
        (a restart at that moment): the registered openings still answer them."""
        start = self.store.records(game_id, kinds=("start",))
        reg = ((start[0].body.get("meta") or {}).get("registered") or {}) if start else {}
        out = {}
        for seat, ref in reg.items():
            e = self.registered.get(seat)
            if e and e.get("hand") and (e.get("set"), e.get("deck")) == (ref.get("set"), ref.get("deck")):
                out[seat] = {"hand": e["hand"], "list": e["list"]}
        return out

    def _names_in_record(self, game_id):
        start = self.store.records(game_id, kinds=("start",))
        body = start[0].body if start else {}
        return dict(body.get("names") or (body.get("meta") or {}).get("names") or {})

    def bot_seats(self):
        """The seats the current game's start record gives the hub's bot (``meta["bot"]``,
        hub/bot/meta.py): no pod sits there."""
        b = (self.meta or {}).get("bot") if self.session is not None else None
        return {b["seat"]} if isinstance(b, dict) and b.get("seat") in ("a", "b") else set()

    def _meta_in_record(self, game_id):
        start = self.store.records(game_id, kinds=("start",))
        return dict((start[0].body.get("meta") or {}) if start else {})

    def resume_current(self):
        """After a restart: the game that was on this table (its table log), else, for a
        record written before the table log, the newest unfinished one. None if neither."""
        gid = self.store.current_game(self.name)
        if gid is not None and self.store.game(gid) is not None:
            return self.resume(gid)
        g = self.store.latest_unfinished(self.name)
        return self.resume(g["id"]) if g else None

    resume_latest = resume_current

    def games(self, limit=10):
        """The recent games, newest first, each with what was played (``summary``: characters
        as played, names, health, turn); a game the judge closed is left out (issue 22 point 8),
        unless it is the one on the table."""
        keep = (self.session.game_id,) if self.session is not None else ()
        out = []
        for g in self.store.games(limit + CLOSED_LOOKAHEAD, self.name, keep=keep):
            if g["id"] not in keep and self._closed(g["id"]):
                continue
            out.append(dict(g, start=public_start(g["start"] or {}), summary=self._summary(g)))
            if len(out) == limit:
                break
        return out

    def _summary(self, g):
        if self.session is not None and g["id"] == self.session.game_id:
            return session_summary(self.session, self.names)
        key = (g["id"], g["records"])
        hit = self._summaries.get(g["id"])
        if hit is None or hit[0] != key:
            hit = self._summaries[g["id"]] = (key, game_summary(self.store, g))
        return hit[1]

    def _closed(self, game_id):
        """Whether the judge closed the game (a ``note`` record) and did not resume it since."""
        closed = False
        for r in self.store.records(game_id, kinds=("note",)):
            if r.body.get("event") in ("closed", "reopened"):
                closed = r.body["event"] == "closed"
        return closed

    def close_game(self, game_id):
        """Close a game nobody will finish (it leaves the recent games; its record stays, and
        resuming it opens it again). Not the one on the table: start or resume another first."""
        if self.store.game(game_id) is None:
            raise NotFound("no game %r" % (game_id,))
        if self.session is not None and self.session.game_id == game_id:
            raise SessionError("game %s is on the table: start or resume another game before closing it" % game_id)
        if not self._closed(game_id):
            self.store.append(game_id, "note", {"event": "closed", "by": "judge"}, mono_ms=self.clock.now_ms())

    # ------------------------------------------------------------ input
    def submit(self, seat, kind, value=True, source="pod", at_ms=None):
        """A decision for the current game. ``at_ms``: when it reached the hub (a pod's ready is
        stamped on arrival by the pod links), else now, after what the pods said before it."""
        if self.session is None:
            raise SessionError("no game is running at this table")
        if at_ms is None and self.pods is not None:
            at_ms = self.pods.drain()
            if self.session is None:
                raise SessionError("no game is running at this table")
        decided = self.round_end.decided
        # a game decided at time takes no more play; a tracker's entries may still be corrected
        if decided is not None and self.session.winner is None and not (self.session.takes_actions and kind == "action"):
            raise SessionError("the game was decided at time (%s): start the next game" % decided["winner"])
        with self._reporting():
            out = self.session.submit(seat, kind, value, source=source, at_ms=at_ms)
            self.round_end.after_change()
        self._settle_setups()
        return out

    def tick(self, now=None):
        """The match clock, and the ready deadlines expired by ``now`` (default: now, once
        everything the pods said until now is applied, so no ready that reached the hub in
        time is ruled late because the table's thread was busy: issue 11.1)."""
        if now is None and self.pods is not None:
            now = self.pods.drain()
        with self._reporting():
            if self.timer.update(self.wall.now_ms()):
                self._timer_changed("time", by="hub")
                self.round_end.after_change()
            if self.session is not None:
                self.session.tick(now)
                self.round_end.after_change()
        self._settle_setups()

    def next_due_in_ms(self):
        """How long until ``tick`` has something to do (ms), or None: the earliest 10-second
        deadline past its link allowance, or the end of the running match clock. Until then a
        tick changes nothing, so nobody needs to call it (issue 16: no work per idle tick)."""
        due = []
        if self.timer.state == "running":
            due.append(self.timer.left(self.wall.now_ms()))
        if self.session is not None and self.session.deadline:
            now = self.clock.now_ms()
            due += [d + LINK_ALLOWANCE_MS + 1 - now for d in self.session.deadline.values()]
        return max(0, min(due)) if due else None

    @contextlib.contextmanager
    def _reporting(self):
        """A write the record refused changed nothing; the page and the pods' log hear why."""
        try:
            yield
        except RecordUnwritable as e:
            self._relay("public", {"t": "record_error", "error": e.to_json()})
            raise

    def claim_action(self, action_id):
        """A control action is applied once: a replayed id is refused (idempotency key).
        ``with table.claim_action(id): ...``: the id is kept in the record with what the
        action wrote (one transaction), so it stays spent across a kill -9 and resume; an
        action refused inside the block spends nothing."""
        if not isinstance(action_id, str) or not 8 <= len(action_id) <= 80:
            raise SessionError("action_id must be a string of 8-80 characters")
        if self.store.action_spent(action_id):
            raise SessionError("action %s was already applied" % action_id)
        return self.store.spending(self.name, action_id)

    # ------------------------------------------------------------ views and export
    def snapshot(self):
        out = {"table": self.name, "timer": self.timer_view(), "mode": None, "view": None, "log": []}
        if self.session is not None:
            out["mode"] = self.session.mode
            out["view"] = self.session.public_view()
            out["log"] = self.session.log_tail(SNAPSHOT_LOG)
        return out

    def export(self, game_id):
        """A match as JSON (hub/record/export.py)."""
        g = self.store.game(game_id)
        if g is None:
            raise SessionError("no game %r" % (game_id,))
        return export_game(self.store, game_id, g)


def _names(names):
    """Player names per seat: trimmed, empty ones left out; None when there are none."""
    if not names:
        return None
    if not isinstance(names, dict) or set(names) - {"a", "b", "c", "d"}:
        raise SessionError("names map seats (a, b, and c, d at a four-seat table) to player names")
    out = {s: " ".join(str(n).split())[:40] for s, n in names.items() if n and str(n).strip()}
    return out or None
