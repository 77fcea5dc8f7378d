"""Pictures of the enclosure from its STL files: a small z-buffer renderer
(numpy, Pillow), flat-shaded, perspective; no GL window or display needed.

    pictures(meshes, outdir)   # meshes: {"bottom", "top", "caps", "diffuser", "board"} -> trimesh
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
from PIL import Image, ImageDraw, ImageFont

SS = 2  # supersampling
COLORS = {"bottom": (58, 60, 66), "top": (40, 42, 47), "caps": (214, 172, 60), "diffuser": (236, 236, 230),
          "board": (30, 110, 60)}
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


def pictures(meshes, outdir: Path) -> list[Path]:
    outdir.mkdir(parents=True, exist_ok=True)
    names = ("bottom", "top", "caps", "diffuser", "board")
    b = meshes["bottom"].bounds
    cx, cy = (b[0][0] + b[1][0]) / 2, (b[0][1] + b[1][1]) / 2
    files = []
    assembled = [(meshes[n], COLORS[n], (0, 0, 0)) for n in names if n != "board"]
    img = draw(assembled, (cx - 110, cy - 175, 160), (cx, cy, 16),
               title="Assembled, from the player's side / 조립 상태 (플레이어 쪽)")
    files.append(outdir / "enclosure-player.png")
    img.save(files[-1], optimize=True)
    img = draw(assembled, (cx + 80, cy + 220, 130), (cx, cy, 20),
               title="From across the table: the hood hides the ring / 상대 쪽: 후드가 링을 가립니다")
    files.append(outdir / "enclosure-opponent.png")
    img.save(files[-1], optimize=True)
    exploded = [(meshes["bottom"], COLORS["bottom"], (0, 0, 0)), (meshes["board"], COLORS["board"], (0, 0, 10)),
                (meshes["caps"], COLORS["caps"], (0, 0, 28)), (meshes["top"], COLORS["top"], (0, 0, 50)),
                (meshes["diffuser"], COLORS["diffuser"], (0, 0, 78))]
    img = draw(exploded, (cx - 170, cy - 250, 230), (cx, cy, 48), size=(960, 1000),
               title="Exploded: bottom, board, caps, top, diffuser / 분해도")
    files.append(outdir / "enclosure-exploded.png")
    img.save(files[-1], optimize=True)
    return files
