"""Pictures of the enclosure from its STL files: a small z-buffer renderer
(numpy, Pillow), flat-shaded, perspective; no GL window or display needed.

    pictures(meshes, outdir, variant, eyes)   # meshes: {"bottom", "top", "caps", "diffuser", "board", "screen"} -> trimesh
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
from PIL import Image, ImageDraw, ImageFont

SS = 2  # supersampling
COLORS = {"bottom": (58, 60, 66), "top": (40, 42, 47), "hood": (44, 46, 52), "caps": (214, 172, 60), "diffuser": (236, 236, 230),
          "board": (30, 110, 60)}
SCREEN = (120, 205, 255)  # the OLED's lit active area
FONTS = ["/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc",  # Hangul (fonts-noto-cjk, which CI installs)
         "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"]


def draw(scene, eye, target, size=(960, 720), fov=32.0, title=""):
    W, H = size[0] * SS, size[1] * SS
    eye, target = np.asarray(eye, float), np.asarray(target, float)
    fwd = target - eye
    fwd /= np.linalg.norm(fwd)
    right = np.cross(fwd, [0, 0, 1.0])
    right /= np.linalg.norm(right)
    up = np.cross(right, fwd)
    f = (H / 2) / np.tan(np.radians(fov) / 2)
    light = np.array([-0.4, -0.6, 0.9])
    light /= np.linalg.norm(light)
    zbuf = np.full((H, W), np.inf)
    img = np.zeros((H, W, 3))
    img[:] = (242, 242, 238)
    for mesh, color, offset in scene:
        v = mesh.vertices + np.asarray(offset, float)
        p = v - eye
        cz = p @ fwd
        sx = f * (p @ right) / cz + W / 2
        sy = -f * (p @ up) / cz + H / 2
        n = mesh.face_normals
        facing = (n @ fwd) < 0
        shade = 0.35 + 0.65 * np.clip(n @ light, 0, 1)
        col = np.asarray(color, float)
        for fi in np.nonzero(facing)[0]:
            a, b, c = mesh.faces[fi]
            xs = np.array([sx[a], sx[b], sx[c]])
            ys = np.array([sy[a], sy[b], sy[c]])
            zs = np.array([cz[a], cz[b], cz[c]])
            if (zs <= 1).any():
                continue
            x0, x1 = max(int(xs.min()), 0), min(int(xs.max()) + 1, W - 1)
            y0, y1 = max(int(ys.min()), 0), min(int(ys.max()) + 1, H - 1)
            if x0 > x1 or y0 > y1:
                continue
            den = (ys[1] - ys[2]) * (xs[0] - xs[2]) + (xs[2] - xs[1]) * (ys[0] - ys[2])
            if abs(den) < 1e-9:
                continue
            gx, gy = np.meshgrid(np.arange(x0, x1 + 1) + 0.5, np.arange(y0, y1 + 1) + 0.5)
            w0 = ((ys[1] - ys[2]) * (gx - xs[2]) + (xs[2] - xs[1]) * (gy - ys[2])) / den
            w1 = ((ys[2] - ys[0]) * (gx - xs[2]) + (xs[0] - xs[2]) * (gy - ys[2])) / den
            w2 = 1 - w0 - w1
            inside = (w0 >= 0) & (w1 >= 0) & (w2 >= 0)
            if not inside.any():
                continue
            depth = 1 / (w0 / zs[0] + w1 / zs[1] + w2 / zs[2])
            zb = zbuf[y0:y1 + 1, x0:x1 + 1]
            m = inside & (depth < zb)
            zb[m] = depth[m]
            img[y0:y1 + 1, x0:x1 + 1][m] = col * shade[fi]
    out = Image.fromarray(img.clip(0, 255).astype(np.uint8)).resize(size, Image.LANCZOS)
    if title:
        dr = ImageDraw.Draw(out)
        path = next((f for f in FONTS if Path(f).exists()), None)
        font = ImageFont.truetype(path, 18) if path else ImageFont.load_default()
        dr.text((14, 10), title, fill=(30, 30, 30), font=font)
    return out


def pictures(meshes, outdir: Path, variant: str, eyes: dict, main: bool = True) -> list[Path]:
    """The pod of one variant seen from the named eyes (build.py EYES: "player", "opponent", "leaning"),
    its screen lit; for the main variant also the assembled and exploded views."""
    outdir.mkdir(parents=True, exist_ok=True)
    b = meshes["bottom"].bounds
    cx, cy = (b[0][0] + b[1][0]) / 2, (b[0][1] + b[1][1]) / 2
    files = []
    assembled = [(meshes[n], COLORS[n], (0, 0, 0)) for n in ("bottom", "top", "hood", "caps", "diffuser")]
    lit = assembled + [(meshes["screen"], SCREEN, (0, 0, 0))] if len(meshes["screen"].faces) else assembled
    titles = {"player": ("From the player's eyes (40 cm in front, 35 cm up)", "플레이어의 눈높이 (앞 40 cm, 위 35 cm)"),
              "opponent": ("From a standing opponent's eyes (60 cm behind, 60 cm up)", "서 있는 상대의 눈높이 (뒤 60 cm, 위 60 cm)"),
              "leaning": ("From an opponent leaning in (40 cm behind, 55 cm up)", "몸을 숙인 상대 (뒤 40 cm, 위 55 cm)")}
    for who, eye in eyes.items():
        en, ko = titles[who]
        dist = float(np.linalg.norm(np.asarray(eye) - (cx, cy, 20)))
        img = draw(lit, eye, (cx, cy, 20), size=(800, 600), fov=2 * np.degrees(np.arctan(75 / dist)),
                   title=f"{variant}: {en} / {ko}")
        files.append(outdir / f"enclosure-{variant}-{who}.png")
        img.save(files[-1], optimize=True)
    if not main:
        return files
    img = draw(lit, (cx - 110, cy - 175, 160), (cx, cy, 16),
               title="Assembled, from the player's side / 조립 상태 (플레이어 쪽)")
    files.append(outdir / "enclosure-player.png")
    img.save(files[-1], optimize=True)
    img = draw(lit, (cx + 80, cy + 220, 130), (cx, cy, 20),
               title="From across the table: the hood hides the ring / 상대 쪽: 후드가 링을 가립니다")
    files.append(outdir / "enclosure-opponent.png")
    img.save(files[-1], optimize=True)
    exploded = [(meshes["bottom"], COLORS["bottom"], (0, 0, 0)), (meshes["board"], COLORS["board"], (0, 0, 10)),
                (meshes["caps"], COLORS["caps"], (0, 0, 28)), (meshes["top"], COLORS["top"], (0, 0, 50)),
                (meshes["diffuser"], COLORS["diffuser"], (0, 0, 62)), (meshes["hood"], COLORS["hood"], (0, 0, 80))]
    img = draw(exploded, (cx - 190, cy - 280, 260), (cx, cy, 58), size=(960, 1100),
               title="Exploded: bottom, board, caps, top, diffuser, hood / 분해도")
    files.append(outdir / "enclosure-exploded.png")
    img.save(files[-1], optimize=True)
    return files


def orientation(d: dict, pixels: int, spec: dict, hood: tuple[float, float, float, float], out: Path) -> Path:
    """Seen from above: the ring in its pocket inside the hood, pixel 0 at 12 o'clock (by the hood's back wall)
    and the way the pixels run (clockwise), the player at the bottom: the picture for the build guide."""
    S = 9  # pixels a mm
    rx, ry = d["ring"][:2]
    x0, y0, x1, y1 = hood
    pad = 16
    W, H = 900, int((y1 - y0 + 2 * pad + 16) * S)
    left = (W / S - (x1 - x0)) / 2

    def P(x, y):  # board mm (y to the back) -> image (back at the top)
        return (x - x0 + left) * S, (y1 - y + pad) * S

    img = Image.new("RGB", (W, H), (242, 242, 238))
    dr = ImageDraw.Draw(img)
    path = next((f for f in FONTS if Path(f).exists()), None)
    font = ImageFont.truetype(path, 22) if path else ImageFont.load_default()
    small = ImageFont.truetype(path, 17) if path else ImageFont.load_default()
    # the hood's walls: back and sides (the front is open, towards the player)
    for a, b in (((x0, y1), (x1, y1)), ((x0, y1), (x0, y0)), ((x1, y1), (x1, y0))):
        dr.line([P(*a), P(*b)], fill=(40, 42, 47), width=int(3 * S))
    r_out, r_in = spec["od"] / 2, spec["id"] / 2
    cx, cy = P(rx, ry)
    dr.ellipse((cx - r_out * S, cy - r_out * S, cx + r_out * S, cy + r_out * S), fill=(30, 30, 34))
    dr.ellipse((cx - r_in * S, cy - r_in * S, cx + r_in * S, cy + r_in * S), fill=(242, 242, 238))
    for i in range(pixels):
        a = 2 * np.pi * i / pixels  # 0 at 12 o'clock, clockwise seen from above
        lx, ly = rx + spec["led_r"] * np.sin(a), ry + spec["led_r"] * np.cos(a)
        px, py = P(lx, ly)
        h = spec["led"] / 2 * S
        dr.rectangle((px - h, py - h, px + h, py + h), fill=(120, 205, 255) if i == 0 else (236, 236, 230),
                     outline=(90, 90, 96))
        tx, ty = P(rx + (spec["led_r"] - 6.2) * np.sin(a), ry + (spec["led_r"] - 6.2) * np.cos(a))
        dr.text((tx, ty), str(i), fill=(20, 20, 20), font=small, anchor="mm")
    # the direction: an arrow from pixel 0 towards pixel 1, outside the ring
    arc = [P(rx + (r_out + 3) * np.sin(t), ry + (r_out + 3) * np.cos(t)) for t in np.linspace(0.15, 1.0, 20)]
    dr.line(arc, fill=(213, 94, 0), width=4)
    (ax, ay), (bx, by) = arc[-2], arc[-1]
    ang = np.arctan2(by - ay, bx - ax)
    for s in (2.6, -2.6):
        dr.line([(bx, by), (bx - 16 * np.cos(ang + s / 2.2), by - 16 * np.sin(ang + s / 2.2))], fill=(213, 94, 0), width=4)
    dr.text((W / 2, pad * S / 2 - 12), "12 o'clock: the hood's back wall, the opponent's side", fill=(20, 20, 20),
            font=font, anchor="mm")
    dr.text((W / 2, pad * S / 2 + 16), "12시: 후드 뒷벽, 상대 쪽", fill=(20, 20, 20), font=font, anchor="mm")
    dr.text((W / 2, H - 13 * S), f"{pixels}-pixel ring seen from above: pixel 0 (blue) at 12 o'clock, then clockwise",
            fill=(20, 20, 20), font=small, anchor="mm")
    dr.text((W / 2, H - 10.5 * S), f"위에서 본 {pixels}픽셀 링: 0번(파랑)이 12시, 시계 방향", fill=(20, 20, 20), font=small,
            anchor="mm")
    dr.text((W / 2, H - 5 * S), "the player sits here / 플레이어 쪽", fill=(20, 20, 20), font=font, anchor="mm")
    out.parent.mkdir(parents=True, exist_ok=True)
    img.save(out, optimize=True)
    return out
