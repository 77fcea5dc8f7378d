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
step or asks a decision and sets the step that resolves it. Card effects hook
into steps 2, 3, 10, 14 and 15 (and the combo/catch sub-steps).
"""

from .decisions import ask
from .events import ev
from .judgment import LANDS, judge, result_key
from .state import Battle, other
from .zones import break_card, take, to_hand, to_list

STEPS = {}


def step(name):
    def register(fn):
        STEPS[name] = fn
        return fn
    return register


def order(st):
    """Both seats, the priority holder first (guide 3.8, 5.2.1)."""
    p = st.priority
    return (p, other(p))


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
    st.step = "battle.on_use"


@step("battle.on_use")
def on_use(st, ctx):
    st.step = "battle.before_judgment"


@step("battle.before_judgment")
def before_judgment(st, ctx):
    st.step = "battle.apply_fp"


@step("battle.apply_fp")
def apply_fp(st, ctx):
    """Step 4: each attack's speed moves by its player's FP; then both spend all FP,
    also a player who used a defense (guide 3.7)."""
    bt = st.battle
    for p in order(st):
        pl = st.players[p]
        if p in bt.ref:
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
    ca, cb = st.card(bt.cards["a"]), st.card(bt.cards["b"])
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
    seen = []
    for cid in st.players[p].hand:
        c = st.cards[cid]
        if c.kind == "attack" and c.grab and cid not in seen:
            seen.append(cid)
    return seen


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
    st.step = "battle.end"


# ------------------------------------------------------------------ steps 10-15

@step("battle.judgment_effects")
def judgment_effects(st, ctx):
    """Step 10: judgment effects in the order evade, guard, hit/counter, offset, combo.
    Card effects hook in here; the judgment-result FP and damage follow at 11 and 12."""
    st.step = "battle.result_fp"


@step("battle.result_fp")
def result_fp(st, ctx):
    """Step 11: both players' judgment-result FP, applied at the same time."""
    bt = st.battle
    deltas = {}
    for p in order(st):
        key = bt.results[p]
        if key is None:
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
    hits = {}  # victim -> (amount, source player)
    if out["a"] in ("hit", "counter", "trade"):
        hits["b"] = ca.damage
    if out["b"] in ("hit", "counter", "trade"):
        hits["a"] = cb.damage
    for victim in order(st):
        if victim in hits and hits[victim]:
            deal(st, ctx, victim, hits[victim], bt.cards[other(victim)], "guide 4.4.12")
    if out["a"] == "offset":
        # guide 4.1.2.3 / brief ruling 6: the lower-damage side loses the difference;
        # a defense counts as 0 damage
        da = ca.damage if ca.kind == "attack" else 0
        db = cb.damage if cb.kind == "attack" else 0
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
    pl = st.players[victim]
    pl.health -= amount
    if amount:
        st.battle.damage_done = True
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
    st.step = "battle.after_use"


@step("battle.after_use")
def after_use(st, ctx):
    st.step = "battle.combo"


# ------------------------------------------------------------------ step 16: combo time

def combo_cut(st, n):
    """Damage correction of the n-th combo card (brief ruling 2): 2nd -100, 3rd -200, ..."""
    return (n - 1) * st.rules.combo_damage_step


def combo_attacks(st, p):
    seen = []
    for cid in st.players[p].hand:
        if st.cards[cid].kind == "attack" and cid not in seen:
            seen.append(cid)
    return seen


def combo_options(st, p, combo):
    """Legal combo answers: pairs [x, y] (speed y = speed x + 1) to begin, then [z]
    with speed z = last + 1; a card whose corrected damage is 0 or less cannot be used."""
    cards = st.cards
    n = combo["n"]
    hand = st.players[p].hand
    ids = combo_attacks(st, p)
    opts = []
    if combo["stage"] == "pair":
        for x in ids:
            cx = cards[x]
            if cx.damage - combo_cut(st, n + 1) <= 0:
                continue
            for y in ids:
                if y == x and hand.count(x) < 2:
                    continue
                cy = cards[y]
                if cy.speed == cx.speed + 1 and cy.damage - combo_cut(st, n + 2) > 0:
                    opts.append([x, y])
    else:
        for z in ids:
            cz = cards[z]
            if cz.speed == combo["last"] + 1 and cz.damage - combo_cut(st, n + 1) > 0:
                opts.append([z])
    return opts


@step("battle.combo")
def combo(st, ctx):
    """Step 16: a hit or counter whose result says combo becomes the 1st combo (guide 4.2).
    When both attacks qualify (a trade or an offset) each processes only its 1st combo (5.4)."""
    bt = st.battle
    eligible = [p for p in order(st) if bt.combo_ok.get(p)]
    if not eligible:
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
    bt.combo = {"p": p, "n": 1, "stage": "pair", "last": st.card(bt.cards[p]).speed}
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
    st.step = "battle.combo.ask"
    cb["stage"] = "next"
    for cid in value:
        cb["n"] += 1
        card = st.cards[cid]
        bt.used.append([p, cid, "combo"])
        cut = combo_cut(st, cb["n"])
        amount = card.damage - cut
        ctx.emit(ev("combo_card", "guide 4.2.2", p=p, card=cid, n=cb["n"], base=card.damage, cut=cut, amount=amount))
        deal(st, ctx, other(p), amount, cid, "guide 4.2.2")
        cb["last"] = card.speed
        if ctx.check_health():
            return


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


@step("battle.catch")
def catch(st, ctx):
    bt = st.battle
    st.step = "battle.cleanup"
    if bt.combo is not None or not st.rules.fp_catch:
        return
    p, limit = catch_rights(st)
    if p is None:
        return
    if bt.catch is not None and bt.catch["p"] != p:
        return  # once a player starts catch time, only that player may catch (guide 4.3.3)
    opts = []
    for cid in st.players[p].hand:
        c = st.cards[cid]
        if c.kind == "attack" and c.speed <= limit and cid not in opts:
            opts.append(cid)
    if not opts:
        return
    if bt.catch is None:
        bt.catch = {"p": p, "card": None}
    ask(st, p, "catch", opts + ["pass"])
    st.step = "battle.catch.resolve"


@step("battle.catch.resolve")
def catch_resolve(st, ctx):
    bt = st.battle
    p = bt.catch["p"]
    value = st.inbox.pop(p)["value"]
    if value == "pass":
        st.step = "battle.cleanup"
        return
    pl = st.players[p]
    fp = pl.fp if pl.fp else -st.players[other(p)].fp
    take(pl.hand, value)
    pl.battle_zone.append(value)
    bt.used.append([p, value, "catch"])
    bt.catch = {"p": p, "card": value}
    bt.attack_used = True
    card = st.cards[value]
    ctx.emit(ev("catch", "guide 4.3.2", p=p, card=value, speed=card.speed, fp=fp))
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
    st.step = "battle.catch.hit"


@step("battle.catch.nullify")
def catch_nullify(st, ctx):
    """A catch grab may be nullified too (guide 5.5): the battle's results stand, only the
    catch card returns to the hand, and the ready phase of this turn repeats."""
    bt = st.battle
    p = bt.catch["p"]
    o = other(p)
    value = st.inbox.pop(o)["value"]
    if value == "pass":
        st.step = "battle.catch.hit"
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


@step("battle.catch.hit")
def catch_hit(st, ctx):
    """Catch processing: on use -> on catch -> on hit (hit result FP) -> damage -> after use."""
    bt = st.battle
    p = bt.catch["p"]
    cid = bt.catch["card"]
    card = st.cards[cid]
    fp, combo_flag = card.result("hit")
    pl = st.players[p]
    if fp:
        pl.fp += fp
        bt.fp_changed = True
        ctx.emit(ev("result_fp", "guide 4.3.2", p=p, card=cid, key="hit", delta=fp, fp=pl.fp))
    deal(st, ctx, other(p), card.damage, cid, "guide 4.3.2")
    if ctx.check_health():
        st.step = "battle.cleanup"
        return
    if combo_flag:
        # the catch's hit judgment is a combo: combo time with the catch card as 1st (guide 4.3.2 step 6)
        _mark_combo(bt, p, cid)
        ctx.emit(ev("combo_start", "guide 4.3.2", p=p, card=cid))
        bt.combo = {"p": p, "n": 1, "stage": "pair", "last": card.speed}
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
        stalled = not (bt.attack_used or bt.damage_done or bt.fp_changed)
        st.stalled_battles = st.stalled_battles + 1 if stalled else 0
        if stalled:
            ctx.emit(ev("stalled", "guide 5.1.1", count=st.stalled_battles))
        over = stalled and st.stalled_battles >= st.rules.defense_over_battles
        if over:
            ctx.emit(ev("defense_over", "guide 5.1.1"))
        bt.moves = [[p, cid, "break" if over and role == "ready" else role] for p, cid, role in bt.used]
    if bt.moves:
        p, cid, role = bt.moves.pop(0)
        take(st.players[p].battle_zone, cid)
        if role == "ready":
            to_hand(st, ctx, p, cid, "battle_zone")
        elif role == "break":
            break_card(st, ctx, p, cid, "battle_zone")
        else:
            to_list(st, ctx, p, cid, "battle_zone")
        return
    st.step = "battle.end"


@step("battle.end")
def end(st, ctx):
    bt = st.battle
    st.battle = None
    st.battles += 1
    if bt.redo_ready:
        ctx.emit(ev("redo_ready", "guide 4.1.1"))
        st.step = "ready.enter"
    else:
        st.step = "get.enter"
    ctx.marker("battle_end", "guide 4.4.18")
