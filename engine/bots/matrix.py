"""Zero-sum matrix games, the search's and the coach's: regret matching (RM+ with linear
averaging, Tammelin 2014) for the mixes at a ready node, and what a mix is worth against a
best reply. Values are seat a's (rows maximize, columns minimize). Pure arithmetic on lists:
no engine, no randomness but the ``rnd`` a caller passes to ``draw``."""


def rm_strategy(regrets):
    s = 0.0
    for r in regrets:
        s += r
    n = len(regrets)
    if s <= 0.0:
        return [1.0 / n] * n
    return [r / s for r in regrets]


def rm_step(q, ra, rb, sa_sum, sb_sum, weight):
    """One RM+ update of both seats on value matrix ``q`` (a's values); accumulates the
    linearly weighted average strategies."""
    sa = rm_strategy(ra)
    sb = rm_strategy(rb)
    n, m = len(sa), len(sb)
    ua = [0.0] * n
    ub = [0.0] * m
    for i in range(n):
        row = q[i]
        acc = 0.0
        si = sa[i]
        for j in range(m):
            v = row[j]
            acc += v * sb[j]
            ub[j] += si * v
        ua[i] = acc
    va = 0.0
    for i in range(n):
        va += sa[i] * ua[i]
    for i in range(n):
        r = ra[i] + ua[i] - va
        ra[i] = r if r > 0.0 else 0.0
        sa_sum[i] += weight * sa[i]
    # b minimizes a's value
    for j in range(m):
        r = rb[j] + va - ub[j]
        rb[j] = r if r > 0.0 else 0.0
        sb_sum[j] += weight * sb[j]


def solve_matrix(q, iterations=400):
    """An approximate equilibrium of the zero-sum matrix game ``q`` (rows: a maximizes):
    (a's mix, b's mix) by RM+ with linear averaging."""
    n, m = len(q), len(q[0])
    ra, rb = [0.0] * n, [0.0] * m
    sa, sb = [0.0] * n, [0.0] * m
    for t in range(1, iterations + 1):
        rm_step(q, ra, rb, sa, sb, float(t))
    ta, tb = sum(sa), sum(sb)
    return [x / ta for x in sa], [x / tb for x in sb]


def draw(strategy, explore, rnd):
    n = len(strategy)
    x = rnd.random()
    u = explore / n
    acc = 0.0
    for i, s in enumerate(strategy):
        acc += (1.0 - explore) * s + u
        if x < acc:
            return i
    return n - 1


def floor_mix(mix, floor):
    kept = [p if p >= floor else 0.0 for p in mix]
    s = sum(kept)
    if s <= 0:
        return mix
    return [p / s for p in kept]


def row_values(q, mix_b):
    """Each row's value against the columns' mix ``mix_b``."""
    return [sum(v * p for v, p in zip(row, mix_b)) for row in q]


def col_values(q, mix_a):
    """Each column's value (a's) against the rows' mix ``mix_a``."""
    m = len(q[0])
    return [sum(q[i][j] * mix_a[i] for i in range(len(q))) for j in range(m)]


def transpose_for_b(q):
    """The same game seen by seat b: b's options as rows, b's values (1 - a's)."""
    return [[1.0 - q[i][j] for i in range(len(q))] for j in range(len(q[0]))]


def exploitability(q, mix_a, value=None, iterations=4000):
    """What a best reply gains against the rows' ``mix_a``: the game's value (``value``, or RM+'s
    estimate of it) minus the worst column against the mix."""
    if value is None:
        xa, xb = solve_matrix(q, iterations)
        value = sum(p * v for p, v in zip(xa, row_values(q, xb)))
    return value - min(col_values(q, mix_a))

