"""A scenario's start position is checked before anything runs (brief 4.2, issue 10).

A position no real game can reach is an error naming the key, not a run that
proves nothing:

- one player holds the same card id twice among their zones (a deck holds one card
  per name, guide 4.5.1, unless the trait's ``deck_rule`` allows more; the two
  players may share an id);
- a hand over its hand limit (guide 3.3.1: the excess is discarded at once), a list
  over the list size (14, guide 3.2);
- a special skill in the hand or the list (guide 3.3.3);
- ``start: setup`` (guide 3.4.1): the player gives ``deck:`` (skill cards) and
  ``ultimate:``, and no card in any zone; the deck needs 14 non-special skills.
"""

from engine.core.errors import ScenarioError
from engine.core.yamlio import LineDict

ZONE_KEYS = ("hand", "list", "side_deck", "break_zone", "lumen_zone")
SETUP_MIN = 14   # guide 3.4.1 NOTE: 5 + 9 non-special skills


def _err(file, obj, key, msg):
    line = obj.line_of(key) if isinstance(obj, LineDict) else None
    where = "%s:%d: " % (file, line) if line else ("%s: " % file if file else "")
    return ScenarioError(where + msg)


def _same_name_max(character):
    return (getattr(character, "deck_rules", None) or {}).get("same_name_max", 1)


def check_zones(file, pd, p, cards, character):
    """Card ids known, no special in hand or list, no card more often than a deck may hold it."""
    where = {}
    for key in ZONE_KEYS:
        for cid in pd.get(key) or []:
            if cid not in cards:
                raise _err(file, pd, key, "players.%s.%s: unknown card %r (define it under cards:)" % (p, key, cid))
            if key in ("hand", "list") and cards[cid].kind == "special":
                raise _err(file, pd, key, "players.%s.%s: %r is a special skill; specials can only be in the side "
                                          "deck, lumen zone, ultimate zone or break zone (guide 3.3.3)" % (p, key, cid))
            where.setdefault(cid, []).append(key)
    ult = pd.get("ultimate")
    if ult is not None:
        where.setdefault(ult, []).append("ultimate")
    _check_counts(file, pd, p, where, character)


def _check_counts(file, pd, p, where, character):
    most = _same_name_max(character)
    for cid, keys in where.items():
        if len(keys) > most:
            key = keys[-1]
            raise _err(file, pd, key if key in pd else None,
                       "players.%s: card %r is there %d times (%s); a deck holds %s card%s of one name "
                       "(guide 4.5.1%s); the two players may share an id"
                       % (p, cid, len(keys), ", ".join("players.%s.%s" % (p, k) for k in keys),
                          "one" if most == 1 else "at most %d" % most, "" if most == 1 else "s",
                          "" if most == 1 else ", the trait's deck_rule"))


def check_sizes(file, data, st):
    """After the hand limits are known (trait functions, guide 3.3.2): hand and list sizes."""
    for p in ("a", "b"):
        pd = data["players"][p]
        pl = st.players[p]
        if len(pl.hand) > pl.hand_limit:
            raise _err(file, pd, "hand", "players.%s.hand: %d cards, over the hand limit %d at health %d; the excess "
                                         "would already have been discarded (guide 3.3.1)"
                       % (p, len(pl.hand), pl.hand_limit, pl.health))
        if len(pl.list) > st.rules.list_max:
            raise _err(file, pd, "list", "players.%s.list: %d cards, over the list size %d (guide 3.2)"
                       % (p, len(pl.list), st.rules.list_max))


def setup_deck(file, pd, p, cards, character):
    """``start: setup``: the player's deck ``{"cards": [...], "ultimate": id or None}`` (guide 3.4.1)."""
    for key in ZONE_KEYS:
        if pd.get(key):
            raise _err(file, pd, key, "players.%s.%s: with start: setup every card is in players.%s.deck; the setup "
                                      "puts them in hand, list and side deck (guide 3.4.1)" % (p, key, p))
    ids = pd.get("deck")
    if not isinstance(ids, list) or not all(isinstance(c, str) for c in ids):
        raise _err(file, pd, "deck" if "deck" in pd else None,
                   "players.%s.deck must be a list of card ids (start: setup, guide 3.4.1)" % p)
    for cid in ids:
        if cid not in cards:
            raise _err(file, pd, "deck", "players.%s.deck: unknown card %r (define it under cards:)" % (p, cid))
    for cid in ids:
        if cards[cid].ultimate:
            raise _err(file, pd, "deck", "players.%s.deck: %r is an ultimate card (ultimate: true); it starts face up "
                                         "in the ultimate zone: give it as players.%s.ultimate (guide 3.3.4)" % (p, cid, p))
    ult = pd.get("ultimate")
    if ult is not None and ult in ids:
        raise _err(file, pd, "ultimate", "players.%s.ultimate: %r is also in players.%s.deck; the ultimate is chosen "
                                         "apart and put face up (guide 3.3.4)" % (p, ult, p))
    where = {}
    for cid in ids:
        where.setdefault(cid, []).append("deck")
    if ult is not None:
        where.setdefault(ult, []).append("ultimate")
    _check_counts(file, pd, p, where, character)
    pool = [cid for cid in ids if cards[cid].kind != "special"]
    if len(pool) < SETUP_MIN:
        raise _err(file, pd, "deck", "players.%s.deck has %d non-special skill cards; the setup needs %d (5 in hand, "
                                     "9 in the list, guide 3.4.1 NOTE)" % (p, len(pool), SETUP_MIN))
    return {"cards": list(ids), "ultimate": ult}

