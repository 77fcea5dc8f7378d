"""Which skills a player may use now (guide 3.10, issue 23): use conditions and ready prohibitions.

Guide 3.10: "상대가 명확하게 레디를 선언한 순간부터 10초 안에 레디하지 않거나, 레디할 기술이 없거나, 사용
조건을 만족하지 못한 기술을 레디하면 대응하지 않은 것으로 취급합니다" and "패에 합법적으로 레디할 기술이
전혀 없다면 표준 가상 기술을 레디한 것으로 취급합니다". A skill's use conditions are its
``use_condition`` entries (docs/card-format.md); a ``forbid`` of ``ready`` (with a ``cards`` filter,
or all cards) makes readying those cards illegal too (guide 5.6.3 item 1).

Ruling R47: both are checked with the position of the ready phase (the hands as they are when the
ready is asked, before either player locks a card): what a player sees when choosing is what
counts, and the opponent's lock cannot make a legal ready illegal after the fact. The same use
conditions decide which hand cards may be used as combo and catch cards (guide 4.2.1 "패에서 임의의
합법적인 공격 카드"), checked when they are offered.
"""

from engine.play.cardfx import fx_index, ready_bans
from engine.play.conditions import card_matches, cond_ok


def usable(st, p, cid):
    """Does p's skill ``cid`` meet its use conditions now?"""
    for cond in st.cards[cid].use_if:
        if not cond_ok(st, p, cond, cid):
            return False
    return True


def ready_split(st, p):
    """(legal, unusable): the distinct skill ids of p's hand that p may ready now, and those whose
    use condition fails or that a prohibition bars (readying one is a non-response)."""
    cards = st.cards
    legal = []
    if not st.fxon:                   # no card text: every skill in the hand may be readied
        for cid in dict.fromkeys(st.players[p].hand):
            if cards[cid].kind != "special":
                legal.append(cid)
        return legal, _NO
    bad = []
    if st.fxon:
        ix = st.fxix
        if ix is None:
            ix = fx_index(st)
        bans = ready_bans(st, p) if st.lasting or ix.forbids else None
        uses = ix.uses
    else:
        bans = uses = None
    for cid in dict.fromkeys(st.players[p].hand):
        card = cards[cid]
        if card.kind == "special":
            continue
        if (uses and card.use_if and not usable(st, p, cid)) or (bans and _banned(card, bans)):
            bad.append(cid)
        else:
            legal.append(cid)
    return legal, bad


_NO = ()


def _banned(card, bans):
    for want in bans:
        if want is None or card_matches(card, want):
            return True
    return False
