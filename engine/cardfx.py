"""The effect data of a battle and the effects that are not events: each player's current
battle card (its speed, damage change, fixed flag, gained judgments, nullified flag), the
continuous functions acting on it from every zone (guide 5.6.1), the speeds a hand card would
have (ruling R38), effects with a duration (``st.lasting``), prohibitions and hand limits.

``FxIndex`` (derived once per game from the immutable card table, never in the state's JSON)
says which cards can act from which zone, so a game pays only for the effects it has.
"""

from functools import lru_cache

from .cards import AnyCond, Card, Cond
from .conditions import cond_ok
from .effects import CARD_MODS, target_of
from .events import ev
from .state import order, other


class FxIndex:
    """What the card table and the two characters of a game can do, derived once per game (the
    cards and characters never change) and kept beside the state, never in its JSON:

    - ``timed``: {zone: {timing: frozenset of card ids with an entry at that timing that works in
      that zone}} for the side deck, the hand and the list, so a window does not look at every
      card of those zones;
    - ``cont``: {zone: frozenset of card ids with a continuous entry (a function) that works in that
      zone} for the zones outside the battle and the lumen zone (guide 5.6.1: every zone), ``any``
      included;
    - ``limits``: some such function changes a hand limit, so moves between zones refresh it;
    - ``public``: some card triggers from the hand or the list;
    - ``battle``: {timing: frozenset of card ids with an entry at that timing that works in the battle};
    - ``busy``: the timings at which something other than a current battle card may trigger (a trait
      of this game, or a card from a zone other than the battle); at any other timing a window
      that neither current battle card answers collects nothing (most windows of a game);
    - ``groups``: {continuous group (``mods``, ``hand_limit``, ``forbid``): frozenset of the zones in
      which some card has such a function}, so reading one group looks only where it can be.
    """

    __slots__ = ("timed", "cont", "limits", "public", "battle", "busy", "groups")

    TIMED_ZONES = ("side_deck", "hand", "list")
    CONT_ZONES = ("hand", "list", "side_deck", "break_zone", "ultimate", "any")

    def __init__(self, cards, characters=()):
        timed = {}
        cont = {}
        busy = set()
        battle = {}
        groups = {}
        limits = False
        for cid, card in cards.items():
            zfx = card.zfx
            if zfx:
                for z in self.TIMED_ZONES:
                    for t in zfx.get(z, ()):
                        timed.setdefault(z, {}).setdefault(t, set()).add(cid)
                for z, by_timing in zfx.items():
                    if z != "battle":
                        busy.update(by_timing)
                    else:
                        for t in by_timing:
                            battle.setdefault(t, set()).add(cid)
            zc = card.zcont
            if zc:
                for z, by_group in zc.items():
                    for g in by_group:
                        groups.setdefault(g, set()).add(z)
                for z in self.CONT_ZONES:
                    if z in zc:
                        cont.setdefault(z, set()).add(cid)
                        limits = limits or "hand_limit" in zc[z]
        self.timed = {z: {t: frozenset(v) for t, v in d.items()} for z, d in timed.items()}
        self.cont = {z: frozenset(v) for z, v in cont.items()}
        for ch in characters:
            if ch.zfx:
                busy.update(ch.zfx.get("trait", ()))
        self.busy = frozenset(busy)
        self.battle = {t: frozenset(v) for t, v in battle.items()}
        self.groups = {g: frozenset(v) for g, v in groups.items()}
        self.limits = limits
        self.public = "hand" in self.timed or "list" in self.timed   # triggers from the hand or the list


def fx_index(st):
    ix = st.fxix
    if ix is None:
        ix = st.fxix = _shared_index(tuple(st.cards.items()), (st.players["a"].character, st.players["b"].character))
    return ix


@lru_cache(maxsize=16)
def _shared_index(items, characters):
    """One FxIndex per card table and pair of characters (the same objects, as the sample decks
    and a hub's card sets are, parsed once): a new game of the same decks does not rebuild it. It
    is derived from immutable data and never changed, so sharing it changes nothing."""
    return FxIndex(dict(items), characters)


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
    srcs = (_continuous_sources(st, seats[0], "mods"), _continuous_sources(st, seats[1], "mods"))
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
    the lumen zone, in that order; then the other zones (``_zone_functions``)."""
    pl = st.players[q]
    ch = pl.character
    out = ()
    zc = ch.zcont
    if zc:
        g = zc["trait"].get(group)
        if g:
            out = _with((), q, ch.trait_id, g)
    ix = st.fxix
    if ix is None:
        ix = fx_index(st)
    zones = ix.groups.get(group)
    if zones is None:
        return out          # no card of this game has such a function: only the trait can
    cards = st.cards
    bt = st.battle
    if "battle" in zones and bt is not None and bt.fx is not None:
        cur = bt.fx["cur"].get(q)
        if cur is not None:
            cid = cur["id"]
            if cid is not None:
                zc = cards[cid].zcont
                if zc and "battle" in zc:
                    g = zc["battle"].get(group)
                    if g:
                        out = _with(out, q, cid, g)
    if "lumen_zone" in zones:
        for cid in pl.lumen_zone:
            zc = cards[cid].zcont
            if zc and "lumen_zone" in zc:
                g = zc["lumen_zone"].get(group)
                if g:
                    out = _with(out, q, cid, g)
    cont = ix.cont
    if cont:
        out = _zone_functions(st, pl, q, group, cont, out)
    return out


def _with(out, q, src, entries):
    """A new list: ``out``, then (q, src, e) for each entry (plain loop: a comprehension builds a
    function object per call in CPython 3.11, and this runs for every read of the sources)."""
    new = list(out)
    for e in entries:
        new.append((q, src, e))
    return new


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
                        out = _with(out, q, HIDDEN if zone == "side_deck" else cid, g)
    ult = pl.ultimate
    ids = cont.get("ultimate")
    if ult is not None and ids and ult in ids:
        g = cards[ult].zcont["ultimate"].get(group)
        if g:
            out = _with(out, q, ult, g)
    ids = cont.get("any")
    if ids:
        for cid in ids:
            g = cards[cid].zcont["any"].get(group)
            if not g:
                continue
            zone = _where_owned(pl, cid)
            if zone is not None:
                out = _with(out, q, HIDDEN if zone == "side_deck" else cid, g)
    return out


def _where_owned(pl, cid):
    """The zone of player pl that holds cid (None if they do not have it)."""
    for zone in ("battle_zone", "hand", "list", "lumen_zone", "break_zone", "side_deck"):
        if cid in getattr(pl, zone):
            return zone
    return "ultimate" if pl.ultimate == cid else None


def sync_limits(st, ctx=None):
    """A card moved between zones: hand limits changed by functions acting from a zone follow at
    once (guide 5.6.1, 3.3.1); a limit that went down below the hand is followed by the discard
    (outside an effect: an effect's own discard waits until it is done, ruling R28). Nothing to do
    unless such a function exists in this game (callers test ``st.fxon`` first, so a vanilla game
    pays one attribute test)."""
    ix = st.fxix
    if ix is None:
        ix = fx_index(st)
    if not ix.limits:
        return
    pa, pb = st.players["a"], st.players["b"]
    before = (pa.limit_delta, pb.limit_delta)
    refresh(st)
    if ctx is None or before == (pa.limit_delta, pb.limit_delta) or (st.fx is not None and st.fx["cur"] is not None):
        return
    for q in order(st):
        pl = st.players[q]
        if len(pl.hand) > pl.hand_limit:
            ctx.task({"t": "hand_limit", "p": q})


def apply_continuous(st, ctx, p, srcs=None):
    """Continuous card modifiers (functions without timing) and lasting effects on p's current card.
    ``srcs``: the modifier sources of both players, priority holder first, if already read."""
    if srcs is None:
        seats = order(st)
        srcs = (_continuous_sources(st, seats[0], "mods"), _continuous_sources(st, seats[1], "mods"))
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
    theirs = _continuous_sources(st, other(p), "mods")     # the same for every candidate
    try:
        for cid in ids:
            rec = _record(st, cid, role)
            cur[p] = rec
            mine = _continuous_sources(st, p, "mods")     # with this card as the current one
            apply_continuous(st, quiet, p, (mine, theirs) if first else (theirs, mine))
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
        if zc and "mods" in zc.get("battle", ()):
            for e in zc["battle"]["mods"]:
                if e["do"] in SPEED_MODS:
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
