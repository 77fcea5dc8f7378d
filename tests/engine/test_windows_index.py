"""The indexed timing windows (engine/play/windows.py ``collect``, ``FxIndex``) collect exactly what
the plain rule says: for each timing, the trait, the current battle card, the lumen zone, the
hand, the list, the ultimate zone and the side deck of each player, the priority holder first. Checked against a
straightforward scan of every source, at every decision of seeded effect-rich random games;
and a window is skipped exactly when every instance it would queue is idle."""

import pytest

from engine.bots import Bot
from engine.cards.decks import load_sample
from engine.cards.effects import JUDGMENT_WINDOWS, TIMING_NAMES
from engine.api.game import apply, new_game
from engine.play.state import other
from engine.play.cardfx import nullified_effects
from engine.play.windows import _idle, collect, fires


def reference_collect(st, timings, scope):
    """Every source of both players looked at for every timing (the rule, without any index)."""
    bt = st.battle
    bfx = bt.fx if bt is not None else None
    queue = []
    seen = set()
    for p in (st.priority, other(st.priority)):
        pl = st.players[p]
        ch = pl.character
        sources = []
        if ch.fx:
            sources.append(("trait", ch.trait_id, ch.fx, "trait"))
        cur = bfx["cur"].get(p) if bfx is not None else None
        if cur is not None and cur["id"] is not None:
            sources.append(("card", cur["id"], st.cards[cur["id"]].fx, "battle"))
        for zone in ("lumen_zone", "hand", "list"):
            for cid in getattr(pl, zone):
                sources.append(("card", cid, st.cards[cid].fx, zone))
        if pl.ultimate is not None:
            sources.append(("card", pl.ultimate, st.cards[pl.ultimate].fx, "ultimate"))
        for cid in pl.side_deck:
            sources.append(("card", cid, st.cards[cid].fx, "side_deck"))
        for t in timings:
            if not fires(st, t, p, scope):
                continue
            for kind, src, fx, zone in sources:
                for i, e, z in fx.get(t, ()):
                    name = "%s:%d" % (src, i + 1)
                    if z != zone or (p, name) in seen:
                        continue
                    if "number" in e and nullified_effects(st, p, src):
                        continue
                    seen.add((p, name))
                    queue.append({"p": p, "t": kind, "src": src, "i": i, "zone": zone, "name": name, "tm": t,
                                  "hid": zone == "side_deck", "forbid": e["do"] == "forbid",
                                  "opt": bool(e.get("optional", e["do"] == "use_special"))})
    return queue


GROUPS = [(t,) for t in TIMING_NAMES] + list(JUDGMENT_WINDOWS) + [("on_catch", "on_hit"), ("on_use", "after_use")]


@pytest.mark.parametrize("seed", [1, 2, 3, 4, 5, 6])
def test_indexed_collect_matches_a_scan_of_every_source(seed):
    cs, decks = load_sample()
    names = sorted(decks)
    st, _ = new_game(cs.cards, decks[names[0]].as_game_deck(), decks[names[1]].as_game_deck(), seed=seed)
    bots = {"a": Bot(seed * 2 + 1), "b": Bot(seed * 2 + 2)}
    checked = 0
    while st.winner is None:
        if st.priority is not None and (st.battle is None or st.battle.fx is not None):   # windows open after setup
            scopes = [None]
            if st.battle is not None:
                scopes += [{"p": p, "as": a} for p in ("a", "b") for a in ("combo", "catch")]
            for scope in scopes:
                for g in GROUPS:
                    queue = collect(st, g, scope)
                    assert queue == reference_collect(st, g, scope), (g, scope, st.step)
                    # a window is skipped exactly when every queued instance would do nothing
                    idle = all(_idle(st, inst) for inst in queue)
                    assert collect(st, g, scope, True) == ([] if idle else queue), (g, scope, st.step)
                    checked += 1
        req = st.pending[0]
        st, _ = apply(st, req["player"], *bots[req["player"]].answer(st, req), copy=False)
    assert checked > 1000
