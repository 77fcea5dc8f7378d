"""The card-effect primitives: one small function each, registered by name.

Each function is ``fn(st, ctx, cur, e, answer)``: ``cur`` is the running effect
(``cur["inst"]``: owner ``p``, source card ``src``, its zone), ``e`` the entry
(``{do: ..., params}``), ``answer`` the reply to a decision it asked (else None).
It returns True (done, its ``then`` entries follow), False (nothing happened,
``then`` is skipped), ``ASK`` (it asked a ``choose`` decision) or ``AGAIN`` (one
card of a several-card job is done). Parameters, their types and defaults are
declared once in engine/cards/effects.py; the linter guarantees them here.

Omitted subject or target = the card's owner / this card (guide 5.6.2): every
``target`` defaults to ``self``.
"""

from engine.cards.effects import target_of
from engine.core.events import ev
from engine.play.state import other
from engine.play.cardfx import add_lasting, forbidden, refresh
from engine.play.livefx import card_mod
from engine.play.windows import AGAIN, IMPL, fx_ask
from engine.play.zones import break_card, moved, take, to_hand, to_list


def impl(name):
    def register(fn):
        IMPL[name] = fn
        return fn
    return register


def _owner(cur):
    return cur["inst"]["p"]


def _tgt(cur, e):
    p = cur["inst"]["p"]
    return p if target_of(e) == "self" else other(p)


def _src(cur):
    return cur["inst"]["src"]


def _in_battle(st):
    return st.battle is not None and st.battle.fx is not None


def _distinct(zone):
    return list(dict.fromkeys(zone))


def _prohibited(st, ctx, cur, p, action):
    if forbidden(st, p, action):
        ctx.emit(ev("prohibited", "guide 5.6.3", p=p, action=action, by=_src(cur)))
        return True
    return False


# ------------------------------------------------------------------ FP, health

@impl("fp")
def fp(st, ctx, cur, e, answer):
    p = _tgt(cur, e)
    amount = e["amount"]
    if _prohibited(st, ctx, cur, p, "gain_fp" if amount > 0 else "lose_fp"):
        return False
    pl = st.players[p]
    pl.fp += amount
    if st.battle is not None:
        st.battle.fp_changed = True
    ctx.emit(ev("effect_fp", "guide 3.7", p=p, delta=amount, fp=pl.fp, by=_src(cur)))
    return True


@impl("heal")
def heal(st, ctx, cur, e, answer):
    p = _tgt(cur, e)
    if _prohibited(st, ctx, cur, p, "heal"):
        return False
    pl = st.players[p]
    new = pl.health + e["amount"]
    if not st.rules.heal_above_start:
        new = min(new, max(pl.character.start_health, pl.health))   # ruling R18
    gained = new - pl.health
    pl.health = new
    ctx.emit(ev("heal", "guide 3.3.1", p=p, amount=gained, health=new, by=_src(cur)))
    return gained > 0


@impl("lose_health")
def lose_health(st, ctx, cur, e, answer):
    p = _tgt(cur, e)
    pl = st.players[p]
    pl.health -= e["amount"]
    ctx.emit(ev("effect_health_loss", "guide 4.1.2.3", p=p, amount=e["amount"], health=pl.health, by=_src(cur)))
    return True


@impl("guard_damage")
def guard_damage(st, ctx, cur, e, answer):
    """Guard damage is applied at step 12 with the other damage, as damage its taker dealt
    themselves (guide 5.6.4)."""
    if not _in_battle(st):
        return False
    p = _tgt(cur, e)
    g = st.battle.fx["gdmg"]
    g[p] = g.get(p, 0) + e["amount"]
    return True


# ------------------------------------------------------------------ modifiers

@impl("faster")
@impl("slower")
@impl("fix_speed")
@impl("treat_speed")
@impl("damage")
@impl("add_judgment")
def card_modifier(st, ctx, cur, e, answer):
    """A change to a battle card: this card (or the opponent's) now; with a duration also the
    owner's (or opponent's) later cards until it ends (guide 3.5.5)."""
    owner, tgt, src = _owner(cur), _tgt(cur, e), _src(cur)
    dur = e.get("duration")
    if dur is None and not _in_battle(st):
        dur = "turn"
    if dur is not None:
        add_lasting(st, owner, tgt, e, src, dur)
        ctx.emit(ev("lasting", "guide 3.5.5", p=tgt, by=src, until=dur))
    if _in_battle(st):
        return card_mod(st, ctx, owner, tgt, e, src) or dur is not None
    return True


@impl("hand_limit")
@impl("forbid")
def player_modifier(st, ctx, cur, e, answer):
    owner, tgt, src = _owner(cur), _tgt(cur, e), _src(cur)
    dur = e.get("duration") or ("battle" if _in_battle(st) else "turn")
    add_lasting(st, owner, tgt, e, src, dur)
    ctx.emit(ev("lasting", "guide 3.5.5", p=tgt, by=src, until=dur))
    if e["do"] == "hand_limit":
        refresh(st)
        ctx.emit(ev("hand_limit_change", "guide 3.3.1", p=tgt, limit=st.players[tgt].hand_limit))
    return True


@impl("start_health")
@impl("deck_rule")
@impl("use_condition")
def static_only(st, ctx, cur, e, answer):
    return False     # read by the rules (setup, deck check, the ready: engine/play/usable.py), never resolved


# ------------------------------------------------------------------ cards between zones

def _take_from(st, p, cid, zone):
    pl = st.players[p]
    take(getattr(pl, zone), cid)
    if zone == "battle_zone" and st.battle is not None:
        used = st.battle.used
        for k in range(len(used) - 1, -1, -1):
            if used[k][0] == p and used[k][1] == cid:
                del used[k]
                break


def _this(st, cur):
    """(seat, zone) where the effect's own card is now, or None."""
    inst = cur["inst"]
    p, src = inst["p"], inst["src"]
    pl = st.players[p]
    if inst["t"] == "trait":
        return None
    if inst["zone"] == "ultimate":
        return (p, "ultimate") if pl.ultimate == src else None
    for zone in ("battle_zone", "lumen_zone", "side_deck", "hand", "list"):
        if src in getattr(pl, zone):
            return p, zone
    return None


def _pick(st, ctx, cur, e, answer, zone_of, question, chooser):
    """Shared by break/move/discard/draw: one card at a time, ``count`` times.
    Returns (card id or None, status) where status is ASK when a decision was asked."""
    s = cur["s"]
    if s is None:
        s = cur["s"] = {"left": e.get("count", 1), "did": False}
    if answer is not None:
        return answer, None
    p, zone = zone_of
    opts = _distinct(getattr(st.players[p], zone))
    if not opts:
        return None, s["did"]
    if len(opts) > 1:
        return None, fx_ask(st, cur, chooser, opts, question, hidden=zone == "side_deck")
    return opts[0], None


def _next(cur):
    s = cur["s"]
    s["did"] = True
    s["left"] -= 1
    return AGAIN if s["left"] > 0 else True


@impl("break")
def break_(st, ctx, cur, e, answer):
    owner, tz = _owner(cur), _tgt(cur, e)
    zone = e.get("from", "hand")
    if e.get("card") == "this":
        where = _this(st, cur)
        if where is None:
            return False
        p, z = where
        if _prohibited(st, ctx, cur, p, "break"):
            return False
        if z == "ultimate":
            st.players[p].ultimate = None
        else:
            _take_from(st, p, _src(cur), z)
        break_card(st, ctx, p, _src(cur), z)
        return True
    if _prohibited(st, ctx, cur, tz, "break"):
        return False
    if e.get("card") is not None:
        if e["card"] not in getattr(st.players[tz], zone):
            return False
        _take_from(st, tz, e["card"], zone)
        break_card(st, ctx, tz, e["card"], zone)
        return True
    chooser = owner if e.get("chooser", "self") == "self" else tz
    cid, status = _pick(st, ctx, cur, e, answer, (tz, zone), "break", chooser)
    if cid is None:
        return status
    _take_from(st, tz, cid, zone)
    break_card(st, ctx, tz, cid, zone)
    return _next(cur)


ROLE_FOR = {"hand": "to_hand", "list": "to_list", "lumen_zone": "to_lumen"}


@impl("move")
def move(st, ctx, cur, e, answer):
    owner, tz = _owner(cur), _tgt(cur, e)
    src_zone, dst = e.get("from", "hand"), e["to"]
    if e.get("card") == "this" and src_zone != "battle_zone":
        where = _this(st, cur)
        if where is None or where[1] != src_zone or dst == src_zone:
            return False
        p, z = where
        cid = _src(cur)
        take(getattr(st.players[p], z), cid)
        if dst == "hand":
            to_hand(st, ctx, p, cid, z, "guide 5.6.2")   # a special is broken instead (guide 3.3.3)
        else:
            to_list(st, ctx, p, cid, z, "guide 5.6.2")
        return True
    if e.get("card") == "this":
        # where this card goes at battle end, instead of the usual zone (guide 5.3.4)
        bt = st.battle
        if bt is None:
            return False
        for u in reversed(bt.used):
            if u[0] == owner and u[1] == _src(cur):
                u[2] = ROLE_FOR[dst]
                ctx.emit(ev("return_changed", "guide 5.3.4", p=owner, card=u[1], dst=dst))
                return True
        return False
    if src_zone == dst:
        return False
    if e.get("card") is not None:
        cid = e["card"]
        if cid not in getattr(st.players[tz], src_zone):
            return False
    else:
        chooser = owner if e.get("chooser", "self") == "self" else tz
        cid, status = _pick(st, ctx, cur, e, answer, (tz, src_zone), "move", chooser)
        if cid is None:
            return status
    _take_from(st, tz, cid, src_zone)
    if dst == "hand":
        to_hand(st, ctx, tz, cid, src_zone, "guide 5.6.2")
    else:
        to_list(st, ctx, tz, cid, src_zone, "guide 5.6.2")
    if e.get("card") is not None:
        return True
    return _next(cur)


@impl("discard")
def discard(st, ctx, cur, e, answer):
    p = _tgt(cur, e)
    cid, status = _pick(st, ctx, cur, e, answer, (p, "hand"), "discard", p)
    if cid is None:
        return status
    take(st.players[p].hand, cid)
    ctx.emit(ev("effect_discard", "guide 3.9.2", p=p, card=cid, by=_src(cur)))
    to_list(st, ctx, p, cid, "hand", "guide 3.9.2")
    return _next(cur)


@impl("draw")
def draw(st, ctx, cur, e, answer):
    p = _tgt(cur, e)
    if cur["s"] is None and _prohibited(st, ctx, cur, p, "draw"):
        return False
    cid, status = _pick(st, ctx, cur, e, answer, (p, "list"), "draw", p)
    if cid is None:
        return status
    take(st.players[p].list, cid)
    to_hand(st, ctx, p, cid, "list", "guide 3.5.4")
    return _next(cur)


# ------------------------------------------------------------------ battle

@impl("nullify")
def nullify(st, ctx, cur, e, answer):
    if not _in_battle(st):
        return False
    p = _tgt(cur, e)
    rec = st.battle.fx["cur"][p]
    if rec["id"] is None:
        return False
    what = e.get("what", "card")
    if rec["null"] != "card":
        rec["null"] = what
    ctx.emit(ev("effect_nullify", "guide 5.6.1", p=_owner(cur), tp=p, card=rec["id"], what=what, by=_src(cur)))
    return True


@impl("catch")
def catch(st, ctx, cur, e, answer):
    if not _in_battle(st):
        return False
    p = _owner(cur)
    st.battle.fx["catch"].append({"p": p, "max": e["speed_max"]})
    ctx.emit(ev("catch_granted", "guide 4.3.3", p=p, max=e["speed_max"], by=_src(cur)))
    return True


@impl("combo")
def combo(st, ctx, cur, e, answer):
    if not _in_battle(st) or st.battle.fx["combo"] is not None:
        return False
    p = _owner(cur)
    st.battle.fx["combo"] = p
    ctx.emit(ev("combo_granted", "guide 5.4", p=p, by=_src(cur)))
    return True


# ------------------------------------------------------------------ tokens, choices, specials

@impl("token")
def token(st, ctx, cur, e, answer):
    p = _tgt(cur, e)
    pl = st.players[p]
    name = e["name"]
    have = pl.tokens.get(name, 0)
    amount = e["amount"]
    if amount < 0 and have < -amount:
        ctx.emit(ev("token_short", "guide 3.1.2", p=p, name=name, have=have, need=-amount, **_token_label(pl, name)))
        return False
    new = have + amount
    mx = pl.character.token_max(name)
    if mx is not None and new > mx:
        new = mx
    pl.tokens[name] = new
    ctx.emit(ev("token", "guide 3.1.2", p=p, name=name, delta=new - have, count=new, by=_src(cur),
                **_token_label(pl, name)))
    return True


def _token_label(pl, name):
    for t in pl.character.tokens:
        if t["id"] == name and t.get("name"):
            return {"token_name": {"ko": t["name"], "en": t.get("name_en") or t["name"]}}
    return {}


@impl("choice")
def choice(st, ctx, cur, e, answer):
    if answer is None:
        return fx_ask(st, cur, _owner(cur), list(e["options"]), "option", hidden=cur["inst"]["hid"])
    cur["push"] = list(e["options"][answer])
    ctx.emit(ev("choice", "guide 5.6.2", p=_owner(cur), option=answer, by=_src(cur)))
    return True


@impl("use_special")
def use_special(st, ctx, cur, e, answer):
    """Guide 3.3.3: 1 the use condition (the entry's ``if``, already checked), 2 reveal,
    3 place, 4 its effects (``then``)."""
    inst = cur["inst"]
    p, src = inst["p"], inst["src"]
    pl = st.players[p]
    if inst["zone"] == "ultimate":
        if pl.ultimate != src:
            return False
        pl.ultimate = None
        zone = "ultimate"
    else:
        if src not in pl.side_deck:
            return False
        take(pl.side_deck, src)
        zone = "side_deck"
    place = e.get("place", "lumen_zone")
    ctx.emit(ev("special_use", "guide 3.3.3", p=p, card=src, src=zone, dst=place, timing=cur["inst"]["tm"]))
    moved(st)
    if place == "lumen_zone":
        pl.lumen_zone.append(src)
    else:
        break_card(st, ctx, p, src, zone, replenish=False)
    return True
