"""Conditions (``if:`` of an effect entry, engine/cards/effects.py CONDITIONS): checked when the effect
resolves, on its owner's turn (ruling R21)."""

from collections.abc import Callable, Mapping
from typing import Any

from engine.cards.model import Card
from engine.play.state import GameState, other

# The one upward need of this module: a ``used`` speed bound reads the current card's speed as
# worked out now, by engine/play/livefx.py, whose own working-out checks conditions (with
# ``fold``, so the recursion stops there). livefx hands its reader in when it is imported
# (read_live_with), so this module imports nothing above it; engine/play/turn.py imports livefx
# before any condition is checked.
_live_reader: list[Callable[[GameState, str], dict[str, Any]]] = []


def read_live_with(reader: Callable[[GameState, str], dict[str, Any]]) -> None:
    """Set the function that works out a player's current card now: ``reader(st, p) -> record``."""
    _live_reader[:] = [reader]


def card_matches(card: Card | None, want: Mapping[str, Any], spd: int | None = None) -> bool:
    """``spd``: the card's reference speed now (printed + effects, before FP; ruling R38)."""
    if card is None:
        return False
    if spd is None:
        spd = card.speed
    for k, v in want.items():
        if k == "kind" and card.kind != v:
            return False
        if k == "position" and card.position != v:
            return False
        if k == "grab" and bool(card.grab) != v:
            return False
        if k == "id" and card.id != v:
            return False
        if k == "speed_min" and (card.kind != "attack" or spd < v):
            return False
        if k == "speed_max" and (card.kind != "attack" or spd > v):
            return False
    return True


def cond_ok(st: GameState, p: str, cond: Mapping[str, Any], src: str | None = None, fold: bool = False,
            ev: Mapping[str, Any] | None = None) -> bool:
    """Do all conditions hold for owner p? (``src``: the entry's own card, for not_nullified.)
    ``fold``: checked while a card's values are being worked out (engine/play/livefx.py): a ``used``
    speed bound reads the speed as last worked out instead of working it out again. ``ev``: the
    break that triggered the effect (``broken``, on_break / on_opponent_break)."""
    players = st.players
    pl = players[p]
    op = players["b" if p == "a" else "a"]
    bt = st.battle
    bfx = bt.fx if bt is not None else None
    for k, v in cond.items():
        if k == "tokens":
            ok = True
            for name, b in v.items():
                n = pl.tokens.get(name, 0)
                if n < b.get("min", n) or n > b.get("max", n):
                    ok = False
        elif k == "health_min":
            ok = pl.health >= v
        elif k == "health_max":
            ok = pl.health <= v
        elif k == "opponent_health_min":
            ok = op.health >= v
        elif k == "opponent_health_max":
            ok = op.health <= v
        elif k == "fp_min":
            ok = pl.fp >= v
        elif k == "fp_max":
            ok = pl.fp <= v
        elif k == "opponent_fp_min":
            ok = op.fp >= v
        elif k == "opponent_fp_max":
            ok = op.fp <= v
        elif k == "count":
            who = pl if v.get("who", "self") == "self" else op
            n = len(getattr(who, v["zone"]))
            ok = n >= v.get("min", n) and n <= v.get("max", n)
        elif k == "outcome":
            # this battle's outcome (none before its judgment); outside a battle the last one
            out = bt.outcome if bt is not None else (st.last_outcome or {})
            ok = out.get(p) in v
        elif k == "priority":
            ok = (st.priority == p) == v
        elif k == "turn_min":
            ok = st.turn >= v
        elif k == "turn_max":
            ok = st.turn <= v
        elif k == "not_nullified":
            # guide 5.3.3: a countered card counts as nullified for this condition only
            nulled = False
            if bt is not None and bfx is not None and bfx["cur"].get(p) is not None and bfx["cur"][p]["id"] == src:
                nulled = bfx["cur"][p]["null"] is not None or bt.outcome.get(p) == "countered"
            ok = (not nulled) == v
        elif k == "damaged":
            ok = bool(bfx is not None and bfx["dmg"][p]) == v
        elif k == "damaged_by_opponent":
            ok = bool(bfx is not None and "opp" in bfx["dmg"][p]) == v
        elif k == "in_combo":
            # a 2nd+ combo card, or the 1st once its judgment made it a combo (ruling R39)
            cur = bfx["cur"].get(p) if bfx is not None else None
            ok = bool(cur is not None and (cur["role"] == "combo" or (cur.get("c1") and cur["null"] != "card"))) == v
        elif k in ("used", "opponent_used"):
            q = p if k == "used" else other(p)
            cur = bfx["cur"].get(q) if bfx is not None else None
            if cur is not None and cur["id"] is not None and not fold and ("speed_min" in v or "speed_max" in v):
                cur = _live_reader[0](st, q)    # the speed now (ruling R38, issue 23)
            ok = cur is not None and cur["id"] is not None and card_matches(st.cards[cur["id"]], v, cur["spd"])
        elif k == "broken":
            ok = ev is not None and v.get("from", ev["from"]) == ev["from"] and \
                card_matches(st.cards[ev["card"]], {x: y for x, y in v.items() if x != "from"})
        else:
            raise AssertionError(k)
        if not ok:
            return False
    return True
