"""Today's pairer before issue 26, kept as the reference the new one is checked against
(tests/tournament/test_pairing_speed.py): a maximum-weight perfect matching (networkx, the
blossom algorithm) on the graph of allowed pairs, each pair weighted by its squared point
difference and a seeded jitter. Not used by the hub."""

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
