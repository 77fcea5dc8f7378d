"""The battle phase: the 18 steps of guide 4.4, in order (steps 16-17, combo time and catch
time, in engine/play/combo_catch.py). The steps are a numbered list under the heading 4.4, not
sections of their own: events cite them as "guide 4.4 step N".

 1 reveal                 both ready cards face up at once
 2 on_use                 "on use" effects, priority order
 3 before_judgment        "before judgment" effects, priority order
 4 apply_fp               FP applied to attack speed, then both FP spent (3.7)
 5-8 judge                evade, guard, speed, offset (engine/play/judgment.py)
 9 special                grab nullification (4.1.1)
10 judgment_effects       evade -> guard -> hit/counter -> offset -> combo effects
11 result_fp              both players' result FP at once
12 damage                 both players' damage at once
13 state_check            health 0 (win, sudden death), hand limit
14 after_judgment         "after judgment" effects
15 after_use              "after use" effects
16 combo                  combo time (4.2, 5.4)
17 catch                  catch time (4.3, 5.5), only without combo
18 cleanup                used cards to their zones (5.3.4), defense over (5.1.1)

Each step is a function ``(st, ctx)`` that either sets ``st.step`` to the next
step or asks a decision and sets the step that resolves it.

Card effects (engine/cards/effects.py) happen in timing windows opened at their exact
step by ``window(st, ctx, timings, then)`` (engine/play/windows.py):

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

from engine.core.decisions import ask
from engine.cards.effects import JUDGMENT_WINDOWS
from engine.core.events import ev
from engine.play.judgment import LANDS, judge, result_key
from engine.play.state import Battle, order, other
from engine.play.cardfx import allowed, end_lasting, forbidden, is_nullified, log_damage, may_forbid
from engine.play.livefx import battle_start, judged_card, live_both
from engine.play.windows import judgment_triggers, window
from engine.play.zones import break_card, moved, take, to_hand, to_list

COMBO = {"as": "combo"}
CATCH = {"as": "catch"}

STEPS: dict = {}


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
    ctx.emit(ev("reveal", "guide 4.4 step 1", a_card=bt.cards["a"], b_card=bt.cards["b"]))
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
    if fx is not None and (fx["cur"]["a"]["ns"] or fx["cur"]["b"]["ns"] or fx["m"]):
        live_both(st, ctx)                       # both cards as they are now (ruling R45)
    for p in order(st):
        pl = st.players[p]
        if p in bt.ref:
            if fx is not None:
                cur = fx["cur"][p]               # the reference speed after card effects (3.7.1)
                bt.ref[p] = cur["spd"]
                fx["fpa"][p] = pl.fp             # the FP it takes, for step 7 (ruling R45)
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
        # steps 5-8 read each card as it is now (ruling R45): the reference speed for the evade,
        # guard and offset bounds, the judgment speed (reference speed + the FP taken at step 4)
        # for step 7, the judgments gained from effects
        fpa = bt.fx["fpa"]
        # the FP spent at step 4 is the only change since step 4 read the cards: with no FP there
        # is nothing new to read, and with nothing new the speeds of step 4 stand
        if (fpa.get("a") or fpa.get("b")) and live_both(st, ctx):
            for p in order(st):
                if p in bt.ref:
                    cur = bt.fx["cur"][p]
                    bt.ref[p] = cur["spd"]
                    raw = cur["spd"] - fpa.get(p, 0)
                    bt.speed[p] = cur["spd"] if cur["fixed"] else (raw if raw > 0 else 1)
        ca, cb = judged_card(st, "a"), judged_card(st, "b")
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
        # both grabs landing (a trade, an offset): both players may act at this timing, so the
        # priority holder acts first (guide 3.8 "같은 타이밍에 양쪽이 행동해야 할 때 먼저 행동하는 권한"; ruling R5)
        bt.nullify_queue = []
        for o in order(st):
            p = other(o)
            card = st.card(bt.cards[p])
            if card.kind == "attack" and card.grab and bt.outcome[p] in LANDS and grab_cards(st, o):
                bt.nullify_queue.append(o)
    if bt.nullify_queue:
        o = bt.nullify_queue[0]
        ask(st, o, "nullify", grab_cards(st, o) + ["pass"])
        st.step = "battle.special.resolve"
        return
    st.step = "battle.judgment_effects"


def grab_cards(st, p):
    """p's hand grabs that could nullify a grab (guide 4.1.1): none when p's cards cannot be broken,
    since breaking one is how the nullification is made (guide 5.6.3 item 1)."""
    cards = st.cards
    out = [cid for cid in dict.fromkeys(st.players[p].hand) if cards[cid].kind == "attack" and cards[cid].grab]
    if out and st.fxon and may_forbid(st) and forbidden(st, p, "break"):
        return []
    return out


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
    "opponent ..." timing right after its own (engine/cards/effects.py JUDGMENT_WINDOWS). Both
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
    bans = st.fxon and may_forbid(st)
    for p, (key, delta) in deltas.items():
        if bans and not allowed(st, ctx, p, "gain_fp" if delta > 0 else "lose_fp"):
            continue         # guide 5.6.3 item 1: a prohibition binds the result FP too (issue 23)
        pl = st.players[p]
        pl.fp += delta
        bt.fp_changed = True
        ctx.emit(ev("result_fp", "guide 4.4 step 11", p=p, card=bt.cards[p], key=key, delta=delta, fp=pl.fp))
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
    else:   # damage changed by the effects that hold now (ruling R45); a nullified card deals none
        cur = fx["cur"]
        ra, rb = cur["a"], cur["b"]
        if ra["ns"] or rb["ns"] or fx["m"]:
            live_both(st, ctx)      # both damages as the cards are now (ruling R45)
        da = 0 if ra["null"] == "card" else max(0, ca.damage + ra["dmod"])
        db = 0 if rb["null"] == "card" else max(0, cb.damage + rb["dmod"])
    hits = {}  # victim -> amount
    if out["a"] in ("hit", "counter", "trade"):
        hits["b"] = da
    if out["b"] in ("hit", "counter", "trade"):
        hits["a"] = db
    for victim in order(st):
        if victim in hits and hits[victim]:
            deal(st, ctx, victim, hits[victim], bt.cards[other(victim)], "guide 4.4 step 12")
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


# ------------------------------------------------------------------ step 18

@step("battle.cleanup")
def cleanup(st, ctx):
    """Step 18: used cards go to their zones in the order used, the priority holder's
    ready card first (guide 5.3.4); combo and catch cards to the list; after three
    stalled battles in a row both battle-zone skills are broken (defense over, 5.1.1)."""
    bt = st.battle
    if bt.moves is None:
        over = count_stall(st, ctx)
        bt.moves = []
        for p, cid, role in bt.used:
            # a card that cannot be broken (guide 5.6.3 item 1) goes back as used cards do (3.5.3)
            brk = over and role == "ready" and allowed(st, ctx, p, "break")
            bt.moves.append([p, cid, "break" if brk else role])
    if bt.moves:
        p, cid, role = bt.moves.pop(0)
        take(st.players[p].battle_zone, cid)
        if role == "ready" or role == "to_hand":
            to_hand(st, ctx, p, cid, "battle_zone")
        elif role == "break":
            break_card(st, ctx, p, cid, "battle_zone")
        elif role == "to_lumen":
            st.players[p].lumen_zone.append(cid)
            if st.fxon:
                moved(st)
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
    ctx.marker("battle_end", "guide 4.4 step 18")
