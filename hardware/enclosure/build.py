"""Build the enclosure's STL files with OpenSCAD, check them, render them.

    python hardware/enclosure/build.py [--out DIR] [--no-render]

1. board_dims.scad must match the board file (board_dims.py --check);
2. OpenSCAD (Debian's openscad) makes bottom, top, caps and diffuser as
   binary STL (and the board with its tall parts as boxes, for the checks);
3. each part is a closed, consistently wound solid of positive volume
   (trimesh), as a slicer needs;
4. the board and every tall part fit with 0.3 mm to spare: no point of
   them, grown by 0.3 mm, is inside a shell;
5. the caps stand on the switches (centre within 0.05 mm) and through their
   holes; the OLED window uncovers the whole active area and no more than
   2.5 mm round it; the bosses and posts sit on the board's holes;
6. nobody across the table sees the ring: no line from an eye 60 cm behind
   the pod, 30-45 cm up, up to 30 cm to either side, reaches the diffuser
   past the hood; the player (40 cm in front, 35 cm up) sees most of it.

Pictures go to hardware/renders/ (software-rendered from the STLs with numpy
and Pillow: no GL window is needed). Exit status 1 on any failed check.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import numpy as np
import trimesh

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
import board_dims
import render

PARTS = ("bottom", "top", "caps", "diffuser", "board")
CLEAR = 0.3
# must match pod.scad
FLOOR_T, STANDOFF, BOARD_T, HEADROOM, TOP_T = 2.0, 5.0, 1.6, 19.0, 2.0
Z_BB = FLOOR_T + STANDOFF
Z_BT = Z_BB + BOARD_T
Z_TOP = Z_BT + HEADROOM
Z_CEIL = Z_TOP - TOP_T
RIM_H = 4.0


def openscad(part: str, out: Path) -> Path:
    stl = out / f"{part}.stl"
    r = subprocess.run(["openscad", "-q", "--export-format", "binstl", "-D", f'part="{part}"', "-o", str(stl),
                        str(HERE / "pod.scad")], capture_output=True, text=True)
    if r.returncode != 0 or not stl.exists():
        raise SystemExit(f"openscad failed on {part}: {r.stderr.strip()[-800:]}")
    return stl


def check_solid(name: str, m: trimesh.Trimesh, fails: list[str]) -> str:
    ok = m.is_watertight and m.is_winding_consistent and m.volume > 0
    if not ok:
        fails.append(f"{name}: not a closed solid (watertight {m.is_watertight}, winding {m.is_winding_consistent}, "
                     f"volume {m.volume:.1f})")
    return f"{name}: {len(m.faces)} faces, {m.volume / 1000:.1f} cm3, watertight {m.is_watertight}"


def _hits(mesh, origins, dirs):
    """For each ray, the distance to its first hit on mesh (inf: none)."""
    locs, idx, _ = mesh.ray.intersects_location(origins, dirs, multiple_hits=False)
    d = np.full(len(origins), np.inf)
    for loc, i in zip(locs, idx):
        d[i] = min(d[i], float(np.linalg.norm(loc - origins[i])))
    return d


def check_fit(d, shells, fails) -> str:
    W, H, R = d["board"]
    pts = []
    # the board's rounded outline, grown by CLEAR, through its thickness
    edge = []
    for t in np.linspace(R, W - R, 80):
        edge += [(t, -CLEAR), (t, H + CLEAR)]
    for t in np.linspace(R, H - R, 80):
        edge += [(-CLEAR, t), (W + CLEAR, t)]
    for cx, cy in ((R, R), (W - R, R), (R, H - R), (W - R, H - R)):
        for a in np.linspace(0, 2 * np.pi, 36, endpoint=False):
            x, y = cx + (R + CLEAR) * np.cos(a), cy + (R + CLEAR) * np.sin(a)
            if (x - W / 2) * (cx - W / 2) > 0 and (y - H / 2) * (cy - H / 2) > 0:
                edge.append((x, y))
    for x, y in edge:
        for z in (Z_BB + 0.2, Z_BT - 0.2):
            pts.append((x, y, z))
    # every tall part's box, grown by CLEAR, at its top and round its sides
    for ref, x1, y1, x2, y2, h in d["parts"]:
        for x in np.linspace(x1 - CLEAR, x2 + CLEAR, 7):
            for y in np.linspace(y1 - CLEAR, y2 + CLEAR, 7):
                pts.append((x, y, Z_BT + h + CLEAR))
                pts.append((x, y, Z_BT + h / 2))
    pts = np.array(pts)
    inside = np.zeros(len(pts), bool)
    for m in shells:
        inside |= m.contains(pts)
    if inside.any():
        bad = pts[inside][:5].round(2).tolist()
        fails.append(f"fit: {int(inside.sum())} points of the board or its parts (+{CLEAR} mm) are inside a shell, "
                     f"e.g. {bad}")
    return f"fit: {len(pts)} points of the board and {len(d['parts'])} parts, {CLEAR} mm grown: {int(inside.sum())} inside a shell"


def check_caps_window_bosses(d, top, bottom, caps, fails) -> list[str]:
    out = []
    up = np.array([0, 0, 1.0])
    parts = caps.split(only_watertight=False)
    for x, y, name in d["switches"]:
        near = min(parts, key=lambda p: np.hypot(*(p.centroid[:2] - (x, y))))
        off = float(np.hypot(*(near.centroid[:2] - (x, y))))
        if off > 0.05:
            fails.append(f"cap of {name}: centre {off:.2f} mm off its switch")
        if near.bounds[1][2] <= Z_TOP:
            fails.append(f"cap of {name} does not stand out of the top face")
        r = (near.bounds[1][0] - near.bounds[0][0]) / 2  # the flange's radius
        through = _hits(top, np.array([[x, y, Z_CEIL - 1]]), np.array([up]))[0]
        beside = _hits(top, np.array([[x + r, y, Z_CEIL - 1]]), np.array([up]))[0]
        if np.isfinite(through) or not np.isfinite(beside):
            fails.append(f"{name}: the top face has no hole over the switch, or one past the cap's flange")
        out.append(f"cap {name}: {off:.3f} mm from the switch centre")
    cx, cy, w, h = d["oled"]
    inset = [(cx + sx * (w / 2 - 0.2), cy + sy * (h / 2 - 0.2)) for sx in (-1, 1) for sy in (-1, 1)]
    outset = [(cx + sx * (w / 2 + 2.5), cy) for sx in (-1, 1)] + [(cx, cy + sy * (h / 2 + 2.5)) for sy in (-1, 1)]
    o = np.array([[x, y, Z_CEIL - 1] for x, y in inset + outset])
    hit = _hits(top, o, np.tile(up, (len(o), 1)))
    if np.isfinite(hit[:4]).any():
        fails.append("OLED window: a corner of the active area is covered")
    if not np.isfinite(hit[4:]).all():
        fails.append("OLED window: open more than 2.5 mm past the active area")
    out.append(f"OLED window: active area {w} x {h} mm at ({cx}, {cy}) uncovered, 2.5 mm round it covered")
    for x, y, drill in d["holes"]:
        through = _hits(bottom, np.array([[x, y, -1]]), np.array([up]))[0]
        post = _hits(top, np.array([[x, y, Z_BT - 0.5]]), np.array([up]))[0]
        wall = _hits(top, np.array([[x + 3.0, y, Z_BT - 0.5]]), np.array([up]))[0]
        if np.isfinite(through):
            fails.append(f"hole ({x}, {y}): no screw hole through the bottom boss")
        if not (5.5 < post < 7.5) or not wall < 1.0:
            fails.append(f"hole ({x}, {y}): no post with an insert hole over it (insert at {post:.1f}, wall {wall:.1f})")
    out.append(f"bosses: {len(d['holes'])} on the board's holes, screw through, insert 6.2 mm deep in each post")
    return out


def check_sight(d, top, fails) -> list[str]:
    rx, ry, rr = d["ring"]
    z = Z_TOP + RIM_H + 1.2  # the diffuser's top, lifted clear of it
    pts = []
    for r in np.linspace(16.5, rr, 4):
        for a in np.linspace(0, 2 * np.pi, 48, endpoint=False):
            pts.append((rx + r * np.cos(a), ry + r * np.sin(a), z))
    pts = np.array(pts)

    def seen(eye) -> float:
        dirs = np.array(eye) - pts
        dist = np.linalg.norm(dirs, axis=1)
        hit = _hits(top, pts, dirs / dist[:, None])
        return float((hit > dist).mean())

    worst = 0.0
    for side in (-300, -150, 0, 150, 300):
        for up in (300, 350, 400, 450):
            worst = max(worst, seen((rx + side, ry + 600, Z_TOP + up)))
    player = seen((rx, ry - 400, Z_TOP + 350))
    if worst > 0:
        fails.append(f"sight: {worst:.0%} of the diffuser is seen from across the table")
    if player < 0.75:
        fails.append(f"sight: the player sees only {player:.0%} of the diffuser")
    return [f"sight: across the table {worst:.0%} of the diffuser seen (20 eyes, 60 cm behind, 30-45 cm up, "
            f"up to 30 cm aside); the player sees {player:.0%}"]


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(description="build, check and render the enclosure")
    ap.add_argument("--out", default=str(HERE / "stl"), help="where the STL files go (default hardware/enclosure/stl)")
    ap.add_argument("--renders", default=str(HERE.parent / "renders"), help="where the pictures go (default hardware/renders)")
    ap.add_argument("--no-render", action="store_true")
    args = ap.parse_args(argv)
    if board_dims.main(["--check"]) != 0:
        return 1
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    with ThreadPoolExecutor(2) as ex:
        stls = dict(zip(PARTS, ex.map(lambda p: openscad(p, out), PARTS)))
    meshes = {p: trimesh.load(str(f), force="mesh") for p, f in stls.items()}
    d = board_dims.read()
    fails: list[str] = []
    lines = [check_solid(p, meshes[p], fails) for p in PARTS if p != "board"]
    lines.append(check_fit(d, [meshes["bottom"], meshes["top"]], fails))
    lines += check_caps_window_bosses(d, meshes["top"], meshes["bottom"], meshes["caps"], fails)
    lines += check_sight(d, meshes["top"], fails)
    for line in lines:
        print(line)
    if not args.no_render:
        for f in render.pictures(meshes, Path(args.renders)):
            print(f"rendered {f}")
    for f in fails:
        print(f"FAIL {f}")
    print(f"enclosure: {len(lines)} checks, {len(fails)} failed")
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
