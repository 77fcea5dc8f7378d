"""The screenshots of docs/display.md: each mode's TV (1920x1080, /?tv) and the judge's phone
(390x844, admin), drawn by Debian's Chromium from the same tables the layout tests check
(tests/web/views.py), one browser resized between sizes.

    python3 -m tests.web.screenshots            # writes docs/display/<mode>-tv.png, <mode>-phone.png
    python3 -m tests.web.screenshots --out DIR  # somewhere else

The PNGs are reduced to a 256-colour palette (Pillow) to keep the repository small; the page
itself is what the tests measure, not these files."""

import argparse
import io
import sys
import time
from pathlib import Path

from hub.bot.coach import Coach
from hub.record.store import Store
from hub.sessions.table import Table
from hub.web.server import start_in_thread
from tests import chromium
from tests.web.conftest import TOKEN
from tests.web.test_browser import wait_for
from tests.web.views import VIEWS

ROOT = Path(__file__).resolve().parents[2]
SIZES = {"tv": (1920, 1080, "?tv", False), "phone": (390, 844, "", True)}


def save(png, path):
    """The screenshot as a palette PNG (a dark page with few colours loses nothing a reader sees)."""
    try:
        from PIL import Image
    except ImportError:                  # no Pillow: the browser's own PNG
        path.write_bytes(png)
        return
    img = Image.open(io.BytesIO(png)).convert("RGB").quantize(colors=256, method=Image.Quantize.MEDIANCUT)
    img.save(path, optimize=True)


def shoot(out, views=None, lang="ko"):
    table = Table(Store(":memory:"), admin_token=TOKEN)
    coach = Coach(table, iterations=16)
    handle = start_in_thread(table, tick_interval=0.1, tasks=(coach.run,))
    driver = chromium.start(1920, 1080, prefix="lumen-shots-")
    written = []
    try:
        for name in views or VIEWS:
            handle.call(VIEWS[name], table)
            if name == "referee":
                wait_for(lambda: handle.call(lambda: bool(coach.entries) and not coach.thinking), timeout=120, what="the coach")
            for kind, (w, h, fragment, admin) in SIZES.items():
                driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                                       {"width": w, "height": h, "deviceScaleFactor": 1, "mobile": w < 500})
                driver.get(handle.url + "/manifest.webmanifest")
                driver.execute_script("localStorage.setItem('lumen.lang', arguments[0]);"
                                      "if (arguments[1]) localStorage.setItem('lumen.token', arguments[1]);"
                                      "else localStorage.removeItem('lumen.token');", lang, TOKEN if admin else None)
                driver.get(handle.url + "/" + fragment)
                wait_for(lambda: driver.execute_script("const d = window.lumenDisplay; return !!(d && d.started() && d.settled()"
                                                       " && (!arguments[0] || d.admin()))", admin), what="the page")
                time.sleep(0.5)          # the last frame painted (the file is a picture, not a measurement)
                path = out / ("%s-%s.png" % (name, kind))
                save(driver.get_screenshot_as_png(), path)
                written.append(path)
    finally:
        driver.quit()
        handle.stop()
    return written


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", default=str(ROOT / "docs" / "display"), help="where the PNGs go")
    ap.add_argument("--view", action="append", choices=list(VIEWS), help="only these modes (repeat)")
    args = ap.parse_args(argv)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    for path in shoot(out, args.view):
        print("%s (%d KB)" % (path.relative_to(ROOT) if path.is_relative_to(ROOT) else path, path.stat().st_size // 1024))
    return 0


if __name__ == "__main__":
    sys.exit(main())
