"""Timing windows: the named hooks where card effects happen, and how one is run.

A step of the battle (engine/play/battle.py) or of the turn (engine/play/turn.py) calls
``window(st, ctx, timings, then)`` at its exact place in the guide's order. If
no card of the game has effects (``st.fxon`` is False) that is one attribute
test and the step goes straight on: vanilla games pay nothing.

Otherwise the window collects every effect that triggers at that timing (from
both traits, both players' current battle cards, their lumen zones, hands, lists,
ultimate zones and - hidden - side decks), keeps the queue in ``st.fx`` (plain data,
so a game can be saved between any two decisions), and the step ``fx`` resolves the
queue one effect at a time in the order of engine/play/ordering.py, asking the
decisions an effect needs (``choose``). When the queue is empty the window closes
and ``st.step`` moves to ``then``.

The effect data of a battle (each player's current card), functions, durations and
the hand-limit refresh are in engine/play/cardfx.py; conditions (``if:``) in
engine/play/conditions.py.
"""

from engine.play import ordering
from engine.play.cardfx import nullified_effects, running_effect, fx_index, refresh
from engine.play.zones import later
from engine.play.conditions import cond_ok
from engine.core.decisions import ask
from engine.cards.effects import TIMING_GUIDE, TIMING_KO
from engine.core.events import ev

ASK = "ask"          # a primitive asked a decision; it is called again with the answer
AGAIN = "again"      # a primitive did one unit of a several-card job; call it again

ALWAYS = frozenset(("lumen", "get_entry", "turn_end"))
ACTING = frozenset(("on_use", "before_judgment", "after_judgment", "after_use"))
PLAYER_MODS = frozenset(("hand_limit", "forbid"))
OPPONENT = {t: "on_opponent_" + t[3:] for t in ("on_evade", "on_guard", "on_hit", "on_counter", "on_offset", "on_combo")}

STEPS: dict = {}
IMPL: dict = {}            # primitive name -> function (engine/play/primitives.py)


def step(name):
    def register(fn):
        STEPS[name] = fn
        return fn
    return register


# ------------------------------------------------------------------ opening a window

def window(st, ctx, timings, then, scope=None):
    """Open the windows ``timings`` (a tuple of timing groups, each resolved as one
    window, in order) and continue at step ``then`` when they are done.

    ``scope`` is None in the main battle and outside battles; during combo or catch
    time it is ``{"p": seat, "as": "combo"|"catch"}``: only that player is acting.
    """
    if not st.fxon:
        st.step = then
        return
    bt = st.battle
    trig = bt.fx["trig"] if scope is None and bt is not None and bt.fx is not None else None   # as _battle_trig
    for k, timings_k in enumerate(timings):
        if trig is not None:
            ta, tb = trig["a"], trig["b"]
            for t in timings_k:          # does any of them happen for either player? (as _nobody)
                if t in ACTING or t in ta or t in tb:
                    break
            else:
                continue
        queue = collect(st, timings_k, scope, True)
        if queue:
            chain = []          # the groups still to open, as lists (plain data in st.fx)
            for g in timings[k + 1:]:
                chain.append(list(g))
            _start_window(st, timings_k, chain, then, scope, queue)
            return
    st.fx = None
    st.step = then


def _open(st, ctx, chain, then, scope):
    trig = _battle_trig(st, scope)
    while chain:
        timings = chain.pop(0)
        if trig is not None and _nobody(timings, trig):
            continue
        queue = collect(st, timings, scope, True)
        if queue:
            _start_window(st, timings, chain, then, scope, queue)
            return
    st.fx = None
    st.step = then


def _battle_trig(st, scope):
    """In the main battle, the judgment timings that happen for each player (else None)."""
    bt = st.battle
    if scope is None and bt is not None and bt.fx is not None:
        return bt.fx["trig"]
    return None


def _nobody(timings, trig):
    """A group none of whose timings happens for either player collects nothing."""
    ta, tb = trig["a"], trig["b"]
    for t in timings:
        if t in ACTING or t in ta or t in tb:
            return False
    return True


def _start_window(st, timings, chain, then, scope, queue):
    st.fx = {"timing": timings[0], "chain": chain, "then": then, "scope": scope, "queue": queue,
             "grp": None, "turn": st.priority, "mode": "next", "cur": None, "asker": None}
    st.step = "fx"


def fires(st, timing, p, scope):
    """Does ``timing`` happen for player ``p`` here?"""
    if timing in ALWAYS:
        return st.battle is None
    bt = st.battle
    if bt is None or bt.fx is None:
        return False
    if scope is None:
        if timing in ACTING:
            return True
        return timing in bt.fx["trig"][p]
    sp = scope["p"]
    if timing in ACTING:
        return timing in ("on_use", "after_use") and p == sp
    own = ("on_combo",) if scope["as"] == "combo" else ("on_catch", "on_hit")
    if timing in own:
        return p == sp
    if timing.startswith("on_opponent_") and "on_" + timing[12:] in own:
        return p != sp
    return False


def judgment_triggers(st):
    """After step 9: which judgment timings happen for each player (guide 4.4 step 10).

    A card nullified as a whole has no judgment result (its own timings do not happen)."""
    bt = st.battle
    out = bt.outcome
    own = {}
    for p in ("a", "b"):
        cur = bt.fx["cur"][p]
        card = st.card(cur["id"])
        lab = out[p]
        s = set()
        if cur["null"] != "card":
            if lab == "evade" or bt.evades.get(p):
                s.add("on_evade")
            if lab == "guard":
                s.add("on_guard")
            if lab in ("hit", "trade") or (lab == "offset" and card.kind == "attack"):
                s.add("on_hit")
            if lab == "counter":
                s.add("on_counter")
            if lab == "offset" and bt.fx.get("offset_by") == p:
                s.add("on_offset")
            if bt.combo_ok.get(p):
                s.add("on_combo")
        own[p] = s
    # own and opponent timings never overlap: the sorted union is the sorted concatenation
    a, b = own["a"], own["b"]
    ta, tb = list(a), list(b)
    for t in b:
        ta.append(OPPONENT[t])
    for t in a:
        tb.append(OPPONENT[t])
    bt.fx["trig"] = {"a": sorted(ta), "b": sorted(tb)}



def collect(st, timings, scope, skip_idle=False):
    """Every effect that triggers now, the priority holder's sources first: for each timing in
    order, the trait, the current battle card, the lumen zone, the ultimate zone, the side deck.

    With ``skip_idle`` an empty list is returned when every instance would do nothing if its turn
    came now (see ``_idle``): none can change the state for another, so the window is skipped."""
    bt = st.battle
    queue = []
    bfx = bt.fx if bt is not None else None
    if _quiet(st, timings, bfx):
        return queue
    pri = st.priority
    opp = "b" if pri == "a" else "a"
    # the timings that happen for each player (plain loops: a comprehension is a call in 3.11)
    live_pri, live_opp = [], []
    if scope is not None:
        for t in timings:
            if fires(st, t, pri, scope):
                live_pri.append(t)
            if fires(st, t, opp, scope):
                live_opp.append(t)
    elif bt is None:
        for t in timings:
            if t in ALWAYS:
                live_pri.append(t)
        if not live_pri:
            return queue
        live_opp = live_pri
    elif bfx is None:
        return queue
    else:
        trig = bfx["trig"]
        tp, to = trig[pri], trig[opp]
        for t in timings:
            if t in ACTING:
                live_pri.append(t)
                live_opp.append(t)
            else:
                if t in tp:
                    live_pri.append(t)
                if t in to:
                    live_opp.append(t)
    lives = ((pri, live_pri), (opp, live_opp))
    cards = st.cards
    found = []
    for p, live in lives:
        if not live:
            continue
        pl = st.players[p]
        ch = pl.character
        trait = ch.zfx.get("trait") if ch.zfx else None
        cid = None
        cfx = None
        if bfx is not None:
            cur = bfx["cur"].get(p)
            if cur is not None:
                cid = cur["id"]
                if cid is not None:
                    cfx = cards[cid].zfx
                    cfx = cfx.get("battle") if cfx else None
        lumen = pl.lumen_zone
        ult = pl.ultimate
        ufx = None
        if ult is not None:
            ufx = cards[ult].zfx
            ufx = ufx.get("ultimate") if ufx else None
        ix = st.fxix
        if ix is None:
            ix = fx_index(st)
        timed = ix.timed
        side = pl.side_deck
        sidx = timed.get("side_deck") if side else None
        # public triggers from the hand and the list (only if some card of the game has one)
        hl = [(z, timed[z]) for z in ("hand", "list") if z in timed and getattr(pl, z)] \
            if ix.public and not ix.public_timings.isdisjoint(live) else None
        seen = None
        for t in live:
            if trait and t in trait:
                for i, e in trait[t]:
                    seen = _add(st, found, seen, p, "trait", ch.trait_id, i, e, "trait", t)
            if cfx and t in cfx:
                for i, e in cfx[t]:
                    seen = _add(st, found, seen, p, "card", cid, i, e, "battle", t)
            for lc in lumen:
                lfx = cards[lc].zfx
                if lfx and "lumen_zone" in lfx:
                    lfx = lfx["lumen_zone"]
                    if t in lfx:
                        for i, e in lfx[t]:
                            seen = _add(st, found, seen, p, "card", lc, i, e, "lumen_zone", t)
            if hl:
                for zone, zidx in hl:
                    if t in zidx:
                        ids = zidx[t]
                        for hc in getattr(pl, zone):
                            if hc in ids:
                                for i, e in cards[hc].zfx[zone][t]:
                                    seen = _add(st, found, seen, p, "card", hc, i, e, zone, t)
            if ufx and t in ufx:
                for i, e in ufx[t]:
                    seen = _add(st, found, seen, p, "card", ult, i, e, "ultimate", t)
            if sidx and t in sidx:
                ids = sidx[t]
                for sc in side:
                    if sc in ids:
                        for i, e in cards[sc].zfx["side_deck"][t]:
                            seen = _add(st, found, seen, p, "card", sc, i, e, "side_deck", t)
    if skip_idle:
        # just collected, every source is where it triggered and no numbered effect of a
        # nullified card is queued (_add): an instance is idle when its condition is false
        for p, kind, src, i, e, zone, t, name in found:
            if "if" not in e or cond_ok(st, p, e["if"], src):
                break
        else:
            return queue
    for p, kind, src, i, e, zone, t, name in found:
        queue.append({"p": p, "t": kind, "src": src, "i": i, "zone": zone, "name": name, "tm": t,
                      "hid": zone == "side_deck", "forbid": e["do"] == "forbid",
                      "opt": bool(e.get("optional", e["do"] == "use_special"))})
    return queue


def _quiet(st, timings, bfx):
    """Can nothing trigger at ``timings`` now? True when no trait and no card outside the battle
    has an entry at them (``FxIndex.busy``) and neither current battle card has one: the window
    collects nothing, whoever it fires for. Most windows of a game are such; this answers them
    without looking at every zone."""
    ix = st.fxix
    if ix is None:
        ix = fx_index(st)
    busy = ix.busy
    for t in timings:
        if t in busy:
            return False
        if bfx is not None:
            ids = ix.battle.get(t)
            if ids:
                for cur in bfx["cur"].values():
                    if cur is not None and cur["id"] in ids:
                        return False
    return True


def _add(st, found, seen, p, kind, src, i, e, zone, timing):
    """Queue one triggered entry of player p (once per timing window). Returns the set of names seen."""
    name = "%s:%d" % (src, i + 1)
    if seen is None:
        seen = set()
    elif name in seen:
        return seen
    if "number" in e and nullified_effects(st, p, src):
        return seen
    # conditions (`if`) are checked when the effect resolves, on its owner's turn (_begin):
    # an earlier effect of the same timing may make them true or false
    seen.add(name)
    found.append((p, kind, src, i, e, zone, timing, name))
    return seen


def _idle(st, inst):
    """Would this instance do nothing at all if its turn came now? (Its card left, or its
    condition is false, and it is not a nullified numbered effect, which says so.) If every
    queued instance is idle, none can change the state for another, so the window is skipped:
    the result is exactly the same, only faster. ``collect(..., skip_idle=True)`` applies this
    while collecting (tests/engine/test_windows_index.py checks that they agree)."""
    e = entry_of(st, inst)
    if not _present(st, inst):
        return True
    if "number" in e and nullified_effects(st, inst["p"], inst["src"]):
        return False
    return "if" in e and not cond_ok(st, inst["p"], e["if"], inst["src"], ev=inst.get("ev"))


def entry_of(st, inst):
    if inst["t"] == "trait":
        return st.players[inst["p"]].character.trait_effects[inst["i"]]
    return st.cards[inst["src"]].effects[inst["i"]]


def _present(st, inst):
    """Is the source still where it triggered?"""
    p, src, zone = inst["p"], inst["src"], inst["zone"]
    pl = st.players[p]
    if zone == "trait":
        return True
    if zone == "battle":
        bt = st.battle
        return bt is not None and bt.fx is not None and bt.fx["cur"][p]["id"] == src
    if zone == "ultimate":
        return pl.ultimate == src
    return src in getattr(pl, zone)


# ------------------------------------------------------------------ running a window

@step("fx")
def fx_step(st, ctx):
    W = st.fx
    mode = W["mode"]
    if mode == "pick":
        p = W["asker"]
        name = st.inbox.pop(p)["value"]
        inst = ordering.take(W["queue"], W["grp"], p, name)
        if not _begin(st, ctx, W, inst):
            return
    elif mode == "opt":
        p = W["asker"]
        answer = st.inbox.pop(p)["value"]
        inst = W["cur"]["inst"]
        if answer == "pass":
            # guide 5.2.3: a passed optional effect cannot be used again at this timing
            if inst["hid"]:
                ctx.emit(ev("effect_pass_hidden", "guide 5.2.3", p=p))
            else:
                ctx.emit(ev("effect_pass", "guide 5.2.3", p=p, by=inst["src"]))
            W["cur"] = None
            W["turn"] = ordering.after(p)
        else:
            _start(st, ctx, W, inst)
            if not _run(st, ctx, W):
                return
    elif mode in ("run", "wait"):
        if not _run(st, ctx, W):
            return
    while True:
        W = st.fx
        if W is None or st.step != "fx" or st.winner is not None:
            return
        if st.tasks:
            return        # a discard or replenish the last effect caused comes first (guide 3.3.1, 3.9.1)
        if W["cur"] is None:
            queue = W["queue"]
            if not queue:
                if "outer" in W:
                    _close_nested(st, W)
                else:
                    _open(st, ctx, W["chain"], W["then"], W["scope"])
                return
            if len(queue) == 1:
                # one instance left: its group is current and it is its owner's turn
                inst = queue[0]
                grp = ordering.group(inst)
                if grp != W["grp"]:
                    W["grp"] = grp
                    W["turn"] = st.priority
                del queue[0]
                if not _begin(st, ctx, W, inst):
                    return
                continue
            grp = ordering.current_group(queue)
            if grp != W["grp"]:
                W["grp"] = grp
                W["turn"] = st.priority      # each group starts with the priority holder
            p = ordering.whose_turn(queue, grp, W["turn"])
            names = ordering.options(queue, grp, p)
            if len(names) > 1:
                hidden = any(i["hid"] for i in queue if i["p"] == p and i["name"] in names)
                ask(st, p, "choose", names, hidden=hidden, about={"question": "order", "timing": W["timing"]})
                W["mode"] = "pick"
                W["asker"] = p
                return
            inst = ordering.take(queue, grp, p, names[0])
            if not _begin(st, ctx, W, inst):
                return
        elif not _run(st, ctx, W):
            return


def _begin(st, ctx, W, inst):
    """Start one instance; False when a decision was asked."""
    p = inst["p"]
    e = entry_of(st, inst)
    if not _present(st, inst):
        return True                    # its card left that zone: nothing happens
    if "number" in e and nullified_effects(st, p, inst["src"]):
        ctx.emit(ev("effect_nullified", "guide 5.6.1", p=p, by=inst["src"]))
        W["turn"] = ordering.after(p)
        return True
    if "if" in e and not cond_ok(st, p, e["if"], inst["src"], ev=inst.get("ev")):
        W["turn"] = ordering.after(p)      # its condition does not hold: nothing happens, silently
        return True
    W["cur"] = {"inst": inst, "ops": [], "s": None, "limit": [], "hp": None}
    if inst["opt"]:
        ask(st, p, "choose", ["use", "pass"], hidden=inst["hid"],
            about={"question": "use", "effect": inst["name"], "timing": W["timing"]})
        W["mode"] = "opt"
        W["asker"] = p
        return False
    _start(st, ctx, W, inst)
    return _run(st, ctx, W)


def _start(st, ctx, W, inst):
    e = entry_of(st, inst)
    if "if" in e:
        top = dict(e)
        del top["if"]
    else:
        top = dict(e)
    cur = W["cur"]
    cur["ops"] = [top]
    cur["hp"] = [st.players["a"].health, st.players["b"].health]
    W["mode"] = "run"
    if st.battle is not None and st.battle.fx is not None:
        st.battle.fx["fired"] = True   # an effect was activated (guide 5.1.1)
    if e["do"] != "use_special":       # a special announces itself when it is revealed
        ctx.emit(ev("effect", TIMING_GUIDE[inst["tm"]], p=inst["p"], by=inst["src"], timing=inst["tm"],
                    timing_ko=TIMING_KO[inst["tm"]], n=e.get("number", 0)))


def _run(st, ctx, W):
    """Run the current effect's entries. False when it asked a decision (or must let the
    tasks it raised - a replenish after a break - run first, guide 3.9.1 "그 직후")."""
    cur = W["cur"]
    ops = cur["ops"]
    answer = None
    if W["mode"] == "wait":
        answer = st.inbox.pop(W["asker"])["value"]
        W["mode"] = "run"
    while ops:
        e = ops[0]
        if answer is None and cur["s"] is None and "if" in e and \
                not cond_ok(st, cur["inst"]["p"], e["if"], cur["inst"]["src"], ev=cur["inst"].get("ev")):
            ops.pop(0)
            continue
        n_tasks = len(st.tasks)
        res = IMPL[e["do"]](st, ctx, cur, e, answer)
        answer = None
        if res == ASK:
            W["mode"] = "wait"
            W["asker"] = st.pending[-1]["player"]
            return False
        if res == AGAIN:
            if len(st.tasks) > n_tasks:
                return False
            continue
        ops.pop(0)
        cur["s"] = None
        extra = cur.pop("push", None) or []
        if res and e.get("then"):
            extra = extra + list(e["then"])
        if extra:
            ops[0:0] = [dict(x) for x in extra]
        if st.winner is not None:
            return False
        if len(st.tasks) > n_tasks:
            return False
    _finish(st, ctx, W)
    return True


def _finish(st, ctx, W):
    """One effect is done: hand limits (guide 3.3.1), health (ruling R6), the ordinary triggers of
    the breaks it made (guide 5.4, after the unit), next player (5.2.1)."""
    cur = W["cur"]
    p = cur["inst"]["p"]
    W["cur"] = None
    W["mode"] = "next"
    W["turn"] = ordering.after(p)
    refresh(st)
    hp = cur["hp"]
    if hp is not None and (hp[0] != st.players["a"].health or hp[1] != st.players["b"].health):
        if ctx.check_health():
            st.fx = None
            return
    limit_checks(st, ctx)
    if cur.get("trig"):
        later(st, cur["trig"])


def limit_checks(st, ctx):
    p = st.priority
    for q in (p, "b" if p == "a" else "a"):
        pl = st.players[q]
        if len(pl.hand) > pl.hand_limit:
            ctx.task({"t": "hand_limit", "p": q})


def effect_running(st):
    """True while an effect resolves: the hand-limit discard waits until it is done (guide 3.3.1).
    An effect whose break triggered an interrupt is still resolving under it."""
    return running_effect(st.fx)


def fx_ask(st, cur, player, options, question, hidden=False):
    """Ask ``player`` to choose one of ``options`` for the running effect (never with one option)."""
    ask(st, player, "choose", options, hidden=hidden,
        about={"question": question, "effect": cur["inst"]["name"]})
    return ASK


def _close_nested(st, W):
    """A window a break's triggers opened (engine/play/breaks.py) is done: what it was nested in goes on
    where it stood, the tasks it held first."""
    st.fx = W["outer"]
    st.step = W["then"]
    st.tasks = W["held"] + st.tasks
