"""The effects a break triggers (issue 23, guide 5.4, ruling R48): ``on_break`` and
``on_opponent_break``, ordinary or interrupts (끼어들기).

engine/play/zones.py records each break (``broke``): an interrupt task right after the break's
replenish, the ordinary triggers at the end of the unit (the effect, else the rule's action).
The task (engine/play/turn.py ``triggers``) opens here a window nested in whatever was going on; the
window runs like any other (engine/play/windows.py) and, closed, gives way back to what it interrupted.
"""

from engine.play.cardfx import nullified_effects, fx_index
from engine.play.conditions import cond_ok
from engine.play.windows import entry_of


def open_break_window(st, brks, interrupt):
    """The effects the breaks ``brks`` trigger (each ``{p, card, from}``), interrupts or the others,
    as one window nested in whatever was going on (a step, a window, an effect in the middle of
    its entries): when it closes, that goes on where it stood, the tasks it had waiting first."""
    queue = collect_breaks(st, brks, interrupt)
    if not queue:
        return
    W = {"timing": "on_break", "chain": [], "then": st.step, "scope": None, "queue": queue, "grp": None,
         "turn": st.priority, "mode": "next", "cur": None, "asker": None, "outer": st.fx, "held": st.tasks}
    st.tasks = []
    st.fx = W
    st.step = "fx"


def _zone_entries(srcs, cards, cid, zone, t):
    z = cards[cid].zfx.get(zone)
    if z and t in z:
        srcs.append(("card", cid, z[t], zone))


def collect_breaks(st, brks, interrupt):
    """Every entry that triggers on these breaks, the priority holder's sources first: for the
    broken card's owner ``on_break`` (the trait, the current battle card, the lumen zone, the hand
    and the list, the ultimate zone, the side deck, and the broken card itself in the break zone),
    for the other player ``on_opponent_break`` (the same zones, not the break zone). Each break
    triggers its own instances ("브레이크될 때마다")."""
    ix = fx_index(st)
    bt = st.battle
    bfx = bt.fx if bt is not None else None
    cards = st.cards
    pri = st.priority
    found = []
    for brk in brks:
        for p in (pri, "b" if pri == "a" else "a"):
            t = "on_break" if p == brk["p"] else "on_opponent_break"
            pl = st.players[p]
            ch = pl.character
            srcs = []
            trait = ch.zfx.get("trait") if ch.zfx else None
            if trait and t in trait:
                srcs.append(("trait", ch.trait_id, trait[t], "trait"))
            ids = ix.break_ids[t, interrupt]
            if ids:
                if bfx is not None:
                    cur = bfx["cur"].get(p)
                    cid = cur["id"] if cur is not None else None
                    if cid in ids and cid in pl.battle_zone:
                        _zone_entries(srcs, cards, cid, "battle", t)
                for zone in ("lumen_zone", "hand", "list", "side_deck"):
                    held = getattr(pl, zone)
                    if not ids.isdisjoint(held):
                        for cid in held:
                            if cid in ids:
                                _zone_entries(srcs, cards, cid, zone, t)
                if pl.ultimate in ids:
                    _zone_entries(srcs, cards, pl.ultimate, "ultimate", t)
                if t == "on_break" and brk["card"] in ids and brk["card"] in pl.break_zone:
                    _zone_entries(srcs, cards, brk["card"], "break_zone", t)
            for kind, src, entries, zone in srcs:
                for i, e in entries:
                    if bool(e.get("interrupt")) != interrupt:
                        continue
                    if "number" in e and nullified_effects(st, p, src):
                        continue
                    found.append({"p": p, "t": kind, "src": src, "i": i, "zone": zone, "name": "%s:%d" % (src, i + 1),
                                  "tm": t, "hid": zone == "side_deck", "forbid": e["do"] == "forbid",
                                  "opt": bool(e.get("optional", e["do"] == "use_special")), "ev": brk})
    for inst in found:
        e = entry_of(st, inst)
        if "if" not in e or cond_ok(st, inst["p"], e["if"], inst["src"], ev=inst["ev"]):
            return found
    return []
