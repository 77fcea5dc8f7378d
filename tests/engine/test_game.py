"""The engine API: purity, illegal decisions, hidden information, explanations,
and the scenario runner's own failure modes (issue 2 items 11, 12; brief 4.2)."""

import json
import os

import pytest
import yaml

from engine.bots import Bot
from engine.cards.decks import load_sample
from engine.core.errors import IllegalDecision
from engine.core.events import TEMPLATES, explain
from engine.api.game import apply, new_game, public_view
from engine.scenarios.runner import build, run, run_file
from hub.cli import main

HERE = os.path.dirname(__file__)
BASE = os.path.join(HERE, "bad_scenarios", "base.yaml")


@pytest.fixture(scope="module")
def sample():
    cs, decks = load_sample()
    return cs, decks["serin"].as_game_deck(), decks["gangcheol"].as_game_deck()


def to_ready(cs, da, db, seed=1):
    """A fresh game advanced to the first ready phase."""
    st, _ = new_game(cs.cards, da, db, seed=seed)
    bots = {"a": Bot(1), "b": Bot(2)}
    while st.pending[0]["kind"] == "setup":
        req = st.pending[0]
        st, _ = apply(st, req["player"], *bots[req["player"]].answer(st, req))
    return st


def test_setup_asks_both_players_hidden_then_coin_toss(sample):
    cs, da, db = sample
    st, events = new_game(cs.cards, da, db, seed=9)
    kinds = [(r["player"], r["kind"], r["hidden"], r["sizes"]) for r in st.pending]
    assert kinds == [("a", "setup", True, {"hand": 5, "list": 9}), ("b", "setup", True, {"hand": 5, "list": 9})]
    st = to_ready(cs, da, db, seed=9)
    assert st.priority in ("a", "b") and st.phase == "ready"
    for p in "ab":
        pl = st.players[p]
        assert (len(pl.hand), len(pl.list), len(pl.side_deck)) == (5, 9, 6)
        assert pl.ultimate is not None
    # the same seed tosses the same coin
    assert to_ready(cs, da, db, seed=9).priority == st.priority


def test_apply_never_changes_the_state_it_is_given(sample):
    cs, da, db = sample
    st = to_ready(cs, da, db)
    before = json.dumps(st.to_json(), sort_keys=True)
    card = st.pending[0]["options"][0]
    new, _ = apply(st, st.pending[0]["player"], "ready", card)
    assert json.dumps(st.to_json(), sort_keys=True) == before
    assert new.to_json() != st.to_json()


@pytest.mark.parametrize("player,kind,value,message", [
    ("a", "ready", "no-such-card", "is not a legal ready"),
    ("a", "get", "jab", "may not answer 'get' now"),
    ("a", "discard", ["x"], "may not answer 'discard' now"),
    ("a", "timeout", "yes", "timeout must be true"),
])
def test_illegal_answers_are_rejected_with_a_reason_and_change_nothing(sample, player, kind, value, message):
    cs, da, db = sample
    st = to_ready(cs, da, db)
    before = json.dumps(st.to_json(), sort_keys=True)
    with pytest.raises(IllegalDecision) as info:
        apply(st, player, kind, value)
    assert message in str(info.value)
    assert json.dumps(st.to_json(), sort_keys=True) == before


def test_ready_is_final_once_declared(sample):
    cs, da, db = sample
    st = to_ready(cs, da, db)
    card = st.pending[0]["options"][0]
    st, _ = apply(st, "a", "ready", card)
    with pytest.raises(IllegalDecision):
        apply(st, "a", "ready", st.players["a"].hand[0])   # no change, no cancel (guide 3.5.2)


def test_hidden_ready_never_leaves_in_the_public_view_or_events(sample):
    cs, da, db = sample
    st = to_ready(cs, da, db)
    card = st.pending[0]["options"][0]
    st, events = apply(st, "a", "ready", card)
    assert all(card not in json.dumps(e, ensure_ascii=False) for e in events)
    spectator = json.dumps(public_view(st), ensure_ascii=False)
    view_b = json.dumps(public_view(st, "b"), ensure_ascii=False)
    assert st.players["a"].battle_zone == [card]
    for view in (spectator, view_b):
        assert '"battle_zone": ["?"]' in view
    # the opponent's hand is public in this game, the side deck is not
    assert public_view(st)["players"]["a"]["side_deck"] == 6
    assert public_view(st, "a")["players"]["a"]["side_deck"] == st.players["a"].side_deck


def test_every_event_of_a_game_explains_itself_in_both_languages(sample):
    cs, da, db = sample
    seen = set()
    for seed in range(40):
        st, events = new_game(cs.cards, da, db, seed=seed)
        bots = {"a": Bot(seed), "b": Bot(seed + 100)}
        all_events = list(events)
        while st.winner is None:
            req = st.pending[0]
            st, events = apply(st, req["player"], *bots[req["player"]].answer(st, req))
            all_events += events
        for e in all_events:
            assert e["rule"].startswith("guide "), e
            text = explain(e, cs.cards)
            assert text["ko"] != e["e"] and text["en"] != e["e"], e
            assert e["rule"].split()[1] in text["en"]
            assert "{" not in text["ko"] and "{" not in text["en"], text
            seen.add(e["e"])
    assert {"judgment", "damage", "result_fp", "priority", "get", "win"} <= seen
    assert seen <= set(TEMPLATES)


# ------------------------------------------------------------------ the runner's failure modes

def scenario(mutate=None):
    data = yaml.safe_load(open(BASE, encoding="utf-8"))
    if mutate:
        mutate(data)
    return data


def test_base_scenario_passes():
    assert run(build(scenario())).passed


def test_unasked_input_fails_the_scenario():
    def extra(d):
        d["inputs"].append({"player": "b", "get": "x"})
    out = run(build(scenario(extra)))
    assert not out.passed and "inputs[2] (b get: 'x') was never asked for" in out.line()


def test_unanswered_decision_fails_the_scenario():
    def missing(d):
        d["inputs"].pop()
    out = run(build(scenario(missing)))
    assert not out.passed and "the engine asks b for ready" in out.line() and "do not answer it" in out.line()


def test_wrong_kind_of_input_fails_the_scenario():
    def wrong(d):
        d["inputs"][1] = {"player": "b", "catch": "pass"}
    out = run(build(scenario(wrong)))
    assert not out.passed and "the engine asks b for ready" in out.line() and "gives catch" in out.line()


def test_expectation_mismatch_names_the_field():
    def expect(d):
        d["expect"]["players"]["b"]["health"] = 4500
        d["expect"]["outcome"] = {"a": "counter", "b": "countered"}
    line = run(build(scenario(expect))).line()
    assert "players.b.health: expected 4500, got 4600" in line
    assert "outcome.a: expected counter, got hit" in line


@pytest.mark.parametrize("mutate,message", [
    (lambda d: d.update(colour="red"), "unknown key 'colour' in the scenario"),
    (lambda d: d["players"]["a"].update(mana=3), "unknown key 'mana' in players.a"),
    (lambda d: d["expect"].update(score=1), "unknown key 'score' in expect"),
    (lambda d: d.update(stop="whenever"), "stop must be one of"),
    (lambda d: d["cards"][0].update(speed="fast"), "an attack needs an integer speed"),
    (lambda d: d["inputs"].append({"player": "c", "ready": "x"}), "player must be a or b"),
    (lambda d: d["expect"].update(outcome={"a": "win"}), "unknown outcome label 'win'"),
    (lambda d: d["players"]["a"].update(hand=["ghost"]), "unknown card 'ghost'"),
])
def test_malformed_scenarios_are_rejected_with_the_reason(tmp_path, mutate, message):
    path = tmp_path / "bad.yaml"
    path.write_text(yaml.safe_dump(scenario(mutate), allow_unicode=True), encoding="utf-8")
    out = run_file(str(path))
    assert not out.passed and message in out.line(), out.line()


def test_cli_prints_one_line_per_file_and_exit_code(tmp_path, capsys):
    good = tmp_path / "good.yaml"
    good.write_text(yaml.safe_dump(scenario(), allow_unicode=True), encoding="utf-8")
    assert main(["scenario", str(good)]) == 0
    assert capsys.readouterr().out.strip() == "PASS base: hit against a high guard position mismatch"
    bad = tmp_path / "bad.yaml"
    bad.write_text(yaml.safe_dump(scenario(lambda d: d["inputs"].pop()), allow_unicode=True), encoding="utf-8")
    assert main(["scenario", str(good), str(bad)]) == 1
    lines = capsys.readouterr().out.strip().splitlines()
    assert lines[0].startswith("PASS ") and lines[1].startswith("FAIL base")
    assert main(["scenario", "--json", str(good)]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data[0]["passed"] and data[0]["state"]["players"]["b"]["health"] == 4600
    assert any(e["e"] == "judgment" and "ko" in e["text"] for e in data[0]["events"])


def test_apply_never_changes_the_state_it_is_given_nor_a_copy_of_it():
    """A copy is independent of its original either way round: advancing the copy (apply) or
    the original in place (the hub's referee, which keeps copies as rollback checkpoints) leaves
    the other as it was. (The get step's order list was shared and popped through a copy.)"""
    import json
    from engine.bots import Bot
    from engine.cards.decks import load_sample
    cs, decks = load_sample()
    for seed in range(4):
        st, _ = new_game(cs.cards, decks["serin"].as_game_deck(), decks["gangcheol"].as_game_deck(), seed=seed)
        bots = {"a": Bot(seed), "b": Bot(seed + 1)}
        kept = []
        for _ in range(150):
            if st.winner is not None:
                break
            req = st.pending[0]
            kind, value = bots[req["player"]].answer(st, req)
            before = json.dumps(st.to_json(cards=False), sort_keys=True)
            new, _ = apply(st, req["player"], kind, value)
            assert json.dumps(st.to_json(cards=False), sort_keys=True) == before
            copy = st.copy()
            kept.append((copy, json.dumps(copy.to_json(cards=False), sort_keys=True)))
            apply(st, req["player"], kind, value, copy=False)
            assert json.dumps(st.to_json(cards=False), sort_keys=True) == json.dumps(new.to_json(cards=False), sort_keys=True)
        for copy, text in kept:
            assert json.dumps(copy.to_json(cards=False), sort_keys=True) == text
