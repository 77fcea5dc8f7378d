"""Text for a pod's OLED, rendered on the hub: the pod carries no Korean font.

Each option's name is drawn with a real font (Debian's Noto Sans CJK, through Pillow)
into a 1-bit strip 16 rows tall and at most 128 columns wide, in the SSD1306's own
memory layout (framebuf MONO_VLSB: one byte is 8 rows of one column, least significant
bit on top; the first ``width`` bytes are rows 0-7, the next ``width`` rows 8-15), so the
pod blits it as it comes. ``strip_messages`` cuts a strip into the ``strip`` frames of
docs/protocol.md section 11. The firmware's few built-in status words (firmware/words.py)
are made here too (``python3 -m hub.pods.glyphs --words``), so both look the same.
"""

from __future__ import annotations

import functools
import sys
from pathlib import Path

HEIGHT = 16  # rows of a strip: two SSD1306 pages
INK = 15  # rows the text may use: the last stays dark, a gap above the screen's next line
MAX_WIDTH = 128  # the display's width
PART = 32  # strip bytes per frame (docs/protocol.md section 11)
MIN_SIZE = 11  # a long name shrinks to this font size, then is cut with an ellipsis
FONT_DIRS = ("/usr/share/fonts/opentype/noto", "/usr/share/fonts/truetype/noto", "/usr/share/fonts")
FONT_FILES = ("NotoSansCJK-Bold.ttc", "NotoSansCJK-Medium.ttc", "NotoSansCJK-Regular.ttc")
KR_FACE = 1  # the .ttc's faces: JP, KR, SC, TC, HK


class GlyphError(RuntimeError):
    pass


@functools.cache
def font_path() -> Path:
    for d in FONT_DIRS:
        for name in FONT_FILES:
            for p in sorted(Path(d).rglob(name)) if Path(d).is_dir() else ():
                return p
    raise GlyphError("Noto Sans CJK is not installed (Debian: apt-get install fonts-noto-cjk)")


@functools.cache
def _font(size: int):
    from PIL import ImageFont

    return ImageFont.truetype(str(font_path()), size, index=KR_FACE)


REF = "뷁값힣갃"  # tall Hangul: the ink box every name at a size is placed by


@functools.cache
def _place(size: int) -> tuple[int, bool]:
    """(y offset, fits): where text of this size sits so the reference's ink is centred in
    the strip's 16 rows (the same baseline for every name at that size)."""
    _, y0, _, y1 = _font(size).getbbox(REF)
    h = y1 - y0
    return (INK - h) // 2 - y0, h <= INK


def _draw(text: str, size: int):
    from PIL import Image, ImageDraw

    font = _font(size)
    w = int(font.getlength(text)) + 1
    img = Image.new("L", (max(1, w), HEIGHT), 0)
    ImageDraw.Draw(img).text((0, _place(size)[0]), text, fill=255, font=font)
    return img


def render(text: str, max_width: int = MAX_WIDTH) -> tuple[int, bytes]:
    """``text`` as a strip: (width, 2 x width bytes, MONO_VLSB). A name too wide at 16 px
    is drawn smaller, down to MIN_SIZE, then cut with an ellipsis."""
    text = " ".join(text.split())
    img = None
    for size in range(HEIGHT, MIN_SIZE - 1, -1):
        if not _place(size)[1]:
            continue  # this size's Hangul is taller than the strip
        img = _draw(text, size)
        if img.width <= max_width:
            break
    else:
        cut = text
        while cut and _draw(cut + "…", MIN_SIZE).width > max_width:
            cut = cut[:-1]
        img = _draw(cut.rstrip() + "…", MIN_SIZE)
    # 1 bit: ink where the anti-aliased coverage passes half
    bw = img.point(lambda v: 255 if v >= 110 else 0).convert("1")
    bbox = bw.getbbox()
    width = min(max_width, bbox[2] if bbox else 1)
    px = bw.load()
    out = bytearray(2 * width)
    for page in range(2):
        for x in range(width):
            b = 0
            for bit in range(8):
                if px[x, page * 8 + bit]:
                    b |= 1 << bit
            out[page * width + x] = b
    return width, bytes(out)


def to_rows(width: int, data: bytes) -> list[str]:
    """A strip as text rows ('#' ink, '.' none): for tests and for reading a diff."""
    return ["".join("#" if data[(y >> 3) * width + x] >> (y & 7) & 1 else "." for x in range(width))
            for y in range(HEIGHT)]


def strip_messages(prompt: int, slot: int, text: str) -> list[dict]:
    """The ``strip`` frames' fields for one option's name, in order."""
    width, data = render(text)
    return [{"prompt": prompt, "slot": slot, "width": width, "part": k, "data": data[o:o + PART]}
            for k, o in enumerate(range(0, len(data), PART))]


# The firmware's built-in words: shown when there is no hub to render them (firmware/words.py)
WORDS = {
    "LOCKED": "잠금",
    "LOST": "연결 끊김",
    "WAIT": "허브 대기",
    "UPDATE": "펌웨어 갱신",
    "TEST": "자가 진단",
    "WIN": "승리",
    "LOSE": "패배",
    "DRAW": "무승부",
    "PASS": "패스",
    "TIMEOUT": "시간 초과",
}


def words_module() -> str:
    """firmware/words.py's text (a test keeps the file equal to this)."""
    lines = [
        "# Built-in Korean status words for the OLED, 16 rows, MONO_VLSB (two pages),",
        "# rendered from Noto Sans CJK KR by hub/pods/glyphs.py: the pod has no Korean",
        "# font. Regenerate: python3 -m hub.pods.glyphs --words > firmware/words.py",
        "# name: (width, strip bytes)",
        "W = {",
    ]
    for key, text in WORDS.items():
        w, data = render(text)
        lines.append(f"    {key!r}: ({w}, {data!r}),  # {text}")
    lines.append("}")
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    if sys.argv[1:] == ["--words"]:
        sys.stdout.write(words_module())
    else:
        for t in sys.argv[1:]:
            w, d = render(t)
            print(f"{t}: {w} columns")
            print("\n".join(to_rows(w, d)))
