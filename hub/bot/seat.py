"""The hub's bot at a table: it plays the seat the current game's start record gives it.

A referee game started with ``meta["bot"] = {"seat": "b", "level": "strong"}`` (``lumen hub
--bot b``, the admin page's practice game: :func:`practice_meta`) has its seat played here,
and a restart that resumes the game resumes the bot with it (the start record says so).
The bot answers like a pod: ``table.submit(seat, kind, value, source="bot")`` on the table's
loop, so its ready is locked, hidden, committed and revealed exactly as a pod's, under the
same 10-second deadline, stamped by the table's clock when it locks. Its thinking happens in
a :class:`~hub.bot.worker.ThinkWorker` process that gets the seat's view as JSON and nothing
else; the loop only sends the question and, when the answer is back, submits it.

Pace: a ready is locked ``pace_ms`` after it was asked at the earliest (people at the table
see the bot "think" as they would a person), any other decision ``step_ms`` after. When the
bot's own 10 seconds run (the player readied first) and the search has not answered
``SAFETY_MS`` before the deadline, the bot locks the greedy default instead and restarts its
thinking process: a slow search never becomes a non-response.
"""

import asyncio
import logging

from engine import IllegalDecision

from hub.bot.meta import bot_of
from hub.bot.questions import Questions, turns_left
from hub.bot.worker import ThinkWorker
from hub.sessions.base import SessionError

log = logging.getLogger("lumen.bot")

SAFETY_MS = 1500          # a ready still undecided this close to its deadline gets the greedy default


class BotSeat:
    """Plays the bot's seat of whatever game is on ``table`` (none: it waits). ``defaults``:
    what a practice game started from the admin page offers (the hub's ``--bot`` options).
    ``budget`` (estimated instructions) or ``iterations`` overrides the level's budget."""

    def __init__(self, table, worker=None, pace_ms=2000, step_ms=700, budget=None, iterations=None, defaults=None,
                 coach=None):
        self.table = table
        self.worker = worker or ThinkWorker(name="lumen-bot")
        self.questions = Questions(self.worker, budget=budget, iterations=iterations)
        self.pace_ms = pace_ms
        self.step_ms = step_ms
        self.defaults = dict(defaults or {"seat": "b", "level": "strong", "coach": True})
        self.coach = coach
        self.submitted = 0            # decisions the bot gave
        self.fallbacks = 0            # of those, greedy ones because the search was late or failed
        self.loop = None
        self._wake = None
        table.bot = self

    # ------------------------------------------------------------ the loop
    async def run(self, _display=None):
        """The bot's task on the table's loop (hub/web's tasks): look whenever the table changes
        or a pace or deadline falls due."""
        self.loop = asyncio.get_running_loop()
        self._wake = asyncio.Event()
        self.table.subscribe_changes(self._on_change)
        try:
            while True:
                self._wake.clear()
                try:
                    wait = self.step()
                except Exception:
                    log.exception("the bot's step failed")
                    wait = 1.0
                try:
                    await asyncio.wait_for(self._wake.wait(), wait)
                except asyncio.TimeoutError:
                    pass
        finally:
            self.worker.close()

    def _on_change(self, change):
        if any(a == "public" for a, _ in change.messages):
            self.wake()

    def wake(self):
        """Look again soon (from any thread)."""
        loop, ev = self.loop, self._wake
        if loop is not None and ev is not None and not loop.is_closed():
            try:
                loop.call_soon_threadsafe(ev.set)
            except RuntimeError:        # the loop closed just now (the hub is stopping)
                pass

    def seat(self):
        """(seat, level) of the bot in the game on the table, or None."""
        s = self.table.session
        if s is None or s.engine_state is None or s.winner is not None:
            return None
        return bot_of(self.table.meta)

    def step(self):
        """One look at the table: send a new question to the thinking process, or give a
        decided answer whose time has come. Returns the seconds until it must look again
        (None: only when woken)."""
        who = self.seat()
        if who is None:
            self.questions.current.clear()
            return None
        seat, level = who
        s = self.table.session
        now = self.table.clock.now_ms()
        q = self.questions.look(s, seat, now, self.wake, level=level, skip=() if not self.table.auto_setup else ("setup",),
                                turns_left=turns_left(self.table))
        if q is None or q.failed == "refused":
            return None
        due = q.asked_ms + (self.pace_ms if q.kind == "ready" else self.step_ms)
        deadline = s.deadline.get(seat) if q.kind == "ready" else None
        late = deadline is not None and now >= deadline - SAFETY_MS
        if q.answer is None and q.failed is None and not late:
            # still thinking: look again at the deadline's safety margin (the answer wakes us)
            return None if deadline is None else max(0.0, (deadline - SAFETY_MS - now) / 1000)
        if q.answer is not None and now < due and not late:
            return (due - now) / 1000
        self._give(s, seat, q, fallback=q.answer is None)
        return 0.0

    def _give(self, session, seat, q, fallback):
        if fallback:
            kind, value = self.questions.fallback(session, q)
            self.fallbacks += 1
            if q.failed is None:         # late: the process is still on it; nothing may wait behind it
                log.warning("the bot's search ran late (%s's deadline): the greedy answer instead", seat)
                self.worker.restart()
        else:
            kind, value = q.answer
        q.answer = (kind, value)
        coach = self.coach if not fallback else None
        if coach is not None:
            coach.bot_decided(session, seat, q)      # held before the submit: it may reveal at once
        try:
            self.table.submit(seat, kind, value, source="bot")
        except (SessionError, IllegalDecision) as e:
            if coach is not None:
                coach.bot_refused(seat)
            if fallback:
                # even the greedy answer was refused (a judge's action moved the game on): the
                # question stays answered; the next one is looked at when the table changes
                log.warning("the bot's %s was refused: %s", kind, e)
                q.failed = "refused"
                return
            log.warning("the bot's %s was refused (%s): the greedy answer instead", kind, e)
            q.answer, q.failed = None, "refused"
            return self._give(session, seat, q, fallback=True)
        self.submitted += 1
        if coach is not None:
            coach.bot_applied(session, seat, q)
