"""The engine's public API: state + decision -> new state + events.

    st, events = new_game(cards, deck_a, deck_b, seed=7)
    while st.winner is None:
        req = st.pending[0]                 # who must decide what, and the legal options
        st, events = apply(st, req["player"], req["kind"], choice)

By default ``apply`` and ``advance`` work on a copy and return it: the state given
is unchanged. ``copy=False`` advances the given state in place (fast simulation,
the search player), and so does ``apply_checked`` (the hub's referee, which keeps
its own rollback). An illegal answer raises IllegalDecision from ``check``, before
anything changes, whichever form is used. ``until`` names marker events to pause
at (``battle_end``, ``turn_end``, ``ready_start``, ``game_over``); ``advance``
continues from a pause.
"""

from collections.abc import Mapping, Sequence
from typing import Any, NamedTuple, TypedDict

from engine.cards.model import Card, Character
from engine.cards.rules import Rules
from engine.core.decisions import Request, find_request, normalize, validate
from engine.core.errors import CardError, IllegalDecision, Problem
from engine.core.events import Event, ev
from engine.play.state import GameState, PlayerState
from engine.play.turn import Ctx, lock_ready, run
from engine.api.views import Views, public_view, public_views

__all__ = ["new_game", "apply", "check", "apply_checked", "advance", "public_view", "public_views", "Views",
           "requests_for", "IllegalDecision", "GameDeck", "Event", "Answer"]


class Answer(NamedTuple):
    """An answer ``check`` accepted, for ``apply_checked`` on the same state (a tuple: it unpacks
    as (player, kind, at, request, value))."""

    player: str
    kind: str           # the request's kind, or "timeout" for a ready
    at: int             # the request's place in ``state.pending``
    request: Request
    value: Any          # normalized (a combo's id as [id], a tuple as a list)


class _GameDeckRequired(TypedDict):
    character: Character
    cards: Sequence[str]


class GameDeck(_GameDeckRequired, total=False):
    """A deck as the engine takes it (``engine.cards.decks.Deck.as_game_deck()`` gives one)."""
    ultimate: str | None


def new_game(cards: Mapping[str, Card], deck_a: GameDeck, deck_b: GameDeck, seed: int = 0, priority: str | None = None,
             rules: Rules | None = None, until: Sequence[str] = ()) -> tuple[GameState, list[Event]]:
    """Start a game from two decks. A deck is a dict ``{"character": Character,
    "cards": [ids], "ultimate": id or None}``. Both players are asked their
    setup (guide 3.4.1); initial priority is ``priority`` or a seeded coin toss."""
    problems = []
    for seat, deck in (("a", deck_a), ("b", deck_b)):
        for cid in list(deck["cards"]) + ([deck["ultimate"]] if deck.get("ultimate") else []):
            if cid not in cards:
                problems.append(Problem("deck of %s names unknown card %r" % (seat, cid)))
        pool = [c for c in deck["cards"] if c in cards and cards[c].kind != "special"]
        if len(pool) < 14:
            problems.append(Problem("deck of %s has %d non-special skill cards; setup needs 14 (guide 3.4.1 NOTE)"
                                    % (seat, len(pool))))
    if problems:
        raise CardError(problems)
    players = {s: PlayerState(d["character"]) for s, d in (("a", deck_a), ("b", deck_b))}
    st = GameState(cards, players, priority=priority, rules=rules, rng=seed & ((1 << 64) - 1),
                   decks={s: {"cards": list(d["cards"]), "ultimate": d.get("ultimate")}
                          for s, d in (("a", deck_a), ("b", deck_b))})
    return advance(st, until)


def advance(state: GameState, until: Sequence[str] = (), copy: bool = True) -> tuple[GameState, list[Event]]:
    """Run the engine from ``state`` until it needs a decision, the game ends,
    or a marker in ``until`` is reached."""
    st = state.copy() if copy else state
    ctx = Ctx(st, until)
    run(st, ctx)
    return st, ctx.events


def apply(state: GameState, player: str, kind: str, value: Any = True, until: Sequence[str] = (),
          copy: bool = True) -> tuple[GameState, list[Event]]:
    """Answer the pending decision of ``player``. Returns (new state, events).

    ``kind`` is the decision kind (``ready``, ``timeout``, ``pick``, ``get``,
    ``discard``, ``combo``, ``catch``, ``nullify``, ``replenish``, ``setup``,
    ``choose`` for a card effect's question, see docs/card-format.md).
    With ``copy=False`` the given state is advanced in place (for fast
    simulation); by default it is left untouched. Either way an illegal answer
    raises IllegalDecision before anything changes.
    """
    answer = check(state, player, kind, value)
    st = state.copy() if copy else state
    return st, apply_checked(st, answer, until)


def check(state: GameState, player: str, kind: str, value: Any = True) -> Answer:
    """Validate an answer to ``state`` without changing anything: raises IllegalDecision
    with the reason, or returns the answer for ``apply_checked`` on this same state."""
    index, req = find_request(state, player, kind)
    validate(state, req, kind, value)
    return Answer(player, kind, index, req, normalize(kind, value))


def apply_checked(state: GameState, answer: Answer, until: Sequence[str] = ()) -> list[Event]:
    """Advance ``state`` in place with an ``answer`` that ``check`` accepted for it (and
    nothing changed since). Returns the events. The hub's referee uses this with its own
    rollback (hub/sessions/referee.py) so that a decision costs no copy of the state."""
    player, kind, index, req, value = answer
    ctx = Ctx(state, until)
    state.pending.pop(index)
    if req.get("task"):
        state.tasks[0]["answer"] = value
    else:
        state.inbox[player] = {"kind": kind, "value": value}
        if kind == "ready":
            if value in req.get("unusable", ()):
                state.inbox[player]["unusable"] = True   # a non-response, found at the reveal (guide 3.10)
            lock_ready(state, player, value)   # final once declared (guide 3.5.2)
            ctx.emit(ev("ready_locked", "guide 3.5.2", p=player))   # never which card
    run(state, ctx)
    return ctx.events


def requests_for(state: GameState, player: str) -> list[Request]:
    """The decisions ``player`` must make now."""
    return [r for r in state.pending if r["player"] == player]


def catalogue(state: GameState) -> list[dict[str, Any]]:
    """The card definitions of a game (public, static)."""
    return [c.to_json() for c in state.cards.values()]
