"""The two simple players: a random legal player (for simulation and invariant tests) and a
greedy one (the demo's; the "easy" level). Seeded through the ``rnd`` they are given."""


def random_answer(st, req, rnd):
    """A uniformly random legal answer to request ``req``: (kind, value)."""
    kind = req["kind"]
    opts = req["options"]
    p = req["player"]
    if kind == "ready":
        if rnd.random() < 0.02:
            return "timeout", True
        return "ready", rnd.choice(opts)
    if kind == "discard":
        hand = st.players[p].hand
        return "discard", rnd.sample(hand, req["count"])
    if kind == "setup":
        pool = list(opts)
        rnd.shuffle(pool)
        h, l = req["sizes"]["hand"], req["sizes"]["list"]
        return "setup", {"hand": pool[:h], "list": pool[h:h + l]}
    return kind, rnd.choice(opts)


def most_damage(cards, options):
    """The combo or catch option (a card id or a list of them) whose cards deal the most damage."""
    def dmg(o):
        ids = o if isinstance(o, list) else [o]
        return sum(cards[c].damage for c in ids)
    return max(options, key=dmg)


def greedy_answer(st, req, rnd):
    """A plausible player: reads the opponent's public hand a little, combos and
    catches when it can, takes the strongest card in the get phase."""
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
        if "ultimate" in real and rnd.random() < 0.3:
            return kind, "ultimate"
        real = [o for o in real if o != "ultimate"] or real
        return kind, max(real, key=lambda c: (cards[c].damage if c in cards else 0, c))
    if kind == "nullify":
        return kind, opts[0]
    if kind == "replenish":
        return kind, opts[0]
    if kind == "discard":
        hand = sorted(st.players[p].hand, key=lambda c: (cards[c].damage, c))
        return kind, hand[:req["count"]]
    return random_answer(st, req, rnd)
