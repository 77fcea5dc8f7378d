"""Judgments (guide 3.6, 4.1, battle steps 5-8): evade, guard, speed, offset.

Pure functions over two battle cards and their speeds. engine/play/battle.py calls
them as named steps; the final labels are fixed by ``outcome`` after step 8.

Reference speed = printed speed (plus card effects), read by evade/guard/offset
conditions (guide 3.7.1, 5.3.2). Judgment speed = reference speed with FP
applied (step 4), compared at step 7.
"""

# Which result key of the judgment-result area each outcome label applies (brief 4.2):
# an attack applies its `hit` result in a trade and in an offset (guide 3.6.4.1, 4.1.2.3).
ATTACK_RESULT_FOR = {
    "hit": "hit", "counter": "counter", "guarded": "guarded", "evaded": "evaded",
    "countered": "countered", "trade": "hit", "offset": "hit", "both_evade": "evaded",
}
DEFENSE_RESULT_FOR = {"guard": "guard", "evade": "evade", "offset": "offset", "was_hit": "was_hit"}

# Outcomes in which an attack's hit or counter judgment applies: damage, combo, grab nullification
LANDS = frozenset(("hit", "counter", "trade", "offset"))


def evades(card, attack, attack_ref):
    """Step 5: does ``card`` (defense, or attack with a special evade) evade ``attack``?"""
    return attack.kind == "attack" and card.evade is not None and card.evade.matches(attack.position, attack_ref)


def guards(card, attack, attack_ref):
    """Step 6: does defense ``card`` guard ``attack``?"""
    return (card.kind == "defense" and attack.kind == "attack" and card.guard is not None
            and card.guard.matches(attack.position, attack_ref))


def offsets(card, attack, attack_ref):
    """Step 8 condition: does ``card``'s offset position match ``attack``?

    For an attack this is only half of the rule: it must also be strictly
    slower (guide 4.1.2.1); a defense offset compares no speed (4.1.2.2).
    """
    return attack.kind == "attack" and card.offset is not None and card.offset.matches(attack.position, attack_ref)


def judge(ca, cb, ref, speed):
    """Judge a battle. ``ca``/``cb`` are the cards of a and b; ``ref``/``speed``
    map "a"/"b" to reference and judgment speed (attacks only).

    Returns (labels {"a","b"}, reason, winner or None, detail dict). ``reason``
    keys events.JUDGMENT_REASONS and its rule section is in ``detail["rule"]``.
    """
    a_att = ca.kind == "attack"
    b_att = cb.kind == "attack"
    # step 5: evade (an evaded attack is not checked for guard, speed or offset, guide 3.6.1)
    a_ev = b_att and evades(ca, cb, ref["b"])
    b_ev = a_att and evades(cb, ca, ref["a"])
    detail = {"evades": {"a": a_ev, "b": b_ev}}
    if not a_att and not b_att:
        detail["rule"] = "guide 3.6.4.3"
        return {"a": "both_defend", "b": "both_defend"}, "both_defend", None, detail
    if a_att and b_att:
        if a_ev and b_ev:
            detail["rule"] = "guide 3.6.4.4"
            return {"a": "both_evade", "b": "both_evade"}, "both_evade", None, detail
        if a_ev or b_ev:
            w = "a" if a_ev else "b"
            detail["rule"] = "guide 3.6.2.2"
            return _pair(w, "counter", "countered"), "counter_evade", w, detail
        # step 7: speed
        sa, sb = speed["a"], speed["b"]
        if sa == sb:
            detail["rule"] = "guide 3.6.4.1"
            return {"a": "trade", "b": "trade"}, "trade", None, detail
        fast, slow = ("a", "b") if sa < sb else ("b", "a")
        cslow = ca if slow == "a" else cb
        cfast = cb if slow == "a" else ca
        # step 8: offset by the slower attack (guide 4.1.2.1)
        if offsets(cslow, cfast, ref[fast]):
            detail["rule"] = "guide 4.1.2.1"
            detail["offset"] = "attack"
            return {"a": "offset", "b": "offset"}, "offset_attack", slow, detail
        detail["rule"] = "guide 3.6.2.2"
        return _pair(fast, "counter", "countered"), "counter", fast, detail
    # attack against defense
    att, dfn = ("a", "b") if a_att else ("b", "a")
    catt = ca if a_att else cb
    cdfn = cb if a_att else ca
    if b_ev if a_att else a_ev:
        detail["rule"] = "guide 3.6.2.4"
        return _pair(dfn, "evade", "evaded"), "evade", dfn, detail
    if guards(cdfn, catt, ref[att]):
        detail["rule"] = "guide 3.6.2.3"
        return _pair(dfn, "guard", "guarded"), "guard", dfn, detail
    if offsets(cdfn, catt, ref[att]):
        detail["rule"] = "guide 4.1.2.2"
        detail["offset"] = "defense"
        return {"a": "offset", "b": "offset"}, "offset_defense", dfn, detail
    detail["rule"] = "guide 3.6.2.1"
    return _pair(att, "hit", "was_hit"), "hit", att, detail


def _pair(w, win, lose):
    return {w: win, ("b" if w == "a" else "a"): lose}


def result_key(card, label, rules):
    """The judgment-result key a card applies for its outcome label, or None."""
    if card.kind == "attack":
        if label == "both_evade" and not rules.both_evade_result_fp:
            return None
        return ATTACK_RESULT_FOR.get(label)
    if card.kind == "defense":
        return DEFENSE_RESULT_FOR.get(label)
    return None
