"""Build the enclosure's STL files with OpenSCAD, for each pin map, check them, render them.

    python hardware/enclosure/build.py [--pinmap FILE ...] [--out DIR] [--renders DIR] [--no-render]

A variant per pin map (default: hardware/pinmaps/pico.json and pico2.json): the
map's ring.pixels picks the rim and diffuser (12 or 16 pixels: board_dims.RINGS),
its "oled" whether the top has the OLED's window. The bottom shell, the caps and
the board are the same for every variant; each variant has its own top and
diffuser, in OUT/<map name>/.

1. board_dims.scad must match the board file (board_dims.py --check);
2. OpenSCAD (Debian's openscad) makes every part as binary STL;
3. each printed part is a closed, consistently wound solid of positive volume
   (trimesh), as a slicer needs;
4. the board and every tall part fit with 0.3 mm to spare: no point of them,
   grown by 0.3 mm, is inside a shell;
5. the caps stand on the switches (centre within 0.05 mm) and through their
   holes; the bosses and posts sit on the board's holes;
6. the ring fits its rim: radial play under 0.5 mm (and more than none), every
   LED under the diffuser and clear of it;
7. people's eyes (EYES: the seated player 40 cm in front at 25 and 35 cm over
   the table; the opponent seated, standing and leaning in, each also to either
   side): rays from points of the OLED's active area and of the diffuser over
   the LEDs to each eye, against the shells, caps and diffuser. The player sees
   at least 90 % of the screen and 75 % of the ring; no opponent sees any of
   either.

Pictures go to hardware/renders/ (software-rendered from the STLs with numpy
and Pillow: no GL window is needed), among them the pod from each kind of eye.
OUT/report.json holds every figure. Exit status 1 on any failed check.
"""

from __future__ import annotations

import argparse
import json
import math
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import trimesh

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(ROOT / "firmware"))
import board_dims
import pinmap as pin_rules  # the firmware's own rules (firmware/pinmap.py): a map the pod refuses builds no enclosure
import render

SHARED = ("bottom", "caps", "board")
OWN = ("top", "hood", "diffuser", "screen", "leds")
PRINTED = ("bottom", "top", "hood", "caps", "diffuser")
# each printed part as it lies on the printer's bed (OUT/<map>/print/*.stl): every one prints without support
# (rotation about x, degrees): the top shell face down, the hood on its back wall, the rest as modelled
PRINT_TURN = {"bottom": 0, "top": 180, "hood": -90, "caps": 0, "diffuser": 0}
CLEAR = 0.3
# must match pod.scad
FLOOR_T, STANDOFF, BOARD_T, HEADROOM, TOP_T = 2.0, 5.0, 1.6, 19.0, 2.0
Z_BB = FLOOR_T + STANDOFF
Z_BT = Z_BB + BOARD_T
Z_TOP = Z_BT + HEADROOM
Z_CEIL = Z_TOP - TOP_T
RING_PLAY_MAX = 0.5
PLAYER_SCREEN, PLAYER_RING = 0.90, 0.75

# Named eyes, mm: x across the pod, y from its front to its back, z over the table (the pod stands on it);
# "dy" from the pod's centre, "dx" to either side of it. The player sits in front, the opponent behind.
EYES = {
    "player, seated, eyes 35 cm up": {"dy": -400, "z": 350, "dx": (-100, 0, 100), "who": "player"},
    "player, seated low, eyes 25 cm up": {"dy": -400, "z": 250, "dx": (-100, 0, 100), "who": "player"},
    "opponent, seated": {"dy": 600, "z": 350, "dx": (-300, 0, 300), "who": "opponent"},
    "opponent, standing": {"dy": 600, "z": 600, "dx": (-300, 0, 300), "who": "opponent"},
    "opponent, leaning in": {"dy": 400, "z": 550, "dx": (-150, 0, 150), "who": "opponent"},
}


@dataclass(frozen=True)
class Variant:
    name: str  # the pin map's file name
    pixels: int
    oled: bool

    def defines(self) -> list[str]:
        return ["-D", f"ring_px={self.pixels}", "-D", f"has_oled={'true' if self.oled else 'false'}"]


def variant(path: Path) -> Variant:
    pm, errors = pin_rules.parse(path.read_text(), None)
    if errors:
        raise SystemExit(f"{path}: the pod would refuse this pin map: " + "; ".join(pin_rules.describe(errors)))
    n = pm["ring"]["pixels"]
    if n not in board_dims.RINGS:
        raise SystemExit(f"{path}: no enclosure for a {n}-pixel ring (the rim and diffuser are made for "
                         f"{', '.join(str(k) for k in sorted(board_dims.RINGS))})")
    return Variant(path.stem, n, bool(pm.get("oled")))


def openscad(part: str, stl: Path, defines: list[str]) -> Path:
    stl.parent.mkdir(parents=True, exist_ok=True)
    r = subprocess.run(["openscad", "-q", "--export-format", "binstl", "-D", f'part="{part}"', *defines, "-o", str(stl),
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


def check_caps_bosses(d, top, bottom, caps, fails) -> list[str]:
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


def check_ring(d, v: Variant, m, fails) -> tuple[list[str], dict]:
    """The ring in its rim: radial play, and every LED under the diffuser and clear of it."""
    spec = board_dims.RINGS[v.pixels]
    rx, ry = d["ring"][:2]
    z = Z_TOP - 2.0  # inside the pocket
    angles = np.linspace(0, 2 * np.pi, 72, endpoint=False)
    dirs = np.stack([np.cos(angles), np.sin(angles), np.zeros_like(angles)], axis=1)
    rim = _hits(m["top"], np.tile([rx, ry, z], (len(angles), 1)), dirs)
    play = float(rim.min() - spec["od"] / 2)
    if not 0 < play < RING_PLAY_MAX:
        fails.append(f"ring ({v.name}): {play:.2f} mm radial play in its pocket (must be more than none, under "
                     f"{RING_PLAY_MAX} mm)")
    leds = m["leds"].split(only_watertight=False)
    under = 0
    clear = True
    for led in leds:
        # points over the package's top face (it is turned with its pixel): its corners pulled in 0.05 mm,
        # the middles of its sides, its centre
        z1 = led.bounds[1][2]
        top = np.unique(led.vertices[np.isclose(led.vertices[:, 2], z1)].round(4), axis=0)
        c = top.mean(axis=0)
        corners = c + (top - c) * (1 - 0.05 / np.linalg.norm(top[0] - c))
        pts = np.vstack([corners, (corners + np.roll(corners, 1, axis=0)) / 2, c[None]])
        pts[:, 2] = z1 + 0.01
        hit = _hits(m["diffuser"], pts, np.tile([0, 0, 1.0], (len(pts), 1)))
        under += bool(np.isfinite(hit).all())
        clear &= bool((hit > 0.05).all())
    if len(leds) != v.pixels:
        fails.append(f"ring ({v.name}): {len(leds)} LEDs modelled for {v.pixels} pixels")
    if under != len(leds):
        fails.append(f"ring ({v.name}): {len(leds) - under} of {len(leds)} LEDs are not wholly under the diffuser")
    if not clear:
        fails.append(f"ring ({v.name}): the diffuser touches an LED")
    return ([f"ring ({v.name}, {v.pixels} pixels, {spec['od']} mm): {play:.2f} mm radial play in its pocket; "
             f"{under} of {len(leds)} LEDs wholly under the diffuser, clear of it"],
            {"play_mm": round(play, 3), "leds": len(leds), "leds_under": under})


def eye_points(d, name: str) -> list[tuple[str, np.ndarray]]:
    W, H, _ = d["board"]
    e = EYES[name]
    out = []
    for dx in e["dx"]:
        side = "" if dx == 0 else " %d cm to the %s" % (abs(dx) // 10, "left" if dx < 0 else "right")
        out.append((name + side, np.array([W / 2 + dx, H / 2 + e["dy"], e["z"]], float)))
    return out


def targets(d, v: Variant, m) -> dict[str, np.ndarray]:
    """Points a person must (or must not) see: the OLED's active area, and the diffuser's top over the LEDs."""
    out = {}
    if v.oled:
        cx, cy, w, h, top = d["oled"]
        out["screen"] = np.array([(x, y, Z_BT + top + 0.01) for x in np.linspace(cx - w / 2 + 0.1, cx + w / 2 - 0.1, 14)
                                  for y in np.linspace(cy - h / 2 + 0.1, cy + h / 2 - 0.1, 5)])
    rx, ry = d["ring"][:2]
    spec = board_dims.RINGS[v.pixels]
    z = float(m["diffuser"].bounds[1][2]) + 0.02
    out["ring"] = np.array([(rx + r * math.cos(a), ry + r * math.sin(a), z)
                            for r in (spec["led_r"] - 1.5, spec["led_r"], spec["led_r"] + 1.5)
                            for a in np.linspace(0, 2 * math.pi, 36, endpoint=False)])
    return out


def seen(points: np.ndarray, eye: np.ndarray, obstacles) -> float:
    """The share of points with a clear line to the eye."""
    dirs = eye - points
    dist = np.linalg.norm(dirs, axis=1)
    hit = _hits(obstacles, points + dirs / dist[:, None] * 0.02, dirs / dist[:, None])
    return float((hit > dist).mean())


def check_sight(d, v: Variant, m, fails) -> tuple[list[str], dict]:
    obstacles = trimesh.util.concatenate([m["top"], m["hood"], m["caps"], m["diffuser"], m["bottom"]])
    tg = targets(d, v, m)
    report: dict = {}
    lines = []
    for name, e in EYES.items():
        for label, eye in eye_points(d, name):
            got = {what: seen(pts, eye, obstacles) for what, pts in tg.items()}
            report[label] = {k: round(x, 3) for k, x in got.items()}
            for what, share in got.items():
                if e["who"] == "player" and share < (PLAYER_SCREEN if what == "screen" else PLAYER_RING):
                    fails.append(f"sight ({v.name}): the {label} sees only {share:.0%} of the {what}")
                if e["who"] == "opponent" and share > 0:
                    fails.append(f"sight ({v.name}): the {label} sees {share:.0%} of the {what}")
        centre = report[name]
        labels = [lb for lb, _ in eye_points(d, name)]
        sides = ", ".join(f"{k} {min(report[lb][k] for lb in labels):.0%}-{max(report[lb][k] for lb in labels):.0%}"
                          for k in centre)
        lines.append(f"sight ({v.name}): {name}: " + ", ".join(f"{k} {x:.0%}" for k, x in centre.items())
                     + f" (to either side: {sides})")
    return lines, report


def print_files(m, where: Path) -> str:
    """Each printed part turned as it goes on the bed, its lowest point on it (PRINT_TURN)."""
    where.mkdir(parents=True, exist_ok=True)
    for p, turn in PRINT_TURN.items():
        mesh = m[p].copy()
        if turn:
            mesh.apply_transform(trimesh.transformations.rotation_matrix(math.radians(turn), [1, 0, 0]))
        mesh.apply_translation(-mesh.bounds[0])
        mesh.export(str(where / f"{p}.stl"))
    return f"print files: {', '.join(PRINT_TURN)} as they lie on the bed in {where}"


def eye_of(d, name: str) -> np.ndarray:
    return dict(eye_points(d, name))[name]


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(description="build, check and render the enclosure, a variant per pin map")
    ap.add_argument("--pinmap", action="append", help="a pin map (repeat); default: hardware/pinmaps/pico.json and pico2.json")
    ap.add_argument("--out", default=str(HERE / "stl"), help="where the STL files go (default hardware/enclosure/stl)")
    ap.add_argument("--renders", default=str(HERE.parent / "renders"), help="where the pictures go (default hardware/renders)")
    ap.add_argument("--no-render", action="store_true")
    args = ap.parse_args(argv)
    if board_dims.main(["--check"]) != 0:
        return 1
    maps = [Path(p) for p in args.pinmap] if args.pinmap else [HERE.parent / "pinmaps" / "pico.json",
                                                                  HERE.parent / "pinmaps" / "pico2.json"]
    variants = [variant(p) for p in maps]
    out = Path(args.out)
    jobs = [(p, out / f"{p}.stl", []) for p in SHARED]
    jobs += [(p, out / v.name / f"{p}.stl", v.defines()) for v in variants for p in OWN]
    with ThreadPoolExecutor(2) as ex:
        stls = list(ex.map(lambda j: openscad(*j), jobs))
    loaded = {str(f): trimesh.load(str(f), force="mesh") for f in stls}
    d = board_dims.read()
    fails: list[str] = []
    lines: list[str] = []
    report: dict = {"variants": {}}
    shared = {p: loaded[str(out / f"{p}.stl")] for p in SHARED}
    for p in ("bottom", "caps"):
        lines.append(check_solid(p, shared[p], fails))
    for v in variants:
        m = dict(shared, **{p: loaded[str(out / v.name / f"{p}.stl")] for p in OWN})
        lines += [check_solid(f"{p} ({v.name})", m[p], fails) for p in ("top", "hood", "diffuser")]
        lines.append(print_files(m, out / v.name / "print"))
        lines.append(check_fit(d, [m["bottom"], m["top"]], fails))
        lines += check_caps_bosses(d, m["top"], m["bottom"], m["caps"], fails)
        ring_lines, ring = check_ring(d, v, m, fails)
        sight_lines, sight = check_sight(d, v, m, fails)
        lines += ring_lines + sight_lines
        report["variants"][v.name] = {"pixels": v.pixels, "oled": v.oled, "ring": ring, "sight": sight,
                                      "volumes_cm3": {p: round(m[p].volume / 1000, 2) for p in PRINTED}}
        if not args.no_render:
            eyes = {"player": eye_of(d, "player, seated, eyes 35 cm up"), "opponent": eye_of(d, "opponent, standing"),
                    "leaning": eye_of(d, "opponent, leaning in")}
            for f in render.pictures(m, Path(args.renders), v.name, eyes, main=v is variants[-1]):
                lines.append(f"rendered {f}")
            (hx0, hy0, _), (hx1, hy1, _) = m["hood"].bounds
            f = render.orientation(d, v.pixels, board_dims.RINGS[v.pixels], (hx0, hy0, hx1, hy1),
                                   Path(args.renders) / f"ring-orientation-{v.pixels}.png")
            lines.append(f"rendered {f}")
    for line in lines:
        print(line)
    for f in fails:
        print(f"FAIL {f}")
    report["checks"] = len(lines)
    report["fails"] = fails
    (out / "report.json").write_text(json.dumps(report, indent=1) + "\n")
    print(f"enclosure: {len(variants)} variants ({', '.join(f'{v.name}: {v.pixels} px' + (' + OLED' if v.oled else '') for v in variants)}), "
          f"{len(lines)} checks, {len(fails)} failed")
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
