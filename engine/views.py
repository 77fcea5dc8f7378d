"""What each viewer may see of a state: the state as JSON with hidden information removed.

Hidden: a ready card before the reveal (face down in the battle zone; the hand is shown as
it was before the ready, since hands are public and a missing card would give the pick
away), the side deck's contents (only its size is public), a pending setup, and the options
of another player's hidden decision. The card catalogue and the deck lists are left out.

``Views`` builds the views of one game's states: the parts of a state that never change in
a game (the two characters, the rules: ~2 KB of the ~5 KB) are serialized once and shared by
every view it builds; everything else is copied from the state, so a view stays what it was
when the state moves on (also when the state is advanced in place). Views are read-only:
their contents are shared between viewers and, for the static parts, between versions.
"""

from .state import SEATS, _copy_json


class Views:
    """The views of the states of one game (characters and rules serialized once)."""

    __slots__ = ("_static",)

    def __init__(self):
        self._static = {}       # id of a Character or Rules object -> (that object, its JSON)

    def __call__(self, state, viewers=(None, "a", "b")):
        """``{viewer: view}`` for each of ``viewers`` ("a", "b", or None for a spectator)."""
        base = self.base(state)
        return {v: _filtered(state, base, v) for v in viewers}

    @staticmethod
    def view(state, base, viewer):
        """One viewer's view from ``base(state)`` (built for this same state)."""
        return _filtered(state, base, viewer)

    def _json_of(self, obj):
        hit = self._static.get(id(obj))
        if hit is None or hit[0] is not obj:
            hit = self._static[id(obj)] = (obj, obj.to_json())
        return hit[1]

    def base(self, state):
        """``state.to_json(cards=False)`` less the deck lists (no view shows them), with the
        static parts shared."""
        players = {}
        for p in SEATS:
            pl = state.players[p]
            players[p] = {
                "character": self._json_of(pl.character), "health": pl.health, "fp": pl.fp,
                "hand": pl.hand[:], "list": pl.list[:], "side_deck": pl.side_deck[:],
                "break_zone": pl.break_zone[:], "lumen_zone": pl.lumen_zone[:],
                "battle_zone": pl.battle_zone[:], "ultimate": pl.ultimate,
                "ultimate_card": pl.ultimate_card, "non_responses": pl.non_responses,
                "tokens": dict(pl.tokens), "limit_delta": pl.limit_delta,
            }
        return {
            "rules": self._json_of(state.rules), "players": players,
            "priority": state.priority, "turn": state.turn, "phase": state.phase, "step": state.step,
            "stalled_battles": state.stalled_battles, "sudden_death": state.sudden_death,
            "sd_turn": state.sd_turn, "winner": state.winner,
            "pending": None, "inbox": None, "tasks": None,      # each viewer's filter fills these
            "battle": None if state.battle is None else state.battle.to_json(),
            "last_outcome": _copy_json(state.last_outcome), "battles": state.battles, "decks": None,
            "fx": _copy_json(state.fx), "lasting": _copy_json(state.lasting),
        }


def public_view(state, viewer=None):
    """The state as JSON with hidden information removed (see the module). ``viewer``
    ("a"/"b") may see their own hidden information; None is a spectator."""
    return Views()(state, (viewer,))[viewer]


def public_views(state, viewers=(None, "a", "b")):
    """``public_view`` for several viewers from one serialization of the state (the costly
    part): each view copies only what its filter changes and shares the rest (read-only)."""
    return Views()(state, viewers)


def _filtered(state, base, viewer):
    d = dict(base)
    d["players"] = {p: dict(pd) for p, pd in base["players"].items()}
    d["tasks"] = [_copy_json(t) for t in state.tasks]
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
    d["inbox"] = {k: ("?" if k != viewer else _copy_json(v)) for k, v in state.inbox.items() if k in ("a", "b")}
    for t in d["tasks"]:
        if "answer" in t and t.get("p") != viewer:
            t["answer"] = "?"
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
