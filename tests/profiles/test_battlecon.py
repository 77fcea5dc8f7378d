"""BattleCON's beat from the rule text's own sentences (seeds/004, cited by section): the
attack pair picked face down, the ante, the reveal and priority, the clash and its re-picks,
the discard piles' cycle, the finisher, the 15-beat end and the best of 3. The pure profile
game (hub/sessions/profile_game/) with the bundled sample cards (invented, marked sample)
or with no card data (the players say who leads)."""

import pytest

from hub.sessions.profile_game import ProfileGameError
from tests.profiles.helpers import Play

CHARS = {"a": "haneul", "b": "bada"}


def cards_play(**kw):
    return Play("battlecon", chars=CHARS, **kw)


def test_the_pair_is_style_then_base_hidden_and_locked():
    """2.A: "공격쌍(스타일카드 1장 + 기본기카드 1장)을 만들어 중간에 뒷면으로 내려놓는다": each pod asks
    for a style, then a base; a locked part stays locked."""
    p = cards_play()
    d = p.game.decision("a")
    assert d["kind"] == "ready" and d["part"] == "style" and d["hidden"]
    p.answer("a", "ready", "haneul-dawn")
    d = p.game.decision("a")
    assert d["part"] == "base" and "haneul-dawn" not in str(d["options"])
    p.answer("a", "ready", "charge")
    assert p.game.decision("a")["locked"] and p.st["phase"] == "select"
    with pytest.raises(ProfileGameError):
        p.answer("a", "ready", "blast")             # locked: no change
    assert p.st["pick"]["a"] == {"style": "haneul-dawn", "base": "charge"}
    # the log says that a part was picked, never which (hidden until the reveal)
    assert not any("새벽" in t or "돌진" in t for t in p.texts())


def test_the_ante_goes_leader_first_until_both_pass_in_a_row():
    """2.B: "이전 격투(Beat)의 [선]이 먼저 ... 지불(Ante)하고, 그 후에 [후]가 ... 양쪽 모두 연속해서 [패스]를
    선언 할 때까지 위를 반복 한다"."""
    p = cards_play(first="b")
    p.pair("a", "haneul-dawn", "charge")
    p.pair("b", "bada-tide", "blast")
    assert p.st["phase"] == "ante" and p.st["ante"]["turn"] == "b"        # beat 1: the first player ([선])
    with pytest.raises(ProfileGameError):
        p.answer("a", "ante", "pass")                                    # not a's turn
    p.answer("b", "ante", "ante")
    p.answer("a", "ante", "pass")
    p.answer("b", "ante", "ante")                                        # a pass, then an ante: not both in a row
    p.answer("a", "ante", "pass")
    assert p.st["phase"] == "ante" and not p.st["revealed"]
    p.answer("b", "ante", "pass")                                        # a's pass and b's, in a row
    assert p.st["revealed"] and p.st["phase"] == "resolve"
    assert [t for t in p.texts() if "앤티" in t] == ["2P 앤티", "1P 앤티 패스", "2P 앤티", "1P 앤티 패스", "2P 앤티 패스"]


def test_the_reveal_compares_the_sum_of_priorities():
    """C-3: "우선권은 각 공격쌍에 표시된 우선권의 합을 비교하여 높은 쪽이 [선],낮은 쪽이 [후]가 된다"."""
    p = cards_play()
    p.beat(("haneul-dawn", "charge"), ("bada-tide", "blast"), end=False)     # 0+4 against 1+1
    assert p.st["leader"] == "a" and p.st["phase"] == "resolve"
    assert p.game.priority_of("a") == 4 and p.game.priority_of("b") == 2
    assert "우선권: 1P 선 (1P 4 대 2P 2)" in p.texts()


def test_a_clash_re_picks_a_base_hidden_on_top_of_the_last():
    """C-3-1: "만약 공격쌍의 우선권이 같다면 상쇄(Clash)가 발생한다 ... 각 플레이어는 아직 사용하지 않는
    기본기카드 한장을 선택하여 동시에 공개한다. 현재 공격쌍에 있는 기본기(Base) 카드 위에 내려놓고 공개한 기본기
    카드와 기존의 스타일(Style) 카드를 새로운 공격쌍으로 취급하여 다시 C-3)을 진행한다"."""
    p = cards_play()
    p.beat(("haneul-dawn", "hold"), ("bada-tide", "charge"), end=False)      # 0+5 against 1+4: a clash
    assert p.st["phase"] == "clash" and p.st["clashes"] == 1
    d = p.game.decision("a")
    assert d["kind"] == "ready" and d["part"] == "base" and d["hidden"]
    # "아직 사용하지 않는": not the base already used this beat, nor one in a discard pile
    assert "hold" not in d["options"] and "jab" not in d["options"] and "shot" not in d["options"]
    assert {"hold", "jab", "shot"} <= set(d["unavailable"])
    p.answer("a", "ready", "haneul-arc")
    assert p.st["clash"]["a"] == []                       # not revealed until both have picked ("동시에 공개")
    p.answer("b", "ready", "blast")
    assert p.st["clash"] == {"a": ["haneul-arc"], "b": ["blast"]}
    assert p.st["leader"] == "a" and p.st["phase"] == "resolve"        # 0+3 against 1+1
    p.end()
    # the recycle after a clash: only the top style and the top base are discarded; the rest comes back
    assert p.st["piles"]["a"][0] == ["haneul-dawn", "haneul-arc"]
    assert "hold" in p.st["hands"]["a"]["base"]
    assert p.st["piles"]["b"][0] == ["bada-tide", "blast"] and "charge" in p.st["hands"]["b"]["base"]


def test_a_double_clash():
    """C-3-1: "다시 C-3)을 진행한다": a second tie is a second clash, until priorities differ."""
    p = cards_play()
    p.beat(("haneul-mirror", "step"), ("bada-tide", "step"), end=False)      # 1+9 against 1+9
    assert p.st["phase"] == "clash"
    p.answer("a", "ready", "charge")
    p.answer("b", "ready", "charge")                     # 1+4 against 1+4: again
    assert p.st["phase"] == "clash" and p.st["clashes"] == 2
    assert "charge" not in p.game.decision("a")["options"] and "step" not in p.game.decision("a")["options"]
    p.answer("a", "ready", "hold")
    p.answer("b", "ready", "blast")                      # 1+5 against 1+1
    assert p.st["leader"] == "a" and p.st["clash"]["a"] == ["charge", "hold"]
    assert [t for t in p.texts() if t.startswith("상쇄")] == ["상쇄 (우선권 10)", "상쇄 (우선권 5)"]
    p.end()
    assert p.st["piles"]["a"][0] == ["haneul-mirror", "hold"]
    assert {"step", "charge"} <= set(p.st["hands"]["a"]["base"])


def test_a_clash_with_no_base_left_goes_straight_to_the_recycle():
    """C-3-1: "만일 연속해서 상쇄가 발생하여 어느 한 플레이어라도 더 이상 기본기카드를 공개할 수 없으면 즉시
    순환(ReCycle) 단계로 넘어간다"; "상쇄가 일어난 순환 단계에는 맨위의 스타일 카드와 맨위의 기본기카드만
    버림카드 더미로 버려지고 나머지 카드는 손패로 되돌아온다". No card data: the players say "clash" on a pod."""
    p = Play("battlecon", first="a")
    hand = list(p.st["hands"]["a"]["base"])
    assert hand == ["base-3", "base-4", "base-5", "base-6", "base-7"]     # base-1 and base-2 start in the piles (1.F)
    p.beat(("style-3", "base-3"), ("style-3", "base-3"), end=False)
    assert p.st["phase"] == "priority"
    assert p.game.decision("b") == {"kind": "priority", "options": ["a", "b", "clash"], "pass": None, "hidden": False,
                                    "locked": False}
    for base in hand[1:]:
        p.answer("b", "priority", "clash")
        assert p.st["phase"] == "clash"
        p.answer("a", "ready", base)
        p.answer("b", "ready", base)
        assert p.st["phase"] == "priority"
    p.answer("a", "priority", "clash")                 # the fifth clash: nobody has a base left
    assert p.st["turn"] == 2 and p.st["phase"] == "select"
    assert "1P·2P: 더 낼 기본기 없음 → 바로 순환" in p.texts()
    for s in "ab":
        assert p.st["piles"][s][0] == ["style-3", "base-7"]          # the top style and the top base
        assert p.st["hands"][s]["base"] == ["base-2", "base-3", "base-4", "base-5", "base-6"]   # the rest back, pile 2 too


def test_the_discard_piles_cycle_over_three_beats():
    """G: "버림카드 더미2 에 있는 카드들을 손패로 되돌린다. 버림카드 더미1 에 있는 카드들을 버림카드 더미2 로
    옮긴다. 이번 격투에 사용했던 맨위의 스타일카드와 기본기카드를 버림카드 더미1 로 옮긴다. 격투시간 카운터를
    1증가 시킨다"; what is in a pile cannot be picked: the pods are not offered it."""
    p = Play("battlecon", first="a")
    assert p.st["piles"]["a"] == [["style-1", "base-1"], ["style-2", "base-2"]]       # 1.F: the beginner's [1][2]
    seen = []
    for n, (s, b) in enumerate((("style-3", "base-3"), ("style-2", "base-2"), ("style-1", "base-1")), 1):
        d = p.game.decision("a")
        seen.append((d["options"], d["unavailable"]))
        assert s in d["options"]
        p.pair("a", s, b)
        for _part in "sb":
            p.pair("b", p.game.decision("b")["options"][0])
        p.antes_pass()
        p.answer("a", "priority", "a")
        p.end()
        assert p.st["turn"] == n + 1
    assert seen[0] == (["style-3", "style-4", "style-5"], ["style-1", "style-2"])
    assert seen[1] == (["style-2", "style-4", "style-5"], ["style-1", "style-3"])      # style-3 in pile 1, style-2 back
    assert seen[2] == (["style-1", "style-4", "style-5"], ["style-2", "style-3"])
    assert p.st["piles"]["a"] == [["style-1", "base-1"], ["style-2", "base-2"]]
    assert p.st["hands"]["a"]["style"] == ["style-3", "style-4", "style-5"]
    # the pods get only what may be picked: the greyed options are not slots
    p.pair("a", "style-4")
    assert "base-1" not in p.game.decision("a")["options"] and "base-2" not in p.game.decision("a")["options"]


def test_the_higher_life_wins_after_15_beats():
    """b.: "상대의 생명점을 먼저 0으로 만들거나, 15 격투(Beat) 후 생명이 더 높은쪽이 승리합니다"; 1.G: "격투시간
    카운터는 1로 맞춰 놓는다"."""
    p = Play("battlecon", first="a")
    assert p.st["turn"] == 1
    for n in range(15):
        for s in "ab":                                  # whatever each may pick first
            p.pair(s, p.game.decision(s)["options"][0])
            p.pair(s, p.game.decision(s)["options"][0])
        p.antes_pass()
        p.answer("a", "priority", "b")
        if n == 6:
            p.cmd(action="adjust", seat="b", counter="life", delta=-4)
            p.cmd(action="adjust", seat="a", counter="life", delta=-3)
        assert p.st["winner"] is None, "beat %d" % (n + 1)
        p.end()
    assert p.st["winner"] == "a" and p.st["end_reason"] == "turn_limit" and p.st["turn"] == 15
    assert p.game.value("a", "life") == 17 and p.game.value("b", "life") == 16
    assert p.texts()[-1] == "1P 승리 (15격투 종료)"


def test_equal_life_after_15_beats_is_a_draw_and_life_0_loses_at_once():
    """b. and H.1: "상대방의 생명점을 0으로 만들면 승리"."""
    p = Play("battlecon", first="a")
    for n in range(15):
        for s in "ab":
            p.pair(s, p.game.decision(s)["options"][0])
            p.pair(s, p.game.decision(s)["options"][0])
        p.antes_pass()
        p.answer("b", "priority", "a")
        p.end()
    assert p.st["winner"] == "draw"
    q = Play("battlecon", first="a")
    q.cmd(action="adjust", seat="b", counter="life", delta=-25)
    assert q.game.value("b", "life") == 0 and q.st["winner"] == "a"          # kept at 0: the counter's min
    with pytest.raises(ProfileGameError):
        q.answer("a", "ready", "style-3")                                  # over: nothing more is asked


def test_the_finisher_unlocks_at_7_and_wins_a_tie():
    """2.B: "만약, 캐릭터의 생명점이 7 이하(붉은색으로 표시)라면 피니셔 카드를 사용 할 수 있다"; C-1-a: "피니셔를
    사용한 경우, 선택했던 공격쌍은 공개되지 않고 대신 피니셔카드 만을 가지고 진행한다"; C-3-1: "피니셔의 경우,
    우선권이 동률일 경우 이긴것으로 간주한다"."""
    p = cards_play()
    p.pair("a", "haneul-dawn", "charge")
    p.pair("b", "bada-tide", "hold")
    assert p.game.decision("a")["options"] == ["ante"]            # life 20: no finisher
    p.antes_pass()
    p.end()
    p.cmd(action="adjust", seat="b", counter="life", delta=-13)      # 7: "7 이하"
    p.pair("a", "haneul-mirror", "hold")                             # 1+5 = 6
    p.pair("b", "bada-reef", "blast")
    lead = p.st["ante"]["turn"]
    assert lead == "b"                                               # the last beat's [선] antes first
    assert p.game.decision("b")["options"] == ["ante", "bada-maelstrom"]
    p.answer("b", "ante", "bada-maelstrom")                          # priority 5 ...
    p.antes_pass()
    # ... the pair is not revealed: the finisher alone; 6 against 5: 1P leads
    assert p.game.priority_of("b") == 5 and p.st["leader"] == "a"
    p.end()
    # the pair went back to hand; the finisher is used (once a duel: our ruling, the text is silent)
    assert "blast" in p.st["hands"]["b"]["base"] and p.st["piles"]["b"][0] == []
    assert p.st["alt"]["b"]["used"] and not p.game.alt_ready("b")


def test_a_finisher_against_a_pair():
    """C-3: a finisher's own priority against the pair's sum; the finisher is anted in turn."""
    p = cards_play()
    p.cmd(action="set", seat="a", counter="life", value=5)
    p.cmd(action="set", seat="b", counter="life", value=6)
    p.pair("a", "haneul-dawn", "charge")
    p.pair("b", "bada-tide", "blast")
    p.answer("a", "ante", "haneul-skyfall")               # priority 6
    p.answer("b", "ante", "pass")
    p.answer("a", "ante", "pass")
    assert p.st["leader"] == "a"
    p.end()
    q = cards_play(alts={"a": "haneul-last-light"})      # 1.E: the finisher chosen at the setup
    q.cmd(action="set", seat="a", counter="life", value=5)
    q.cmd(action="set", seat="b", counter="life", value=6)
    q.pair("a", "haneul-dawn", "charge")
    q.pair("b", "bada-tide", "blast")
    q.answer("a", "ante", "haneul-last-light")            # priority 2 ...
    with pytest.raises(ProfileGameError):
        q.answer("b", "ante", "bada-squall")               # not a finisher: refused, nothing changed
    assert q.st["ante"]["passes"] == 0 and q.st["ante"]["turn"] == "b"
    q.answer("b", "ante", "bada-maelstrom")                # priority 5: no tie, 2P leads
    q.antes_pass()
    assert q.st["leader"] == "b"


def test_two_finishers_tied():
    """C-3-1: "만약 양쪽 모두 피니셔이고 상쇄가 발생 한다면, 서로 새로운 격투쌍을 선택하고 동시에 공개하여
    공개 단계부터 다시 시작한다"; with the players' own card data (a file in the card format)."""
    from hub.profiles import cards
    # a card set of our own: two characters whose finishers have the same priority
    text = """
format: lumen-profile-cards/1
kind: battlecon
set: {id: tie-test, name: {ko: 시험, en: test}}
bases:
  - {id: jab, part: base, name: 잽, range: [1, 1], power: 3, priority: 3, discard: 1}
  - {id: shot, part: base, name: 사격, range: [1, 4], power: 3, priority: 2, discard: 2}
  - {id: swing, part: base, name: 휘두르기, range: [1, 1], power: 3, priority: 3}
characters:
  - id: one
    name: 하나
    cards:
      - {id: s1, part: style, name: 가, power: 0, priority: 0, discard: 1}
      - {id: s2, part: style, name: 나, power: 0, priority: 0, discard: 2}
      - {id: s3, part: style, name: 다, power: 0, priority: 0}
      - {id: s4, part: style, name: 라, power: 0, priority: 1}
      - {id: f1, part: finisher, name: 필살, power: 6, priority: 4}
  - id: two
    name: 둘
    cards:
      - {id: t1, part: style, name: 마, power: 0, priority: 0, discard: 1}
      - {id: t2, part: style, name: 바, power: 0, priority: 0, discard: 2}
      - {id: t3, part: style, name: 사, power: 0, priority: 0}
      - {id: t4, part: style, name: 아, power: 0, priority: 2}
      - {id: f2, part: finisher, name: 비기, power: 6, priority: 4}
"""
    from engine.core.yamlio import load_yaml_text
    from hub.profiles import profile
    from hub.sessions.profile_game import ProfileGame
    cs = cards.parse(load_yaml_text(text), "tie.yaml")
    g = ProfileGame(profile.get("battlecon"), 2, {"a": cs.character("one"), "b": cs.character("two")}, first="a")
    t = 0

    def ans(seat, kind, value):
        nonlocal t
        t += 1
        return g.answer(seat, kind, value, t)
    for s in "ab":
        g.perform({"action": "set", "seat": s, "counter": "life", "value": 7}, 1)
    ans("a", "ready", "s3")
    ans("a", "ready", "swing")
    ans("b", "ready", "t3")
    ans("b", "ready", "swing")
    ans("a", "ante", "f1")
    ans("b", "ante", "f2")
    ans("a", "ante", "pass")
    ans("b", "ante", "pass")
    # both finishers, priority 4 each: new pairs, picked hidden and revealed from the reveal (no antes)
    assert g.st["phase"] == "select" and g.st["redo"] and not g.st["revealed"]
    assert g.st["alt"]["a"]["used"] and not g.st["alt"]["a"]["active"]
    ans("a", "ready", "s4")
    ans("a", "ready", "swing")
    ans("b", "ready", "t4")
    ans("b", "ready", "swing")
    assert g.st["phase"] == "resolve" and g.st["leader"] == "b"        # 1+3 against 2+3
    g.answer("a", "end_turn", "done", 50)
    g.answer("b", "end_turn", "done", 51)
    assert g.st["piles"]["a"][0] == ["s4", "swing"]                  # the new pair is the beat's


def test_a_best_of_3_match():
    """c.: "2회 먼저 대결을 승리하는 쪽이 경기에서 승리합니다"."""
    p = Play("battlecon", first="a")
    with pytest.raises(ProfileGameError):
        p.cmd(action="new_game")                        # the duel is not over
    p.cmd(action="adjust", seat="b", counter="life", delta=-20)
    assert p.st["wins"] == {"a": 1} and p.game.match_winner() is None
    p.cmd(action="new_game")
    assert p.st["game"] == 2 and p.game.value("b", "life") == 20 and p.st["turn"] == 1
    assert p.st["piles"]["b"] == [["style-1", "base-1"], ["style-2", "base-2"]]
    p.cmd(action="lose", seat="a")
    p.cmd(action="new_game")
    p.cmd(action="adjust", seat="a", counter="life", delta=-20)
    assert p.st["wins"] == {"a": 1, "b": 2} and p.game.match_winner() == "b"


def test_undo_takes_back_an_entry_not_a_decision():
    p = cards_play()
    p.cmd(action="adjust", seat="a", counter="life", delta=-3)
    p.cmd(action="undo")
    assert p.game.value("a", "life") == 20
    p.cmd(action="adjust", seat="a", counter="life", delta=-2)
    p.answer("a", "ready", "haneul-dawn")
    with pytest.raises(ProfileGameError):
        p.cmd(action="undo")                             # a pick is not the display's to take back
    assert p.game.value("a", "life") == 18


def test_the_game_round_trips_through_json():
    from hub.profiles import profile
    from hub.sessions.profile_game import ProfileGame
    p = cards_play()
    p.beat(("haneul-dawn", "hold"), ("bada-tide", "charge"), end=False)
    g2 = ProfileGame.from_json(p.game.to_json(), profile.get("battlecon"), p.game.characters)
    assert g2.to_json() == p.game.to_json()
    g2.answer("a", "ready", "haneul-arc", 1000)
    assert g2.st["clash_pick"] == {"a": "haneul-arc"}
