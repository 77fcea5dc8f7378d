"""State invariants checked after every step of random play (issue 2, tests)."""

from collections import Counter

from engine.play.state import GameState
from engine.play.windows import effect_running


def owned_everywhere(st, p):
    pl = st.players[p]
    return Counter(pl.hand + pl.list + pl.side_deck + pl.break_zone + pl.lumen_zone + pl.battle_zone
                   + ([pl.ultimate] if pl.ultimate is not None else []))


def check(st, deck_cards):
    """Raise AssertionError naming the broken invariant."""
    for p in ("a", "b"):
        pl = st.players[p]
        # every card in exactly one zone: the multiset of all zones is the deck
        assert owned_everywhere(st, p) == deck_cards[p], "cards of %s not conserved" % p
        assert len(pl.list) <= st.rules.list_max, "list of %s over %d" % (p, st.rules.list_max)
        for cid in pl.hand + pl.list:
            assert st.cards[cid].kind != "special", "special %s in hand/list of %s" % (cid, p)
        # hand within the limit whenever the engine waits (excess is discarded right after the effect
        # that caused it, guide 3.3.1: a card effect still resolving may wait with the hand over)
        if st.winner is None and not st.tasks and not effect_running(st):
            assert len(pl.hand) <= pl.hand_limit, "hand of %s is %d over limit %d" % (p, len(pl.hand), pl.hand_limit)
        if st.phase not in ("battle",) and st.winner is None and st.pending and st.pending[0]["kind"] != "setup":
            if st.phase != "ready":
                assert not pl.battle_zone, "battle zone of %s not empty outside battle: %s" % (p, pl.battle_zone)
    for req in st.pending:
        opts = req["options"]
        if req["kind"] in ("discard", "setup"):
            assert opts, "empty options for %s" % req["kind"]
        elif req["kind"] == "ready":
            assert len(opts) >= 1
        else:
            assert len(opts) >= 2, "decision %s asked with fewer than 2 options: %s" % (req["kind"], opts)
    if st.winner is None:
        assert st.pending, "engine stopped with no decision and no winner"


def roundtrip(st):
    d = st.to_json()
    back = GameState.from_json(d, st.cards)
    assert back.to_json() == d, "JSON round trip changed the state"
    return back
