"""The pictures of docs/pod-ring.md, rendered from the real firmware.

    python3 tests/firmware/render_docs.py        # writes docs/pod/*.png and docs/pod/states.json

The firmware's views and screen run under the MicroPython unix port
(tests/firmware/mp/render_states.py: fake pins, a fake clock, an SSD1306 model on the
I2C bus) and print each state's ring image and OLED memory; this script draws them with
Pillow. test_docs_pictures.py keeps docs/pod/states.json equal to what the firmware
draws now, so a change to the ring language shows up as a stale picture.
"""

from __future__ import annotations

import json
import math
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from hub.pods import sim as podsim  # noqa: E402  (after the path is set)

HERE = Path(__file__).resolve().parent
OUT = ROOT / "docs" / "pod"
VECTORS = ROOT / "tests" / "vectors" / "protocol.json"


def states() -> list[dict]:
    fw = podsim.build()
    tests = podsim.build(files=sorted((HERE / "fakes").glob("*.py")) + sorted((HERE / "mp").glob("*.py")), opt=0)
    env = podsim.micropython_env(fw, (tests,))
    env["LUMEN_VECTORS"] = str(VECTORS)
    r = subprocess.run([podsim.micropython_binary(), "-X", "heapsize=256K", "-m", "render_states"], env=env,
                       capture_output=True, text=True, timeout=300, cwd=ROOT, check=False)
    if r.returncode != 0:
        raise SystemExit(f"render_states failed:\n{r.stdout[-2000:]}\n{r.stderr[-2000:]}")
    return [json.loads(line) for line in r.stdout.splitlines()]


def ring_png(hexring: str, path: Path) -> None:
    from PIL import Image, ImageDraw, ImageFilter

    px = bytes.fromhex(hexring)
    n = len(px) // 3
    size, r_ring, r_led = 240, 84, 15
    base = Image.new("RGB", (size, size), (24, 24, 28))
    glow = Image.new("RGB", (size, size), (0, 0, 0))
    d = ImageDraw.Draw(base)
    g = ImageDraw.Draw(glow)
    c = size / 2
    d.ellipse((c - r_ring - 24, c - r_ring - 24, c + r_ring + 24, c + r_ring + 24), outline=(60, 60, 66), width=2)
    for i in range(n):
        a = 2 * math.pi * i / n  # pixel 0 at 12 o'clock, clockwise
        x, y = c + r_ring * math.sin(a), c - r_ring * math.cos(a)
        rgb = tuple(px[3 * i:3 * i + 3])
        if max(rgb):
            g.ellipse((x - r_led * 1.6, y - r_led * 1.6, x + r_led * 1.6, y + r_led * 1.6), fill=rgb)
            d.ellipse((x - r_led, y - r_led, x + r_led, y + r_led), fill=rgb, outline=(90, 90, 96))
        else:
            d.ellipse((x - r_led, y - r_led, x + r_led, y + r_led), fill=(36, 36, 40), outline=(70, 70, 76))
    d.text((c - 6, 2), "12", fill=(110, 110, 118))
    out = Image.blend(base, glow.filter(ImageFilter.GaussianBlur(9)), 0.35)
    ImageDraw.Draw(out).bitmap((0, 0), Image.new("1", (1, 1)))
    # the LEDs themselves drawn again on top of the glow, sharp
    for i in range(n):
        a = 2 * math.pi * i / n
        x, y = c + r_ring * math.sin(a), c - r_ring * math.cos(a)
        rgb = tuple(px[3 * i:3 * i + 3])
        if max(rgb):
            ImageDraw.Draw(out).ellipse((x - r_led, y - r_led, x + r_led, y + r_led), fill=rgb)
    out.save(path, optimize=True)


def oled_png(oled: str, path: Path) -> None:
    from PIL import Image, ImageDraw

    h, ram = oled.split(":")
    h = int(h)
    ram = bytes.fromhex(ram)
    scale, pad = 3, 10
    img = Image.new("RGB", (128 * scale + 2 * pad, h * scale + 2 * pad), (10, 10, 12))
    d = ImageDraw.Draw(img)
    for y in range(h):
        for x in range(128):
            if ram[(y >> 3) * 128 + x] >> (y & 7) & 1:
                d.rectangle((pad + x * scale, pad + y * scale, pad + x * scale + scale - 2,
                             pad + y * scale + scale - 2), fill=(150, 215, 255))
    img.save(path, optimize=True)


def main() -> int:
    st = states()
    OUT.mkdir(parents=True, exist_ok=True)
    for s in st:
        if "oled" not in s:
            ring_png(s["ring"], OUT / f"ring_{s['name']}.png")
        else:
            oled_png(s["oled"], OUT / f"{s['name']}.png")
    (OUT / "states.json").write_text(json.dumps(st, indent=0) + "\n")
    print(f"wrote {len(st)} states to {OUT}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
