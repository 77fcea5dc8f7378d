"""Issue 12, point 10: every error a person can see has a sentence in Korean and English
that says what to do, never a pydantic path or an engine phrase (``detail`` keeps those
for developers)."""

import re

import pytest

from tests.web.conftest import AUTH, aid

JARGON = re.compile(r"body\.|Input should|phase \w+|\bseat [ab]\b|\ba cannot\b|\bb cannot\b|_ms\b|"
                    r"extra_turns|duration|winner=|reason=|%r|None|\{|\}")


def post(client, path, body, headers=AUTH):
    return client.post(path, json=dict(body, action_id=aid()), headers=headers)


def check(r, status):
    assert r.status_code == status, r.text
    m = r.json()["message"]
    assert set(m) == {"ko", "en"}
    for lang in ("ko", "en"):
        assert m[lang] and not JARGON.search(m[lang]), (lang, m[lang], r.json()["detail"])
    assert re.search("[가-힣]", m["ko"])
    return m


def test_a_clock_value_out_of_range_says_the_range_in_minutes(client):
    m = check(post(client, "/api/control/timer", {"action": "round_start", "duration_ms": 999 * 3600 * 1000}), 422)
    assert "1~360분" in m["ko"] and "between 1 and 360 minutes" in m["en"]
    m = check(post(client, "/api/control/timer", {"action": "extend", "ms": 0}), 422)
    assert "연장" in m["ko"]


def test_a_second_ready_is_told_plainly(client):
    post(client, "/api/control/games", {"mode": "tracker"})
    assert post(client, "/api/control/decision", {"seat": "a", "kind": "ready"}).status_code == 200
    m = check(post(client, "/api/control/decision", {"seat": "a", "kind": "ready"}), 409)
    assert "이미 레디" in m["ko"] and "already readied" in m["en"]


@pytest.mark.parametrize("path,body,status", [
    ("/api/control/timer", {"action": "pause"}, 409),
    ("/api/control/timer", {"action": "undo"}, 409),
    ("/api/control/tracker", {"command": {"action": "undo"}}, 409),
    ("/api/control/tracker", {"command": {"action": "adjust_health", "seat": "a", "delta": "x"}}, 422),
    ("/api/control/token", {"new_token": "short"}, 422),
    ("/api/control/games/999/resume", {}, 404),
])
def test_refusals_read_as_sentences(client, path, body, status):
    post(client, "/api/control/games", {"mode": "tracker"})
    check(post(client, path, body), status)


def test_the_game_over_refusal_says_undo_or_new_game(client, table):
    post(client, "/api/control/games", {"mode": "tracker"})
    post(client, "/api/control/tracker", {"command": {"action": "set_health", "seat": "a", "health": 0}})
    table.clock.advance(2000)
    # a result entry of the same turn is still taken (it may make a trade, issue 22); anything else is refused
    m = check(post(client, "/api/control/tracker", {"command": {"action": "next_turn"}}), 409)
    assert "되돌리기" in m["ko"] and "Undo" in m["en"]


def test_a_wrong_token_says_how_to_log_in_again(client):
    m = check(post(client, "/api/control/timer", {"action": "pause"}, headers={"Authorization": "Bearer wrong-token"}), 403)
    assert "#admin=" in m["en"] and "관리" in m["ko"]
    m = check(post(client, "/api/control/timer", {"action": "pause"}, headers={}), 401)
    assert "#admin=" in m["ko"]


GENERIC = "허브가 이 동작을 받지 않았습니다"


def test_another_games_refusals_say_why_and_what_to_do(client):
    """Issue 37 point 3: BattleCON's "다음 격투" during the picks, and the other refusals of a
    profile game, read "허브가 이 동작을 받지 않았습니다 ..." (the fallback). Each says why and what
    to do now, in both languages."""
    assert post(client, "/api/control/games", {"mode": "profile", "profile": "battlecon", "priority": "a"}).status_code == 200
    cases = [({"action": "next_turn"}, "고르기", "pick"),
             ({"action": "new_game"}, "끝나지 않았습니다", "not over"),
             ({"action": "undo"}, "되돌릴 입력이 없습니다", "Nothing to undo")]
    for cmd, ko, en in cases:
        m = check(post(client, "/api/control/profile", {"command": cmd}), 409)
        assert ko in m["ko"] and en in m["en"] and GENERIC not in m["ko"], (cmd, m)
    assert post(client, "/api/control/games", {"mode": "profile", "profile": "yojeong", "priority": "a"}).status_code == 200
    m = check(post(client, "/api/control/profile", {"command": {"action": "adjust", "seat": "a", "counter": "cost", "delta": 5}}), 409)
    assert "범위" in m["ko"] and "range" in m["en"], m
    m = check(post(client, "/api/control/profile", {"command": {"action": "adjust", "seat": "a", "counter": "mana", "delta": 1}}), 409)
    assert "카운터" in m["ko"], m
