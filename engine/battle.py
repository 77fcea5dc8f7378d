"""The battle phase: the 18 steps of guide 4.4, in order, in this one file.

 1 reveal                 guide 4.4.1   both ready cards face up at once
 2 on_use                 guide 4.4.2   "on use" effects, priority order
 3 before_judgment        guide 4.4.3   "before judgment" effects, priority order
 4 apply_fp               guide 4.4.4   FP applied to attack speed, then both FP spent (3.7)
 5-8 judge                guide 4.4.5-8 evade, guard, speed, offset (engine/judgment.py)
 9 special                guide 4.4.9   grab nullification (4.1.1)
10 judgment_effects       guide 4.4.10  evade -> guard -> hit/counter -> offset -> combo effects
11 result_fp              guide 4.4.11  both players' result FP at once
12 damage                 guide 4.4.12  both players' damage at once
13 state_check            guide 4.4.13  health 0 (win, sudden death), hand limit
14 after_judgment         guide 4.4.14  "after judgment" effects
15 after_use              guide 4.4.15  "after use" effects
16 combo                  guide 4.4.16  combo time (4.2, 5.4)
17 catch                  guide 4.4.17  catch time (4.3, 5.5), only without combo
18 cleanup                guide 4.4.18  used cards to their zones (5.3.4), defense over (5.1.1)

Each step is a function ``(st, ctx)`` that either sets ``st.step`` to the next
step or asks a decision and sets the step that resolves it.

Card effects (engine/effects.py) happen in timing windows opened at their exact
step by ``window(st, ctx, timings, then)`` (engine/windows.py):

  step 1   continuous functions and durations apply to both ready cards
  step 2   on_use
  step 3   before_judgment
  step 4   a fixed speed takes no FP (5.3.1)
  step 10  on_evade, on_opponent_evade, on_guard, on_opponent_guard, on_hit/on_counter,
           on_opponent_hit/on_opponent_counter, on_offset, on_opponent_offset,
           on_combo, on_opponent_combo (JUDGMENT_WINDOWS, in this order)
  step 12  guard damage (5.6.4) with the other damage
  step 14  after_judgment
  step 15  after_use
  step 16  combo time, also by effect (5.4); each combo card: on_use -> on_combo -> damage -> after_use (4.2.2)
  step 17  catch time, effect catches first (4.3.3); each catch card: on_use -> on_catch -> on_hit
           -> damage -> after_use (4.3.2)
  step 18  cards return in the order used (5.3.4), or where an effect sent them

In a game without any card effect every window is skipped at once.
"""

from .decisions import ask
from .effects import JUDGMENT_WINDOWS
from .events import ev
from .judgment import LANDS, judge, result_key
from .state import Battle, order, other
from .windows import (battle_start, effective_damage, end_lasting, forbidden, hand_speeds, is_nullified,
                      judged_card, judgment_triggers, log_damage, start_card, sync_limits, window)
from .zones import break_card, take, to_hand, to_list

COMBO = {"as": "combo"}
CATCH = {"as": "catch"}

STEPS = {}


def step(name):
    def register(fn):
        STEPS[name] = fn
        return fn
    return register


def start(st, ctx, cards):
    """Begin a battle with the ready cards {p: card id or None (virtual skill)}."""
    st.phase = "battle"
    st.battle = Battle(cards)
    st.step = "battle.reveal"


# ------------------------------------------------------------------ steps 1-4

@step("battle.reveal")
def reveal(st, ctx):
    bt = st.battle
    ctx.emit(ev("reveal", "guide 4.4.1", a_card=bt.cards["a"], b_card=bt.cards["b"]))
    for p in order(st):
        cid = bt.cards[p]
        if cid is not None:
            bt.used.append([p, cid, "ready"])
        card = st.card(cid)
        if card.kind == "attack":
            bt.attack_used = True
            # reference speed: the printed speed after card effects, before FP (guide 3.7.1);
            # a computed speed of 0 or less is 1 (guide 5.3.2)
            bt.ref[p] = max(1, card.speed)
    if st.fxon:
        battle_start(st, ctx)
    st.step = "battle.on_use"


@step("battle.on_use")
def on_use(st, ctx):
    """Step 2: "on use" effects of both ready cards, priority order (guide 5.2)."""
    window(st, ctx, (("on_use",),), "battle.before_judgment")


@step("battle.before_judgment")
def before_judgment(st, ctx):
    """Step 3: "before judgment" effects."""
    window(st, ctx, (("before_judgment",),), "battle.apply_fp")


@step("battle.apply_fp")
def apply_fp(st, ctx):
    """Step 4: each attack's speed moves by its player's FP; then both spend all FP,
    also a player who used a defense (guide 3.7)."""
    bt = st.battle
    fx = bt.fx
    for p in order(st):
        pl = st.players[p]
        if p in bt.ref:
            if fx is not None:
                cur = fx["cur"][p]
                bt.ref[p] = cur["spd"]           # the reference speed after card effects (3.7.1)
                if cur["fixed"]:
                    # guide 5.3.1: a fixed speed takes no FP; the FP is still spent below
                    bt.speed[p] = cur["spd"]
                    if pl.fp:
                        ctx.emit(ev("fp_speed_fixed", "guide 5.3.1", p=p, card=bt.cards[p], fp=pl.fp, speed=cur["spd"]))
                    continue
            ref = bt.ref[p]
            raw = ref - pl.fp
            speed = raw if raw > 0 else 1
            bt.speed[p] = speed
            if pl.fp:
                ctx.emit(ev("fp_speed", "guide 3.7", p=p, card=bt.cards[p], fp=pl.fp, ref=ref, speed=speed))
            if raw <= 0:
                ctx.emit(ev("fp_speed_floor", "guide 5.3.2", p=p, card=bt.cards[p]))
    pa, pb = st.players["a"], st.players["b"]
    if pa.fp or pb.fp:
        bt.fp_changed = True
        pa.fp = 0
        pb.fp = 0
        ctx.emit(ev("fp_spent", "guide 3.7"))
    st.step = "battle.judge"


# ------------------------------------------------------------------ steps 5-8

@step("battle.judge")
def judge_step(st, ctx):
    """Steps 5-8: evade, guard, speed, offset, in that order (guide 3.6.1)."""
    bt = st.battle
    if bt.fx is None:
        ca, cb = st.card(bt.cards["a"]), st.card(bt.cards["b"])
    else:
        ca, cb = judged_card(st, "a"), judged_card(st, "b")   # with judgments gained from effects
    labels, reason, winner, detail = judge(ca, cb, bt.ref, bt.speed)
    bt.outcome = labels
    bt.decided_by = detail["rule"]
    bt.evades = detail["evades"]
    bt.offset = detail.get("offset")
    st.last_outcome = dict(labels)
    e = ev("judgment", detail["rule"], a=labels["a"], b=labels["b"], reason=reason)
    if winner is not None:
        loser = other(winner)
        e.update(w=winner, l=loser, wc=bt.cards[winner], lc=bt.cards[loser])
        # the attack whose position decided it: the one evaded/guarded/offset, else the hit
        att = loser if reason in ("evade", "guard", "offset_defense", "offset_attack", "counter_evade") else winner
        e["pos"] = st.card(bt.cards[att]).position
        if reason == "counter":
            e.update(ws=bt.speed[winner], ls=bt.speed[loser])
    elif reason == "trade":
        e["ws"] = bt.speed["a"]
    ctx.emit(e)
    for p in ("a", "b"):
        card = st.card(bt.cards[p])
        key = result_key(card, labels[p], st.rules)
        bt.results[p] = key
        bt.combo_ok[p] = bool(key and card.kind == "attack" and labels[p] in LANDS and card.result(key)[1])
    if bt.fx is not None:
        if detail.get("offset"):
            bt.fx["offset_by"] = winner      # whose offset judgment held (on_offset, 4.1.2.3)
        for p in ("a", "b"):
            if is_nullified(st, p):
                bt.combo_ok[p] = False       # a nullified card has no judgment result
            elif bt.combo_ok[p]:
                # its hit/counter judgment is a combo: from here on it is the 1st combo (guide 4.2, ruling R39)
                bt.fx["cur"][p]["c1"] = True
    st.step = "battle.special"


# ------------------------------------------------------------------ step 9

@step("battle.special")
def special(st, ctx):
    """Step 9: a grab whose hit/counter judgment is about to apply may be nullified by
    the opponent breaking a grab card from the hand (guide 4.1.1). Priority order."""
    bt = st.battle
    if bt.nullify_queue is None:
        bt.nullify_queue = []
        for p in order(st):
            card = st.card(bt.cards[p])
            o = other(p)
            if card.kind == "attack" and card.grab and bt.outcome[p] in LANDS and grab_cards(st, o):
                bt.nullify_queue.append(o)
    if bt.nullify_queue:
        o = bt.nullify_queue[0]
        ask(st, o, "nullify", grab_cards(st, o) + ["pass"])
        st.step = "battle.special.resolve"
        return
    st.step = "battle.judgment_effects"


def grab_cards(st, p):
    cards = st.cards
    return [cid for cid in dict.fromkeys(st.players[p].hand) if cards[cid].kind == "attack" and cards[cid].grab]


@step("battle.special.resolve")
def special_resolve(st, ctx):
    bt = st.battle
    o = bt.nullify_queue.pop(0)
    answer = st.inbox.pop(o)["value"]
    if answer == "pass":
        st.step = "battle.special"
        return
    # nullified: stop the unprocessed judgment effects and damage, both ready cards back
    # to the hand, the ready phase of this turn again; FP already spent stays spent (4.1.1)
    target = bt.cards[other(o)]
    take(st.players[o].hand, answer)
    ctx.emit(ev("nullify", "guide 4.1.1", p=o, card=answer, target=target))
    break_card(st, ctx, o, answer, "hand")
    for p in order(st):
        cid = bt.cards[p]
        if cid is not None:
            take(st.players[p].battle_zone, cid)
            to_hand(st, ctx, p, cid, "battle_zone", "guide 4.1.1")
    bt.used = []
    bt.redo_ready = True
    # the battle still happened (ruling R37): its stalled-battle bookkeeping is done here, since
    # step 18 is replaced by the return to the hand; steps 10-17 do not happen
    ctx.emit(ev("battle_cut", "guide 4.1.1", p=o))
    count_stall(st, ctx)
    st.step = "battle.end"


# ------------------------------------------------------------------ steps 10-15

@step("battle.judgment_effects")
def judgment_effects(st, ctx):
    """Step 10: judgment effects in the order evade, guard, hit/counter, offset, combo, each
    "opponent ..." timing right after its own (engine/effects.py JUDGMENT_WINDOWS). Both
    defend: none of these happen (3.6.4.3). The judgment-result FP and damage follow at 11, 12."""
    if st.battle.fx is not None:
        judgment_triggers(st)
    window(st, ctx, JUDGMENT_WINDOWS, "battle.result_fp")


@step("battle.result_fp")
def result_fp(st, ctx):
    """Step 11: both players' judgment-result FP, applied at the same time."""
    bt = st.battle
    deltas = {}
    for p in order(st):
        key = bt.results[p]
        if key is None or (bt.fx is not None and is_nullified(st, p)):
            continue
        delta = st.card(bt.cards[p]).result(key)[0]
        if delta:
            deltas[p] = (key, delta)
    for p, (key, delta) in deltas.items():
        pl = st.players[p]
        pl.fp += delta
        bt.fp_changed = True
        ctx.emit(ev("result_fp", "guide 4.4.11", p=p, card=bt.cards[p], key=key, delta=delta, fp=pl.fp))
    st.step = "battle.damage"


@step("battle.damage")
def damage(st, ctx):
    """Step 12: damage to both players at the same time."""
    bt = st.battle
    out = bt.outcome
    ca = st.card(bt.cards["a"])
    cb = st.card(bt.cards["b"])
    fx = bt.fx
    if fx is None:
        da, db = ca.damage, cb.damage
    else:   # damage changed by effects; a nullified card deals none
        da = 0 if is_nullified(st, "a") else effective_damage(st, "a", ca)
        db = 0 if is_nullified(st, "b") else effective_damage(st, "b", cb)
    hits = {}  # victim -> amount
    if out["a"] in ("hit", "counter", "trade"):
        hits["b"] = da
    if out["b"] in ("hit", "counter", "trade"):
        hits["a"] = db
    for victim in order(st):
        if victim in hits and hits[victim]:
            deal(st, ctx, victim, hits[victim], bt.cards[other(victim)], "guide 4.4.12")
    if fx is not None and fx["gdmg"]:
        # guide 5.6.4: guard damage is damage its taker dealt themselves
        for victim in order(st):
            amount = fx["gdmg"].get(victim)
            if amount:
                pl = st.players[victim]
                pl.health -= amount
                bt.damage_done = True
                log_damage(st, victim, False)
                ctx.emit(ev("guard_damage", "guide 5.6.4", p=victim, amount=amount, health=pl.health))
    if out["a"] == "offset":
        # guide 4.1.2.3 / brief ruling 6: the lower-damage side loses the difference;
        # a defense counts as 0 damage
        da = da if ca.kind == "attack" else 0
        db = db if cb.kind == "attack" else 0
        if da == db:
            ctx.emit(ev("offset_even", "guide 4.1.2.3"))
        else:
            loser = "a" if da < db else "b"
            amount = abs(da - db)
            pl = st.players[loser]
            pl.health -= amount
            bt.damage_done = True
            ctx.emit(ev("health_loss", "guide 4.1.2.3", p=loser, amount=amount, health=pl.health))
    st.step = "battle.state_check"


def deal(st, ctx, victim, amount, source_card, rule):
    """Damage the opponent dealt to ``victim``."""
    pl = st.players[victim]
    pl.health -= amount
    if amount:
        st.battle.damage_done = True
        if st.battle.fx is not None:
            log_damage(st, victim, True)
    ctx.emit(ev("damage", rule, p=victim, amount=amount, health=pl.health, card=source_card))


@step("battle.state_check")
def state_check(st, ctx):
    """Step 13: health 0 (win / sudden death), then the hand limit."""
    st.step = "battle.after_judgment"
    if ctx.check_health():
        return
    for p in order(st):
        pl = st.players[p]
        if len(pl.hand) > pl.hand_limit:
            ctx.task({"t": "hand_limit", "p": p})


@step("battle.after_judgment")
def after_judgment(st, ctx):
    """Step 14: "after judgment" effects."""
    window(st, ctx, (("after_judgment",),), "battle.after_use")


@step("battle.after_use")
def after_use(st, ctx):
    """Step 15: "after use" effects."""
    window(st, ctx, (("after_use",),), "battle.combo")


# ------------------------------------------------------------------ step 16: combo time

def combo_cut(st, n):
    """Damage correction of the n-th combo card (brief ruling 2): 2nd -100, 3rd -200, ..."""
    return (n - 1) * st.rules.combo_damage_step


def combo_attacks(st, p):
    cards = st.cards
    return [cid for cid in dict.fromkeys(st.players[p].hand) if cards[cid].kind == "attack"]


def combo_options(st, p, combo):
    """Legal combo answers: pairs [x, y] (speed y = speed x + 1) to begin, then [z]
    with speed z = last + 1; a card whose corrected damage is 0 or less cannot be used.
    Speeds are link speeds: a card "treated as speed X" links as X (guide 5.4); damage
    counts the card's own unconditional on-combo change (brief ruling 2)."""
    cards = st.cards
    n = combo["n"]
    hand = st.players[p].hand
    ids = combo_attacks(st, p)
    link = {cid: sl[1] for cid, sl in hand_speeds(st, p, ids, "combo").items()}   # ruling R38
    opts = []
    if combo["stage"] == "pair":
        for x in ids:
            cx = cards[x]
            if cx.damage + cx.combo_bonus - combo_cut(st, n + 1) <= 0:
                continue
            for y in ids:
                if y == x and hand.count(x) < 2:
                    continue
                cy = cards[y]
                if link[y] == link[x] + 1 and cy.damage + cy.combo_bonus - combo_cut(st, n + 2) > 0:
                    opts.append([x, y])
    else:
        for z in ids:
            cz = cards[z]
            if link[z] == combo["last"] + 1 and cz.damage + cz.combo_bonus - combo_cut(st, n + 1) > 0:
                opts.append([z])
    return opts


def link_after(st, p, cid):
    """The speed the next combo card links to: the card's speed after effects, or the speed it
    is treated as (guide 5.4)."""
    bt = st.battle
    if bt.fx is None:
        return st.cards[cid].speed
    cur = bt.fx["cur"][p]
    return cur["link"] if cur["link"] is not None else cur["spd"]


@step("battle.combo")
def combo(st, ctx):
    """Step 16: a hit or counter whose result says combo becomes the 1st combo (guide 4.2).
    When both attacks qualify (a trade or an offset) each processes only its 1st combo (5.4).
    Without one, an effect may start combo time: two hand cards as 1st and 2nd combo (5.4)."""
    bt = st.battle
    eligible = [p for p in order(st) if bt.combo_ok.get(p)]
    if not eligible:
        p = bt.fx["combo"] if bt.fx is not None else None
        if p is not None:
            bt.combo = {"p": p, "n": 0, "stage": "pair", "last": None}
            ctx.emit(ev("combo_start_effect", "guide 5.4", p=p))
            st.step = "battle.combo.ask"
            return
        st.step = "battle.catch"
        return
    for p in eligible:
        _mark_combo(bt, p, bt.cards[p])
        ctx.emit(ev("combo_start", "guide 4.2", p=p, card=bt.cards[p]))
    if len(eligible) == 2:
        bt.combo = {"p": None, "n": 1, "stage": "done", "last": None}
        ctx.emit(ev("combo_first_only", "guide 5.4"))
        st.step = "battle.combo.end"
        return
    p = eligible[0]
    bt.combo = {"p": p, "n": 1, "stage": "pair", "last": link_after(st, p, bt.cards[p])}
    st.step = "battle.combo.ask"


def _mark_combo(bt, p, cid):
    for u in bt.used:
        if u[0] == p and u[1] == cid and u[2] in ("ready", "catch"):
            u[2] = "combo"
            return


@step("battle.combo.ask")
def combo_ask(st, ctx):
    bt = st.battle
    p = bt.combo["p"]
    opts = combo_options(st, p, bt.combo)
    if not opts:
        st.step = "battle.combo.end"  # no legal continuation: combo time ends (guide 4.2.1 step 4)
        return
    ask(st, p, "combo", opts + ["end"])
    st.step = "battle.combo.resolve"


@step("battle.combo.resolve")
def combo_resolve(st, ctx):
    bt = st.battle
    cb = bt.combo
    p = cb["p"]
    value = st.inbox.pop(p)["value"]
    if value == "end":
        st.step = "battle.combo.end"
        return
    hand = st.players[p].hand
    for cid in value:  # a pair is revealed together and used in order (guide 5.4)
        take(hand, cid)
        st.players[p].battle_zone.append(cid)
    sync_limits(st)
    cb["stage"] = "next"
    cb["queue"] = list(value)
    cb["pair"] = len(value) == 2
    st.step = "battle.combo.card"


@step("battle.combo.card")
def combo_card(st, ctx):
    """One combo card: on use -> on combo -> damage -> after use (guide 4.2.2)."""
    bt = st.battle
    cb = bt.combo
    p = cb["p"]
    if not cb["queue"]:
        st.step = "battle.combo.ask"
        return
    cid = cb["queue"][0]
    if bt.fx is not None and cb["pair"] and len(cb["queue"]) == 1 and cb["last"] is not None:
        # guide 5.4: after the 2nd combo the 3rd must still be legal (effects may have changed the link)
        card = st.cards[cid]
        if hand_speeds(st, p, (cid,), "combo")[cid][1] != cb["last"] + 1 \
                or card.damage + card.combo_bonus - combo_cut(st, cb["n"] + 1) <= 0:
            cb["queue"] = []
            take(st.players[p].battle_zone, cid)
            ctx.emit(ev("combo_illegal", "guide 5.4", p=p, card=cid))
            to_hand(st, ctx, p, cid, "battle_zone", "guide 5.4")
            st.step = "battle.combo.end"
            return
    cb["n"] += 1
    bt.used.append([p, cid, "combo"])
    if bt.fx is not None:
        start_card(st, ctx, p, cid, "combo")
    window(st, ctx, (("on_use",),), "battle.combo.on_combo", dict(COMBO, p=p))


@step("battle.combo.on_combo")
def combo_on_combo(st, ctx):
    p = st.battle.combo["p"]
    window(st, ctx, (("on_combo",), ("on_opponent_combo",)), "battle.combo.damage", dict(COMBO, p=p))


@step("battle.combo.damage")
def combo_damage(st, ctx):
    bt = st.battle
    cb = bt.combo
    p = cb["p"]
    cid = cb["queue"][0]
    card = st.cards[cid]
    cut = combo_cut(st, cb["n"])
    base = card.damage if bt.fx is None else effective_damage(st, p, card)
    amount = base - cut
    if bt.fx is not None and (amount < 0 or is_nullified(st, p)):
        amount = 0         # ruling R19: corrected to 0 or less by its own effects: no damage
    ctx.emit(ev("combo_card", "guide 4.2.2", p=p, card=cid, n=cb["n"], base=base, cut=cut, amount=amount))
    deal(st, ctx, other(p), amount, cid, "guide 4.2.2")
    cb["last"] = link_after(st, p, cid)
    if ctx.check_health():
        return
    window(st, ctx, (("after_use",),), "battle.combo.next", dict(COMBO, p=p))


@step("battle.combo.next")
def combo_next(st, ctx):
    st.battle.combo["queue"].pop(0)
    st.step = "battle.combo.card"


@step("battle.combo.end")
def combo_end(st, ctx):
    """Combo time ends: both FP to 0, no catch, the battle phase ends (guide 4.2.4)."""
    bt = st.battle
    for p in ("a", "b"):
        pl = st.players[p]
        if pl.fp:
            bt.fp_changed = True
            pl.fp = 0
    ctx.emit(ev("combo_end", "guide 4.2.4"))
    st.step = "battle.cleanup"


# ------------------------------------------------------------------ step 17: catch time

def catch_rights(st):
    """FP catch (brief ruling 3): only when exactly one player has non-zero FP; the
    advantaged player (+FP, or the opponent of -FP) may catch with speed <= |FP|."""
    fa, fb = st.players["a"].fp, st.players["b"].fp
    if (fa == 0) == (fb == 0):
        return None, 0
    if fa:
        return ("a" if fa > 0 else "b"), abs(fa)
    return ("b" if fb > 0 else "a"), abs(fb)


def _catch_cards(st, p, limit):
    """Hand attacks whose reference speed (printed + card effects, before FP; ruling R38) is at most ``limit``."""
    cards = st.cards
    ids = [cid for cid in dict.fromkeys(st.players[p].hand) if cards[cid].kind == "attack"]
    speeds = hand_speeds(st, p, ids, "catch")
    return [cid for cid in ids if speeds[cid][0] <= limit]


@step("battle.catch")
def catch(st, ctx):
    """Step 17: effect catches first, then the FP catch (guide 4.3.3, 5.5)."""
    bt = st.battle
    st.step = "battle.cleanup"
    if bt.combo is not None:
        return
    if bt.fx is not None:
        grants = bt.fx["catch"]
        while grants:
            g = grants.pop(0)
            p = g["p"]
            if bt.catch is not None and bt.catch["p"] != p:
                continue       # once a player starts catch time, only they may catch (4.3.3)
            if forbidden(st, p, "catch"):
                ctx.emit(ev("prohibited", "guide 5.6.3", p=p, action="catch", by=None))
                continue
            opts = _catch_cards(st, p, g["max"])
            if not opts:
                continue
            if bt.catch is None:
                bt.catch = {"p": p, "card": None}
            bt.catch["by_effect"] = True
            ask(st, p, "catch", opts + ["pass"])
            st.step = "battle.catch.resolve"
            return
    if not st.rules.fp_catch:
        return
    p, limit = catch_rights(st)
    if p is None:
        return
    if bt.catch is not None and bt.catch["p"] != p:
        return  # once a player starts catch time, only that player may catch (guide 4.3.3)
    if st.fxon and forbidden(st, p, "catch"):
        return
    opts = _catch_cards(st, p, limit)
    if not opts:
        return
    if bt.catch is None:
        bt.catch = {"p": p, "card": None}
    bt.catch["by_effect"] = False
    ask(st, p, "catch", opts + ["pass"])
    st.step = "battle.catch.resolve"


@step("battle.catch.resolve")
def catch_resolve(st, ctx):
    bt = st.battle
    p = bt.catch["p"]
    by_effect = bt.catch.get("by_effect")
    value = st.inbox.pop(p)["value"]
    if value == "pass":
        if by_effect:
            if bt.catch["card"] is None:
                bt.catch = None          # passing an effect catch starts no catch time
            st.step = "battle.catch"
        else:
            st.step = "battle.cleanup"
        return
    pl = st.players[p]
    fp = pl.fp if pl.fp else -st.players[other(p)].fp
    take(pl.hand, value)
    pl.battle_zone.append(value)
    sync_limits(st)
    bt.used.append([p, value, "catch"])
    bt.catch = {"p": p, "card": value}
    bt.attack_used = True
    card = st.cards[value]
    speed = hand_speeds(st, p, (value,), "catch")[value][0]
    if by_effect:
        ctx.emit(ev("catch_effect", "guide 4.3.3", p=p, card=value, speed=speed))
    else:
        ctx.emit(ev("catch", "guide 4.3.2", p=p, card=value, speed=speed, fp=fp))
    # guide 4.3.2: both FP to 0, then the catch hits automatically
    for q in ("a", "b"):
        if st.players[q].fp:
            st.players[q].fp = 0
            bt.fp_changed = True
    o = other(p)
    if card.grab and grab_cards(st, o):
        ask(st, o, "nullify", grab_cards(st, o) + ["pass"])
        st.step = "battle.catch.nullify"
        return
    st.step = "battle.catch.use"


@step("battle.catch.nullify")
def catch_nullify(st, ctx):
    """A catch grab may be nullified too (guide 5.5): the battle's results stand, only the
    catch card returns to the hand, and the ready phase of this turn repeats."""
    bt = st.battle
    p = bt.catch["p"]
    o = other(p)
    value = st.inbox.pop(o)["value"]
    if value == "pass":
        st.step = "battle.catch.use"
        return
    cid = bt.catch["card"]
    take(st.players[o].hand, value)
    ctx.emit(ev("nullify", "guide 5.5", p=o, card=value, target=cid))
    break_card(st, ctx, o, value, "hand")
    take(st.players[p].battle_zone, cid)
    bt.used = [u for u in bt.used if not (u[0] == p and u[1] == cid and u[2] == "catch")]
    to_hand(st, ctx, p, cid, "battle_zone", "guide 5.5")
    bt.redo_ready = True
    st.step = "battle.cleanup"


@step("battle.catch.use")
def catch_use(st, ctx):
    """Catch processing (guide 4.3.2): on use -> on catch -> on hit -> damage -> after use;
    no before-judgment effects."""
    bt = st.battle
    p = bt.catch["p"]
    if bt.fx is not None:
        cid = bt.catch["card"]
        start_card(st, ctx, p, cid, "catch")
        if st.cards[cid].result("hit")[1]:
            # the catch hits automatically before its processing (4.3.2 steps 2-3); a combo hit
            # makes it the 1st combo from its on_use on (ruling R39)
            bt.fx["cur"][p]["c1"] = True
    window(st, ctx, (("on_use",),), "battle.catch.on", dict(CATCH, p=p))


@step("battle.catch.on")
def catch_on(st, ctx):
    p = st.battle.catch["p"]
    window(st, ctx, (("on_catch",), ("on_opponent_catch",), ("on_hit",), ("on_opponent_hit",)),
           "battle.catch.hit", dict(CATCH, p=p))


@step("battle.catch.hit")
def catch_hit(st, ctx):
    """The catch card's hit result FP (ruling R8), then its damage."""
    bt = st.battle
    p = bt.catch["p"]
    cid = bt.catch["card"]
    card = st.cards[cid]
    fp, combo_flag = card.result("hit")
    pl = st.players[p]
    nulled = bt.fx is not None and is_nullified(st, p)
    if fp and not nulled:
        pl.fp += fp
        bt.fp_changed = True
        ctx.emit(ev("result_fp", "guide 4.3.2", p=p, card=cid, key="hit", delta=fp, fp=pl.fp))
    amount = card.damage if bt.fx is None else (0 if nulled else effective_damage(st, p, card))
    deal(st, ctx, other(p), amount, cid, "guide 4.3.2")
    if ctx.check_health():
        st.step = "battle.cleanup"
        return
    bt.catch["combo"] = bool(combo_flag and not nulled)
    window(st, ctx, (("after_use",),), "battle.catch.after", dict(CATCH, p=p))


@step("battle.catch.after")
def catch_after(st, ctx):
    bt = st.battle
    p = bt.catch["p"]
    cid = bt.catch["card"]
    if bt.catch.pop("combo", False):
        # the catch's hit judgment is a combo: combo time with the catch card as 1st (guide 4.3.2 step 6)
        _mark_combo(bt, p, cid)
        ctx.emit(ev("combo_start", "guide 4.3.2", p=p, card=cid))
        bt.combo = {"p": p, "n": 1, "stage": "pair", "last": link_after(st, p, cid)}
        st.step = "battle.combo.ask"
        return
    st.step = "battle.catch"


# ------------------------------------------------------------------ step 18

@step("battle.cleanup")
def cleanup(st, ctx):
    """Step 18: used cards go to their zones in the order used, the priority holder's
    ready card first (guide 5.3.4); combo and catch cards to the list; after three
    stalled battles in a row both battle-zone skills are broken (defense over, 5.1.1)."""
    bt = st.battle
    if bt.moves is None:
        over = count_stall(st, ctx)
        bt.moves = [[p, cid, "break" if over and role == "ready" else role] for p, cid, role in bt.used]
    if bt.moves:
        p, cid, role = bt.moves.pop(0)
        take(st.players[p].battle_zone, cid)
        if role == "ready" or role == "to_hand":
            to_hand(st, ctx, p, cid, "battle_zone")
        elif role == "break":
            break_card(st, ctx, p, cid, "battle_zone")
        elif role == "to_lumen":
            st.players[p].lumen_zone.append(cid)
            ctx.emit(ev("move", "guide 5.3.4", p=p, card=cid, src="battle_zone", dst="lumen_zone"))
        else:       # combo and catch cards, and cards an effect sends to the list
            to_list(st, ctx, p, cid, "battle_zone")
        return
    st.step = "battle.end"


def count_stall(st, ctx):
    """Guide 5.1.1: a battle with no attack used, no damage, no FP change and no effect activated
    adds one to the stalled-battle count, any other resets it. True when this is a defense over."""
    bt = st.battle
    # an effect that was activated counts even if it changed nothing (guide 5.1.1)
    fired = bt.fx is not None and bt.fx["fired"]
    stalled = not (bt.attack_used or bt.damage_done or bt.fp_changed or fired)
    st.stalled_battles = st.stalled_battles + 1 if stalled else 0
    if stalled:
        ctx.emit(ev("stalled", "guide 5.1.1", count=st.stalled_battles))
    over = stalled and st.stalled_battles >= st.rules.defense_over_battles
    if over:
        ctx.emit(ev("defense_over", "guide 5.1.1"))
    return over


@step("battle.end")
def end(st, ctx):
    bt = st.battle
    st.battle = None
    st.battles += 1
    if st.lasting:
        end_lasting(st, ctx, battle=True)
    if bt.redo_ready:
        ctx.emit(ev("redo_ready", "guide 4.1.1"))
        st.step = "ready.enter"
    else:
        st.step = "get.enter"
    ctx.marker("battle_end", "guide 4.4.18")
