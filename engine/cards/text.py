"""A card's text generated from its data, in Korean and English.

The editor shows this beside the printed text the user typed, so a card whose
data says something other than its print is visible before it is saved. The
wording follows the card-text forms of the registry (engine/cards/effects.py:
"사용 시", "N 빨라진다", ...). A primitive without a phrase here still reads,
from the registry's own wording and its parameters, so a new primitive needs no
change in this module to be shown.

    lines(card_data, "ko")  ->  ["히트 시 FP +1", "카운터 시 FP +2, 콤보", "① 히트 시 상대의 패에서 1장을 브레이크한다"]
"""

import json
from typing import Any

from engine.cards.effects import REGISTRY, TIMING_KO
from engine.core.events import OUTCOME_EN, OUTCOME_KO, TIMING_EN, josa

POS = {"ko": {"high": "상단", "mid": "중단", "low": "하단"}, "en": {"high": "high", "mid": "mid", "low": "low"}}
RESULT = {
    "ko": {"hit": "히트 시", "counter": "카운터 시", "guarded": "방어됨 시", "evaded": "회피됨 시",
           "countered": "카운터당함 시", "guard": "방어 시", "evade": "회피 시", "offset": "상쇄 시",
           "was_hit": "히트당함 시"},
    "en": {"hit": "On hit", "counter": "On counter", "guarded": "When guarded", "evaded": "When evaded",
           "countered": "When countered", "guard": "On guard", "evade": "On evade", "offset": "On offset",
           "was_hit": "When hit"},
}
JUDGMENT = {"ko": {"guard": "방어", "evade": "회피", "offset": "상쇄"}, "en": {"guard": "Guards", "evade": "Evades",
                                                                           "offset": "Offsets"}}
ZONE = {"ko": {"hand": "패", "list": "리스트", "lumen_zone": "루멘 존", "battle_zone": "배틀 존", "side_deck": "사이드 덱",
               "break_zone": "브레이크 존", "ultimate": "얼티밋 존", "battle": "배틀"},
        "en": {"hand": "hand", "list": "list", "lumen_zone": "lumen zone", "battle_zone": "battle zone",
               "side_deck": "side deck", "break_zone": "break zone", "ultimate": "ultimate zone", "battle": "battle"}}
DURATION = {"ko": {"battle": "이 배틀 동안", "turn": "이 턴 동안", "next_turn": "다음 턴 종료 시까지"},
            "en": {"battle": "this battle", "turn": "this turn", "next_turn": "until the end of the next turn"}}
FORBID = {"ko": {"gain_fp": "FP를 얻을 수 없다", "lose_fp": "FP를 잃지 않는다", "heal": "체력을 회복할 수 없다",
                 "speed_change": "속도가 바뀌지 않는다", "catch": "캐치할 수 없다", "draw": "카드를 가져올 수 없다",
                 "break": "브레이크할 수 없다", "ready": "레디할 수 없다"},
          "en": {"gain_fp": "cannot gain FP", "lose_fp": "cannot lose FP", "heal": "cannot heal",
                 "speed_change": "speed cannot change", "catch": "cannot catch", "draw": "cannot take cards",
                 "break": "cannot break cards", "ready": "cannot ready"}}
COND = {  # condition -> (ko, en) with {v}
    "health_min": ("체력이 {v} 이상", "health {v} or more"), "health_max": ("체력이 {v} 이하", "health {v} or less"),
    "opponent_health_min": ("상대 체력이 {v} 이상", "the opponent's health {v} or more"),
    "opponent_health_max": ("상대 체력이 {v} 이하", "the opponent's health {v} or less"),
    "fp_min": ("FP가 {v} 이상", "FP {v} or more"), "fp_max": ("FP가 {v} 이하", "FP {v} or less"),
    "opponent_fp_min": ("상대 FP가 {v} 이상", "the opponent's FP {v} or more"),
    "opponent_fp_max": ("상대 FP가 {v} 이하", "the opponent's FP {v} or less"),
    "turn_min": ("{v}턴 이후", "from turn {v}"), "turn_max": ("{v}턴까지", "up to turn {v}"),
}
FLAGS = {  # boolean conditions: (ko true, en true, ko false, en false)
    "priority": ("우선권이 있으면", "with priority", "우선권이 없으면", "without priority"),
    "not_nullified": ("이 카드가 무효가 되지 않았다면", "if this card was not nullified", "이 카드가 무효가 되었다면",
                      "if this card was nullified"),
    "damaged": ("데미지를 받았다면", "if you took damage", "데미지를 받지 않았다면", "if you took no damage"),
    "damaged_by_opponent": ("상대에게 데미지를 받았다면", "if the opponent damaged you", "상대에게 데미지를 받지 않았다면",
                            "if the opponent did not damage you"),
    "in_combo": ("콤보 중이면", "in a combo", "콤보가 아니면", "outside a combo"),
}
CIRCLED = "①②③④⑤⑥⑦⑧⑨⑩⑪⑫⑬⑭⑮⑯⑰⑱⑲⑳"


def _signed(n):
    return "%+d" % n if isinstance(n, int) else str(n)


def _positions(ps, lang):
    return ("·" if lang == "ko" else "/").join(POS[lang].get(p, str(p)) for p in ps or ())


def _bounds(d, lang):
    out = []
    if d.get("speed_min") is not None:
        out.append(("속도 %s 이상" if lang == "ko" else "speed %s or more") % d["speed_min"])
    if d.get("speed_max") is not None:
        out.append(("속도 %s 이하" if lang == "ko" else "speed %s or less") % d["speed_max"])
    return out


def judgment_text(key, value, lang="ko"):
    """A judgment condition as text: ``회피: 하단 (속도 6 이하)``; None when it is empty."""
    if value is None or value == [] or value == {}:
        return None
    d = {"positions": value} if isinstance(value, list) else dict(value)
    ps = d.get("positions")
    parts = [_positions(ps, lang)] if ps else []
    parts += _bounds(d, lang)
    if lang == "ko":
        return "%s: %s" % (JUDGMENT["ko"].get(key, key), ", ".join(parts) if parts else "모든 위치")
    return "%s %s" % (JUDGMENT["en"].get(key, key), ", ".join(parts) if parts else "every position")


def result_text(key, value, lang="ko"):
    v = value or {}
    fp = v.get("fp", 0)
    text = "%s%s FP %s" % (RESULT[lang].get(key, key), "" if lang == "ko" else ":", _signed(fp))
    if v.get("combo"):
        text += ", 콤보" if lang == "ko" else ", combo"
    return text


def _whose(target, lang):
    if target == "opponent":
        return "상대의 " if lang == "ko" else "the opponent's "
    return "" if lang == "ko" else "your "


def _count(n, lang):
    return ("%d장" % n) if lang == "ko" else ("%d card%s" % (n, "" if n == 1 else "s"))


def _phrase(e, lang, names=None):
    """The primitive itself, with its parameters."""
    do = e.get("do")
    tgt = e.get("target")
    opp = tgt == "opponent"
    ko = lang == "ko"
    a = e.get("amount")
    if do == "fp":
        return ("상대 FP %s" if opp else "FP %s") % _signed(a) if ko else ("the opponent's FP %s" if opp else "FP %s") % _signed(a)
    if do in ("faster", "slower"):
        word = {"faster": ("빨라진다", "faster"), "slower": ("느려진다", "slower")}[do]
        if ko:
            return ("상대 기술은 %s %s" if opp else "%s %s") % (a, word[0])
        return ("the opponent's skill is %s %s" if opp else "%s %s") % (a, word[1])
    if do == "fix_speed":
        sp = e.get("speed")
        if ko:
            return ("%s속도 %s(으)로 고정한다" % ("상대 기술의 " if opp else "", sp)) if sp else "%s현재 속도로 고정한다" % ("상대 기술을 " if opp else "")
        return ("%sspeed is fixed at %s" % ("the opponent's " if opp else "its ", sp)) if sp else "%scurrent speed is fixed" % ("the opponent's " if opp else "its ")
    if do == "treat_speed":
        return ("속도 %s(으)로 취급한다" % e.get("speed")) if ko else "counts as speed %s for combos" % e.get("speed")
    if do == "damage":
        return ("%s데미지 %s" % ("상대 기술의 " if opp else "", _signed(a))) if ko else "%sdamage %s" % ("the opponent's " if opp else "", _signed(a))
    if do == "heal":
        return ("%s체력을 %s 회복한다" % ("상대는 " if opp else "", a)) if ko else "%s %s health" % ("the opponent heals" if opp else "heal", a)
    if do == "lose_health":
        return ("%s체력을 %s 잃는다" % ("상대는 " if opp else "", a)) if ko else "%s %s health" % ("the opponent loses" if opp else "lose", a)
    if do == "guard_damage":
        return ("가드 데미지 %s" % a) if ko else "guard damage %s" % a
    if do in ("break", "move"):
        src = ZONE[lang].get(e.get("from", "hand"), e.get("from"))
        card = e.get("card")
        n = e.get("count", 1)
        if do == "break":
            if card == "this":
                return "이 카드를 브레이크한다" if ko else "break this card"
            what = ("%s의 %s을(를)" % (src, card)) if card else ("%s에서 %s을" % (src, _count(n, lang)))
            if ko:
                return "%s%s 브레이크한다" % (_whose(tgt, lang), what)
            return "break %s from %s%s" % (card or _count(n, lang), _whose(tgt, lang), src)
        dst = ZONE[lang].get(e.get("to"), e.get("to"))
        if card == "this":
            return ("이 카드를 %s(으)로 옮긴다" % dst) if ko else "move this card to the %s" % dst
        if ko:
            return "%s%s의 %s을(를) %s(으)로 옮긴다" % (_whose(tgt, lang), src, card or _count(n, lang), dst)
        return "move %s from %s%s to the %s" % (card or _count(n, lang), _whose(tgt, lang), src, dst)
    if do == "discard":
        n = e.get("count", 1)
        return ("%s패를 %s 버린다" % ("상대는 " if opp else "", _count(n, lang))) if ko else \
            "%s %s" % ("the opponent discards" if opp else "discard", _count(n, lang))
    if do == "draw":
        n = e.get("count", 1)
        return ("%s리스트에서 %s 가져온다" % ("상대는 " if opp else "", _count(n, lang))) if ko else \
            "%s %s from the list" % ("the opponent takes" if opp else "take", _count(n, lang))
    if do == "nullify":
        mine = tgt == "self"
        if e.get("what") == "effects":
            return ("%s 기술의 효과를 무효로 한다" % ("자신" if mine else "상대")) if ko else \
                "nullify the effects of %s skill" % ("your" if mine else "the opponent's")
        return ("%s 기술을 무효로 한다" % ("자신" if mine else "상대")) if ko else "nullify %s skill" % ("your" if mine else "the opponent's")
    if do == "add_judgment":
        j = e.get("judgment")
        parts = [_positions(e["positions"], lang)] if e.get("positions") else []
        parts += _bounds(e, lang)
        if ko:
            return "%s 판정(%s)을 얻는다" % (JUDGMENT["ko"].get(j, j), ", ".join(parts))
        return "gains %s (%s)" % (j, ", ".join(parts))
    if do == "catch":
        return ("속도 %s 이하의 기술로 캐치할 수 있다" % e.get("speed_max")) if ko else \
            "may catch with an attack of speed %s or less" % e.get("speed_max")
    if do == "combo":
        return "콤보 타임에 들어간다" if ko else "combo time"
    if do == "token":
        name = _token(e.get("name"), lang, names)
        if isinstance(a, int) and a < 0:
            return ("%s %d개를 소모한다" % (name, -a)) if ko else "spend %d %s" % (-a, name)
        return ("%s +%s" % (name, a)) if ko else "%s %s" % (a, name)
    if do == "choice":
        opts = e.get("options") if isinstance(e.get("options"), dict) else {}
        inner = " / ".join("%s: %s" % (k, ", ".join(entry_text(x, lang, False, names) for x in v if isinstance(x, dict)))
                           for k, v in opts.items() if isinstance(v, list))
        return ("하나를 고른다 (%s)" % inner) if ko else "choose one (%s)" % inner
    if do == "use_special":
        place = ZONE[lang].get(e.get("place", "lumen_zone"), e.get("place"))
        return ("이 카드를 사용한다: %s에 놓는다" % place) if ko else "use this card: put it in the %s" % place
    if do == "hand_limit":
        return ("%s패 상한 %s" % ("상대 " if opp else "", _signed(a))) if ko else "%shand limit %s" % ("the opponent's " if opp else "", _signed(a))
    if do == "start_health":
        return ("시작 체력 %s" % a) if ko else "starting health %s" % a
    if do == "deck_rule":
        names = {"skills": ("기술 카드 %s장", "%s skill cards"), "own_mark_min": ("자기 마크 %s장 이상", "%s or more with your mark"),
                 "same_name_max": ("같은 이름 %s장까지", "up to %s of the same name")}
        parts = [names[k][0 if ko else 1] % e[k] for k in names if e.get(k) is not None]
        return ("덱 구성: %s" if ko else "deck building: %s") % ", ".join(parts)
    if do == "forbid":
        act = FORBID[lang].get(e.get("action"), e.get("action"))
        if isinstance(e.get("cards"), dict):      # a ready prohibition about some cards: "공격 기술을 레디할 수 없다"
            what = _used(e["cards"], lang)
            act = ("%s 기술을 %s" % (what, act)) if ko else "%s %s" % (act, what)
        return ("%s%s" % ("상대는 " if opp else "", act)) if ko else "%s%s" % ("the opponent " if opp else "you ", act)
    if do == "use_condition":
        conds = _conditions(e.get("if"), lang, names)
        if ko:
            return "사용 조건: %s" % " ".join(c[:-2] if c.endswith("이면") else c for c in conds)
        return "use condition: %s" % ", ".join(conds)
    # a primitive this module has no phrase for: the registry's own wording and the parameters
    prim = REGISTRY.get(do)
    params = ", ".join("%s %s" % (k, v) for k, v in e.items() if prim and k in prim.params)
    base = (prim.ko if ko else prim.en) if prim else str(do)
    return "%s (%s)" % (base, params) if params else base


KIND = {"ko": {"attack": "공격", "defense": "수비", "special": "특수"}, "en": {"attack": "an attack", "defense": "a defense",
                                                                     "special": "a special"}}


def _used(v, lang):
    ko = lang == "ko"
    parts = []
    for k, x in v.items():
        if k == "kind":
            parts.append(KIND[lang].get(x, x))
        elif k == "grab":
            parts.append(("그랩" if x else "그랩이 아닌 기술") if ko else ("a grab" if x else "not a grab"))
        elif k == "position":
            parts.append(POS[lang].get(x, x))
        elif k in ("speed_min", "speed_max"):
            parts += _bounds({k: x}, lang)
        else:
            parts.append("%s" % x)
    return " ".join(parts) if ko else ", ".join(parts)


def _conditions(cond, lang, names=None):
    if not isinstance(cond, dict):
        return []
    ko = lang == "ko"
    out = []
    for k, v in cond.items():
        if k in COND:
            out.append(COND[k][0 if ko else 1].format(v=v) + ("이면" if ko else ""))
        elif k in FLAGS:
            f = FLAGS[k]
            out.append(f[0 if ko else 1] if v else f[2 if ko else 3])
        elif k == "tokens" and isinstance(v, dict):
            for tid, b in v.items():
                name = _token(tid, lang, names)
                b = b if isinstance(b, dict) else {}
                if "min" in b:
                    out.append(("%s %s개 이상이면" % (name, b["min"])) if ko else "%s or more %s" % (b["min"], name))
                if "max" in b:
                    out.append(("%s %s개 이하이면" % (name, b["max"])) if ko else "%s or fewer %s" % (b["max"], name))
        elif k == "outcome" and isinstance(v, list):
            out.append(("결과가 %s이면" % "·".join(OUTCOME_KO.get(x, x) for x in v)) if ko
                       else "the outcome is %s" % "/".join(OUTCOME_EN.get(x, x) for x in v))
        elif k == "count" and isinstance(v, dict):
            z = ZONE[lang].get(v.get("zone"), v.get("zone"))
            who = _whose(v.get("who"), lang)
            rng = ", ".join(b for b in ((("%s장 이상" if ko else "%s or more") % v["min"]) if "min" in v else None,
                                        (("%s장 이하" if ko else "%s or fewer") % v["max"]) if "max" in v else None) if b)
            out.append(("%s%s %s이면" % (who, z, rng)) if ko else "%s%s holds %s" % (who, z, rng))
        elif k == "broken" and isinstance(v, dict):
            desc = _used({x: y for x, y in v.items() if x != "from"}, lang)
            src = ZONE[lang].get(v.get("from"), v.get("from"))
            out.append(("브레이크된 카드가 %s%s이면" % ("%s에서 " % src if src else "", desc)) if ko
                       else "the broken card is %s%s" % (desc, " from the %s" % src if src else ""))
        elif k in ("used", "opponent_used") and isinstance(v, dict):
            desc = _used(v, lang)
            out.append(("%s 기술이 %s이면" % ("상대" if k == "opponent_used" else "자신의", desc)) if ko
                       else "%s skill is %s" % ("the opponent's" if k == "opponent_used" else "your", desc))
        else:
            out.append("%s %s" % (k, v))
    return out


def entry_text(e: Any, lang: str = "ko", cap: bool = True, names: Any = None) -> str:
    """One effect entry as a line of card text. The editor shows text for data being typed,
    valid or not: an entry this cannot read comes back as its data, marked with "?"."""
    try:
        text = _entry_text(e, lang, cap, names)
        return josa(text) if lang == "ko" else text
    except (TypeError, AttributeError, KeyError, ValueError):
        return "? " + json.dumps(e, ensure_ascii=False, default=str)


def _entry_text(e, lang, cap, names):
    if not isinstance(e, dict):
        return str(e)
    ko = lang == "ko"
    head = []
    if isinstance(e.get("number"), int) and 1 <= e["number"] <= len(CIRCLED):
        head.append(CIRCLED[e["number"] - 1])
    t = e.get("timing")
    if t:
        head.append(TIMING_KO.get(t, t) if ko else TIMING_EN.get(t, t.replace("_", " ")))
    conds = _conditions(e.get("if"), lang, names) if e.get("do") != "use_condition" else []
    body = _phrase(e, lang, names)
    if e.get("interrupt"):
        body = ("끼어들기: " if ko else "interrupt: ") + body
    if e.get("optional"):
        body = ("선택: " if ko else "you may: ") + body
    if conds:
        body = ("%s %s" % (" ".join(conds), body)) if ko else "if %s, %s" % (", ".join(conds), body)
    if e.get("duration"):
        body += " (%s)" % DURATION[lang].get(e["duration"], e["duration"])
    if isinstance(e.get("then"), list):
        rest = ", ".join(entry_text(x, lang, False, names) for x in e["then"])
        body += (" → 그 후 %s" % rest) if ko else " -> then %s" % rest
    line = " ".join(head)
    if line:
        return line + (" " if ko else ": ") + body
    return body[:1].upper() + body[1:] if cap and not ko else body


def lines(card, lang="ko", names=None):
    """Every line of a card's generated text: special judgments, defense judgments,
    the judgment-result area, then each effect entry."""
    try:
        return _lines(card, lang, names)
    except (TypeError, AttributeError, KeyError, ValueError):      # data being typed: say what can be said
        return ["? " + json.dumps(card, ensure_ascii=False, default=str)[:200]]


def _lines(card, lang, names):
    if not isinstance(card, dict):
        return []
    out = []
    kind = card.get("kind")
    if kind == "attack":
        sp = card.get("special") if isinstance(card.get("special"), dict) else {}
        parts = [t for t in (judgment_text(k, sp.get(k), lang) for k in ("evade", "offset")) if t]
        if sp.get("grab"):
            parts.append("그랩" if lang == "ko" else "grab")
        if parts:
            out.append(("특수 판정: " if lang == "ko" else "Special: ") + "; ".join(parts))
    elif kind == "defense":
        out += [t for t in (judgment_text(k, card.get(k), lang) for k in ("guard", "evade", "offset")) if t]
    res = card.get("results") if isinstance(card.get("results"), dict) else {}
    out += [result_text(k, v if isinstance(v, dict) else {}, lang) for k, v in res.items()]
    effects = card.get("effects")
    for e in effects if isinstance(effects, list) else []:
        out.append(entry_text(e, lang, True, names))
    return out


def both(card, names=None):
    """``{"ko": [...], "en": [...]}``. ``names``: token id -> {"ko", "en"} (token_names)."""
    return {"ko": lines(card, "ko", names), "en": lines(card, "en", names)}


def token_names(characters):
    """Token id -> {"ko", "en"} from a set's characters, so "ember +1" reads "불씨 +1"."""
    out = {}
    for ch in characters or ():
        for t in (ch.get("tokens") or []) if isinstance(ch, dict) else ():
            if isinstance(t, dict) and isinstance(t.get("id"), str):
                out[t["id"]] = {"ko": t.get("name") or t["id"], "en": t.get("name_en") or t.get("name") or t["id"]}
    return out


def _token(tid, lang, names):
    n = (names or {}).get(tid) if isinstance(tid, str) else None
    return n[lang] if n else tid
