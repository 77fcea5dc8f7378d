"""What each viewer may see of a state: the state as JSON with hidden information removed.

Hidden: a ready card before the reveal (face down in the battle zone; the hand is shown as
it was before the ready, since hands are public and a missing card would give the pick
away), the side deck's contents (only its size is public), a pending setup, and the options
of another player's hidden decision. The card catalogue and the deck lists are left out.

``Views`` builds the views of one game's states: the parts of a state that never change in
a game (the two characters, the rules: ~2 KB of the ~5 KB) are serialized once and shared by
every view it builds; everything else is copied from the state, filtered as it is copied
(one pass, one viewer), so a view stays what it was when the state moves on (also when the
state is advanced in place). Views are read-only: the static parts are shared between views.
"""

from .state import SEATS, _copy_json


class Views:
    """The views of the states of one game (characters and rules serialized once)."""

    __slots__ = ("_static",)

    def __init__(self):
        self._static = {}       # id of a Character or Rules object -> (that object, its JSON)

    def __call__(self, state, viewers=(None, "a", "b")):
        """``{viewer: view}`` for each of ``viewers`` ("a", "b", or None for a spectator)."""
        return {v: self.view(state, v) for v in viewers}

    def _json_of(self, obj):
        hit = self._static.get(id(obj))
        if hit is None or hit[0] is not obj:
            hit = self._static[id(obj)] = (obj, obj.to_json())
        return hit[1]

    def view(self, state, viewer):
        """What ``viewer`` may see of ``state``: ``state.to_json(cards=False)`` with the deck
        lists, the seed and what ``viewer`` may not see left out (the module's list)."""
        before_reveal, setup = state.phase == "ready", state.phase == "setup"
        players = {}
        for p in SEATS:
            pl = state.players[p]
            mine = viewer == p
            d = players[p] = {
                "character": self._json_of(pl.character), "health": pl.health, "fp": pl.fp,
                "hand": pl.hand[:], "list": pl.list[:], "side_deck": pl.side_deck[:] if mine else len(pl.side_deck),
                "break_zone": pl.break_zone[:], "lumen_zone": pl.lumen_zone[:],
                "battle_zone": pl.battle_zone[:], "ultimate": pl.ultimate,
                "ultimate_card": pl.ultimate_card, "non_responses": pl.non_responses,
                "tokens": dict(pl.tokens), "limit_delta": pl.limit_delta,
            }
            if mine:
                continue
            if before_reveal and pl.battle_zone:
                # hands are public in this game, so a hand that just lost a card would give the
                # ready away: until the reveal show the hand as it was, and the lock as "?"
                d["hand"] = sorted(pl.hand + pl.battle_zone)
                d["battle_zone"] = ["?"] * len(pl.battle_zone)
                d["ready_hidden"] = True
            if setup:
                d["hand"] = len(d["hand"])
                d["list"] = len(pl.list)
                d["battle_zone"] = len(d["battle_zone"])
        tasks = [_copy_json(t) for t in state.tasks]
        for t in tasks:
            if "answer" in t and t.get("p") != viewer:
                t["answer"] = "?"
        fx = _copy_json(state.fx)
        return {
            "rules": self._json_of(state.rules), "players": players,
            "priority": state.priority, "turn": state.turn, "phase": state.phase, "step": state.step,
            "stalled_battles": state.stalled_battles, "sudden_death": state.sudden_death,
            "sd_turn": state.sd_turn, "winner": state.winner,
            "pending": [_public_request(r, viewer) for r in state.pending],
            "inbox": {k: ("?" if k != viewer else _copy_json(v)) for k, v in state.inbox.items() if k in SEATS},
            "tasks": tasks,
            "battle": None if state.battle is None else state.battle.to_json(),
            "last_outcome": _copy_json(state.last_outcome), "battles": state.battles, "decks": None,
            "fx": _public_window(fx, viewer) if fx else fx, "lasting": _copy_json(state.lasting),
        }


def public_view(state, viewer=None):
    """The state as JSON with hidden information removed (see the module). ``viewer``
    ("a"/"b") may see their own hidden information; None is a spectator."""
    return Views().view(state, viewer)


def public_views(state, viewers=(None, "a", "b")):
    """``public_view`` for several viewers (the characters and rules serialized once)."""
    return Views()(state, viewers)


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
