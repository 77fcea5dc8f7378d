"""Card text generated from data (Korean and English), and "try it": two cards judged by the engine."""

import pytest
import yaml

from engine.cards import text as cardtext
from engine.cards.decks import SAMPLE_CARDS
from engine.cards.effects import REGISTRY, Prim
from engine.scenarios.trial import TrialError, judge

CARDS = {c["id"]: c for c in yaml.safe_load(open(SAMPLE_CARDS, encoding="utf-8"))["cards"]}


def test_the_judgment_result_area_and_effects_read_in_both_languages():
    throw = CARDS["throw"]
    assert cardtext.lines(throw, "ko") == ["특수 판정: 그랩", "히트 시 FP +1", "카운터 시 FP +2", "회피됨 시 FP -2",
                                           "① 히트 시 상대의 패에서 1장을 브레이크한다"]
    assert cardtext.lines(throw, "en")[-1] == "① On hit: break 1 card from the opponent's hand"
    assert cardtext.lines(CARDS["serin-skyward-leap"], "ko")[0] == "특수 판정: 회피: 하단, 속도 7 이하"
    assert cardtext.lines(CARDS["high-guard"], "en")[:2] == ["Guards high/mid", "On guard: FP +1"]


def test_conditions_options_then_and_durations_are_spelled_out():
    e = {"do": "token", "name": "spirit", "amount": -3, "timing": "before_judgment", "optional": True,
         "if": {"health_max": 3000}, "then": [{"do": "faster", "amount": 4}], "number": 2}
    assert cardtext.entry_text(e, "ko") == "② 판정 전 체력이 3000 이하이면 선택: spirit 3개를 소모한다 → 그 후 4 빨라진다"
    assert cardtext.entry_text(e, "en") == "② Before judgment: if health 3000 or less, you may: spend 3 spirit -> then 4 faster"
    f = {"do": "forbid", "action": "speed_change", "target": "opponent", "duration": "battle", "timing": "on_use"}
    assert cardtext.entry_text(f, "ko") == "사용 시 상대는 속도가 바뀌지 않는다 (이 배틀 동안)"


def test_every_sample_line_is_text_not_a_raw_name():
    for card in CARDS.values():
        for lang in ("ko", "en"):
            for line in cardtext.lines(card, lang):
                assert line and "None" not in line and "{" not in line, (card["id"], line)


def test_a_primitive_without_a_phrase_still_reads_from_the_registry(monkeypatch):
    monkeypatch.setitem(REGISTRY, "shine", Prim("shine", {}, "instant", "빛난다", "it shines", "", "guide 9"))
    assert cardtext.entry_text({"do": "shine", "timing": "on_hit"}, "ko") == "히트 시 빛난다"
    assert cardtext.entry_text({"do": "shine", "timing": "on_hit"}, "en") == "On hit: it shines"


# ------------------------------------------------------------------ try it

def test_try_it_counter_gives_outcome_damage_and_the_rule():
    r = judge(CARDS["jab"], CARDS["straight"])
    assert r["outcome"] == {"a": "counter", "b": "countered"}
    assert r["rule"] == "guide 3.6.2.2"
    assert r["damage"] == {"a": 0, "b": 300}
    assert "faster" in r["reason"]["en"] and "카운터" in r["reason"]["ko"]


def test_try_it_guard_moves_fp_by_the_result_area():
    r = judge(CARDS["jab"], CARDS["high-guard"])
    assert r["outcome"] == {"a": "guarded", "b": "guard"}
    assert r["fp"] == {"a": -1, "b": 1} and r["damage"] == {"a": 0, "b": 0}


def test_try_it_an_unsaved_card_against_itself_trades():
    mine = {"id": "my-punch", "name": "내 펀치", "kind": "attack", "speed": 6, "position": "mid", "damage": 450,
            "results": {"hit": {"fp": 1}}}
    r = judge(mine, mine)
    assert r["outcome"] == {"a": "trade", "b": "trade"} and r["damage"] == {"a": 450, "b": 450}


def test_try_it_answers_effect_questions_and_lists_them():
    r = judge(CARDS["middle-kick"], CARDS["serin-afterimage"])
    assert [a["kind"] for a in r["asked"]] == ["choose"]
    assert r["outcome"] == {"a": "evaded", "b": "evade"}


def test_try_it_refuses_a_special_and_an_invalid_card():
    with pytest.raises(TrialError, match="special"):
        judge(CARDS["steady-breath"], CARDS["jab"])
    with pytest.raises(TrialError, match="speed"):
        judge({"id": "bad", "kind": "attack", "position": "mid"}, CARDS["jab"])


def test_token_names_come_from_the_set_characters():
    data = yaml.safe_load(open(SAMPLE_CARDS, encoding="utf-8"))
    names = cardtext.token_names(data["characters"])
    assert names["ember"] == {"ko": "불씨", "en": "Ember"}
    line = cardtext.lines(CARDS["serin-skyward-leap"], "ko", names)[-1]
    assert line == "사용 시 선택: 불씨 1개를 소모한다 → 그 후 2 빨라진다"
    assert "ember" in cardtext.lines(CARDS["serin-skyward-leap"], "ko")[-1]      # without names: the id
