"""요정전승 (seeds/003) and the Gundam card game (seeds/002) from their texts' own sentences:
the meters and their limits, 1 on 1 and 2 on 2, turn order, the Gundam table's counters."""

import pytest

from hub.sessions.profile_game import ProfileGameError
from tests.profiles.helpers import Play


def test_yojeong_life_never_goes_above_20():
    """"라이프 메타 (20 -> 0) ... 최대치는 20 입니다. 플레이어의 라이프 메타가 20 을 초과하여 회복 할 수
    없습니다"."""
    p = Play("yojeong")
    assert p.game.value("a", "life") == 20
    p.cmd(action="adjust", seat="a", counter="life", delta=-4)
    p.cmd(action="adjust", seat="a", counter="life", delta=+7)
    assert p.game.value("a", "life") == 20
    assert p.texts()[-1] == "1P 라이프 +4 → 20 (라이프 최대 20: 넘지 않음)"
    p.cmd(action="adjust", seat="a", counter="life", delta=+3)          # at 20 already: still said, kept
    assert p.game.value("a", "life") == 20 and p.texts()[-1].endswith("(라이프 최대 20: 넘지 않음)")
    p.cmd(action="set", seat="b", counter="life", value=25)
    assert p.game.value("b", "life") == 20


def test_yojeong_cost_is_0_to_10_and_refills_at_the_players_turn():
    """"코스트 메타 (10 -> 0) ... 메타의 최대치는 10 입니다. 코스트 메타가 10을 넘어 회복되는 일은 없습니다. 소비한
    코스트 메타는 플레이어의 프리페어 페이즈에 10 까지 회복 됩니다"."""
    p = Play("yojeong", first="a")
    assert p.game.value("a", "cost") == 10 and p.st["turn_player"] == "a"
    p.cmd(action="adjust", seat="a", counter="cost", delta=-7)
    with pytest.raises(ProfileGameError):
        p.cmd(action="adjust", seat="a", counter="cost", delta=-4)      # a cost the meter cannot pay
    with pytest.raises(ProfileGameError):
        p.cmd(action="adjust", seat="a", counter="cost", delta=+8)      # never above 10
    assert p.game.value("a", "cost") == 3
    assert p.game.decision("a")["kind"] == "end_turn" and p.game.decision("b") is None   # the turn player ends it
    p.answer("a", "end_turn", "done")
    assert p.st["turn_player"] == "b" and p.game.value("a", "cost") == 3
    p.cmd(action="adjust", seat="b", counter="cost", delta=-5)
    p.answer("b", "end_turn", "done")
    assert p.game.value("a", "cost") == 10 and p.game.value("b", "cost") == 5        # a's turn again: refilled
    assert "1P 코스트 +7 → 10" in p.texts()


def test_yojeong_life_0_loses():
    """승리조건: "적 플레이어의 라이프 메타를 0 으로 만든다"."""
    p = Play("yojeong", first="b")
    p.cmd(action="adjust", seat="a", counter="life", delta=-30)
    assert p.st["winner"] == "b" and p.game.value("a", "life") == 0
    q = Play("yojeong")
    q.cmd(action="lose", seat="b")                  # "적의 덱을 0 장으로 만든다": entered as a loss
    assert q.st["winner"] == "a" and q.st["end_reason"] == "out"


def test_yojeong_two_on_two_teams_and_turn_order():
    """"이 게임은 1대1 또는 2대2로 싸웁니다. ... 2대2로 싸우는 경우에는 같이 싸울 파트너 (우리편 플레이어) 가 필요
    합니다": 1P and 3P against 2P and 4P, turns a b c d (our ruling: chapter 5 is not in the seed)."""
    p = Play("yojeong", players=4, first="b")
    assert p.game.seats == ("a", "b", "c", "d") and p.game.teams == [["a", "c"], ["b", "d"]]
    assert p.st["order"] == ["b", "c", "d", "a"]
    seen = []
    for _ in range(5):
        seen.append(p.st["turn_player"])
        p.answer(p.st["turn_player"], "end_turn", "done")
    assert seen == ["b", "c", "d", "a", "b"] and p.st["turn"] == 6
    p.cmd(action="adjust", seat="d", counter="life", delta=-20)       # 4P is out; 2P plays on for the team
    assert p.st["winner"] is None and p.st["out"] == ["d"]
    while p.st["turn_player"] != "c":
        p.answer(p.st["turn_player"], "end_turn", "done")
    p.answer("c", "end_turn", "done")
    assert p.st["turn_player"] == "a"                                 # 4P's turn is skipped
    p.cmd(action="adjust", seat="b", counter="life", delta=-20)
    assert p.st["winner"] == "a" and p.game.team_label("a") == "1P·3P"
    with pytest.raises(ProfileGameError):
        Play("yojeong", players=3)


def test_gundam_counters_and_turns():
    """Gundam 6.: "각 플레이어는 덱에서 6장의 카드를 뽑아 ... 쉴드 놓는 곳에 뒷면으로 둠", "후공 플레이어는 리소스
    영역에 EX 리소스 토큰 카드를 1장 액티브 상태로 둠"; 1.: "덱이 0장이 되는 경우" the player loses; 7.: turns
    are the turn player's, one after the other."""
    p = Play("gundam", first="b")
    assert {c["id"] for c in p.profile.counters} == {"base", "shields", "resources", "ex_resources", "deck"}
    assert p.game.value("a", "base") == 1        # 6.: "베이스 놓는 곳에 EX 베이스 토큰 카드를 1장" (the end of round counts it)
    assert p.game.value("a", "shields") == 6 and p.game.value("b", "shields") == 6
    assert p.game.value("b", "ex_resources") == 0 and p.game.value("a", "ex_resources") == 1   # b goes first
    assert p.game.value("a", "deck") == 39
    assert p.st["turn_player"] == "b"
    p.answer("b", "end_turn", "done")
    assert p.st["turn"] == 2 and p.st["turn_player"] == "a"
    p.cmd(action="adjust", seat="a", counter="shields", delta=-6)
    assert p.game.value("a", "shields") == 0 and p.st["winner"] is None    # no shield: the next battle damage loses
    p.cmd(action="lose", seat="a")                                         # ... which the players enter
    assert p.st["winner"] == "b"
    q = Play("gundam")
    q.cmd(action="set", seat="b", counter="deck", value=0)
    assert q.st["winner"] == "a"
    # Bandai TCG+ store practice (the lead's ruling, docs/rulings.md): 30 minutes, then 3 turns or 5 minutes
    assert p.profile.clock_defaults() == (30 * 60_000, 3) and p.profile.procedure()["extra_ms"] == 5 * 60_000
