"""One seat's questions put to the thinking process: what the bot (hub/bot/seat.py) and the
demo's search-playing pods (hub/cli/demo.py) share.

A question is the seat's first pending request, told apart from the last one by the game
and the number of decisions the seat has taken (``session.answered``). ``Questions.look``
sends a new question to the worker with the seat's view as JSON text (``seat_view``: the
seat's own information only) and returns the question; its ``answer`` is filled in on the
table's loop when the worker's result comes back (``done`` wakes whoever waits).
"""

import json
import logging

from engine import bots      # its search (fallback_answer) imported at the first fallback, not at the hub's start
from engine.bots import seat_view

from hub.bot.worker import WorkerGone, card_table

log = logging.getLogger("lumen.bot")


class Question:
    __slots__ = ("key", "seat", "kind", "hidden", "view", "asked_ms", "answer", "thought", "future", "failed", "seed")

    def __init__(self, key, seat, kind, view, asked_ms, seed, hidden=False):
        self.key = key
        self.seat = seat
        self.kind = kind
        self.hidden = hidden          # a hidden decision (a side-deck trigger's choice): recorded hidden, never shown
        self.view = view              # the seat's view as asked (JSON text): the fallback's too
        self.asked_ms = asked_ms
        self.seed = seed
        self.answer = None            # (kind, value) once decided
        self.thought = None           # the search's Thought as JSON (None: not searched)
        self.future = None
        self.failed = None            # why the worker gave no answer


def turns_left(table):
    """What the bot is told of the table's end of round (engine/bots/ending.py): the turns still
    to play before the at-time decision of ruling R-time, the turn in progress included, or None
    while the table's clock has not called time (or there is none, or the round has ended). After
    "time" (hub/sessions/timer.py) that is the turn in progress while it is being finished plus the
    extra turns left; the extra minutes may end them sooner (the bot then plans on one turn too
    many, as a player reading the clock would). The table may give its own count instead
    (``table.bot_turns_left()``: e.g. an estimate from the time left and the table's pace)."""
    own = getattr(table, "bot_turns_left", None)
    if callable(own):
        return own()
    timer = getattr(table, "timer", None)
    if timer is None or getattr(timer, "state", None) != "time" or timer.turns_left is None or timer.finished:
        return None
    left = timer.turns_left + (1 if getattr(timer, "finishing", False) else 0)
    return left if left >= 1 else None


def question_key(session, seat, req):
    return (session.game_id, session.answered[seat], req["kind"])


def job_seed(key, seat):
    game, answered, _ = key
    return (int(game) * 1_000_003 + answered * 7919 + (1 if seat == "a" else 2)) & 0x7FFF_FFFF_FFFF_FFFF


class Questions:
    """The questions of one seat (or several) on their way to a :class:`ThinkWorker`."""

    def __init__(self, worker, level="strong", iterations=None, budget=None):
        self.worker = worker
        self.level = level
        self.iterations = iterations
        self.budget = budget
        self.current = {}             # seat -> the Question asked last
        self._cards = (None, None)    # (game id, card_table(...)) of the game on the table

    def cards(self, session):
        gid, table = self._cards
        if gid != session.game_id or table is None:
            table = card_table(session.engine_state.cards)
            self._cards = (session.game_id, table)
        return table

    def pending(self, session, seat, skip=("setup",)):
        """The seat's first pending request that is not one of ``skip``, in the seat's view."""
        st = session.engine_state
        for r in st.pending:
            if r["player"] == seat and r["kind"] not in skip:
                return r
        return None

    def look(self, session, seat, now_ms, on_done, level=None, skip=("setup",), turns_left=None):
        """The seat's current Question (a new one sent to the worker when the question
        changed), or None when the seat is asked nothing. ``on_done()`` is called (from the
        worker's reader thread) when its answer or failure arrives. ``turns_left``: see
        ``turns_left(table)``."""
        req = self.pending(session, seat, skip)
        if req is None:
            self.current.pop(seat, None)
            return None
        key = question_key(session, seat, req)
        q = self.current.get(seat)
        if q is not None and q.key == key:
            return q
        view = json.dumps(seat_view(session.engine_state, seat), ensure_ascii=False)
        q = Question(key, seat, req["kind"], view, now_ms, job_seed(key, seat), bool(req.get("hidden")))
        self.current[seat] = q
        job = {"op": "decide", "view": view, "seat": seat, "kind": req["kind"], "seed": q.seed,
               "level": level or self.level, "iterations": self.iterations, "budget": self.budget,
               "turns_left": turns_left}
        q.future = self.worker.submit(job, self.cards(session))
        q.future.add_done_callback(lambda f, q=q: self._done(q, f, on_done))
        return q

    def _done(self, q, fut, on_done):
        try:
            res = fut.result()
        except WorkerGone as e:
            q.failed = str(e)
        else:
            if res.get("ok"):
                q.answer = (res["kind"], res["value"])
                q.thought = res.get("thought")
            else:
                q.failed = res.get("error") or "no answer"
                log.warning("the bot's search failed (%s): the greedy answer instead", q.failed)
        on_done()

    def fallback(self, session, q):
        """The instant greedy answer to ``q`` from its view (the search failed or ran late)."""
        view = json.loads(q.view)
        return bots.fallback_answer(view, q.seat, session.engine_state.cards, q.seed, q.kind)
