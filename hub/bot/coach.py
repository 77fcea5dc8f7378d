"""The coach for learners: after each reveal, what the search thought of the ready.

On in a game whose start record lists coached seats (``meta["coach"]``, hub/bot/seat.py
``practice_meta``; off unless asked for, and never by default in a tournament). For each
coached seat played by a person, the seat's view is kept (JSON text) when its ready is asked;
once the readies are revealed, the thinking process searches that view (what the player
could see then, nothing more) and ``engine.bots.coach.explain_choice`` says, in Korean and
English, what mix the search would have played, what the card the player chose was worth
against the best one, and why, citing the rule. For a seat the hub's bot plays, the bot's own
thought is kept from its decision and shown at the same moment.

Nothing of it exists in public before the reveal: a person's analysis starts after it, and
a bot's thought waits here, unpublished, until then. ``view()`` is what the display shows
(hub/web/display.py); a change is announced to the table's public listeners as a
``{"t": "coach"}`` message, which tells the display to rebuild.
"""

import asyncio
import json
import logging

from engine.bots import seat_view

from hub.bot.questions import job_seed, question_key, turns_left
from hub.bot.meta import bot_of
from hub.bot.worker import ThinkWorker, WorkerGone, card_table

log = logging.getLogger("lumen.bot")

HIDDEN_KINDS = ("ready", "setup", "replenish")      # decisions recorded hidden (hub/sessions/referee.py)


class Coach:
    """The coach of one table. ``level``/``budget``/``iterations``: the search's (strong by
    default). ``worker``: its own thinking process (not the bot's: the bot must not wait)."""

    def __init__(self, table, worker=None, level="strong", budget=None, iterations=None):
        self.table = table
        self.worker = worker or ThinkWorker(name="lumen-coach")
        self.level = level
        self.budget = budget
        self.iterations = iterations
        self.loop = None
        self._game = None
        self._cards = (None, None)
        self.entries = []             # what the display shows: the last reveal's, then that turn's decisions
        self.turn = None              # the turn of the last reveal
        self.battle = None            # its number among the game's reveals (1, 2, ...; a turn may have two)
        self.reveals = 0              # reveals in the game so far
        self.thinking = []            # seats whose analysis of the last reveal is still running
        self.asked = {}               # seat -> (question key, view JSON, battle number) of its ready as asked
        self.missed = set()           # seats that did not respond in this ready phase (guide 3.10)
        self.held = {}                # seat -> a bot's entry for its ready, shown at the reveal
        self.analysed = 0             # analyses shown (a person's readies)
        self.own = set()              # seats whose thoughts are handed in (the demo's search-played pods)
        table.coach = self
        table.subscribe(self._on_table)

    async def run(self, _display=None):
        """Nothing to do on a timer: the coach's task only keeps its process closed with it."""
        self.loop = asyncio.get_running_loop()
        try:
            await asyncio.Event().wait()
        finally:
            self.worker.close()

    # ------------------------------------------------------------ what is coached
    def seats(self):
        s = self.table.session
        if s is None or s.engine_state is None:
            return ()
        return tuple(x for x in (self.table.meta or {}).get("coach") or () if x in ("a", "b"))

    def _bots(self):
        """Seats a search plays (the hub's bot, the demo's pods): their own thoughts are shown."""
        who = bot_of(self.table.meta)
        return self.own | ({who[0]} if who else set())

    def view(self):
        """The display's part (public, JSON): None when the game is not coached."""
        seats = self.seats()
        if not seats:
            return None
        return {"seats": list(seats), "turn": self.turn, "battle": self.battle, "entries": list(self.entries),
                "thinking": list(self.thinking)}

    # ------------------------------------------------------------ the table's messages
    def _on_table(self, audience, msg):
        if audience != "public":
            return
        t = msg.get("t")
        s = self.table.session
        if s is None:
            return
        if self._game != s.game_id:
            self._game = s.game_id
            self.entries, self.turn, self.battle, self.thinking, self.asked, self.held = [], None, None, [], {}, {}
            self.missed = set()
            # a resumed game: its reveals so far (the published events come on top of these)
            self.reveals = sum(1 for e in s.log_tail(1 << 30) if e.get("e") == "reveal")
            if t == "state":
                self.reveals -= sum(1 for e in msg.get("events") or () if e.get("e") == "reveal")
        if t != "state" or not self.seats():
            return
        events = msg.get("events") or ()
        # a non-response (guide 3.10) comes before its reveal, perhaps in an earlier message (the
        # opponent's pick is asked in between): the card revealed for that seat is not its choice
        self.missed.update(e.get("p") for e in events if e.get("e") == "non_response")
        reveal = next((e for e in events if e.get("e") == "reveal"), None)
        if reveal is not None:
            self._revealed(s, reveal)
        self._keep_asked(s)

    def _keep_asked(self, s):
        """A coached person's ready, as they see it when it is asked (kept, never shown)."""
        st = s.engine_state
        bots = self._bots()
        for seat in self.seats():
            if seat in bots:
                continue
            req = next((r for r in st.pending if r["player"] == seat and r["kind"] == "ready"), None)
            if req is None:
                continue
            key = question_key(s, seat, req)
            if self.asked.get(seat, (None,))[0] != key:
                self.asked[seat] = (key, json.dumps(seat_view(st, seat), ensure_ascii=False), self.reveals + 1)

    def _revealed(self, s, reveal):
        st = s.engine_state
        self.turn = st.turn
        self.reveals += 1
        self.battle = self.reveals
        self.entries, self.thinking = [], []
        if self.loop is None:
            try:
                self.loop = asyncio.get_running_loop()      # the table's: analyses come back to it
            except RuntimeError:
                pass
        bots = self._bots()
        missed, self.missed = self.missed, set()
        for seat in self.seats():
            chosen = reveal.get("%s_card" % seat)
            picked = seat in missed
            if seat in bots:
                entry = self.held.pop(seat, None)
                if entry is not None and entry["battle"] == self.battle:
                    self.entries.append(entry)
                continue
            asked = self.asked.pop(seat, None)
            if asked is None:
                continue
            key, view, battle = asked
            if battle != self.battle:
                continue                  # asked before another battle (a ready phase cut short): stale
            self.thinking.append(seat)
            job = {"op": "coach", "view": view, "seat": seat, "kind": "ready", "seed": job_seed(key, seat),
                   "level": self.level, "budget": self.budget, "iterations": self.iterations, "chosen": chosen,
                   "picked": picked, "turns_left": turns_left(self.table)}
            fut = self.worker.submit(job, self._card_table(s))
            fut.add_done_callback(lambda f, seat=seat, gid=s.game_id, battle=battle, chosen=chosen, picked=picked:
                                  self._call_soon(self._analysed, f, seat, gid, battle, chosen, picked))
        self.table.announce({"t": "coach", "turn": self.turn, "battle": self.battle})

    def _card_table(self, s):
        gid, table = self._cards
        if gid != s.game_id:
            table = card_table(s.engine_state.cards)
            self._cards = (s.game_id, table)
        return table

    def _call_soon(self, fn, *args):
        loop = self.loop
        if loop is None:
            fn(*args)                   # no loop was ever seen: a table driven by hand (tests)
            return
        try:
            loop.call_soon_threadsafe(fn, *args)
        except RuntimeError:            # the loop closed (the hub is stopping): nobody will show it
            pass

    def _analysed(self, fut, seat, gid, battle, chosen, picked=False):
        """A person's analysis is back (on the table's loop)."""
        s = self.table.session
        if s is None or s.game_id != gid or battle != self.battle:
            return                    # another game, or the next reveal came first: stale
        if seat in self.thinking:
            self.thinking.remove(seat)
        try:
            res = fut.result()
        except WorkerGone as e:
            res = {"ok": False, "error": str(e)}
        if res.get("ok") and res.get("thought"):
            who = "picked" if picked else "player"
            self.entries.append(_entry(seat, who, self.turn, battle, res["thought"], res.get("coach"), chosen))
            self.analysed += 1
        else:
            log.info("no coach line for %s at battle %s: %s", seat, battle, res.get("why") or res.get("error"))
        self.table.announce({"t": "coach", "turn": self.turn, "battle": battle})

    # ------------------------------------------------------------ the bot's own thoughts
    def bot_decided(self, session, seat, q):
        """The hub's bot is about to give an answer it searched (``q.answer``): a ready's
        thought is held until the reveal (which may come with this very answer); hidden
        decisions are never shown."""
        if seat not in self.seats() or q.thought is None or q.kind != "ready":
            return
        self.held[seat] = _entry(seat, "bot", session.engine_state.turn, self.reveals + 1, q.thought, None, q.answer[1])

    def bot_refused(self, seat):
        self.held.pop(seat, None)

    def bot_applied(self, session, seat, q):
        """The hub's bot's public decision (a get, a combo, ...) was applied: what it thought."""
        if seat not in self.seats() or q.thought is None or q.kind in HIDDEN_KINDS or q.hidden:
            return
        # a decision after a reveal (a get, a combo, ...) goes with that reveal's lines
        if self.battle is not None:
            self.entries.append(_entry(seat, "bot", session.engine_state.turn, self.battle, q.thought, None, q.answer[1]))
            self.table.announce({"t": "coach", "turn": self.turn, "battle": self.battle})


def _entry(seat, who, turn, battle, thought, line, chosen):
    """One coach entry (JSON): the options by value with the mix, the choice, the best one and
    the sentence. ``who``: "player" (a person's ready, graded), "picked" (the opponent picked the
    card after the person's non-response, guide 3.10: not graded) or "bot". ``line`` is
    ``explain_choice``'s (a person's), else the thought's own explanation (a bot's)."""
    ex = line or thought.get("explanation") or {}
    opts = thought["options"]
    rows = [{"option": o, "mix": m, "value": v} for o, m, v in zip(opts, thought["mix"], thought["values"])]
    rows.sort(key=lambda r: -(r["value"] if r["value"] is not None else -1.0))
    chosen_value = ex.get("chosen_value")
    if chosen_value is None and chosen in opts:
        chosen_value = thought["values"][opts.index(chosen)]
    return {"seat": seat, "who": who, "kind": thought["kind"], "turn": turn, "battle": battle, "chosen": chosen,
            "best": ex.get("best"), "best_value": ex.get("best_value"), "chosen_value": chosen_value,
            "loss": ex.get("loss"), "rule": ex.get("rule"), "options": rows,
            "text": {"ko": ex.get("ko"), "en": ex.get("en")}, "iterations": thought.get("iterations")}

