"""The effects that are not events: the continuous functions acting from every zone (guide
5.6.1) and where they are, effects with a duration (``st.lasting``), prohibitions and hand
limits. The current battle card's values, read live from these, are in engine/play/livefx.py.

``FxIndex`` (derived once per game from the immutable card table, never in the state's JSON)
says which cards can act from which zone, so a game pays only for the effects it has.
"""

from functools import lru_cache

from engine.play.conditions import card_matches, cond_ok
from engine.cards.effects import EVENT_TIMINGS, target_of
from engine.core.events import ev
from engine.play.state import order, other


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
      which some card has such a function}, so reading one group looks only where it can be;
    - ``mod_keys``: the condition keys (``if:``) of every card-modifier and prohibition function, so
      a live read knows what it depends on (engine/play/livefx.py ``_stamp``).
    """

    __slots__ = ("timed", "cont", "limits", "public", "battle", "busy", "groups", "mod_keys", "stamp_hp",
                 "stamp_fp", "stamp_out", "stamp_dmg", "stamp_tokens", "stamp_cards", "stamp_more", "forbids", "breaks", "uses",
                 "break_int", "break_norm", "break_ids", "public_timings", "limit_zones",
                 "limit_reads")

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
        mod_keys = set()
        for ch in characters:
            if ch.zfx:
                busy.update(ch.zfx.get("trait", ()))
            for g in ("mods", "forbid"):
                for e in (ch.zcont.get("trait") or {}).get(g, ()):
                    mod_keys.update(e.get("if") or ())
        for card in cards.values():
            for by_group in (card.zcont or {}).values():
                for g in ("mods", "forbid"):
                    for e in by_group.get(g, ()):
                        mod_keys.update(e.get("if") or ())
        self.mod_keys = frozenset(mod_keys)
        # what a live read depends on besides the card moves and the lasting effects
        # (livefx._stamp): tokens, health, FP, the outcome, the damage log, the current cards' combo,
        # nullification and speed only if some condition of a card-modifier or prohibition function
        # reads them
        self.stamp_hp = not mod_keys.isdisjoint(("health_min", "health_max", "opponent_health_min", "opponent_health_max"))
        self.stamp_fp = not mod_keys.isdisjoint(("fp_min", "fp_max", "opponent_fp_min", "opponent_fp_max"))
        self.stamp_out = not mod_keys.isdisjoint(("outcome", "not_nullified"))
        self.stamp_dmg = not mod_keys.isdisjoint(("damaged", "damaged_by_opponent"))
        self.stamp_tokens = "tokens" in mod_keys
        self.stamp_cards = not mod_keys.isdisjoint(("in_combo", "not_nullified", "used", "opponent_used"))
        # some card or trait triggers when a card is broken (issue 23): break_card records breaks
        entries = [e for card in cards.values() for t in EVENT_TIMINGS for _i, e, _z in card.fx.get(t, ())]
        entries += [e for ch in characters for t in EVENT_TIMINGS for _i, e, _z in ch.fx.get(t, ())]
        self.breaks = bool(entries)
        self.break_int = any(e.get("interrupt") for e in entries)                 # some are interrupts
        self.break_norm = any(not e.get("interrupt") for e in entries)            # some are not
        # {(timing, interrupt?): card ids with such an entry} (windows.collect_breaks looks only at these)
        self.break_ids = {(t, i): frozenset(cid for cid, card in cards.items()
                                            if any(bool(e.get("interrupt")) == i for _n, e, _z in card.fx.get(t, ())))
                          for t in EVENT_TIMINGS for i in (False, True)}
        # the zones (and the battle) a hand-limit function acts from, all of them for `count` and
        # `any`; None when some hand-limit function has a condition refresh cannot key on (refresh)
        lim_keys = set()
        for card in cards.values():
            for by_group in (card.zcont or {}).values():
                for e in by_group.get("hand_limit", ()):
                    lim_keys.update(e.get("if") or ())
        for ch in characters:
            for e in (ch.zcont.get("trait") or {}).get("hand_limit", ()):
                lim_keys.update(e.get("if") or ())
        lz = set(groups.get("hand_limit", ()))
        if "count" in lim_keys or "any" in lz:
            lz.update(("hand", "list", "lumen_zone", "break_zone", "side_deck", "ultimate", "battle"))
        lz.discard("any")
        self.limit_zones = tuple(sorted(lz)) if lim_keys <= _LIMIT_SAFE else None
        self.limit_reads = frozenset(("tokens",) * ("tokens" in lim_keys)
                                     + ("health",) * any(k.endswith(("health_min", "health_max")) for k in lim_keys)
                                     + ("fp",) * any(k.endswith(("fp_min", "fp_max")) for k in lim_keys)
                                     + ("priority",) * any(k in ("priority", "turn_min", "turn_max") for k in lim_keys))
        self.uses = any(card.use_if for card in cards.values())     # some skill has a use condition (guide 3.10)
        self.forbids = "forbid" in groups or any("forbid" in (ch.zcont.get("trait") or {}) for ch in characters)
        self.stamp_more = self.stamp_hp or self.stamp_fp or self.stamp_out or self.stamp_dmg or self.stamp_tokens \
            or self.stamp_cards
        self.busy = frozenset(busy)
        self.battle = {t: frozenset(v) for t, v in battle.items()}
        self.groups = {g: frozenset(v) for g, v in groups.items()}
        self.limits = limits
        self.public = "hand" in self.timed or "list" in self.timed   # triggers from the hand or the list
        self.public_timings = frozenset(t for z in ("hand", "list") for t in self.timed.get(z, ()))   # at which


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


def continuous_sources(st, q, group):
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
            # a card being used acts from the battle while it is there (broken from the battle zone,
            # its battle functions stop, issue 23); a probed hand card (hand_speeds) acts as if used
            if cid is not None and (cid in pl.battle_zone or cur.get("probe")):
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
    if ctx is None or before == (pa.limit_delta, pb.limit_delta) or running_effect(st.fx):
        return
    for q in order(st):
        pl = st.players[q]
        if len(pl.hand) > pl.hand_limit:
            ctx.task({"t": "hand_limit", "p": q})


def running_effect(w):
    """Is an effect resolving in window ``w`` or one it is nested in (an interrupt's, issue 23)?"""
    while w is not None:
        if w["cur"] is not None:
            return True
        w = w.get("outer")
    return False


def target_seat(owner, e):
    return owner if target_of(e) == "self" else other(owner)


def is_nullified(st, p):
    bt = st.battle
    return bt.fx is not None and bt.fx["cur"][p]["null"] == "card"


def nullified_effects(st, p, src):
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


def forbidden(st, p, action, fold=False, card=None):
    """Is ``action`` forbidden to p (guide 5.6.3 item 1)? See ``prohibition``."""
    return prohibition(st, p, action, fold, card) is not None


def prohibition(st, p, action, fold=False, card=None):
    """The source of a prohibition on p's ``action`` (a lasting one, or a continuous function),
    or None. Card text and the game's own actions ask the same question (issue 23): FP from a
    judgment result or a catch hit, the get-phase take, a break the rules make. ``card``: the
    card a ``ready`` prohibition is about (its ``cards`` filter). ``fold``: asked while a card's
    values are being worked out (engine/play/livefx.py): conditions read the card's speed as it was
    last worked out, not again."""
    if not st.fxon:
        return None
    for x in st.lasting:
        e = x["e"]
        if e["do"] == "forbid" and x["tgt"] == p and e["action"] == action and _about(e, card):
            return x["src"]
    ix = st.fxix
    if ix is None:
        ix = fx_index(st)
    if not ix.forbids:
        return None          # no card or trait of this game has a prohibition function
    for q in ("a", "b"):
        for owner, src, e in continuous_sources(st, q, "forbid"):
            if e["action"] == action and target_seat(owner, e) == p and _about(e, card):
                if "if" not in e or cond_ok(st, owner, e["if"], src, fold=fold):
                    return src
    return None


def ready_bans(st, p):
    """The ``cards`` filters of the prohibitions on p's ready now (None: every card), guide 5.6.3."""
    out = []
    for x in st.lasting:
        e = x["e"]
        if e["do"] == "forbid" and x["tgt"] == p and e["action"] == "ready":
            out.append(e.get("cards"))
    ix = st.fxix
    if ix is None:
        ix = fx_index(st)
    if ix.forbids:
        for q in ("a", "b"):
            for owner, src, e in continuous_sources(st, q, "forbid"):
                if e["action"] == "ready" and target_seat(owner, e) == p and ("if" not in e or cond_ok(st, owner, e["if"], src)):
                    out.append(e.get("cards"))
    return out


def _about(e, card):
    """Does a prohibition with a ``cards`` filter (``forbid action: ready``) cover ``card``?"""
    want = e.get("cards")
    if want is None or card is None:
        return True
    return card_matches(card, want)


def may_forbid(st):
    """Could anything forbid anything now? (A lasting effect, or a prohibition function in the game.)"""
    if st.lasting:
        return True
    ix = st.fxix
    return (ix if ix is not None else fx_index(st)).forbids


def allowed(st, ctx, p, action, card=None):
    """The one check before the game does ``action`` for p (guide 5.6.3 item 1 "“할 수 없다”처럼
    행동을 불가능하게 하는 부정형을 우선합니다"): True if nothing forbids it, else the prohibition is
    reported (``prohibited``, naming its source) and False."""
    if not st.fxon or not may_forbid(st):
        return True
    src = prohibition(st, p, action, card=card)
    if src is None:
        return True
    ctx.emit(ev("prohibited", "guide 5.6.3", p=p, action=action, by=src))
    return False


def trait_limit_delta(st, p):
    """The hand-limit change p gets from the two traits alone (a new game setup keeps only these)."""
    if not st.fxon:
        return 0
    delta = 0
    for q in ("a", "b"):
        ch = st.players[q].character
        for _i, e, _z in ch.cont:
            if e["do"] == "hand_limit" and target_seat(q, e) == p and ("if" not in e or cond_ok(st, q, e["if"], ch.trait_id)):
                delta += e["amount"]
    return delta


_LIMIT_SAFE = frozenset(("tokens", "health_min", "health_max", "opponent_health_min", "opponent_health_max", "fp_min",
                         "fp_max", "opponent_fp_min", "opponent_fp_max", "priority", "turn_min", "turn_max", "count"))


def _limit_key(st, ix):
    """Everything the hand-limit changes are worked out from (the zones the functions act from, what
    their conditions read, the lasting effects), or None when the game's functions read more than
    this can say (then refresh always works them out)."""
    zones = ix.limit_zones
    if zones is None:
        return None
    pa, pb = st.players["a"], st.players["b"]
    key = (len(st.lasting),)
    reads = ix.limit_reads
    if reads:
        if "tokens" in reads:
            key += (tuple(pa.tokens.values()), tuple(pb.tokens.values()))
        if "health" in reads:
            key += (pa.health, pb.health)
        if "fp" in reads:
            key += (pa.fp, pb.fp)
        if "priority" in reads:
            key += (st.priority, st.turn)
    for z in zones:
        if z == "ultimate":
            key += (pa.ultimate, pb.ultimate)
        elif z == "battle":
            bt = st.battle
            cur = bt.fx["cur"] if bt is not None and bt.fx is not None else {}
            key += tuple((r or {}).get("id") for r in cur.values()) + (len(pa.battle_zone), len(pb.battle_zone))
        else:
            key += (tuple(getattr(pa, z)), tuple(getattr(pb, z)))
    return key


def refresh(st):
    """Recompute each player's hand-limit change from continuous functions and durations. Nothing is
    worked out again when nothing it is worked out from changed (``st.limkey``, derived data kept
    beside the state, never in its JSON)."""
    if not st.fxon:
        return
    ix = st.fxix
    if ix is None:
        ix = fx_index(st)
    key = _limit_key(st, ix)
    if key is not None and key == st.limkey:
        return
    st.limkey = key
    delta = {"a": 0, "b": 0}
    for q in ("a", "b"):
        for owner, src, e in continuous_sources(st, q, "hand_limit"):
            if "if" not in e or cond_ok(st, owner, e["if"], src):
                delta[target_seat(owner, e)] += e["amount"]
    for x in st.lasting:
        if x["e"]["do"] == "hand_limit":
            delta[x["tgt"]] += x["e"]["amount"]
    st.players["a"].limit_delta = delta["a"]
    st.players["b"].limit_delta = delta["b"]
