"""What the search player counts at its leaves, and how it plays where it does not search.

``value(st)`` is seat a's chance of winning from ``st`` in [0, 1] (seat b's is 1 - it; a
draw counts 1/2): a logistic model over a dozen public features of the position (health,
FP, what each hand can do, the list and side deck left to draw on, priority, non-responses).
Its weights were fitted by logistic regression on positions from seeded bot games labelled
with who went on to win (``python3 bench/bot.py fit-eval``, which prints the table below).

``card_value`` rates a card for the get phase, discards, replenishes and the setup;
``default_answer`` is the fast policy the search plays below its tree (a greedy player
that never times out, never reads anything hidden); ``setup_answer`` builds the opening
hand and list (guide 3.4.1) from card values, keeping both kinds and every position covered.
Everything here reads only what a seat may see (no opponent side deck, no readied card).
"""

import math

from engine.bots.simple import most_damage

# feature name -> weight; fitted by ``python3 bench/bot.py fit-eval`` (see its output and
# docs/performance.md "Search player"): seeded games of the sample and entered decks. Health
# is read as each player's fraction of their own character's starting health (guide 3.4:
# characters start at 4,500..5,500, so raw health favoured the bigger one: Serin 4,800 against
# Gangcheol 5,500 started at 0.43 for Serin from the characters alone), as ruling R-time does.
WEIGHTS = {
    "bias": 0.0,          # positions are fitted from both seats: no seat is favoured
    "health": 2.7729,     # health a / start a - health b / start b
    "fp": 0.0521,         # FP a - FP b
    "hand": 0.4551,       # cards a can ready - cards b can ready
    "attack": -0.5933,    # hand attack damage of a / start health of b, minus the same for b
    "cover": -0.0586,     # positions covered by the defenses in hand, a - b
    "list": 0.3377,       # list a - list b
    "side": 0.0061,       # side deck a - side deck b
    "priority": 0.1083,   # +1 if a holds priority, -1 if b
    "nonresp": -0.0851,   # non-responses a - b
    "ultimate": 0.0686,   # ultimate still in its zone, a - b
    "low": 0.0527,        # 0.2 / fraction b - 0.2 / fraction a: near 0 health counts more
}

FEATURES = tuple(WEIGHTS)


def _hand_features(st, p):
    cards = st.cards
    n = dmg = 0
    cover = set()
    for cid in st.players[p].hand:
        c = cards[cid]
        if c.kind == "special":
            continue
        n += 1
        if c.kind == "attack":
            dmg += c.damage
        else:
            for cond in (c.guard, c.evade, c.offset):
                if cond is not None:
                    cover |= cond.positions
    return n, dmg, len(cover)


def fraction(pl):
    """A player's health as a fraction of their character's starting health (at least 1 health
    counted, so that ``1 / fraction`` stays finite)."""
    return max(pl.health, 1) / pl.character.start_health


def features(st):
    """The public features of ``st`` as a dict (a minus b where it is a difference)."""
    pa, pb = st.players["a"], st.players["b"]
    na, da, ca = _hand_features(st, "a")
    nb, db, cb = _hand_features(st, "b")
    fa, fb = fraction(pa), fraction(pb)
    return {
        "bias": 1.0,
        "health": fa - fb,
        "fp": float(pa.fp - pb.fp),
        "hand": float(na - nb),
        "attack": da / pb.character.start_health - db / pa.character.start_health,
        "cover": float(ca - cb),
        "list": float(len(pa.list) - len(pb.list)),
        "side": float(len(pa.side_deck) - len(pb.side_deck)),
        "priority": 1.0 if st.priority == "a" else -1.0,
        "nonresp": float(pa.non_responses - pb.non_responses),
        "ultimate": float((pa.ultimate is not None) - (pb.ultimate is not None)),
        "low": 0.2 / fb - 0.2 / fa,
    }


def value(st, weights=WEIGHTS):
    """Seat a's chance of winning from ``st``: 1 / 0 / 0.5 once the game is over."""
    w = st.winner
    if w is not None:
        return 1.0 if w == "a" else 0.0 if w == "b" else 0.5
    f = features(st)
    z = 0.0
    for k, x in f.items():
        z += weights[k] * x
    if z > 30:
        return 1.0
    if z < -30:
        return 0.0
    return 1.0 / (1.0 + math.exp(-z))


# ---------------------------------------------------------------- card values

def card_value(st, cid):
    """How much a card is worth having in hand (for get, discard, replenish, setup)."""
    if cid is None:
        return 0.0
    c = st.cards[cid]
    if c.kind == "attack":
        v = c.damage / 100.0 + max(0, 12 - (c.speed or 10)) * 0.6
        for key in ("hit", "counter"):
            r = c.results.get(key)
            if r and r[1]:
                v += 1.0
        if c.grab:
            v += 1.0
        for cond in (c.evade, c.offset):
            if cond is not None:
                v += 0.8 * len(cond.positions)
        return v
    if c.kind == "defense":
        v = 2.0
        for cond, w in ((c.guard, 1.6), (c.evade, 1.8), (c.offset, 1.4)):
            if cond is not None:
                v += w * len(cond.positions)
        return v
    return 1.5      # a special: used from its zone by its own text


def default_answer(st, req, rnd):
    """The policy below the search tree: greedy, quick, never a timeout. (kind, value)."""
    kind = req["kind"]
    opts = req["options"]
    p = req["player"]
    cards = st.cards
    if kind == "ready":
        return "ready", rnd.choice(opts)
    if kind in ("combo", "catch"):
        real = [o for o in opts if o not in ("end", "pass")]
        return kind, most_damage(cards, real) if real else opts[-1]
    if kind == "get":
        real = [o for o in opts if o != "skip"]
        if not real:
            return kind, "skip"
        pl = st.players[p]
        best = max(real, key=lambda o: (card_value(st, pl.ultimate if o == "ultimate" else o), str(o)))
        if "skip" in opts and len(pl.hand) >= pl.hand_limit:
            worst = min(card_value(st, c) for c in pl.hand) if pl.hand else 0.0
            if card_value(st, pl.ultimate if best == "ultimate" else best) <= worst:
                return kind, "skip"
        return kind, best
    if kind == "discard":
        hand = sorted(st.players[p].hand, key=lambda c: (card_value(st, c), c))
        return kind, hand[:req["count"]]
    if kind == "replenish":
        real = [o for o in opts if o != "pass"]
        return kind, max(real, key=lambda c: (card_value(st, c), c)) if real else "pass"
    if kind == "pick":
        # the opponent's card treated as readied: the one worth least to them
        return kind, min(opts, key=lambda c: (card_value(st, c), c))
    if kind == "nullify":
        return kind, opts[0]
    if kind == "setup":
        return "setup", setup_answer(st, req)
    return kind, opts[0]


def setup_answer(st, req):
    """Opening hand and list (guide 3.4.1) from card values: the hand gets the best attacks
    and at least one defense, the list the next best, the side deck what is left (its cards
    come back only by replenishing, guide 3.9.1)."""
    pool = list(req["options"])
    sizes = req["sizes"]
    hand_n, list_n = sizes["hand"], sizes["list"]
    ranked = sorted(range(len(pool)), key=lambda i: (-card_value(st, pool[i]), pool[i], i))
    cards = st.cards
    attacks = [i for i in ranked if cards[pool[i]].kind == "attack"]
    defenses = [i for i in ranked if cards[pool[i]].kind == "defense"]
    hand = []
    want_def = min(len(defenses), max(1, hand_n // 3)) if hand_n >= 2 else 0
    hand.extend(defenses[:want_def])
    for i in attacks:
        if len(hand) >= hand_n:
            break
        hand.append(i)
    for i in ranked:
        if len(hand) >= hand_n:
            break
        if i not in hand:
            hand.append(i)
    rest = [i for i in ranked if i not in hand]
    lst = rest[:list_n]
    return {"hand": [pool[i] for i in hand], "list": [pool[i] for i in lst]}
