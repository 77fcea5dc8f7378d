"""The engine's public API: state + decision -> new state + events.

    st, events = new_game(cards, deck_a, deck_b, seed=7)
    while st.winner is None:
        req = st.pending[0]                 # who must decide what, and the legal options
        st, events = apply(st, req["player"], req["kind"], choice)

``apply`` never changes the state it is given: it works on a copy and returns
it. An illegal answer raises IllegalDecision and changes nothing. ``until``
names marker events to pause at (``battle_end``, ``turn_end``,
``ready_start``, ``game_over``); ``advance`` continues from a pause.
"""

from .decisions import find_request, normalize, validate
from .errors import CardError, IllegalDecision, Problem
from .events import ev
from .state import GameState, PlayerState
from .turn import Ctx, lock_ready, run

__all__ = ["new_game", "apply", "advance", "public_view", "public_views", "requests_for", "IllegalDecision"]


def new_game(cards, deck_a, deck_b, seed=0, priority=None, rules=None, until=()):
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


def advance(state, until=(), copy=True):
    """Run the engine from ``state`` until it needs a decision, the game ends,
    or a marker in ``until`` is reached."""
    st = state.copy() if copy else state
    ctx = Ctx(st, until)
    run(st, ctx)
    return st, ctx.events


def apply(state, player, kind, value=True, until=(), copy=True):
    """Answer the pending decision of ``player``. Returns (new state, events).

    ``kind`` is the decision kind (``ready``, ``timeout``, ``pick``, ``get``,
    ``discard``, ``combo``, ``catch``, ``nullify``, ``replenish``, ``setup``,
    ``choose`` for a card effect's question, see docs/card-format.md).
    With ``copy=False`` the given state is advanced in place (for fast
    simulation); by default it is left untouched.
    """
    index, req = find_request(state, player, kind)
    validate(state, req, kind, value)
    value = normalize(kind, value)
    st = state.copy() if copy else state
    ctx = Ctx(st, until)
    st.pending.pop(index)
    if req.get("task"):
        st.tasks[0]["answer"] = value
    else:
        st.inbox[player] = {"kind": kind, "value": value}
        if kind == "ready":
            lock_ready(st, player, value)   # final once declared (guide 3.5.2)
            ctx.emit(ev("ready_locked", "guide 3.5.2", p=player))   # never which card
    run(st, ctx)
    return st, ctx.events


def requests_for(state, player):
    """The decisions ``player`` must make now."""
    return [r for r in state.pending if r["player"] == player]


def public_view(state, viewer=None):
    """The state as JSON with hidden information removed.

    Hidden: a ready card before the reveal (face down in the battle zone; the
    hand is shown as it was before the ready, since hands are public and a
    missing card would give the pick away), the side deck's contents (only its
    size is public), a pending setup, and the options of another player's
    hidden decision. The card catalogue is left out (see ``catalogue``). ``viewer`` ("a"/"b") may see
    their own hidden information; None is a spectator.
    """
    return public_views(state, (viewer,))[viewer]


def public_views(state, viewers=(None, "a", "b")):
    """``public_view`` for several viewers from one serialization of the state (the costly
    part): each view copies only what its filter changes and shares the rest (read-only)."""
    base = state.to_json(cards=False)   # the card catalogue is static: serve it once, not in every view
    return {v: _filtered(state, base, v) for v in viewers}


def _filtered(state, base, viewer):
    d = dict(base)
    del d["cards"]
    d["players"] = {p: dict(pd) for p, pd in base["players"].items()}
    d["tasks"] = [dict(t) for t in base["tasks"]]
    before_reveal = state.phase == "ready"
    for p, pd in d["players"].items():
        mine = viewer == p
        if not mine:
            pd["side_deck"] = len(pd["side_deck"])
            if before_reveal and pd["battle_zone"]:
                # hands are public in this game, so a hand that just lost a card would give the
                # ready away: until the reveal show the hand as it was, and the lock as "?"
                pd["hand"] = sorted(pd["hand"] + pd["battle_zone"])
                pd["battle_zone"] = ["?"] * len(pd["battle_zone"])
                pd["ready_hidden"] = True
            if state.phase == "setup":
                pd["hand"] = len(pd["hand"])
                pd["list"] = len(pd["list"])
                pd["battle_zone"] = len(pd["battle_zone"])
    d["pending"] = [_public_request(r, viewer) for r in state.pending]
    d["inbox"] = {k: ("?" if k != viewer else v) for k, v in base["inbox"].items() if k in ("a", "b")}
    for t in d["tasks"]:
        if "answer" in t and t.get("p") != viewer:
            t["answer"] = "?"
    d["decks"] = None
    d.pop("rng", None)
    if d.get("fx"):
        d["fx"] = _public_window(dict(d["fx"]), viewer)
    return d


def _public_window(w, viewer):
    """A hidden (side deck) trigger stays hidden until it resolves (guide 5.2.2)."""
    w["queue"] = [i for i in w["queue"] if not i["hid"] or i["p"] == viewer]
    cur = w.get("cur")
    if cur is not None and cur["inst"]["hid"] and cur["inst"]["p"] != viewer and w.get("mode") == "opt":
        w["cur"] = "?"
    return w


def _public_request(req, viewer):
    r = dict(req)
    if req.get("hidden") and req["player"] != viewer:
        r["options"] = len(req["options"])
        r.pop("about", None)
    return r


def catalogue(state):
    """The card definitions of a game (public, static)."""
    return [c.to_json() for c in state.cards.values()]
