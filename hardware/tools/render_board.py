"""Pictures of the pod carrier for the build guide, drawn from the board file.

KiCad 6 renders the board only in its editor (its 3D viewer needs a GL
window and the 5.5 GB 3D models), so this draws the .kicad_pcb with Pillow:
the top as a builder sees it (solder mask, pads, drills, silkscreen) and the
copper of both layers for a reviewer. Project venv (Pillow), no pcbnew.

    python hardware/tools/render_board.py      # hardware/renders/pcb-top.png, pcb-copper.png
"""

from __future__ import annotations

import math
import sys
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

sys.path.insert(0, str(Path(__file__).resolve().parent))
import sexpr

HERE = Path(__file__).resolve().parent
PX = 12  # pixels a millimetre
PAD = 4.0  # mm of margin round the board
FONT_PATHS = ["/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf", "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf"]


def _font(size_px: int):
    for p in FONT_PATHS:
        if Path(p).exists():
            return ImageFont.truetype(p, size_px)
    return ImageFont.load_default()


def _xy(at, rot, x, y):
    a = math.radians(rot)
    return (at[0] + x * math.cos(a) + y * math.sin(a), at[1] - x * math.sin(a) + y * math.cos(a))


def _style(item, default: float) -> tuple[float, str]:
    """(text height in mm, Pillow anchor) from a text's effects: its justification sets the anchor."""
    eff = sexpr.first(item, "effects")
    size = default
    anchor = "mm"
    if eff is not None:
        fnt = sexpr.first(eff, "font")
        sz = sexpr.first(fnt, "size") if fnt is not None else None
        if sz is not None:
            size = float(sz[2])
        just = sexpr.first(eff, "justify")
        if just is not None and "left" in just[1:]:
            anchor = "lm"
        elif just is not None and "right" in just[1:]:
            anchor = "rm"
    return size, anchor


class Board:
    def __init__(self, path: Path) -> None:
        t = sexpr.parse(path.read_text())
        self.edges, self.silk, self.texts, self.pads, self.tracks, self.vias = [], [], [], [], [], []
        for g in sexpr.find(t, "gr_line") + sexpr.find(t, "gr_arc"):
            if sexpr.value(g, "layer") == "Edge.Cuts":
                self.edges.append(g)
        for g in sexpr.find(t, "gr_text"):
            if sexpr.value(g, "layer") == "F.SilkS":
                at = sexpr.first(g, "at")
                self.texts.append((str(g[1]), float(at[1]), float(at[2]), *_style(g, 1.2), float(at[3]) if len(at) > 3 else 0.0))
        for fp in sexpr.find(t, "footprint"):
            at = sexpr.first(fp, "at")
            pos = (float(at[1]), float(at[2]))
            rot = float(at[3]) if len(at) > 3 else 0.0
            for ln in sexpr.find(fp, "fp_line"):
                if sexpr.value(ln, "layer") == "F.SilkS":
                    s, e = sexpr.first(ln, "start"), sexpr.first(ln, "end")
                    self.silk.append(("line", _xy(pos, rot, float(s[1]), float(s[2])),
                                      _xy(pos, rot, float(e[1]), float(e[2]))))
            for c in sexpr.find(fp, "fp_circle"):
                if sexpr.value(c, "layer") == "F.SilkS":
                    ce, e = sexpr.first(c, "center"), sexpr.first(c, "end")
                    cx, cy = _xy(pos, rot, float(ce[1]), float(ce[2]))
                    self.silk.append(("circle", (cx, cy), math.hypot(float(e[1]) - float(ce[1]), float(e[2]) - float(ce[2]))))
            for tx in sexpr.find(fp, "fp_text"):
                hidden = "hide" in tx or any(isinstance(x, list) and "hide" in x for x in tx)
                if tx[1] in ("reference", "value") and sexpr.value(tx, "layer") == "F.SilkS" and not hidden:
                    a = sexpr.first(tx, "at")
                    x, y = _xy(pos, rot, float(a[1]), float(a[2]))
                    # a text's angle in the file is its own (KiCad keeps it upright), not added to the part's
                    self.texts.append((str(tx[2]), x, y, *_style(tx, 1.0), float(a[3]) if len(a) > 3 else 0.0))
            for p in sexpr.find(fp, "pad"):
                a = sexpr.first(p, "at")
                x, y = _xy(pos, rot, float(a[1]), float(a[2]))
                size = sexpr.first(p, "size")
                drill = sexpr.first(p, "drill")
                layers = [str(v) for v in sexpr.first(p, "layers")[1:]]
                self.pads.append(dict(x=x, y=y, w=float(size[1]), h=float(size[2]), shape=str(p[3]), kind=str(p[2]),
                                      angle=float(a[3]) if len(a) > 3 else 0.0,
                                      drill=float(drill[1]) if drill is not None and len(drill) > 1 else 0.0,
                                      front="*.Cu" in layers or "F.Cu" in layers))
        for s in sexpr.find(t, "segment"):
            a, b = sexpr.first(s, "start"), sexpr.first(s, "end")
            self.tracks.append(((float(a[1]), float(a[2])), (float(b[1]), float(b[2])), float(sexpr.value(s, "width")),
                                str(sexpr.value(s, "layer"))))
        for v in sexpr.find(t, "via"):
            a = sexpr.first(v, "at")
            self.vias.append((float(a[1]), float(a[2]), float(sexpr.value(v, "size")), float(sexpr.value(v, "drill"))))
        xs = [float(p[1]) for g in self.edges for p in (sexpr.first(g, "start"), sexpr.first(g, "end"))]
        ys = [float(p[2]) for g in self.edges for p in (sexpr.first(g, "start"), sexpr.first(g, "end"))]
        self.size = (max(xs), max(ys))


def _p(x, y):
    return ((x + PAD) * PX, (y + PAD) * PX)


def _outline(d, b: Board, fill, outline):
    # the board's shape: its edge drawn as a polygon (arcs by their three points)
    W, H = b.size
    r = 3.0
    pts = []
    for cx, cy, a0 in ((W - r, r, 270), (W - r, H - r, 0), (r, H - r, 90), (r, r, 180)):
        for k in range(0, 91, 10):
            a = math.radians(a0 + k)
            pts.append(_p(cx + r * math.cos(a), cy + r * math.sin(a)))
    d.polygon(pts, fill=fill, outline=outline)


def _pad(d, p, color, grow=0.0):
    w, h = p["w"] + 2 * grow, p["h"] + 2 * grow
    x0, y0 = _p(p["x"] - w / 2, p["y"] - h / 2)
    x1, y1 = _p(p["x"] + w / 2, p["y"] + h / 2)
    if p["shape"] in ("circle", "oval"):
        d.rounded_rectangle((x0, y0, x1, y1), radius=min(x1 - x0, y1 - y0) / 2, fill=color)
    elif p["shape"] == "roundrect":
        d.rounded_rectangle((x0, y0, x1, y1), radius=min(x1 - x0, y1 - y0) / 4, fill=color)
    else:
        d.rectangle((x0, y0, x1, y1), fill=color)


def render_top(b: Board, out: Path) -> None:
    W, H = b.size
    img = Image.new("RGB", (int((W + 2 * PAD) * PX), int((H + 2 * PAD) * PX)), (236, 236, 232))
    d = ImageDraw.Draw(img)
    _outline(d, b, (22, 84, 46), (10, 40, 20))
    for a, c, w, layer in b.tracks:
        if layer == "F.Cu":
            d.line([_p(*a), _p(*c)], fill=(44, 122, 66), width=max(1, round(w * PX)))
            for pt in (a, c):
                r = w / 2 * PX
                x, y = _p(*pt)
                d.ellipse((x - r, y - r, x + r, y + r), fill=(44, 122, 66))
    for x, y, size, drill in b.vias:
        cx, cy = _p(x, y)
        r, rd = size / 2 * PX, drill / 2 * PX
        d.ellipse((cx - r, cy - r, cx + r, cy + r), fill=(44, 122, 66))
        d.ellipse((cx - rd, cy - rd, cx + rd, cy + rd), fill=(30, 30, 30))
    for p in b.pads:
        if p["kind"] == "np_thru_hole":
            continue
        if p["front"]:
            _pad(d, p, (206, 168, 82))
    for p in b.pads:
        if p["drill"]:
            cx, cy = _p(p["x"], p["y"])
            r = p["drill"] / 2 * PX
            d.ellipse((cx - r, cy - r, cx + r, cy + r), fill=(236, 236, 232) if p["kind"] == "np_thru_hole" else (40, 40, 40))
    white = (245, 245, 240)
    for item in b.silk:
        if item[0] == "line":
            d.line([_p(*item[1]), _p(*item[2])], fill=white, width=2)
        else:
            (cx, cy), r = item[1], item[2]
            x0, y0 = _p(cx - r, cy - r)
            x1, y1 = _p(cx + r, cy + r)
            d.ellipse((x0, y0, x1, y1), outline=white, width=2)
    for text, x, y, size, anchor, angle in b.texts:
        f = _font(int(size * PX * 1.15))
        if angle % 180 == 0:
            d.text(_p(x, y), text, fill=white, font=f, anchor=anchor)
        else:  # a vertical text (a value along a DIP): drawn level, turned, then pasted
            w, h = int(d.textlength(text, font=f)) + 4, int(size * PX * 1.6) + 4
            tile = Image.new("L", (w, h), 0)
            ImageDraw.Draw(tile).text((w / 2, h / 2), text, fill=255, font=f, anchor="mm")
            tile = tile.rotate(angle, expand=True)
            cx, cy = _p(x, y)
            img.paste(Image.new("RGB", tile.size, white), (int(cx - tile.width / 2), int(cy - tile.height / 2)), tile)
    img.save(out, optimize=True)


def render_copper(b: Board, out: Path) -> None:
    W, H = b.size
    img = Image.new("RGB", (int((W + 2 * PAD) * PX), int((H + 2 * PAD) * PX)), (20, 20, 24))
    d = ImageDraw.Draw(img, "RGBA")
    _outline(d, b, (34, 34, 40), (230, 230, 90))
    for layer, color in (("B.Cu", (80, 130, 255, 190)), ("F.Cu", (230, 60, 60, 190))):
        for a, c, w, ly in b.tracks:
            if ly == layer:
                d.line([_p(*a), _p(*c)], fill=color, width=max(1, round(w * PX)))
                for pt in (a, c):
                    r = w / 2 * PX
                    x, y = _p(*pt)
                    d.ellipse((x - r, y - r, x + r, y + r), fill=color)
    for p in b.pads:
        if p["kind"] != "np_thru_hole":
            _pad(d, p, (210, 170, 60, 255) if p["kind"] == "thru_hole" else (230, 80, 80, 255))
    for x, y, size, drill in b.vias:
        cx, cy = _p(x, y)
        r = size / 2 * PX
        d.ellipse((cx - r, cy - r, cx + r, cy + r), fill=(210, 210, 210, 255))
    for p in b.pads:
        if p["drill"]:
            cx, cy = _p(p["x"], p["y"])
            r = p["drill"] / 2 * PX
            d.ellipse((cx - r, cy - r, cx + r, cy + r), fill=(20, 20, 24, 255))
    f = _font(16)
    d.text((10, 8), "F.Cu (red), B.Cu (blue), pads (gold), vias (grey)", fill=(230, 230, 230), font=f)
    img.save(out, optimize=True)


def main() -> int:
    pcb = HERE.parent / "pcb" / "pod.kicad_pcb"
    outdir = HERE.parent / "renders"
    outdir.mkdir(exist_ok=True)
    b = Board(pcb)
    render_top(b, outdir / "pcb-top.png")
    render_copper(b, outdir / "pcb-copper.png")
    print(f"wrote {outdir / 'pcb-top.png'} and {outdir / 'pcb-copper.png'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
