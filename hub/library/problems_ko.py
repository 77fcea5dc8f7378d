"""The checker's problem messages in Korean, for the editor (Korean first).

The engine's linter speaks English (``lumen cards check`` and the scenario runner print it);
the editor shows each problem at its field in the page's language. This maps the linter's
message forms to Korean by pattern; a message without a pattern here is shown in English,
so a new linter message is never lost, only untranslated.
"""

from engine import josa
import functools
import re

_R = r"""['"]([^'"]*)['"]"""       # a name as the linter quotes it with %r

#: (message pattern, Korean form): compiled when the first message is translated, not at every
#: hub start (``patterns``)
FORMS = (
    (r"(\w+) must be an integer", r"\1은(는) 정수여야 합니다"),
    (r"must be an integer", "정수여야 합니다"),
    (r"must be 1 or more", "1 이상이어야 합니다"),
    (r"must be 0 or more", "0 이상이어야 합니다"),
    (r"must be true or false", "true 또는 false여야 합니다"),
    (r"must be a non-empty string", "비어 있지 않은 문자열이어야 합니다"),
    (r"must be a string", "문자열이어야 합니다"),
    (r"must be `this` or a card id", "`this` 또는 카드 id여야 합니다"),
    (r"must be one of (.*) \(got (.*)\)", r"\1 중 하나여야 합니다 (입력: \2)"),
    (r"must be a list of high, mid, low", "high, mid, low의 목록이어야 합니다"),
    (r"must be a string or \{ko: \.\.\., en: \.\.\.\}", "문자열 또는 {ko: ..., en: ...}이어야 합니다"),
    (r"missing or empty id", "id가 없거나 비어 있습니다"),
    (r"an attack needs an integer speed", "공격에는 정수 속도가 필요합니다"),
    (r"position must be high, mid or low \(got (.*)\)", r"위치는 high, mid, low 중 하나여야 합니다 (입력: \1)"),
    (r"damage must be a non-negative integer", "데미지는 0 이상의 정수여야 합니다"),
    (r"kind must be attack, defense or special \(got (.*)\)", r"종류는 attack, defense, special 중 하나여야 합니다 (입력: \1)"),
    (r"fp must be an integer", "FP는 정수여야 합니다"),
    (r"combo must be true or false", "콤보는 true 또는 false여야 합니다"),
    (r"unknown field " + _R + r" \(not allowed on a (\w+) card\)", r"\2 카드에는 \1 필드를 쓸 수 없습니다"),
    (r"unknown field " + _R + r"( \(allowed: (.*)\))?", r"모르는 필드 \1"),
    (r"unknown key " + _R + r" \(allowed: (.*)\)", r"모르는 키 \1 (가능: \2)"),
    (r"unknown position " + _R + r" \(high, mid or low\)", r"모르는 위치 \1 (high, mid, low)"),
    (r"unknown result " + _R + r" \(allowed here: (.*)\)", r"모르는 판정 결과 \1 (여기서 가능: \2)"),
    (r"unknown special judgment " + _R + r" \(allowed: evade, offset, grab\)", r"모르는 특수 판정 \1 (evade, offset, grab)"),
    (r"unknown effect " + _R + r" \(known primitives: (.*)\)", r"모르는 효과 \1 (프리미티브: \2)"),
    (r"unknown parameter " + _R + r" for effect " + _R + r"(.*)", r"효과 \2에 없는 매개변수 \1"),
    (r"missing parameter " + _R + r" for effect " + _R, r"효과 \2에 매개변수 \1이(가) 필요합니다"),
    (r"unknown timing " + _R + r" \(known: (.*)\)", r"모르는 타이밍 \1"),
    (r"unknown condition " + _R + r" \(known: (.*)\)", r"모르는 조건 \1"),
    (r"(\w+) needs a timing \(it happens once, at a moment\)", r"\1에는 타이밍이 필요합니다 (한 순간에 한 번 일어나는 효과)"),
    (r"(\w+) is a function read at setup: no timing", r"\1은(는) 준비 때 읽는 기능입니다: 타이밍 없음"),
    (r"(\w+) is not allowed on a (\w+) \(only on: (.*)\)", r"\1은(는) \2에 쓸 수 없습니다 (가능: \3)"),
    (r"amount must not be 0", "amount는 0이 아니어야 합니다"),
    (r"duration needs a timing .*", "지속 시간(duration)에는 타이밍이 필요합니다"),
    (r"zone " + _R + r" is not possible on a (\w+) \(possible: (.*)\)", r"\2에는 존 \1을(를) 쓸 수 없습니다 (가능: \3)"),
    (r"number must be 1 or more .*", "효과 번호는 1 이상입니다 (카드 텍스트의 ① ②)"),
    (r"optional must be true or false", "optional은 true 또는 false여야 합니다"),
    (r"then must be a non-empty list of effect entries", "then은 비어 있지 않은 효과 목록이어야 합니다"),
    (r"add_judgment needs positions or a speed bound", "add_judgment에는 위치나 속도 조건이 필요합니다"),
    (r"duplicate card id " + _R + r"(.*)", r"카드 id \1이(가) 중복됩니다"),
    (r"duplicate character id " + _R + r"(.*)", r"캐릭터 id \1이(가) 중복됩니다"),
    (r"a character needs an id", "캐릭터에는 id가 필요합니다"),
    (r"mark " + _R + r" is neither neutral nor a character's mark in this set.*", r"마크 \1은(는) 중립도 이 세트 캐릭터의 마크도 아닙니다"),
    (r"health must be a non-empty list of positive integers.*", "체력은 양의 정수 목록이어야 합니다 (체력 구간)"),
    (r"health bands must be strictly decreasing", "체력 구간은 줄어드는 순서여야 합니다"),
    (r"hand_limit must be a non-empty list of integers", "패 상한은 정수 목록이어야 합니다"),
    (r"hand_limit needs one entry per health band \((\d+) bands, (\d+) limits\)", r"패 상한은 체력 구간마다 하나씩입니다 (구간 \1개, 상한 \2개)"),
    (r"a deck has exactly (\d+) skill cards .*; this one has (\d+)", r"덱의 기술 카드는 정확히 \1장입니다 (지금 \2장, 가이드 4.5)"),
    (r"only (\d+) non-special skill cards; setup needs (\d+) .*", r"특수 기술이 아닌 카드가 \1장뿐입니다: 준비에 \2장 필요 (패 5 + 리스트 9, 가이드 3.4.1)"),
    (r"only (\d+) skill cards with (.*)'s mark; at least (\d+) are needed.*", r"\2 마크 카드가 \1장뿐입니다: 최소 \3장 (얼티밋 제외, 가이드 4.5.1)"),
    (r"(\d+) cards named " + _R + r"; (.*) per name however numbered.*", r"이름이 \2인 카드가 \1장입니다: 같은 이름은 번호가 달라도 제한됩니다 (가이드 4.5.1)"),
    (r"unknown card " + _R, r"모르는 카드 \1"),
    (r"a defense that guards, evades and offsets nothing is always hit.*",
     "방어·회피·상쇄 위치가 하나도 없는 수비는 늘 히트당합니다 (가이드 3.6.3): 방어, 회피, 상쇄 위치 중 하나를 정하세요"),
    (r"token " + _R + r" is not a counter of the card's character \(its tokens: (.*)\)",
     r"토큰 \1은(는) 이 카드 캐릭터의 토큰이 아닙니다 (캐릭터의 토큰: \2)"),
    (r"token " + _R + r" is not a counter of any character of this set \(its tokens: (.*)\)",
     r"토큰 \1은(는) 이 세트의 어느 캐릭터의 토큰도 아닙니다 (토큰: \2)"),
    (r"unknown character " + _R + r" \(in the set: (.*)\)", r"모르는 캐릭터 \1 (세트에 있는 캐릭터: \2)"),
    (r"is an ultimate: put it under deck.ultimate.*", "얼티밋 카드입니다: 20장이 아니라 얼티밋 칸에 넣으세요"),
)


@functools.cache
def patterns():
    return [(re.compile("^" + p + "$"), ko) for p, ko in FORMS]


def ko(message):
    """The Korean form of a checker message, or None when there is no pattern for it."""
    if not isinstance(message, str):
        return None
    for rx, out in patterns():
        m = rx.match(message)
        if m:
            return josa(m.expand(out))
    return None
