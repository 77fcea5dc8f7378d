"""Swiss pairings and the single-elimination top cut.

Swiss (as MTG and most card-game events run it): players meet others on the
same match points where possible, never the same opponent twice, and with an
odd count one player gets a bye (a match win); nobody gets a second bye, and
the bye goes to the lowest-ranked player who can take it.

A round's quality is first its floats: the sum over pairs of the squared point
difference, which no pairing can bring below one float across each boundary
between score groups with an odd number of players above it (the *bound*). It
is paired score group by score group, top down (``_by_groups``): inside a group
players meet in a seeded shuffle (the same event, round and seed always give the
same pairings; another seed shuffles who meets whom), an odd group sends its
lowest-ranked player who can go down to the next group, and a rematch is
avoided by a small exact matching of the group's last players. That reaches the
bound, so it is the best pairing there is, in time linear in the players. When
rematches make the bound unreachable (late rounds of a small event), the round
is an exact maximum-weight perfect matching (rustworkx's blossom algorithm) on
the graph of allowed pairs, weighted so that the floats' squared differences
decide first, then the number of floats, and the seeded tie-break only among equals.

Pure: no I/O, no clock; everything comes in as arguments.
"""

import hashlib

BYE = None   # the "opponent" of a player with the bye

#: the seeded tie-break of the exact matching is below _JITTER per pair; a point of
#: difference squared costs more than every pair's tie-break together
_JITTER = 1000


class PairingError(ValueError):
    """The round cannot be paired under the rules (names what is wrong)."""


def _jitter(seed, round_no, a, b):
    """A stable pseudo-random tie-break for the pair {a, b} (also the seeded order of round 1)."""
    lo, hi = sorted((str(a), str(b)))
    h = hashlib.sha256(("%s|%s|%s|%s" % (seed, round_no, lo, hi)).encode()).digest()
    return int.from_bytes(h[:8], "big") % 5000


def _draw(seed, round_no, p):
    """A player's seeded place in the shuffle of their score group."""
    return hashlib.sha256(("%s|%s|%s" % (seed, round_no, p)).encode()).digest()[:8]


def bound(players, points):
    """The least sum of squared point differences any pairing of ``players`` can have: one
    pair across each boundary between score groups with an odd number of players above it."""
    total, above, last = 0, 0, None
    for score in sorted({points.get(p, 0) for p in players}, reverse=True):
        if last is not None and above % 2:
            total += (last - score) ** 2
        above += sum(1 for p in players if points.get(p, 0) == score)
        last = score
    return total


def penalty(pairs, points):
    return sum((points.get(a, 0) - points.get(b, 0)) ** 2 for a, b in pairs)


# Above this many players the exact matching is first tried on a sparse graph: each player
# may meet only the WINDOW players ranked nearest below them (the full graph is the fallback).
SPARSE_ABOVE = 200
WINDOW = 24
#: a group's rematch is mended by an exact matching of its last players: at most this many
EXACT_TAIL = 256


def _pair_group(members, played):
    """Pair ``members`` (their shuffled order) with no rematch: each takes the next one it has
    not met; what is left over is mended by an exact matching of a growing tail. None if
    no way is found within EXACT_TAIL players."""
    pairs = []
    left = list(members)
    while len(left) >= 2:
        a = left[0]
        for j in range(1, len(left)):
            if frozenset((a, left[j])) not in played:
                pairs.append((a, left[j]))
                del left[j]
                del left[0]
                break
        else:
            break
    if not left:
        return pairs
    # a player nobody left can meet: re-pair the last players of the group exactly
    tail = len(left)
    while True:
        tail = min(len(members), max(2 * tail, 8))
        keep = len(pairs) - (tail - len(left)) // 2
        if keep < 0:
            keep = 0
        rest = [p for pr in pairs[keep:] for p in pr] + left
        fixed = _exact(rest, {}, played, None, 0, weighted=False)
        if fixed is not None:
            return pairs[:keep] + fixed
        if len(rest) >= len(members) or len(rest) > EXACT_TAIL:
            return None


def _by_groups(players, points, played, seed, round_no):
    """The pairing of ``players`` score group by score group that reaches the bound, or None."""
    groups = {}
    for p in players:
        groups.setdefault(points.get(p, 0), []).append(p)
    rank = {p: i for i, p in enumerate(players)}
    pairs = []
    floater = None
    for score in sorted(groups, reverse=True):
        members = sorted(groups[score], key=lambda p: _draw(seed, round_no, p))
        if floater is not None:
            # the player from the group above meets the first in this group's shuffle it has not met
            mate = next((m for m in members if frozenset((floater, m)) not in played), None)
            if mate is None:
                return None
            pairs.append((floater, mate))
            members.remove(mate)
            floater = None
        if len(members) % 2:
            # the lowest-ranked player who can go down goes down, the rest pair here
            for cand in sorted(members, key=rank.__getitem__, reverse=True)[:8]:
                got = _pair_group([m for m in members if m != cand], played)
                if got is not None:
                    pairs += got
                    floater = cand
                    break
            else:
                return None
        else:
            got = _pair_group(members, played)
            if got is None:
                return None
            pairs += got
    if floater is not None:
        return None
    return pairs


def _exact(players, points, played, seed, round_no, window=None, weighted=True):
    """The best perfect matching of ``players`` without rematches (rustworkx's blossom), or
    None. Weighted: the squared point differences decide, then the seeded tie-break."""
    n = len(players)
    if n == 0:
        return []
    if weighted:
        # three keys in one weight, each outweighing all of the next: the squared point
        # differences, then the number of floats (of two pairings with the same squared
        # differences, the one with fewer players paired out of their group), then the seeded
        # tie-break
        top = max(points.get(p, 0) for p in players) - min(points.get(p, 0) for p in players)
        one_float = _JITTER * (n // 2 + 1)
        diff = one_float * (n // 2 + 1)
        base = diff * (top * top + 1)
    import rustworkx as rx          # only when rematches bind (it brings numpy: not at every start)
    g = rx.PyGraph()
    g.add_nodes_from(players)
    edges = []
    for i, a in enumerate(players):
        for j in range(i + 1, min(n, i + 1 + window) if window else n):
            b = players[j]
            if frozenset((a, b)) in played:
                continue
            if weighted:
                d = points.get(a, 0) - points.get(b, 0)
                edges.append((i, j, base - diff * d * d - (one_float if d else 0)
                              + _jitter(seed, round_no, a, b) % _JITTER))
            else:
                edges.append((i, j, 1))
    g.add_edges_from(edges)
    m = rx.max_weight_matching(g, max_cardinality=True, weight_fn=int)
    if 2 * len(m) != n:
        return None
    return [(players[min(i, j)], players[max(i, j)]) for i, j in m]


def _perfect(players, points, played, seed, round_no):
    """The best perfect matching of ``players`` (in ranking order) without rematches, or None."""
    if not players:
        return []
    if not played and len({points.get(p, 0) for p in players}) == 1:
        # nobody has met and all are level (round 1): every pairing weighs the same but for the
        # seeded jitter, so pair them in the seeded ranking order without a matching
        return [(players[i], players[i + 1]) for i in range(0, len(players), 2)]
    m = _by_groups(players, points, played, seed, round_no)
    if m is None and len(players) > SPARSE_ABOVE:
        m = _exact(players, points, played, seed, round_no, WINDOW)
    if m is None:
        m = _exact(players, points, played, seed, round_no)
    if m is None:
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
