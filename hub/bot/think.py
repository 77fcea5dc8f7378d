"""What the bot's thinking process does with one job: a seat's view (JSON text, exactly what
that seat may see: ``engine.bots.knowledge.seat_view``) in, an answer and the search's thought out.

A job is a dict (pickled over the worker's pipe, hub/bot/worker.py):

- ``op``: ``"decide"`` (answer the seat's pending request) or ``"coach"`` (the one-battle game
  of the seat's ready in that view, solved, and the coach's line on ``chosen``, the card the
  player readied: ``engine.bots.coach_ready``; ``picked``: the opponent picked it after the
  player's non-response, guide 3.10, so it is not graded as theirs);
- ``view`` (JSON text), ``seat``, ``kind`` (the request answered), ``seed``;
- ``level`` (``easy``, ``normal``, ``strong``) and optionally ``iterations`` or ``budget``
  (estimated instructions: a time budget the hub turned into one); ``turns_left``: at a table
  with a clock, the turns still to play before the at-time decision (ruling R-time, the turn in
  progress included; engine/bots/ending.py), absent or None without one;
- ``cards``: ``{"key": ..., "json": [card JSON, ...] or None}``; the card table of the game
  (public: every card's text is known), sent once per process and key, then kept here.

Nothing else reaches the process: it never sees the table's state, so it cannot read what
its seat could not see. Pure apart from that cache: the same job gives the same answer.
"""

import json

from engine.bots import Unseen, answer_view, coach_ready, fallback_answer, thought_json
from engine.cards import parse_card, raise_if

_CARDS: dict[str, dict] = {}       # card-table key -> {card id: Card}, for this process's life
_KEEP = 8                          # card tables kept (a table plays one game at a time)


class MissingCards(Exception):
    """A job names a card table this process does not hold (it was restarted): resend it."""


def cards_of(spec):
    key, data = spec["key"], spec.get("json")
    hit = _CARDS.get(key)
    if hit is not None:
        return hit
    if data is None:
        raise MissingCards(key)
    cards = {}
    for d in data:
        card, problems = parse_card(d)
        raise_if(problems)
        cards[card.id] = card
    if len(_CARDS) >= _KEEP:
        _CARDS.clear()
    _CARDS[key] = cards
    return cards


def run(job):
    """The job's result (a dict; ``ok`` false with ``error`` when it failed)."""
    try:
        cards = cards_of(job["cards"])
        view = json.loads(job["view"])
        if job["op"] == "coach":
            return dict(_coach(job, view, cards), id=job["id"], ok=True)
        return dict(_decide(job, view, cards), id=job["id"], ok=True)
    except MissingCards as e:
        return {"id": job["id"], "ok": False, "error": "missing cards", "missing": str(e)}
    except Exception as e:          # the job's answer says what failed; the process goes on
        return {"id": job["id"], "ok": False, "error": "%s: %s" % (type(e).__name__, e)}


def _decide(job, view, cards):
    seat, kind, level = job["seat"], job.get("kind"), job.get("level", "strong")
    if level == "easy":
        k, value = fallback_answer(view, seat, cards, job["seed"], kind)
        return {"kind": k, "value": value, "thought": None}
    k, value, t = answer_view(view, seat, cards, job["seed"], level, job.get("iterations"), None, job.get("budget"),
                              kind, job.get("turns_left"))
    return {"kind": k, "value": value, "thought": None if t is None else t.to_json()}


def _coach(job, view, cards):
    """The one-battle analysis of the seat's ready in ``view`` (what the seat saw when asked) and
    the coach's line on the card the player chose (``chosen``; None: the analysis alone). The
    analysis is the same at every level: exact, not a search (engine/bots/onebattle.py)."""
    seat = job["seat"]
    try:
        an, line = coach_ready(view, seat, cards, job.get("chosen"), seed=job["seed"], picked=bool(job.get("picked")),
                               turns_left=job.get("turns_left"))
    except Unseen as e:
        return {"thought": None, "coach": None, "why": str(e)}
    return {"thought": thought_json(an), "coach": line}
