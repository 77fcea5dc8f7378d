"""What a search thought, as data a coach can render: each option's value, the best option and
the best alternative, the rule the advice rests on, and one sentence in Korean and English.

At a ready the rule comes from the engine itself: each of the seat's options is played (in
one sampled world) against the opponent's most likely card, and the judgment event of that
battle (its rule section and its ko/en reason, engine/core/events.py) says why the best card wins
or loses there. Elsewhere the rule is the section that governs that kind of decision.

``explain_choice(thought, chosen)`` is what a coach shows after the reveal: the card the
player chose against the best by the search, with that sentence. Nothing here is shown before
the reveal: the thought of a seat's ready names the seat's own options.
"""

from engine.bots import evaluate
from engine.core.events import explain
from engine.api.game import apply

KIND_RULES = {
    "combo": ("guide 4.2", "콤보", "combo"), "catch": ("guide 4.3", "캐치", "catch"),
    "get": ("guide 3.5.4", "겟", "get"), "discard": ("guide 3.3.1", "패 상한 버리기", "discard to the hand limit"),
    "nullify": ("guide 4.1.1", "그랩 무효", "nullifying a grab"),
    "replenish": ("guide 3.9.1", "보충", "replenish"), "pick": ("guide 3.10", "대응하지 않음의 선택", "the pick after a non-response"),
    "choose": ("guide 5.2", "효과 선택", "an effect's choice"), "ready": ("guide 3.5.2", "레디", "ready"),
}


WORDS = {"skip": ("겟 안 함", "skip"), "pass": ("패스", "pass"), "end": ("종료", "end"),
         "ultimate": ("얼티밋", "ultimate"), "use": ("사용", "use it")}


def _name(cards, cid, lang):
    if isinstance(cid, list):
        return "+".join(_name(cards, c, lang) for c in cid)
    c = cards.get(cid) if isinstance(cid, str) else None
    if c is None:
        if isinstance(cid, str) and ":" in cid:
            # an effect's order option: "<card id>:<n>", the n-th entry of that card's effects
            card, _, n = cid.rpartition(":")
            if card in cards and n.isdigit():
                return ("%s의 효과 %s" if lang == "ko" else "%s's effect %s") % (_name(cards, card, lang), n)
        return WORDS.get(cid, (str(cid), str(cid)))[0 if lang == "ko" else 1]
    return c.name if lang == "ko" else (c.name_en or c.name)


def _pct(v):
    return "-" if v is None else "%d%%" % round(100 * v)


def judge_pair(world, seat, mine, theirs, rnd, limit=40):
    """Play ``mine`` (seat) against ``theirs`` from a copy of ``world`` (a ready node) until
    the judgment: the judgment event, or None (the game ended first)."""
    st = world.copy()
    for r in list(st.pending):
        p = r["player"]
        _, events = apply(st, p, "ready", mine if p == seat else theirs, copy=False)
        for e in events:
            if e["e"] == "judgment":
                return e
    for _ in range(limit):
        if st.winner is not None or not st.pending:
            return None
        req = st.pending[0]
        kind, value = evaluate.default_answer(st, req, rnd)
        _, events = apply(st, req["player"], kind, value, copy=False)
        for e in events:
            if e["e"] == "judgment":
                return e
    return None


def explain_thought(t, search):
    """Fill ``t.explanation`` from the finished ``search``."""
    cards = search.worlds[0].cards
    vals = t.values
    order = sorted(range(len(t.options)), key=lambda i: -(vals[i] if vals[i] is not None else -1.0))
    best = order[0]
    alt = order[1] if len(order) > 1 else None
    ex = {
        "kind": t.kind,
        "values": [{"option": o, "value": None if v is None else round(v, 4), "mix": round(m, 4)}
                   for o, v, m in zip(t.options, vals, t.mix)],
        "best": t.options[best], "best_value": _round(vals[best]),
        "alternative": None if alt is None else t.options[alt],
        "alternative_value": None if alt is None else _round(vals[alt]),
        "pick": t.pick,
    }
    if t.kind == "ready" and t.opponent is not None:
        their = t.opponent
        likely = max(range(len(their["options"])), key=lambda j: (their["mix"][j], -j))
        reply = their["options"][likely]
        ex["likely_reply"] = reply
        ex["likely_reply_p"] = round(their["mix"][likely], 4)
        vs = {}
        for o in t.options:
            e = judge_pair(search.worlds[0], t.seat, o, reply, search.rnd)
            if e is None:
                continue
            text = explain(e, cards)
            vs[o] = {"outcome": e.get(t.seat), "rule": e["rule"], "ko": text["ko"], "en": text["en"]}
        ex["vs_likely"] = vs
        why = vs.get(t.options[best])
        ex["rule"] = why["rule"] if why else KIND_RULES["ready"][0]
        ko_b, en_b = _name(cards, t.options[best], "ko"), _name(cards, t.options[best], "en")
        ko_r, en_r = _name(cards, reply, "ko"), _name(cards, reply, "en")
        ex["ko"] = "최선: %s (승률 %s). 상대가 가장 낼 법한 %s(%s)에 대해: %s" % (
            ko_b, _pct(vals[best]), ko_r, _pct(their["mix"][likely]), why["ko"] if why else "판정 전에 게임이 끝납니다.")
        ex["en"] = "Best: %s (%s to win). Against their likeliest %s (%s): %s" % (
            en_b, _pct(vals[best]), en_r, _pct(their["mix"][likely]), why["en"] if why else "the game ends before the judgment.")
    else:
        rule, ko_k, en_k = KIND_RULES.get(t.kind, ("guide 3.5", t.kind, t.kind))
        ex["rule"] = rule
        ko_b, en_b = _name(cards, t.options[best], "ko"), _name(cards, t.options[best], "en")
        alt_ko = "" if alt is None else ", 차선 %s (%s)" % (_name(cards, t.options[alt], "ko"), _pct(vals[alt]))
        alt_en = "" if alt is None else "; next best %s (%s)" % (_name(cards, t.options[alt], "en"), _pct(vals[alt]))
        ex["ko"] = "%s: %s이(가) 최선 (승률 %s)%s. [%s]" % (ko_k, ko_b, _pct(vals[best]), alt_ko, _rule_ko(rule))
        ex["en"] = "%s: %s is best (%s to win)%s. [%s]" % (en_k, en_b, _pct(vals[best]), alt_en, rule)
    t.explanation = ex


def _round(v):
    return None if v is None else round(v, 4)


def _rule_ko(rule):
    return rule.replace("guide", "가이드")


GOOD = 0.01      # a choice within this of the best one's win chance is as good as the best


def explain_choice(thought, chosen, cards):
    """The coach's line after the reveal: ``chosen`` (the option the player took) against the
    best by the search. Returns the explanation dict with ``chosen``, ``chosen_value``,
    ``loss`` (win chance given up, 0 for a choice as good as the best) and a ``ko``/``en``
    sentence: the verdict, then why, with the rule. At a ready the why is the judgment of the
    player's card (a good choice) or of the best card (else) against the opponent's likeliest
    card, as the engine would rule it."""
    ex = dict(thought.explanation)
    opts = [o if not isinstance(o, list) else list(o) for o in thought.options]
    if chosen not in opts:
        raise ValueError("%r was not an option of this decision" % (chosen,))
    k = opts.index(chosen)
    v = thought.values[k]
    best_v = ex["best_value"]
    ex["chosen"] = chosen
    ex["chosen_value"] = _round(v)
    loss = None if v is None or best_v is None else max(0.0, best_v - v)
    good = chosen == ex["best"] or (loss is not None and loss < GOOD)
    ex["loss"] = None if loss is None else (0.0 if good else round(loss, 4))
    ko_c, en_c = _name(cards, chosen, "ko"), _name(cards, chosen, "en")
    ko_b, en_b = _name(cards, ex["best"], "ko"), _name(cards, ex["best"], "en")
    mix = thought.mix[k]
    if good:
        head_ko = "좋은 선택: %s (승률 %s%s)." % (ko_c, _pct(v), ", 탐색도 %s의 확률로 고름" % _pct(mix) if mix >= 0.01 else "")
        head_en = "Good choice: %s (%s to win%s)." % (en_c, _pct(v), "; the search plays it %s of the time" % _pct(mix)
                                                      if mix >= 0.01 else "")
    else:
        head_ko = "선택: %s (승률 %s). 최선은 %s (승률 %s, %s 높음)." % (ko_c, _pct(v), ko_b, _pct(best_v), _pct(loss))
        head_en = "You chose %s (%s to win); the best was %s (%s, %s more)." % (en_c, _pct(v), en_b, _pct(best_v), _pct(loss))
    vs = ex.get("vs_likely")
    if thought.kind == "ready" and vs is not None and ex.get("likely_reply") is not None:
        reply = ex["likely_reply"]
        ko_r, en_r = _name(cards, reply, "ko"), _name(cards, reply, "en")
        p = _pct(ex.get("likely_reply_p"))
        why = vs.get(chosen if good else ex["best"])
        card_ko, card_en = (ko_c, en_c) if good else (ko_b, en_b)
        if why is not None:
            ex["rule"] = why["rule"]
            tail_ko = " 상대가 가장 낼 법한 %s(%s)에 %s(으)로: %s" % (ko_r, p, card_ko, why["ko"])
            tail_en = " Against their likeliest %s (%s), %s: %s" % (en_r, p, card_en, why["en"])
        else:
            tail_ko = " 상대가 가장 낼 법한 %s(%s)에 대해서는 판정 전에 게임이 끝납니다." % (ko_r, p)
            tail_en = " Against their likeliest %s (%s) the game ends before the judgment." % (en_r, p)
    else:
        rule = ex.get("rule") or KIND_RULES.get(thought.kind, ("guide 3.5",))[0]
        tail_ko = " [%s]" % _rule_ko(rule)
        tail_en = " [%s]" % rule
    ex["ko"] = head_ko + tail_ko
    ex["en"] = head_en + tail_en
    return ex
