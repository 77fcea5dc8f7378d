"""Issue 34.4: a person plays a seat of ``lumen demo --play a`` at a terminal, tested in a
pseudo-terminal as they type. Before: the first 10-second ready ran out while the banner was
read, prompts showed request kinds inside Korean ("[ready]", "[choose] 1) use 0) pass"),
"99" printed "?" and "hello" nothing, and no coach line reached the terminal."""

import os
import re
import sys

import pexpect
import pytest

from engine.cards import load_sample
from hub.cli.terminal_seat import bad_answer
from hub.sessions.asking import choice_texts

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
WAIT_S = 300            # a bound for a broken run only: every step waits for a line, not for time
IDENTIFIER = re.compile(r"\b[a-z]+_[a-z_]+\b")


def test_a_whole_coached_game_at_the_terminal():
    child = pexpect.spawn(sys.executable, ["-m", "hub.cli", "demo", "--play", "a", "--no-serve", "--level", "normal",
                                           "--seed", "2"], cwd=ROOT, encoding="utf-8", timeout=WAIT_S,
                          env=dict(os.environ, PYTHONUNBUFFERED="1"), dimensions=(50, 200))
    transcript = []
    try:
        child.expect("Enter를 누르면 시작합니다")
        transcript.append(child.before + child.after)
        try:                                  # whatever the demo printed meanwhile: the game has not begun
            transcript.append(child.read_nonblocking(100_000, timeout=1))
        except pexpect.TIMEOUT:
            pass
        assert "1턴 시작" not in "".join(transcript), "the game began before Enter"
        child.sendline("")
        child.expect("당신의 차례: 레디할 카드를 고르세요")
        child.expect(r"\n      1\) ")           # the options: card names with what each card is
        child.expect(r"\n")
        first_option = child.before
        assert "(공격" in first_option or "(수비" in first_option or "(특수" in first_option, first_option
        child.sendline("99")
        child.expect(r"! 99 번은 없습니다: 1부터 \d+까지 고르세요")
        child.sendline("hello")
        child.expect(r"! 알 수 없는 입력입니다 \(hello\)")
        child.expect("초 남았습니다")         # the countdown, once the bot has readied
        child.sendline("1")
        coached = False
        for _ in range(400):
            i = child.expect(["당신의 차례", "코치: ", r"게임 1: 승자 .*\n"])
            transcript.append(child.before + child.after)
            if i == 0:
                child.expect(r"\n(?=      1\) |      0\) )")
                child.sendline("1")
            elif i == 1:
                coached = True
            else:
                break
        else:
            pytest.fail("the game did not end")
        assert coached, "no coach line after a reveal"
        said = "".join(transcript)
        for raw in ("[ready]", "[get]", "[choose]", "[combo]"):
            assert raw not in said
        asked = [line for line in said.splitlines() if line.startswith("   >> ") or re.match(r"\s+\d+\) ", line)]
        assert asked and not [line for line in asked if IDENTIFIER.search(line)], asked
        child.expect(pexpect.EOF)
    finally:
        child.close(force=True)
    assert child.exitstatus == 0, child.exitstatus


def test_a_bad_answer_says_what_was_wrong_in_both_languages():
    assert bad_answer("3", 5, False, "ko") is None and bad_answer("0", 5, True, "en") is None
    assert bad_answer("0", 5, False, "en") == "there is no option 0: choose 1 to 5"
    assert bad_answer("7", 2, True, "ko") == "7 번은 없습니다: 0부터 2까지 고르세요"
    assert "next/prev/READY/back" in bad_answer("hello", 2, False, "en")
    assert bad_answer("1", 0, False, "ko").startswith("지금은 고를 번호가 없습니다")


def test_a_choice_is_said_by_what_each_option_does():
    """미들 킥 (sample card): "choose one: 1 faster, or damage +100" (guide 5.6.2)."""
    cards = load_sample()[0].cards
    assert choice_texts(cards, "middle-kick:1", "ko") == {"fast": "1 빨라진다", "heavy": "데미지 +100"}
    assert choice_texts(cards, "middle-kick:1", "en") == {"fast": "1 faster", "heavy": "Damage +100"}
    assert choice_texts(cards, "middle-kick:9", "en") == {} and choice_texts(cards, "nothing:1", "en") == {}
