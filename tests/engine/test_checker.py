"""A scenario checker that cannot pass by mistake (issue 32, item 6).

Before: an ``expect.no_events`` pattern naming a field its event kind never has, or a value of
the wrong type, never matched, so the scenario passed although the forbidden event happened; a
``not_offered`` card id that is not in the scenario passed; ``not_offered`` read only the last
decision of its kind. Now each is refused when the scenario is loaded, with the field named,
and ``not_offered`` reads every decision. Also ``stop: {end_of_turn: N}`` and ``expect.decisions``.
"""

import pytest
import yaml

from engine.scenarios.expect import compare
from engine.scenarios.runner import build, run, run_file

from tests.engine.test_scenario_runner import BASE, scenario


def outcome(tmp_path, data):
    path = tmp_path / "s.yaml"
    path.write_text(yaml.safe_dump(data, allow_unicode=True, sort_keys=False), encoding="utf-8")
    return run_file(str(path))


def refused(tmp_path, mutate):
    out = outcome(tmp_path, scenario(mutate))
    assert not out.passed
    line = out.line()
    assert "invalid scenario" in line, line
    return line


# ------------------------------------------------------------------ the four vacuous patterns of the issue

def test_the_forbidden_damage_happens_in_the_base_scenario():
    """The premise: b takes 400 damage, so a no_events pattern for it must fail if it can match."""
    out = run(build(scenario()))
    assert {"e": "damage", "p": "b", "amount": 400} == {k: v for k, v in out.events[[e["e"] for e in out.events].index("damage")].items()
                                                       if k in ("e", "p", "amount")}


@pytest.mark.parametrize("pattern, message", [
    ({"e": "damage", "pp": "b"}, "expect.no_events[0]: a damage event has no field 'pp', so this pattern could never match"),
    ({"e": "damage", "player": "b"}, "expect.no_events[0]: a damage event has no field 'player'"),
    ({"e": "damage", "amount": "400"}, "expect.no_events[0].amount: \"400\" can never be a damage event's amount, "
                                       "which is an integer"),
    ({"e": "damage", "p": "c"}, "expect.no_events[0].p: \"c\" can never be a damage event's p, which is a or b"),
    ({"e": "damage", "card": "low-kik"}, "expect.no_events[0].card: \"low-kik\" can never be a damage event's card, "
                                         "which is a card id of this scenario (high-guard, low-kick) or null"),
    ({"e": "effect", "timing": "on_hitt"}, "expect.no_events[0].timing: \"on_hitt\" can never be an effect event's timing, "
                                           "which is a timing name (after_judgment, after_use"),
    ({"e": "judgment", "a": "hits"}, "expect.no_events[0].a: \"hits\" can never be a judgment event's a"),
])
def test_a_pattern_that_could_never_match_is_refused_naming_the_field(tmp_path, pattern, message):
    def forbid(d):
        d["expect"]["no_events"] = [pattern]
    line = refused(tmp_path, forbid)
    assert message in line, line
    assert "s.yaml:" in line            # with the line of the field


def test_an_events_item_is_checked_the_same_way(tmp_path):
    def order(d):
        d["expect"]["events"] = ["reveal", {"e": "damage", "amout": 400}]
    assert "expect.events[1]: a damage event has no field 'amout'" in refused(tmp_path, order)


def test_not_offered_naming_a_card_the_scenario_lacks_is_refused(tmp_path):
    def typo(d):
        d["expect"]["not_offered"] = {"a": {"ready": ["low-kik"]}}
    line = refused(tmp_path, typo)
    assert "expect.not_offered.a.ready[0]: low-kik can never be offered: a ready decision offers a card id of this " \
           "scenario (high-guard, low-kick)" in line, line


@pytest.mark.parametrize("offers, message", [
    ({"catch": ["low-kick", "pas"]}, "expect.offered.catch[1]: pas can never be offered: a catch decision offers a card id "
                                     "of this scenario (high-guard, low-kick), pass"),
    ({"get": ["end"]}, "a get decision offers a card id of this scenario (high-guard, low-kick), ultimate, skip"),
    ({"combo": [["low-kick", "high-guard", "low-kick"]]}, "a combo option is [id, id]"),
    ({"combo": [["low-kick", "nope"]]}, "expect.offered.combo[0]: [\"low-kick\", \"nope\"] can never be offered"),
    ({"choose": ["low-kick:0"]}, "a choose decision offers"),
])
def test_offered_options_are_card_ids_or_the_kinds_fixed_words(tmp_path, offers, message):
    def bad(d):
        d["expect"]["offered"] = offers
    assert message in refused(tmp_path, bad)


def test_the_fixed_words_and_effect_names_are_accepted():
    def fine(d):
        d["expect"]["not_offered"] = {"catch": ["pass", "low-kick"], "get": ["ultimate", "skip"], "combo": ["end", ["low-kick"]],
                                      "choose": ["use", "pass", "low-kick:1", "high-guard"]}
    assert run(build(scenario(fine))).passed


def test_not_offered_reads_every_decision_of_its_kind():
    """Offered in the first ready, not in the last: the old checker read the last one only."""
    st = build(scenario()).state
    decisions = [{"player": "a", "kind": "ready", "options": ["low-kick", "jab"], "answer": {"ready": "low-kick"}},
                 {"player": "b", "kind": "ready", "options": ["high-guard"], "answer": {"ready": "high-guard"}},
                 {"player": "a", "kind": "ready", "options": ["low-kick"], "answer": None}]
    out = compare({"not_offered": {"a": {"ready": ["jab"]}}}, st, [], decisions)
    assert out == ["not_offered.ready: jab was offered to a in decisions[0] (options: low-kick, jab)"]
    assert compare({"not_offered": {"ready": ["jab"]}}, st, [], decisions[1:]) == []
    # offered still reads the last decision of its kind
    assert compare({"offered": {"a": {"ready": ["jab"]}}}, st, [], decisions) == \
        ["offered.ready: jab was not offered to a (options: low-kick)"]


# ------------------------------------------------------------------ stop: {end_of_turn: N}, expect.decisions

def two_turns(d):
    d["inputs"] += [{"player": "a", "ready": "low-kick"}, {"player": "b", "ready": "high-guard"}]
    d["stop"] = {"end_of_turn": 2}
    d["expect"] = {"players": {"b": {"health": 4200}},
                   "events": [{"e": "turn_end", "turn": 1}, {"e": "damage", "p": "b", "health": 4200}, {"e": "turn_end", "turn": 2}],
                   "decisions": [{"player": "a", "kind": "ready", "options": ["low-kick"]}, {"player": "b", "kind": "ready"},
                                 {"player": "a", "kind": "ready"}, {"player": "b", "kind": "ready", "options": ["high-guard"]}]}


def test_stop_at_the_end_of_a_numbered_turn():
    out = run(build(scenario(two_turns)))
    assert out.passed, out.line()
    assert [e["turn"] for e in out.events if e["e"] == "turn_end"] == [1, 2]


def test_a_numbered_stop_never_reached_says_which(tmp_path):
    def three(d):
        two_turns(d)
        d["stop"] = {"end_of_turn": 3}
        d["expect"] = {}
    line = run(build(scenario(three))).line()
    assert "the engine asks a for ready (options: low-kick) but the inputs do not answer it" in line


@pytest.mark.parametrize("stop, message", [
    ({"end_of_turn": 0}, "stop.end_of_turn must be a turn number, at least the scenario's turn (1), not 0"),
    ({"end_of_turn": "2"}, "stop.end_of_turn must be a turn number"),
    ({"end_of_battle": 2}, "a numbered stop is {end_of_turn: N}"),
    ("end_of_game", "stop must be one of end_of_battle, end_of_turn, next_ready, game_over, or {end_of_turn: N}"),
])
def test_a_bad_stop_is_a_schema_error(tmp_path, stop, message):
    def bad(d):
        d["stop"] = stop
    assert message in refused(tmp_path, bad)


def test_decisions_in_another_order_fail_showing_the_run(tmp_path):
    def swapped(d):
        two_turns(d)
        d["expect"]["decisions"][0], d["expect"]["decisions"][1] = d["expect"]["decisions"][1], d["expect"]["decisions"][0]
    line = run(build(scenario(swapped))).line()
    assert "decisions[0]: expected b ready, got a ready (the run asked: a ready; b ready; a ready; b ready)" in line


def test_decisions_are_the_whole_run():
    def short(d):
        two_turns(d)
        d["expect"]["decisions"] = d["expect"]["decisions"][:3]
    assert "decisions: expected 3, the run asked 4" in run(build(scenario(short))).line()

    def long(d):
        two_turns(d)
        d["expect"]["decisions"].append({"player": "a", "kind": "get"})
    assert "decisions[4]: expected a get, but the run asked only 4 decision(s)" in run(build(scenario(long))).line()


def test_decisions_compare_the_options_when_given():
    def other(d):
        two_turns(d)
        d["expect"]["decisions"][0]["options"] = ["high-guard"]
    line = run(build(scenario(other))).line()
    assert "decisions[0].options: expected high-guard, got low-kick" in line


@pytest.mark.parametrize("value, message", [
    ({"player": "a"}, "expect.decisions must be a list"),
    ([{"player": "c", "kind": "ready"}], "expect.decisions[0].player must be a or b"),
    ([{"player": "a", "kind": "redy"}], "expect.decisions[0].kind: unknown decision kind 'redy'"),
    ([{"player": "a", "kind": "ready", "who": "a"}], "unknown key 'who' in expect.decisions[0]"),
    ([{"player": "a", "kind": "ready", "options": ["lowkick"]}], "expect.decisions[0].options[0]: lowkick can never be offered"),
])
def test_a_bad_decisions_expectation_is_a_schema_error(tmp_path, value, message):
    def bad(d):
        d["expect"]["decisions"] = value
    assert message in refused(tmp_path, bad)


def test_the_base_file_is_what_these_tests_assume():
    with open(BASE, encoding="utf-8") as f:
        assert yaml.safe_load(f)["stop"] == "end_of_battle"
