"""The scenario runner for people who write scenarios (issue 10): start positions checked
before anything runs, schema errors for wrong types, where the engine stopped, directories,
missing files, one difference per line, the offered options and ``start: setup``."""

import json
import os

import pytest
import yaml

from engine.scenarios.runner import build, expand_paths, report, run, run_file, run_paths

HERE = os.path.dirname(__file__)
BASE = os.path.join(HERE, "bad_scenarios", "base.yaml")
CHAR = {"health": [5000, 4000, 3000, 2000, 1000], "hand_limit": [6, 7, 8, 9, 9]}


def scenario(mutate=None):
    with open(BASE, encoding="utf-8") as f:
        data = yaml.safe_load(f)
    if mutate:
        mutate(data)
    return data


def failing(tmp_path, data):
    path = tmp_path / "s.yaml"
    path.write_text(yaml.safe_dump(data, allow_unicode=True), encoding="utf-8")
    out = run_file(str(path))
    assert not out.passed
    return out.line()


def defense(cid):
    return {"id": cid, "kind": "defense", "guard": [], "results": {}}


# ------------------------------------------------------------------ start position

def test_the_same_card_twice_in_one_players_zones_names_the_key(tmp_path):
    def twice(d):
        d["players"]["a"]["list"] = ["low-kick"]
    line = failing(tmp_path, scenario(twice))
    assert "card 'low-kick' is there 2 times (players.a.hand, players.a.list)" in line
    assert "guide 4.5.1" in line


def test_the_two_players_may_share_an_id():
    def shared(d):
        d["players"]["b"]["list"] = ["low-kick"]
    assert run(build(scenario(shared))).passed


def test_a_hand_over_its_limit_is_an_error(tmp_path):
    def big(d):
        d["cards"] += [defense("d%d" % i) for i in range(6)]
        d["players"]["a"]["hand"] += ["d%d" % i for i in range(6)]
    line = failing(tmp_path, scenario(big))
    assert "players.a.hand: 7 cards, over the hand limit 6 at health 5000" in line


def test_a_list_over_14_is_an_error(tmp_path):
    def big(d):
        d["cards"] += [defense("d%d" % i) for i in range(15)]
        d["players"]["b"]["list"] = ["d%d" % i for i in range(15)]
    line = failing(tmp_path, scenario(big))
    assert "players.b.list: 15 cards, over the list size 14 (guide 3.2)" in line


def test_a_special_in_hand_is_an_error(tmp_path):
    def special(d):
        d["cards"].append({"id": "sp", "kind": "special"})
        d["players"]["a"]["hand"].append("sp")
    assert "players.a.hand: 'sp' is a special skill" in failing(tmp_path, scenario(special))


# ------------------------------------------------------------------ schema

@pytest.mark.parametrize("mutate,message", [
    (lambda d: d["expect"]["players"]["b"].update(list="a-x"), "expect.players.b.list must be a list of card ids, not 'a-x'"),
    (lambda d: d["expect"]["players"]["b"].update(health="4600"), "expect.players.b.health must be an integer"),
    (lambda d: d["expect"].update(turn="one"), "expect.turn must be an integer"),
    (lambda d: d["expect"].update(sudden_death="no"), "expect.sudden_death must be true or false"),
    (lambda d: d["expect"].update(rules="guide 3.10"), "expect.rules must be a list of rule sections"),
    (lambda d: d["expect"].update(phase="battel"), "expect.phase must be one of"),
    (lambda d: d["expect"].update(offered={"cacth": ["x"]}), "unknown decision kind 'cacth'"),
    (lambda d: d["players"]["a"].update(hand="low-kick"), "players.a.hand must be a list of card ids"),
    (lambda d: d["players"]["a"].update(deck=["low-kick"]), "players.a.deck is for start: setup"),
])
def test_a_wrong_type_is_a_schema_error_naming_the_key(tmp_path, mutate, message):
    line = failing(tmp_path, scenario(mutate))
    assert "invalid scenario" in line and message in line, line


# ------------------------------------------------------------------ the run

def test_never_asked_for_says_the_stop_was_reached():
    def extra(d):
        d["inputs"].append({"player": "b", "get": "x"})
    line = run(build(scenario(extra))).line()
    assert "inputs[2] (b get: 'x') was never asked for: the run stopped at end_of_battle (turn 1, battle phase)" in line


def test_never_asked_for_says_the_game_was_over():
    def lethal(d):
        d["players"]["b"]["health"] = 300
        d["inputs"].append({"player": "b", "ready": "high-guard"})
        d["expect"] = {}
    line = run(build(scenario(lethal))).line()
    assert "was never asked for: the game was over (winner: a, turn 1)" in line


def test_several_differences_one_per_line_under_the_name():
    def wrong(d):
        d["expect"]["players"]["b"]["health"] = 4500
        d["expect"]["outcome"] = {"a": "counter", "b": "countered"}
    lines = run(build(scenario(wrong))).line().splitlines()
    assert lines[0] == "FAIL base: hit against a high guard position mismatch: 3 differences"
    assert lines[1:] == ["  - outcome.a: expected counter, got hit", "  - outcome.b: expected countered, got was_hit",
                         "  - players.b.health: expected 4500, got 4600"]


def test_one_difference_stays_on_the_name_line():
    def wrong(d):
        d["expect"]["players"]["b"]["health"] = 4500
    assert run(build(scenario(wrong))).line() == \
        "FAIL base: hit against a high guard position mismatch: players.b.health: expected 4500, got 4600"


def test_json_records_the_offered_options_of_each_decision():
    out = run(build(scenario()))
    data = json.loads(report([out], as_json=True)[0])[0]
    assert data["decisions"][0] == {"player": "a", "kind": "ready", "options": ["low-kick"],
                                    "answer": {"ready": "low-kick"}, "input": 0}
    assert [d["kind"] for d in data["decisions"]] == ["ready", "ready"]


def _two_attacks(d):
    d["cards"].append({"id": "jab", "kind": "attack", "speed": 4, "position": "high", "damage": 100})
    d["players"]["a"]["hand"].append("jab")


@pytest.mark.parametrize("expect,ok", [
    ({"offered": {"ready": ["high-guard"]}}, True),          # the last ready asked: b's
    ({"offered": {"a": {"ready": ["low-kick", "jab"]}}}, True),
    ({"offered": {"a": {"ready": ["jab"]}}}, True),
    ({"offered": {"b": {"ready": ["jab"]}}}, False),
    ({"not_offered": {"b": {"ready": ["low-kick"]}}}, True),
    ({"not_offered": {"a": {"ready": ["jab"]}}}, False),
    ({"not_offered": {"catch": ["jab"]}}, True),        # never asked: nothing was offered
    ({"offered": {"catch": ["jab"]}}, False),
])
def test_offered_and_not_offered(expect, ok):
    def mutate(d):
        _two_attacks(d)
        d["expect"] = expect
    out = run(build(scenario(mutate)))
    assert out.passed is ok, out.line()


def test_offered_failure_names_the_options():
    def mutate(d):
        _two_attacks(d)
        d["expect"] = {"not_offered": {"a": {"ready": ["jab"]}}}
    assert "not_offered.ready: jab was offered to a in decisions[0] (options: low-kick, jab)" in run(build(scenario(mutate))).line()


# ------------------------------------------------------------------ files and directories

def test_a_missing_file_is_no_such_file(tmp_path):
    out = run_file(str(tmp_path / "nope.yaml"))
    assert not out.passed and "no such file" in out.line() and "YAML" not in out.line()


def test_directories_are_expanded(tmp_path):
    (tmp_path / "sub").mkdir()
    for name in ("sub/b.yaml", "a.yaml"):
        (tmp_path / name).write_text(yaml.safe_dump(scenario(), allow_unicode=True), encoding="utf-8")
    (tmp_path / "notes.txt").write_text("not a scenario", encoding="utf-8")
    files = expand_paths([str(tmp_path)])
    assert files == [str(tmp_path / "a.yaml"), str(tmp_path / "sub" / "b.yaml")]
    outcomes = run_paths([str(tmp_path), str(tmp_path / "gone.yaml")])
    assert [o.passed for o in outcomes] == [True, True, False]
    text, code = report(outcomes)
    assert code == 1 and "no such file" in text.splitlines()[-1]


def test_an_empty_directory_fails(tmp_path):
    (tmp_path / "empty").mkdir()
    outcomes = run_paths([str(tmp_path / "empty")])
    assert not outcomes[0].passed and "a directory without scenario files" in outcomes[0].line()


# ------------------------------------------------------------------ start: setup

def _setup_scenario(**players_extra):
    cards = [defense("a%d" % i) for i in range(16)] + [{"id": "a-sp", "kind": "special"},
                                                       {"id": "a-ult", "kind": "attack", "speed": 5, "position": "mid",
                                                        "damage": 900, "ultimate": True}]
    pa = {"character": CHAR, "deck": ["a%d" % i for i in range(16)] + ["a-sp"], "ultimate": "a-ult"}
    pb = {"character": CHAR, "deck": ["a%d" % i for i in range(14)]}
    pa.update(players_extra)
    return {"name": "setup", "cards": cards, "players": {"a": pa, "b": pb}, "start": "setup", "priority": "b",
            "inputs": [{"player": "a", "setup": {"hand": ["a%d" % i for i in range(5)],
                                                 "list": ["a%d" % i for i in range(5, 14)]}},
                       {"player": "b", "setup": {"hand": ["a%d" % i for i in range(9, 14)],
                                                 "list": ["a%d" % i for i in range(9)]}},
                       {"player": "b", "ready": "a9"}, {"player": "a", "ready": "a1"}],
            "stop": "end_of_battle"}


def test_start_setup_needs_14_non_special_skills():
    d = _setup_scenario(deck=["a%d" % i for i in range(13)] + ["a-sp"])
    with pytest.raises(Exception, match="13 non-special skill cards; the setup needs 14"):
        build(d)


def test_start_setup_rejects_cards_already_in_zones():
    with pytest.raises(Exception, match="with start: setup every card is in players.a.deck"):
        build(_setup_scenario(hand=["a0"]))


def test_start_setup_builds_hand_list_side_deck_and_ultimate():
    out = run(build(_setup_scenario()))
    assert out.passed, out.line()
    a = out.state.players["a"]
    assert sorted(a.side_deck) == ["a-sp", "a14", "a15"] and a.ultimate == "a-ult"
    kinds = [e["e"] for e in out.events]
    assert kinds.count("hands_shown") == 2 and kinds.count("list_revealed") == 2 and "ultimate_shown" in kinds
    assert "coin_toss" not in kinds and out.state.priority == "b"


def test_the_cli_expands_a_directory(tmp_path, capsys):
    from hub.cli import main
    (tmp_path / "one.yaml").write_text(yaml.safe_dump(scenario(), allow_unicode=True), encoding="utf-8")
    assert main(["scenario", str(tmp_path)]) == 0
    assert capsys.readouterr().out.strip() == "PASS base: hit against a high guard position mismatch"
    assert main(["scenario", str(tmp_path / "missing.yaml")]) == 1
    assert "no such file" in capsys.readouterr().out


def test_a_trait_allowing_two_of_a_name_allows_two(tmp_path):
    def two(d, n):
        d["players"]["a"]["character"] = dict(CHAR, trait={"id": "twins", "effects": [{"do": "deck_rule", "same_name_max": 2}]})
        d["players"]["a"]["list"] = ["low-kick"] * (n - 1)
    assert run(build(scenario(lambda d: two(d, 2)))).passed
    line = failing(tmp_path, scenario(lambda d: two(d, 3)))
    assert "is there 3 times" in line and "at most 2 cards of one name" in line and "deck_rule" in line


# ------------------------------------------------------------------ ordered events (issue 23)

def test_events_are_a_subsequence_in_order():
    def ordered(d):
        d["expect"]["events"] = ["reveal", {"e": "judgment", "a": "hit"}, {"e": "damage", "p": "b", "amount": 400},
                                 {"e": "move", "p": "a", "card": "low-kick", "dst": "hand"},
                                 {"e": "move", "p": "b", "card": "high-guard", "dst": "hand"}, "battle_end"]
        d["expect"]["no_events"] = [{"e": "result_fp", "p": "b"}]
    assert run(build(scenario(ordered))).passed


def test_events_out_of_order_fail_naming_the_item(tmp_path):
    def swapped(d):
        # guide 5.3.4: the priority holder's card (a) returns first; asking b's first fails
        d["expect"]["events"] = [{"e": "move", "p": "b", "card": "high-guard"}, {"e": "move", "p": "a", "card": "low-kick"}]
    line = failing(tmp_path, scenario(swapped))
    assert 'events[1] {"e": "move", "card": "low-kick", "p": "a"} did not happen after events[0]' in line
    assert "out of order" in line


def test_an_event_that_never_happens_shows_the_events_of_that_kind(tmp_path):
    def wrong(d):
        d["expect"]["events"] = [{"e": "damage", "p": "b", "amount": 500}]
    line = failing(tmp_path, scenario(wrong))
    assert 'events[0] {"e": "damage", "amount": 500, "p": "b"} did not happen in the run' in line
    assert '"amount": 400' in line


def test_no_events_fails_with_the_event_that_happened(tmp_path):
    def none(d):
        d["expect"]["no_events"] = [{"e": "result_fp", "p": "a"}]
    line = failing(tmp_path, scenario(none))
    assert 'no_events[0] {"e": "result_fp", "p": "a"} happened' in line and '"delta": 1' in line


@pytest.mark.parametrize("value, message", [
    ("reveal", "expect.events must be a non-empty list"),
    ([{"e": "revael"}], "expect.events[0]: unknown event kind 'revael'"),
    ([3], "expect.events[0] must be an event kind or {e: kind, ...}"),
])
def test_a_bad_events_expectation_is_a_schema_error(tmp_path, value, message):
    def bad(d):
        d["expect"]["events"] = value
    assert message in failing(tmp_path, scenario(bad))


# ------------------------------------------------------------------ the ultimate is a property of the card (issue 23)

def _ult(cid):
    return {"id": cid, "kind": "attack", "ultimate": True, "speed": 9, "position": "mid", "damage": 900}


def test_a_card_marked_ultimate_is_the_players_ultimate_wherever_it_is():
    def marked(d):
        d["cards"].append(_ult("a-ult"))
        d["players"]["a"]["list"] = ["a-ult"]
    sc = build(scenario(marked))
    assert sc.state.players["a"].ultimate is None and sc.state.players["a"].ultimate_card == "a-ult"


def test_two_ultimates_for_one_player_are_an_error(tmp_path):
    def two(d):
        d["cards"] += [_ult("a-ult"), _ult("a-ult2")]
        d["players"]["a"]["list"] = ["a-ult"]
        d["players"]["a"]["ultimate"] = "a-ult2"
    line = failing(tmp_path, scenario(two))
    assert "players.a: a-ult2, a-ult are all ultimate cards; a deck holds 0 or 1 ultimate (guide 3.3.4)" in line
