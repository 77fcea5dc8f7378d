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

The nested parts (the battle's 21 fields, its effect data, combo and catch among them; the
effect window; the last outcome) are copied against this viewer's last view
(``_copy_like``): whatever is equal to the part of the last view's copy at the same place
(one C-level ``==``, no allocation) is that copy again, so a decision that changed one
counter deep in the battle copies the path to it, not the battle (~150 k instructions for a
battle in full combo). Equal is the same JSON (the display's deltas rely on ``==`` too: the
engine keeps its types, a 1 does not become True), except that a dict shared this way keeps
the key order it had when first copied.
"""

from collections.abc import Iterable
from operator import attrgetter
from typing import Any

from engine.core.decisions import Request
from engine.play.state import SEATS, Battle, GameState, copy_json

_SCALARS = frozenset((str, int, bool, float, type(None)))
_MISSING = object()
_BATTLE_FIELDS = Battle.__slots__
_BATTLE = attrgetter(*_BATTLE_FIELDS)      # a battle's fields as one tuple, in C


class Views:
    """The views of the states of one game (characters and rules serialized once)."""

    __slots__ = ("_static", "_last")

    def __init__(self) -> None:
        self._static: dict[int, tuple[Any, dict[str, Any]]] = {}   # id of a Character or Rules object -> (it, its JSON)
        self._last: dict[str | None, dict[str, Any]] = {}         # viewer -> {part: the copy of it its last view holds}

    def __call__(self, state: GameState, viewers: Iterable[str | None] = (None, "a", "b")) -> dict[str | None, dict[str, Any]]:
        """``{viewer: view}`` for each of ``viewers`` ("a", "b", or None for a spectator)."""
        return {v: self.view(state, v) for v in viewers}

    def _json_of(self, obj: Any) -> dict[str, Any]:
        hit = self._static.get(id(obj))
        if hit is None or hit[0] is not obj:
            hit = self._static[id(obj)] = (obj, obj.to_json())
        return hit[1]

    def view(self, state: GameState, viewer: str | None) -> dict[str, Any]:
        """What ``viewer`` may see of ``state``: ``state.to_json(cards=False)`` with the deck
        lists, the seed and what ``viewer`` may not see left out (the module's list)."""
        before_reveal, setup = state.phase == "ready", state.phase == "setup"
        kept = self._last.get(viewer)
        if kept is None:
            kept = self._last[viewer] = {}
        players: dict[str, dict[str, Any]] = {}
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
        tasks = [copy_json(t) for t in state.tasks]
        for t in tasks:
            if "answer" in t and t.get("p") != viewer:
                t["answer"] = "?"
        fx = _kept_copy(state.fx, kept, "fx")
        if fx:
            fx = _public_window(dict(fx), viewer)     # it replaces the copy's queue and cur, changes neither
        b = state.battle
        return {
            "rules": self._json_of(state.rules), "players": players,
            "priority": state.priority, "turn": state.turn, "phase": state.phase, "step": state.step,
            "stalled_battles": state.stalled_battles, "sudden_death": state.sudden_death,
            "sd_turn": state.sd_turn, "winner": state.winner,
            "pending": [_public_request(r, viewer) for r in state.pending],
            "inbox": {k: ("?" if k != viewer else copy_json(v)) for k, v in state.inbox.items() if k in SEATS},
            "tasks": tasks,
            "battle": None if b is None else _battle_json(b, kept),
            "last_outcome": _kept_copy(state.last_outcome, kept, "last_outcome"), "battles": state.battles, "decks": None,
            "fx": fx, "lasting": copy_json(state.lasting),
        }


def _kept_copy(value: Any, kept: dict[str, Any], part: str) -> Any:
    """A copy of JSON data ``value`` for a view, sharing what is equal with the copy of ``part``
    the last view holds (``_copy_like``); kept for the next view."""
    last = kept.get(part, _MISSING)
    if last == value:
        return last
    out = kept[part] = _copy_like(value, last)
    return out


def _battle_json(battle: Battle, kept: dict[str, Any]) -> dict[str, Any]:
    """``battle.to_json()``, each field shared with the last view's copy where equal."""
    now = _BATTLE(battle)
    last: tuple[tuple[Any, ...], dict[str, Any]] | None = kept.get("battle")
    if last is not None and last[0] == now:
        return last[1]
    if last is None:
        copied = tuple(map(copy_json, now))
    else:
        copied = tuple(o if o == n else _copy_like(n, o) for n, o in zip(now, last[0]))
    out = dict(zip(_BATTLE_FIELDS, copied))
    kept["battle"] = (copied, out)
    return out


def _copy_like(new: Any, old: Any) -> Any:
    """``copy_json(new)`` where each part equal to the part of ``old`` at the same place (a key,
    a list index) is that part of ``old``, not a new copy: only the paths to what changed are
    copied. ``old`` is a copy made before (read-only), or anything else (then nothing is shared)."""
    t = type(new)
    if t is dict and type(old) is dict:
        out = {}
        get = old.get
        for k, x in new.items():
            if type(x) in _SCALARS:
                out[k] = x
            else:
                o = get(k, _MISSING)
                out[k] = o if o == x else _copy_like(x, o)
        return out
    if t is list and type(old) is list:
        n = len(old)
        return [x if type(x) in _SCALARS else (old[i] if i < n and old[i] == x else _copy_like(x, old[i] if i < n else None))
                for i, x in enumerate(new)]
    return copy_json(new)


def public_view(state: GameState, viewer: str | None = None) -> dict[str, Any]:
    """The state as JSON with hidden information removed (see the module). ``viewer``
    ("a"/"b") may see their own hidden information; None is a spectator."""
    return Views().view(state, viewer)


def public_views(state: GameState, viewers: Iterable[str | None] = (None, "a", "b")) -> dict[str | None, dict[str, Any]]:
    """``public_view`` for several viewers (the characters and rules serialized once)."""
    return Views()(state, viewers)


def _public_window(w: dict[str, Any], viewer: str | None) -> dict[str, Any]:
    """A hidden (side deck) trigger stays hidden until it resolves (guide 5.2.2); so in a window a
    break's triggers opened inside it (its ``outer``), and the answers of the tasks it holds."""
    if w.get("outer"):
        w["outer"] = _public_window(dict(w["outer"]), viewer)
    if w.get("held"):
        w["held"] = [dict(t, answer="?") if "answer" in t and t.get("p") != viewer else t for t in w["held"]]
    w["queue"] = [i for i in w["queue"] if not i["hid"] or i["p"] == viewer]
    cur = w.get("cur")
    if cur is not None and cur["inst"]["hid"] and cur["inst"]["p"] != viewer and w.get("mode") == "opt":
        w["cur"] = "?"
    return w


def _public_request(req: Request, viewer: str | None) -> dict[str, Any]:
    r: dict[str, Any] = dict(req)
    if req.get("hidden") and req["player"] != viewer:
        r["options"] = len(req["options"])
        r.pop("about", None)
        r.pop("unusable", None)
    return r
