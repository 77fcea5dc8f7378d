"""Swiss pairings and the single-elimination top cut.

Swiss (as MTG and most card-game events run it): players meet others on the
same match points where possible, never the same opponent twice, and with an
odd count one player gets a bye (a match win); nobody gets a second bye, and
the bye goes to the lowest-ranked player who can take it.

The pairing of a round is a maximum-weight perfect matching (networkx, the
blossom algorithm) on the graph of allowed pairs: an edge between every two
players who have not met, weighted so that equal points weigh most and every
point of difference costs more than any tie-break. Ties inside a score group
are broken by a seeded jitter, so the same event, round and seed always give
the same pairings, while different seeds shuffle who meets whom inside a group.

Pure: no I/O, no clock; everything comes in as arguments.
"""

import hashlib

import networkx as nx

BYE = None   # the "opponent" of a player with the bye

# Weights are integers so the matching is exact. A point of difference costs
# _DIFF per point squared; the jitter is always below _DIFF, so no tie-break
# can ever prefer a cross-group pair over an in-group one.
_BASE = 10 ** 9
_DIFF = 10 ** 4


class PairingError(ValueError):
    """The round cannot be paired under the rules (names what is wrong)."""


def _jitter(seed, round_no, a, b):
    """A stable pseudo-random tie-break in [0, _DIFF) for the pair {a, b}."""
    lo, hi = sorted((str(a), str(b)))
    h = hashlib.sha256(("%s|%s|%s|%s" % (seed, round_no, lo, hi)).encode()).digest()
    return int.from_bytes(h[:8], "big") % (_DIFF // 2)


# Above this many players a round is first matched on a sparse graph: each player may meet
# only the WINDOW players ranked nearest below them (the full graph is the fallback when
# that has no perfect matching). 1,000 players are ~500,000 edges in full, ~24,000 so.
SPARSE_ABOVE = 200
WINDOW = 24


def _pair_graph(players, points, played, seed, round_no, window=None):
    g = nx.Graph()
    g.add_nodes_from(players)
    for i, a in enumerate(players):
        for b in players[i + 1:i + 1 + window] if window else players[i + 1:]:
            if frozenset((a, b)) in played:
                continue
            d = points.get(a, 0) - points.get(b, 0)
            g.add_edge(a, b, weight=_BASE - _DIFF * d * d + _jitter(seed, round_no, a, b))
    return g


def _perfect(players, points, played, seed, round_no):
    """The best perfect matching of ``players`` (in ranking order) without rematches, or None."""
    if not players:
        return []
    if not played and len({points.get(p, 0) for p in players}) == 1:
        # nobody has met and all are level (round 1): every pairing weighs the same but for the
        # seeded jitter, so pair them in the seeded ranking order without a matching
        return [(players[i], players[i + 1]) for i in range(0, len(players), 2)]
    m = None
    if len(players) > SPARSE_ABOVE:
        m = nx.max_weight_matching(_pair_graph(players, points, played, seed, round_no, WINDOW),
                                   maxcardinality=True, weight="weight")
        if 2 * len(m) != len(players):
            m = None
    if m is None:
        m = nx.max_weight_matching(_pair_graph(players, points, played, seed, round_no),
                                   maxcardinality=True, weight="weight")
    if 2 * len(m) != len(players):
        return None
    order = {p: i for i, p in enumerate(players)}
    return sorted((tuple(sorted(e, key=order.__getitem__)) for e in m), key=lambda e: order[e[0]])


def swiss(ranking, points, played=(), had_bye=(), seed=0, round_no=1):
    """Pair one Swiss round.

    ``ranking``: the active players (not dropped), best first (the current
    standings; for round 1 any seeded order). ``points``: match points per
    player. ``played``: pairs that already met (any iterable of 2-tuples).
    ``had_bye``: players who already had a bye. Returns ``(pairs, bye)`` with
    pairs as ``(a, b)`` tuples, the better-ranked player first, best pairs first.
    """
    players = list(ranking)
    if len(set(players)) != len(players):
        raise PairingError("a player is listed twice in the ranking")
    if len(players) < 2:
        raise PairingError("a round needs at least 2 active players, there are %d" % len(players))
    met = {frozenset(p) for p in played}
    bye = BYE
    if len(players) % 2:
        # lowest-ranked first: the first who can sit out with the rest still pairable
        no_bye = set(had_bye)
        for cand in reversed(players):
            if cand in no_bye:
                continue
            rest = [p for p in players if p != cand]
            pairs = _perfect(rest, points, met, seed, round_no)
            if pairs is not None:
                bye = cand
                break
        else:
            raise PairingError("no bye is possible: every player who could sit out has had a bye already, "
                               "or the others cannot all be paired without a rematch")
    else:
        pairs = _perfect(players, points, met, seed, round_no)
        if pairs is None:
            raise PairingError("the %d active players cannot all be paired without a rematch "
                               "(too many rounds for this many players: end the Swiss part or cut to top N)"
                               % len(players))
    rank = {p: i for i, p in enumerate(players)}
    pairs = sorted(pairs, key=lambda e: min(rank[e[0]], rank[e[1]]))
    return pairs, bye


def assign_tables(pairs, first_table=1, fixed=None):
    """Number the tables: the best pair at ``first_table`` and so on. ``fixed`` maps a
    player to a table they must sit at (a wheelchair place, say); their pair takes
    that table and the others fill the remaining numbers in order."""
    fixed = dict(fixed or {})
    out = {}
    rest = []
    for a, b in pairs:
        t = fixed.get(a) or fixed.get(b)
        if t is not None and t not in out:
            out[t] = (a, b)
        else:
            rest.append((a, b))
    n = first_table
    for pair in rest:
        while n in out:
            n += 1
        out[n] = pair
        n += 1
    return [{"table": t, "a": out[t][0], "b": out[t][1]} for t in sorted(out)]


def cut_order(size):
    """Seeds of the first cut round, in bracket order: 8 -> 1v8, 4v5, 2v7, 3v6, so the
    top two seeds can only meet in the final."""
    if size not in (2, 4, 8, 16):
        raise PairingError("a top cut is 2, 4, 8 or 16 players, not %r" % (size,))
    order = [1]
    while len(order) < size:
        n = 2 * len(order) + 1
        order = [s for x in order for s in (x, n - x)]
    return [(order[i], order[i + 1]) for i in range(0, size, 2)]


def top_cut(ranking, size):
    """The first round of a single-elimination top cut: the top ``size`` of the final
    Swiss standings, 1 against ``size``, and so on (bracket order)."""
    if len(ranking) < size:
        raise PairingError("a top %d cut needs %d players, only %d are left" % (size, size, len(ranking)))
    return [(ranking[a - 1], ranking[b - 1]) for a, b in cut_order(size)]


def next_cut_round(previous_winners):
    """The next elimination round from the winners of the previous one, in bracket
    order (winner of match 1 meets the winner of match 2, ...)."""
    w = list(previous_winners)
    if len(w) < 2 or len(w) % 2:
        raise PairingError("an elimination round needs an even number of winners, got %d" % len(w))
    if any(p is None for p in w):
        raise PairingError("every elimination match needs a winner (a draw is replayed)")
    return [(w[i], w[i + 1]) for i in range(0, len(w), 2)]
