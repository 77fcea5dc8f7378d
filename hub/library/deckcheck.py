"""Guide 4.5's deck-building checks as live counts, for the deck builder.

``engine.cards.decks.check_deck`` says what is wrong when a deck is saved; this says where a
deck under construction stands on each item while it is built (20 skill cards, 0-1
ultimate, at least 10 with the character's mark, one per name, 14 non-special for
setup), with the limits a character's trait changes (``deck_rule``, guide 4.5.1).
"""

from collections import Counter

from engine.cards import DECK_SKILLS, OWN_MARK_MIN, SETUP_MIN


def _item(key, ok, have, need, rule, ko, en):
    return {"key": key, "ok": ok, "have": have, "need": need, "rule": rule, "text": {"ko": ko, "en": en}}


def deck_status(cs, character_id, card_ids, ultimate=None):
    """[{key, ok, have, need, rule, text: {ko, en}}] for card set ``cs`` (an engine CardSet)."""
    ch = cs.characters.get(character_id)
    if ch is None:
        return [_item("character", False, character_id, sorted(cs.characters), "guide 4.5",
                      "캐릭터를 고르세요", "pick a character")]
    rules = ch.deck_rules
    skills = rules.get("skills", DECK_SKILLS)
    own_min = rules.get("own_mark_min", OWN_MARK_MIN)
    same_max = rules.get("same_name_max", 1)
    known = [cs.cards[c] for c in card_ids if c in cs.cards]
    unknown = [c for c in card_ids if c not in cs.cards]
    wrong_mark = [c.id for c in known if c.mark not in ("neutral", ch.mark)]
    ults_in_list = [c.id for c in known if c.ultimate]
    own = sum(1 for c in known if c.mark == ch.mark)
    ult = cs.cards.get(ultimate) if ultimate else None
    names = Counter(c.name for c in known + ([ult] if ult else []))
    over = sorted(n for n, k in names.items() if k > same_max)
    non_special = sum(1 for c in known if c.kind != "special")
    ult_ok = ultimate is None or (ult is not None and ult.ultimate and ult.mark in ("neutral", ch.mark))
    return [
        _item("skills", len(card_ids) == skills, len(card_ids), skills, "guide 4.5",
              "기술 카드 %d/%d장" % (len(card_ids), skills), "skill cards %d/%d" % (len(card_ids), skills)),
        _item("ultimate", ult_ok, ultimate, None, "guide 3.3.4",
              "얼티밋 %s" % ("없음" if ultimate is None else ult.name if ult else "?"),
              "ultimate: %s" % ("none" if ultimate is None else (ult.name_en or ult.name) if ult else "?")),
        _item("own_mark", own >= own_min, own, own_min, "guide 4.5.1",
              "%s 마크 %d장 (최소 %d)" % (ch.name, own, own_min), "%s's mark: %d (at least %d)" % (ch.name_en or ch.name, own, own_min)),
        _item("marks", not wrong_mark and not unknown, wrong_mark + unknown, [], "guide 4.5.1",
              "다른 캐릭터 마크·모르는 카드 %d장" % len(wrong_mark + unknown),
              "other characters' marks or unknown cards: %d" % len(wrong_mark + unknown)),
        _item("names", not over, over, same_max, "guide 4.5.1",
              "같은 이름은 %d장까지%s" % (same_max, (": " + ", ".join(over)) if over else ""),
              "up to %d per name%s" % (same_max, (": " + ", ".join(over)) if over else "")),
        _item("setup", non_special >= SETUP_MIN, non_special, SETUP_MIN, "guide 3.4.1",
              "특수 기술이 아닌 카드 %d장 (준비에 %d장: 패 5 + 리스트 9)" % (non_special, SETUP_MIN),
              "non-special cards %d (setup needs %d: 5 hand + 9 list)" % (non_special, SETUP_MIN)),
        _item("ultimate_in_list", not ults_in_list, ults_in_list, [], "guide 3.3.4",
              "얼티밋은 얼티밋 칸에 (%d장이 기술 칸에 있음)" % len(ults_in_list),
              "ultimates go in the ultimate slot (%d among the skills)" % len(ults_in_list)),
    ]


def opening_problems(cs, card_ids, hand, lst):
    """Why ``hand`` (5) and ``lst`` (9) are not an opening of this deck (guide 3.4.1), or []."""
    out = []
    pool = Counter(c for c in card_ids if c in cs.cards and cs.cards[c].kind != "special")
    if len(hand) != 5:
        out.append({"ko": "패는 5장입니다 (%d장)" % len(hand), "en": "the hand is 5 cards (got %d)" % len(hand)})
    if len(lst) != 9:
        out.append({"ko": "리스트는 9장입니다 (%d장)" % len(lst), "en": "the list is 9 cards (got %d)" % len(lst)})
    for cid, n in Counter(list(hand) + list(lst)).items():
        if pool[cid] < n:
            out.append({"ko": "%s은(는) 이 덱의 특수 기술이 아닌 카드가 아닙니다" % cid,
                        "en": "%s is not a non-special card of this deck (or is used twice)" % cid})
    return out


def ordered_cards(card_ids, hand, lst):
    """The deck's cards with the opening first (hand, then list, then the rest): the order
    the table's automatic setup turns into the opening hand and list."""
    rest = list(card_ids)
    for cid in list(hand) + list(lst):
        rest.remove(cid)
    return list(hand) + list(lst) + rest
