"""What a person reads when the hub says no: every API error also carries
``message: {"ko": ..., "en": ...}``, a sentence in each language that says what happened
and what to do. ``detail`` stays for developers (it may name fields and engine terms);
the page shows only ``message`` (issue 12, point 10: never a pydantic path such as
"body.duration_ms: Input should be ..." or an engine phrase such as "a cannot ready now").
"""

from engine import josa
import re

SEATS = {"a": "1P", "b": "2P"}

LOGIN_KO = "허브가 시작할 때 출력한 관리자 링크(…#admin=…)를 다시 열거나, ‘관리’를 눌러 토큰을 입력하세요."
LOGIN_EN = "Open the admin link the hub printed when it started (…#admin=…) again, or press Admin and enter the token."

#: request fields a person fills in on the page: (Korean name, English name, range in Korean, range in English)
FIELDS = {
    "duration_ms": ("라운드 시간", "the round length", "1~360분", "between 1 and 360 minutes"),
    "ms": ("연장 시간", "the extension", "1~30분", "between 1 and 30 minutes"),
    "extra_turns": ("추가 턴 수", "the extra turns", "0~10턴", "between 0 and 10 turns"),
    "new_token": ("새 토큰", "the new token", "8~128자의 영문, 숫자, _ 또는 -", "8 to 128 letters, digits, _ or -"),
    "delta": ("변화량", "the change", None, None),
    "health": ("체력", "the health", None, None),
    "count": ("패 매수", "the hand count", None, None),
    "seed": ("시드", "the seed", None, None),
    "seat": ("좌석", "the seat", "1P 또는 2P", "1P or 2P"),
    "character": ("캐릭터", "the character", None, None),
    "limit": ("개수", "the number of games", "1~100", "between 1 and 100"),
}

#: refusals from the table, sessions, tracker and clock: (pattern on ``detail``, ko, en)
REFUSALS = [
    (r"has already readied this turn|cannot ready now", "이 플레이어는 이번 턴에 이미 레디했습니다.",
     "This player has already readied this turn."),
    (r"both players have readied", "두 플레이어 모두 레디했습니다. 배틀 결과를 입력한 뒤 ‘다음 턴’을 누르세요.",
     "Both players have readied: enter the battle's result, then press Next turn."),
    (r"ready too late", "10초가 지나 레디가 늦었습니다(가이드 3.10). 대응하지 않음으로 처리됩니다.",
     "The ready came after the 10 seconds (guide 3.10): it counts as no response."),
    (r"is not waiting to ready", "이 플레이어는 지금 레디를 기다리는 중이 아닙니다.",
     "This player is not being waited for to ready."),
    (r"the game is over", "게임이 끝났습니다. 결과가 틀렸다면 ‘되돌리기’를, 아니면 관리 화면에서 새 게임을 시작하세요.",
     "The game is over. If the result is wrong press Undo; otherwise start a new game from the admin screen."),
    (r"nothing to undo on the clock", "시계에서 되돌릴 동작이 없습니다.", "There is no clock action to undo."),
    # another game's profile (hub/sessions/profile_game/): what happened and what to do
    (r"nothing to undo \(the entries since the last decision",
     "되돌릴 입력이 없습니다: 마지막 결정(고르기, 앤티, 완료) 전의 입력은 되돌리지 않습니다. 틀린 값은 −/+로 고치세요.",
     "Nothing to undo: entries before the last decision (a pick, an ante, done) are not undone. Correct a wrong value with −/+."),
    (r"'s pick is not over: its reveal comes first",
     "아직 고르기가 끝나지 않아 다음으로 넘어갈 수 없습니다. 두 사람이 고르고(포드, 또는 포드가 없으면 이 화면의 공개 입력) 공개한 뒤 누르세요.",
     "The picks are not over yet, so the game cannot move on: both players pick (on their pods, or without pods in "
     "this screen's open entry) and reveal first."),
    (r"this game is not over: finish it",
     "이 게임은 아직 끝나지 않았습니다. 끝까지 하거나 ‘패배 입력’을 한 뒤 다음 게임을 시작하세요.",
     "This game is not over: play it out or enter a loss, then start the next game."),
    (r"must stay -?\w+\.\.-?\w+: -?\d+ is refused",
     "그 값은 이 카운터의 범위를 벗어나 받지 않았습니다(예: 코스트는 0~10). 범위 안의 값을 입력하세요.",
     "That value is outside this counter's range and was not taken (e.g. cost is 0 to 10): enter one inside it."),
    (r"is already out", "그 좌석은 이미 탈락했습니다.", "That seat is already out."),
    (r"is not playing a turn it could end now", "그 좌석은 지금 끝낼 차례가 없습니다. 차례인 좌석이 ‘완료’를 누릅니다.",
     "That seat has no turn to end now: the seat whose turn it is presses Done."),
    (r"has already ended this turn", "그 좌석은 이번 턴을 이미 끝냈습니다. 다른 좌석을 기다리세요.",
     "That seat has already ended this turn: wait for the others."),
    (r"no hidden pick is asked now", "지금은 고를 때가 아닙니다. 화면의 안내(앤티, 공개, 진행)를 따르세요.",
     "No pick is asked now: follow the table's note on screen (ante, reveal, play)."),
    (r"has already locked its pick", "이 좌석은 이미 골랐습니다(잠금). 바꾸려면 공개 뒤에 ‘되돌리기’가 아니라 심판과 상의하세요.",
     "That seat has already locked its pick; a change is the judge's call after the reveal."),
    (r"cannot pick .* as its", "그 카드는 지금 고를 수 없습니다(버림 더미에 있거나 이미 썼습니다). 손패의 카드에서 고르세요.",
     "That card cannot be picked now (it is in a discard pile or used): pick one from the hand."),
    (r"it is not .*'s ante", "지금은 그 좌석의 앤티 차례가 아닙니다. 표시된 좌석이 먼저 답합니다.",
     "It is not that seat's ante: the seat shown answers first."),
    (r"may answer .* to the ante", "앤티에는 ‘앤티’, 피니셔 또는 ‘패스’로 답합니다.", "The ante is answered with ante, the finisher or pass."),
    (r"priority is not asked now", "지금은 우선권을 정할 때가 아닙니다.", "Priority is not asked now."),
    (r"is not one of this game's", "이 게임에는 그런 카운터가 없습니다.", "This game keeps no such counter."),
    (r"a hidden pick is made only on the player's own pod",
     "숨긴 고르기는 플레이어가 자기 포드에서 합니다. 포드가 없으면 두 사람이 카드를 공개한 뒤 심판이 이 화면에서 공개로 입력합니다.",
     "A hidden pick is made on the player's own pod; without pods the players reveal their cards and the judge "
     "enters them openly on this screen."),
    (r"nothing to undo", "되돌릴 입력이 없습니다.", "There is nothing to undo."),
    (r"character can change only before", "캐릭터는 첫 턴이 끝나기 전에만 바꿀 수 있습니다. 바꾸려면 ‘리셋’을 누르세요.",
     "The character can change only before the first turn ends; press Reset to change it."),
    (r"has no stances", "이 캐릭터에는 자세가 없습니다.", "This character has no stances."),
    (r"has no trait toggle", "이 캐릭터의 특성은 켜고 끌 수 없습니다.", "This character's trait cannot be switched."),
    (r"would put .* at -?\d+; it must stay", "그 값으로는 범위를 벗어납니다. 더 작은 값을 입력하세요.",
     "That would go out of range: enter a smaller change."),
    (r"is not a counter of", "이 캐릭터에는 그 토큰이 없습니다.", "This character has no such token."),
    (r"the clock is not running", "시계가 멈춰 있습니다. ‘재개’ 또는 ‘라운드 시작’을 누르세요.",
     "The clock is not running: press Resume or Round start."),
    (r"the clock is not paused", "시계가 일시정지 상태가 아닙니다.", "The clock is not paused."),
    (r"the round has not started", "라운드가 시작되지 않았습니다. 먼저 ‘라운드 시작’을 누르세요.",
     "The round has not started: press Round start first."),
    (r"time has already been called", "이미 타임이 선언되었습니다.", "Time has already been called."),
    (r"an extension is at most", "연장은 한 번에 30분까지입니다.", "An extension is at most 30 minutes at a time."),
    (r"no game is running", "진행 중인 게임이 없습니다. 관리 화면에서 새 게임을 시작하세요.",
     "No game is running: start a new game from the admin screen."),
    (r"tracker actions need a tracker game", "이 버튼은 트래커 게임에서만 씁니다. 지금은 심판 모드 게임입니다.",
     "This button is for tracker games; this is a referee game."),
    (r"answered only on the player's own pod", "이 선택은 플레이어가 자기 포드에서만 합니다(숨김 정보).",
     "This choice is made only on the player's own pod (hidden information)."),
    (r"is not being asked for|may not answer .* now|is not a legal", "지금은 그 선택을 할 수 없습니다. 화면의 ‘대기 중’ 항목을 확인하세요.",
     "That choice cannot be made now: check what the table is waiting for."),
    (r"discard exactly|cannot discard", "버릴 카드 수가 맞지 않습니다. 표시된 장수만큼 고르세요.",
     "Wrong number of cards to discard: pick as many as shown."),
    (r"unknown character", "없는 캐릭터입니다. 목록에서 고르세요.", "Unknown character: pick one from the list."),
    (r"unknown deck", "없는 덱입니다. 목록에서 고르세요.", "Unknown deck: pick one from the list."),
    (r"is on the table: start or resume another game before closing it",
     "지금 테이블에서 하는 게임은 닫을 수 없습니다. 다른 게임을 시작하거나 이어한 뒤 닫으세요.",
     "The game on the table cannot be closed: start or resume another game first."),
    (r"no game \d+|no game '?\d+", "그 게임은 기록에 없습니다.", "That game is not in the record."),
]


def _field(loc):
    for part in reversed(loc.split(".")):
        if part in FIELDS:
            return part
    return None


def validation(errors):
    """A 422's field errors as one sentence per language."""
    for e in errors:
        name = _field(e.get("loc", ""))
        if name is None:
            continue
        ko_n, en_n, ko_r, en_r = FIELDS[name]
        if ko_r:
            return {"ko": "%s은(는) %s(으)로 입력하세요." % (ko_n, ko_r), "en": "Enter %s %s." % (en_n, en_r)}
        return {"ko": "%s 값을 확인하고 다시 입력하세요." % ko_n, "en": "Check %s and enter it again." % en_n}
    return {"ko": "요청 내용이 올바르지 않습니다. 화면을 새로 고친 뒤 다시 시도하세요.",
            "en": "The request was not valid. Reload the page and try again."}


def _message(status, error, detail, errors=None):
    """{"ko", "en"}: what a person should read for this error."""
    detail = str(detail or "")
    if status == 401:
        return {"ko": "관리자 로그인이 필요합니다. " + LOGIN_KO, "en": "This needs the admin login. " + LOGIN_EN}
    if status == 403 and error == "forbidden" and "token" in detail:
        return {"ko": "관리자 토큰이 맞지 않습니다(바뀌었거나 오래된 토큰). " + LOGIN_KO,
                "en": "The admin token is wrong (changed or out of date). " + LOGIN_EN}
    if status == 429:
        return {"ko": "틀린 관리자 토큰이 너무 많았습니다. 잠시 뒤 올바른 토큰으로 다시 시도하세요.",
                "en": "Too many wrong admin tokens: wait a little, then try again with the right one."}
    if error == "busy":
        return {"ko": "허브가 카드 작업으로 바쁩니다. 잠시 뒤 다시 시도하세요.",
                "en": "The hub is busy with card work: try again in a moment."}
    if status == 413:
        return {"ko": "보낸 내용이 너무 큽니다. 더 작은 파일로 나누어 보내세요.",
                "en": "What was sent is too large: send it in smaller parts."}
    if error == "invalid_request" and errors:
        return validation(errors)
    if error == "replayed":
        return {"ko": "이 요청은 이미 처리되었습니다.", "en": "This request was already carried out."}
    for pattern, ko, en in REFUSALS:
        if re.search(pattern, detail):
            return {"ko": ko, "en": en}
    if status == 404:
        return {"ko": "찾는 것이 허브에 없습니다. 화면을 새로 고쳐 보세요.", "en": "The hub has no such thing. Try reloading the page."}
    if status >= 500:
        return {"ko": "허브 내부 오류입니다. 다시 시도하고, 계속되면 허브를 다시 시작하세요(기록은 보존됩니다).",
                "en": "Internal error in the hub. Try again; if it goes on, restart the hub (the record is kept)."}
    if status == 422:
        return validation(errors or [])
    return {"ko": "허브가 이 동작을 받지 않았습니다. 화면의 상태를 확인한 뒤 다시 시도하세요.",
            "en": "The hub did not accept this. Check the table on screen and try again."}


def message(status, error, detail, errors=None):
    """The error in words ({ko, en}), the Korean particles chosen by each word's last sound."""
    out = _message(status, error, detail, errors)
    return dict(out, ko=josa(out["ko"]))
