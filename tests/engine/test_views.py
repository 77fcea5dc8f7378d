"""Views of a state are built without serializing the card table (issue 16): the table is
static, ~24 KB of JSON, and the hub builds views several times per decision."""

import json

from engine.bots import Bot
from engine.cards import Card
from engine.cards.decks import load_sample
from engine.api.game import apply, new_game, public_view, public_views


def mid_game(decisions=30, seed=2):
    cs, decks = load_sample()
    st, _ = new_game(cs.cards, decks["serin"].as_game_deck(), decks["gangcheol"].as_game_deck(), seed=seed)
    bots = {"a": Bot(seed), "b": Bot(seed + 1)}
    for _ in range(decisions):
        req = st.pending[0]
        st, _ = apply(st, req["player"], *bots[req["player"]].answer(st, req))
    return st


def test_a_view_never_serializes_the_card_table(monkeypatch):
    st = mid_game()
    full = st.to_json()
    views = {v: json.dumps(public_view(st, v), sort_keys=True) for v in (None, "a", "b")}

    def refuse(self):
        raise AssertionError("a view serialized card %s" % self.id)
    monkeypatch.setattr(Card, "to_json", refuse)
    for viewer, before in views.items():
        assert json.dumps(public_view(st, viewer), sort_keys=True) == before
    assert "cards" not in public_view(st) and len(full["cards"]) == len(st.cards)


def test_the_state_without_its_card_table_is_the_rest_of_the_state_unchanged():
    st = mid_game()
    full, lean = st.to_json(), st.to_json(cards=False)
    assert lean["cards"] is None
    assert {k: v for k, v in full.items() if k != "cards"} == {k: v for k, v in lean.items() if k != "cards"}


def test_views_built_together_are_the_views_built_alone_and_independent():
    """public_views serializes the state once and copies only what each viewer's filter
    changes: every view must be what public_view gives that viewer alone, and changing one
    view (a listener editing what it got) must not reach another view or the state."""
    cs, decks = load_sample()
    st, _ = new_game(cs.cards, decks["serin"].as_game_deck(), decks["gangcheol"].as_game_deck(), seed=5)
    bots = {"a": Bot(5), "b": Bot(6)}
    phases = set()
    for _ in range(300):
        if st.winner is not None:
            break
        phases.add(st.phase)
        state_before = json.dumps(st.to_json(cards=False), sort_keys=True)
        together = public_views(st)
        for viewer in (None, "a", "b"):
            assert json.dumps(together[viewer], sort_keys=True) == json.dumps(public_view(st, viewer), sort_keys=True)
        before = {v: json.dumps(together[v], sort_keys=True) for v in ("a", "b")}
        spoiled = together[None]
        for pd in spoiled["players"].values():
            pd["hand"], pd["side_deck"], pd["battle_zone"] = "x", "x", "x"
        for t in spoiled["tasks"]:
            t["answer"] = "x"
        if isinstance(spoiled.get("fx"), dict):
            spoiled["fx"]["queue"], spoiled["fx"]["cur"] = "x", "x"
        assert {v: json.dumps(together[v], sort_keys=True) for v in ("a", "b")} == before
        assert json.dumps(st.to_json(cards=False), sort_keys=True) == state_before
        req = st.pending[0]
        st, _ = apply(st, req["player"], *bots[req["player"]].answer(st, req))
    assert {"setup", "ready"} <= phases


def test_views_of_states_advanced_in_place_stay_as_built_and_equal_the_state_serialized():
    """engine Views shares the static parts (characters, rules) between the views of one game
    and copies the rest: every view equals the filtered ``to_json`` of its state, and stays so
    while the state is advanced in place after it."""
    from engine.api.game import Views, apply_checked, check
    cs, decks = load_sample()
    for seed in (1, 2):
        st, _ = new_game(cs.cards, decks["serin"].as_game_deck(), decks["gangcheol"].as_game_deck(), seed=seed)
        views, kept, bots = Views(), [], {"a": Bot(seed), "b": Bot(seed + 7)}
        for _ in range(400):
            vs = views(st)
            for viewer, v in vs.items():
                kept.append((json.dumps(v, sort_keys=True), v))
                # the reference: the whole state serialized, then the same filter
                ref = public_view(GameStateCopy(st), viewer)
                assert json.dumps(v, sort_keys=True) == json.dumps(ref, sort_keys=True)
            assert vs["a"]["players"]["b"]["character"] is kept[0][1]["players"]["b"]["character"]
            if st.winner is not None:
                break
            req = st.pending[0]
            apply_checked(st, check(st, req["player"], *bots[req["player"]].answer(st, req)))
        for text, v in kept:
            assert json.dumps(v, sort_keys=True) == text


def GameStateCopy(st):
    """The state rebuilt from its whole JSON: nothing shared with the live one."""
    from engine.play.state import GameState
    return GameState.from_json(json.loads(json.dumps(st.to_json())), cards=st.cards)


def test_check_then_apply_checked_is_apply_in_place():
    from engine.api.game import apply_checked, check
    from engine.core.errors import IllegalDecision
    cs, decks = load_sample()
    a, _ = new_game(cs.cards, decks["serin"].as_game_deck(), decks["gangcheol"].as_game_deck(), seed=4)
    b = a.copy()
    bots = {"a": Bot(4), "b": Bot(5)}
    while a.winner is None:
        req = a.pending[0]
        kind, value = bots[req["player"]].answer(a, req)
        before = json.dumps(b.to_json(), sort_keys=True)
        try:
            check(b, req["player"], "discard", "no such card")
        except IllegalDecision:
            pass
        assert json.dumps(b.to_json(), sort_keys=True) == before      # checking changes nothing
        a, ea = apply(a, req["player"], kind, value)
        eb = apply_checked(b, check(b, req["player"], kind, value))
        assert ea == eb and json.dumps(a.to_json(), sort_keys=True) == json.dumps(b.to_json(), sort_keys=True)


def test_a_views_battle_and_effect_window_share_what_the_last_view_had_equal():
    """issue 16: a view copies the battle and the effect window field by field against the
    viewer's last view: an equal field is the last view's copy (the same object), a changed one
    a new copy, and the view still equals the state serialized (the test above)."""
    from engine.api.game import Views, apply_checked, check
    cs, decks = load_sample()
    shared = changed = 0
    for seed in (3, 4):
        st, _ = new_game(cs.cards, decks["serin"].as_game_deck(), decks["gangcheol"].as_game_deck(), seed=seed)
        views, bots, last = Views(), {"a": Bot(seed), "b": Bot(seed + 7)}, None
        while st.winner is None:
            v = views.view(st, None)
            assert views.view(st, None)["battle"] is v["battle"]       # nothing changed: all of it
            if last is not None and v["battle"] is not None and last["battle"] is not None:
                for k, x in v["battle"].items():
                    if isinstance(x, (dict, list)) and x:
                        same = json.dumps(x, sort_keys=True) == json.dumps(last["battle"][k], sort_keys=True)
                        assert (x is last["battle"][k]) == same, k
                        shared += same
                        changed += not same
            last = v
            req = st.pending[0]
            apply_checked(st, check(st, req["player"], *bots[req["player"]].answer(st, req)))
    assert shared > 20 and changed > 20


def test_the_unusable_skills_of_a_ready_are_hidden_like_its_options():
    """Issue 23: a ready request names the hand skills whose use condition fails (``unusable``);
    like the options of any hidden decision they are only in the asker's own view."""
    from engine.scenarios.runner import build
    sc = build({"name": "unusable", "priority": "a", "cards": [
        {"id": "a-need", "kind": "attack", "speed": 6, "position": "mid", "damage": 900,
         "effects": [{"do": "use_condition", "if": {"health_max": 2000}}]},
        {"id": "a-jab", "kind": "attack", "speed": 4, "position": "high", "damage": 300},
        {"id": "b-guard", "kind": "defense", "guard": ["high"]}],
        "players": {"a": {"character": {"health": [5000, 4000, 3000, 2000, 1000], "hand_limit": [6, 7, 8, 9, 9]},
                          "hand": ["a-need", "a-jab"]},
                    "b": {"character": {"health": [5000, 4000, 3000, 2000, 1000], "hand_limit": [6, 7, 8, 9, 9]},
                          "hand": ["b-guard"]}}})
    from engine.api.game import advance
    st, _ = advance(sc.state)
    req = next(r for r in st.pending if r["player"] == "a")
    assert req["options"] == ["a-jab"] and req["unusable"] == ["a-need"]
    mine = next(r for r in public_view(st, "a")["pending"] if r["player"] == "a")
    theirs = next(r for r in public_view(st, "b")["pending"] if r["player"] == "a")
    spectator = next(r for r in public_view(st, None)["pending"] if r["player"] == "a")
    assert mine["unusable"] == ["a-need"]
    assert "unusable" not in theirs and "unusable" not in spectator and theirs["options"] == 1
