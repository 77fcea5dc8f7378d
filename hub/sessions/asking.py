"""What a seat is asked, said to a person in Korean or English: the question (naming the card,
the effect and its timing, never a request kind) and its options (card names with what each
card is, a choice's options by what they do, the rules' words). One place for every screen
that asks a player without a pod: the terminal (hub/cli/terminal_seat.py) and the phone's seat
page (hub/web/routers/seat.py)."""

from engine.cards import TIMING_EN, TIMING_KO, entry_text

#: what each request asks, said to the person (ko, en); "choose" depends on its question
ASKS = {
    "ready": ("레디할 카드를 고르세요 (상대에게는 공개 전까지 보이지 않습니다)",
              "choose the card to ready (your opponent sees it only at the reveal)"),
    "get": ("겟: 가져올 카드를 고르세요", "get: choose the card to take"),
    "discard": ("버리기: 버릴 카드를 고르세요", "discard: choose a card to throw away"),
    "combo": ("콤보: 이어서 쓸 카드를 고르세요", "combo: choose the card to chain"),
    "catch": ("캐치: 캐치할 카드를 고르세요", "catch: choose the card to catch with"),
    "nullify": ("그랩 무효: 무효로 할 카드를 고르세요", "nullify a grab: choose the card to nullify it with"),
    "replenish": ("보충: 보충할 카드를 고르세요", "replenish: choose the card to put back"),
    "pick": ("카드 지정: 카드를 고르세요", "pick a card"),
}
#: a "choose" request's question (docs/card-format.md), {card} and {timing} filled in
CHOOSE = {
    "use": ("{card}의 효과({timing})를 사용할까요?", "use {card}'s effect ({timing})?"),
    "order": ("같은 타이밍의 효과들: 먼저 처리할 효과를 고르세요", "effects at the same timing: choose the one to resolve first"),
    "option": ("{card}의 효과: 하나를 고르세요", "{card}'s effect: choose one"),
    "break": ("{card}의 효과: 브레이크할 카드를 고르세요", "{card}'s effect: choose the card to break"),
    "move": ("{card}의 효과: 옮길 카드를 고르세요", "{card}'s effect: choose the card to move"),
    "discard": ("{card}의 효과: 버릴 카드를 고르세요", "{card}'s effect: choose the card to discard"),
    "draw": ("{card}의 효과: 가져올 카드를 고르세요", "{card}'s effect: choose the card to draw"),
}
WORDS = {
    "use": ("사용", "use"), "pass": ("패스", "pass"), "end": ("콤보 끝내기", "end the combo"),
    "skip": ("건너뛰기", "skip"), "effect": ("효과", "effect"),
    "ultimate": ("얼티밋 카드 (리스트 카드 대신)", "the ultimate card (instead of a list card)"),
}
KINDS = {"attack": ("공격", "attack"), "defense": ("수비", "defense"), "special": ("특수", "special")}
POSITIONS = {"high": ("상단", "high"), "mid": ("중단", "mid"), "low": ("하단", "low")}


def _t(pair, lang):
    return pair[0] if lang == "ko" else pair[1]


def card_name(card, lang):
    """A card's name: Korean, or in English its English name where the card has one."""
    if lang != "ko" and getattr(card, "name_en", None):
        return card.name_en
    return card.name


def card_summary(card, lang):
    """One line of what a card is (kind, position, speed, damage), for choosing it."""
    parts = [_t(KINDS.get(card.kind, (card.kind, card.kind)), lang)]
    if card.position:
        parts.append(_t(POSITIONS.get(card.position, (card.position, card.position)), lang))
    if card.speed is not None:
        parts.append(("속도 %d" if lang == "ko" else "speed %d") % card.speed)
    if card.damage:
        parts.append(("피해 %d" if lang == "ko" else "damage %d") % card.damage)
    return " · ".join(parts)


def option_label(cards, option, lang, detail=False):
    """An option as a person reads it: card names (with what the card is, when asked to pick
    one to play), an effect of a card ("id:n"), or a word of the rules."""
    if isinstance(option, list):
        return "+".join(option_label(cards, o, lang) for o in option)
    o = str(option)
    if o in cards:
        c = cards[o]
        return "%s (%s)" % (card_name(c, lang), card_summary(c, lang)) if detail else card_name(c, lang)
    cid, sep, n = o.rpartition(":")
    if sep and cid in cards and n.isdigit():
        return "%s %s %s" % (card_name(cards[cid], lang), _t(WORDS["effect"], lang), n)
    if o in WORDS:
        return _t(WORDS[o], lang)
    return o


def choice_texts(cards, effect, lang):
    """A ``choice`` entry's options ("card-id:n", docs/card-format.md) -> what each does, in ``lang``."""
    cid, _, n = effect.rpartition(":")
    card = cards.get(cid)
    if card is None or not n.isdigit() or not 1 <= int(n) <= len(card.effects):
        return {}
    options = card.effects[int(n) - 1].get("options") or {}
    return {name: ", ".join(entry_text(e, lang) for e in entries) for name, entries in options.items()}


def question(session, seat, kind, options, pass_value, bare, lang):
    """(the question, [option labels], the pass slot's label or None) of what ``seat`` is asked
    (``kind``: the request's kind; ``options`` and ``pass_value`` as the session's prompt gives
    them; ``bare``: a ready with no card behind it), said in ``lang``."""
    st = getattr(session, "engine_state", None)
    cards = st.cards if st is not None else {}
    req = next((r for r in session.requests(seat) if r["kind"] == kind), None)
    if bare or not options:
        ask = ("READY를 누르세요 (버튼 r)" if lang == "ko" else "press READY (key r)")
    elif kind == "choose" and req is not None:
        about = req.get("about") or {}
        effect = str(about.get("effect") or "")
        cid = effect.rpartition(":")[0] or effect
        card = card_name(cards[cid], lang) if cid in cards else cid
        timing = about.get("timing")
        timing_name = (TIMING_KO if lang == "ko" else TIMING_EN).get(timing, "") if timing else ""
        template = _t(CHOOSE.get(about.get("question"), ("{card}의 효과: 하나를 고르세요", "{card}'s effect: choose one")),
                      lang)
        ask = template.format(card=card, timing=timing_name).replace("()", "").replace(" ?", "?")
    else:
        ask = _t(ASKS.get(kind, ("고르세요", "choose")), lang)
    detail = kind in ("ready", "get", "catch", "combo", "nullify")
    labels = [option_label(cards, o, lang, detail) for o in options]
    if kind == "choose" and req is not None and (req.get("about") or {}).get("question") == "option":
        # a choice's options are named in the card file (fast, heavy): said by what each one does
        said = choice_texts(cards, str(req["about"].get("effect") or ""), lang)
        labels = [said.get(str(o), label) for o, label in zip(options, labels)]
    passing = option_label(cards, pass_value, lang, False) if pass_value else None
    profile = getattr(session, "profile", None)
    if profile is not None and getattr(profile, "picks", None):
        # another game (a profile): its pick's part and options are named in the profile
        named, part = profile_words(profile, lang)
        if req is not None and req.get("part") in named:
            head = "%s 고르기" % named[req["part"]] if lang == "ko" else "choose your %s" % named[req["part"]]
            ask = head + (" (상대에게는 공개 전까지 보이지 않습니다)" if lang == "ko" else " (hidden until the reveal)")
        elif kind in named:
            ask = named[kind]
        said = session.labels(list(options))       # the profile's own words (a seat: "1P 리더")
        labels = [part.get(str(o)) or (said[i] if said[i] != str(o) else label) for i, (o, label) in enumerate(zip(options, labels))]
        if pass_value:
            passing = part.get(str(pass_value), passing)
    return ask, labels, passing


def profile_words(profile, lang):
    """A profile's words in ``lang``: (parts and steps by id -> name, option id -> name)."""
    picks = profile.picks or {}
    named, options = {}, {}
    parts = list(picks.get("parts") or [])
    if picks.get("alternative"):
        parts.append(dict(picks["alternative"], id=picks["alternative"].get("part")))
    for part in parts:
        named[part.get("id")] = _pick(part.get("name"), lang)
        for o in part.get("options") or []:
            options[o["id"]] = _pick(o.get("name"), lang)
    for step in ("ante", "clash", "priority"):
        if isinstance(picks.get(step), dict) and picks[step].get("name"):
            named[step] = options[step] = _pick(picks[step]["name"], lang)
    for word in ("pass", "done"):
        options[word] = _pick(profile.word(word), lang)
    return named, options


def _pick(name, lang):
    if isinstance(name, dict):
        return name.get(lang) or name.get("ko") or ""
    return str(name or "")
