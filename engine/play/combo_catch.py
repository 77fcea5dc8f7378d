"""Battle steps 16 and 17 (guide 4.4): combo time (4.2, 5.4) and catch time (4.3, 5.5).

Step 16: a hit or counter whose result says combo becomes the 1st combo; the pair, then one
card at a time, each card: on use -> on combo -> damage -> after use (4.2.2). Step 17, only
without a combo: effect catches first, then the FP catch (brief ruling 3); each catch card:
on use -> on catch -> on hit -> damage -> after use (4.3.2). The other steps are in
engine/play/battle.py; the steps here are registered under the same ``battle.`` names.
"""

from engine.play.battle import CATCH, COMBO, deal, grab_cards
from engine.play.cardfx import allowed, forbidden, fx_index, is_nullified, sync_limits
from engine.play.livefx import effective_damage, hand_speeds, read, start_card
from engine.core.decisions import ask
from engine.play.usable import usable
from engine.core.events import ev
from engine.play.state import order, other
from engine.play.windows import window
from engine.play.zones import break_card, moved, take, to_hand

STEPS: dict = {}


def step(name):
    def register(fn):
        STEPS[name] = fn
        return fn
    return register


# ------------------------------------------------------------------ step 16: combo time

def combo_cut(st, n):
    """Damage correction of the n-th combo card (brief ruling 2): 2nd -100, 3rd -200, ..."""
    return (n - 1) * st.rules.combo_damage_step


def combo_attacks(st, p):
    """p's hand attacks that may be used as combo cards now: legal ones (guide 4.2.1 "합법적인 공격
    카드"), whose use conditions hold (engine/play/usable.py)."""
    cards = st.cards
    out = []
    uses = st.fxon and fx_index(st).uses
    for cid in dict.fromkeys(st.players[p].hand):
        card = cards[cid]
        if card.kind == "attack" and (not uses or not card.use_if or usable(st, p, cid)):
            out.append(cid)
    return out


def combo_options(st, p, combo):
    """Legal combo answers: pairs [x, y] (speed y = speed x + 1) to begin, then [z]
    with speed z = last + 1; a card whose corrected damage is 0 or less cannot be used.
    Speeds are link speeds: a card "treated as speed X" links as X (guide 5.4); damage
    counts the card's own unconditional on-combo change (brief ruling 2)."""
    cards = st.cards
    n = combo["n"]
    hand = st.players[p].hand
    ids = combo_attacks(st, p)
    link = {}
    if st.fxon:
        for cid, sl in hand_speeds(st, p, ids, "combo").items():    # ruling R38
            link[cid] = sl[1]
    else:
        for cid in ids:
            link[cid] = cards[cid].link_speed
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


def link_after(st, p, cid, ctx=None):
    """The speed the next combo card links to: p's current card's speed after the effects that
    hold now, or the speed it is treated as (guide 5.4; ruling R45)."""
    bt = st.battle
    if bt.fx is None:
        return st.cards[cid].speed
    cur = read(st, p, ctx) if ctx is not None else bt.fx["cur"][p]
    return cur["link"] if cur["link"] is not None else cur["spd"]


@step("battle.combo")
def combo(st, ctx):
    """Step 16: a hit or counter whose result says combo becomes the 1st combo (guide 4.2).
    When both attacks qualify (a trade or an offset) each processes only its 1st combo (5.4).
    Without one, an effect may start combo time: two hand cards as 1st and 2nd combo (5.4)."""
    bt = st.battle
    eligible = []
    for p in order(st):
        if bt.combo_ok.get(p):
            eligible.append(p)
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
    if bt.fx is not None and bt.combo["stage"] == "next":
        # the link is read when the next card is offered (guide 5.4: "변한 속도를 기준으로"): the last
        # combo card's after-use effects and the functions holding now count (ruling R45)
        bt.combo["last"] = link_after(st, p, None, ctx)
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
    if st.fxon:
        moved(st)
        sync_limits(st, ctx)
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
        # guide 5.4: after the 2nd combo the 3rd must still be legal (effects may have changed the
        # link); the 2nd is still the current card: its link now (ruling R45)
        cb["last"] = link_after(st, p, None, ctx)
        card = st.cards[cid]
        if hand_speeds(st, p, (cid,), "combo")[cid][1] != cb["last"] + 1 \
                or card.damage + card.combo_bonus - combo_cut(st, cb["n"] + 1) <= 0 \
                or (card.use_if and not usable(st, p, cid)):
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
    base = card.damage if bt.fx is None else effective_damage(st, p, card, ctx)
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
    if not st.fxon:
        return [cid for cid in ids if cards[cid].speed <= limit]
    if fx_index(st).uses:
        ids = [cid for cid in ids if not cards[cid].use_if or usable(st, p, cid)]   # its use conditions (engine/play/usable.py)
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
    if st.fxon and not allowed(st, ctx, p, "catch"):
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
    if st.fxon:
        moved(st)
        sync_limits(st, ctx)
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
    if fp and not nulled and (not st.fxon or allowed(st, ctx, p, "gain_fp" if fp > 0 else "lose_fp")):
        pl.fp += fp
        bt.fp_changed = True
        ctx.emit(ev("result_fp", "guide 4.3.2", p=p, card=cid, key="hit", delta=fp, fp=pl.fp))
    amount = card.damage if bt.fx is None else (0 if nulled else effective_damage(st, p, card, ctx))
    deal(st, ctx, other(p), amount, cid, "guide 4.3.2")
    if ctx.check_health():
        # the game is over, or sudden death began: check_health has set where the engine goes
        # (sd.setup); the battle is gone, nothing of it may run (ruling R41, issue 23 point 7)
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
