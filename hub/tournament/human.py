"""What the TD reads when the event says no (issue 22 point 12): every error of the TD's API
also carries ``message: {"ko": ..., "en": ...}``, a sentence that says what happened and
what to do, never "422 reason: String should have at least 3 characters". ``detail`` stays
for developers. The same idea as the table's hub/web/human.py, for the event's words."""

from engine import josa
import re

#: request fields the TD fills in: what to enter, in Korean and in English
FIELDS = {
    "reason": ("사유를 3자 이상 적으세요.", "Enter a reason of at least 3 characters."),
    "minutes": ("연장 시간은 1~60분으로 입력하세요.", "Enter an extension between 1 and 60 minutes."),
    "table": ("테이블 번호를 1~9999로 입력하세요.", "Enter a table number between 1 and 9999."),
    "round": ("라운드를 확인하세요 (대진이 있는 라운드).", "Check the round (one that has pairings)."),
    "a_wins": ("A의 승수를 0~5로 입력하세요.", "Enter A's wins between 0 and 5."),
    "b_wins": ("B의 승수를 0~5로 입력하세요.", "Enter B's wins between 0 and 5."),
    "draws": ("무승부 수를 0~5로 입력하세요.", "Enter the draws between 0 and 5."),
    "name": ("이름을 1~80자로 적으세요.", "Enter a name of 1 to 80 characters."),
    "player": ("선수를 고르세요.", "Choose the player."),
}

#: refusals of the event, the TD and the round clock: (pattern on ``detail``, ko, en)
REFUSALS = [
    (r"round (\d+) still has tables without a result", r"라운드 \1에 아직 결과가 없는 테이블이 있습니다. 결과를 모두 입력한 뒤 대진을 짜세요.",
     r"Round \1 still has tables without a result: enter them all, then pair."),
    (r"the event is over", "대회가 끝났습니다.", "The event is over."),
    (r"no round has been paired yet|pair a round first", "먼저 ‘다음 라운드 대진’을 누르세요.", "Pair a round first."),
    (r"round (\d+) has started: it can no longer be re-paired", r"라운드 \1은(는) 이미 시작되어 다시 짤 수 없습니다.",
     r"Round \1 has started: it can no longer be re-paired."),
    (r"round (\d+) has already started", r"라운드 \1은(는) 이미 시작했습니다.", r"Round \1 has already started."),
    (r"round (\d+) has not started", r"라운드 \1이(가) 아직 시작되지 않았습니다. ‘라운드 시작’을 먼저 누르세요.",
     r"Round \1 has not started: press Start round first."),
    (r"table (\d+) of round (\d+) already has a result", r"라운드 \2 테이블 \1에는 이미 결과가 있습니다. 바꾸려면 사유와 함께 ‘변경’을 누르세요.",
     r"Table \1 of round \2 already has a result: to change it, give a reason and press Override."),
    (r"an override needs a reason", "결과를 바꾸려면 사유를 3자 이상 적으세요.", "An override needs a reason of at least 3 characters."),
    (r"round (\d+) has started: a result of round (\d+) can no longer change",
     r"라운드 \1이(가) 시작되어 라운드 \2의 결과는 더 바꿀 수 없습니다 (승자가 다음 경기를 하고 있습니다).",
     r"Round \1 has started: results of round \2 can no longer change (the winner plays on)."),
    (r"confirm needed: (.+) \(round (\d+), table (\d+)\)",
     r"라운드 \2 테이블 \3의 결과를 바꾸려면 확인이 필요합니다 (\1: 진행 중인 경기이거나 다음 라운드가 이미 시작됨). 화면에서 다시 확인하세요.",
     r"Correcting table \3 of round \2 needs confirming (\1: a game still in play, or a later round started): confirm it on the page."),
    (r"table (\d+) of round (\d+) is (.+) vs (.+), not the players the correction names",
     r"라운드 \2 테이블 \1은(는) \3 대 \4의 경기입니다. 고치려는 경기가 맞는지 라운드와 테이블을 확인하세요.",
     r"Table \1 of round \2 is \3 vs \4: check the round and the table of the game you mean."),
    (r"table (\d+) of round (\d+) has changed since: its result is now (\S+)",
     r"라운드 \2 테이블 \1의 결과가 그사이 바뀌었습니다 (지금 \3). 다시 확인한 뒤 고치세요.",
     r"Table \1 of round \2 changed meanwhile (now \3): look again, then correct it."),
    (r"table (\d+) of round (\d+) has changed since correction (\S+): undo the later change first",
     r"라운드 \2 테이블 \1은(는) 정정 \3 뒤에 다시 바뀌었습니다. 나중의 변경을 먼저 되돌리세요.",
     r"Table \1 of round \2 changed after correction \3: undo the later change first."),
    (r"correction (\S+) has already been undone", r"정정 \1은(는) 이미 되돌렸습니다.", r"Correction \1 has already been undone."),
    (r"an undo needs a reason", "되돌리는 사유를 3자 이상 적으세요.", "An undo needs a reason of at least 3 characters."),
    (r"conflict (\S+) has already been resolved", r"충돌 \1은(는) 이미 해결했습니다.", r"Conflict \1 has already been resolved."),
    (r"no (correction|conflict) '?([^']*)'?", r"찾을 수 없습니다: \2", r"There is no \1 \2."),
    (r"round (\d+) has no table (\S+)", r"라운드 \1에 테이블 \2이(가) 없습니다.", r"Round \1 has no table \2."),
    (r"no round (\S+) \(the event has (\d+)\)", r"라운드 \1이(가) 없습니다 (지금 \2라운드까지).", r"There is no round \1 (the event has \2)."),
    (r"a best-of-(\d+) match cannot end (\d+)-(\d+)", r"\1판제 경기는 \2-\3으로 끝날 수 없습니다.",
     r"A best-of-\1 match cannot end \2-\3."),
    (r"an elimination match needs a winner", "토너먼트 경기는 승자가 있어야 합니다. 무승부면 다시 경기합니다.",
     "An elimination match needs a winner: a drawn match is played again."),
    (r"no player '?([^']*)'?", r"선수를 찾을 수 없습니다: \1", r"There is no player \1."),
    (r"(.+) has already dropped", r"이미 기권한 선수입니다: \1", r"\1 has already dropped."),
    (r"(.+) has not dropped", r"기권하지 않은 선수입니다: \1", r"\1 has not dropped."),
    (r"the Swiss rounds are over: no late entries", "스위스 라운드가 끝나 늦은 참가를 받을 수 없습니다.",
     "The Swiss rounds are over: no late entries."),
    (r"a new player needs a name", "늦게 참가하는 선수의 이름을 적으세요.", "Enter the late entry's name."),
    (r"table (\d+) is already kept for another player", r"테이블 \1은(는) 다른 선수에게 고정되어 있습니다.",
     r"Table \1 is already kept for another player."),
    (r"only a running clock can be paused", "시계가 돌고 있을 때만 일시정지할 수 있습니다.", "Only a running clock can be paused."),
    (r"only a paused clock can be resumed", "일시정지된 시계만 재개할 수 있습니다.", "Only a paused clock can be resumed."),
    (r"time can only be called on a running or paused clock", "시계가 돌거나 멈춰 있을 때만 타임을 선언할 수 있습니다.",
     "Time can only be called on a running or paused clock."),
    (r"the clock of round (\d+) has already been started", r"라운드 \1의 시계는 이미 시작했습니다.", r"The clock of round \1 has already started."),
]


def validation(errors):
    """A 422's field errors as one sentence per language."""
    for e in errors or []:
        loc = [str(x) for x in e.get("loc", ())]
        name = next((x for x in reversed(loc) if x in FIELDS), None)
        if name is None:
            continue
        ko, en = FIELDS[name]
        return {"ko": ko, "en": en}
    return {"ko": "요청 내용이 올바르지 않습니다. 화면을 새로 고친 뒤 다시 시도하세요.",
            "en": "The request was not valid. Reload the page and try again."}


def _message(status, error, detail, errors=None):
    """{"ko", "en"}: what the TD should read for this error."""
    detail = str(detail or "")
    if status == 401:
        return {"ko": "관리자 토큰을 ‘운영’ 탭에 입력하세요 (lumen tournament run이 출력한 토큰).",
                "en": "Enter the admin token in the Control tab (the one lumen tournament run printed)."}
    if status == 403:
        return {"ko": "관리자 토큰이 맞지 않습니다. 방 화면은 누구나 볼 수 있지만 운영은 토큰이 필요합니다.",
                "en": "The admin token is wrong: the room view is open to all, control needs the token."}
    if error == "invalid_request":
        return validation(errors)
    for pattern, ko, en in REFUSALS:
        m = re.search(pattern, detail)
        if m:
            return {"ko": m.expand(ko), "en": m.expand(en)}
    return {"ko": "대회 운영 서버가 이 동작을 받지 않았습니다: " + detail, "en": "The TD did not accept this: " + detail}


def message(status, error, detail, errors=None):
    """The error in words ({ko, en}), the Korean particles chosen by each word's last sound."""
    out = _message(status, error, detail, errors)
    return dict(out, ko=josa(out["ko"]))
