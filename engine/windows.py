"""Timing windows: the named hooks where card effects happen, and how one is run.

A step of the battle (engine/battle.py) or of the turn (engine/turn.py) calls
``window(st, ctx, timings, then)`` at its exact place in the guide's order. If
no card of the game has effects (``st.fxon`` is False) that is one attribute
test and the step goes straight on: vanilla games pay nothing.

Otherwise the window collects every effect that triggers at that timing (from
both traits, both players' current battle cards, their lumen zones, ultimate
zones and - hidden - side decks), keeps the queue in ``st.fx`` (plain data, so a
game can be saved between any two decisions), and the step ``fx`` resolves the
queue one effect at a time in the order of engine/ordering.py, asking the
decisions an effect needs (``choose``). When the queue is empty the window closes
and ``st.step`` moves to ``then``.

Also here: the data of effects in a battle (``Battle.fx``: each player's current
card with its speed, damage change, fixed flag, gained judgments and nullified
flag), effects with a duration (``st.lasting``), conditions (``if:``), and the
hand-limit refresh.
"""

from . import ordering
from .cards import AnyCond, Card, Cond
from .decisions import ask
from .effects import CARD_MODS, TIMING_GUIDE, TIMING_KO, target_of
from .events import ev
from .state import order, other

ASK = "ask"          # a primitive asked a decision; it is called again with the answer
AGAIN = "again"      # a primitive did one unit of a several-card job; call it again

ALWAYS = frozenset(("lumen", "get_entry", "turn_end"))
ACTING = frozenset(("on_use", "before_judgment", "after_judgment", "after_use"))
PLAYER_MODS = frozenset(("hand_limit", "forbid"))
OPPONENT = {t: "on_opponent_" + t[3:] for t in ("on_evade", "on_guard", "on_hit", "on_counter", "on_offset", "on_combo")}

STEPS = {}
IMPL = {}            # primitive name -> function (engine/primitives.py)


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
    trig = _battle_trig(st, scope)
    for k, timings_k in enumerate(timings):
        if trig is not None and _nobody(timings_k, trig):
            continue
        queue = collect(st, timings_k, scope, True)
        if queue:
            _start_window(st, timings_k, [list(g) for g in timings[k + 1:]], then, scope, queue)
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
    """After step 9: which judgment timings happen for each player (guide 4.4.10).

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
    bt.fx["trig"] = {"a": sorted([*a, *[OPPONENT[t] for t in b]]), "b": sorted([*b, *[OPPONENT[t] for t in a]])}


class FxIndex:
    """What the card table and the two characters of a game can do, derived once per game (the
    cards and characters never change) and kept beside the state, never in its JSON:

    - ``timed``: {zone: {timing: frozenset of card ids with an entry at that timing that works in
      that zone}} for the side deck, the hand and the list, so a window does not look at every
      card of those zones;
    - ``cont``: {zone: frozenset of card ids with a continuous entry (a function) that works in that
      zone} for the zones outside the battle and the lumen zone (guide 5.6.1: every zone), ``any``
      included;
    - ``limits``: some such function changes a hand limit, so moves between zones refresh it.
    """

    __slots__ = ("timed", "cont", "limits")

    TIMED_ZONES = ("side_deck", "hand", "list")
    CONT_ZONES = ("hand", "list", "side_deck", "break_zone", "ultimate", "any")

    def __init__(self, cards):
        timed = {}
        cont = {}
        limits = False
        for cid, card in cards.items():
            zfx = card.zfx
            if zfx:
                for z in self.TIMED_ZONES:
                    for t in zfx.get(z, ()):
                        timed.setdefault(z, {}).setdefault(t, set()).add(cid)
            zc = card.zcont
            if zc:
                for z in self.CONT_ZONES:
                    if z in zc:
                        cont.setdefault(z, set()).add(cid)
                        limits = limits or "hand_limit" in zc[z]
        self.timed = {z: {t: frozenset(v) for t, v in d.items()} for z, d in timed.items()}
        self.cont = {z: frozenset(v) for z, v in cont.items()}
        self.limits = limits


def fx_index(st):
    ix = st.fxix
    if ix is None:
        ix = st.fxix = FxIndex(st.cards)
    return ix


def collect(st, timings, scope, skip_idle=False):
    """Every effect that triggers now, the priority holder's sources first: for each timing in
    order, the trait, the current battle card, the lumen zone, the ultimate zone, the side deck.

    With ``skip_idle`` an empty list is returned when every instance would do nothing if its turn
    came now (see ``_idle``): none can change the state for another, so the window is skipped."""
    bt = st.battle
    queue = []
    pri = st.priority
    opp = "b" if pri == "a" else "a"
    bfx = bt.fx if bt is not None else None
    if scope is not None:
        lives = ((pri, [t for t in timings if fires(st, t, pri, scope)]),
                 (opp, [t for t in timings if fires(st, t, opp, scope)]))
    elif bt is None:
        live = [t for t in timings if t in ALWAYS]
        if not live:
            return queue
        lives = ((pri, live), (opp, live))
    elif bfx is None:
        return queue
    else:
        trig = bfx["trig"]
        tp, to = trig[pri], trig[opp]
        lives = ((pri, [t for t in timings if t in ACTING or t in tp]),
                 (opp, [t for t in timings if t in ACTING or t in to]))
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
        timed = (ix if ix is not None else fx_index(st)).timed
        side = pl.side_deck
        sidx = timed.get("side_deck") if side else None
        hidx = timed.get("hand") if pl.hand else None
        lidx = timed.get("list") if pl.list else None
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
            for zidx, zone in ((hidx, "hand"), (lidx, "list")):     # public, like the lumen zone
                if zidx and t in zidx:
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


def _add(st, found, seen, p, kind, src, i, e, zone, timing):
    """Queue one triggered entry of player p (once per timing window). Returns the set of names seen."""
    name = "%s:%d" % (src, i + 1)
    if seen is None:
        seen = set()
    elif name in seen:
        return seen
    if "number" in e and _nullified_effects(st, p, src):
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
    if "number" in e and _nullified_effects(st, inst["p"], inst["src"]):
        return False
    return "if" in e and not cond_ok(st, inst["p"], e["if"], inst["src"])


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
    if "number" in e and _nullified_effects(st, p, inst["src"]):
        ctx.emit(ev("effect_nullified", "guide 5.6.1", p=p, by=inst["src"]))
        W["turn"] = ordering.after(p)
        return True
    if "if" in e and not cond_ok(st, p, e["if"], inst["src"]):
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
        if answer is None and cur["s"] is None and "if" in e and not cond_ok(st, cur["inst"]["p"], e["if"], cur["inst"]["src"]):
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
    """One effect is done: hand limits (guide 3.3.1), health (ruling R6), next player (5.2.1)."""
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


def limit_checks(st, ctx):
    p = st.priority
    for q in (p, "b" if p == "a" else "a"):
        pl = st.players[q]
        if len(pl.hand) > pl.hand_limit:
            ctx.task({"t": "hand_limit", "p": q})


def effect_running(st):
    """True while an effect resolves: the hand-limit discard waits until it is done (guide 3.3.1)."""
    return st.fx is not None and st.fx["cur"] is not None


def fx_ask(st, cur, player, options, question, hidden=False):
    """Ask ``player`` to choose one of ``options`` for the running effect (never with one option)."""
    ask(st, player, "choose", options, hidden=hidden,
        about={"question": question, "effect": cur["inst"]["name"]})
    return ASK


# ------------------------------------------------------------------ the current battle cards

def battle_start(st, ctx):
    """At the reveal (step 1): each player's ready card becomes their current card; continuous
    functions and effects with a duration apply to it."""
    bt = st.battle
    bt.fx = {"cur": {}, "fired": False, "dmg": {"a": [], "b": []}, "gdmg": {}, "catch": [], "combo": None,
             "offset_by": None, "trig": {"a": [], "b": []}}
    seats = order(st)
    for p in seats:
        bt.fx["cur"][p] = _record(st, bt.cards[p], "ready")
    # the sources do not move while modifiers apply: read them once for both cards
    srcs = [_continuous_sources(st, q, "mods") for q in seats]
    for p in seats:
        apply_continuous(st, ctx, p, srcs)


def start_card(st, ctx, p, cid, role):
    """A combo or catch card becomes player p's current card (guide 4.2.2, 4.3.2)."""
    bt = st.battle
    if bt.fx is None:
        return
    rec = _record(st, cid, role)
    if role == "combo" and bt.combo is not None:
        rec["pos"] = bt.combo["n"]
    bt.fx["cur"][p] = rec
    apply_continuous(st, ctx, p)


def _record(st, cid, role):
    card = st.card(cid)
    spd = max(1, card.speed) if card.kind == "attack" else None
    return {"id": cid, "role": role, "spd": spd, "link": card.link_speed if card.link_speed != card.speed else None,
            "link_fx": False, "dmod": 0, "fixed": False, "null": None, "extra": {}, "pos": 0}


def _continuous_sources(st, q, group):
    """(owner, source id, entry) of owner q's continuous entries of one ``effects.cont_group``
    (``mods``, ``hand_limit``, ``forbid``) that work now: the trait, the current battle card,
    the lumen zone, in that order."""
    pl = st.players[q]
    ch = pl.character
    out = ()
    zc = ch.zcont
    if zc:
        g = zc["trait"].get(group)
        if g:
            tid = ch.trait_id
            out = [(q, tid, e) for e in g]
    cards = st.cards
    bt = st.battle
    if bt is not None and bt.fx is not None:
        cur = bt.fx["cur"].get(q)
        if cur is not None:
            cid = cur["id"]
            if cid is not None:
                zc = cards[cid].zcont
                if zc and "battle" in zc:
                    g = zc["battle"].get(group)
                    if g:
                        out = [*out, *[(q, cid, e) for e in g]]
    for cid in pl.lumen_zone:
        zc = cards[cid].zcont
        if zc and "lumen_zone" in zc:
            g = zc["lumen_zone"].get(group)
            if g:
                out = [*out, *[(q, cid, e) for e in g]]
    ix = st.fxix
    cont = (ix if ix is not None else fx_index(st)).cont
    if cont:
        out = _zone_functions(st, pl, q, group, cont, out)
    return out


HIDDEN = "?"     # the source of a function acting from the side deck is not named (guide 5.2.2)


def _zone_functions(st, pl, q, group, cont, out):
    """Functions acting from the hand, list, side deck, break zone, ultimate zone, or wherever
    the card is (``any``): guide 5.6.1 "별도 발동 없이 모든 존에서 적용"."""
    cards = st.cards
    bt = st.battle
    cur = bt.fx["cur"].get(q) if bt is not None and bt.fx is not None else None
    now = cur["id"] if cur is not None else None     # a card being used acts from the battle, not its old zone
    for zone in ("hand", "list", "side_deck", "break_zone"):
        ids = cont.get(zone)
        if ids:
            for cid in getattr(pl, zone):
                if cid in ids and cid != now:
                    g = cards[cid].zcont[zone].get(group)
                    if g:
                        src = HIDDEN if zone == "side_deck" else cid
                        out = [*out, *[(q, src, e) for e in g]]
    ult = pl.ultimate
    ids = cont.get("ultimate")
    if ult is not None and ids and ult in ids:
        g = cards[ult].zcont["ultimate"].get(group)
        if g:
            out = [*out, *[(q, ult, e) for e in g]]
    ids = cont.get("any")
    if ids:
        for cid in ids:
            g = cards[cid].zcont["any"].get(group)
            if not g:
                continue
            zone = _where_owned(pl, cid)
            if zone is not None:
                src = HIDDEN if zone == "side_deck" else cid
                out = [*out, *[(q, src, e) for e in g]]
    return out


def _where_owned(pl, cid):
    """The zone of player pl that holds cid (None if they do not have it)."""
    for zone in ("battle_zone", "hand", "list", "lumen_zone", "break_zone", "side_deck"):
        if cid in getattr(pl, zone):
            return zone
    return "ultimate" if pl.ultimate == cid else None


def sync_limits(st):
    """A card moved between zones: hand limits changed by functions acting from a zone follow at
    once (guide 5.6.1, 3.3.1). Nothing to do unless such a function exists in this game."""
    if st.fxon:
        ix = st.fxix
        if (ix if ix is not None else fx_index(st)).limits:
            refresh(st)


def apply_continuous(st, ctx, p, srcs=None):
    """Continuous card modifiers (functions without timing) and lasting effects on p's current card.
    ``srcs``: the modifier sources of both players, priority holder first, if already read."""
    if srcs is None:
        srcs = [_continuous_sources(st, q, "mods") for q in order(st)]
    for sq in srcs:
        for owner, src, e in sq:
            if e["do"] != "treat_speed" and _seat(owner, e) == p:
                if "if" not in e or cond_ok(st, owner, e["if"], src):
                    card_mod(st, ctx, owner, p, e, src)
            elif e["do"] == "treat_speed" and _seat(owner, e) == p:
                if src == st.battle.fx["cur"][p]["id"] and "if" not in e:
                    continue           # already in the card's link speed (cards.Card.link_speed)
                if "if" not in e or cond_ok(st, owner, e["if"], src):
                    card_mod(st, ctx, owner, p, e, src)
    for x in st.lasting:
        e = x["e"]
        if x["tgt"] == p and e["do"] in CARD_MODS:
            card_mod(st, ctx, x["p"], p, e, x["src"])


def _seat(owner, e):
    return owner if target_of(e) == "self" else other(owner)


def card_mod(st, ctx, owner, p, e, src):
    """Apply a card modifier to player p's current battle card. True if it applied."""
    bt = st.battle
    cur = bt.fx["cur"][p]
    cid = cur["id"]
    if cid is None:
        return False
    card = st.cards[cid]
    do = e["do"]
    if do in ("faster", "slower"):
        if card.kind != "attack":
            return False
        if forbidden(st, p, "speed_change"):
            ctx.emit(ev("prohibited", "guide 5.6.3", p=p, action="speed_change", by=src))
            return False
        if cur["fixed"]:
            # guide 5.3.1: after a fix, other speed changes do not apply
            ctx.emit(ev("speed_ignored", "guide 5.3.1", p=p, card=cid, by=src))
            return False
        old = cur["spd"]
        raw = old - e["amount"] if do == "faster" else old + e["amount"]
        cur["spd"] = raw if raw > 0 else 1      # a computed speed of 0 or less is 1 (guide 5.3.2)
        ctx.emit(ev("speed_change", "guide 5.3.2", p=p, card=cid, old=old, new=cur["spd"], by=src))
        return True
    if do == "fix_speed":
        if card.kind != "attack":
            return False
        if cur["fixed"]:
            # guide 5.3.1: the first fix stays; 5.6.3: a later contradicting effect is not applied
            ctx.emit(ev("not_applied", "guide 5.3.1", p=p, card=cid, by=src))
            return False
        old = cur["spd"]
        if e.get("speed") is not None:
            cur["spd"] = e["speed"]
        cur["fixed"] = True
        ctx.emit(ev("speed_fix", "guide 5.3.1", p=p, card=cid, old=old, new=cur["spd"], by=src))
        return True
    if do == "treat_speed":
        if card.kind != "attack":
            return False
        if cur["link_fx"] and cur["link"] != e["speed"]:
            ctx.emit(ev("not_applied", "guide 5.6.3", p=p, card=cid, by=src))
            return False
        cur["link"] = e["speed"]
        cur["link_fx"] = True
        ctx.emit(ev("treat_speed", "guide 5.4", p=p, card=cid, speed=e["speed"], by=src))
        return True
    if do == "damage":
        if card.kind != "attack":
            return False
        cur["dmod"] += e["amount"]
        ctx.emit(ev("damage_mod", "guide 4.2.3", p=p, card=cid, delta=e["amount"],
                    amount=max(0, card.damage + cur["dmod"]), by=src))
        return True
    if do == "add_judgment":
        j = e["judgment"]
        if j == "guard" and card.kind != "defense":
            return False
        cond = {"positions": e.get("positions") or ["high", "mid", "low"]}
        for k in ("speed_min", "speed_max"):
            if e.get(k) is not None:
                cond[k] = e[k]
        cur["extra"].setdefault(j, []).append(cond)
        ctx.emit(ev("judgment_added", "guide 4.1", p=p, card=cid, judgment=j, by=src))
        return True
    raise AssertionError(do)


SPEED_MODS = frozenset(("faster", "slower", "fix_speed", "treat_speed"))


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
        return {cid: (max(1, cards[cid].speed), cards[cid].link_speed) for cid in ids}
    cur = bt.fx["cur"]
    saved = cur.get(p)
    quiet = _Quiet()
    out = {}
    try:
        for cid in ids:
            rec = _record(st, cid, role)
            cur[p] = rec
            apply_continuous(st, quiet, p)
            out[cid] = (rec["spd"], rec["link"] if rec["link"] is not None else rec["spd"])
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
        if zc and "mods" in zc.get("battle", ()) and any(e["do"] in SPEED_MODS for e in zc["battle"]["mods"]):
            return True
    bt = st.battle
    saved = bt.fx["cur"].get(p)
    bt.fx["cur"][p] = None          # the sources apart from the current card
    try:
        for q in ("a", "b"):
            for owner, _src, e in _continuous_sources(st, q, "mods"):
                if e["do"] in SPEED_MODS and _seat(owner, e) == p:
                    return True
    finally:
        bt.fx["cur"][p] = saved
    return False


def judged_card(st, p):
    """The card judged at steps 5-8: the ready card with the judgments it gained (add_judgment)."""
    bt = st.battle
    card = st.card(bt.cards[p])
    if bt.fx is None:
        return card
    extra = bt.fx["cur"][p]["extra"]
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


def effective_damage(st, p, card):
    """Damage of p's current card with effect changes, never below 0."""
    bt = st.battle
    if bt.fx is None:
        return card.damage
    d = card.damage + bt.fx["cur"][p]["dmod"]
    return d if d > 0 else 0


def is_nullified(st, p):
    bt = st.battle
    return bt.fx is not None and bt.fx["cur"][p]["null"] == "card"


def _nullified_effects(st, p, src):
    """Is src p's current battle card with its numbered effects nullified?"""
    bt = st.battle
    if bt is None or bt.fx is None:
        return False
    cur = bt.fx["cur"].get(p)
    return cur is not None and cur["id"] == src and cur["null"] is not None


def log_damage(st, victim, by_opponent):
    bt = st.battle
    if bt is not None and bt.fx is not None:
        bt.fx["dmg"][victim].append("opp" if by_opponent else "self")


# ------------------------------------------------------------------ durations

def add_lasting(st, owner, tgt, e, src, duration):
    until = "battle" if duration == "battle" else (st.turn if duration == "turn" else st.turn + 1)
    body = {k: v for k, v in e.items() if k not in ("timing", "if", "then", "optional", "number", "text", "duration")}
    st.lasting.append({"p": owner, "tgt": tgt, "e": body, "src": src, "until": until})


def end_lasting(st, ctx, battle=False):
    """Durations end: at battle end the battle ones, in the recovery phase the turn ones (3.5.5)."""
    if not st.lasting:
        return
    keep = []
    for x in st.lasting:
        u = x["until"]
        if (u == "battle") if battle else (u == "battle" or u <= st.turn):
            ctx.emit(ev("lasting_end", "guide 3.5.5", p=x["p"], by=x["src"]))
        else:
            keep.append(x)
    st.lasting = keep
    refresh(st)


def forbidden(st, p, action):
    """A prohibition on p (guide 5.6.3 item 1): a lasting one, or a continuous function."""
    if not st.fxon:
        return False
    for x in st.lasting:
        e = x["e"]
        if e["do"] == "forbid" and x["tgt"] == p and e["action"] == action:
            return True
    for q in ("a", "b"):
        for owner, src, e in _continuous_sources(st, q, "forbid"):
            if e["action"] == action and _seat(owner, e) == p:
                if "if" not in e or cond_ok(st, owner, e["if"], src):
                    return True
    return False


def trait_limit_delta(st, p):
    """The hand-limit change p gets from the two traits alone (a new game setup keeps only these)."""
    if not st.fxon:
        return 0
    delta = 0
    for q in ("a", "b"):
        ch = st.players[q].character
        for _i, e, _z in ch.cont:
            if e["do"] == "hand_limit" and _seat(q, e) == p and ("if" not in e or cond_ok(st, q, e["if"], ch.trait_id)):
                delta += e["amount"]
    return delta


def refresh(st):
    """Recompute each player's hand-limit change from continuous functions and durations."""
    if not st.fxon:
        return
    delta = {"a": 0, "b": 0}
    for q in ("a", "b"):
        for owner, src, e in _continuous_sources(st, q, "hand_limit"):
            if "if" not in e or cond_ok(st, owner, e["if"], src):
                delta[_seat(owner, e)] += e["amount"]
    for x in st.lasting:
        if x["e"]["do"] == "hand_limit":
            delta[x["tgt"]] += x["e"]["amount"]
    st.players["a"].limit_delta = delta["a"]
    st.players["b"].limit_delta = delta["b"]


# ------------------------------------------------------------------ conditions

def _card_matches(card, want, spd=None):
    """``spd``: the card's reference speed now (printed + effects, before FP; ruling R38)."""
    if card is None:
        return False
    if spd is None:
        spd = card.speed
    for k, v in want.items():
        if k == "kind" and card.kind != v:
            return False
        if k == "position" and card.position != v:
            return False
        if k == "grab" and bool(card.grab) != v:
            return False
        if k == "id" and card.id != v:
            return False
        if k == "speed_min" and (card.kind != "attack" or spd < v):
            return False
        if k == "speed_max" and (card.kind != "attack" or spd > v):
            return False
    return True


def cond_ok(st, p, cond, src=None):
    """Do all conditions hold for owner p? (``src``: the entry's own card, for not_nullified.)"""
    players = st.players
    pl = players[p]
    op = players["b" if p == "a" else "a"]
    bt = st.battle
    bfx = bt.fx if bt is not None else None
    for k, v in cond.items():
        if k == "tokens":
            ok = True
            for name, b in v.items():
                n = pl.tokens.get(name, 0)
                if n < b.get("min", n) or n > b.get("max", n):
                    ok = False
        elif k == "health_min":
            ok = pl.health >= v
        elif k == "health_max":
            ok = pl.health <= v
        elif k == "opponent_health_min":
            ok = op.health >= v
        elif k == "opponent_health_max":
            ok = op.health <= v
        elif k == "fp_min":
            ok = pl.fp >= v
        elif k == "fp_max":
            ok = pl.fp <= v
        elif k == "opponent_fp_min":
            ok = op.fp >= v
        elif k == "opponent_fp_max":
            ok = op.fp <= v
        elif k == "count":
            who = pl if v.get("who", "self") == "self" else op
            n = len(getattr(who, v["zone"]))
            ok = n >= v.get("min", n) and n <= v.get("max", n)
        elif k == "outcome":
            # this battle's outcome (none before its judgment); outside a battle the last one
            out = bt.outcome if bt is not None else (st.last_outcome or {})
            ok = out.get(p) in v
        elif k == "priority":
            ok = (st.priority == p) == v
        elif k == "turn_min":
            ok = st.turn >= v
        elif k == "turn_max":
            ok = st.turn <= v
        elif k == "not_nullified":
            # guide 5.3.3: a countered card counts as nullified for this condition only
            nulled = False
            if bfx is not None and bfx["cur"].get(p) is not None and bfx["cur"][p]["id"] == src:
                nulled = bfx["cur"][p]["null"] is not None or bt.outcome.get(p) == "countered"
            ok = (not nulled) == v
        elif k == "damaged":
            ok = bool(bfx is not None and bfx["dmg"][p]) == v
        elif k == "damaged_by_opponent":
            ok = bool(bfx is not None and "opp" in bfx["dmg"][p]) == v
        elif k == "in_combo":
            # a 2nd+ combo card, or the 1st once its judgment made it a combo (ruling R39)
            cur = bfx["cur"].get(p) if bfx is not None else None
            ok = bool(cur is not None and (cur["role"] == "combo" or (cur.get("c1") and cur["null"] != "card"))) == v
        elif k in ("used", "opponent_used"):
            q = p if k == "used" else other(p)
            cur = bfx["cur"].get(q) if bfx is not None else None
            ok = cur is not None and cur["id"] is not None and _card_matches(st.cards[cur["id"]], v, cur["spd"])
        else:
            raise AssertionError(k)
        if not ok:
            return False
    return True
