"""Tracker mode (brief section 2 and 6): hub/sessions/tracker_game/ and hub/sessions/roster.py.

Guide references are to seeds/000 (the June 2026 beginner guide): 3.3.1 hand
limit by health band, 3.4 win and sudden-death trigger, 3.8 priority, 3.10
non-response, 5.1.2 sudden death.
"""

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.cards import Character as EngineCharacter
from hub.sessions import roster
from hub.sessions.tracker_game import (MERGE_WINDOW_MS, UNDO_LIMIT, TrackerError, TrackerGame)


def game(a="generic", b="generic", priority="a", **kw):
    return TrackerGame(a, b, priority=priority, **kw)


def frozen(g):
    return json.dumps(g.to_json(), sort_keys=True, ensure_ascii=False)


# ---------------------------------------------------------------- roster (brief 6)

ROSTER_TABLE = [
    # korean name, start health, hand limits, tokens [(name, start, max)]
    ("니아", 5000, (6, 7, 8, 9, 9), []),
    ("루트", 5000, (6, 7, 8, 9, 9), []),
    ("델피", 5000, (6, 7, 8, 9, 9), [("토큰", 3, 3)]),
    ("키스 더 래빗", 5000, (6, 7, 8, 9, 9), []),
    ("울프", 5000, (6, 7, 8, 9, 9), [("하울링", 0, 5)]),
    ("비올라", 5000, (6, 7, 8, 9, 9), [("토큰", 0, 3)]),
    ("레브", 5000, (6, 7, 8, 9, 9), [("토큰", 0, 6)]),
    ("타오", 5000, (6, 7, 8, 9, 9), [("양", 0, 4), ("음", 0, 4)]),
    ("리타", 5000, (6, 7, 8, 9, 10), []),
    ("린", 5000, (6, 7, 8, 9, 9), [("토큰", 0, None)]),
    ("요한", 5000, (6, 7, 8, 9, 9), [("토큰", 3, 5)]),
    ("이제벨", 5000, (6, 7, 8, 9, 9), [("토큰", 0, None)]),
    ("이오몽", 5000, (6, 7, 8, 9, 9), []),
    ("키메라", 5000, (5, 5, 5, 6, 6), [("토큰", 0, 9)]),
    ("무영", 4500, (6, 7, 8, 9, 9), [("토큰", 3, 5)]),
    ("핀프 & 솔다트", 5500, (6, 7, 8, 9, 9), [("토큰", 4, 4)]),
    ("CMYK", 5000, (10, 10, 10, 10, 10), [("토큰", 10, 10)]),
    ("미녕이", 5000, (6, 7, 8, 9, 9), []),
]


def test_roster_matches_brief_table_in_order():
    """Brief 6: the roster as the calculator has it, Korean names exactly, then generic."""
    assert [c.name for c in roster.ROSTER[:-1]] == [row[0] for row in ROSTER_TABLE]
    assert roster.ROSTER[-1].id == "generic"
    for name, health, limits, tokens in ROSTER_TABLE:
        c = roster.get(name)
        assert c.start_health == health, name
        assert c.hand_limits == limits, name
        assert [(t.name, t.start, t.max) for t in c.tokens] == tokens, name
        assert c.name_en and c.id.isascii()


def test_roster_ids_unique_and_lookup_by_id_korean_english():
    ids = [c.id for c in roster.ROSTER]
    assert len(ids) == len(set(ids))
    assert roster.get("rita") is roster.get("리타") is roster.get("Rita") is roster.get(" RITA ".strip())
    assert roster.get(roster.get("wolf")).name == "울프"
    with pytest.raises(roster.UnknownCharacter, match="nobody"):
        roster.get("nobody")
    with pytest.raises(roster.UnknownCharacter):
        roster.get(None)


def test_generic_character_has_no_tokens_5000_default_limits():
    g = roster.GENERIC
    assert (g.start_health, g.hand_limits, g.tokens, g.trait) == (5000, (6, 7, 8, 9, 9), (), None)


@pytest.mark.parametrize("health,limit", [
    (5500, 6), (5000, 6), (4001, 6), (4000, 7), (3001, 7), (3000, 8), (2001, 8),
    (2000, 9), (1001, 9), (1000, 9), (1, 9), (0, 9), (-700, 9)])
def test_guide_3_3_1_default_band_boundaries(health, limit):
    assert roster.GENERIC.hand_limit(health) == limit


@pytest.mark.parametrize("name,health,limit", [
    ("리타", 4001, 6), ("리타", 1001, 9), ("리타", 1000, 10), ("리타", -100, 10),
    ("키메라", 5000, 5), ("키메라", 2001, 5), ("키메라", 2000, 6), ("키메라", 1000, 6),
    ("CMYK", 5000, 10), ("CMYK", 2500, 10), ("CMYK", 0, 10),
    # fixed bands even for other starting health
    ("무영", 4500, 6), ("무영", 4001, 6), ("무영", 4000, 7),
    ("핀프 & 솔다트", 5500, 6), ("핀프 & 솔다트", 5000, 6), ("핀프 & 솔다트", 4001, 6), ("핀프 & 솔다트", 4000, 7),
])
def test_guide_3_3_1_roster_hand_limit_bands(name, health, limit):
    assert roster.get(name).hand_limit(health) == limit


def test_chimera_trait_adds_one_to_every_band():
    c = roster.get("키메라")
    assert [c.hand_limit(h, trait_on=True) for h in (5000, 3500, 2500, 1500, 500)] == [6, 6, 6, 7, 7]
    # a trait flag on a character without a toggle trait changes nothing
    assert roster.get("니아").hand_limit(5000, trait_on=True) == 6


@pytest.mark.parametrize("char", roster.ROSTER, ids=lambda c: c.id)
def test_health_bands_agree_with_engine_character_format(char):
    """The roster in the engine's band format (brief 4.2) gives the same limits."""
    eng = EngineCharacter(health=char.health_bands, hand_limit=char.hand_limits)
    assert eng.start_health == char.start_health
    for h in range(-200, 6001, 50):
        assert eng.limit_for(h) == char.hand_limit(h), (char.id, h)


# ---------------------------------------------------------------- setup and log

def test_new_tracker_starts_from_roster():
    """Guide 3.4: each player starts at the character's leftmost health."""
    g = game("무영", "핀프 & 솔다트", priority="b", now_ms=50)
    assert (g.seat("a").health, g.seat("b").health) == (4500, 5500)
    assert g.seat("a").tokens == {"토큰": 3} and g.seat("b").tokens == {"토큰": 4}
    assert (g.turn, g.priority, g.sudden_death, g.winner) == (1, "b", False, None)
    assert g.log[0]["action"] == "new_game" and g.log[0]["ms"] == 50
    assert not g.can_undo()


def test_guide_3_4_1_coin_toss_is_seeded_and_uses_both_sides():
    firsts = {TrackerGame(seed=s).priority for s in range(16)}
    assert firsts == {"a", "b"}
    assert all(TrackerGame(seed=s).priority == TrackerGame(seed=s).priority for s in range(16))
    assert TrackerGame(seed=3).log[0]["values"]["toss"] is True


def test_log_entry_shape():
    g = game()
    (e,) = g.adjust_health("a", -300, 1234)
    assert set(e) == {"seq", "ms", "game", "turn", "seat", "action", "values", "health", "fp",
                      "text_ko", "text_en"}
    assert (e["seq"], e["ms"], e["seat"], e["action"], e["values"]) == (2, 1234, "a", "adjust_health",
                                                                        {"delta": -300})
    assert e["health"] == {"a": 4700, "b": 5000} and e["fp"] == {"a": 0, "b": 0}
    assert e["text_ko"] == "1P 체력 -300 (5000 → 4700)"
    assert e["text_en"] == "1P health -300 (5000 → 4700)"
    assert g.log[-1] == e


def test_log_names_the_character_and_uses_the_right_korean_particle():
    g = game("니아", "울프")
    assert g.set_health("a", 4700, 0)[0]["text_ko"] == "1P 니아 체력 4700으로 설정 (5000 → 4700)"
    assert g.set_health("b", 4702, 0)[0]["text_ko"] == "2P 울프 체력 4702로 설정 (5000 → 4702)"
    assert g.log[-1]["text_en"] == "2P Wolf health set to 4702 (5000 → 4702)"


# ---------------------------------------------------------------- actions

@pytest.mark.parametrize("delta", [-300, -400, -500, -600, 100, 200, -100, -200, -1234, 7])
def test_adjust_health_quick_buttons_and_any_integer(delta):
    g = game()
    g.adjust_health("b", delta, 0)
    assert g.seat("b").health == 5000 + delta and g.seat("a").health == 5000


def test_set_health_and_noop_makes_no_entry():
    g = game()
    assert g.set_health("a", 2500, 0)[0]["values"] == {"health": 2500}
    assert g.seat("a").health == 2500
    n = len(g.log)
    assert g.set_health("a", 2500, 10) == [] and g.adjust_health("a", 0, 20) == []
    assert len(g.log) == n


def test_fp_adjust_and_tap_to_zero():
    """Guide 3.7: FP may be negative; the calculator's tap-to-zero resets it."""
    g = game()
    g.adjust_fp("a", 2, 0)
    g.adjust_fp("a", -5, 2000)
    assert g.seat("a").fp == -3
    (e,) = g.reset_fp("a", 4000)
    assert g.seat("a").fp == 0 and e["action"] == "reset_fp" and e["fp"]["a"] == 0
    assert g.reset_fp("a", 5000) == []


def test_hand_count_and_over_limit():
    """Guide 3.3.1: over the band's limit the excess is discarded; the tracker flags it."""
    g = game()
    assert g.over_limit("a") is None
    g.set_hand_count("a", 6, 0)
    assert (g.hand_limit("a"), g.over_limit("a")) == (6, False)
    e = g.set_hand_count("a", 8, 0)[0]
    assert g.over_limit("a") is True and "over_limit" in g.flags("a")
    assert "초과 2장" in e["text_ko"] and "discard 2" in e["text_en"]
    g.adjust_health("a", -1500, 5000)          # 3500: 7-card band
    assert g.hand_limit("a") == 7 and g.over_limit("a") is True
    g.set_hand_count("a", None, 9000)
    assert g.over_limit("a") is None


def test_tokens_bounded_by_roster_max():
    g = game("울프", "린")
    g.token("a", "하울링", 3, 0)
    g.token("a", "Howling", 2, 5000)
    assert g.seat("a").tokens["하울링"] == 5
    with pytest.raises(TrackerError, match="0..5"):
        g.token("a", "하울링", 1, 9000)
    with pytest.raises(TrackerError, match="0..5"):
        g.set_token("a", "하울링", 6, 9000)
    with pytest.raises(TrackerError, match="0..5"):
        g.token("a", "하울링", -6, 9000)
    g.set_token("a", None, 0, 9000)            # the only counter
    assert g.seat("a").tokens["하울링"] == 0
    # 린: unbounded above, never below 0
    g.set_token("b", "토큰", 250, 0)
    g.token("b", None, 1000, 0)
    assert g.seat("b").tokens["토큰"] == 1250
    with pytest.raises(TrackerError, match="0 or more"):
        g.token("b", None, -1251, 0)


def test_token_names_are_checked():
    g = game("타오", "니아")
    with pytest.raises(TrackerError, match="counters: 양, 음"):
        g.token("a", None, 1, 0)               # two counters: the name is needed
    with pytest.raises(TrackerError, match="counters: none"):
        g.token("b", None, 1, 0)
    with pytest.raises(TrackerError, match="'하울링'"):
        g.set_token("a", "하울링", 1, 0)


def test_wolf_trait_flag_at_five_without_spending():
    """Brief 6: 울프's trait spends all at 5; the tracker flags it, the player spends."""
    g = game("울프", "니아")
    g.set_token("a", "하울링", 4, 0)
    assert not g.trait_active("a")
    e = g.token("a", "하울링", 1, 5000)[0]
    assert g.trait_active("a") and "trait_on" in g.flags("a")
    assert g.seat("a").tokens["하울링"] == 5 and "전부 소모" in e["text_ko"]
    g.set_token("a", "하울링", 0, 9000)
    assert not g.trait_active("a")


def test_tao_harmony_when_both_at_four():
    g = game("타오", "니아")
    g.set_token("a", "양", 4, 0)
    assert not g.trait_active("a")
    e = g.set_token("a", "Yin", 4, 0)[0]
    assert g.trait_active("a") and "조화" in e["text_ko"] and "Harmony" in e["text_en"]


def test_rita_stance_selector_and_lumen_of_light():
    g = game("리타", "니아")
    assert g.seat("a").stance is None and g.active_stances("a") == ()
    g.set_stance("a", "가디언", 0)
    assert g.active_stances("a") == ("가디언",) and not g.trait_active("a")
    g.set_stance("a", "Lumen of Light", 0)
    assert g.seat("a").stance == "빛의 루멘"
    assert g.active_stances("a") == ("가디언", "어쌔신", "팔라딘") and g.trait_active("a")
    g.set_stance("a", None, 0)
    assert g.active_stances("a") == ()
    with pytest.raises(TrackerError, match="stance must be one of"):
        g.set_stance("a", "닌자", 0)
    with pytest.raises(TrackerError, match="no stances"):
        g.set_stance("b", "가디언", 0)


def test_johan_token_plus_one_when_health_first_drops_to_2000():
    g = game("요한", "니아")
    g.adjust_health("a", -2999, 0)             # 2001: not yet
    assert g.seat("a").tokens["토큰"] == 3
    entries = g.adjust_health("a", -1, 5000)   # 2000: "2000 or less"
    assert [e["action"] for e in entries] == ["adjust_health", "trait_bonus"]
    assert g.seat("a").tokens["토큰"] == 4 and g.trait_active("a")
    g.adjust_health("a", 1000, 9000)
    g.adjust_health("a", -1500, 13000)         # second drop: no bonus
    assert g.seat("a").tokens["토큰"] == 4
    # the bonus is part of the action's undo step
    g2 = game("요한", "니아")
    g2.adjust_health("a", -3000, 0)
    g2.undo(100)
    assert g2.seat("a").tokens["토큰"] == 3 and not g2.seat("a").bonus_given


def test_johan_bonus_capped_at_max():
    g = game("요한", "니아")
    g.set_token("a", None, 5, 0)
    g.set_health("a", 1500, 5000)
    assert g.seat("a").tokens["토큰"] == 5 and g.seat("a").bonus_given


def test_muyeong_trait_on_while_health_at_most_2500():
    g = game("무영", "니아")
    g.set_health("a", 2501, 0)
    assert not g.trait_active("a")
    g.set_health("a", 2500, 0)
    assert g.trait_active("a")
    g.set_health("a", 2600, 0)
    assert not g.trait_active("a")


def test_chimera_trait_toggle_changes_hand_limit():
    g = game("키메라", "니아")
    assert g.hand_limit("a") == 5
    e = g.set_trait("a", True, 0)[0]
    assert g.hand_limit("a") == 6 and "패 상한 6" in e["text_ko"]
    g.set_health("a", 1500, 0)
    assert g.hand_limit("a") == 7
    g.set_trait("a", False, 0)
    assert g.hand_limit("a") == 6
    with pytest.raises(TrackerError, match="no trait toggle"):
        g.set_trait("b", True, 0)
    with pytest.raises(TrackerError, match="on must be true or false"):
        g.set_trait("a", 1, 0)


def test_set_character_only_in_turn_one_or_after_reset():
    g = game()
    g.adjust_fp("a", 1, 0)
    g.set_character("a", "무영", 0)
    assert (g.seat("a").character, g.seat("a").health, g.seat("a").tokens, g.seat("a").fp) == \
        ("muyeong", 4500, {"토큰": 3}, 1)
    g.next_turn(1000)
    with pytest.raises(TrackerError, match="first turn"):
        g.set_character("a", "니아", 2000)
    g.reset(3000)
    assert g.turn == 1 and g.seat("a").character == "muyeong" and g.seat("a").health == 4500
    g.set_character("a", "니아", 4000)
    assert g.seat("a").health == 5000


def test_new_game_and_reset():
    g = game("니아", "울프", priority="b")
    g.adjust_health("a", -500, 0)
    g.record_non_response("a", 0)
    g.next_turn(0)
    g.new_game("리타", None, priority="a", now_ms=10)
    assert (g.seat("a").character, g.seat("b").character) == ("rita", "wolf")
    assert (g.turn, g.priority, g.seat("a").health, g.seat("a").non_responses, g.game) == (1, "a", 5000, 0, 2)
    g.reset(20)
    assert g.priority == "a" and g.initial_priority == "a" and g.game == 3
    g.undo(30)
    g.undo(40)
    assert g.game == 1 and g.turn == 2 and g.seat("a").health == 4500


def test_non_response_third_loses():
    """Guide 3.10 step 4: the third non-response in a game loses it."""
    g = game()
    g.record_non_response("a", 0)
    g.record_non_response("a", 5000)
    assert g.winner is None and g.seat("a").non_responses == 2
    entries = g.record_non_response("a", 10000)
    assert (g.winner, g.end_reason) == ("b", "non_response")
    assert entries[-1]["action"] == "result" and entries[-1]["values"] == {"winner": "b", "reason": "non_response"}
    assert "2P 승리" in entries[-1]["text_ko"]


def test_perform_dispatches_json_commands():
    g = game()
    g.perform({"action": "adjust_health", "seat": "a", "delta": -300}, 0)
    g.perform({"action": "apply_battle", "health": {"b": -500}, "fp": {"a": 2}}, 5000)
    assert (g.seat("a").health, g.seat("b").health, g.seat("a").fp) == (4700, 4500, 2)
    with pytest.raises(TrackerError, match="action must be one of"):
        g.perform({"action": "explode"}, 0)
    with pytest.raises(TrackerError, match="bad arguments"):
        g.perform({"action": "adjust_health", "seat": "a"}, 0)


# ---------------------------------------------------------------- validation

BAD_CALLS = [
    ("adjust_health", ("c", -300, 0), "seat must be"),
    ("adjust_health", ("a", "-300", 0), "delta must be an integer"),
    ("adjust_health", ("a", 1.5, 0), "delta must be an integer"),
    ("adjust_health", ("a", True, 0), "delta must be an integer"),
    ("adjust_health", ("a", -300, 1.0), "now_ms must be"),
    ("set_health", ("a", None, 0), "health must be an integer"),
    ("adjust_fp", (None, 1, 0), "seat must be"),
    ("reset_fp", ("x", 0), "seat must be"),
    ("set_hand_count", ("a", -1, 0), "count must be 0 or more"),
    ("set_hand_count", ("a", "5", 0), "count must be an integer"),
    ("token", ("a", "하울링", 6, 0), "0..5"),
    ("token", ("a", "토큰", 1, 0), "is not a counter"),
    ("set_token", ("a", "하울링", -1, 0), "0..5"),
    ("set_stance", ("a", "가디언", 0), "no stances"),
    ("set_trait", ("a", True, 0), "no trait toggle"),
    ("record_non_response", ("ab", 0), "seat must be"),
    ("set_character", ("a", "nobody", 0), "roster id or Korean name"),
]


@pytest.mark.parametrize("method,args,message", BAD_CALLS, ids=[c[0] + "-" + c[2] for c in BAD_CALLS])
def test_bad_input_raises_and_leaves_state_unchanged(method, args, message):
    g = game("울프", "니아")
    g.adjust_health("a", -300, 0)                # something to undo / merge with
    before = frozen(g)
    with pytest.raises(TrackerError, match=message):
        getattr(g, method)(*args)
    assert frozen(g) == before


def test_bad_apply_battle_and_new_game_arguments():
    g = game()
    before = frozen(g)
    for kwargs, message in [({"health": {"c": -100}}, "seat must be"),
                            ({"health": {"a": "x"}}, r"health\[a\] must be an integer"),
                            ({"fp": [1, 2]}, "fp must map seats")]:
        with pytest.raises(TrackerError, match=message):
            g.apply_battle(now_ms=0, **kwargs)
    with pytest.raises(TrackerError, match="priority must be"):
        g.new_game(priority="c", now_ms=0)
    with pytest.raises(TrackerError, match="seed must be"):
        g.new_game(seed="x", now_ms=0)
    with pytest.raises(TrackerError, match="character for seat b"):
        g.new_game("니아", "nobody", now_ms=0)
    with pytest.raises(TrackerError, match="character for seat a"):
        TrackerGame("nobody")
    assert frozen(g) == before


def test_finished_game_refuses_actions_until_undo_or_new_game():
    """A KO refuses every action but the result entries of its turn (they may still make it
    a trade, or correct it: the unit stays open), undo and a new game."""
    g = game()
    g.adjust_health("a", -5000, 0)
    assert g.winner == "b"
    before = frozen(g)
    for call in (lambda: g.next_turn(5000), lambda: g.record_non_response("b", 5000),
                 lambda: g.set_hand_count("a", 3, 5000), lambda: g.set_character("a", "wolf", 5000)):
        with pytest.raises(TrackerError, match="game is over"):
            call()
    assert frozen(g) == before
    g.adjust_fp("a", 1, 60_000)                 # a result entry of the same turn: accepted
    assert g.winner == "b"
    g.undo(60_100)
    g2 = game()
    g2.record_non_response("a", 0)
    g2.record_non_response("a", 10)
    g2.record_non_response("a", 20)             # a result not by health is final
    with pytest.raises(TrackerError, match="game is over"):
        g2.adjust_health("b", -5000, 30)
    g.undo(6000)
    assert g.winner is None and g.seat("a").health == 5000
    g.adjust_health("a", -5000, 7000)
    g.new_game(now_ms=20000)
    assert g.winner is None and g.seat("a").health == 5000


# ---------------------------------------------------------------- undo (brief 6)

def test_undo_merges_three_taps_within_one_second():
    """The calculator's undo: presses on the same control within 1 s are one step."""
    g = game()
    g.adjust_fp("a", -1, 0)
    g.adjust_fp("a", -1, 600)
    g.adjust_fp("a", -1, 600 + MERGE_WINDOW_MS)   # 1000 ms after the previous: still merged
    assert g.seat("a").fp == -3
    (e,) = g.undo(5000)
    assert g.seat("a").fp == 0 and e["values"]["undone"] == [2, 3, 4]
    assert e["text_ko"] == "되돌리기: 1P FP -3 (-1 ×3, 0 → -3)"
    assert e["text_en"] == "undo: 1P FP -3 (-1 ×3, 0 → -3)"
    assert not g.can_undo()


def test_undo_labels_say_what_the_step_did_as_a_whole():
    """Issue 22 point 6: a double-tapped -300 reads -600, three token taps +3, both hit names both."""
    g = game("울프", "generic")
    g.adjust_health("b", -300, 0)
    g.adjust_health("b", -300, 400)
    assert g.view()["undo_text"]["ko"] == "2P 체력 -600 (-300 ×2, 5000 → 4400)"
    g.token("a", "하울링", 1, 2000)
    g.token("a", "하울링", 1, 2500)
    g.token("a", "하울링", 1, 3000)
    assert g.view()["undo_text"] == {"ko": "1P 울프 하울링 +3 (+1 ×3, 0 → 3)", "en": "1P Wolf Howling +3 (+1 ×3, 0 → 3)"}
    (e,) = g.undo(3100)
    assert e["text_ko"] == "되돌리기: 1P 울프 하울링 +3 (+1 ×3, 0 → 3)" and g.seat("a").tokens["하울링"] == 0
    g.apply_battle(health={"a": -300, "b": -500}, now_ms=9000)
    ko = g.view()["undo_text"]["ko"]
    assert ko.startswith("동시 히트: ") and "1P 울프 체력 -300" in ko and "2P 체력 -500" in ko
    g.apply_battle(health={"a": -6000, "b": -6000}, now_ms=12000)
    assert g.view()["undo_text"]["ko"].endswith("→ 서든 데스")


def test_undo_does_not_merge_after_one_second():
    g = game()
    g.adjust_fp("a", -1, 0)
    g.adjust_fp("a", -1, MERGE_WINDOW_MS + 1)
    g.undo(10000)
    assert g.seat("a").fp == -1
    g.undo(10000)
    assert g.seat("a").fp == 0


@pytest.mark.parametrize("second", [
    lambda g: g.adjust_fp("b", -1, 300),          # other seat
    lambda g: g.adjust_fp("a", 1, 300),           # other button
    lambda g: g.adjust_health("a", -1, 300),      # other control
])
def test_undo_merges_only_the_same_control(second):
    g = game()
    g.adjust_fp("a", -1, 0)
    second(g)
    g.undo(500)
    assert g.seat("a").fp == -1


def test_other_action_between_presses_breaks_the_merge():
    g = game()
    g.adjust_health("a", -100, 0)
    g.set_hand_count("b", 5, 100)
    g.adjust_health("a", -100, 200)
    g.undo(300)
    assert g.seat("a").health == 4900 and g.seat("b").hand_count == 5


def test_press_after_undo_starts_a_new_step():
    g = game()
    g.adjust_health("a", -100, 0)
    g.adjust_health("a", -100, 5000)
    g.undo(5100)
    g.adjust_health("a", -100, 5200)          # within 1 s of the undone press: no merge with step 1
    g.undo(5300)
    assert g.seat("a").health == 4900


def test_undo_stack_is_bounded():
    g = game()
    for i in range(UNDO_LIMIT + 20):
        g.adjust_health("a", -1, i * 2000)
    n = 0
    while g.can_undo():
        g.undo(10 ** 7)
        n += 1
    assert n == UNDO_LIMIT and g.seat("a").health == 5000 - 20
    with pytest.raises(TrackerError, match="nothing to undo"):
        g.undo(10 ** 7)


def test_clock_going_backwards_never_merges():
    g = game()
    g.adjust_health("a", -100, 5000)
    g.adjust_health("a", -100, 100)           # hub restarted: monotonic clock reset
    g.undo(200)
    assert g.seat("a").health == 4900


# ---------------------------------------------------------------- priority (guide 3.8)

def test_guide_3_8_priority_higher_fp_first():
    g = game(priority="a")
    g.adjust_fp("b", 1, 0)
    g.adjust_health("b", -2000, 0)
    assert g.priority == "a"                  # only recomputed at the turn change
    e = g.next_turn(0)[0]
    assert g.priority == "b" and e["values"]["reason"] == "fp"
    assert "우선권 2P (FP가 더 높음)" in e["text_ko"]


def test_guide_3_8_equal_fp_then_higher_health():
    g = game(priority="a")
    g.adjust_health("a", -100, 0)
    g.next_turn(0)
    assert (g.priority, g.log[-1]["values"]["reason"]) == ("b", "health")


def test_guide_3_8_equal_health_then_more_hand_cards_if_both_entered():
    g = game(priority="a")
    g.set_hand_count("b", 6, 0)
    g.next_turn(0)
    assert g.priority == "a" and g.log[-1]["values"]["reason"] == "kept"   # only one entered
    g.set_hand_count("a", 5, 0)
    g.next_turn(0)
    assert (g.priority, g.log[-1]["values"]["reason"]) == ("b", "hand")


def test_guide_3_8_all_equal_keeps_holder():
    for first in ("a", "b"):
        g = game(priority=first)
        g.set_hand_count("a", 5, 0)
        g.set_hand_count("b", 5, 0)
        g.next_turn(0)
        assert g.priority == first and g.turn == 2


def test_next_priority_preview_matches_next_turn():
    g = game(priority="b")
    g.adjust_fp("a", -2, 0)
    g.adjust_fp("b", -1, 0)
    assert g.next_priority() == ("b", "fp")
    g.adjust_fp("a", 2, 2000)
    assert g.next_priority() == ("a", "fp") and g.priority == "b"
    g.next_turn(3000)
    assert g.priority == "a"


# ---------------------------------------------------------------- win (guide 3.4)

def test_guide_3_4_zero_or_less_loses_one_survives():
    g = game()
    g.set_health("b", 1, 0)
    assert g.winner is None
    entries = g.adjust_health("b", -1, 5000)
    assert (g.winner, g.end_reason) == ("a", "health")
    assert entries[-1]["text_ko"] == "1P 승리 (2P 체력 0 이하)"


def test_correction_inside_the_unit_withdraws_the_ko():
    g = game()
    g.adjust_health("a", -5000, 0)
    assert g.winner == "b"
    g.adjust_health("a", 100, 800)             # still the same processing unit
    assert g.winner is None and g.log[-1]["values"] == {"winner": None, "reason": None}


def test_ko_switches_sides_inside_the_unit():
    g = game()
    g.adjust_health("a", -5000, 0)
    g.adjust_health("a", 5000, 500)
    g.adjust_health("b", -6000, 1000)
    assert (g.winner, g.end_reason) == ("a", "health")


# ---------------------------------------------------------------- sudden death (guide 5.1.2)

def _assert_sudden_death_started(g, prio, turn):
    assert g.sudden_death and g.sd_turn == 1 and g.turn == turn and g.winner is None
    assert (g.seat("a").health, g.seat("b").health) == (1000, 1000)
    assert (g.seat("a").fp, g.seat("b").fp) == (0, 0)
    assert g.priority == prio
    assert g.log[-1]["action"] == "sudden_death"


def test_guide_5_1_2_same_action_both_zero_starts_sudden_death():
    g = game("리타", "니아", priority="b")
    g.adjust_fp("a", 3, 0)
    g.set_hand_count("a", 4, 0)
    g.next_turn(1000)                          # priority -> a (FP)
    assert g.priority == "a"
    g.apply_battle(health={"a": -5000, "b": -5000}, fp={"b": 2}, now_ms=2000)
    _assert_sudden_death_started(g, "a", 3)
    assert g.hand_limit("a") == 10 and g.hand_limit("b") == 9       # 1000 band
    assert g.seat("a").hand_count == 10 and g.seat("b").hand_count is None


def test_guide_5_1_2_entries_for_both_seats_within_the_window_are_one_unit():
    g = game(priority="b")
    g.adjust_health("a", -600, 0)
    g.set_health("a", 0, 400)
    assert g.winner == "b"                     # shown at once, still open
    g.adjust_fp("b", 1, 900)                   # result entries keep the unit open
    g.adjust_health("b", -5000, 900 + MERGE_WINDOW_MS)
    _assert_sudden_death_started(g, "b", 2)


def test_guide_5_1_2_second_lethal_entry_seconds_later_is_a_trade():
    """Issue 22 point 2: a double KO typed as two taps far apart (before "next turn") is a
    trade: sudden death, said as such, not the first KO's win."""
    g = game(priority="b")
    g.adjust_health("a", -5000, 0)
    assert (g.winner, g.sudden_death) == ("b", False)
    g.adjust_health("b", -5000, 7 * MERGE_WINDOW_MS)
    _assert_sudden_death_started(g, "b", 2)
    assert g.log[-1]["values"]["trade"] is True and "동시 KO" in g.log[-1]["text_ko"]
    g.undo(8 * MERGE_WINDOW_MS)                 # the trade undone: the first KO is back
    assert (g.winner, g.sudden_death, g.seat("b").health) == ("b", False, 5000)


def test_a_win_the_second_ko_turns_into_sudden_death_is_marked_replaced_in_the_log():
    """Issue 37 point 4: between the two lethal taps of a double KO the log said "2P 승리 (1P 체력 0
    이하)" and kept saying it through the sudden death that followed. The line is marked replaced
    (and by what); an undo of the trade makes it stand again; a correction that withdraws it
    replaces it too; the marks survive the JSON round trip."""
    g = game("tao", "wolf", priority="b")
    g.adjust_health("a", -5000, 0)
    win = next(e for e in g.log if e["action"] == "result")
    assert win["text_ko"] == "2P 승리 (1P 체력 0 이하)"
    assert "replaced" not in win
    g.adjust_health("b", -5000, 7 * MERGE_WINDOW_MS)
    win = next(e for e in g.log if e["seq"] == win["seq"])
    assert win["replaced"] == {"ko": "같은 턴 동시 KO: 서든 데스", "en": "a double KO in the same turn: sudden death"}
    assert TrackerGame.from_json(g.to_json()).log == g.log
    g.undo(8 * MERGE_WINDOW_MS)                 # the trade undone: the win stands again, the trade is struck
    assert "replaced" not in g.log[win["seq"] - 1]
    assert [e["action"] for e in g.log if e.get("undone")] == ["adjust_health", "sudden_death"]
    g.adjust_health("a", 100, 9 * MERGE_WINDOW_MS)   # a correction in the same unit withdraws the win
    assert g.winner is None and g.log[win["seq"] - 1]["replaced"]["en"] == "withdrawn"


def test_other_action_closes_the_unit():
    g = game()
    g.adjust_health("a", -4900, 0)
    g.set_hand_count("a", 5, 100)
    g.adjust_health("a", -100, 200)            # new unit: a loses
    with pytest.raises(TrackerError, match="game is over"):
        g.set_hand_count("b", 5, 300)


def test_guide_5_1_2_three_turns_then_higher_health_wins():
    g = game(priority="a")
    g.apply_battle(health={"a": -5000, "b": -5100}, now_ms=0)
    g.adjust_health("b", -300, 2000)
    g.next_turn(3000)
    assert (g.sd_turn, g.turn) == (2, 3)
    g.next_turn(4000)
    assert g.sd_turn == 3 and g.winner is None
    entries = g.next_turn(5000)
    assert (g.winner, g.end_reason) == ("a", "sudden_death_turns")
    assert g.sd_turn == 3 and g.turn == 4
    assert "1P 승리" in entries[-1]["text_ko"] and "1000 대 700" in entries[-1]["text_ko"]


def test_guide_5_1_2_equal_health_after_three_turns_is_a_draw():
    g = game()
    g.apply_battle(health={"a": -5000, "b": -5000}, now_ms=0)
    for t in range(3):
        g.next_turn(1000 * (t + 1))
    assert (g.winner, g.end_reason) == ("draw", "sudden_death_turns")
    assert g.log[-1]["text_en"].startswith("draw")


def test_guide_5_1_2_both_zero_again_in_sudden_death_is_a_draw():
    g = game()
    g.apply_battle(health={"a": -5000, "b": -5000}, now_ms=0)
    g.adjust_health("a", -1000, 5000)
    assert g.winner == "b"
    g.adjust_health("b", -1200, 5500)
    assert (g.winner, g.end_reason) == ("draw", "sudden_death_double_ko")


def test_ko_in_sudden_death_wins_and_non_responses_carry_over():
    g = game()
    g.record_non_response("b", 0)
    g.record_non_response("b", 0)
    g.apply_battle(health={"a": -5000, "b": -5000}, now_ms=0)
    assert g.seat("b").non_responses == 2
    g.record_non_response("b", 1000)
    assert (g.winner, g.end_reason) == ("a", "non_response")
    g2 = game()
    g2.apply_battle(health={"a": -5000, "b": -5000}, now_ms=0)
    g2.adjust_health("b", -1000, 5000)
    assert (g2.winner, g2.end_reason) == ("a", "health")


def test_sudden_death_start_is_one_undo_step():
    g = game()
    g.adjust_health("a", -5000, 0)
    g.adjust_health("b", -5000, 500)
    g.undo(600)
    assert (g.sudden_death, g.winner, g.seat("b").health, g.seat("a").health) == (False, "b", 5000, 0)


# ---------------------------------------------------------------- JSON and determinism

def test_json_round_trip_simple():
    g = game("타오", "리타")
    g.token("a", "양", 2, 0)
    g.set_stance("b", "어쌔신", 100)
    g.adjust_fp("a", -1, 200)
    h = TrackerGame.from_json(json.loads(json.dumps(g.to_json(), ensure_ascii=False)))
    assert h == g and h.view() == g.view()
    # the merge window survives the round trip
    g.adjust_fp("a", -1, 700)
    h.adjust_fp("a", -1, 700)
    g.undo(800)
    h.undo(800)
    assert h == g and g.seat("a").fp == 0


def test_from_json_rejects_foreign_data():
    with pytest.raises(TrackerError, match="not a tracker game"):
        TrackerGame.from_json({"format": "x"})
    bad = game().to_json()
    del bad["state"]["turn"]
    with pytest.raises(TrackerError, match="invalid"):
        TrackerGame.from_json(bad)


def test_to_json_is_a_copy():
    g = game()
    d = g.to_json()
    d["state"]["seats"]["a"]["health"] = 1
    d["log"].clear()
    assert g.seat("a").health == 5000 and g.log


_NAMES = [c.id for c in roster.ROSTER]
_seat = st.sampled_from(["a", "b"])
_small = st.integers(-700, 700)
_token_name = st.sampled_from([None, "토큰", "하울링", "양", "음", "Yin", "nope"])
_action = st.one_of(
    st.tuples(st.just("adjust_health"), st.fixed_dictionaries({"seat": _seat, "delta": st.sampled_from(
        [-300, -400, -500, -600, 100, 200, -100, -200, -2500, 0])})),
    st.tuples(st.just("set_health"), st.fixed_dictionaries({"seat": _seat, "health": st.integers(-500, 6000)})),
    st.tuples(st.just("adjust_fp"), st.fixed_dictionaries({"seat": _seat, "delta": st.integers(-3, 3)})),
    st.tuples(st.just("reset_fp"), st.fixed_dictionaries({"seat": _seat})),
    st.tuples(st.just("set_hand_count"), st.fixed_dictionaries({"seat": _seat, "count": st.one_of(
        st.none(), st.integers(-1, 12))})),
    st.tuples(st.just("token"), st.fixed_dictionaries({"seat": _seat, "name": _token_name,
                                                        "delta": st.integers(-3, 3)})),
    st.tuples(st.just("set_token"), st.fixed_dictionaries({"seat": _seat, "name": _token_name,
                                                            "value": st.integers(-1, 11)})),
    st.tuples(st.just("set_stance"), st.fixed_dictionaries({"seat": _seat, "stance": st.sampled_from(
        [None, "가디언", "Paladin", "빛의 루멘", "x"])})),
    st.tuples(st.just("set_trait"), st.fixed_dictionaries({"seat": _seat, "on": st.booleans()})),
    st.tuples(st.just("apply_battle"), st.fixed_dictionaries({
        "health": st.dictionaries(_seat, st.sampled_from([-6000, -2500, -1200, -600, 0, 200])),
        "fp": st.dictionaries(_seat, st.integers(-3, 3))})),
    st.tuples(st.just("next_turn"), st.just({})),
    st.tuples(st.just("record_non_response"), st.fixed_dictionaries({"seat": _seat})),
    st.tuples(st.just("set_character"), st.fixed_dictionaries({"seat": _seat,
                                                                "character": st.sampled_from(_NAMES)})),
    st.tuples(st.just("new_game"), st.fixed_dictionaries({"a": st.sampled_from(_NAMES + [None]),
                                                          "b": st.sampled_from(_NAMES + [None])})),
    st.tuples(st.just("reset"), st.just({})),
    st.tuples(st.just("undo"), st.just({})),
)
_script = st.lists(st.tuples(_action, st.integers(0, 1600)), max_size=60)


def _run(g, script, now=0):
    """Apply a script; a refused action must leave the state exactly as it was."""
    for (name, kwargs), gap in script:
        now += gap
        before = frozen(g)
        try:
            g.perform(dict(kwargs, action=name), now)
        except TrackerError:
            assert frozen(g) == before, (name, kwargs)
        _check_invariants(g)
    return now


def _check_invariants(g):
    for s in ("a", "b"):
        seat = g.seat(s)
        ch = g.character(s)
        for spec in ch.tokens:
            assert 0 <= seat.tokens[spec.name] and (spec.max is None or seat.tokens[spec.name] <= spec.max)
        assert g.hand_limit(s) == ch.hand_limit(seat.health, seat.trait_on)
        assert seat.non_responses <= 3
    if g.winner is None:
        assert not (g.seat("a").health <= 0 and g.seat("b").health <= 0)
        assert not any(g.seat(s).health <= 0 for s in "ab")
    assert [e["seq"] for e in g.log] == list(range(1, len(g.log) + 1))
    assert g.sudden_death or g.sd_turn == 0


@settings(max_examples=150, deadline=None)
@given(seed=st.integers(0, 2 ** 32), a=st.sampled_from(_NAMES), b=st.sampled_from(_NAMES), script=_script)
def test_random_actions_round_trip_and_replay(seed, a, b, script):
    """Any action sequence: to_json/from_json gives an equal game, replaying gives
    the same state, and a restored game continues exactly like the original."""
    g = TrackerGame(a, b, seed=seed)
    end = _run(g, script)
    data = json.loads(json.dumps(g.to_json(), ensure_ascii=False))
    h = TrackerGame.from_json(data)
    assert h == g and h.to_json() == g.to_json()
    replay = TrackerGame(a, b, seed=seed)
    _run(replay, script)
    assert replay == g
    # the restored game continues exactly like the original (merge and unit windows included)
    _run(g, script[:10], now=end)
    _run(h, script[:10], now=end)
    assert h == g


@settings(max_examples=60, deadline=None)
@given(script=_script)
def test_undo_everything_returns_to_the_start(script):
    """Undoing every step gets back the state the game started with (when the
    stack did not overflow)."""
    g = TrackerGame("요한", "울프", priority="a")
    start = g.to_json()["state"]
    _run(g, [(act, gap) for act, gap in script if act[0] != "undo"])
    while g.can_undo():
        g.undo(10 ** 9)
    assert g.to_json()["state"] == start
