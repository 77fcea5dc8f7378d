"""A two-layer grid router for the pod carrier (pure Python, no pcbnew).

KiCad 6 has no autorouter, and the board is small (some 25 nets, 30 parts),
so this routes it: A* on a 0.3175 mm grid (1/8 of the 2.54 mm pitch) over
both copper layers, 45-degree moves (a bend costs a little more than going straight), a via as a move between layers. Every
move is kept clear of other nets by its real geometry (pads as rectangles
and capsules, tracks as capsules, vias as discs, the board edge), so what it
returns passes KiCad's DRC at the same rules; board.py runs that DRC after.

A net of several pads is routed as a tree: from all it has reached so far
to the nearest pad not yet reached. Nets that fail are moved to the front
and everything is routed again (rip-up by reordering), a few rounds at most.

    r = Router(width=90, height=88, clearance=0.2, edge=0.6)
    r.add_pad(net=3, layers=(0, 1), shape=Rect(x, y, hw, hh, angle))   # 0 = F.Cu, 1 = B.Cu
    r.route({3: 0.3, 4: 0.5})        # net -> track width
    r.tracks, r.vias                 # [(net, layer, (x1, y1), (x2, y2), width)], [(net, (x, y))]
"""

from __future__ import annotations

import heapq
import math
from dataclasses import dataclass

PITCH = 0.3175
TURN = 0.6  # the cost of a bend, in grid steps: fewer jogs for the same length


@dataclass(frozen=True)
class Capsule:
    """A segment with a radius: a track, an oval or round pad, a via."""
    x1: float
    y1: float
    x2: float
    y2: float
    r: float

    def bbox(self):
        return (min(self.x1, self.x2) - self.r, min(self.y1, self.y2) - self.r,
                max(self.x1, self.x2) + self.r, max(self.y1, self.y2) + self.r)

    def dist_point(self, px, py):
        return _pt_seg(px, py, self.x1, self.y1, self.x2, self.y2) - self.r

    def dist_seg(self, ax, ay, bx, by):
        return _seg_seg(ax, ay, bx, by, self.x1, self.y1, self.x2, self.y2) - self.r

    def contains(self, px, py):
        return self.dist_point(px, py) <= 0


@dataclass(frozen=True)
class Rect:
    """A rectangular pad (roundrect taken as its full rectangle), centre, half sizes, angle in degrees."""
    x: float
    y: float
    hw: float
    hh: float
    angle: float = 0.0

    def _local(self, px, py):
        a = math.radians(self.angle)
        c, s = math.cos(a), math.sin(a)
        dx, dy = px - self.x, py - self.y
        return dx * c + dy * s, -dx * s + dy * c

    def corners(self):
        a = math.radians(self.angle)
        c, s = math.cos(a), math.sin(a)
        return [(self.x + lx * c - ly * s, self.y + lx * s + ly * c)
                for lx, ly in ((-self.hw, -self.hh), (self.hw, -self.hh), (self.hw, self.hh), (-self.hw, self.hh))]

    def bbox(self):
        cs = self.corners()
        return (min(p[0] for p in cs), min(p[1] for p in cs), max(p[0] for p in cs), max(p[1] for p in cs))

    def dist_point(self, px, py):
        lx, ly = self._local(px, py)
        dx, dy = abs(lx) - self.hw, abs(ly) - self.hh
        if dx <= 0 and dy <= 0:
            return max(dx, dy)
        return math.hypot(max(dx, 0), max(dy, 0))

    def dist_seg(self, ax, ay, bx, by):
        if self.dist_point(ax, ay) <= 0 or self.dist_point(bx, by) <= 0:
            return 0.0
        cs = self.corners()
        best = min(self.dist_point(ax, ay), self.dist_point(bx, by))
        for i in range(4):
            (cx, cy), (dx, dy) = cs[i], cs[(i + 1) % 4]
            best = min(best, _seg_seg(ax, ay, bx, by, cx, cy, dx, dy))
        return best

    def contains(self, px, py):
        return self.dist_point(px, py) <= 0


def _pt_seg(px, py, ax, ay, bx, by):
    dx, dy = bx - ax, by - ay
    L = dx * dx + dy * dy
    t = 0.0 if L == 0 else max(0.0, min(1.0, ((px - ax) * dx + (py - ay) * dy) / L))
    return math.hypot(px - ax - t * dx, py - ay - t * dy)


def _cross(ax, ay, bx, by, cx, cy):
    return (bx - ax) * (cy - ay) - (by - ay) * (cx - ax)


def _seg_seg(ax, ay, bx, by, cx, cy, dx, dy):
    d1, d2 = _cross(cx, cy, dx, dy, ax, ay), _cross(cx, cy, dx, dy, bx, by)
    d3, d4 = _cross(ax, ay, bx, by, cx, cy), _cross(ax, ay, bx, by, dx, dy)
    if ((d1 > 0) != (d2 > 0)) and ((d3 > 0) != (d4 > 0)) and d1 and d2 and d3 and d4:
        return 0.0
    return min(_pt_seg(ax, ay, cx, cy, dx, dy), _pt_seg(bx, by, cx, cy, dx, dy),
               _pt_seg(cx, cy, ax, ay, bx, by), _pt_seg(dx, dy, ax, ay, bx, by))


@dataclass
class Obstacle:
    net: int  # 0: no net (a hole, the edge): clear of everything
    layer: int
    shape: object
    pad: bool = False  # a via keeps clear of every pad, its own net's too (no via in a pad)


class Router:
    def __init__(self, width: float, height: float, clearance: float = 0.2, edge: float = 0.6,
                 via_diameter: float = 0.8, via_drill: float = 0.4, via_cost: float = 10.0) -> None:
        self.W = int(width / PITCH) + 1
        self.H = int(height / PITCH) + 1
        self.width, self.height = width, height
        self.clr = clearance
        self.edge = edge
        self.via_r = via_diameter / 2
        self.via_drill = via_drill
        self.via_cost = via_cost
        self.obstacles: list[Obstacle] = []
        self.pads: dict[int, list[tuple[tuple[int, ...], object]]] = {}
        self.tracks: list[tuple[int, int, tuple[float, float], tuple[float, float], float]] = []
        self.vias: list[tuple[int, tuple[float, float]]] = []
        self.failed: list[int] = []
        self.holes: list[tuple[float, float, float]] = []  # drilled holes (x, y, radius), any net
        self.hole_clearance = 0.3
        self._bucket: dict[tuple[int, int, int], list[Obstacle]] = {}

    # -- the board ---------------------------------------------------------------------------
    def add_pad(self, net: int, layers: tuple[int, ...], shape, drill: float = 0.0) -> None:
        for L in layers:
            self._add(Obstacle(net, L, shape, pad=True))
        if drill:
            c = shape.bbox()
            self.holes.append(((c[0] + c[2]) / 2, (c[1] + c[3]) / 2, drill / 2))
        if net:
            self.pads.setdefault(net, []).append((layers, shape))

    def add_hole(self, x: float, y: float, r: float) -> None:
        for L in (0, 1):
            self._add(Obstacle(0, L, Capsule(x, y, x, y, r)))
        self.holes.append((x, y, r))

    def _add(self, ob: Obstacle) -> None:
        self.obstacles.append(ob)
        x1, y1, x2, y2 = ob.shape.bbox()
        for bx in range(int(x1 // 2) - 1, int(x2 // 2) + 2):
            for by in range(int(y1 // 2) - 1, int(y2 // 2) + 2):
                self._bucket.setdefault((ob.layer, bx, by), []).append(ob)

    def _near(self, layer, x1, y1, x2, y2, reach):
        seen = set()
        for bx in range(int((min(x1, x2) - reach) // 2), int((max(x1, x2) + reach) // 2) + 1):
            for by in range(int((min(y1, y2) - reach) // 2), int((max(y1, y2) + reach) // 2) + 1):
                for ob in self._bucket.get((layer, bx, by), ()):
                    if id(ob) not in seen:
                        seen.add(id(ob))
                        yield ob

    # -- clearance ---------------------------------------------------------------------------
    def _clear_seg(self, net, layer, ax, ay, bx, by, half) -> bool:
        reach = half + self.clr + 1.0
        for ob in self._near(layer, ax, ay, bx, by, reach):
            if ob.net == net and net:
                continue
            if ob.shape.dist_seg(ax, ay, bx, by) < half + self.clr:
                return False
        m = self.edge + half
        return (m <= ax <= self.width - m and m <= bx <= self.width - m and m <= ay <= self.height - m
                and m <= by <= self.height - m)

    def _clear_via(self, net, x, y) -> bool:
        r = self.via_r
        for L in (0, 1):
            for ob in self._near(L, x, y, x, y, r + self.clr + 1.0):
                if ob.net == net and net and not ob.pad:
                    continue
                if ob.shape.dist_point(x, y) < r + self.clr:
                    return False
        for hx, hy, hr in self.holes:
            if math.hypot(hx - x, hy - y) < hr + self.via_drill / 2 + self.hole_clearance:
                return False
        m = self.edge + r
        return m <= x <= self.width - m and m <= y <= self.height - m

    # -- search ------------------------------------------------------------------------------
    def _xy(self, c):
        return (c % self.W) * PITCH, (c // self.W) * PITCH

    def _terminals(self, net, layers_shape):
        """Grid cells inside a pad's copper, per layer: a track ending there is on the pad."""
        layers, shape = layers_shape
        x1, y1, x2, y2 = shape.bbox()
        out = set()
        for gx in range(int(x1 / PITCH), int(x2 / PITCH) + 2):
            for gy in range(int(y1 / PITCH), int(y2 / PITCH) + 2):
                px, py = gx * PITCH, gy * PITCH
                if 0 <= gx < self.W and 0 <= gy < self.H and shape.dist_point(px, py) <= -0.05:
                    for L in layers:
                        out.add((L, gy * self.W + gx))
        return out

    def _astar(self, net, half, sources, targets, cache):
        W = self.W
        tx = [self._xy(c) for _, c in targets]
        tset = set(targets)

        def h(c):
            x, y = (c % W) * PITCH, (c // W) * PITCH
            return min(max(abs(x - a), abs(y - b)) + 0.414 * min(abs(x - a), abs(y - b)) for a, b in tx) / PITCH

        dist = {}
        prev = {}
        came: dict = {}  # the direction each state was entered by: a turn costs a little (straighter tracks)
        heap = []
        for s in sources:
            dist[s] = 0.0
            heapq.heappush(heap, (h(s[1]), 0.0, s))
        steps = ((1, 0, 1.0), (-1, 0, 1.0), (0, 1, 1.0), (0, -1, 1.0),
                 (1, 1, 1.414), (1, -1, 1.414), (-1, 1, 1.414), (-1, -1, 1.414))
        expanded = 0
        while heap:
            f, g, st = heapq.heappop(heap)
            if g > dist.get(st, 1e18):
                continue
            if st in tset:
                path = [st]
                while path[-1] in prev:
                    path.append(prev[path[-1]])
                return path[::-1]
            expanded += 1
            if expanded > 400_000:
                return None
            L, c = st
            x, y = c % W, c // W
            px, py = x * PITCH, y * PITCH
            din = came.get(st)
            for dx, dy, cost in steps:
                nx, ny = x + dx, y + dy
                if not (0 <= nx < W and 0 <= ny < self.H):
                    continue
                n = ny * W + nx
                k = (L, c, n)
                ok = cache.get(k)
                if ok is None:
                    ok = self._clear_seg(net, L, px, py, nx * PITCH, ny * PITCH, half)
                    cache[k] = ok
                if not ok:
                    continue
                ns = (L, n)
                ng = g + cost + (TURN if din is not None and din != (dx, dy) else 0.0)
                if ng < dist.get(ns, 1e18):
                    dist[ns] = ng
                    prev[ns] = st
                    came[ns] = (dx, dy)
                    heapq.heappush(heap, (ng + h(n), ng, ns))
            # a via to the other layer
            k = ("v", c)
            ok = cache.get(k)
            if ok is None:
                ok = self._clear_via(net, px, py)
                cache[k] = ok
            if ok:
                ns = (1 - L, c)
                ng = g + self.via_cost
                if ng < dist.get(ns, 1e18):
                    dist[ns] = ng
                    prev[ns] = st
                    heapq.heappush(heap, (ng + h(c), ng, ns))
        return None

    def _route_net(self, net, width) -> bool:
        half = width / 2
        pads = self.pads.get(net, [])
        if len(pads) < 2:
            return True
        terms = [self._terminals(net, p) for p in pads]
        for i, t in enumerate(terms):
            if not t:
                raise ValueError(f"net {net}: pad {i} has no grid point inside it")
        tree = set(terms[0])
        todo = list(range(1, len(pads)))
        cache: dict = {}
        while todo:
            targets = set()
            owner = {}
            for i in todo:
                if terms[i] & tree:  # already touched by the tree
                    continue
                for t in terms[i]:
                    targets.add(t)
                    owner[t] = i
            todo = [i for i in todo if not terms[i] & tree]
            if not todo:
                break
            path = self._astar(net, half, tree, targets, cache)
            if path is None:
                return False
            self._commit(net, path, width)
            cache = {}  # the new copper is this net's: it changes nothing for it, but keep it simple
            tree |= set(path)
            todo.remove(owner[path[-1]])
            tree |= terms[owner[path[-1]]]
        return True

    def _commit(self, net, path, width):
        # straight runs merged into one track each; a layer change is a via
        run = [path[0]]
        for st in path[1:]:
            if st[0] != run[-1][0]:
                self._flush(net, run, width)
                x, y = self._xy(st[1])
                self.vias.append((net, (x, y)))
                self.holes.append((x, y, self.via_drill / 2))
                for L in (0, 1):
                    self._add(Obstacle(net, L, Capsule(x, y, x, y, self.via_r)))
                run = [st]
            else:
                run.append(st)
        self._flush(net, run, width)

    def _flush(self, net, run, width):
        if len(run) < 2:
            return
        pts = [self._xy(c) for _, c in run]
        L = run[0][0]
        start = 0
        for i in range(1, len(pts) - 1):
            d1 = (round((pts[i][0] - pts[i - 1][0]) / PITCH), round((pts[i][1] - pts[i - 1][1]) / PITCH))
            d2 = (round((pts[i + 1][0] - pts[i][0]) / PITCH), round((pts[i + 1][1] - pts[i][1]) / PITCH))
            if d1 != d2:
                self._track(net, L, pts[start], pts[i], width)
                start = i
        self._track(net, L, pts[start], pts[-1], width)

    def _track(self, net, L, a, b, width):
        self.tracks.append((net, L, a, b, width))
        self._add(Obstacle(net, L, Capsule(a[0], a[1], b[0], b[1], width / 2)))

    def route(self, widths: dict[int, float], order: list[int] | None = None, rounds: int = 6) -> bool:
        """Route every net; True when all are done. Failed nets go first in the next round."""
        base = list(self.obstacles)
        base_holes = list(self.holes)
        order = list(order or widths)
        for _ in range(rounds):
            self.obstacles = list(base)
            self.holes = list(base_holes)
            self._bucket = {}
            for ob in base:
                self._add_bucket_only(ob)
            self.tracks, self.vias, self.failed = [], [], []
            for net in order:
                if not self._route_net(net, widths[net]):
                    self.failed.append(net)
            if not self.failed:
                return True
            order = self.failed + [n for n in order if n not in self.failed]
        return False

    def _add_bucket_only(self, ob):
        x1, y1, x2, y2 = ob.shape.bbox()
        for bx in range(int(x1 // 2) - 1, int(x2 // 2) + 2):
            for by in range(int(y1 // 2) - 1, int(y2 // 2) + 2):
                self._bucket.setdefault((ob.layer, bx, by), []).append(ob)
