"""The current battle card's values, read live where the rule reads them (issue 23, ruling R45).

Each player's current battle card (the ready card, then each combo or catch card) has a record in
``Battle.fx["cur"]``. What timed effects did to it is kept there as it happened (``ops``: speed
changes, "treat as", damage changes, gained judgments; ``fix``: the speed a timed fix froze);
what continuous functions do to it (guide 5.6.1 "별도 발동 없이 모든 존에서 적용") is **not**
stored: it is worked out again whenever the rule reads the card (``live``), from the functions
that hold at that moment. So a function whose card left its zone stops, and one whose condition
("~인 동안", "~에 있는 한") became true starts, at the next read:

- step 4 (FP applied) and steps 5-8 (evade, guard, offset bounds and the speed comparison of
  step 7) read the reference speed, the judgment speed, the gained judgments;
- step 12, each combo card and each catch card read the damage;
- a combo link (guide 5.4) is read when the next combo card is offered or checked;
- the ``used`` / ``opponent_used`` conditions read the speed when they are checked.

The value is the printed one, then the continuous functions holding now (in priority order), then
the timed changes in the order they happened; a fix (guide 5.3.1) freezes the speed: a timed fix
at the value it had then, a continuous one (a function) as the last word. When a read finds the
set of holding functions changed since the last read, it says so (``function_on`` /
``function_off`` events). When a card comes in, its functions are reported one by one as before
(``speed_change``, ``damage_mod``, ...).
"""

from engine.play.cardfx import continuous_sources, target_seat, forbidden, fx_index
from engine.cards.model import AnyCond, Card, Cond
from engine.play.conditions import cond_ok, read_live_with
from engine.cards.effects import CARD_MODS
from engine.core.events import ev
from engine.play.state import order, other

SPEED_MODS = frozenset(("faster", "slower", "fix_speed", "treat_speed"))


def _record(st, cid, role, m=0):
    card = st.cards[cid] if cid is not None else st.rules.virtual
    if card.kind == "attack":
        sp = card.speed
        spd = sp if sp > 0 else 1
        link = card.link_speed if card.link_speed != sp else None
    else:
        spd = link = None
    return {"id": cid, "role": role, "spd": spd, "link": link, "link_fx": False, "dmod": 0, "fixed": False,
            "null": None, "extra": {}, "pos": 0, "ops": [], "fix": None, "seen": [], "m": m, "ns": False, "at": None}


def battle_start(st, ctx):
    """At the reveal (step 1): each player's ready card becomes their current card; the continuous
    functions holding now are reported, then effects with a duration apply to it."""
    bt = st.battle
    cur = {}
    bt.fx = {"cur": cur, "fired": False, "dmg": {"a": [], "b": []}, "gdmg": {}, "catch": [], "combo": None,
             "offset_by": None, "trig": {"a": [], "b": []}, "fpa": {}, "m": 0}
    cards = bt.cards
    seats = order(st)
    for p in seats:
        cur[p] = _record(st, cards[p], "ready")
    srcs = mod_sources(st)          # nothing moves between the two cards' reports: read them once
    if srcs is _NONE and not st.lasting:
        return                      # no function, no lasting effect: the printed values stand
    for p in seats:
        _enter(st, ctx, p, srcs[p])
    if srcs["a"] or srcs["b"]:
        now = _stamp(st)
        for p in seats:
            cur[p]["at"] = now


def start_card(st, ctx, p, cid, role):
    """A combo or catch card becomes player p's current card (guide 4.2.2, 4.3.2)."""
    bt = st.battle
    fx = bt.fx
    if fx is None:
        return
    fx["m"] += 1              # another card is current: another card's functions act from the battle
    rec = _record(st, cid, role, fx["m"])
    if role == "combo" and bt.combo is not None:
        rec["pos"] = bt.combo["n"]
    fx["cur"][p] = rec
    srcs = mod_sources(st)[p]
    if srcs or st.lasting:
        _enter(st, ctx, p, srcs)
        rec["at"] = _stamp(st)


def _enter(st, ctx, p, srcs):
    fx = st.battle.fx
    rec = fx["cur"][p]
    if rec["id"] is None:
        return
    if srcs:                     # without any function the record already holds the printed values
        acc, held = _fold(st, p, rec, srcs, ctx)
        rec.update(acc)
        rec["seen"] = sorted(held)
        rec["ns"] = True
    rec["m"] = fx["m"]
    if st.lasting:
        for x in st.lasting:
            if x["tgt"] == p and x["e"]["do"] in CARD_MODS:
                card_mod(st, ctx, x["p"], p, x["e"], x["src"])


_NONE = {"a": (), "b": ()}     # no function changes either card (read only)


def mod_sources(st):
    """{seat: [(owner, source, entry), ...]}: the card-modifier functions that work now, by the
    player whose card they change, the priority holder's sources first."""
    first, second = order(st)
    s1 = continuous_sources(st, first, "mods")
    s2 = continuous_sources(st, second, "mods")
    if not s1 and not s2:
        return _NONE
    out = {"a": [], "b": []}
    for q, sq in ((first, s1), (second, s2)):
        for x in sq:
            t = x[2].get("target")
            out[q if t is None or t == "self" else ("b" if q == "a" else "a")].append(x)
    return out


def live(st, p, ctx=None, srcs=None):
    """Player p's current card record with its values worked out now (a rule reads it). With
    ``ctx`` a change in the functions that hold is reported. ``srcs``: ``mod_sources(st)`` if the
    caller has it (reading both cards at one moment). Returns the record (None outside a battle
    with effects)."""
    bt = st.battle
    if bt is None or bt.fx is None:
        return None
    fx = bt.fx
    rec = fx["cur"].get(p)
    if rec is None or rec["id"] is None:
        return rec
    srcs = (mod_sources(st) if srcs is None else srcs)[p]
    rec["m"] = fx["m"]
    rec["ns"] = bool(srcs)
    if not srcs and not rec["seen"]:
        return rec               # no function, none before: the printed values and the timed changes
    acc, held = _fold(st, p, rec, srcs)
    held.sort()
    if ctx is not None and held != rec["seen"]:
        _report(st, ctx, p, rec, acc, held)
        rec["seen"] = held
    rec.update(acc)
    return rec


def live_both(st, ctx):
    """A rule reads both current cards at one moment (the sources read once), priority order;
    nothing is worked out again when nothing they depend on changed since the last read. True
    if they were worked out again."""
    fx = st.battle.fx
    cur = fx["cur"]
    ra, rb = cur["a"], cur["b"]
    m = fx["m"]
    if (ra["id"] is None or (not ra["ns"] and ra["m"] == m and not ra["seen"])) and \
            (rb["id"] is None or (not rb["ns"] and rb["m"] == m and not rb["seen"])):
        return False     # no function acted on either card last time and no card moved since
    now = _stamp(st)
    if ra.get("at") == now and rb.get("at") == now:
        return False
    srcs = mod_sources(st)
    for p in order(st):
        rec = live(st, p, ctx, srcs)
        if rec is not None:
            rec["at"] = now
    return True


def _unchanged(fx, rec):
    """No function could act on this card at its last read and no card has moved since, so none
    can now: its values are the printed ones with the timed changes, as the record holds them."""
    return rec is None or rec["id"] is None or (not rec.get("ns", True) and rec.get("m") == fx["m"] and not rec["seen"])


def read(st, p, ctx):
    """A rule reads player p's current card (``live`` unless nothing changed since the last read)."""
    fx = st.battle.fx
    rec = fx["cur"].get(p)
    if rec is None or rec["id"] is None or _unchanged(fx, rec):
        return rec
    now = _stamp(st)
    if rec.get("at") != now:
        live(st, p, ctx)
        rec["at"] = now
    return rec


def _stamp(st):
    """What a card's values can depend on within one battle, as a short list: two reads with the
    same stamp give the same values, so the second is not worked out again (ruling R45).

    The values come from the functions that work now and their conditions, the prohibitions on
    speed changes, and what timed effects did (kept in the record as they happen). So: ``m``
    counts the card moves and the new current cards (engine/play/zones.py ``moved``: where functions
    act from, zone sizes for ``count``); the lasting effects (prohibitions among them); and the
    state the game's function conditions read, only when some function has such a condition
    (``FxIndex.mod_keys``): tokens, health, FP, the outcome and nullifications, the damage log, the
    combo, the cards' speeds."""
    bt = st.battle
    fx = bt.fx
    now = [fx["m"], len(st.lasting)]
    ix = st.fxix
    if ix is None:
        ix = fx_index(st)
    if ix.stamp_more:
        pa, pb = st.players["a"], st.players["b"]
        if ix.stamp_tokens:
            now += pa.tokens.values()
            now += pb.tokens.values()
        if ix.stamp_hp:
            now += (pa.health, pb.health)
        if ix.stamp_fp:
            now += (pa.fp, pb.fp)
        if ix.stamp_out:
            now += (bt.outcome.get("a"), bt.outcome.get("b"))
        if ix.stamp_dmg:
            now += (len(fx["dmg"]["a"]), len(fx["dmg"]["b"]))
        if ix.stamp_cards:
            for r in fx["cur"].values():
                if r is not None:
                    now += (r.get("c1"), r["null"], r["spd"])
    return now


def _report(st, ctx, p, rec, acc, held):
    card = st.cards[rec["id"]]
    now = {"speed": acc["spd"], "damage": max(0, card.damage + acc["dmod"]) if card.kind == "attack" else None}
    was = list(rec["seen"])
    for src in held:
        if src in was:
            was.remove(src)
        else:
            ctx.emit(ev("function_on", "guide 5.6.1", p=p, card=rec["id"], by=src, **now))
    for src in was:
        ctx.emit(ev("function_off", "guide 5.6.1", p=p, card=rec["id"], by=src, **now))


def _fold(st, p, rec, srcs, ctx=None):
    """(values, sources of the functions that hold) of p's current card now, from ``srcs``, the
    functions that change p's card (``mod_sources(st)[p]``). ``ctx``: report each function as it
    applies (when the card comes in)."""
    cid = rec["id"]
    card = st.cards[cid]
    attack = card.kind == "attack"
    acc = {"spd": max(1, card.speed) if attack else None, "fixed": False,
           "link": card.link_speed if attack and card.link_speed != card.speed else None,
           "link_fx": False, "dmod": 0, "extra": {}}
    if rec["fix"] is not None:        # a timed fix froze the speed (guide 5.3.1)
        acc["spd"] = rec["fix"]
        acc["fixed"] = True
    held = []
    fixes = None
    no_speed = None                   # is p's speed change forbidden (read once, if needed)
    for owner, src, e in srcs:
        do = e["do"]
        if do == "treat_speed" and src == cid and "if" not in e:
            continue                  # already in the card's link speed (cards.Card.link_speed)
        if "if" in e and not cond_ok(st, owner, e["if"], src, fold=True):
            continue
        if do in ("faster", "slower"):
            if not attack:
                continue
            if not acc["fixed"]:
                if no_speed is None:
                    no_speed = forbidden(st, p, "speed_change", fold=True)
                if no_speed:
                    if ctx is not None:
                        ctx.emit(ev("prohibited", "guide 5.6.3", p=p, action="speed_change", by=src))
                    continue
                old = acc["spd"]
                raw = old - e["amount"] if do == "faster" else old + e["amount"]
                acc["spd"] = raw if raw > 0 else 1      # a computed speed of 0 or less is 1 (guide 5.3.2)
                if ctx is not None:
                    ctx.emit(ev("speed_change", "guide 5.3.2", p=p, card=cid, old=old, new=acc["spd"], by=src))
            held.append(src)          # under a timed fix it still holds: the fix froze it in
        elif do == "fix_speed":
            if attack:
                if fixes is None:
                    fixes = []
                fixes.append((src, e))
        elif _other_mod(st, ctx, p, card, acc, e, src):
            held.append(src)
    for op in rec["ops"]:
        _replay(acc, op)
    if fixes:
        for src, e in fixes:
            if acc["fixed"]:
                # guide 5.3.1: the first fix stays; 5.6.3: a later contradicting effect is not applied
                if ctx is not None:
                    ctx.emit(ev("not_applied", "guide 5.3.1", p=p, card=cid, by=src))
                continue
            old = acc["spd"]
            if e.get("speed") is not None:
                acc["spd"] = e["speed"]
            acc["fixed"] = True
            held.append(src)
            if ctx is not None:
                ctx.emit(ev("speed_fix", "guide 5.3.1", p=p, card=cid, old=old, new=acc["spd"], by=src))
    return acc, held


def _other_mod(st, ctx, p, card, acc, e, src):
    """A treat-as, damage or judgment change (``ctx``: report it). True if it applies."""
    do = e["do"]
    cid = card.id
    if do == "treat_speed":
        if card.kind != "attack":
            return False
        if acc["link_fx"] and acc["link"] != e["speed"]:
            if ctx is not None:
                ctx.emit(ev("not_applied", "guide 5.6.3", p=p, card=cid, by=src))
            return False
        acc["link"] = e["speed"]
        acc["link_fx"] = True
        if ctx is not None:
            ctx.emit(ev("treat_speed", "guide 5.4", p=p, card=cid, speed=e["speed"], by=src))
        return True
    if do == "damage":
        if card.kind != "attack":
            return False
        acc["dmod"] += e["amount"]
        if ctx is not None:
            ctx.emit(ev("damage_mod", "guide 4.2.3", p=p, card=cid, delta=e["amount"],
                        amount=max(0, card.damage + acc["dmod"]), by=src))
        return True
    if do == "add_judgment":
        j = e["judgment"]
        if j == "guard" and card.kind != "defense":
            return False
        acc["extra"].setdefault(j, []).append(_judgment_cond(e))
        if ctx is not None:
            ctx.emit(ev("judgment_added", "guide 4.1", p=p, card=cid, judgment=j, by=src))
        return True
    raise AssertionError(do)


def _judgment_cond(e):
    cond = {"positions": e.get("positions") or ["high", "mid", "low"]}
    for k in ("speed_min", "speed_max"):
        if e.get(k) is not None:
            cond[k] = e[k]
    return cond


def _replay(acc, op):
    """One timed change, as it was applied (``card_mod`` recorded only changes that applied)."""
    kind = op[0]
    if kind == "spd":
        if not acc["fixed"]:
            raw = acc["spd"] + op[1]
            acc["spd"] = raw if raw > 0 else 1
    elif kind == "treat":
        acc["link"] = op[1]
        acc["link_fx"] = True
    elif kind == "dmg":
        acc["dmod"] += op[1]
    else:   # "judg"
        acc["extra"].setdefault(op[1], []).append(op[2])


def card_mod(st, ctx, owner, p, e, src):
    """A timed card change (or an effect with a duration) to player p's current battle card, now.
    True if it applied; it is then kept in the record (``ops``/``fix``) for every later read."""
    bt = st.battle
    rec = bt.fx["cur"][p]
    cid = rec["id"]
    if cid is None:
        return False
    card = st.cards[cid]
    attack = card.kind == "attack"
    do = e["do"]
    if not attack and do != "add_judgment":
        return False
    acc, _held = _fold(st, p, rec, mod_sources(st)[p])
    if do in ("faster", "slower"):
        if forbidden(st, p, "speed_change"):
            ctx.emit(ev("prohibited", "guide 5.6.3", p=p, action="speed_change", by=src))
            return False
        if acc["fixed"]:
            # guide 5.3.1: after a fix, other speed changes do not apply
            ctx.emit(ev("speed_ignored", "guide 5.3.1", p=p, card=cid, by=src))
            return False
        delta = -e["amount"] if do == "faster" else e["amount"]
        rec["ops"].append(["spd", delta])
        old = acc["spd"]
        _replay(acc, rec["ops"][-1])
        ctx.emit(ev("speed_change", "guide 5.3.2", p=p, card=cid, old=old, new=acc["spd"], by=src))
    elif do == "fix_speed":
        if acc["fixed"]:
            # guide 5.3.1: the first fix stays; 5.6.3: a later contradicting effect is not applied
            ctx.emit(ev("not_applied", "guide 5.3.1", p=p, card=cid, by=src))
            return False
        old = acc["spd"]
        rec["fix"] = acc["spd"] = e["speed"] if e.get("speed") is not None else old
        acc["fixed"] = True
        ctx.emit(ev("speed_fix", "guide 5.3.1", p=p, card=cid, old=old, new=acc["spd"], by=src))
    elif do == "treat_speed":
        if not _other_mod(st, ctx, p, card, acc, e, src):
            return False
        rec["ops"].append(["treat", e["speed"]])
    elif do == "damage":
        _other_mod(st, ctx, p, card, acc, e, src)
        rec["ops"].append(["dmg", e["amount"]])
    elif do == "add_judgment":
        if not _other_mod(st, ctx, p, card, acc, e, src):
            return False
        rec["ops"].append(["judg", e["judgment"], _judgment_cond(e)])
    else:
        raise AssertionError(do)
    rec.update(acc)
    return True


class _Quiet:
    """A context that keeps no events: for working out what a card would be, not doing it."""

    __slots__ = ()

    def emit(self, e):
        pass


def hand_speeds(st, p, ids, role):
    """{card id: (reference speed, link speed)} of player p's attacks ``ids`` as they would be if
    used now as ``role`` cards (ruling R38): the printed speed changed by the continuous functions
    and lasting effects that would apply to them (guide 3.7.1 reference speed: before FP; 5.6.1: a
    function of the card itself holds in every zone), and the speed a combo links to (5.4)."""
    cards = st.cards
    bt = st.battle
    if not st.fxon or bt is None or bt.fx is None or not _speed_sources(st, p, ids):
        out = {}
        for cid in ids:
            card = cards[cid]
            out[cid] = (max(1, card.speed), card.link_speed)
        return out
    cur = bt.fx["cur"]
    saved = cur.get(p)
    quiet = _Quiet()
    out = {}
    first = order(st)[0] == p
    o = other(p)
    theirs = [x for x in continuous_sources(st, o, "mods") if x[2].get("target") == "opponent"]   # the same for every candidate
    try:
        for cid in ids:
            rec = _record(st, cid, role)
            rec["probe"] = True        # not in the battle zone: its own functions act as if used
            cur[p] = rec
            if st.lasting:
                for x in st.lasting:
                    if x["tgt"] == p and x["e"]["do"] in CARD_MODS:
                        card_mod(st, quiet, x["p"], p, x["e"], x["src"])
            mine = [x for x in continuous_sources(st, p, "mods") if x[2].get("target", "self") == "self"]
            acc, _held = _fold(st, p, rec, mine + theirs if first else theirs + mine)
            out[cid] = (acc["spd"], acc["link"] if acc["link"] is not None else acc["spd"])
    finally:
        cur[p] = saved
    return out


def _speed_sources(st, p, ids):
    """Could anything change the speed of these cards? (Else the printed speeds are the answer.)"""
    for x in st.lasting:
        if x["tgt"] == p and x["e"]["do"] in SPEED_MODS:
            return True
    cards = st.cards
    for cid in ids:
        zc = cards[cid].zcont
        if zc and "mods" in zc.get("battle", ()):
            for e in zc["battle"]["mods"]:
                if e["do"] in SPEED_MODS:
                    return True
    bt = st.battle
    saved = bt.fx["cur"].get(p)
    bt.fx["cur"][p] = None          # the sources apart from the current card
    try:
        for q in ("a", "b"):
            for owner, _src, e in continuous_sources(st, q, "mods"):
                if e["do"] in SPEED_MODS and target_seat(owner, e) == p:
                    return True
    finally:
        bt.fx["cur"][p] = saved
    return False


def judged_card(st, p):
    """The card judged at steps 5-8: the ready card with the judgments it has (add_judgment), as
    the judgment step has just read it (``live_both``, ruling R45)."""
    bt = st.battle
    card = st.card(bt.cards[p])
    if bt.fx is None:
        return card
    rec = bt.fx["cur"][p]
    extra = rec["extra"] if rec["id"] is not None else None
    if not extra:
        return card
    c = Card.__new__(Card)
    for k in Card.__slots__:
        setattr(c, k, getattr(card, k))
    for j, conds in extra.items():
        old = getattr(card, j)
        more = [Cond(x["positions"], x.get("speed_min"), x.get("speed_max")) for x in conds]
        setattr(c, j, AnyCond(([old] if old is not None else []) + more))
    return c


def effective_damage(st, p, card, ctx=None, fresh=False):
    """Damage of p's current card with the effect changes that hold now, never below 0
    (``fresh``: the card was just read, ``live_both``)."""
    bt = st.battle
    if bt.fx is None:
        return card.damage
    rec = bt.fx["cur"][p] if fresh else read(st, p, ctx)
    d = card.damage + rec["dmod"]
    return d if d > 0 else 0


read_live_with(live)
