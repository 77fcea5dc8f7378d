"""What the bot's thinking process does with one job: a seat's view (JSON text, exactly what
that seat may see: ``engine.bots.knowledge.seat_view``) in, an answer and the search's thought out.

A job is a dict (pickled over the worker's pipe, hub/bot/worker.py):

- ``op``: ``"decide"`` (answer the seat's pending request) or ``"coach"`` (what the search
  thinks of the seat's ready in that view, and of ``chosen``, the card the player readied:
  ``engine.bots.coach.explain_choice``);
- ``view`` (JSON text), ``seat``, ``kind`` (the request answered), ``seed``;
- ``level`` (``easy``, ``normal``, ``strong``) and optionally ``iterations`` or ``budget``
  (estimated instructions: a time budget the hub turned into one);
- ``cards``: ``{"key": ..., "json": [card JSON, ...] or None}``; the card table of the game
  (public: every card's text is known), sent once per process and key, then kept here.

Nothing else reaches the process: it never sees the table's state, so it cannot read what
its seat could not see. Pure apart from that cache: the same job gives the same answer.
"""

import json

from engine.bots import explain_choice
from engine.bots import Unseen, answer_view, fallback_answer, think
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
                              kind)
    return {"kind": k, "value": value, "thought": None if t is None else t.to_json()}


def _coach(job, view, cards):
    """The search's thought about the seat's ready in ``view`` and the coach's line on the card
    the player chose (``chosen``; None after a non-response: the thought alone)."""
    seat, level = job["seat"], job.get("level", "strong")
    try:
        t = think(view, seat, seed=job["seed"], level=level if level != "easy" else "normal", cards=cards,
                  iterations=job.get("iterations"), budget=job.get("budget"))
    except Unseen as e:
        return {"thought": None, "coach": None, "why": str(e)}
    chosen = job.get("chosen")
    line = explain_choice(t, chosen, cards) if chosen is not None and chosen in t.options else None
    return {"thought": t.to_json(), "coach": line}
