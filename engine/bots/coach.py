"""What a search thought, and what a coach says of a person's ready, as data and one sentence
in Korean and English: each option's value, the best option, the rule the advice rests on.

The rule comes from the engine itself: the judgment event of a pair of cards played by the
engine (its rule section and its ko/en reason, engine/core/events.py). The "why" of a card
worth playing is a judgment it *wins* against a card of the opponent's mix, or else the
opponent's best reply to it and what that leaves: never a judgment it loses, read as praise
(issue 35). Elsewhere the rule is the section that governs that kind of decision.

``explain_thought`` fills a search's ``Thought`` (the bot's own, shown as "what the bot
thought"). ``explain_choice(analysis, chosen, cards)`` is the coach after the reveal, on a
person's ready, from the one-battle game solved exactly (engine/bots/onebattle.py): "as good
as the best" when the card is in the equilibrium's mix or gives up no more than its value's
standard error (``verdict``); after a non-response (guide 3.10) the card was picked by the
opponent and is not graded. Nothing here is shown before the reveal.
"""

from engine.bots import evaluate
from engine.core.events import explain, josa
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
        ex["likely_reply"] = their["options"][likely]
        ex["likely_reply_p"] = round(their["mix"][likely], 4)
        best_o = t.options[best]
        row = t.matrix[best] if t.matrix is not None else None

        def judged(reply):
            e = judge_pair(search.worlds[0], t.seat, best_o, reply, search.rnd)
            if e is None:
                return None
            text = explain(e, cards)
            return {"outcome": e.get(t.seat), "rule": e["rule"], "ko": text["ko"], "en": text["en"]}
        why = _why_good(t.seat, best_o, their["options"], their["mix"], row, judged)
        ex["why"] = why
        ex["rule"] = why["judgment"]["rule"] if why.get("judgment") else KIND_RULES["ready"][0]
        ko_b, en_b = _name(cards, best_o, "ko"), _name(cards, best_o, "en")
        tail_ko, tail_en = _why_text(why, best_o, cards)
        ex["ko"] = josa("최선: %s (승률 %s).%s" % (ko_b, _pct(vals[best]), tail_ko))
        ex["en"] = "Best: %s (%s to win).%s" % (en_b, _pct(vals[best]), tail_en)
    else:
        rule, ko_k, en_k = KIND_RULES.get(t.kind, ("guide 3.5", t.kind, t.kind))
        ex["rule"] = rule
        ko_b, en_b = _name(cards, t.options[best], "ko"), _name(cards, t.options[best], "en")
        alt_ko = "" if alt is None else ", 차선 %s (%s)" % (_name(cards, t.options[alt], "ko"), _pct(vals[alt]))
        alt_en = "" if alt is None else "; next best %s (%s)" % (_name(cards, t.options[alt], "en"), _pct(vals[alt]))
        ex["ko"] = josa("%s: %s이(가) 최선 (승률 %s)%s. [%s]" % (ko_k, ko_b, _pct(vals[best]), alt_ko, _rule_ko(rule)))
        ex["en"] = "%s: %s is best (%s to win)%s. [%s]" % (en_k, en_b, _pct(vals[best]), alt_en, rule)
    t.explanation = ex


def _round(v):
    return None if v is None else round(v, 4)


def _rule_ko(rule):
    return rule.replace("guide", "가이드")


WINS = frozenset(("hit", "counter", "guard", "evade"))      # the judgment labels a card wins with
TOLERANCE = 0.01      # the 1 % the coach shows win chances in: a card giving up less reads as the best
SUPPORT = 0.02        # an equilibrium share from which a card is part of the mix (onebattle.FLOOR)


def _why_good(seat, mine, their_opts, their_mix, row, judged):
    """Why ``mine`` is worth playing: a judgment it wins against a card of the opponent's mix
    (the likeliest first), else the opponent's best reply to it (the lowest of ``row``, the
    seat's values of ``mine`` against each of their cards) and what that leaves. Never a loss
    read as praise. ``judged(reply)`` gives a pair's judgment ({"outcome", "rule", "ko", "en"})."""
    order = sorted((j for j in range(len(their_opts)) if their_mix[j] >= SUPPORT), key=lambda j: (-their_mix[j], j))
    for j in order:
        jd = judged(their_opts[j])
        if jd is not None and jd["outcome"] in WINS:
            return {"how": "wins", "reply": their_opts[j], "p": round(their_mix[j], 4), "judgment": jd}
    return _best_reply(their_opts, row, judged, order)


def _best_reply(their_opts, row, judged, order=()):
    if row is None:
        j = order[0] if order else 0
    else:
        j = min(range(len(row)), key=lambda k: (row[k], k))
    return {"how": "reply", "reply": their_opts[j], "value": None if row is None else round(row[j], 4),
            "judgment": judged(their_opts[j])}


def _why_text(why, card, cards, still=True):
    """The why as (ko, en) sentence tails (a leading space each); ``still``: say what the
    opponent's best reply leaves (a card worth playing), else only the reply."""
    ko_c, en_c = _name(cards, card, "ko"), _name(cards, card, "en")
    ko_r, en_r = _name(cards, why["reply"], "ko"), _name(cards, why["reply"], "en")
    jd = why.get("judgment")
    j_ko = jd["ko"] if jd else "판정 전에 게임이 끝납니다."
    j_en = jd["en"] if jd else "the game ends before the judgment."
    if why["how"] == "wins":
        p = _pct(why["p"])
        return (" 상대 혼합의 %s(%s)에 %s(으)로 이깁니다: %s" % (ko_r, p, ko_c, j_ko),
                " %s wins against %s (%s of their mix): %s" % (en_c, en_r, p, j_en))
    left = "" if why.get("value") is None or not still else _pct(why["value"])
    return (" 상대의 최선의 대응은 %s%s: %s" % (ko_r, " (그래도 승률 %s)" % left if left else "", j_ko),
            " Their best answer to it is %s%s: %s" % (en_r, " (it still leaves %s to win)" % left if left else "", j_en))


def verdict(an, chosen):
    """Is ``chosen`` as good as the best in analysis ``an`` (engine/bots/onebattle.py)? It is
    when it belongs to the equilibrium's mix, or when what it gives up against the opponent's
    equilibrium mix is within twice its value's standard error (the sampled side decks) or
    ``TOLERANCE``. (A card is in some optimal mix of its seat exactly when it gives up nothing
    against every optimal mix of the opponent's, so a loss against the one the solver returned
    is a loss against an optimal opponent.) Returns (good, loss, tolerance)."""
    k = an.options.index(chosen)
    loss = max(0.0, an.value - an.values[k])
    tol = max(TOLERANCE, 2.0 * an.se[k])
    return an.mix[k] >= SUPPORT or loss <= tol, loss, tol


def explain_choice(an, chosen, cards, picked=False):
    """The coach's line after the reveal on the ready card ``chosen`` of a person, from the
    one-battle analysis ``an`` of their view (engine/bots/onebattle.py ``solve``). Returns a
    dict: ``best``, ``best_value``, ``chosen``, ``chosen_value``, ``good``, ``loss`` (win chance
    given up, 0 for a choice as good as the best; None when not graded), ``rule``, ``why`` and
    a ``ko``/``en`` sentence: the verdict, then why, quoting the engine's judgment of the pair.

    ``picked``: the player did not respond in time and the opponent picked ``chosen`` for them
    (guide 3.10): the card is not graded as theirs; the line says so and names the best card."""
    opts = list(an.options)
    if chosen not in opts:
        raise ValueError("%r was not an option of this decision" % (chosen,))
    order = sorted(range(len(opts)), key=lambda i: (-an.values[i], -an.mix[i], i))
    best = opts[order[0]]
    alt = opts[order[1]] if len(order) > 1 else None
    k = opts.index(chosen)
    v = an.values[k]
    ex = {"kind": "ready", "best": best, "best_value": _round(an.value), "alternative": alt,
          "alternative_value": None if alt is None else _round(an.values[opts.index(alt)]),
          "chosen": chosen, "chosen_value": _round(v), "picked": bool(picked),
          "values": [{"option": o, "value": _round(x), "mix": round(m, 4), "se": round(e, 4)}
                     for o, x, m, e in zip(opts, an.values, an.mix, an.se)]}
    ko_c, en_c = _name(cards, chosen, "ko"), _name(cards, chosen, "en")
    ko_b, en_b = _name(cards, best, "ko"), _name(cards, best, "en")
    seat = "1P" if an.seat == "a" else "2P"

    def judged_for(card):
        return lambda reply: an.judgments.get((card, reply))
    best_row = an.matrix[opts.index(best)]
    best_why = _why_good(an.seat, best, an.their_options, an.their_mix, best_row, judged_for(best))
    if picked:
        ex["good"], ex["loss"] = None, None
        ex["why"] = best_why
        ex["rule"] = "guide 3.10"
        tail_ko, tail_en = _why_text(best_why, best, cards)
        ex["ko"] = josa("대응하지 않음 [가이드 3.10]: %s은(는) %s의 선택이 아니라 상대가 고른 카드입니다. 최선은 %s (승률 %s).%s"
                        % (ko_c, seat, ko_b, _pct(an.value), tail_ko))
        ex["en"] = ("No response [guide 3.10]: %s was picked by the opponent, not chosen by %s. The best was %s "
                    "(%s to win).%s" % (en_c, seat, en_b, _pct(an.value), tail_en))
        return ex
    good, loss, tol = verdict(an, chosen)
    ex["good"] = good
    ex["loss"] = 0.0 if good else round(loss, 4)
    ex["tolerance"] = round(tol, 4)
    mix = an.mix[k]
    row = an.matrix[k]
    if good:
        why = _why_good(an.seat, chosen, an.their_options, an.their_mix, row, judged_for(chosen))
        tail_ko, tail_en = _why_text(why, chosen, cards)
        in_mix_ko = ", 균형 혼합에서 %s" % _pct(mix) if mix >= SUPPORT else ""
        in_mix_en = "; the equilibrium plays it %s of the time" % _pct(mix) if mix >= SUPPORT else ""
        ex["ko"] = josa("좋은 선택: %s (승률 %s%s).%s" % (ko_c, _pct(v), in_mix_ko, tail_ko))
        ex["en"] = "Good choice: %s (%s to win%s).%s" % (en_c, _pct(v), in_mix_en, tail_en)
    else:
        why = _best_reply(an.their_options, row, judged_for(chosen))
        tail_ko, tail_en = _why_text(why, chosen, cards, still=False)
        b_ko, b_en = _why_text(best_why, best, cards)
        ex["ko"] = josa("선택: %s (승률 %s). 최선은 %s (승률 %s, %s 높음).%s 최선인 %s:%s" % (
            ko_c, _pct(v), ko_b, _pct(an.value), _pct(loss), tail_ko, ko_b, b_ko))
        ex["en"] = "You chose %s (%s to win); the best was %s (%s, %s more).%s %s:%s" % (
            en_c, _pct(v), en_b, _pct(an.value), _pct(loss), tail_en, en_b, b_en)
    ex["why"] = why
    jd = why.get("judgment")
    ex["rule"] = jd["rule"] if jd else KIND_RULES["ready"][0]
    return ex
